// A column-major 64x64 tile of halves: one box lands row after row, so the tile must be the
// row-major (64,64):(64,1).
use cute_static::layout;
use cute_static::tma::TmaBox;
use cute_static::typenum::U16;

fn main() {
    let _ = bytes(&layout!((64,64):(1,64)));
}

fn bytes<T: TmaBox<U16>>(_: &T) -> u32 {
    T::BYTES
}
