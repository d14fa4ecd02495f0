//! The instructions (CuTe's `cute/arch`): one file per family, each wrapper one `asm!` (the
//! PTX ISA section it implements named beside it) or one `core::arch::nvptx` intrinsic, and
//! `#[inline(always)]`, so a kernel's PTX has the instruction where the kernel calls it.
//! Addresses in the shared state space are `u32` byte addresses (a generic pointer to shared
//! memory costs a generic `LD`/`ST` on every access).

pub mod atomic;
pub mod barrier;
pub mod copy;
pub mod math;
pub mod mma;
pub mod thread;
pub mod tma;
pub mod warp;
pub mod wgmma;

/// `asm!` where PTX runs; elsewhere a call that says which instruction cannot run there. A
/// statement macro: outputs assigned by the instruction are unreachable off the GPU.
macro_rules! ptx {
    ($($t:tt)*) => {
        #[cfg(target_arch = "nvptx64")]
        core::arch::asm!($($t)*);
        #[cfg(not(target_arch = "nvptx64"))]
        $crate::arch::off_gpu(core::stringify!($($t)*));
    };
}
pub(crate) use ptx;

/// An instruction reached on a target that is not `nvptx64`: the host builds the crate (its
/// types and compile-time checks), it cannot execute a GPU instruction.
#[cfg(not(target_arch = "nvptx64"))]
#[cold]
#[inline(never)]
pub fn off_gpu(instruction: &str) -> ! {
    panic!("`{instruction}` is a PTX instruction: it runs only in a kernel built for nvptx64-nvidia-cuda")
}
