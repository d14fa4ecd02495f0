//! Algorithms over tensors and atoms (CuTe's `cute/algorithm`): `gemm` of a warpgroup's
//! slice of a tiled `wgmma` over shared-memory operands, and `copy` / `copy_if` of a tiled copy and its
//! copies between shared tiles and register fragments (`copy_to_fragment`, `copy_from_fragment`).

pub mod copy;
pub mod gemm;
pub mod mask;
pub mod rows;

pub use copy::{
    copy, copy_from_fragment, copy_if, copy_to_fragment, CopyCall, CopyOperand, EpilogueTv, FirstEight, Fragment,
    LoadCall, StoreCall, StoreEpilogue, TiledCopyCall, TiledCopyLoad, TiledCopyStore,
};
pub use gemm::{a_slot, acc_as_a, warpgroup_wait, TiledWgmma, WgmmaOperandB, WgmmaOperands, WgmmaSlice};
pub use mask::mask;
pub use rows::AccRows;
