//! Algorithms over tensors and atoms (CuTe's `cute/algorithm`): `gemm` of a warpgroup's
//! slice of a tiled `wgmma` over shared-memory operands.

pub mod gemm;

pub use gemm::{warpgroup_wait, TiledWgmma, WgmmaOperands, WgmmaSlice};
