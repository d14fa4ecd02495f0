// cp.async.cg moves 16 bytes; 4 halves are 8.
use cute_atom::algorithm::copy;
use cute_atom::SmemTensor;
use cute_static::copy::{TiledCopy, SM80_CP_ASYNC_CACHEGLOBAL_ZFILL};
use cute_static::tensor::PtrTensor;
use cute_static::typenum::U4;
use cute_static::{layout, Layout};

type Copy = TiledCopy<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<U4>, Layout![(32,8):(8,1)], Layout![(1,4):(0,1)]>;

fn main() {
    let k = 4096;
    let src = PtrTensor::new(core::ptr::null_mut::<u16>(), layout!((128,32):({k},1)));
    let dst = SmemTensor::<u16, Layout![(128,32):(32,1)]>::new(0, Default::default());
    unsafe { copy(&Copy::new(), 0, &src, &dst) };
}
