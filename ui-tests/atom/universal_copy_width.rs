// A universal copy moves 1, 2, 4, 8 or 16 bytes an access; 3 halves are 6.
use cute_atom::algorithm::copy;
use cute_atom::SmemTensor;
use cute_static::copy::{TiledCopy, UniversalCopy};
use cute_static::tensor::PtrTensor;
use cute_static::typenum::U3;
use cute_static::{layout, Layout};

type Copy = TiledCopy<UniversalCopy<U3>, Layout![(32,1):(1,0)], Layout![(1,3):(0,1)]>;

fn main() {
    let k = 96;
    let src = PtrTensor::new(core::ptr::null_mut::<u16>(), layout!((32,96):({k},1)));
    let dst = SmemTensor::<u16, Layout![(32,96):(96,1)]>::new(0, Default::default());
    unsafe { copy(&Copy::new(), 0, &src, &dst) };
}
