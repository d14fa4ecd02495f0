// The mma.sync HGEMM's stage loads (gpu/src/hgemm.rs) in CuTe's words: copy_if of a tiled copy
// of 16-byte cp.async chunks from a block tile of a row-major global matrix (run-time leading
// dimension) into a swizzled shared stage. The compiler checks that every thread's chunks are
// consecutive and 16-byte aligned in the swizzled stage; this builds (the call runs on a GPU).
use cute_atom::algorithm::{copy_if, TiledCopyCall};
use cute_atom::SmemTensor;
use cute_static::copy::{TiledCopy, SM80_CP_ASYNC_CACHEGLOBAL_ZFILL};
use cute_static::swizzle::Swizzle;
use cute_static::tensor::PtrTensor;
use cute_static::typenum::{P3, U0, U2, U3, U8};
use cute_static::{layout, ComposedLayout, Layout};

type Copy = TiledCopy<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<U8>, Layout![(64,4):(4,1)], Layout![(1,8):(0,1)]>;
type Stage = ComposedLayout<Swizzle<U2, U3, P3>, U0, Layout![(128,32):(32,1)]>;

/// Thread `tid`'s chunks of block tile `(by, kt)` of an `m x k` matrix, zero-filled past it.
unsafe fn load(a: *mut u16, (m, k): (usize, usize), (by, kt): (usize, usize), tid: usize, stage: u32) {
    let tile = PtrTensor::new(a.wrapping_add(128 * by * k + 32 * kt), layout!((128,32):({k},1)));
    let dst = SmemTensor::<u16, Stage>::new(stage, Default::default());
    let (m0, k0) = (128 * by, 32 * kt);
    unsafe { copy_if(&Copy::new(), tid, |r, c| m0 + r < m && k0 + c < k, &tile, &dst) };
}

type Src = PtrTensor<u16, Layout![(128,32):(usize,1)]>;
type Dst = SmemTensor<u16, Stage>;

fn main() {
    // The copy's tile: 64x32, each thread's 8 values one 16-byte atom, 256 threads.
    assert_eq!(<Copy as TiledCopyCall<Src, Dst>>::TILE, [64, 32]);
    assert_eq!(<Copy as TiledCopyCall<Src, Dst>>::THREADS, 256);
    // Compiled (and so checked) but not run: the instruction exists only on the GPU.
    if std::env::args().count() > 1000 {
        unsafe { load(core::ptr::null_mut(), (100, 64), (0, 0), 0, 0) };
    }
}
