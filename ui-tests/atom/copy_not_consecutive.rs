// 16-byte cp.async chunks of halves into a tile swizzled by Sw<3,2,3>, which moves 4-element
// (8-byte) pieces: a chunk's 8 values are not consecutive in shared memory.
use cute_atom::algorithm::copy;
use cute_atom::SmemTensor;
use cute_static::copy::{TiledCopy, SM80_CP_ASYNC_CACHEGLOBAL_ZFILL};
use cute_static::swizzle::Swizzle;
use cute_static::tensor::PtrTensor;
use cute_static::typenum::{P3, U0, U2, U3, U8};
use cute_static::{layout, ComposedLayout, Layout};

type Copy = TiledCopy<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<U8>, Layout![(64,4):(4,1)], Layout![(1,8):(0,1)]>;
type Smem = ComposedLayout<Swizzle<U3, U2, P3>, U0, Layout![(128,32):(32,1)]>;

fn main() {
    let k = 4096;
    let src = PtrTensor::new(core::ptr::null_mut::<u16>(), layout!((128,32):({k},1)));
    let dst = SmemTensor::<u16, Smem>::new(0, Default::default());
    unsafe { copy(&Copy::new(), 0, &src, &dst) };
}
