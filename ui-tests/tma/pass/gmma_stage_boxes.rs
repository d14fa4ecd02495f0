// The boxes of the Hopper HGEMM's stages (one TMA copy each): 64x128 and 64x256 halves, the
// 128-byte swizzle; and a plain row-major tile of floats.
use cute_static::gmma::{LayoutAtom, K, Sw128};
use cute_static::tma::TmaBox;
use cute_static::typenum::{U16, U32};
use cute_static::{layout, shape, tile_to_shape};

fn main() {
    let a = tile_to_shape(LayoutAtom::<K, Sw128, U16>::default(), shape!((128, 64)));
    let b = tile_to_shape(LayoutAtom::<K, Sw128, U16>::default(), shape!((256, 64)));
    assert_eq!(box_of::<U16, _>(&a), ([64, 128], 16384));
    assert_eq!(box_of::<U16, _>(&b), ([64, 256], 32768));
    assert_eq!(box_of::<U32, _>(&layout!((32,8):(8,1))), ([8, 32], 1024));
}

fn box_of<B, T: TmaBox<B>>(_: &T) -> ([u32; 2], u32) {
    (T::BOX, T::BYTES)
}
