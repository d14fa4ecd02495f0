//! The runtime algebra does not touch the heap for layouts within the inline capacity (issue
//! #12), and is unchanged past it.
//!
//! A counting global allocator counts this thread's allocations around each operation; the
//! inputs are parsed and the answers printed outside the counted region.

use std::alloc::{GlobalAlloc, Layout as AllocLayout, System};
use std::cell::Cell;

use cute::cute_dyn::*;

struct Counting;

thread_local! {
    // Const-initialized and without a destructor: reading it never allocates.
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every method forwards to `System` with the caller's arguments unchanged; the counter
// is a thread-local `Cell` and does not touch the memory.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: AllocLayout) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        // SAFETY: the caller's contract for `alloc` is `System.alloc`'s.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: AllocLayout) {
        // SAFETY: `ptr` was allocated by `System` with `layout` (every allocation goes there).
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: AllocLayout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|c| c.set(c.get() + 1));
        // SAFETY: as `dealloc`; `new_size` is the caller's, per `realloc`'s contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// `f()`'s result and the allocations this thread made while computing it.
fn counted<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let before = ALLOCATIONS.with(Cell::get);
    let r = f();
    (r, ALLOCATIONS.with(Cell::get) - before)
}

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

fn t(s: &str) -> Tiler {
    s.parse().unwrap()
}

#[test]
fn the_algebra_within_the_inline_capacity_does_not_allocate() {
    type Op = Box<dyn Fn() -> Result<Layout>>;
    // Each case's answer is CuTe's documented one (the layout algebra docs), or the DSL's for the
    // mixed divide (issue #11's example, `?{div=64}` in the DSL's notation).
    let cases: Vec<(&str, Op, &str)> = vec![
        (
            "composition",
            {
                let (a, b) = (l("(6,2):(8,2)"), t("(4,3):(3,1)"));
                Box::new(move || composition(&a, &b))
            },
            "((2,2),3):((24,2),8)",
        ),
        (
            "complement",
            {
                let a = l("4:2");
                Box::new(move || complement(&a, &IntTuple::int(24)))
            },
            "(2,3):(1,8)",
        ),
        (
            "logical_divide",
            {
                let (a, b) = (l("(4,2,3):(2,1,8)"), t("4:2"));
                Box::new(move || logical_divide(&a, &b))
            },
            "((2,2),(2,3)):((4,1),(2,8))",
        ),
        (
            "logical_divide by mode",
            {
                let (a, b) = (l("(9,(4,8)):(59,(13,1))"), t("<3:3,(2,4):(1,8)>"));
                Box::new(move || logical_divide(&a, &b))
            },
            "((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))",
        ),
        (
            "zipped_divide",
            {
                let (a, b) = (l("(9,(4,8)):(59,(13,1))"), t("<3:3,(2,4):(1,8)>"));
                Box::new(move || zipped_divide(&a, &b))
            },
            "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))",
        ),
        (
            "tiled_divide",
            {
                let (a, b) = (l("(9,(4,8)):(59,(13,1))"), t("<3:3,(2,4):(1,8)>"));
                Box::new(move || tiled_divide(&a, &b))
            },
            "((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))",
        ),
        (
            "zipped_divide, run-time extents",
            {
                let (a, b) = (l("({128},{256}):(1,{128})"), t("<32,64>"));
                Box::new(move || zipped_divide(&a, &b))
            },
            // The DSL's divisor rule: a static 64 times a run-time value is a multiple of 64.
            "((32,64),({4},{4})):((1,{128}),(32,{8192:64}))",
        ),
        (
            "blocked_product",
            {
                let (a, b) = (l("(2,5):(5,1)"), l("(3,4):(1,3)"));
                Box::new(move || blocked_product(&a, &b))
            },
            "((2,3),(5,4)):((5,10),(1,30))",
        ),
        (
            "coalesce",
            {
                let a = l("(2,(1,6)):(1,(6,2))");
                Box::new(move || coalesce(&a))
            },
            "12:1",
        ),
    ];
    for (name, op, expected) in cases {
        op().unwrap(); // nothing lazily initialized is counted
        let (r, n) = counted(&op);
        assert_eq!(n, 0, "{name} allocated {n} times");
        assert_eq!(r.unwrap().to_string(), expected, "{name}");
    }
}

#[test]
fn inverses_within_the_inline_capacity_do_not_allocate() {
    // CuTe's @post conditions: L(R(i)) == i for i < size(R) (right), R(L(i)) == i for i <
    // size(L) (left, L injective); for a bijection both are the whole domain.
    let l = l("((2,4),(2,2)):((8,1),(4,16))");
    right_inverse(&l).unwrap();
    let (r, n) = counted(|| right_inverse(&l).unwrap());
    assert_eq!(n, 0, "right_inverse allocated {n} times");
    assert_eq!(r.size().unwrap().value(), 32);
    assert!((0..32).all(|i| l.call(r.call(i).unwrap()).unwrap() == i));
    let (li, n) = counted(|| left_inverse(&l).unwrap());
    assert_eq!(n, 0, "left_inverse allocated {n} times");
    assert!((0..32).all(|i| li.call(l.call(i).unwrap()).unwrap() == i));
}

/// The operations that read a shape (an `IntTuple` tree: read, never built), the inverses'
/// relatives, the layouts made like another, recasts, `select`, and copies. Expected values: CuTe's docs
/// (`make_ordered_layout`, `nullspace`, `max_alignment`, `compact_major`, `make_layout_like` from
/// layout.hpp, `make_fragment_like`), the definition of a blocked product (`tile_to_shape`), of
/// a copy (`clone`) and of `filter_zeros`.
#[test]
fn shape_readers_and_copies_within_the_inline_capacity_do_not_allocate() {
    type Op = Box<dyn Fn() -> String>;
    fn shape(s: &str) -> IntTuple {
        s.parse().unwrap()
    }
    let cases: Vec<(&str, Op, &str)> = vec![
        (
            "make_layout_left",
            Box::new(|| make_layout_left(&shape("(2,(1,6))")).unwrap().to_string()),
            "(2,(1,6)):(1,(0,2))",
        ),
        (
            "make_layout_right",
            Box::new(|| make_layout_right(&shape("(2,(3,4))")).unwrap().to_string()),
            "(2,(3,4)):(12,(4,1))",
        ),
        (
            "make_ordered_layout",
            Box::new(|| make_ordered_layout(&shape("(2,2,2,2)"), &shape("(0,2,3,1)")).unwrap().to_string()),
            "(2,2,2,2):(1,4,8,2)",
        ),
        (
            "tile_to_shape",
            Box::new(|| tile_to_shape(&l("(2,2):(1,2)"), &shape("(4,6)"), None).unwrap().to_string()),
            "((2,2),(2,3)):((1,4),(2,8))",
        ),
        ("nullspace", Box::new(|| nullspace(&l("(2,4,3):(0,1,0)")).unwrap().to_string()), "(2,3):(1,8)"),
        ("max_alignment", Box::new(|| max_alignment(&l("(8,64):(64,1)")).unwrap().value().to_string()), "512"),
        ("clone", Box::new(|| l("((2,4),(2,2)):((8,1),(4,16))").clone().to_string()), "((2,4),(2,2)):((8,1),(4,16))"),
        ("filter_zeros", Box::new(|| filter_zeros(&l("(3,(2,4)):(0,(1,2))")).to_string()), "(1,(2,4)):(0,(1,2))"),
        (
            "make_layout_like",
            Box::new(|| make_layout_like(&l("({2},{3},{4},{5}):(0,{42},1,0)")).unwrap().to_styled(Style::Cpp)),
            "(2,3,4,5):(_0,4,_1,_0)",
        ),
        (
            "make_fragment_like",
            Box::new(|| make_fragment_like(&l("((2,2),4):((1,8),16)")).unwrap().to_string()),
            "((2,2),(4)):((1,2),(4))",
        ),
        ("upcast", Box::new(|| upcast(&l("(4,8):(1,4)"), 2).unwrap().to_string()), "(2,8):(1,2)"),
        ("downcast", Box::new(|| downcast(&l("(2,8):(1,2)"), 2).unwrap().to_string()), "(4,8):(1,4)"),
        ("select", Box::new(|| l("(2,3,4):(1,2,6)").select(&[2, 0]).unwrap().to_string()), "(4,2):(6,1)"),
    ];
    for (name, op, expected) in cases {
        assert_eq!(op(), expected, "{name}");
    }
    // Counted apart from the parsing and printing above (which build trees and strings).
    let (s1, s2, s3, o) = (shape("(2,(1,6))"), shape("(2,(3,4))"), shape("(2,2,2,2)"), shape("(0,2,3,1)"));
    let (block, target) = (l("(2,2):(1,2)"), shape("(4,6)"));
    let (n, a, w, z) =
        (l("(2,4,3):(0,1,0)"), l("(8,64):(64,1)"), l("((2,4),(2,2)):((8,1),(4,16))"), l("(3,(2,4)):(0,(1,2))"));
    let (like, frag) = (l("({2},{3},{4},{5}):(0,{42},1,0)"), l("((2,2),4):((1,8),16)"));
    let (up, down, sel) = (l("(4,8):(1,4)"), l("(2,8):(1,2)"), l("(2,3,4):(1,2,6)"));
    type Counted<'a> = Box<dyn Fn() + 'a>;
    let counted_ops: Vec<(&str, Counted)> = vec![
        ("make_layout_left", Box::new(|| drop(make_layout_left(&s1)))),
        ("make_layout_right", Box::new(|| drop(make_layout_right(&s2)))),
        ("make_ordered_layout", Box::new(|| drop(make_ordered_layout(&s3, &o)))),
        ("tile_to_shape", Box::new(|| drop(tile_to_shape(&block, &target, None)))),
        ("nullspace", Box::new(|| drop(nullspace(&n)))),
        ("max_alignment", Box::new(|| drop(max_alignment(&a)))),
        ("clone", Box::new(|| drop(w.clone()))),
        ("filter_zeros", Box::new(|| drop(filter_zeros(&z)))),
        ("make_layout_like", Box::new(|| drop(make_layout_like(&like)))),
        ("make_fragment_like", Box::new(|| drop(make_fragment_like(&frag)))),
        ("upcast", Box::new(|| drop(upcast(&up, 2)))),
        ("downcast", Box::new(|| drop(downcast(&down, 2)))),
        ("select", Box::new(|| drop(sel.select(&[2, 0])))),
    ];
    for (name, op) in counted_ops {
        op(); // nothing lazily initialized is counted
        let ((), k) = counted(&op);
        assert_eq!(k, 0, "{name} allocated {k} times");
    }
}

#[test]
fn layouts_past_the_inline_capacity_spill_to_the_heap_unchanged() {
    // 18 leaves (past the 16 kept inline): the heap path. A compact column-major layout
    // coalesces to size:1 and keeps its function.
    let modes: Vec<String> = (0..9).map(|k| format!("({},{})", 1 << (2 * k), 2 << (2 * k))).collect();
    let shape = ["(2,2)"; 9].join(",");
    let big = l(&format!("({shape}):({})", modes.join(",")));
    let size = 1i64 << 18;
    let (copy, n) = counted(|| big.clone());
    assert!(n > 0, "18 leaves are past the inline capacity");
    let c = coalesce(&copy).unwrap();
    assert_eq!(c.to_string(), format!("{size}:1"));
    assert!((0..size).all(|i| c.call(i).unwrap() == big.call(i).unwrap()));
    // Dividing a compact layout by <4,4> is a bijection onto the same indices, and its first
    // tile (modes 0 and 1 are compact, of 4 elements each) is the indices 0..16 in order.
    let d = zipped_divide(&big, &t("<4,4>")).unwrap();
    assert_eq!(d.size().unwrap().value(), size);
    let mut seen: Vec<i64> = (0..size).map(|i| d.call(i).unwrap()).collect();
    seen.sort_unstable();
    assert_eq!(seen, (0..size).collect::<Vec<_>>());
    let tile = d.get(0).unwrap();
    assert_eq!((0..16).map(|k| tile.call(k).unwrap()).collect::<Vec<_>>(), (0..16).collect::<Vec<_>>());
}

/// The kernel layer's slicing on layouts: `slice`, `dice`, `slice_and_offset` and the
/// partitions (`local_tile` and `local_partition` without a projection), and tensors over
/// slices. Expected values: the doc examples (CuTe C++
/// 4.2's answers for the partitions).
#[test]
fn slices_and_partitions_within_the_inline_capacity_do_not_allocate() {
    fn c(s: &str) -> Coord {
        s.parse().unwrap()
    }
    let (sl, so) = (l("((2,3),4):((1,2),6)"), l("(4,2):(2,1)"));
    let (c2, c1) = (c("(_,2)"), c("(_,1)"));
    let (a, t44, c11) = (l("(8,8,4):(1,8,64)"), t("<4,4>"), c("(1,1,_)"));
    let (b, t42, c11b) = (l("(8,4):(1,8)"), t("<4,2>"), c("(1,1)"));
    let show = |(x, off): (Layout, Int)| (x.to_string(), off.value());
    assert_eq!(sl.slice(&c2).unwrap().to_string(), "((2,3)):((1,2))");
    assert_eq!(sl.dice(&c2).unwrap().to_string(), "(4):(6)");
    assert_eq!(show(so.slice_and_offset(&c1).unwrap()), ("(4):(2)".to_string(), 1));
    assert_eq!(show(tensor::inner_partition(&a, &t44, &c11).unwrap()), ("(4,4,4):(1,8,64)".to_string(), 36));
    assert_eq!(show(tensor::local_tile(&a, &t44, &c11, None).unwrap()), ("(4,4,4):(1,8,64)".to_string(), 36));
    assert_eq!(show(tensor::outer_partition(&b, &t42, &c11b).unwrap()), ("(2,2):(4,16)".to_string(), 9));
    // local_partition: CuTe's comment in tensor_impl.hpp (a (16,64) tensor over 2x16 threads,
    // CuTe C++ 4.2's answer), and the tensor method's doc example (thread (1,1) of 4x2).
    let (m, threads) = (l("(16,64):(1,16)"), l("(2,16):(16,1)"));
    assert_eq!(
        show(tensor::local_partition(&m, &threads, Int::dy(17), None).unwrap()),
        ("(8,4):(2,256)".to_string(), 17)
    );
    let small: Vec<u32> = (0..32).collect();
    let (tile, t42l) = (tensor::Tensor::new(&small[..], l("(8,4):(1,8)")).unwrap(), l("(4,2):(1,4)"));
    let p = tile.local_partition(&t42l, 5).unwrap();
    assert_eq!((p.layout().to_string(), *p.get(0).unwrap(), *p.get(3).unwrap()), ("(2,2):(4,16)".to_string(), 9, 29));
    // A tensor over a slice: its tile is (8,8,4)'s element 36 onwards, as the offset above.
    let data: Vec<f32> = (0..256).map(|x| x as f32).collect();
    let view = tensor::Tensor::new(&data[..], a.clone()).unwrap();
    assert_eq!(*view.local_tile(&t44, &c11).unwrap().get(0).unwrap(), 36.0);
    type Counted<'a> = Box<dyn Fn() + 'a>;
    let ops: Vec<(&str, Counted)> = vec![
        ("slice", Box::new(|| drop(sl.slice(&c2)))),
        ("dice", Box::new(|| drop(sl.dice(&c2)))),
        ("slice_and_offset", Box::new(|| drop(so.slice_and_offset(&c1)))),
        ("call_coord", Box::new(|| drop(so.call_coord(&c1)))),
        ("inner_partition", Box::new(|| drop(tensor::inner_partition(&a, &t44, &c11)))),
        ("local_tile", Box::new(|| drop(tensor::local_tile(&a, &t44, &c11, None)))),
        ("outer_partition", Box::new(|| drop(tensor::outer_partition(&b, &t42, &c11b)))),
        ("Tensor::new", Box::new(|| drop(tensor::Tensor::new(&data[..], a.clone())))),
        ("Tensor::local_tile", Box::new(|| drop(view.local_tile(&t44, &c11)))),
        ("local_partition", Box::new(|| drop(tensor::local_partition(&m, &threads, Int::dy(17), None)))),
        ("Tensor::local_partition", Box::new(|| drop(tile.local_partition(&t42l, 5)))),
    ];
    for (name, op) in ops {
        op(); // nothing lazily initialized is counted
        let ((), k) = counted(&op);
        assert_eq!(k, 0, "{name} allocated {k} times");
    }
}
