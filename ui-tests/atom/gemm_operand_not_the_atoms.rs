// A 128-row B tile given to the 64x256x16 atom, which multiplies 256 columns.
use cute_atom::algorithm::TiledWgmma;
use cute_atom::SmemTensor;
use cute_static::gmma::{LayoutAtom, Sw128, K};
use cute_static::mma::SM90_64x256x16_F32F16F16_SS;
use cute_static::typenum::U16;
use cute_atom::atom::MmaCall;
use cute_static::{Shape, TileToShape};

type Atom = LayoutAtom<K, Sw128, U16>;
type StageA = <Atom as TileToShape<Shape![(128, 64)]>>::Output;
type StageB = <Atom as TileToShape<Shape![(128, 64)]>>::Output;

fn main() {
    let mma = TiledWgmma::<SM90_64x256x16_F32F16F16_SS, 2>::new().slice(0);
    let (a, b) = (SmemTensor::<u16, StageA>::new(0, Default::default()), SmemTensor::<u16, StageB>::new(32768, Default::default()));
    let mut acc = SM90_64x256x16_F32F16F16_SS::zeros();
    unsafe { mma.gemm(&a, &b, &mut acc) };
}
