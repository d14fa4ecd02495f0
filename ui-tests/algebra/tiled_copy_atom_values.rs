// ldmatrix.x4.trans moves 8 values a thread; the B fragment of a 2x2 tiled mma.sync 16x8x16
// holds 4: make_tiled_copy_B refuses it (C++'s static_assert in make_tiled_copy_impl).
use cute::cute_static::copy::SM75_U16x8_LDSM_T;
use cute::cute_static::mma::{TiledMma, SM80_16x8x16_F32F16F16F32_TN};
use cute::cute_static::Layout;

fn main() {
    let mma = TiledMma::<SM80_16x8x16_F32F16F16F32_TN, Layout![(2,2,1):(1,2,0)]>::new();
    let _ = mma.make_tiled_copy_b::<SM75_U16x8_LDSM_T>();
}
