// An RS wgmma's A fragment of 4 k-blocks (64 columns of K) against a B tile of K = 128.
use cute_atom::algorithm::TiledWgmma;
use cute_atom::atom::MmaCall;
use cute_atom::SmemTensor;
use cute_static::gmma::{LayoutAtom, Sw128, K};
use cute_static::mma::SM90_64x64x16_F32F16F16_RS;
use cute_static::typenum::U16;
use cute_static::{Shape, TileToShape};

type Atom = LayoutAtom<K, Sw128, U16>;
type StageB = <Atom as TileToShape<Shape![(64, 128)]>>::Output;

fn main() {
    let mma = TiledWgmma::<SM90_64x64x16_F32F16F16_RS, 1>::new().slice(0);
    let b = SmemTensor::<u16, StageB>::new(0, Default::default());
    let a = [[0u32; 4]; 4];
    let mut acc = SM90_64x64x16_F32F16F16_RS::zeros();
    unsafe { mma.gemm_rs(&a, &b, &mut acc) };
}
