//! A refusal must be true (issue "A refusal must be true"): random layouts with random leaves
//! made dynamic, through every operation that can refuse, against the *static twin* (the same
//! values, every leaf static):
//!
//! * the mixed input is refused with a precondition violation ⇒ the twin is refused with the
//!   same kind; or the mixed refusal is `undecided` (it needs static values) and the twin is
//!   not refused;
//! * the mixed input gets an answer and so does the twin ⇒ the two are the same function (a
//!   divide may pad its rest further: then they agree on the twin's domain; an inverse may
//!   be another inverse, among modes of equal stride: then it passes the @post check);
//! * the mixed input gets an answer where the twin is refused ⇒ the answer passes the
//!   operation's @post check (the run-time path knows the values; e.g. a composition whose
//!   modes only run-time values let merge).
//!
//! The counts of each case are printed (`cargo test --test refusals -- --nocapture`).

use std::collections::BTreeMap;
use std::sync::Mutex;

use cute::cute_dyn::{self as dy, post, Int, IntTuple, Layout, Tiler, Tuple};
use cute_cli::eval::{post_check, Value};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

/// A random layout: shape leaves 1..=6 (1 often, the case dynamic values make hard), strides
/// -1..=24 (0 and repeats often), nested up to depth 2.
fn layout() -> impl Strategy<Value = Layout> {
    let leaf = prop_oneof![3 => Just(1i64), 6 => 2i64..=6].prop_map(IntTuple::int);
    let shape = leaf.prop_recursive(2, 8, 3, |inner| prop::collection::vec(inner, 1..=3).prop_map(Tuple::Node));
    shape.prop_flat_map(|s| {
        let n = s.leaves().len();
        let stride = prop_oneof![2 => Just(0i64), 1 => Just(1i64), 6 => 1i64..=24, 1 => Just(-1i64)];
        (Just(s), prop::collection::vec(stride, n)).prop_map(|(s, d)| {
            let mut it = d.into_iter();
            let stride = s.map(&mut |_| Int::st(it.next().unwrap()));
            Layout::new(s, stride).unwrap()
        })
    })
}

/// The leaves of `l` where `mask` has a 1 made dynamic (shape leaves first).
fn dynamize(l: &Layout, mask: u32) -> Layout {
    let mut k = 0;
    let mut f = |x: &Int| {
        k += 1;
        if mask >> (k % 32) & 1 == 1 {
            x.to_dynamic()
        } else {
            *x
        }
    };
    Layout::new(l.shape().map(&mut f), l.stride().map(&mut f)).unwrap()
}

const OPS: &[&str] = &[
    "composition",
    "complement",
    "complement_cosize",
    "logical_divide",
    "zipped_divide",
    "logical_product",
    "blocked_product",
    "raked_product",
    "right_inverse",
    "left_inverse",
    "coalesce",
    "upcast",
    "downcast",
    "tile_to_shape",
];

/// Run `op` on (a, b, n); also the name and the arguments as `cute eval` values (for
/// `post_check`).
fn run(op: &str, a: &Layout, b: &Layout, n: i64) -> (dy::Result<Layout>, Vec<Value>) {
    let t = Tiler::Layout(b.clone());
    let (la, lb) = (Value::Layout(a.clone()), Value::Layout(b.clone()));
    let cot = IntTuple::int(n);
    match op {
        "composition" => (dy::composition(a, &t), vec![la, lb]),
        "complement" => (dy::complement(a, &cot), vec![la, Value::Int(Int::st(n))]),
        "complement_cosize" => (dy::complement_cosize(a), vec![la]),
        "logical_divide" => (dy::logical_divide(a, &t), vec![la, lb]),
        "zipped_divide" => (dy::zipped_divide(a, &t), vec![la, lb]),
        "logical_product" => (dy::logical_product(a, &t), vec![la, lb]),
        "blocked_product" => (dy::blocked_product(a, b), vec![la, lb]),
        "raked_product" => (dy::raked_product(a, b), vec![la, lb]),
        "right_inverse" => (dy::right_inverse(a), vec![la]),
        "left_inverse" => (dy::left_inverse(a), vec![la]),
        "coalesce" => (dy::coalesce(a), vec![la]),
        "upcast" => (dy::upcast(a, n % 4 + 1), vec![]),
        "downcast" => (dy::downcast(a, n % 4 + 1), vec![]),
        "tile_to_shape" => (dy::tile_to_shape(a, &dy::product_each(&b.shape()).unwrap(), None), vec![]),
        _ => unreachable!(),
    }
}

fn op_name(op: &str) -> &'static str {
    match op {
        "complement_cosize" => "complement",
        o => OPS.iter().find(|x| **x == o).unwrap(),
    }
}

#[test]
fn mixed_refusals_are_true_and_mixed_answers_agree_with_the_static_twin() {
    let counts: Mutex<BTreeMap<(String, &'static str), usize>> = Mutex::default();
    let cases = std::env::var("CUTE_REFUSAL_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(6000);
    let mut runner = TestRunner::new(Config { cases, ..Config::default() });
    let strategy = (prop::sample::select(OPS.to_vec()), layout(), layout(), any::<u32>(), any::<u32>(), 1i64..64);
    let result = runner.run(&strategy, |(op, a, b, ma, mb, n)| {
        // At least one leaf dynamic: the first shape leaf of A when the masks miss all.
        let (mut ad, bd) = (dynamize(&a, ma), dynamize(&b, mb));
        if ad.is_static() && bd.is_static() {
            ad = dynamize(&a, 2);
        }
        let (mixed, args) = run(op, &ad, &bd, n);
        let (twin, _) = run(op, &a, &b, n);
        let class = match (&mixed, &twin) {
            (Err(e), _) if e.kind() == "undecided" => {
                prop_assert!(twin.is_ok(), "{op}({ad}, {bd}): undecided, but the twin is refused too: {:?}", twin);
                "refused: undecided (twin answers)"
            }
            (Err(e), Err(t)) => {
                prop_assert_eq!(e.kind(), t.kind(), "{}({}, {}): {} / twin: {}", op, ad, bd, e, t);
                "refused: same kind as the twin"
            }
            (Err(e), Ok(t)) => {
                // Arithmetic facts (overflow) may differ only if the twin overflowed too.
                return Err(TestCaseError::fail(format!("{op}({ad}, {bd}) refused ({e}) but the twin answers {t}")));
            }
            (Ok(r), Ok(t)) if post::same_function(r, t).unwrap() => "answered: the twin's function",
            (Ok(r), Ok(t)) => {
                // A divide's rest is `ceil_div(shape(coalesce(A)), size(B))` mode by mode: over
                // the modes a dynamic A keeps (the DSL's rule) it can pad further than over the
                // twin's coalesced modes. Then the two agree on the twin's whole domain.
                let (ri, ti) = (post::image(r).unwrap(), post::image(t).unwrap());
                if op.contains("divide") && ri.len() > ti.len() && ri[..ti.len()] == ti[..] {
                    "answered: the twin's function, padded further"
                } else if op.contains("inverse") {
                    // An inverse is not unique: which of several modes of equal stride C++'s
                    // sort takes depends on the modes a coalesce kept. Both must be inverses.
                    post_check(op, &args, &Value::Layout(r.clone()))
                        .map_err(|v| TestCaseError::fail(format!("{op}({ad}) = {r}: {v}")))?;
                    "answered: another inverse (@post checked)"
                } else {
                    return Err(TestCaseError::fail(format!("{op}({ad}, {bd}) = {r} but the twin gives {t}")));
                }
            }
            (Ok(r), Err(_)) => {
                if !args.is_empty() {
                    post_check(op_name(op), &args, &Value::Layout(r.clone()))
                        .map_err(|v| TestCaseError::fail(format!("{op}({ad}, {bd}) = {r}: {v}")))?;
                }
                "answered where the twin is refused (@post checked)"
            }
        };
        *counts.lock().unwrap().entry((op.to_string(), class)).or_default() += 1;
        Ok(())
    });
    let counts = counts.into_inner().unwrap();
    let mut by_class: BTreeMap<&str, usize> = BTreeMap::new();
    for ((op, class), n) in &counts {
        println!("{op:18} {class:55} {n}");
        *by_class.entry(class).or_default() += n;
    }
    println!("{by_class:?}");
    if let Err(e) = result {
        panic!("{e}");
    }
    // Every class of outcome occurs (the generator reaches refusals and answers alike).
    assert!(by_class.len() >= 3, "{by_class:?}");
}

/// The examples: `(2,{1}):(4,{4})` is injective (its size-1 mode reaches only index 0),
/// so its complement and the products built on it answer, with the function of the all-static
/// twin's answer (`complement((2,1):(4,4),16)` = `(4,2):(1,8)`, from the definition: the
/// indices 0..16 that `L` (0 and 4) does not reach in order, 4 at a time), every leaf dynamic.
#[test]
fn a_dynamic_size_one_mode_is_no_reason_to_refuse() {
    let l: Layout = "(2,{1}):(4,{4})".parse().unwrap();
    let twin: Layout = "(2,1):(4,4)".parse().unwrap();
    let r = dy::complement(&l, &IntTuple::int(16)).unwrap();
    assert_eq!(dy::complement(&twin, &IntTuple::int(16)).unwrap().to_string(), "(4,2):(1,8)");
    assert!(post::same_function(&r, &"(4,2):(1,8)".parse().unwrap()).unwrap());
    assert!(!r.shape().is_static() && !r.stride().is_static(), "{r}");
    let p = dy::logical_product(&l, &Tiler::Layout("2:1".parse().unwrap())).unwrap();
    let pt = dy::logical_product(&twin, &Tiler::Layout("2:1".parse().unwrap())).unwrap();
    assert!(post::same_function(&p, &pt).unwrap(), "{p} vs {pt}");
    // A refusal the twin shares stands as it is: (2,2):(1,1) maps (1,0) and (0,1) to 1.
    let e = dy::complement(&"(2,2):(1,{1})".parse().unwrap(), &IntTuple::int(16)).unwrap_err();
    assert_eq!(e.kind(), "non_injective", "(2,2):(1,1) is non-injective too: {e}");
    // One it does not share: complement ignores stride-0 modes, which `filter` removes only when
    // the 0 is static (the DSL's rule); the twin 2:0 has the complement 24:1.
    let e = dy::complement(&"(2):({0})".parse().unwrap(), &IntTuple::int(24)).unwrap_err();
    assert_eq!(e.kind(), "undecided");
    assert!(e.to_string().ends_with("make the dynamic leaves of (2):({0}) static"), "{e}");
    assert_eq!(dy::complement(&"(2):(0)".parse().unwrap(), &IntTuple::int(24)).unwrap().to_string(), "24:1");
}
