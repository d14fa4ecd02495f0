//! Grammar-based fuzzing (issue "never wrong, never unsound").
//!
//! * `cute eval`: random expressions over every operation of its table (`cute_cli::eval::OPS`),
//!   with random nested layouts, tuples, tilers and integers whose leaves take edge values
//!   (0, 1, 2^31, 2^32, 2^62, 2^63-1, negative, dynamic with divisors), nested calls, and
//!   malformed mutations of the text. Every input gets an answer or an error, never a panic;
//!   every intermediate and final result passes its operation's `@post` check
//!   (`eval_checked`); every answer, in each of the three styles, reads back as itself.
//! * the library: cute-dyn tensors and cute-static tensors with run-time leaves over random
//!   storage, every index below the size read, tiles taken at random coordinates, all under
//!   `catch_unwind`.
//!
//! 2048 cases per property in CI; `scripts/fuzz.sh` runs them for as long as asked
//! (`CUTE_FUZZ_CASES`; `CUTE_FUZZ_TRACE=FILE` leaves the last expression in `FILE`).

use std::panic::{catch_unwind, AssertUnwindSafe};

use cute::cute_dyn::{self as dy, parse_styled, Layout, Notation, Style};
use cute_cli::eval::{eval, eval_checked, OPS};
use proptest::prelude::*;

fn config() -> ProptestConfig {
    let cases = std::env::var("CUTE_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(2048);
    ProptestConfig { cases, max_shrink_iters: 2000, ..ProptestConfig::default() }
}

/// Integers at the edges: small values most of the time, and the values where arithmetic
/// overflows.
fn edge_int() -> impl Strategy<Value = i64> {
    prop_oneof![
        8 => 0i64..9,
        2 => prop::sample::select(vec![12i64, 16, 24, 32, 64, 96, 128]),
        1 => prop::sample::select(vec![-1i64, -2, -7, 1 << 31, 1 << 32, 1 << 62, i64::MAX, i64::MIN, -(1 << 62)]),
    ]
}

/// A leaf as text: static, or dynamic `{v}` / `{v:d}` with a divisor that divides it.
fn leaf() -> impl Strategy<Value = String> {
    (edge_int(), 0u8..6, prop::sample::select(vec![1i64, 2, 4])).prop_map(|(v, kind, d)| match kind {
        0 => format!("{{{v}}}"),
        1 if v % d == 0 && v != i64::MIN => format!("{{{v}:{d}}}"),
        _ => format!("{v}"),
    })
}

/// A nested tuple of `n`-leaf shape, as text, over the leaves given by `leaf`.
fn tuple_text(leaves: Vec<String>, profile: &[u8]) -> String {
    // profile: how to group the leaves: 0 = leaf, k > 0 = a tuple of k sub-groups.
    fn build(leaves: &mut std::vec::IntoIter<String>, profile: &[u8], at: &mut usize) -> String {
        let k = profile.get(*at).copied().unwrap_or(0);
        *at += 1;
        if k == 0 || *at > 12 {
            return leaves.next().unwrap_or_else(|| "1".into());
        }
        let parts: Vec<String> = (0..k).map(|_| build(leaves, profile, at)).collect();
        format!("({})", parts.join(","))
    }
    build(&mut leaves.into_iter(), profile, &mut 0)
}

/// A layout literal: one profile for the shape and the stride (so they are congruent, mostly).
fn layout_text() -> impl Strategy<Value = String> {
    (prop::collection::vec(0u8..4, 1..8), prop::collection::vec(leaf(), 8), prop::collection::vec(leaf(), 8))
        .prop_map(|(profile, s, d)| format!("{}:{}", tuple_text(s, &profile), tuple_text(d, &profile)))
}

fn tuple_arg() -> impl Strategy<Value = String> {
    (prop::collection::vec(0u8..4, 1..6), prop::collection::vec(leaf(), 8)).prop_map(|(p, s)| tuple_text(s, &p))
}

fn tiler_text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop_oneof![layout_text(), leaf(), Just("_".to_string())], 1..4)
        .prop_map(|v| format!("<{}>", v.join(",")))
}

fn atom() -> impl Strategy<Value = String> {
    prop_oneof![
        4 => layout_text(),
        2 => tuple_arg(),
        2 => edge_int().prop_map(|v| v.to_string()),
        1 => tiler_text(),
        1 => Just("_".to_string()),
        1 => (0i64..4, 0i64..4, -4i64..4).prop_map(|(b, m, s)| format!("Sw<{b},{m},{s}>")),
    ]
}

/// `op(args)` over the table, arguments atoms or (up to `depth`) nested calls.
fn call_text(depth: u32) -> BoxedStrategy<String> {
    let op = prop::sample::select(OPS.iter().map(|o| (o.name, o.args.0, o.args.1)).collect::<Vec<_>>());
    let arg = if depth == 0 { atom().boxed() } else { prop_oneof![3 => atom(), 1 => call_text(depth - 1)].boxed() };
    (op, prop::collection::vec(arg, 0..7))
        .prop_map(|((name, lo, hi), args)| {
            // The table's arity most of the time; a wrong count sometimes.
            let n = if args.len() % 5 == 4 { args.len() } else { lo + args.len() % (hi - lo + 1) };
            let args: Vec<String> = args.into_iter().cycle().take(n).collect();
            format!("{name}({})", args.join(","))
        })
        .boxed()
}

/// A mutation of well-formed text: a byte dropped, doubled or replaced.
fn mutate(text: &str, at: usize, how: u8, with: char) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return with.to_string();
    }
    let i = at % chars.len();
    match how % 3 {
        0 => {
            chars.remove(i);
        }
        1 => chars.insert(i, chars[i]),
        _ => chars[i] = with,
    }
    chars.into_iter().collect()
}

/// Whether `answer` (printed in `style`) is a value the notation reads back: layouts (basis
/// layouts too), tuples, integers, tilers (pairs, booleans, swizzles, tiled MMAs and identity
/// tensors are printed for people).
fn rereadable(answer: &str) -> bool {
    !(answer.starts_with('[')
        || answer.starts_with("ArithTuple")
        || answer.starts_with("TiledMMA")
        || answer == "true"
        || answer == "false"
        || answer.starts_with("Sw<") && !answer.contains(" o "))
}

fn check_expression(text: &str) -> Result<(), TestCaseError> {
    // `CUTE_FUZZ_TRACE=FILE`: each expression is written there before it runs, so that one
    // that kills the process (out of memory) is left in the file.
    if let Some(path) = std::env::var_os("CUTE_FUZZ_TRACE") {
        let _ = std::fs::write(path, text);
    }
    for style in [Style::Values, Style::Cpp, Style::Dsl] {
        let run = catch_unwind(AssertUnwindSafe(|| eval_checked(text, style)));
        let (answer, violation) = run.map_err(|_| TestCaseError::fail(format!("panic on {text:?} ({style:?})")))?;
        if let Some(v) = violation {
            return Err(TestCaseError::fail(format!("{text}: {v}")));
        }
        let Ok(answer) = answer else { continue };
        if !rereadable(&answer) {
            continue;
        }
        // The answer reads back as itself in its own style.
        let back = match style {
            Style::Values => eval(&answer, style),
            // A map over bits prints alike in every style; `cute eval` reads it.
            _ if answer.starts_with("xor[") || answer.starts_with("bits[") => eval(&answer, Style::Values),
            _ if answer.contains('@') => dy::basis::BasisLayout::parse(&answer, style).map(|b| b.to_styled(style)),
            _ if answer.contains(" o ") => {
                parse_styled::<dy::ComposedLayout>(&answer, style).map(|c| c.to_styled(style))
            }
            // A tuple would also read as a shape tiler (printed `<..>`): tuples first.
            _ => parse_styled::<dy::Coord>(&answer, style)
                .map(|c| c.to_styled(style))
                .or_else(|_| parse_styled::<dy::Tiler>(&answer, style).map(|t| t.to_styled(style))),
        };
        prop_assert_eq!(back.as_deref(), Ok(answer.as_str()), "{} ({:?}) does not read back", text, style);
    }
    Ok(())
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn eval_expressions_answer_pass_post_and_read_back(text in call_text(2)) {
        check_expression(&text)?;
    }

    #[test]
    fn malformed_expressions_are_errors_not_panics(text in call_text(1), at in any::<usize>(), how in any::<u8>(),
                                                   with in prop::sample::select(vec!['(', ')', ',', ':', '<', '>', '{', '}', '_', '-', '9', ' ', '?', 'x'])) {
        check_expression(&mutate(&text, at, how, with))?;
    }

    #[test]
    fn cute_dyn_tensors_never_panic(l in layout_text(), len in 0usize..200, coord in tuple_arg(), tiler in tiler_text()) {
        let Ok(layout) = l.parse::<Layout>() else { return Ok(()) };
        let data: Vec<u32> = (0..len as u32).collect();
        let r = catch_unwind(AssertUnwindSafe(|| {
            let Ok(t) = dy::tensor::Tensor::new(&data[..], layout.clone()) else { return };
            // Every index below the size is inside the storage (construction proved it).
            for i in 0..t.size().min(4096) {
                let v = *t.get(i).expect("an index below the size");
                assert_eq!(i64::from(v), layout.call(i as i64).unwrap(), "{layout} at {i}");
            }
            if let (Ok(tiler), Ok(c)) = (tiler.parse(), coord.parse()) {
                if let Ok(tile) = t.local_tile(&tiler, &c) {
                    for i in 0..tile.size().min(256) {
                        tile.get(i).expect("an index below the tile's size");
                    }
                }
            }
        }));
        prop_assert!(r.is_ok(), "panic on tensor {} over {} elements", l, len);
    }

    #[test]
    fn cute_static_tensors_never_read_outside_their_storage(s in prop::collection::vec(edge_int(), 2), d in prop::collection::vec(edge_int(), 2), len in 0usize..200) {
        use cute::cute_static::{layout, tensor::Tensor};
        let data: Vec<u64> = (0..len as u64).collect();
        let (s0, s1) = (s[0] as usize, s[1] as usize);
        let (d0, d1) = (d[0] as usize, d[1] as usize);
        let l = layout!(({s0},{s1}):({d0},{d1}));
        let r = catch_unwind(AssertUnwindSafe(|| {
            let Ok(t) = Tensor::new(&data[..], l) else { return };
            for i in 0..t.size().min(4096) {
                // The element at i is data[L(i)]: the storage holds its own offsets.
                assert_eq!(t[i] as usize, l.call(i));
            }
        }));
        prop_assert!(r.is_ok(), "panic on tensor {} over {} elements", l, len);
    }
}

/// The findings of the issue, each a regression: the input, and the start of its answer.
#[test]
fn fuzzing_findings_stay_fixed() {
    let cases = [
        ("complement(8:1,-4)", "error: invalid argument to complement: negative shape -4"),
        ("composition(6:1,-2)", "error: invalid argument to composition: negative tiler -2"),
        ("logical_product(3:3,-5)", "error: invalid argument to logical_product: negative tiler -5"),
        ("make_layout_left((2,-3))", "error: invalid argument to make_layout_left: negative shape -3"),
        // All-negative strides have a left inverse (CUTLASS's (4):(-1)): x -> -x.
        ("left_inverse(3:-1)", "3:-1"),
        ("left_inverse((2,4):(-1,2))", "error: invalid argument to left_inverse: strides of both signs"),
        // C++'s (2,2):(8,-2) is not A ∘ B under C++'s own evaluation: R(1,1) = 6, A(B(1,1)) = 1.
        (
            "composition((3,4):(1,8),(2,2):(3,-2))",
            "error: composition would break its postcondition (R(c) == A(B(c))): with strides of both signs",
        ),
        ("complement((2,4):(1,3),24)", "error: complement would break its postcondition"),
        ("shape_div(16,-2)", "error: invalid argument to ceil_div: the divisor -2 is negative"),
        ("ceil_div({16:16},-2)", "error: invalid argument to ceil_div: the divisor -2 is negative"),
        ("Sw<4611686018427387904,4611686018427387904,4611686018427387904>", "error: invalid argument to Swizzle"),
        ("swizzle_size(1,9223372036854775806,1)", "error: invalid argument to Swizzle"),
        ("idx2crd(3,4,(1))", "error: not congruent: idx2crd's shape and stride 4 and (1)"),
        ("values((2,-3):(1,1))", "error: parse error at byte 7: invalid argument to make_layout: negative shape -3"),
        ("downcast(2:-9223372036854775808,2)", "error: invalid argument to downcast: no stride-1 mode"),
        ("<(),2>", "<<>,2>"),
        ("<<>,2>", "<<>,2>"),
        ("{-9223372036854775808:9223372036854775808}", "{-9223372036854775808:9223372036854775808}"),
        // Found by the fuzzer: the empty layout has size 1 and maps index 0 to 0.
        ("call(slice_layout({0}:{0},{0}),0)", "0"),
        // Found by the fuzzer: a product of divisors of 0 past 2^63 printed `?{div=N}` that
        // did not read back; it is forgotten (any divisor divides 0).
        ("{0:18446744073709551615}", "error: parse error at byte 0: invalid argument to dynamic integer"),
    ];
    for (input, want) in cases {
        let got = match eval(input, Style::Values) {
            Ok(s) => s,
            Err(e) => format!("error: {e}"),
        };
        assert!(got.starts_with(want), "{input}: {got}");
    }
    // A left inverse of (4,{1}):(1,1) is a left inverse (its size-1 mode reaches only 0).
    let r = eval("left_inverse((4,{1}):(1,1))", Style::Values).unwrap();
    for i in 0..4 {
        assert_eq!(
            eval(&format!("values(call({r},call((4,{{1}}):(1,1),{i})))"), Style::Values).unwrap(),
            i.to_string()
        );
    }
    // Parsing is linear: 40,000 leaves in a layout literal.
    let n = 40_000;
    let text = format!("size(({}):({}))", vec!["1"; n].join(","), vec!["1"; n].join(","));
    assert_eq!(eval(&text, Style::Values).unwrap(), "1");
    // A layout nested past the depth limit through the library API is refused, not a stack
    // overflow.
    let deep = || (0..100_000).fold(dy::IntTuple::int(2), |t, _| dy::Tuple::Node(vec![t]));
    let e = Layout::new(deep(), deep()).unwrap_err();
    assert_eq!(e.to_string(), "invalid argument to make_layout: nesting deeper than 128 levels");
}
