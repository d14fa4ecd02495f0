// A 512-row stage in one box: TMA boxes have at most 256 elements a dimension.
use cute_static::gmma::{LayoutAtom, K, Sw128};
use cute_static::tma::TmaBox;
use cute_static::typenum::U16;
use cute_static::{shape, tile_to_shape};

fn main() {
    let tile = tile_to_shape(LayoutAtom::<K, Sw128, U16>::default(), shape!((512, 64)));
    let _ = bytes(&tile);
}

fn bytes<T: TmaBox<U16>>(_: &T) -> u32 {
    T::BYTES
}
