// The A operand of a 16x8x16 MMA given as a rank-1 layout: an (M,K) layout is what it takes.
use cute_static::mma::{TiledMma, SM80_16x8x16_F32F16F16F32_TN};
use cute_static::{layout, Layout};

fn main() {
    let mma = TiledMma::<SM80_16x8x16_F32F16F16F32_TN, Layout![(2,2,1):(1,2,0)]>::new();
    let _ = mma.partition_a(layout!(512:1), 0);
}
