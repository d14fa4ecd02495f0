// Shared to global memory: 16-byte `UniversalCopy` loads (4 floats) out of a padded tile
// `(32,32):(33,1)`. Row 1 starts at offset 33, not a multiple of 4: the shared source's checks
// are the destination's, on whichever operand is shared.
use cute_atom::algorithm::copy;
use cute_atom::SmemTensor;
use cute_static::copy::{TiledCopy, UniversalCopy};
use cute_static::tensor::PtrTensor;
use cute_static::typenum::U4;
use cute_static::{layout, Layout};

type Copy = TiledCopy<UniversalCopy<U4>, Layout![(32,8):(8,1)], Layout![(1,4):(0,1)]>;

fn main() {
    let n = 4096;
    let src = SmemTensor::<f32, Layout![(32,32):(33,1)]>::new(0, Default::default());
    let dst = PtrTensor::new(core::ptr::null_mut::<f32>(), layout!((32,32):({n},1)));
    unsafe { copy(&Copy::new(), 0, &src, &dst) };
}
