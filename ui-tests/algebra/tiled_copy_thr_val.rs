// make_tiled_copy(UniversalCopy<uint128_t> of 16-bit elements, 32x4 threads, 1x4 values): the
// atom moves 8 values a thread, the value layout gives 4 (C++'s static_assert).
use cute::cute_static::copy::{TiledCopy, UniversalCopy};
use cute::cute_static::{typenum::U8, Layout};

fn main() {
    let _ = TiledCopy::<UniversalCopy<U8>, Layout![(32,4):(4,1)], Layout![(1,4):(0,1)]>::new();
}
