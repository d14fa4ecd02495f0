// (4,8):(8,1): a K-major interleaved tile of 4 rows. C++ 4.2: `Expected MN-size multiple of 8`.
use cute_static::gmma::{make_gmma_desc, K};
use cute_static::typenum::U16;
use cute_static::layout;

fn main() {
    let _ = make_gmma_desc::<K, U16, _>(layout!((4,8):(8,1)), 0);
}
