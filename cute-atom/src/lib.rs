//! CuTe's other half for Rust GPU kernels: the instructions, the atoms that execute them, the
//! algorithms over layouts and the pipelines that feed them, on [`cute_static`]. The floors are
//! CuTe's and CUTLASS's folders, each using only the floors below it:
//!
//! | floor | CuTe / CUTLASS | here |
//! |---|---|---|
//! | instructions | `cute/arch` | [`arch`]: one file per family (`mma.sync`, `wgmma`, TMA, barriers, copies); every `asm!` of the crate, each with its PTX ISA section and a `SAFETY:` comment |
//! | atoms | `cute/atom` | [`atom`]: MMA atoms (cute-static's [`MmaAtom`](cute_static::mma::MmaAtom) layouts) that issue their instruction, the accumulator fragment typed by the atom's C layout; TMA copy atoms whose box is the shared tile's, 2 to 5 dimensions; copy atoms that execute ([`CopyCall`](algorithm::CopyCall), [`LoadCall`](algorithm::LoadCall), [`StoreCall`](algorithm::StoreCall)) |
//! | algorithms | `cute/algorithm` | [`algorithm`]: `gemm` over shared-memory operands, checked against the atom at compile time; `copy` / `copy_if` of a tiled copy (`cp.async` atoms) and `copy_to_fragment` / `copy_from_fragment` (`ldmatrix`, `stmatrix`), the shared side checked consecutive and aligned at compile time |
//! | pipelines | `cutlass/pipeline` | [`pipeline`]: the TMA → MMA ring ([`PipelineTmaAsync`](pipeline::PipelineTmaAsync)), its transaction bytes and its size computed from the stage's tiles |
//!
//! A kernel that uses this crate has no `asm!` of its own (`gpu/src/hgemm_sm90.rs`).
//!
//! The instructions exist only on `nvptx64-nvidia-cuda` (sm_90a for the Hopper ones). On any
//! other target the crate still builds, so that its types, its compile-time checks and their
//! errors can be tested on the host, and an instruction called there panics with its name: it
//! cannot run on a CPU.
#![no_std]
#![cfg_attr(target_arch = "nvptx64", feature(asm_experimental_arch, stdarch_nvptx))]
// Off the GPU every instruction diverges, so the operands it would have read are unused.
#![cfg_attr(not(target_arch = "nvptx64"), allow(unused_variables, unreachable_code, unused_mut, unused_unsafe))]
#![allow(clippy::missing_safety_doc)]

pub mod algorithm;
pub mod arch;
pub mod atom;
mod check;
pub mod pipeline;
pub mod tensor;

pub use tensor::{SmemTensor, F4};

#[doc(hidden)]
pub use cute_static as __cute_static;
