// Canonical tiles build, and their descriptors are CuTe C++ 4.2's (tests/data/gmma/cxx_gmma.tsv).
// (This pass case also makes trybuild build the compile-fail cases beside it, rather than
// check them: their errors are constants of the instance, which `cargo check` does not
// evaluate.)
use cute_static::gmma::{gmma_desc_of_tile, LayoutAtom, Sw128, Sw64, K, MN};
use cute_static::typenum::U16;
use cute_static::{shape, tile_to_shape, tiler, Cons, Nil};

fn main() {
    let smem = tile_to_shape(LayoutAtom::<K, Sw128, U16>::default(), shape!((128,128,2)));
    let d = gmma_desc_of_tile::<K, U16, _, _, _>(smem, tiler!(<64,16>), &Cons(1usize, Cons(7usize, Cons(1usize, Nil))), 0);
    assert_eq!(d, 0x4000004000010e06);
    let smem = tile_to_shape(LayoutAtom::<MN, Sw64, U16>::default(), shape!((64,64,3)));
    let d = gmma_desc_of_tile::<MN, U16, _, _, _>(smem, tiler!(<64,16>), &Cons(0usize, Cons(1usize, Cons(2usize, Nil))), 0);
    assert_eq!(d, 0x8000004000200480);
}
