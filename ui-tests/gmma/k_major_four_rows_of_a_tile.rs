// A K-major block of 4 rows (issue "The floor, round 4", item 2): C++ 4.2 refuses it
// (`Expected MN-size multiple of 8`), as cute-dyn does; dividing by the (8,2) core matrix
// stretches it to 8 rows, so the check reads the size before the division.
use cute_static::gmma::{gmma_desc_of_tile, LayoutAtom, Sw128, K};
use cute_static::typenum::U16;
use cute_static::{shape, tile_to_shape, tiler, Cons, Nil};

fn main() {
    let smem = tile_to_shape(LayoutAtom::<K, Sw128, U16>::default(), shape!((64, 64)));
    let _ = gmma_desc_of_tile::<K, U16, _, _, _>(smem, tiler!(<4,16>), &Cons(0usize, Cons(0usize, Nil)), 1024);
}
