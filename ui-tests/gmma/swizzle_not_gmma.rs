// Sw<2,3,2> on 16-bit elements is Sw<2,4,2> on bytes: wgmma walks Sw<B,4,3> only.
use cute_static::gmma::{make_gmma_desc, K};
use cute_static::typenum::{P2, U0, U16, U2, U3};
use cute_static::{layout, ComposedLayout, Swizzle};

fn main() {
    let tile = ComposedLayout::new(Swizzle::<U2, U3, P2>::new(), U0::default(), layout!((64,16):(16,1)));
    let _ = make_gmma_desc::<K, U16, _>(tile, 0);
}
