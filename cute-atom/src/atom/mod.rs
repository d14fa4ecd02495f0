//! Atoms that execute (CuTe's `cute/atom`): cute-static's MMA atoms (their thread-value layouts,
//! proven against CuTe C++ 4.2) given the instruction each one issues, and TMA copy atoms whose
//! box and bytes are the shared tile's.

pub mod copy;
pub mod mma;

pub use crate::arch::wgmma::Accumulators;
pub use copy::{Multicast, TmaCoord, TmaCopy, TmaLoad, TmaStore};
pub use mma::{Bf16, Element, Element16, MmaCall, E4M3, E5M2, F16};
