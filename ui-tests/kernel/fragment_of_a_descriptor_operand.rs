// A register fragment of an operand the atom reads through a shared-memory descriptor: the SS
// atom's A. CuTe's `partition_fragment_A` makes a descriptor there; cute-dyn refuses it.
use cute_static::mma::{TiledMma, SM90_64x128x16_F32F16F16_SS};
use cute_static::{layout, Layout};

fn main() {
    let mma = TiledMma::<SM90_64x128x16_F32F16F16_SS, Layout![(2,1,1):(1,0,0)]>::new();
    let _ = mma.partition_fragment_a(layout!((128,64):(64,1)), 0);
}
