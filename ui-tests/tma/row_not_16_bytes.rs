// An 8x4 tile of halves: a box row of 8 bytes, where TMA moves 16-byte multiples.
use cute_static::layout;
use cute_static::tma::TmaBox;
use cute_static::typenum::U16;

fn main() {
    let _ = bytes(&layout!((8,4):(4,1)));
}

fn bytes<T: TmaBox<U16>>(_: &T) -> u32 {
    T::BYTES
}
