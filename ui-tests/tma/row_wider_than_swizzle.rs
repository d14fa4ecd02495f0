// A row-major 64x64 half tile under the 64-byte swizzle (Sw<2,3,3> on halves, GMMA's SW64): a box row is 128 bytes, twice the swizzle's span
// (CUDA's cuTensorMapEncodeTiled refuses such a map; CuTe C++ would split the tile).
use cute_static::tma::TmaBox;
use cute_static::typenum::{P3, U0, U16, U2, U3};
use cute_static::{layout, ComposedLayout, Swizzle};

fn main() {
    let tile = ComposedLayout::new(Swizzle::<U2, U3, P3>::new(), U0::default(), layout!((64,64):(64,1)));
    let _ = bytes(&tile);
}

fn bytes<T: TmaBox<U16>>(_: &T) -> u32 {
    T::BYTES
}
