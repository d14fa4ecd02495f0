// A matrix with run-time extents given to `partition_c`, which the type checker computes: one
// mistake, its errors in words (the follow-on trait failures wait on the gate).
use cute_static::mma::{TiledMma, SM80_16x8x16_F32F16F16F32_TN};
use cute_static::{layout, Layout};

fn main() {
    let (m, n) = (64usize, 64usize);
    let mma = TiledMma::<SM80_16x8x16_F32F16F16F32_TN, Layout![(2,2,1):(1,2,0)]>::new();
    let _ = mma.partition_c(layout!(({m},{n}):(1,{m})), 3);
}
