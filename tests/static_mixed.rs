//! cute-static's algebra on layouts with run-time leaves against cute-dyn's on the same values
//! (DESIGN §3, "cute-static follows cute-dyn"): for random run-time extents and strides,
//! `to_dyn()` of cute-static's result, values and static flags alike (the cpp style prints
//! static values as `_N` and run-time ones as numbers), equals cute-dyn's answer; a refusal is
//! a refusal of the same kind.

use cute::cute_dyn::{self, Style};
use cute::cute_static::typenum::{U24, U64};
use cute::cute_static::{layout, shape, tiler, Decided, IntTuple, Layout, RightInverse, Show};
use proptest::prelude::*;

#[path = "common/answer.rs"]
mod answer;
use answer::{ours, styled};

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
        "logical_product" => cute_dyn::logical_product(&a, &t),
        "zipped_product" => cute_dyn::zipped_product(&a, &t),
        "tiled_product" => cute_dyn::tiled_product(&a, &t),
        "flat_product" => cute_dyn::flat_product(&a, &t),
        "blocked_product" | "raked_product" => {
            let cute_dyn::Tiler::Layout(b) = t else { unreachable!("a rank product takes a layout") };
            if op == "blocked_product" {
                cute_dyn::blocked_product(&a, &b)
            } else {
                cute_dyn::raked_product(&a, &b)
            }
        }
        _ => unreachable!(),
    };
    styled(r)
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

/// `composition($a, $b)` for a layout `$b` (given as a literal, also parsed for cute-dyn).
macro_rules! composition_agrees {
    ($a:expr, $($b:tt)*) => {{
        let a = $a;
        let text = stringify!($($b)*).replace(' ', "");
        assert_eq!(ours(a.composition(layout!($($b)*))), theirs("composition", &a, &text), "composition({a}, {text})");
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// A vector of run-time length (`make_layout(n)`, a strided view of one) divided or composed
    /// by one layout or integer, not by mode: CuTe's 1-D tiling, `zipped_divide(make_layout(n),
    /// Layout<_128>{})`. Also by a rank-1 by-mode tiler, which nests once more.
    #[test]
    fn vectors_of_run_time_length_by_one_layout_agree_with_cute_dyn(n in extent(5000), s in extent(100)) {
        divides_agree!(layout!({n}:1), 128:1);
        divides_agree!(layout!({n}:1), <128:1>);
        divides_agree!(layout!({n}:{s}), (4,8):(8,1));
        divides_agree!(layout!({n}:3), (2,2):(1,8));
        divides_agree!(layout!({n}:{s}), 4:2);
        // a tile whose complement CuTe truncates: refused for some lengths (both crates)
        divides_agree!(layout!({n}:1), (2,4):(1,3));
        // a broadcast tile, and bare integers (make_layout(n) for the divides, n:1 for
        // composition)
        divides_agree!(layout!({n}:{s}), (4,2):(0,1));
        divides_agree!(layout!({n}:2), 32);
        divides_agree!(layout!({n}:{s}), 1);
        divides_agree!(layout!({n}:1), 0);
        // a run-time stride with a static length goes the marked-stride route
        divides_agree!(layout!(96:{s}), (4,8):(8,1));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Static shapes with run-time strides (a kernel's tile of a global tensor, `(_128,_64):
    /// (_1,ldA)`): any nesting, any tiler, composition by any layout (CuTe C++'s dynamic-stride
    /// path, through the type checker's algorithm on marked strides).
    #[test]
    fn static_shapes_with_run_time_strides_agree_with_cute_dyn(s in extent(5000), t in extent(5000), u in extent(64)) {
        // the tiles of a column-major and a row-major global tensor
        divides_agree!(layout!((128,64):(1,{s})), <32,64>);
        divides_agree!(layout!((128,64):({s},1)), <(4,8):(8,1),16>);
        divides_agree!(layout!((64,32):({s},1)), <(8,4):(4,1),(2,4):(1,8)>);
        divides_agree!(layout!((64,32):({s},{t})), <16:2,4>);
        // nested modes, the run-time stride inside a mode and as a mode's only stride
        divides_agree!(layout!((9,(4,8)):({s},(13,{t}))), <3:3,(2,4):(1,8)>);
        divides_agree!(layout!(((4,2),6,3):(({s},1),{t},{u})), <8,3>);
        divides_agree!(layout!((8,(4,8)):({s},(1,{t}))), <2,(2,4):(4,1)>);
        // a layout tiler (not by mode) over a multi-mode layout
        divides_agree!(layout!((4,2,3):({s},1,{t})), 4:2);
        divides_agree!(layout!((16,24):({s},16)), (4,2):(2,16));
        // general composition, by layouts reading across modes
        composition_agrees!(layout!((6,2):(8,{s})), (4,3):(3,1));
        composition_agrees!(layout!(((4,2),6,3):(({s},1),8,48)), (8,9):(1,8));
        composition_agrees!(layout!((10,2):({s},4)), (5,4):(1,5));
        composition_agrees!(layout!((8,(4,8)):({s},(1,{t}))), ((2,2),(4,4)):((1,8),(32,2)));
        composition_agrees!(layout!((12,(4,8)):({s},({t},1))), (3,8):(4,12));
        composition_agrees!(layout!((4,8):({s},{t})), (4,8):(8,1));
        // stride-0 modes of B, a static-0 stride of A, a size-1 mode
        composition_agrees!(layout!((4,(1,8)):({s},(0,{t}))), (2,4,2):(0,1,16));
    }
}

#[test]
fn a_run_time_stride_that_overflows_is_an_error() {
    // (4,8):(1,t) ∘ 4:8 skips the first mode (8 / 4 = 2) and reads the second at stride 2:
    // 4:2t (by the definition, A(8i) = A(0, 2i) = 2ti).
    let t = 5;
    assert_eq!(layout!((4,8):(1,{t})).composition(layout!(4:8)).unwrap().to_string(), "4:{10}");
    let t = usize::MAX / 2 + 1;
    let r = layout!((4,8):(1,{t})).composition(layout!(4:8));
    assert_eq!(r.map_err(|e| e.kind()).err(), Some("overflow"));
}

/// The kernel's two levels: a CTA's tile of a matrix of run-time extents (static extents,
/// run-time strides), then each thread's partition of that tile, for every thread; equal to
/// cute-dyn's `local_partition` of the same tile.
#[test]
fn a_threads_partition_of_a_run_time_stride_tile_agrees_with_cute_dyn() {
    use cute::cute_static::tensor::{local_partition, local_tile};
    use cute::cute_static::{Cons, Nil};
    for (m, n) in [(128, 256), (100, 300), (64, 64)] {
        let (tile, _) =
            local_tile(layout!(({m},{n}):(1,{m})), tiler!(<32,64>), &Cons(1usize, Cons(0usize, Nil))).unwrap();
        assert_eq!(tile.to_string(), format!("(32,64):(1,{{{m}}})"));
        macro_rules! parts {
            ($($thr:tt),*) => {$({
                let thr = layout!$thr;
                let dl = tile.to_dyn().unwrap();
                for tid in 0..thr.size() {
                    let (part, off) = local_partition(tile, thr, tid).unwrap();
                    let (want, woff) = cute_dyn::tensor::local_partition(&dl, &thr.to_dyn().unwrap(), cute_dyn::Int::st(tid as i64), None).unwrap();
                    assert_eq!(
                        (part.to_dyn().unwrap().to_styled(Style::Cpp), off as i64),
                        (want.to_styled(Style::Cpp), woff.value()),
                        "{tile} over {thr} at {tid}"
                    );
                }
            })*};
        }
        parts!(((8,4):(4,1)), ((4,8):(1,4)), ((32,4):(1,32)), (((2,4),(2,2)):((1,8),(2,4))));
    }
}

/// All `2^k - 1` ways to make some of a flat layout's `k` strides run-time (static extents),
/// each through the four divides and composition by `$b`: every one equals cute-dyn's answer on
/// the same values, static flags included.
macro_rules! every_stride_mix {
    ([$($s:tt),*] [$flag:ident $($done:tt)*] [] / $b:tt / $($t:tt)*) => {
        every_stride_mix!(@emit $flag [$($s),*] [$($done)*] / $b / $($t)*);
    };
    ([$($s:tt),*] [$flag:ident $($done:tt)*] [$d:tt $(, $rest:tt)*] / $b:tt / $($t:tt)*) => {
        every_stride_mix!([$($s),*] [$flag $($done)* $d] [$($rest),*] / $b / $($t)*);
        every_stride_mix!([$($s),*] [mixed $($done)* {$d}] [$($rest),*] / $b / $($t)*);
    };
    (@emit mixed [$($s:tt),*] [$($done:tt)*] / ($($b:tt)*) / $($t:tt)*) => {
        divides_agree!(layout!(($($s),*):($($done),*)), $($t)*);
        composition_agrees!(layout!(($($s),*):($($done),*)), $($b)*);
    };
    (@emit all_static $($rest:tt)*) => {};
}

#[test]
fn every_choice_of_run_time_strides_agrees_with_cute_dyn() {
    // compact column-major (statically, the modes coalesce into one; not with run-time strides)
    every_stride_mix!([4, 6, 8] [all_static] [1, 4, 24] / ((8,6):(1,8)) / <2,3,4>);
    every_stride_mix!([4, 6, 8] [all_static] [1, 4, 24] / ((2,12):(2,8)) / <(2,2):(2,1),3>);
    // the CuTe docs' strides, flat
    every_stride_mix!([9, 4, 8] [all_static] [59, 13, 1] / ((3,8):(3,9)) / <3:3,(2,4):(1,8)>);
    // a broadcast (stride-0) mode and a transposed order
    every_stride_mix!([8, 4, 2] [all_static] [4, 0, 32] / ((4,2,4):(2,8,16)) / <4,2,2>);
}

/// `composition($a, $b)` for a layout `$b` (a literal, also parsed for cute-dyn) where `$a` has
/// run-time extents: cute-dyn's answer exactly, or `undecided` where cute-static's static-rule
/// structure hits a condition that cute-dyn then decides on A's run-time values. Returns
/// whether it was answered.
macro_rules! mixed_composition_agrees {
    ($a:expr, $($b:tt)*) => {{
        let text = stringify!($($b)*).replace(' ', "");
        mixed_composition_agrees!(@ $a, layout!($($b)*), text)
    }};
    (@ $a:expr, $b:expr, $text:expr) => {{
        let (a, text) = ($a, $text);
        let ours = ours(a.composition($b));
        if ours != Err("undecided") {
            prop_assert_eq!(ours.clone(), theirs("composition", &a, &text), "composition({}, {})", a, text);
        }
        ours.is_ok()
    }};
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// composition of layouts with run-time extents (any nesting, run-time strides too) by a
    /// layout with static or run-time leaves.
    #[test]
    fn compositions_with_run_time_extents_agree_with_cute_dyn(m in extent(40), n in extent(40), s in extent(8)) {
        let mut answered = 0;
        answered += mixed_composition_agrees!(layout!(({m},{n}):(1,{m})), (4,2):(1,4)) as u32;
        answered += mixed_composition_agrees!(layout!(({m},4):(1,{m})), 8:1) as u32;
        answered += mixed_composition_agrees!(layout!((4,{n}):(1,4)), 2:1) as u32;
        answered += mixed_composition_agrees!(layout!((4,{n}):(1,4)), (2,8):(2,4)) as u32;
        answered += mixed_composition_agrees!(layout!(({m},{n}):({n},1)), (2,3):(3,1)) as u32;
        answered += mixed_composition_agrees!(layout!((({m},2),4):((1,{m}),8)), (4,2):(2,1)) as u32;
        let b = layout!(({s},2):(1,{s}));
        answered += mixed_composition_agrees!(@ layout!(({m},{n}):(1,{m})), b, format!("({{{s}}},2):(1,{{{s}}})")) as u32;
        answered += mixed_composition_agrees!(layout!(({m},{n}):(1,{m})), (2,4):(0,1)) as u32;
        answered += mixed_composition_agrees!(layout!((6,{n}):(8,2)), (4,3):(3,1)) as u32;
        answered += mixed_composition_agrees!(layout!(({m},{n},2):({s},1,{m})), ((2,2),3):((1,4),2)) as u32;
        prop_assert!(answered <= 10);
    }
}

#[test]
fn compositions_with_run_time_extents_answer_where_cute_dyn_does_without_deciding_on_values() {
    // The CuTe docs' (6,2):(8,2) o (4,3):(3,1) = ((2,2),3):((24,2),8), with the extent 2
    // run-time: B reads A's last (unbounded) mode only through its stride, so the answer is
    // the static one.
    let n = 2usize;
    let r = layout!((6,{n}):(8,2)).composition(layout!((4,3):(3,1))).unwrap().typed().expect("the typed structure");
    assert_eq!(ours(Ok(r)), theirs("composition", &layout!((6,{n}):(8,2)), "(4,3):(3,1)"));
    assert_eq!(r.to_dyn().unwrap().to_string(), "((2,2),3):((24,2),8)");
    // A matrix of run-time extents read by a 4x2 tile: ((4),(2)) of it, the first mode
    // taken from m (m = 8), the second from n.
    let (m, n) = (8usize, 16usize);
    let r = layout!(({m},{n}):(1,{m})).composition(layout!((4,2):(1,8))).unwrap().typed().expect("the typed structure");
    assert_eq!(ours(Ok(r)), theirs("composition", &layout!(({m},{n}):(1,{m})), "(4,2):(1,8)"));
    // the DSL's rule keeps the run-time modes apart; the function is (4,2):(1,8)
    let want: cute_dyn::Layout = "(4,2):(1,8)".parse().unwrap();
    assert!(cute_dyn::post::same_function(&r.to_dyn().unwrap(), &want).unwrap(), "{r}");
}

/// Whether a run-time value decides complement's structure for `l`: a run-time extent that is 1
/// or a run-time stride that is 0, in a mode that `filter` keeps (cute-dyn then skips the mode,
/// or its static twin's filter would drop it). cute-static answers with cute-dyn's run-time
/// structure there ([`Decided::RunTime`]), with its typed layout elsewhere.
fn decided_on_values(l: &cute_dyn::Layout) -> bool {
    let (s, d) = (l.shape().leaves(), l.stride().leaves());
    s.iter().zip(&d).any(|(s, d)| {
        (!s.is_static() && s.value() == 1 && !d.is_const(0)) || (!d.is_static() && d.value() == 0 && !s.is_const(1))
    })
}

/// `complement($l, $cot)` (an integer cotarget of value `$c`, run-time where `$dy`) against
/// cute-dyn's on the same values: the same layout, static flags included, or the same kind of
/// refusal; the run-time structure exactly where a run-time value decides it.
macro_rules! complement_agrees {
    ($l:expr, $cot:expr, $c:expr, $dy:expr) => {{
        let l = $l;
        let d = l.to_dyn().unwrap();
        let c = if $dy { cute_dyn::Int::dy($c as i64) } else { cute_dyn::Int::st($c as i64) };
        let want = styled(cute_dyn::complement(&d, &cute_dyn::Tuple::Leaf(c)));
        let r = l.complement($cot);
        if let Ok(answer) = &r {
            let run_time = matches!(answer, Decided::RunTime { .. });
            prop_assert_eq!(run_time, decided_on_values(&d), "complement({}, {}) = {}", l, $c, answer);
        }
        prop_assert_eq!(ours(r), want, "complement({}, {})", l, $c);
    }};
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// complement of layouts with run-time extents and static strides, and of one mode with a
    /// run-time stride (CuTe C++'s domain), by static and run-time cotargets.
    #[test]
    fn complements_of_run_time_leaves_agree_with_cute_dyn(m in extent(8), n in extent(40), c in extent(3000), t in extent(20)) {
        for (cot, c) in [(None, 24), (Some(U64::default()), 64), (None, c)] {
            // a static cotarget goes through the type checker's rest, a run-time one when it runs
            macro_rules! each {
                ($l:expr) => {
                    match cot {
                        Some(k) => complement_agrees!($l, k, c, false),
                        None if c == 24 => complement_agrees!($l, U24::default(), 24, false),
                        None => complement_agrees!($l, c, c, true),
                    }
                };
            }
            each!(layout!({n}:1));
            each!(layout!((2,{n}):(1,6)));
            each!(layout!(({n},3):(4,1)));
            each!(layout!((4,{n}):(1,4)));
            each!(layout!(({m},{n}):(1,64)));
            each!(layout!(({n},(2,2)):(0,(1,8))));
            each!(layout!(({n},2):(8,0)));
            each!(layout!((1,{n}):(5,3)));
            // one mode with a run-time stride (a static 1 filtered away beside it)
            each!(layout!(4:{t}));
            each!(layout!({n}:{t}));
            each!(layout!((4,1):({t},{m})));
        }
    }
}

/// `complement($l, $cot)` for a cotarget `$cot` (a shape or an integer) against cute-dyn's on `to_dyn()` of both:
/// the same layout, static flags included, or the same kind of refusal (cute-static's
/// `undecided` excepted). Whether it answered.
macro_rules! cotarget_complement_agrees {
    ($l:expr, $cot:expr) => {{
        let (l, cot) = ($l, $cot);
        let r = ours(l.complement(cot));
        if r != Err("undecided") {
            let want = cute_dyn::complement(&l.to_dyn().unwrap(), &cot.to_dyn().unwrap());
            let want = styled(want);
            prop_assert_eq!(r.clone(), want, "complement({}, {})", l, Show(&cot));
        }
        r.is_ok()
    }};
}

/// complement by shape cotargets where a leaf of the layout or of the shape is run-time: the
/// mixed complement of the shape's leaves (cute-dyn's running quotient). Which cases answered.
fn shape_complements_agree_at(n: usize, t: usize, c: usize) -> Result<Vec<bool>, TestCaseError> {
    Ok(vec![
        cotarget_complement_agrees!(layout!(4:{t}), shape!((4, 6))),
        cotarget_complement_agrees!(layout!((2,{n}):(1,6)), shape!((4, 6))),
        cotarget_complement_agrees!(layout!(4:2), shape!(({ n }, 8))),
        cotarget_complement_agrees!(layout!(4:2), shape!((8, ({ n }, 2)))),
        cotarget_complement_agrees!(layout!(({n},3):(4,1)), shape!((2, { c }))),
        cotarget_complement_agrees!(layout!((2,2):(1,6)), shape!(({ c }, { n }))),
        cotarget_complement_agrees!(layout!({n}:1), shape!((3, { c }))),
        cotarget_complement_agrees!(layout!((2,{n}):(0,1)), shape!(({ c }, 4))),
        // every mode filtered away: all of the cotarget
        cotarget_complement_agrees!(layout!(({n},2):(0,0)), shape!(({ c }, 4))),
        cotarget_complement_agrees!(layout!(({n},2):(0,0)), shape!((2, (3, { c })))),
        // a static rest whose quotients fall short (3 does not divide into (2,4)): one mode
        // ceil(8 / 3) = 3, as cute-dyn
        cotarget_complement_agrees!(layout!((3,{n}):(1,0)), shape!((2, 4))),
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn complements_by_shape_cotargets_agree_with_cute_dyn(n in extent(40), t in extent(20), c in extent(3000)) {
        shape_complements_agree_at(n, t, c)?;
    }
}

/// The same cases on a grid: every answer equal to cute-dyn's, and each case answers somewhere.
#[test]
fn complements_by_shape_cotargets_answer_on_a_grid() {
    let points = (0..16).flat_map(|n| (0..10).flat_map(move |t| [0, 1, 5, 12, 100].map(|c| (n, t, c))));
    answers_on_grid(11, points, |(n, t, c)| shape_complements_agree_at(n, t, c));
}

/// complement of layouts with several modes and run-time strides (cute-dyn sorts the values;
/// the types assume the run-time strides sort last, in their order, checked when it runs), by
/// static and run-time integers and by shapes. Which cases answered.
fn run_time_stride_complements_agree_at(s: usize, t: usize, c: usize) -> Result<Vec<bool>, TestCaseError> {
    Ok(vec![
        // a tile with a run-time leading dimension
        cotarget_complement_agrees!(layout!((8,64):(1,{t})), U64::default()),
        cotarget_complement_agrees!(layout!((8,64):(1,{t})), c),
        cotarget_complement_agrees!(layout!((4,2,8):({s},1,{t})), c),
        cotarget_complement_agrees!(layout!((4,8):(1,{s})), shape!((4, { c }))),
        // run-time extents too, and a broadcast mode filtered away
        cotarget_complement_agrees!(layout!(({s},(2,4)):({t},(1,0))), c),
        cotarget_complement_agrees!(layout!((2,{s}):({t},{c})), U64::default()),
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn complements_of_run_time_strides_agree_with_cute_dyn(s in extent(64), t in extent(600), c in extent(5000)) {
        run_time_stride_complements_agree_at(s, t, c)?;
    }
}

/// The same cases on a grid: every answer equal to cute-dyn's, and each case answers somewhere.
#[test]
fn complements_of_run_time_strides_answer_on_a_grid() {
    let points = (0..20).flat_map(|s| {
        [0, 1, 2, 4, 8, 9, 16, 64, 100].into_iter().flat_map(move |t| [0, 1, 16, 64, 1000, 4096].map(|c| (s, t, c)))
    });
    answers_on_grid(6, points, |(s, t, c)| run_time_stride_complements_agree_at(s, t, c));
}

/// The four products of `$a` by the tiler `$b` (its text `$text`, parsed for cute-dyn): the same
/// layout as cute-dyn's, static flags included, or the same kind of refusal; where cute-static
/// answers `undecided` (complement's or composition's structure hangs on a run-time value),
/// nothing to compare. Whether it answered.
macro_rules! products_agree {
    ($a:expr, $b:expr, $text:expr) => {{
        let (a, b, text) = ($a, $b, $text);
        let logical = ours(a.logical_product(b));
        if logical != Err("undecided") {
            prop_assert_eq!(logical.clone(), theirs("logical_product", &a, &text), "logical_product({}, {})", a, text);
            prop_assert_eq!(
                ours(a.zipped_product(b)),
                theirs("zipped_product", &a, &text),
                "zipped_product({}, {})",
                a,
                text
            );
            prop_assert_eq!(
                ours(a.tiled_product(b)),
                theirs("tiled_product", &a, &text),
                "tiled_product({}, {})",
                a,
                text
            );
            prop_assert_eq!(
                ours(a.flat_product(b)),
                theirs("flat_product", &a, &text),
                "flat_product({}, {})",
                a,
                text
            );
        }
        logical.is_ok()
    }};
    // and the rank products, for a layout `$b`
    ($a:expr, $b:expr, $text:expr, rank products) => {{
        let (a, b, text) = ($a, $b, $text);
        for (op, r) in [("blocked_product", ours(a.blocked_product(b))), ("raked_product", ours(a.raked_product(b)))] {
            if r != Err("undecided") {
                prop_assert_eq!(r, theirs(op, &a, &text), "{}({}, {})", op, a, text);
            }
        }
        products_agree!(a, b, text)
    }};
}

/// The products of layouts with run-time leaves (any nesting; static strides or one mode with
/// a run-time stride) by layouts with static or run-time leaves and by integers, and of static
/// layouts by layouts or integers with run-time leaves, for the run-time values `m, n, k, t`:
/// each answer equal to cute-dyn's. Which of the cases answered.
fn products_agree_at(m: usize, n: usize, k: usize, t: usize) -> Result<Vec<bool>, TestCaseError> {
    use cute::cute_static::typenum::{U1, U3};
    let b = layout!((2,3):(1,2));
    let text = "(2,3):(1,2)";
    let bk = layout!(({k},3):(1,{k}));
    let text_k = format!("({{{k}}},3):(1,{{{k}}})");
    Ok(vec![
        products_agree!(layout!({n}:1), b, text, rank products),
        products_agree!(layout!((2,{n}):(4,1)), b, text, rank products),
        products_agree!(layout!(({m},{n}):(1,64)), b, text, rank products),
        products_agree!(layout!((4,(2,{n})):(1,(4,8))), b, text, rank products),
        products_agree!(layout!(4:{t}), b, text, rank products),
        products_agree!(layout!((4,1):({t},{m})), b, text, rank products),
        products_agree!(layout!(({n},2):(8,0)), b, text, rank products),
        // several modes with a run-time stride (complement's assumed order, checked)
        products_agree!(layout!((2,4):(1,{t})), b, text, rank products),
        products_agree!(layout!({n}:1), bk, &text_k, rank products),
        products_agree!(layout!((4,{n}):(1,4)), bk, &text_k, rank products),
        products_agree!(layout!((2,2):(1,2)), bk, &text_k, rank products),
        products_agree!(layout!((2,2):(4,1)), bk, &text_k, rank products),
        products_agree!(layout!(4:{t}), bk, &text_k, rank products),
        products_agree!(layout!((2,{n}):(4,1)), layout!(6:1), "6:1", rank products),
        products_agree!(layout!((2,{n}):(4,1)), U3::default(), "3"),
        // a static 1 is make_layout(1) = _1:_0 (it was 1:1, a run-time stride where cute-dyn's is 0)
        products_agree!(layout!((2,{n}):(4,1)), U1::default(), "1"),
        products_agree!(layout!((2,{n}):(4,1)), tiler!(<1,{k}>), format!("<1,{{{k}}}>")),
        products_agree!(layout!((2,{n}):(4,1)), k, format!("{{{k}}}")),
        products_agree!(layout!((8,4):(4,1)), k, format!("{{{k}}}")),
        products_agree!(layout!((8,4):(1,8)), layout!((2,{k}):({k},1)), format!("(2,{{{k}}}):({{{k}}},1)"), rank products),
        products_agree!(layout!(({m},{n},2):(1,8,64)), layout!(((2,{k}),3):((1,2),{k})), format!("((2,{{{k}}}),3):((1,2),{{{k}}})"), rank products),
        // by-mode tilers: mode i is logical_product(A_i, B_i), the modes past the tiler kept
        products_agree!(layout!(({m},{n}):(1,{m})), tiler!(<2:1,3:2>), "<2:1,3:2>"),
        products_agree!(layout!(({m},{n},2):(1,64,{t})), tiler!(<(2,2):(1,2),3>), "<(2,2):(1,2),3>"),
        products_agree!(layout!({n}:1), tiler!(<4:2>), "<4:2>"),
        products_agree!(layout!(((2,{n}),4):((1,2),64)), tiler!(<4:1,1>), "<4:1,1>"),
        products_agree!(layout!((2,2):(1,2)), tiler!(<{k}:1,2:1>), format!("<{{{k}}}:1,2:1>")),
        products_agree!(layout!(8:1), tiler!(<({k},2):(2,1)>), format!("<({{{k}}},2):(2,1)>")),
        products_agree!(layout!(({m},{n}):(1,64)), tiler!(<{k},2>), format!("<{{{k}}},2>")),
        // a nested by-mode tiler: mode 1 is by mode once more, logical_product(A_1j, B_1j)
        products_agree!(layout!(((2,{m}),(4,{n}),2):((1,2),(64,256),4096)), tiler!(<2:1,<2:1,3:1>>), "<2:1,<2:1,3:1>>"),
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn products_of_run_time_leaves_agree_with_cute_dyn(m in extent(12), n in extent(12), k in extent(9), t in extent(20)) {
        products_agree_at(m, n, k, t)?;
    }
}

/// Each point of a grid through `at` (every comparison in it must hold), then every case
/// answered somewhere on the grid (a route that only ever refused would pass the comparisons).
fn answers_on_grid<P: Copy + core::fmt::Debug>(
    cases: usize,
    points: impl IntoIterator<Item = P>,
    at: impl Fn(P) -> Result<Vec<bool>, TestCaseError>,
) {
    let mut answered = vec![0usize; cases];
    let mut calls = 0;
    for p in points {
        let r = at(p).unwrap_or_else(|e| panic!("at {p:?}: {e}"));
        r.iter().zip(&mut answered).for_each(|(&a, count)| *count += a as usize);
        calls += 1;
    }
    eprintln!("answered per case out of {calls}: {answered:?}");
    for (case, &count) in answered.iter().enumerate() {
        assert!(count > 0, "case {case} never answered");
    }
}

/// `right_inverse($l)` and `left_inverse($l)` against cute-dyn's on `to_dyn()`: the same layout,
/// static flags included, or the same kind of refusal (cute-static's `undecided` excepted).
/// Whether each answered.
macro_rules! inverses_agree {
    ($l:expr) => {{
        let l = $l;
        let d = l.to_dyn().unwrap();
        let (right, left) = (ours(l.right_inverse()), ours(l.left_inverse()));
        if right != Err("undecided") {
            prop_assert_eq!(right.clone(), styled(cute_dyn::right_inverse(&d)), "right_inverse({})", l);
        }
        if left != Err("undecided") {
            prop_assert_eq!(left.clone(), styled(cute_dyn::left_inverse(&d)), "left_inverse({})", l);
        }
        [right.is_ok(), left.is_ok()]
    }};
}

/// The inverses of layouts with run-time leaves (extents and strides, nested, broadcast modes)
/// for the run-time values `m, n, t`: each answer equal to cute-dyn's. Which answered (right,
/// left, per case).
fn inverses_agree_at(m: usize, n: usize, t: usize) -> Result<Vec<bool>, TestCaseError> {
    Ok([
        // a tile with a run-time leading dimension, and its transpose
        inverses_agree!(layout!((8,64):(1,{t}))),
        inverses_agree!(layout!((8,4):({t},1))),
        // run-time extents under static strides
        inverses_agree!(layout!((8,{n}):(1,8))),
        inverses_agree!(layout!(({m},2):(2,1))),
        inverses_agree!(layout!((4,{n}):(1,4))),
        inverses_agree!(layout!((4,{n},2):(2,0,1))),
        inverses_agree!(layout!(({n},2):(0,0))),
        // a compact matrix of run-time extents, a padded one, and one mode
        inverses_agree!(layout!(({m},{n}):(1,{m}))),
        inverses_agree!(layout!(({m},{n}):(1,{t}))),
        inverses_agree!(layout!({n}:{t})),
        // nested, and two run-time strides
        inverses_agree!(layout!(((2,{n}),4):((1,2),{t}))),
        inverses_agree!(layout!((2,3):({t},{m}))),
        inverses_agree!(layout!(({n},4):(0,{t}))),
    ]
    .concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn inverses_of_run_time_leaves_agree_with_cute_dyn(m in extent(40), n in extent(40), t in extent(600)) {
        inverses_agree_at(m, n, t)?;
    }
}

/// The same cases on a grid: every answer equal to cute-dyn's, and each case answers somewhere.
#[test]
fn inverses_of_run_time_leaves_answer_on_a_grid() {
    let points =
        (0..12).flat_map(|m| (0..12).flat_map(move |n| [0, 1, 2, 3, 4, 8, 9, 16, 24, 64, 100].map(|t| (m, n, t))));
    answers_on_grid(26, points, |(m, n, t)| inverses_agree_at(m, n, t));
}

/// The same cases on a grid of small values: every answer equal to cute-dyn's, and each case
/// answers somewhere on the grid (a route that only ever refused would pass the proptest).
#[test]
fn products_of_run_time_leaves_answer_on_a_grid() {
    let points =
        (0..6).flat_map(|m| (0..8).flat_map(move |n| (0..6).flat_map(move |k| (0..8).map(move |t| (m, n, k, t)))));
    answers_on_grid(29, points, |(m, n, k, t)| products_agree_at(m, n, k, t));
}

/// `$op<N>` of cute-static's layout `$l` (a `Result`) against cute-dyn's `$op` of its `to_dyn()`:
/// the same layout, static flags included, or the same kind of refusal.
macro_rules! recast_agrees {
    ($op:ident, $l:expr, $n:ty) => {{
        let l = $l;
        let n = <$n as cute::cute_static::typenum::Unsigned>::I64;
        let want = styled(cute_dyn::$op(&l.to_dyn().unwrap(), n));
        prop_assert_eq!(ours(l.$op(<$n>::default())), want, "{}<{}>({})", stringify!($op), n, l);
    }};
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// `upcast<N>` of layouts with static extents and run-time strides (a tile of a global
    /// tensor read as wider elements): each run-time stride divided when it runs, refused when
    /// `N` does not divide it, as cute-dyn; static strides by the type checker's rule.
    #[test]
    fn upcasts_of_run_time_strides_agree_with_cute_dyn(ld in extent(5000), t in extent(300)) {
        use cute::cute_static::typenum::{U2, U4, U8};
        recast_agrees!(upcast, layout!((64,32):({ld},1)), U8);
        recast_agrees!(upcast, layout!((32,64):(1,{ld})), U2);
        recast_agrees!(upcast, layout!((32,64):(1,{ld})), U4);
        recast_agrees!(upcast, layout!(((4,2),8):((1,4),{ld})), U2);
        recast_agrees!(upcast, layout!((8,4,2):({ld},0,{t})), U4);
        recast_agrees!(upcast, layout!((16,(2,4)):(2,({t},{ld}))), U2);
    }

    /// `downcast<N>` of layouts with static extents and run-time strides (a tile of a global
    /// tensor read as narrower elements): only a static 1 is a unit stride (its extent grows);
    /// each run-time stride is multiplied when it runs, and one that is 1 then is undecided, as
    /// cute-dyn.
    #[test]
    fn downcasts_of_run_time_strides_agree_with_cute_dyn(ld in extent(5000), t in extent(300)) {
        use cute::cute_static::typenum::{U2, U4, U8};
        recast_agrees!(downcast, layout!((64,32):({ld},1)), U8);
        recast_agrees!(downcast, layout!((32,64):(1,{ld})), U2);
        recast_agrees!(downcast, layout!(((4,2),8):((1,4),{ld})), U4);
        recast_agrees!(downcast, layout!((8,4,2):({ld},1,{t})), U2);
        recast_agrees!(downcast, layout!((16,(2,4)):(1,({t},{ld}))), U2);
    }
}

/// The refusals of `downcast` on run-time strides, as cute-dyn gives them: a run-time stride
/// that is 1 when it runs would be a unit stride if static (its extent would grow), so it is
/// `undecided`; a layout whose only unit strides are run-time has no stride-1 mode.
/// `upcast<$k>($l)` and (where `$l` has a static unit stride) `downcast<$k>($l)` against
/// cute-dyn's on `to_dyn()`: the same layout, static flags included, or the same kind of
/// refusal (here cute-static never answers `undecided` where cute-dyn answers: the structure
/// comes from the strides). Whether each answered.
macro_rules! recasts_agree {
    ($l:expr, $n:ty, $k:expr $(, $down:ident)?) => {{
        let l = $l;
        let d = l.to_dyn().unwrap();
        let up = ours(l.upcast(<$n>::default()));
        prop_assert_eq!(up.clone(), styled(cute_dyn::upcast(&d, $k)), "upcast<{}>({})", $k, l);
        #[allow(unused_mut)]
        let mut answered = vec![up.is_ok()];
        $(
            let _ = stringify!($down);
            let down = ours(l.downcast(<$n>::default()));
            prop_assert_eq!(down.clone(), styled(cute_dyn::downcast(&d, $k)), "downcast<{}>({})", $k, l);
            answered.push(down.is_ok());
        )?
        answered
    }};
}

/// upcast and downcast of layouts with run-time extents (static and run-time strides, nested,
/// broadcast modes) for the run-time values `m, n`. Which answered.
fn recasts_agree_at(m: usize, n: usize) -> Result<Vec<bool>, TestCaseError> {
    use cute::cute_static::typenum::{U2, U4, U8};
    Ok([
        // a column-major matrix of run-time extents read as 8-element vectors
        recasts_agree!(layout!(({m},{n}):(1,{m})), U8, 8, down),
        // a row-major one, a run-time leading dimension
        recasts_agree!(layout!(({m},8):({n},1)), U2, 2, down),
        recasts_agree!(layout!(({m},(4,{n})):(1,(0,{m}))), U4, 4, down),
        recasts_agree!(layout!((({m},2),{n}):((2,1),64)), U2, 2, down),
        // no unit stride: upcast only (downcast is a compile error)
        recasts_agree!(layout!(({m},{n}):(2,{m})), U4, 4),
        recasts_agree!(layout!({n}:{m}), U2, 2),
    ]
    .concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn recasts_of_run_time_extents_agree_with_cute_dyn(m in extent(300), n in extent(300)) {
        recasts_agree_at(m, n)?;
    }
}

/// The same cases on a grid: every answer equal to cute-dyn's, and each case answers somewhere.
#[test]
fn recasts_of_run_time_extents_answer_on_a_grid() {
    let points = (0..40).flat_map(|m| (0..40).map(move |n| (m, n)));
    answers_on_grid(10, points, |(m, n)| recasts_agree_at(m, n));
}

#[test]
fn downcast_refusals_are_cute_dyns() {
    use cute::cute_static::typenum::U2;
    let one = 1usize;
    let l = layout!((8,4):(1,{one}));
    assert_eq!(l.downcast(U2::default()).map_err(|e| e.kind()).err(), Some("undecided"));
    assert_eq!(cute_dyn::downcast(&l.to_dyn().unwrap(), 2).map_err(|e| e.kind()).err(), Some("undecided"));
    // cute-static refuses `(8,4):(8,{one})` at compile time (no static stride 1); cute-dyn
    // when it runs, undecided for a run-time 1 and invalid without one.
    let dy = |s: &str| cute_dyn::downcast(&s.parse().unwrap(), 2).map_err(|e| e.kind()).err();
    assert_eq!(dy("(8,4):(8,{1})"), Some("undecided"));
    assert_eq!(dy("(8,4):(8,{3})"), Some("invalid_argument"));
}

/// The refusals of `upcast` on run-time strides, as cute-dyn gives them: a stride `N` does not
/// divide and that does not divide `N` is refused whatever its staticness; one that divides `N`
/// would shrink its mode if static, so its refusal is `undecided`; a refused stride elsewhere
/// takes precedence (the static twin refuses it too).
#[test]
fn upcast_refusals_are_cute_dyns() {
    use cute::cute_static::typenum::{U2, U4};
    let (one, ld) = (1usize, 887usize);
    let l = layout!((16,(2,4)):(2,({one},{ld})));
    assert_eq!(l.upcast(U2::default()).map_err(|e| e.kind()).err(), Some("stride_divisibility"));
    assert_eq!(cute_dyn::upcast(&l.to_dyn().unwrap(), 2).map_err(|e| e.kind()).err(), Some("stride_divisibility"));
    let (zero, one) = (0usize, 1usize);
    let l = layout!((8,4,2):({zero},0,{one}));
    assert_eq!(l.upcast(U4::default()).map_err(|e| e.kind()).err(), Some("undecided"));
    assert_eq!(cute_dyn::upcast(&l.to_dyn().unwrap(), 4).map_err(|e| e.kind()).err(), Some("undecided"));
}

/// `tile_to_shape(block, shape)` of cute-static against cute-dyn's on `to_dyn()` of both, for a
/// block and a shape with run-time leaves (values included that do not divide).
macro_rules! tile_agrees {
    ($block:expr, $shape:expr) => {{
        let (block, shape) = ($block, $shape);
        let want = cute_dyn::tile_to_shape(&block.to_dyn().unwrap(), &shape.to_dyn().unwrap(), None)
            .map(|r| r.to_styled(Style::Cpp))
            .map_err(|e| e.kind());
        let got = ours(block.tile_to_shape(shape));
        // As for the rank products it is built on: where cute-static cannot decide the
        // structure without static values ("undecided"), cute-dyn may decide on the values.
        if got != Err("undecided") {
            assert_eq!(got, want, "tile_to_shape({block}, {:?})", shape.to_dyn());
        }
        got.is_ok()
    }};
}

#[test]
fn tile_to_shape_with_run_time_leaves_agrees_with_cute_dyn() {
    use cute::cute_static::{shape, IntTuple};
    let mut answered = 0;
    for m in [1usize, 2, 4, 6, 7, 8, 12, 16] {
        for n in [1usize, 2, 3, 6, 9, 12] {
            let k = m % 4 + 1;
            let results = [
                // A static block over run-time extents.
                tile_agrees!(layout!((2,2):(1,2)), shape!(({ m }, { n }))),
                tile_agrees!(layout!((2,2):(1,2)), shape!(({ m }, 6))),
                tile_agrees!(layout!((2,3):(3,1)), shape!((8, { n }))),
                tile_agrees!(layout!(((2,2),4):((1,8),2)), shape!((({ m }, 2), { n }))),
                tile_agrees!(layout!(4:1), shape!({ m })),
                // A block of lower rank than the shape, padded.
                tile_agrees!(layout!(2:1), shape!(({ m }, { n }, 2))),
                // Run-time leaves in the block.
                tile_agrees!(layout!((2,{k}):(1,2)), shape!((8, 12))),
                tile_agrees!(layout!(({k},2):(2,1)), shape!(({ m }, { n }))),
            ];
            answered += results.iter().filter(|&&ok| ok).count();
        }
    }
    // Both outcomes are exercised: answers and refusals.
    assert!(answered > 100 && answered < 8 * 48, "{answered} answered");
}

/// The divides and composition of `$a` (static extents) by `$t` (a layout or by-mode tiler with
/// run-time leaves, `$text` its notation with the values): each answer or refusal equal to
/// cute-dyn's, except where cute-static refuses as undecided. Whether any answered.
macro_rules! static_by_run_time_agree {
    ($a:expr, $t:expr, $text:expr, divides) => {{
        let (a, t, text) = ($a, $t, $text);
        let mut answered = false;
        for (op, r) in [
            ("logical_divide", ours(a.logical_divide(t))),
            ("zipped_divide", ours(a.zipped_divide(t))),
            ("tiled_divide", ours(a.tiled_divide(t))),
            ("flat_divide", ours(a.flat_divide(t))),
        ] {
            if r != Err("undecided") {
                prop_assert_eq!(r.clone(), theirs(op, &a, &text), "{}({}, {})", op, a, text);
                answered |= r.is_ok();
            }
        }
        answered
    }};
    ($a:expr, $t:expr, $text:expr) => {{
        let (a, t, text) = ($a, $t, $text);
        let r = ours(a.composition(t));
        if r != Err("undecided") {
            prop_assert_eq!(r.clone(), theirs("composition", &a, &text), "composition({}, {})", a, text);
        }
        r.is_ok()
    }};
}

/// Static layouts (and static extents with a run-time stride `s`) by right operands with
/// run-time leaves `k`, `t`: composition by any layout, the divides of leaf modes by layouts
/// and by-mode tilers. Which of the cases answered.
fn static_by_run_time_agree_at(k: usize, t: usize, s: usize) -> Result<Vec<bool>, TestCaseError> {
    let fk = |x: &str| x.replace("{k}", &format!("{{{k}}}")).replace("{t}", &format!("{{{t}}}"));
    Ok(vec![
        static_by_run_time_agree!(layout!((8,8):(1,8)), layout!({k}:1), fk("{k}:1")),
        static_by_run_time_agree!(layout!((8,8):(1,8)), layout!((4,{k}):(2,8)), fk("(4,{k}):(2,8)")),
        static_by_run_time_agree!(layout!((8,8):(1,8)), layout!(({k},2):({t},1)), fk("({k},2):({t},1)")),
        static_by_run_time_agree!(layout!(((2,4),8):((1,16),2)), layout!(({k},4):(1,{t})), fk("({k},4):(1,{t})")),
        static_by_run_time_agree!(layout!((4,6):(1,5)), layout!({k}:{t}), fk("{k}:{t}")),
        static_by_run_time_agree!(layout!((8,8):(1,{s})), layout!({k}:1), fk("{k}:1")),
        static_by_run_time_agree!(layout!((8,(2,4)):({s},(1,2))), layout!((2,{k}):(4,1)), fk("(2,{k}):(4,1)")),
        static_by_run_time_agree!(layout!((8,8):(1,8)), tiler!(<{k}:1,2:{t}>), fk("<{k}:1,2:{t}>")),
        static_by_run_time_agree!(layout!(64:1), layout!({k}:1), fk("{k}:1"), divides),
        static_by_run_time_agree!(layout!(64:2), layout!((4,{k}):(1,4)), fk("(4,{k}):(1,4)"), divides),
        static_by_run_time_agree!(layout!(64:2), layout!({k}:{t}), fk("{k}:{t}"), divides),
        static_by_run_time_agree!(layout!((8,8):(1,8)), tiler!(<{k}:1,2:1>), fk("<{k}:1,2:1>"), divides),
        static_by_run_time_agree!(
            layout!((16,8,2):(1,16,128)),
            tiler!(<(2,{k}):(1,2),4>),
            fk("<(2,{k}):(1,2),4>"),
            divides
        ),
        static_by_run_time_agree!(layout!((8,8):(1,{s})), tiler!(<{k}:1,2:1>), fk("<{k}:1,2:1>"), divides),
        // bare run-time integers in a tiler: make_layout(k) = k:1
        static_by_run_time_agree!(layout!((8,8):(1,8)), tiler!(<{k},2>), fk("<{k},2>"), divides),
        static_by_run_time_agree!(layout!((8,8):(1,8)), tiler!(<{k},2>), fk("<{k},2>")),
        static_by_run_time_agree!(layout!((8,8):(1,{s})), tiler!(<4,{t}>), fk("<4,{t}>"), divides),
        // a bare run-time integer as the whole tiler: make_layout(k)
        static_by_run_time_agree!(layout!(64:2), k, fk("{k}"), divides),
        static_by_run_time_agree!(layout!((8,8):(1,{s})), k, fk("{k}"), divides),
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn static_layouts_by_run_time_right_operands_agree_with_cute_dyn(k in extent(40), t in extent(40), s in extent(100)) {
        static_by_run_time_agree_at(k, t, s)?;
    }
}

/// The same cases on a grid: every answer equal to cute-dyn's, and each case answers somewhere.
#[test]
fn static_layouts_by_run_time_right_operands_answer_on_a_grid() {
    let points = (0..20).flat_map(|k| (0..10).flat_map(move |t| [0, 1, 3, 100].map(|s| (k, t, s))));
    answers_on_grid(19, points, |(k, t, s)| static_by_run_time_agree_at(k, t, s));
}

/// The divides where a divided mode is nested (or a layout of several modes is divided by one
/// layout) and a leaf is run-time, in the mode or in the tile: cute-dyn's general path,
/// `composition(A_i, (T, complement(T, shape(coalesce(A_i)))))`; and composition by by-mode
/// tilers of nested modes, `composition(A_i, B_i)`. Which of the cases answered.
fn nested_divides_agree_at(m: usize, n: usize, t: usize) -> Result<Vec<bool>, TestCaseError> {
    let f = |x: &str| {
        x.replace("{m}", &format!("{{{m}}}")).replace("{n}", &format!("{{{n}}}")).replace("{t}", &format!("{{{t}}}"))
    };
    Ok(vec![
        static_by_run_time_agree!(layout!((({m},2),4):((1,{m}),8)), tiler!(<4,2>), f("<4,2>"), divides),
        static_by_run_time_agree!(layout!((4,{n}):(1,4)), layout!(2:1), f("2:1"), divides),
        static_by_run_time_agree!(layout!((4,{n}):(1,4)), layout!(8:1), f("8:1"), divides),
        static_by_run_time_agree!(layout!(({m},{n}):(1,{m})), layout!((4,2):(1,4)), f("(4,2):(1,4)"), divides),
        static_by_run_time_agree!(layout!(((2,4),8):((1,16),2)), tiler!(<{t}:1,2:1>), f("<{t}:1,2:1>"), divides),
        static_by_run_time_agree!(
            layout!(((4,2),{n}):((1,4),8)),
            tiler!(<(2,2):(1,4),2>),
            f("<(2,2):(1,4),2>"),
            divides
        ),
        static_by_run_time_agree!(
            layout!(({m},(2,{n})):(1,(64,128))),
            tiler!(<4,(2,2):(1,2)>),
            f("<4,(2,2):(1,2)>"),
            divides
        ),
        static_by_run_time_agree!(layout!((({m},{n}),4):((1,{m}),4096)), tiler!(<{t},2>), f("<{t},2>"), divides),
        static_by_run_time_agree!(layout!((2,{n}):(1,2)), layout!({t}:1), f("{t}:1"), divides),
        // nested by-mode tilers (by mode once more inside a mode), the issue's among them
        static_by_run_time_agree!(
            layout!(((2,{m}),(4,{n}),2):((1,2),(64,256),4096)),
            tiler!(<2,<2,(2,3):(3,1)>>),
            f("<2,<2,(2,3):(3,1)>>"),
            divides
        ),
        static_by_run_time_agree!(
            layout!(({m},({n},6),8):(1,(64,4096),32768)),
            tiler!(<(2,8,2):(2,4,1),<4:1,(2,3):(3,1)>,2>),
            f("<(2,8,2):(2,4,1),<4:1,(2,3):(3,1)>,2>"),
            divides
        ),
        // composition by the by-mode tilers: composition(A_i, B_i) of a nested mode
        static_by_run_time_agree!(layout!((({m},2),4):((1,{m}),8)), tiler!(<4,2>), f("<4,2>")),
        static_by_run_time_agree!(layout!(((2,4),8):((1,16),2)), tiler!(<{t}:1,2:1>), f("<{t}:1,2:1>")),
        static_by_run_time_agree!(layout!(((4,2),{n}):((1,4),8)), tiler!(<(2,2):(1,4),2>), f("<(2,2):(1,4),2>")),
        static_by_run_time_agree!(layout!(({m},(2,{n})):(1,(64,128))), tiler!(<4,(2,2):(1,2)>), f("<4,(2,2):(1,2)>")),
        static_by_run_time_agree!(layout!((({m},{n}),4):((1,{m}),4096)), tiler!(<{t},2>), f("<{t},2>")),
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn nested_modes_divided_with_run_time_leaves_agree_with_cute_dyn(m in extent(40), n in extent(40), t in extent(40)) {
        nested_divides_agree_at(m, n, t)?;
    }
}

/// The same cases on a grid: every answer equal to cute-dyn's, and each case answers somewhere.
#[test]
fn nested_modes_divided_with_run_time_leaves_answer_on_a_grid() {
    let points = (0..12).flat_map(|m| (0..12).flat_map(move |n| (0..9).map(move |t| (m, n, t))));
    answers_on_grid(16, points, |(m, n, t)| nested_divides_agree_at(m, n, t));
}

/// `coalesce_by($l, $p)` against cute-dyn's on the same values (the profile's literal also
/// parsed for cute-dyn).
macro_rules! coalesce_by_agrees {
    ($l:expr, $($p:tt)*) => {{
        let l = $l;
        let text = stringify!($($p)*).replace(' ', "");
        let want = cute_dyn::coalesce_by(&l.to_dyn().unwrap(), &text.parse().unwrap());
        prop_assert_eq!(ours(l.coalesce_by(shape!($($p)*))), want.map(|r| r.to_styled(Style::Cpp)).map_err(|e| e.kind()), "coalesce_by({}, {})", l, text);
    }};
}

/// `complement_cosize($l)` against cute-dyn's on the same values: the same layout, static flags
/// included, or the same kind of refusal (cute-static's `undecided` excepted, as
/// [`cotarget_complement_agrees`]). Whether it answered.
macro_rules! complement_cosize_agrees {
    ($l:expr) => {{
        use cute::cute_static::ComplementCosize;
        let l = $l;
        let r = ours(l.complement_cosize());
        if r != Err("undecided") {
            let want = cute_dyn::complement_cosize(&l.to_dyn().unwrap());
            prop_assert_eq!(r.clone(), styled(want), "complement_cosize({})", l);
        }
        r.is_ok()
    }};
}

/// coalesce by profiles (nested, shorter than the layout, a tuple on a leaf mode) and the
/// complement up to the cosize, of layouts with run-time extents and strides, for the run-time
/// values `m, n, t`. Which complements answered.
fn profiles_and_cosizes_agree_at(m: usize, n: usize, t: usize) -> Result<Vec<bool>, TestCaseError> {
    let a = layout!((2,({n},6)):(1,({t},2)));
    coalesce_by_agrees!(a, (1, 1));
    coalesce_by_agrees!(a, (1, (1, 1)));
    coalesce_by_agrees!(a, ((1), 1));
    coalesce_by_agrees!(a, (1));
    coalesce_by_agrees!(a, 1);
    let b = layout!((({m},2),4,(3,{n})):((1,{m}),{t},(8,24)));
    coalesce_by_agrees!(b, ((1, 1), 1));
    coalesce_by_agrees!(b, (1, 1, 1));
    coalesce_by_agrees!(b, (1, (1), (1, 1)));
    coalesce_by_agrees!(layout!({n}:{t}), (1));
    coalesce_by_agrees!(layout!((8,{n}):(1,8)), (1, 1));
    Ok(vec![
        complement_cosize_agrees!(layout!((8,{n}):(1,8))),
        complement_cosize_agrees!(layout!(({m},{n}):(1,{m}))),
        complement_cosize_agrees!(layout!((4,{n},2):(2,0,1))),
        complement_cosize_agrees!(layout!(({n},2):(0,0))),
        complement_cosize_agrees!(layout!((2,3):({t},{m}))),
        complement_cosize_agrees!(layout!((4,{n}):(2,{t}))),
        complement_cosize_agrees!(layout!(((2,{n}),4):((1,8),{t}))),
    ])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn profiles_and_cosizes_of_run_time_leaves_agree_with_cute_dyn(m in extent(40), n in extent(40), t in extent(600)) {
        profiles_and_cosizes_agree_at(m, n, t)?;
    }
}

/// A profile's values are ignored (CuTe's `coalesce(layout, trg_profile)` reads only its
/// nesting): a run-time leaf in it gives the same layout as a static 1, the type checker's for
/// a static layout.
#[test]
fn a_run_time_profile_leaf_is_a_leaf() {
    let k = 5usize;
    let l = layout!((2,(1,6)):(1,(6,2)));
    assert_eq!(l.coalesce_by(shape!((1, { k }))).to_string(), l.coalesce_by(shape!((1, 1))).to_string());
    assert_eq!(l.coalesce_by(shape!({ k })).to_string(), l.coalesce_by(shape!(1)).to_string());
}

/// The same cases on a grid: every answer equal to cute-dyn's, and each complement answers
/// somewhere.
#[test]
fn profiles_and_cosizes_of_run_time_leaves_answer_on_a_grid() {
    let points =
        (0..10).flat_map(|m| (0..10).flat_map(move |n| [0, 1, 2, 3, 4, 8, 9, 16, 24, 64, 100].map(|t| (m, n, t))));
    answers_on_grid(7, points, |(m, n, t)| profiles_and_cosizes_agree_at(m, n, t));
}

/// Every operation of the algebra on `$a` (a layout with run-time leaves whose divided modes
/// are leaves and whose strides are static: the domain every operation takes) against
/// cute-dyn's on `to_dyn()`: the same layout, static flags included, or the same kind of
/// refusal (cute-static's `undecided` excepted, where cute-dyn decides the structure on the
/// values). Counts each operation's answers in `$answered`.
macro_rules! every_operation_agrees {
    ($a:expr, $answered:expr) => {{
        use cute::cute_static::{Coalesce, ComplementCosize};
        let a = $a;
        let d = a.to_dyn().unwrap();
        let tiler = "<2,3:2>";
        let b = "(2,3):(1,2)";
        let cases: [(&str, Result<String, &'static str>, Result<String, &'static str>); 22] = [
            ("coalesce", ours(Ok(a.coalesce())), styled(cute_dyn::coalesce(&d))),
            ("coalesce by (1,1)", ours(a.coalesce_by(shape!((1, 1)))), styled(cute_dyn::coalesce_by(&d, &"(1,1)".parse().unwrap()))),
            ("coalesce by 1", ours(a.coalesce_by(shape!(1))), styled(cute_dyn::coalesce_by(&d, &"1".parse().unwrap()))),
            (
                "complement_cosize",
                ours(a.complement_cosize()),
                styled(cute_dyn::complement_cosize(&d)),
            ),
            ("composition", ours(a.composition(layout!((2,3):(1,2)))), theirs("composition", &a, b)),
            ("logical_divide", ours(a.logical_divide(tiler!(<2,3:2>))), theirs("logical_divide", &a, tiler)),
            ("zipped_divide", ours(a.zipped_divide(tiler!(<2,3:2>))), theirs("zipped_divide", &a, tiler)),
            ("tiled_divide", ours(a.tiled_divide(tiler!(<2,3:2>))), theirs("tiled_divide", &a, tiler)),
            ("flat_divide", ours(a.flat_divide(tiler!(<2,3:2>))), theirs("flat_divide", &a, tiler)),
            ("logical_product", ours(a.logical_product(layout!((2,3):(1,2)))), theirs("logical_product", &a, b)),
            ("zipped_product", ours(a.zipped_product(tiler!(<2:1,3:1>))), theirs("zipped_product", &a, "<2:1,3:1>")),
            ("tiled_product", ours(a.tiled_product(layout!((2,3):(1,2)))), theirs("tiled_product", &a, b)),
            ("flat_product", ours(a.flat_product(tiler!(<2:1,3:1>))), theirs("flat_product", &a, "<2:1,3:1>")),
            ("blocked_product", ours(a.blocked_product(layout!((2,3):(1,2)))), theirs("blocked_product", &a, b)),
            ("raked_product", ours(a.raked_product(layout!((2,3):(1,2)))), theirs("raked_product", &a, b)),
            (
                "complement",
                ours(a.complement(U64::default())),
                styled(cute_dyn::complement(&d, &cute_dyn::Tuple::Leaf(cute_dyn::Int::st(64)))),
            ),
            // the whole layout by one layout (the divides' general path), and complement by a shape
            ("logical_divide by a layout", ours(a.logical_divide(layout!(4:2))), theirs("logical_divide", &a, "4:2")),
            (
                "complement by a shape",
                ours(a.complement(shape!((8, 8)))),
                styled(cute_dyn::complement(&d, &"(8,8)".parse().unwrap())),
            ),
            ("right_inverse", ours(a.right_inverse()), styled(cute_dyn::right_inverse(&d))),
            ("left_inverse", ours(a.left_inverse()), styled(cute_dyn::left_inverse(&d))),
            ("upcast", ours(a.upcast(cute::cute_static::typenum::U2::default())), styled(cute_dyn::upcast(&d, 2))),
            ("downcast", ours(a.downcast(cute::cute_static::typenum::U2::default())), styled(cute_dyn::downcast(&d, 2))),
        ];
        for (i, (op, ours, theirs)) in cases.into_iter().enumerate() {
            if ours != Err("undecided") {
                assert_eq!(ours, theirs, "{op}({a})");
            }
            $answered[i] += ours.is_ok() as usize;
        }
    }};
}

/// All `2^k - 1` ways to make some of a flat layout's `k` extents run-time (the values `$v`,
/// static strides `$d`), each through [`every_operation_agrees`].
macro_rules! every_extent_mix {
    ($answered:ident [$flag:ident $($done:tt)*] [] : ($($d:tt),*)) => {
        every_extent_mix!(@emit $flag $answered [$($done)*] : ($($d),*));
    };
    ($answered:ident [$flag:ident $($done:tt)*] [$v:tt $(, $rest:tt)*] : ($($d:tt),*)) => {
        every_extent_mix!($answered [$flag $($done)* $v] [$($rest),*] : ($($d),*));
        every_extent_mix!($answered [mixed $($done)* {$v}] [$($rest),*] : ($($d),*));
    };
    (@emit mixed $answered:ident [$($s:tt)*] : ($($d:tt),*)) => {
        every_operation_agrees!(layout!(($($s),*):($($d),*)), $answered);
    };
    (@emit all_static $($rest:tt)*) => {};
}

#[test]
fn every_choice_of_run_time_extents_agrees_with_cute_dyn_through_every_operation() {
    let mut answered = [0usize; 22];
    // the CuTe docs' (4,2,3):(2,1,8), a compact column-major matrix and its transpose
    every_extent_mix!(answered [all_static] [4, 2, 3] : (2, 1, 8));
    every_extent_mix!(answered [all_static] [8, 6] : (1, 8));
    every_extent_mix!(answered [all_static] [6, 8] : (8, 1));
    eprintln!("answered per operation out of 13 layouts: {answered:?}");
    // each operation answers on some of them (a route that only refused would pass above)
    assert!(answered.iter().all(|&n| n > 0), "{answered:?}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// A matrix of run-time extents cut into tiles of run-time extents (bare run-time integers
    /// in the tiler, `make_layout(k)`): the divides and the by-mode composition.
    #[test]
    fn run_time_tiles_of_run_time_matrices_agree_with_cute_dyn(m in extent(300), n in extent(300), k in extent(40), t in extent(40)) {
        let text = format!("<{{{k}}},{{{t}}}>");
        let a = layout!(({m},{n}):(1,{m}));
        let mut answered = static_by_run_time_agree!(a, tiler!(<{k},{t}>), text.clone(), divides);
        answered |= static_by_run_time_agree!(a, tiler!(<{k},{t}>), text);
        // a bare run-time integer as the whole tiler: make_layout(k) (k:1 for composition)
        let text = format!("{{{k}}}");
        answered |= static_by_run_time_agree!(a, k, text.clone(), divides);
        answered |= static_by_run_time_agree!(a, k, text);
        let text = format!("<{{{k}}},16>");
        answered |= static_by_run_time_agree!(layout!(({m},{n}):({n},1)), tiler!(<{k},16>), text, divides);
        // (any nonzero tile of a nonzero matrix answers: the modes are leaves)
        prop_assert!(answered || m * n * k * t == 0 || k > m || t > n);
    }
}

#[test]
fn the_issue_example_with_run_time_tile_sizes() {
    // The issue's (m,n):(1,m) / <32,64> with the tile sizes known at run time too: the tile
    // modes become run-time (cute-dyn: ((?,?),(?,?)):((1,?),(?,?))), the values the same.
    let (m, n, bm, bn) = (128usize, 256usize, 32usize, 64usize);
    let a = layout!(({m},{n}):(1,{m}));
    let z = a.zipped_divide(tiler!(<{bm},{bn}>)).unwrap();
    assert_eq!(z.to_string(), "(({32},{64}),({4},{4})):((1,{128}),({32},{8192}))");
    assert_eq!(ours(Ok(z)), theirs("zipped_divide", &a, "<{32},{64}>"));
}

/// Both directions between the crates (issue "Generic code that reads like CuTe C++", item 6):
/// `Layout::try_from(&cute_dyn::Layout)` gives back every layout `to_dyn` gave (static flags as
/// the type says), and names the first leaf that does not fit.
#[test]
fn try_from_cute_dyn_is_to_dyn_s_way_back() {
    use cute::cute_static::Layout;
    type Tile = Layout![((usize,8),4):((1,usize),0)];
    for (m, ld) in [(1usize, 7usize), (16, 128), (0, 0), (usize::MAX >> 2, 3)] {
        let l = layout!((({m},8),4):((1,{ld}),0));
        assert_eq!(Tile::try_from(&l.to_dyn().unwrap()).unwrap(), l);
    }
    let s = layout!((2,(3,4)):(12,(1,3)));
    assert_eq!(<Layout![(2,(3,4)):(12,(1,3))]>::try_from(&s.to_dyn().unwrap()).unwrap(), s);
    let e = |text: &str| Tile::try_from(&text.parse::<cute_dyn::Layout>().unwrap()).unwrap_err().to_string();
    assert!(
        e("((5,8),4):((1,5),2)").ends_with("stride<1>: the type has the static 0, the layout 2"),
        "{}",
        e("((5,8),4):((1,5),2)")
    );
    assert!(e("((5,8,1),4):((1,5,0),0)").ends_with("shape<0>: the type has a tuple of rank 2, the layout (5,8,1)"));
    assert!(e("((5,9),4):((1,5),0)").ends_with("shape<0,1>: the type has the static 8, the layout 9"));
    assert!(e("((5,8),4):((1,-5),0)").ends_with("stride<0,1>: a run-time leaf is a usize, the layout has -5"));
}
