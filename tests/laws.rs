//! proptest laws of the runtime algebra (each at least 256 cases), and the no-panic property of
//! the parser and of `cute eval` on arbitrary input.
//!
//! The post-conditions are `cute_dyn::post`'s (stated once, shared with the corpus test and the
//! fuzzer); the documented examples and the corpus exercise the same operations against oracles.

use cute::cute_dyn::{post, *};
use cute_cli::eval::eval;
use proptest::prelude::*;

// ---------------------------------------------------------------- generators

/// A shape: leaves from `leaf`, depth <= 3, rank <= 4.
fn shape_with(leaf: BoxedStrategy<i64>) -> impl Strategy<Value = IntTuple> {
    let leaf_t = leaf.prop_map(IntTuple::int);
    leaf_t.prop_recursive(3, 12, 4, |inner| prop::collection::vec(inner, 1..=4).prop_map(Tuple::Node))
}

fn small_shape() -> impl Strategy<Value = IntTuple> {
    shape_with((1i64..=6).boxed())
        .prop_filter("size <= 2048", |s| product(s).map(|p| p.value() <= 2048).unwrap_or(false))
}

fn pow2_shape() -> impl Strategy<Value = IntTuple> {
    shape_with(prop::sample::select(vec![1i64, 2, 4, 8]).boxed())
        .prop_filter("size <= 2048", |s| product(s).map(|p| p.value() <= 2048).unwrap_or(false))
}

/// Replace the leaves of `t` by `vals` in order.
fn refill(t: &IntTuple, vals: &[i64]) -> IntTuple {
    let mut it = vals.iter();
    t.map(&mut |_| Int::st(*it.next().expect("enough values")))
}

/// An injective layout: the flat modes visited in a random order, with a gap factor before each.
fn injective_from(shape: &IntTuple, order: &[usize], gaps: &[i64]) -> Layout {
    let s: Vec<i64> = shape.leaves().iter().map(|x| x.value()).collect();
    let mut d = vec![0i64; s.len()];
    let mut current = 1;
    for (k, &i) in order.iter().enumerate() {
        current *= gaps[k % gaps.len()];
        d[i] = current;
        current *= s[i];
    }
    Layout::new(shape.clone(), refill(shape, &d)).unwrap()
}

fn injective(shape: impl Strategy<Value = IntTuple>, max_gap: i64) -> impl Strategy<Value = Layout> {
    shape.prop_flat_map(move |s| {
        let n = s.leaves().len();
        (Just(s), Just((0..n).collect::<Vec<_>>()).prop_shuffle(), prop::collection::vec(1..=max_gap, 1..=4))
            .prop_map(|(s, order, gaps)| injective_from(&s, &order, &gaps))
    })
}

/// Any layout: random strides in [-8, 16] (so stride 0, negative and overlapping modes occur).
fn any_layout() -> impl Strategy<Value = Layout> {
    small_shape().prop_flat_map(|s| {
        let n = s.leaves().len();
        (Just(s), prop::collection::vec(-8i64..=16, n))
            .prop_map(|(s, d)| Layout::new(s.clone(), refill(&s, &d)).unwrap())
    })
}

/// Some leaves of `l` made dynamic (mask bit per leaf, shape leaves first).
fn dynamize(l: &Layout, mask: u64) -> Layout {
    let mut k = 0;
    let mut f = |x: &Int| {
        k += 1;
        if mask >> (k % 64) & 1 == 1 {
            x.to_dynamic()
        } else {
            *x
        }
    };
    let shape = l.shape().map(&mut f);
    let stride = l.stride().map(&mut f);
    Layout::new(shape, stride).unwrap()
}

fn image(l: &Layout) -> Vec<i64> {
    let n = l.size().unwrap().value();
    (0..n).map(|i| l.call(i).unwrap()).collect()
}

fn sorted(mut v: Vec<i64>) -> Vec<i64> {
    v.sort_unstable();
    v
}

/// A bijection of [0, n) as a layout over a random factorisation of n, and a prefix of its
/// modes (the corpus's way of drawing right-hand sides: sub-layouts of bijections).
fn sub_bijection(n: i64, order_seed: Vec<usize>, take: usize) -> Layout {
    let mut factors = Vec::new();
    let mut m = n;
    for p in [2, 3, 5, 7] {
        while m % p == 0 && m > 1 {
            factors.push(p);
            m /= p;
        }
    }
    if m > 1 || factors.is_empty() {
        factors.push(m.max(1));
    }
    let shape = IntTuple::ints(&factors);
    let k = factors.len();
    let order: Vec<usize> = {
        let mut o: Vec<usize> = (0..k).collect();
        for (i, s) in order_seed.iter().enumerate().take(k) {
            o.swap(i, s % k);
        }
        o
    };
    let full = injective_from(&shape, &order, &[1]);
    let take = take.clamp(1, k);
    full.take(0, take).unwrap()
}

// ---------------------------------------------------------------- post-conditions

// Each operation's @post conditions are stated once, in `cute_dyn::post`; these add what the
// generated inputs make true beyond them (injective inputs, dividing tiles).

fn check_coalesce_post(l: &Layout, r: &Layout) {
    post::check_coalesce(l, r).unwrap();
}

fn check_filter_post(l: &Layout, r: &Layout) {
    post::check_filter(l, r).unwrap();
}

fn check_composition_post(a: &Layout, b: &Layout, r: &Layout) {
    post::check_composition(a, &Tiler::Layout(b.clone()), r).unwrap();
}

fn check_complement_post(l: &Layout, cotarget: i64, r: &Layout) {
    post::check_complement(l, &IntTuple::int(cotarget), r).unwrap();
    assert!(image(r).iter().all(|&x| x < cotarget), "complement within cotarget {cotarget}: {r}");
}

fn check_right_inverse_post(l: &Layout, r: &Layout) {
    post::check_right_inverse(l, r).unwrap();
}

fn check_left_inverse_post(l: &Layout, r: &Layout) {
    // For an injective L, the quasi-inverse's L(R(L(i))) == L(i) is R(L(i)) == i.
    post::check_left_inverse(l, r).unwrap();
}

fn check_divide_post(a: &Layout, b: &Layout, r: &Layout) {
    post::check_logical_divide(a, &Tiler::Layout(b.clone()), r).unwrap();
    // When B's size divides A's, the divide permutes A's domain.
    assert_eq!(sorted(image(r)), sorted(image(a)), "A / B is a rearrangement of A: {a} / {b} = {r}");
}

fn check_product_post(a: &Layout, b: &Layout, r: &Layout) {
    post::check_logical_product(a, &Tiler::Layout(b.clone()), r).unwrap();
    assert_eq!(&r.get(0).unwrap(), a, "layout<0>(A x B) = A");
    let img = sorted(image(r));
    assert!(img.windows(2).all(|w| w[0] != w[1]), "A x B is injective for injective A, B: {r}");
}

fn same_function(x: &Layout, y: &Layout) {
    assert!(post::same_function(x, y).unwrap(), "{x} and {y} differ as functions");
}

/// The errors that say "this composition is not admissible" (and nothing else went wrong).
fn admissibility(e: &Error) -> bool {
    e.is_admissibility()
}

fn config() -> ProptestConfig {
    ProptestConfig { cases: 256, ..ProptestConfig::default() }
}

// ---------------------------------------------------------------- laws

proptest! {
    #![proptest_config(config())]

    #[test]
    fn coalesce_keeps_size_and_function(l in any_layout(), mask in any::<u64>()) {
        check_coalesce_post(&l, &coalesce(&l).unwrap());
        // Mixed static/dynamic leaves: the structure may differ, the function may not.
        let d = dynamize(&l, mask);
        check_coalesce_post(&d, &coalesce(&d).unwrap());
    }

    #[test]
    fn filter_keeps_image(l in any_layout()) {
        check_filter_post(&l, &filter(&l).unwrap());
    }

    #[test]
    fn composition_is_function_composition(a in any_layout(), seed in prop::collection::vec(0usize..8, 8), take in 1usize..4, mask in any::<u64>()) {
        let b = sub_bijection(a.size().unwrap().value(), seed, take);
        match composition(&a, &Tiler::Layout(b.clone())) {
            Ok(r) => {
                check_composition_post(&a, &b, &r);
                // The same composition with dynamic leaves computes the same function.
                let (ad, bd) = (dynamize(&a, mask), dynamize(&b, mask.rotate_left(7)));
                let rd = composition(&ad, &Tiler::Layout(bd.clone()));
                let rd = rd.unwrap_or_else(|e| panic!("{ad} o {bd}: {e} (static: {a} o {b} = {r})"));
                same_function(&r, &rd);
            }
            Err(e) => prop_assert!(admissibility(&e), "{e}"),
        }
    }

    #[test]
    fn composition_of_powers_of_two_always_succeeds(a in injective(pow2_shape(), 2), seed in prop::collection::vec(0usize..8, 8), take in 1usize..4) {
        let b = sub_bijection(a.size().unwrap().value(), seed, take);
        let r = composition(&a, &Tiler::Layout(b.clone())).unwrap();
        check_composition_post(&a, &b, &r);
    }

    #[test]
    fn complement_is_ordered_disjoint_and_within(l in injective(small_shape(), 3), k in 1i64..4) {
        let span = l.pairs().iter().map(|(s, d)| s.value() * d.value()).max().unwrap();
        let cotarget = span * k;
        let r = complement(&l, &IntTuple::int(cotarget)).unwrap();
        check_complement_post(&l, cotarget, &r);
    }

    #[test]
    fn right_inverse_law(l in any_layout()) {
        check_right_inverse_post(&l, &right_inverse(&l).unwrap());
    }

    #[test]
    fn right_inverse_of_a_bijection_is_total(l in injective(small_shape(), 1)) {
        let r = right_inverse(&l).unwrap();
        prop_assert_eq!(r.size().unwrap().value(), l.size().unwrap().value());
        check_right_inverse_post(&l, &r);
    }

    #[test]
    fn left_inverse_law(l in injective(small_shape(), 3)) {
        check_left_inverse_post(&l, &left_inverse(&l).unwrap());
    }

    #[test]
    fn logical_divide_post(a in injective(pow2_shape(), 1), seed in prop::collection::vec(0usize..8, 8), take in 1usize..4) {
        let b = sub_bijection(a.size().unwrap().value(), seed, take);
        let r = logical_divide(&a, &Tiler::Layout(b.clone())).unwrap();
        check_divide_post(&a, &b, &r);
        // zipped, tiled and flat divides rearrange modes only.
        for other in [zipped_divide(&a, &Tiler::Layout(b.clone())), tiled_divide(&a, &Tiler::Layout(b.clone())), flat_divide(&a, &Tiler::Layout(b.clone()))] {
            same_function(&r, &other.unwrap());
        }
    }

    #[test]
    fn logical_product_is_admissible_or_refused(a in injective(small_shape(), 2), b in injective(small_shape(), 2)) {
        match logical_product(&a, &Tiler::Layout(b.clone())) {
            Ok(r) => check_product_post(&a, &b, &r),
            Err(e) => prop_assert!(admissibility(&e), "{e}"),
        }
    }

    #[test]
    fn logical_product_post(a in injective(pow2_shape(), 2), b in injective(pow2_shape(), 2)) {
        prop_assume!(a.size().unwrap().value() * b.size().unwrap().value() <= 1 << 14);
        let r = logical_product(&a, &Tiler::Layout(b.clone())).unwrap();
        check_product_post(&a, &b, &r);
        for other in [zipped_product(&a, &Tiler::Layout(b.clone())), tiled_product(&a, &Tiler::Layout(b.clone())), flat_product(&a, &Tiler::Layout(b.clone()))] {
            same_function(&r, &other.unwrap());
        }
        // The rank-sensitive products zip modes: both operands tuples (as CuTe's zip requires).
        if a.shape().is_tuple() && b.shape().is_tuple() {
            let bp = blocked_product(&a, &b).unwrap();
            prop_assert_eq!(bp.rank(), a.rank().max(b.rank()));
            prop_assert_eq!(sorted(image(&bp)), sorted(image(&r)));
            let rp = raked_product(&a, &b).unwrap();
            prop_assert_eq!(sorted(image(&rp)), sorted(image(&r)));
        }
    }

    #[test]
    fn parse_print_round_trips_in_every_style(l in any_layout(), mask in any::<u64>(), divs in prop::collection::vec(1u64..5, 64)) {
        // Dynamic leaves with known divisors.
        let mut k = 0;
        let mut f = |x: &Int| {
            k += 1;
            if mask >> (k % 64) & 1 == 1 {
                let d = divs[k % divs.len()];
                Int::dy_div(x.value() * d as i64, d).unwrap()
            } else {
                *x
            }
        };
        let x = Layout::new(l.shape().map(&mut f), l.stride().map(&mut f)).unwrap();
        // Values style: the identity.
        prop_assert_eq!(&parse_styled::<Layout>(&x.to_styled(Style::Values), Style::Values).unwrap(), &x);
        // Cpp and Dsl styles: the identity on what the style shows.
        for style in [Style::Cpp, Style::Dsl] {
            let text = x.to_styled(style);
            let back: Layout = parse_styled(&text, style).unwrap();
            prop_assert_eq!(back.to_styled(style), text);
        }
        // Cpp keeps values and static flags.
        let back: Layout = parse_styled(&x.to_styled(Style::Cpp), Style::Cpp).unwrap();
        let flags = |l: &Layout| l.pairs().iter().map(|(s, d)| (s.value(), s.is_static(), d.value(), d.is_static())).collect::<Vec<_>>();
        prop_assert_eq!(flags(&back), flags(&x));
    }
}

// ---------------------------------------------------------------- no panic on arbitrary input

const OPS: &[&str] = &[
    "coalesce",
    "composition",
    "complement",
    "right_inverse",
    "left_inverse",
    "logical_divide",
    "zipped_divide",
    "tiled_divide",
    "flat_divide",
    "logical_product",
    "blocked_product",
    "raked_product",
    "tile_to_shape",
    "upcast",
    "downcast",
    "crd2idx",
    "idx2crd",
    "crd2crd",
    "slice",
    "slice_and_offset",
    "shape_div",
    "prefix_product",
    "swizzle",
    "composed_call",
    "max_common_layout",
    "nullspace",
    "make_ordered_layout",
    "filter",
    "get",
    "call",
];

fn fragment() -> impl Strategy<Value = String> {
    prop_oneof![
        "[0-9]{1,3}",
        "-?[0-9]{1,20}",
        Just("_".to_string()),
        Just("{8:4}".to_string()),
        Just("?{div=2}".to_string()),
        prop::sample::select(vec!["(", ")", ",", ":", "<", ">", "{", "}", "?", " ", "Sw<3,3,3>"])
            .prop_map(String::from),
        prop::sample::select(OPS.to_vec()).prop_map(|s| format!("{s}(")),
    ]
}

/// 4096 cases in CI; `CUTE_FUZZ_CASES=1000000` for a long run.
fn fuzz_config() -> ProptestConfig {
    let cases = std::env::var("CUTE_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(4096);
    ProptestConfig { cases, ..ProptestConfig::default() }
}

proptest! {
    #![proptest_config(fuzz_config())]

    #[test]
    fn eval_never_panics_on_token_soup(parts in prop::collection::vec(fragment(), 0..24)) {
        let text: String = parts.concat();
        for style in [Style::Values, Style::Cpp, Style::Dsl] {
            let _ = eval(&text, style);
        }
    }

    #[test]
    fn parser_never_panics_on_arbitrary_strings(text in "\\PC{0,64}") {
        let _ = text.parse::<Layout>();
        let _ = text.parse::<Tiler>();
        let _ = text.parse::<Coord>();
        let _ = eval(&text, Style::Values);
    }

    #[test]
    fn every_op_on_random_layouts_never_panics(op in prop::sample::select(OPS.to_vec()), a in any_layout(), b in any_layout(), n in -3i64..70) {
        for args in [format!("{a}"), format!("{a},{b}"), format!("{a},{n}"), format!("{n},{a}"), format!("{a},{}", b.shape()), format!("{},{a}", b.shape()),
                     format!("{n},{n},{n},{n},{a},{n}")] {
            let _ = eval(&format!("{op}({args})"), Style::Values);
        }
    }

    #[test]
    fn overflow_is_an_error(a in 2i64..1000, b in any_layout()) {
        let big = i64::MAX / a + 1;
        let text = format!("composition(({big},{big}):(1,{big}),{})", b);
        let _ = eval(&text, Style::Values);
        let size = format!("size(({big},{big},{big}):(1,1,1))");
        prop_assert!(eval(&size, Style::Values).is_err());
    }
}
