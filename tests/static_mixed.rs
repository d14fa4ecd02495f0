//! cute-static's algebra on layouts with run-time leaves against cute-dyn's on the same values
//! (DESIGN §3, "cute-static follows cute-dyn"): for random run-time extents and strides,
//! `to_dyn()` of cute-static's result, values and static flags alike (the cpp style prints
//! static values as `_N` and run-time ones as numbers), equals cute-dyn's answer; a refusal is
//! a refusal of the same kind.

use cute::cute_dyn::{self, Style};
use cute::cute_static::error::Error;
use cute::cute_static::{layout, tiler, Composition, FlatDivide, Layout, LogicalDivide, TiledDivide, ZippedDivide};
use proptest::prelude::*;

/// cute-static's answer (or refusal) in the form cute-dyn's is compared in.
fn ours<S, D>(r: Result<Layout<S, D>, Error>) -> Result<String, &'static str>
where
    S: cute::cute_static::Congruent<D>,
    D: cute::cute_static::IntTuple,
{
    r.map(|l| l.to_dyn().expect("fits in i64").to_styled(Style::Cpp)).map_err(|e| e.kind())
}

/// cute-dyn's answer for `op(layout, tiler)`, the layout given as cute-static's `to_dyn()`.
fn theirs<S, D>(op: &str, a: &Layout<S, D>, tiler: &str) -> Result<String, &'static str>
where
    S: cute::cute_static::Congruent<D>,
    D: cute::cute_static::IntTuple,
{
    let a = a.to_dyn().expect("fits in i64");
    let t: cute_dyn::Tiler = tiler.parse().expect("a tiler");
    let r = match op {
        "logical_divide" => cute_dyn::logical_divide(&a, &t),
        "zipped_divide" => cute_dyn::zipped_divide(&a, &t),
        "tiled_divide" => cute_dyn::tiled_divide(&a, &t),
        "flat_divide" => cute_dyn::flat_divide(&a, &t),
        "composition" => cute_dyn::composition(&a, &t),
        _ => unreachable!(),
    };
    r.map(|l| l.to_styled(Style::Cpp)).map_err(|e| e.kind())
}

/// All four divides of `$a` by `$t`, and the by-mode composition, (the tiler's literal, also parsed for cute-dyn).
macro_rules! divides_agree {
    ($a:expr, $($t:tt)*) => {{
        let a = $a;
        let text = stringify!($($t)*).replace(' ', "");
        assert_eq!(ours(a.logical_divide(tiler!($($t)*))), theirs("logical_divide", &a, &text), "logical_divide({a}, {text})");
        assert_eq!(ours(a.zipped_divide(tiler!($($t)*))), theirs("zipped_divide", &a, &text), "zipped_divide({a}, {text})");
        assert_eq!(ours(a.tiled_divide(tiler!($($t)*))), theirs("tiled_divide", &a, &text), "tiled_divide({a}, {text})");
        assert_eq!(ours(a.flat_divide(tiler!($($t)*))), theirs("flat_divide", &a, &text), "flat_divide({a}, {text})");
        assert_eq!(ours(a.composition(tiler!($($t)*))), theirs("composition", &a, &text), "composition({a}, {text})");
    }};
}

#[test]
fn the_issue_example() {
    // A matrix of run-time extents m = 128, n = 256 divided by a static 32x64 tile: the tile
    // modes static, the rest run-time.
    let (m, n) = (128, 256);
    let z = layout!(({m},{n}):(1,{m})).zipped_divide(tiler!(<32,64>)).unwrap();
    assert_eq!(z.to_string(), "((32,64),({4},{4})):((1,{128}),(32,{8192}))");
}

/// An extent or stride below `max`, 0 and 1 (the edge cases: empty and trivial modes) often.
fn extent(max: usize) -> impl Strategy<Value = usize> {
    prop_oneof![1 => Just(0usize), 1 => Just(1usize), 6 => 0..max]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn divides_and_compositions_of_matrices_agree_with_cute_dyn(m in extent(3000), n in extent(3000), s in extent(100)) {
        // column-major, row-major, a static extent, a run-time stride, three modes
        divides_agree!(layout!(({m},{n}):(1,{m})), <32,64>);
        divides_agree!(layout!(({m},{n}):({n},1)), <128,8>);
        divides_agree!(layout!(({m},{n}):({n},1)), <4:2,3>);
        divides_agree!(layout!(({m},{n}):(1,{m})), <(2,4):(1,8),3:4>);
        divides_agree!(layout!((12,{n}):({n},1)), <4,8>);
        divides_agree!(layout!(({m},16):({s},1)), <3,4:4>);
        divides_agree!(layout!(({m},{n},4):(1,{m},{s})), <16,(2,2):(2,1)>);
        divides_agree!(layout!(({m},{n},{s}):({s},1,{n})), <8>);
        // a tile whose complement CuTe truncates: refused for some extents (both crates)
        divides_agree!(layout!(({m},{n}):(1,{m})), <(2,4):(1,3)>);
        // strides of 0 (a broadcast mode)
        divides_agree!(layout!(({m},{n}):(0,1)), <4,4>);
        // a bare 1 (make_layout(1) is 1:0 for the divides, 1:1 for composition) and a 0
        divides_agree!(layout!(({m},{n}):(1,{m})), <1,4>);
        divides_agree!(layout!(({m},{n}):({n},1)), <8,1>);
        divides_agree!(layout!(({m},{n}):(1,{m})), <0,2>);
    }
}
