// ldmatrix (not .trans) reads rows of A along k: an m-major shared A has none.
use cute_atom::algorithm::copy_to_fragment;
use cute_atom::SmemTensor;
use cute_static::copy::SM75_U32x4_LDSM_N;
use cute_static::mma::{TiledMma, SM80_16x8x16_F32F16F16F32_TN};
use cute_static::{Layout, Tiler};

type Warp = TiledMma<SM80_16x8x16_F32F16F16F32_TN, Layout![(1,1,1):(0,0,0)], Tiler![<16, 16, 16>]>;

fn main() {
    let copy = Warp::default().make_tiled_copy_a::<SM75_U32x4_LDSM_N>();
    let sa = SmemTensor::<u16, Layout![(128,32):(1,128)]>::new(0, Default::default());
    let mut frg = [0u32; 4];
    unsafe { copy_to_fragment(&copy, 0, &sa.local_tile::<16, 16>((0, 0)), &mut frg) };
}
