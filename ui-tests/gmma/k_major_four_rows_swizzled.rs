// Sw<3,3,3> o 0 o (4,16):(64,1): a K-major SW128 tile of 4 rows. C++ 4.2: `Expected MN-size
// multiple of 8`.
use cute_static::gmma::{make_gmma_desc, K};
use cute_static::typenum::{P3, U0, U16, U3};
use cute_static::{layout, ComposedLayout, Swizzle};

fn main() {
    let tile = ComposedLayout::new(Swizzle::<U3, U3, P3>::new(), U0::default(), layout!((4,16):(64,1)));
    let _ = make_gmma_desc::<K, U16, _>(tile, 0);
}
