//! cute-static layouts against cute-dyn: the same literal gives the same layout (static flags
//! included) and the same function; a fully static layout is zero-sized.

use cute::cute_dyn::{self as dy, Style};
use cute::cute_static::{layout, layout_dyn, shape, tiler, tiler_dyn, IntTuple, Layout, StaticLayout};

macro_rules! agree {
    ($($lit:tt)*) => {{
        let s = layout!($($lit)*);
        let d = layout_dyn!($($lit)*).unwrap();
        assert_eq!(s.to_dyn().unwrap(), d, "to_dyn of {}", s);
        assert_eq!(s.size() as i64, d.size().unwrap().value());
        assert_eq!(s.cosize() as i64, d.cosize().unwrap().value());
        for i in 0..s.size() {
            assert_eq!(s.call(i) as i64, d.call(i as i64).unwrap(), "{} at {}", s, i);
        }
    }};
}

#[test]
fn static_and_dyn_agree() {
    agree!((2,(1,6)):(1,(6,2)));
    agree!((3,(2,3)):(3,(12,1)));
    agree!(((2,(3,4)),(3,2),1):((4,(8,24)),(2,6),12));
    agree!((8,(4,8)):(32,(1,4)));
    agree!((2, (2, 2)));
    agree!((4,(2,3)):LayoutRight);
    agree!((4):(1));
    let (m, n) = (3usize, 5usize);
    agree!(({m},(2,{n})):(1,({m},{12})));
    agree!(({ m }, { n }, 2));
}

#[test]
fn compact_layouts_match_cute_dyn() {
    // LayoutLeft/LayoutRight strides computed by the macro equal cute-dyn's make_layout.
    for (lit, shape) in
        [(layout!((2, (1, 6))).to_string(), "(2,(1,6))"), (layout!((3, 1, (4, 1))).to_string(), "(3,1,(4,1))")]
    {
        assert_eq!(lit, dy::make_layout_left(&shape.parse().unwrap()).unwrap().to_string());
    }
    assert_eq!(
        layout!((2,(3,4)):LayoutRight).to_string(),
        dy::make_layout_right(&"(2,(3,4))".parse().unwrap()).unwrap().to_string()
    );
}

#[test]
fn static_layouts_are_zero_sized() {
    type Smem = Layout![(8,(4,8)):(32,(1,4))];
    assert_eq!(core::mem::size_of::<Smem>(), 0);
    // One dynamic leaf costs one usize.
    let n = 7;
    assert_eq!(core::mem::size_of_val(&layout!((8,{n}):(1,8))), core::mem::size_of::<usize>());
    assert_eq!(Smem::RANK, 2);
    assert_eq!(Smem::DEPTH, 2);
    const { assert!(Smem::IS_STATIC) };
}

/// A kernel-style function generic over a layout named in type position.
fn gather<L: StaticLayout>(src: &[f32]) -> Vec<f32> {
    let l = L::default();
    (0..l.size()).map(|i| src[l.call(i)]).collect()
}

#[test]
fn generic_code_over_a_type_position_layout() {
    type Transpose = Layout![(2,3):(3,1)];
    let src: Vec<f32> = (0..6).map(|x| x as f32).collect();
    // Column-major traversal of a row-major 2x3 matrix: 0 3 1 4 2 5.
    assert_eq!(gather::<Transpose>(&src), [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
}

#[test]
fn tuples_and_tilers() {
    let s = shape!((2, (3, 4)));
    assert_eq!(IntTuple::product(&s), 24);
    assert_eq!(s.to_dyn().unwrap().to_string(), "(2,(3,4))");
    let t = tiler!(<3:4,(2,4):(1,8),_,<5>>);
    assert_eq!(t.to_string(), "<3:4,(2,4):(1,8),_,<5>>");
    assert_eq!(cute::cute_static::Tiler::to_dyn(&t).unwrap(), tiler_dyn!(<3:4,(2,4):(1,8),_,<5>>).unwrap());
    // A dynamic value keeps its flag in the dsl style.
    let k = 4;
    assert_eq!(layout_dyn!((2,{k}):(1,-2)).unwrap().to_styled(Style::Dsl), "(2,?):(1,-2)");
}

mod random_values {
    //! cute-static against cute-dyn with random run-time values in fixed structures (the types
    //! are fixed at compile time; the values and which of them matter are random).
    use cute::cute_dyn as dy;
    use cute::cute_static::{coalesce, filter, layout, layout_dyn};
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

        #[test]
        fn coalesce_filter_and_call_agree(a in 1usize..6, b in 1usize..6, c in 0usize..9, d in 0usize..9, e in 1usize..4) {
            let s = layout!(({a},(2,{b},1)):(1,({c},8,{d})));
            let x = layout_dyn!(({a},(2,{b},1)):(1,({c},8,{d}))).unwrap();
            prop_assert_eq!(s.to_dyn().unwrap(), x.clone());
            prop_assert_eq!(coalesce(s).to_dyn().unwrap(), dy::coalesce(&x).unwrap());
            prop_assert_eq!(filter(s).to_dyn().unwrap(), dy::filter(&x).unwrap());
            for i in 0..s.size() {
                prop_assert_eq!(s.call(i) as i64, x.call(i as i64).unwrap());
            }
            let s = layout!(((2,{e}),4,{a}):((1,2),{b},0));
            let x = layout_dyn!(((2,{e}),4,{a}):((1,2),{b},0)).unwrap();
            prop_assert_eq!(coalesce(s).to_dyn().unwrap(), dy::coalesce(&x).unwrap());
            prop_assert_eq!(filter(s).to_dyn().unwrap(), dy::filter(&x).unwrap());
            prop_assert_eq!(s.cosize() as i64, x.cosize().unwrap().value());
        }
    }
}

#[test]
fn natural_coordinates_evaluate_like_indices() {
    // L(idx2crd(i)) == L(i): the natural coordinate of i names the same element.
    let l = layout!((3,(2,3)):(3,(12,1)));
    for i in 0..l.size() {
        assert_eq!(l.call_coord(&l.idx2crd(i)), l.call(i));
    }
    let n = 5;
    let m = layout!(((2,{n}),(4,(2,3))):((1,2),({n},(7,11))));
    let d = layout_dyn!(((2,{n}),(4,(2,3))):((1,2),({n},(7,11)))).unwrap();
    for i in 0..m.size() {
        assert_eq!(m.call_coord(&m.idx2crd(i)), m.call(i));
        assert_eq!(m.call(i) as i64, d.call(i as i64).unwrap());
    }
}

/// cute-static's `local_tile` / `local_partition` of static layouts of any nesting (computed by
/// the type checker, then sliced at run-time coordinates) equal cute-dyn's on `to_dyn()`, for
/// every tile of the grid and every thread.
#[test]
fn local_tile_and_partition_agree_with_cute_dyn() {
    use cute::cute_static::tensor::{local_partition, local_tile};
    macro_rules! tiles {
        ($(($l:tt, $t:tt)),* $(,)?) => {$({
            let l = layout!$l;
            let t = cute::cute_static::tiler!$t;
            let z = dy::zipped_divide(&l.to_dyn().unwrap(), &tiler_dyn!$t.unwrap()).unwrap();
            let grid = z.get(1).unwrap().size().unwrap().value() as usize;
            for j in 0..grid {
                let (tile, off) = local_tile(l, t, &j);
                let c: dy::Coord = dy::Tuple::Leaf(Some(dy::Int::st(j as i64)));
                let (dl, doff) = dy::tensor::local_tile(&l.to_dyn().unwrap(), &tiler_dyn!$t.unwrap(), &c, None).unwrap();
                assert_eq!((tile.to_dyn().unwrap(), off as i64), (dl, doff.value()), "{} by {} at {j}", l, stringify!($t));
            }
        })*};
    }
    tiles!(
        (((6,(2,4)):(8,(1,2))), (<3,(2,2):(1,2)>)),
        (((8,8,4):(1,8,64)), (<4,4>)),
        ((((2,4),(3,4)):((1,2),(8,24))), (<(2,2):(2,1),6>)),
        (((16,(4,8)):(32,(1,4))), (<8,4:8>)),
        ((64:1), (<16>)),
    );
    macro_rules! parts {
        ($(($l:tt, $thr:tt)),* $(,)?) => {$({
            let l = layout!$l;
            let thr = layout!$thr;
            for tid in 0..thr.size() {
                let (part, off) = local_partition(l, thr, tid).unwrap();
                let (dl, doff) = dy::tensor::local_partition(&l.to_dyn().unwrap(), &thr.to_dyn().unwrap(), dy::Int::st(tid as i64), None).unwrap();
                assert_eq!((part.to_dyn().unwrap(), off as i64), (dl, doff.value()), "{} over {} at {tid}", l, thr);
            }
        })*};
    }
    parts!(
        (((16,64):(1,16)), ((2,16):(16,1))),
        (((8,(4,4)):(16,(1,4))), ((4,2):(1,4))),
        (((12,8):(8,1)), ((3,4):(4,1))),
        ((64:1), ((4):(1))),
    );
    // A thread index no coordinate maps to.
    assert!(local_partition(layout!((8,8):(1,8)), layout!((2,2):(1,2)), 4).is_err());
}

/// cute-static's `local_tile_projected` (C++'s `local_tile` with `Step<_1,X,_1>`) equals
/// cute-dyn's `local_tile` with the projection, for every CTA coordinate of a (BM,BN,BK) tiler
/// projected onto A (M,K), B (N,K) and C (M,N).
#[test]
fn projected_tiles_agree_with_cute_dyn() {
    use cute::cute_static::tensor::local_tile_projected;
    use cute::cute_static::typenum::{B0, B1};
    use cute::cute_static::{Cons, Nil};
    let (a, b, c) = (layout!((16,8):(1,16)), layout!((12,8):(8,1)), layout!((16,12):(1,16)));
    let cta = tiler!(<4,6,2>);
    let dyn_cta = tiler_dyn!(<4,6,2>).unwrap();
    for (m, n, k) in (0..4).flat_map(|m| (0..2).flat_map(move |n| (0..4).map(move |k| (m, n, k)))) {
        let coord = Cons(m, Cons(n, Cons(k, Nil)));
        let dyn_coord: dy::Coord = format!("({m},{n},{k})").parse().unwrap();
        let check = |(l, off): (dy::Layout, usize), layout: &dy::Layout, proj: &str| {
            let (dl, doff) =
                dy::tensor::local_tile(layout, &dyn_cta, &dyn_coord, Some(&proj.parse().unwrap())).unwrap();
            assert_eq!((l, off as i64), (dl, doff.value()), "{layout} {proj} at ({m},{n},{k})");
        };
        let (t, o) = local_tile_projected(a, cta, &coord, Cons(B1, Cons(B0, Cons(B1, Nil))));
        check((t.to_dyn().unwrap(), o), &a.to_dyn().unwrap(), "(1,_,1)");
        let (t, o) = local_tile_projected(b, cta, &coord, Cons(B0, Cons(B1, Cons(B1, Nil))));
        check((t.to_dyn().unwrap(), o), &b.to_dyn().unwrap(), "(_,1,1)");
        let (t, o) = local_tile_projected(c, cta, &coord, Cons(B1, Cons(B1, Cons(B0, Nil))));
        check((t.to_dyn().unwrap(), o), &c.to_dyn().unwrap(), "(1,1,_)");
    }
}

/// cute-static's `local_partition_projected` equals cute-dyn's `local_partition` with the
/// projection, for every thread of (M,N,K) thread layouts projected onto A, B and C.
#[test]
fn projected_partitions_agree_with_cute_dyn() {
    use cute::cute_static::tensor::local_partition_projected;
    use cute::cute_static::typenum::{B0, B1};
    use cute::cute_static::{Cons, Nil};
    let (a, b, c) = (layout!((16,8):(1,16)), layout!((12,8):(8,1)), layout!((16,12):(1,16)));
    let check = |got: (dy::Layout, usize), layout: &dy::Layout, thr: &dy::Layout, tid: usize, proj: &str| {
        let (dl, doff) =
            dy::tensor::local_partition(layout, thr, dy::Int::st(tid as i64), Some(&proj.parse().unwrap())).unwrap();
        assert_eq!((got.0, got.1 as i64), (dl, doff.value()), "{layout} over {thr} {proj} at {tid}");
    };
    macro_rules! threads {
        ($($thr:tt),*) => {$({
            let thr = layout!$thr;
            let d = thr.to_dyn().unwrap();
            for tid in 0..thr.size() {
                let (p, o) = local_partition_projected(a, thr, tid, Cons(B1, Cons(B0, Cons(B1, Nil)))).unwrap();
                check((p.to_dyn().unwrap(), o), &a.to_dyn().unwrap(), &d, tid, "(1,_,1)");
                let (p, o) = local_partition_projected(b, thr, tid, Cons(B0, Cons(B1, Cons(B1, Nil)))).unwrap();
                check((p.to_dyn().unwrap(), o), &b.to_dyn().unwrap(), &d, tid, "(_,1,1)");
                let (p, o) = local_partition_projected(c, thr, tid, Cons(B1, Cons(B1, Cons(B0, Nil)))).unwrap();
                check((p.to_dyn().unwrap(), o), &c.to_dyn().unwrap(), &d, tid, "(1,1,_)");
            }
        })*};
    }
    threads!(((2,4,1):(4,1,0)), ((4,1,2):(1,0,4)), ((1,2,2):(0,1,2)));
}

/// The CuTe kernel's first step on a matrix of run-time extents: `local_tile` of `(M,N):(1,M)`
/// by a static `<8,16>` CTA tile (projected from `<8,16,4>` too) and `local_partition` of the
/// tile over static threads, computed when it runs, equal to cute-dyn's on `to_dyn()` (layout,
/// static flags and offset), residue extents included.
mod mixed_partitions {
    use super::*;
    use cute::cute_static::tensor::{local_partition, local_partition_projected, local_tile, local_tile_projected};
    use cute::cute_static::typenum::{B0, B1};
    use cute::cute_static::{Cons, Nil};
    use proptest::prelude::*;

    /// Values and static flags (CuTe C++'s notation: `_8` static, `8` run-time); cute-static's
    /// run-time leaves carry no divisor.
    fn cpp<S: cute::cute_static::Congruent<D>, D: IntTuple>(l: &Layout<S, D>) -> String {
        l.to_styled(Style::Cpp).unwrap()
    }

    fn dyn_coord(c: &[usize]) -> dy::Coord {
        dy::Tuple::Node(c.iter().map(|&x| dy::Tuple::Leaf(Some(dy::Int::dy(x as i64)))).collect())
    }

    proptest! {
        #[test]
        fn agree_with_cute_dyn(m in 1usize..80, n in 1usize..80, bi in 0usize..10, bj in 0usize..6, tid in 0usize..8) {
            let a = layout!(({m},{n}):(1,{m}));
            let ad = a.to_dyn().unwrap();
            let (tile, off) = local_tile(a, tiler!(<8,16>), &Cons(bi, Cons(bj, Nil))).unwrap();
            let (dl, doff) = dy::tensor::local_tile(&ad, &tiler_dyn!(<8,16>).unwrap(), &dyn_coord(&[bi, bj]), None).unwrap();
            prop_assert_eq!((cpp(&tile), off as i64), (dl.to_styled(Style::Cpp), doff.value()));

            let (tile, off) = local_tile_projected(a, tiler!(<8,4,16>), &Cons(bi, Cons(3usize, Cons(bj, Nil))), Cons(B1, Cons(B0, Cons(B1, Nil)))).unwrap();
            let (dl, doff) = dy::tensor::local_tile(&ad, &tiler_dyn!(<8,4,16>).unwrap(), &dyn_coord(&[bi, 3, bj]), Some(&"(1,_,1)".parse().unwrap())).unwrap();
            prop_assert_eq!((cpp(&tile), off as i64), (dl.to_styled(Style::Cpp), doff.value()));

            let thr = layout!((2,4):(4,1));
            let (part, off) = local_partition(a, thr, tid).unwrap();
            let (dl, doff) = dy::tensor::local_partition(&ad, &thr.to_dyn().unwrap(), dy::Int::st(tid as i64), None).unwrap();
            prop_assert_eq!((cpp(&part), off as i64), (dl.to_styled(Style::Cpp), doff.value()));

            let thr = layout!((2,1,4):(1,0,2));
            let (part, off) = local_partition_projected(a, thr, tid, Cons(B1, Cons(B0, Cons(B1, Nil)))).unwrap();
            let (dl, doff) = dy::tensor::local_partition(&ad, &thr.to_dyn().unwrap(), dy::Int::st(tid as i64), Some(&"(1,_,1)".parse().unwrap())).unwrap();
            prop_assert_eq!((cpp(&part), off as i64), (dl.to_styled(Style::Cpp), doff.value()));
        }
    }

    /// A run-time condition that fails is an error, not a wrong layout: the grid's stride
    /// `16 * m` (and the threads' `4 * m`) past `usize`.
    #[test]
    fn a_refused_run_time_value_is_an_error() {
        let m = usize::MAX / 2;
        let a = layout!(({m},64):(1,{m}));
        assert_eq!(local_tile(a, tiler!(<8,16>), &0usize).unwrap_err().kind(), "overflow");
        let e = local_partition(a, layout!((2,4):(4,1)), 0).unwrap_err();
        assert!(matches!(e, cute::cute_static::tensor::TensorError::Algebra(e) if e.kind() == "overflow"), "{e}");
    }
}

/// `make_layout_like`, `make_ordered_layout` and `make_fragment_like` computed by the type
/// checker (static and mixed layouts) equal cute-dyn's (whose answers are checked against
/// CuTe C++ 4.2 in tests/partition.rs), values and static flags alike.
#[test]
fn layout_like_and_fragment_like_agree_with_cute_dyn() {
    use cute::cute_static::{make_fragment_like, make_layout_like, make_ordered_layout};
    fn cpp<S: cute::cute_static::Congruent<D>, D: IntTuple>(l: &Layout<S, D>) -> String {
        l.to_styled(Style::Cpp).unwrap()
    }
    macro_rules! like {
        ($($l:tt),* $(,)?) => {$({
            let l = layout!$l;
            let d = l.to_dyn().unwrap();
            assert_eq!(cpp(&make_layout_like(l)), dy::make_layout_like(&d).unwrap().to_styled(Style::Cpp), "make_layout_like {}", d);
            assert_eq!(cpp(&make_fragment_like(l)), dy::make_fragment_like(&d).unwrap().to_styled(Style::Cpp), "make_fragment_like {}", d);
            let o = make_ordered_layout(*l.shape(), *l.stride());
            assert_eq!(cpp(&o), dy::make_ordered_layout(&d.shape(), &d.stride()).unwrap().to_styled(Style::Cpp), "make_ordered_layout {}", d);
        })*};
    }
    let (m, n, k) = (1000usize, 24usize, 3usize);
    like!(
        ((2,2,2,2):(0,2,4,1)),
        (((2,2),2,4):((1,8),64,16)),
        (((2,2),2,4):((1,{m}),16,{m})),
        (((4,2),(3,2)):((2,1),(0,16))),
        ((8,(2,3),4):(12,(1,0),96)),
        ((8):(3)),
        (5:0),
        ((4,4,4):(16,16,1)),
        (({k},4,{n}):(1,{k},0)),
        ((2,{k},(3,4)):({m},1,(24,{n}))),
        (((2,2),({k},2)):((1,0),({n},4))),
        ((3,(2,2)):({n},({k},{k}))),
        ((2,1,3):(0,0,1)),
    );
}

/// Slicing a tensor of a nested layout with `_` at any level (cute-static's `SliceModes`)
/// equals cute-dyn's `slice_and_offset` (C++'s), kept modes and offset.
#[test]
fn nested_slices_agree_with_cute_dyn() {
    use cute::cute_static::tensor::Tensor;
    use cute::cute_static::{Cons, Nil, Under};
    let data: Vec<u32> = (0..4096).collect();
    macro_rules! slices {
        ($l:tt: $(($c:expr, $dc:expr)),* $(,)?) => {{
            let t = Tensor::new(&data[..], layout!$l).unwrap();
            let d = t.layout().to_dyn().unwrap();
            $({
                let s = t.slice(&$c).unwrap();
                let (dl, off) = d.slice_and_offset(&$dc.parse().unwrap()).unwrap();
                assert_eq!((s.layout().to_dyn().unwrap(), s[0] as i64), (dl, off.value()), "{} at {}", d, $dc);
            })*
        }};
    }
    slices!(((2,(3,4)):(12,(1,3))):
        (Cons(Under, Cons(Cons(1usize, Cons(Under, Nil)), Nil)), "(_,(1,_))"),
        (Cons(1usize, Cons(Cons(Under, Cons(2usize, Nil)), Nil)), "(1,(_,2))"),
        (Cons(Under, Cons(7usize, Nil)), "(_,7)"),
        (Cons(1usize, Cons(Under, Nil)), "(1,_)"),
        (Cons(Under, Cons(Cons(Under, Cons(Under, Nil)), Nil)), "(_,(_,_))"),
    );
    slices!((((2,2),(4,(2,3))):((1,64),(2,(8,16)))):
        (Cons(Cons(1usize, Cons(Under, Nil)), Cons(Cons(Under, Cons(Cons(1usize, Cons(Under, Nil)), Nil)), Nil)), "((1,_),(_,(1,_)))"),
        (Cons(3usize, Cons(Cons(2usize, Cons(Under, Nil)), Nil)), "(3,(2,_))"),
        (Cons(Under, Cons(Cons(3usize, Cons(4usize, Nil)), Nil)), "(_,(3,4))"),
    );
}

/// `round_up`, `compact_col_major` and `compact_row_major` of static and mixed tuples equal
/// cute-dyn's, values and static flags alike.
#[test]
fn round_up_and_compact_strides_agree_with_cute_dyn() {
    use cute::cute_static::typenum::{U1, U3};
    use cute::cute_static::{compact_col_major, compact_row_major, round_up};
    fn cpp<T: IntTuple>(t: &T) -> String {
        dy::Notation::to_styled(&t.to_dyn().unwrap(), Style::Cpp)
    }
    let (m, k) = (1000usize, 7usize);
    macro_rules! agree {
        ($(($a:tt, $b:tt)),* $(,)?) => {$({
            let (a, b) = (shape!($a), shape!($b));
            let want = dy::round_up(&a.to_dyn().unwrap(), &b.to_dyn().unwrap()).unwrap();
            assert_eq!(cpp(&round_up(a, b)), dy::Notation::to_styled(&want, Style::Cpp), "round_up {}", stringify!($a));
            let want = dy::compact_col_major(&a.to_dyn().unwrap(), dy::Int::st(3)).unwrap();
            assert_eq!(cpp(&compact_col_major(a, U3::default())), dy::Notation::to_styled(&want, Style::Cpp));
            let want = dy::compact_row_major(&a.to_dyn().unwrap(), dy::Int::dy(1)).unwrap();
            assert_eq!(cpp(&compact_row_major(a, 1usize)), dy::Notation::to_styled(&want, Style::Cpp));
            let want = dy::compact_row_major(&a.to_dyn().unwrap(), dy::Int::st(1)).unwrap();
            assert_eq!(cpp(&compact_row_major(a, U1::default())), dy::Notation::to_styled(&want, Style::Cpp));
        })*};
    }
    agree!(
        ((100, 33, 7), (64, 32)),
        (({ m }, 33), (128, 32)),
        ((5, (1, { k }), 9), (4, (2, 2))),
        ((16, (4, { m })), (16, (3, 5))),
        ((1, { k }, 0), (1, 1, 4)),
    );
}
