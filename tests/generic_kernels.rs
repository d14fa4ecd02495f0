//! Kernel code generic over layouts, written with one bound per operation (issue "cute-static in
//! generic kernel code"): the functions of the issue, chaining, and a tiled copy over a thread
//! layout. Expected values come from the CuTe documentation or from the layouts' definitions.

use cute::cute_static::error::Error;
use cute::cute_static::{
    layout, tiler, Checked, Coalesce, Get, Layout, LayoutFn, LogicalDivide, LogicalProduct, RightInverse, StaticLayout,
    ZippedDivide,
};

fn tiles<L, T>(l: L, t: T) -> <L as ZippedDivide<T>>::Output
where
    L: ZippedDivide<T>,
{
    l.zipped_divide(t)
}

fn divide_then_coalesce<L, T>(l: L, t: T) -> <<L as LogicalDivide<T>>::Output as Coalesce>::Output
where
    L: LogicalDivide<T>,
    <L as LogicalDivide<T>>::Output: Coalesce,
{
    l.logical_divide(t).coalesce()
}

/// The tile mode of a divide: a divide, then `get<0>`.
fn tile_of<L, T>(l: L, t: T) -> <<L as LogicalDivide<T>>::Output as Get<0>>::Output
where
    L: LogicalDivide<T>,
    <L as LogicalDivide<T>>::Output: Get<0>,
{
    l.logical_divide(t).get()
}

/// The issue's three-bound chain through a nested tiler (`zipped_divide`, `get<0>`, `coalesce`),
/// written as the issue wrote it, each result a projection (rustc overflowed on it, E0275 with
/// no span, until `Coalesce`'s impl named the flattened modes as a parameter).
type CoalescedTile<L, T> = <<<L as ZippedDivide<T>>::Output as Get<0>>::Output as Coalesce>::Output;
fn coalesced_tile_projections<L, T>(l: L, t: T) -> CoalescedTile<L, T>
where
    L: ZippedDivide<T>,
    <L as ZippedDivide<T>>::Output: Get<0>,
    <<L as ZippedDivide<T>>::Output as Get<0>>::Output: Coalesce,
{
    l.zipped_divide(t).get().coalesce()
}

/// The same chain for static and run-time layouts alike (`Checked` for the divide's result),
/// each result a projection.
type CheckedTile<L, T> = <<<<L as ZippedDivide<T>>::Output as Checked>::Layout as Get<0>>::Output as Coalesce>::Output;
fn coalesced_tile_checked<L, T>(l: L, t: T) -> Result<CheckedTile<L, T>, Error>
where
    L: ZippedDivide<T>,
    <L as ZippedDivide<T>>::Output: Checked,
    <<L as ZippedDivide<T>>::Output as Checked>::Layout: Get<0>,
    <<<L as ZippedDivide<T>>::Output as Checked>::Layout as Get<0>>::Output: Coalesce,
{
    Ok(l.zipped_divide(t).checked()?.get().coalesce())
}

/// The same chain with each step's result bound to a type parameter.
fn coalesced_tile<L, T, Z, Tile>(l: L, t: T) -> Tile::Output
where
    L: ZippedDivide<T, Output = Z>,
    Z: Get<0, Output = Tile>,
    Tile: Coalesce,
{
    Get::<0>::get(&l.zipped_divide(t)).coalesce()
}

#[test]
fn a_chain_through_a_nested_tiler() {
    // The tile of (8,(4,8)):(32,(1,4)) by <4,<2,4>> is (4,(2,4)):(32,(1,4)) (composition of each
    // mode with its tiler element); coalesce merges nothing (32*4 != 1, 1*2 != 4).
    let r = coalesced_tile(layout!((8,(4,8)):(32,(1,4))), tiler!(<4,<2,4>>));
    assert_eq!(r.to_string(), "(4,2,4):(32,1,4)");
    let p = coalesced_tile_projections(layout!((8,(4,8)):(32,(1,4))), tiler!(<4,<2,4>>));
    assert_eq!(p.to_string(), "(4,2,4):(32,1,4)");
    assert_eq!(
        coalesced_tile_checked(layout!((8,(4,8)):(32,(1,4))), tiler!(<4,<2,4>>)).unwrap().to_string(),
        "(4,2,4):(32,1,4)"
    );
    // with the last extent run-time (8): the same values, the run-time extent's mode run-time
    let n = 8usize;
    let m = coalesced_tile_checked(layout!((8,(4,{n})):(32,(1,4))), tiler!(<4,<2,4>>)).unwrap();
    assert_eq!(m.to_string(), "(4,2,4):(32,1,4)");
    // cute-dyn agrees.
    let a: cute::cute_dyn::Layout = "(8,(4,8)):(32,(1,4))".parse().unwrap();
    let z = cute::cute_dyn::divide::zipped_divide(&a, &"<4,<2,4>>".parse().unwrap()).unwrap();
    assert_eq!(cute::cute_dyn::coalesce::coalesce(&z.get(0).unwrap()).unwrap().to_string(), r.to_string());
}

#[test]
fn the_issues_generic_functions() {
    // CuTe docs: zipped_divide((9,(4,8)):(59,(13,1)), <3:3,(2,4):(1,8)>)
    let z = tiles(layout!((9,(4,8)):(59,(13,1))), tiler!(<3:3,(2,4):(1,8)>));
    assert_eq!(z.to_string(), "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))");
    // CuTe docs: (4,2,3):(2,1,8) / 4:2 = ((2,2),(2,3)):((4,1),(2,8)); coalesce merges 2:1 and
    // 2:2 (2 == 2*1), and nothing else.
    let c = divide_then_coalesce(layout!((4,2,3):(2,1,8)), layout!(4:2));
    assert_eq!(c.to_string(), "(2,4,3):(4,1,8)");
    // The tile of that divide is composition(A, B) = (2,2):(4,1) (CuTe docs).
    assert_eq!(tile_of(layout!((4,2,3):(2,1,8)), layout!(4:2)).to_string(), "(2,2):(4,1)");
}

/// A tiled copy, generic over the tensor layout `L` (static or with run-time leaves), the tile
/// `T` and the thread layout `TL`: the layout is divided into tiles (`zipped_divide`), and
/// thread `t` copies element `v` of every tile where `TL(t) + size(TL) * v` is the element's
/// index in the tile. One bound per operation (`ZippedDivide`, `Checked` for its result
/// whether computed by the type checker or when it ran, `Get`), plus `LayoutFn` to
/// evaluate.
fn tiled_copy<L, T, TL>(src: &[f32], dst: &mut [f32], l: L, t: T, threads: TL) -> Result<(), Error>
where
    L: ZippedDivide<T>,
    <L as ZippedDivide<T>>::Output: Checked,
    <<L as ZippedDivide<T>>::Output as Checked>::Layout: Get<0> + LayoutFn,
    <<<L as ZippedDivide<T>>::Output as Checked>::Layout as Get<0>>::Output: LayoutFn,
    TL: LayoutFn,
{
    let z = l.zipped_divide(t).checked()?;
    let tile_size = Get::<0>::get(&z).size();
    let (nt, total) = (threads.size(), z.size());
    assert_eq!(tile_size % nt, 0, "the threads divide the tile");
    for tid in 0..nt {
        for tile in 0..total / tile_size {
            for v in 0..tile_size / nt {
                let i = threads.call(tid) + nt * v + tile_size * tile;
                let o = z.call(i);
                dst[o] = src[o];
            }
        }
    }
    Ok(())
}

#[test]
fn a_generic_tiled_copy_over_a_thread_layout() -> Result<(), Error> {
    // A column-major 8x12 matrix, 4x3 tiles, 4 threads laid out (2,2) column-major.
    let src: Vec<f32> = (0..96).map(|x| x as f32 * 0.5).collect();
    let mut dst = vec![0.0f32; 96];
    tiled_copy(&src, &mut dst, layout!((8,12):(1,8)), tiler!(<4,3>), layout!((2,2):(1,2)))?;
    assert_eq!(dst, src, "every element copied once");
    // The same with a permuted thread layout (row-major threads): a different order, the same
    // copy.
    let mut dst2 = vec![0.0f32; 96];
    tiled_copy(&src, &mut dst2, layout!((8,12):(1,8)), tiler!(<4,3>), layout!((2,2):(2,1)))?;
    assert_eq!(dst2, src);
    // The same function on run-time extents: a 16x9 row-major matrix.
    let (m, n) = (16usize, 9usize);
    let src: Vec<f32> = (0..m * n).map(|x| x as f32).collect();
    let mut dst = vec![0.0f32; m * n];
    tiled_copy(&src, &mut dst, layout!(({m},{n}):({n},1)), tiler!(<4,3>), layout!((2,2):(1,2)))?;
    assert_eq!(dst, src, "every element copied once");
    // The same function with the tile sizes known at run time, over a static matrix and over
    // the run-time one: the same bounds, the divide computed when it runs.
    let (bm, bn) = (4usize, 3usize);
    let src: Vec<f32> = (0..96).map(|x| x as f32 + 1.0).collect();
    let mut dst = vec![0.0f32; 96];
    tiled_copy(&src, &mut dst, layout!((8,12):(1,8)), tiler!(<{bm},{bn}>), layout!((2,2):(1,2)))?;
    assert_eq!(dst, src, "every element copied once");
    let src: Vec<f32> = (0..m * n).map(|x| x as f32 + 1.0).collect();
    let mut dst = vec![0.0f32; m * n];
    tiled_copy(&src, &mut dst, layout!(({m},{n}):({n},1)), tiler!(<{bm},{bn}>), layout!((2,2):(1,2)))?;
    assert_eq!(dst, src, "every element copied once");
    Ok(())
}

#[test]
fn more_operations_as_bounds() {
    fn inverse_of<L: RightInverse>(l: L) -> L::Output {
        l.right_inverse()
    }
    fn product_of<A: LogicalProduct<B>, B>(a: A, b: B) -> A::Output {
        a.logical_product(b)
    }
    // CuTe's tests: right_inverse((4,2):(2,1)) = (2,4):(4,1)
    assert_eq!(inverse_of(layout!((4,2):(2,1))).to_string(), "(2,4):(4,1)");
    // CuTe docs: logical_product((2,2):(4,1), 6:1) = ((2,2),(2,3)):((4,1),(2,8))
    assert_eq!(product_of(layout!((2,2):(4,1)), layout!(6:1)).to_string(), "((2,2),(2,3)):((4,1),(2,8))");
}

/// `select<I...>`, generic with its one bound, against its definition
/// (`make_layout(get<I>(L)...)`) and cute-dyn's `select` on the same layouts, static and
/// run-time leaves alike.
#[test]
fn select_modes() {
    use cute::cute_static::{layout_dyn, modes, Modes, Select};
    fn pick<L: Select<Modes![2, 0]>>(l: L) -> L::Output {
        l.select(modes![2, 0])
    }
    // (4,2,3):(2,1,8): mode 2 is 3:8, mode 0 is 4:2.
    assert_eq!(pick(layout!((4,2,3):(2,1,8))).to_string(), "(3,4):(8,2)");
    let m = 16;
    let cases = [
        (layout!((4,2,3):(2,1,8)).select(modes![0, 2]).to_dyn().unwrap(), layout_dyn!((4,2,3):(2,1,8)), vec![0, 2]),
        (
            layout!(((2,2),3,(4,1)):((1,2),4,(12,0))).select(modes![2, 0, 2]).to_dyn().unwrap(),
            layout_dyn!(((2,2),3,(4,1)):((1,2),4,(12,0))),
            vec![2, 0, 2],
        ),
        (
            layout!(({m},(2,4)):(1,({m},32))).select(modes![1]).to_dyn().unwrap(),
            layout_dyn!(({m},(2,4)):(1,({m},32))),
            vec![1],
        ),
        (layout!((8,{m}):({m},1)).select(modes![1, 0]).to_dyn().unwrap(), layout_dyn!((8,{m}):({m},1)), vec![1, 0]),
    ];
    for (ours, theirs, idx) in cases {
        let theirs = theirs.unwrap();
        assert_eq!(ours, theirs.select(&idx).unwrap(), "select {idx:?} of {theirs}");
    }
}

/// Generic code over `Layout<S, D>` itself (not a type parameter `L`), the result named by a
/// projection or a parameter: one bound per operation (a method call there is `Layout`'s own
/// method where the operation runs a plan, the divides, products, composition and recasts; the
/// trait's elsewhere: `Layout`'s own methods of the other operations apply to static layouts
/// only).
#[test]
fn generic_code_over_layout_types() {
    use cute::cute_static::{BlockedProduct, Layout, TileToShape, ZippedProduct};
    fn blocked<S, D, B>(a: Layout<S, D>, b: B) -> <Layout<S, D> as BlockedProduct<B>>::Output
    where
        Layout<S, D>: BlockedProduct<B>,
    {
        a.blocked_product(b)
    }
    fn inverse_of<S, D>(l: Layout<S, D>) -> <Layout<S, D> as RightInverse>::Output
    where
        Layout<S, D>: RightInverse,
    {
        l.right_inverse()
    }
    fn tiled<S, D, T>(l: Layout<S, D>, t: T) -> <Layout<S, D> as TileToShape<T>>::Output
    where
        Layout<S, D>: TileToShape<T>,
    {
        l.tile_to_shape(t)
    }
    fn zipped<S, D, B, Z>(a: Layout<S, D>, b: B) -> Z
    where
        Layout<S, D>: ZippedProduct<B, Output = Z>,
    {
        a.zipped_product(b)
    }
    // The CuTe docs' product (2,5):(5,1) x (3,4):(1,3) by its definition: complement((2,5):(5,1),
    // 10 * 12) = 12:10, composed with (3,4):(1,3) = (3,4):(10,30); zipped: ((block), (product)).
    assert_eq!(zipped(layout!((2,5):(5,1)), layout!((3,4):(1,3))).to_string(), "((2,5),(3,4)):((5,1),(10,30))");
    // CuTe docs: blocked_product((2,5):(5,1), (3,4):(1,3)) = ((2,3),(5,4)):((5,10),(1,30))
    assert_eq!(blocked(layout!((2,5):(5,1)), layout!((3,4):(1,3))).to_string(), "((2,3),(5,4)):((5,10),(1,30))");
    assert_eq!(inverse_of(layout!((4,2):(2,1))).to_string(), "(2,4):(4,1)");
    // CuTe C++ 4.2 (tests/data/cxx_static): tile_to_shape((2,2):(1,2), (4,6))
    assert_eq!(
        tiled(layout!((2,2):(1,2)), cute::cute_static::shape!((4, 6))).to_string(),
        "((2,2),(2,3)):((1,4),(2,8))"
    );
}

/// The free functions in generic code: one bound per operation as for the methods (each
/// operation's `Output` is `Produce`d, or its `Plan` runs: bounds every implementation carries,
/// so the free function asks nothing more of a generic caller).
#[test]
fn free_functions_take_one_bound_too() {
    use cute::cute_static::{
        blocked_product, coalesce, complement, composition, logical_divide, logical_product, right_inverse, shape,
        swizzle::Swizzle, tile_to_shape, typenum, zipped_divide, BlockedProduct, Complement, Composition, TileToShape,
    };
    fn coalesced<L: Coalesce>(l: L) -> L::Output {
        coalesce(l)
    }
    fn divided<L: LogicalDivide<T>, T>(l: L, t: T) -> L::Output {
        logical_divide(l, t)
    }
    fn zipped<L: ZippedDivide<T>, T>(l: L, t: T) -> L::Output {
        zipped_divide(l, t)
    }
    fn composed<L: Composition<B>, B>(l: L, b: B) -> L::Output {
        composition(l, b)
    }
    fn inverse<L: RightInverse>(l: L) -> L::Output {
        right_inverse(l)
    }
    fn product<L: LogicalProduct<B>, B>(l: L, b: B) -> L::Output {
        logical_product(l, b)
    }
    fn blocked<L: BlockedProduct<B>, B>(l: L, b: B) -> L::Output {
        blocked_product(l, b)
    }
    fn complemented<L: Complement<C>, C>(l: L, c: C) -> L::Output {
        complement(l, c)
    }
    fn tiled<L: TileToShape<S>, S>(l: L, s: S) -> L::Output {
        tile_to_shape(l, s)
    }
    // CuTe docs: coalesce((2,(1,6)):(1,(6,2))) = 12:1
    assert_eq!(coalesced(layout!((2,(1,6)):(1,(6,2)))).to_string(), "12:1");
    // CuTe docs: (4,2,3):(2,1,8) / 4:2 = ((2,2),(2,3)):((4,1),(2,8))
    assert_eq!(divided(layout!((4,2,3):(2,1,8)), layout!(4:2)).to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    // CuTe docs: (6,2):(8,2) o (4,3):(3,1) = ((2,2),3):((24,2),8)
    assert_eq!(composed(layout!((6,2):(8,2)), layout!((4,3):(3,1))).to_string(), "((2,2),3):((24,2),8)");
    // CuTe's tests: right_inverse((4,2):(2,1)) = (2,4):(4,1)
    assert_eq!(inverse(layout!((4,2):(2,1))).to_string(), "(2,4):(4,1)");
    // CuTe docs: logical_product((2,2):(4,1), 6:1) = ((2,2),(2,3)):((4,1),(2,8)), and
    // blocked_product((2,5):(5,1), (3,4):(1,3)) = ((2,3),(5,4)):((5,10),(1,30))
    assert_eq!(product(layout!((2,2):(4,1)), layout!(6:1)).to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    assert_eq!(blocked(layout!((2,5):(5,1)), layout!((3,4):(1,3))).to_string(), "((2,3),(5,4)):((5,10),(1,30))");
    // CuTe docs: complement(4:2, 24) = (2,3):(1,8)
    assert_eq!(complemented(layout!(4:2), typenum::U24::default()).to_string(), "(2,3):(1,8)");
    // CuTe C++ 4.2 (tests/data/cxx_static): tile_to_shape((2,2):(1,2), (4,6))
    assert_eq!(tiled(layout!((2,2):(1,2)), shape!((4, 6))).to_string(), "((2,2),(2,3)):((1,4),(2,8))");
    // CuTe C++: composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})
    let sw = Swizzle::<typenum::U3, typenum::U3, typenum::P3>::new();
    assert_eq!(composed(sw, layout!((8,64):(64,1))).to_string(), "Sw<3,3,3> o 0 o (8,64):(64,1)");
    // With run-time leaves the same functions give a `Result` (the issue's example: a 128 x 256
    // column-major matrix in 32 x 64 tiles, 4 x 4 of them, the tile modes static).
    let (m, n) = (128usize, 256usize);
    let z = zipped(layout!(({m},{n}):(1,{m})), tiler!(<32,64>)).unwrap();
    assert_eq!(z.to_string(), "((32,64),({4},{4})):((1,{128}),(32,{8192}))");
}

/// A CTA's tile of a matrix with run-time extents (`local_tile`: the algebra's `Error`), then a
/// thread's partition of it (`TensorError`): `?` on both in one function returning
/// `TensorError`, and in one returning `Box<dyn Error>` (issue #49: errors compose).
#[test]
fn errors_compose_through_question_marks() {
    use cute_static::tensor::{local_tile, TensorError};
    use cute_static::{error::Error as AlgebraError, layout, tiler, Cons, Nil};

    fn thread_part(data: &[f32], m: usize, n: usize, cta: (usize, usize), tid: usize) -> Result<f32, TensorError> {
        let (tile, offset) = local_tile(layout!(({m},{n}):(1,{m})), tiler!(<4,8>), &Cons(cta.0, Cons(cta.1, Nil)))?;
        let t = cute_static::tensor::Tensor::new(&data[offset..], tile)?;
        let mine = t.local_partition(layout!((2,4):(1,2)), tid)?;
        Ok(mine[0])
    }
    fn boxed(data: &[f32], m: usize, n: usize) -> Result<f32, Box<dyn std::error::Error>> {
        let (_, offset) = local_tile(layout!(({m},{n}):(1,{m})), tiler!(<4,8>), &Cons(1usize, Cons(1usize, Nil)))?;
        Ok(thread_part(data, m, n, (1, 1), 3)? + offset as f32)
    }
    let (m, n) = (8, 16);
    let data: Vec<f32> = (0..m * n).map(|x| x as f32).collect();
    // CTA (1, 1) starts at (4, 8); thread 3 = (1, 1) of 2x4 owns (5, 9) first: 5 + 9 * 8.
    assert_eq!(thread_part(&data, m, n, (1, 1), 3), Ok(77.0));
    assert_eq!(boxed(&data, m, n).unwrap(), 77.0 + (4 + 8 * 8) as f32);
    // A thread outside the 2x4 thread layout: the tensor's error, whose source is none.
    let e = thread_part(&data, m, n, (1, 1), 9).unwrap_err();
    assert_eq!(e, TensorError::ThreadOutOfRange { thread: 9, threads: 8 });
    // An algebra error becomes a tensor error with the algebra's as its source.
    let a = AlgebraError::Overflow { op: "local_tile" };
    let t: TensorError = a.into();
    assert_eq!(std::error::Error::source(&t).map(|s| s.to_string()), Some(a.to_string()));
}

/// A static layout's cute-dyn form in generic code: one bound, `StaticLayout`, and no `Result`
/// (every value is in the type; that it fits cute-dyn's `i64` is checked at compile time).
fn cpp_text<L: StaticLayout>(l: &L) -> String {
    l.dyn_layout().to_styled(cute::cute_dyn::Style::Cpp)
}

#[test]
fn a_static_layout_converts_to_cute_dyn_without_a_result() {
    // CuTe C++ prints static integers as `_N`: the CuTe docs' (8,(4,8)):(32,(1,4)) is
    // `(_8,(_4,_8)):(_32,(_1,_4))` with every leaf static.
    assert_eq!(cpp_text(&<Layout![(8,(4,8)):(32,(1,4))]>::default()), "(_8,(_4,_8)):(_32,(_1,_4))");
    // and a layout the type checker computed (the zipped divide of the same by <4,<2,4>>)
    let z = layout!((8,(4,8)):(32,(1,4))).zipped_divide(tiler!(<4,<2,4>>));
    assert_eq!(
        cpp_text(&z),
        cute::cute_dyn::zipped_divide(&"(8,(4,8)):(32,(1,4))".parse().unwrap(), &"<4,<2,4>>".parse().unwrap())
            .unwrap()
            .to_styled(cute::cute_dyn::Style::Cpp)
    );
}
