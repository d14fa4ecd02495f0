//! Algorithms over tensors and atoms (CuTe's `cute/algorithm`): `gemm` of a warpgroup's
//! slice of a tiled `wgmma` over shared-memory operands.

pub mod gemm;
pub mod mask;
pub mod rows;

pub use gemm::{a_slot, acc_as_a, warpgroup_wait, TiledWgmma, WgmmaOperandB, WgmmaOperands, WgmmaSlice};
pub use mask::mask;
pub use rows::AccRows;
