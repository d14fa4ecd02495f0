// An MN-major tile of 32-bit (tf32) elements: CuTe C++ describes it, wgmma cannot read it
// (PTX ISA: the transposes, imm-trans-a/b, are for .f16 and .bf16 only).
use cute_static::gmma::{gmma_desc_of_tile, LayoutAtom, Sw128, MN};
use cute_static::typenum::U32;
use cute_static::{shape, tile_to_shape, tiler, Cons, Nil};

fn main() {
    let smem = tile_to_shape(LayoutAtom::<MN, Sw128, U32>::default(), shape!((64,16)));
    let _ = gmma_desc_of_tile::<MN, U32, _, _, _>(smem, tiler!(<64,8>), &Cons(0usize, Cons(0usize, Nil)), 0);
}
