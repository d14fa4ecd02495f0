//! Who am I: the special registers (PTX ISA §10, "Special Registers"), the dynamic
//! shared-memory window, and the register budget of a warpgroup (`setmaxnreg`, §9.7.19.5).

use super::ptx;

/// `(threadIdx.x, threadIdx.y)` (`%tid`).
#[inline(always)]
pub fn thread_idx() -> (usize, usize) {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: reading special registers.
    return unsafe { (core::arch::nvptx::_thread_idx_x() as usize, core::arch::nvptx::_thread_idx_y() as usize) };
    #[cfg(not(target_arch = "nvptx64"))]
    super::off_gpu("mov.u32 %tid")
}

/// `(blockIdx.x, blockIdx.y)` (`%ctaid`).
#[inline(always)]
pub fn block_idx() -> (usize, usize) {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: reading special registers.
    return unsafe { (core::arch::nvptx::_block_idx_x() as usize, core::arch::nvptx::_block_idx_y() as usize) };
    #[cfg(not(target_arch = "nvptx64"))]
    super::off_gpu("mov.u32 %ctaid")
}

/// `gridDim.x` (`%nctaid.x`).
#[inline(always)]
pub fn grid_dim() -> usize {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: reading a special register.
    return unsafe { core::arch::nvptx::_grid_dim_x() as usize };
    #[cfg(not(target_arch = "nvptx64"))]
    super::off_gpu("mov.u32 %nctaid.x")
}

/// This block's rank in its cluster (`%cluster_ctarank`, §10.26).
#[inline(always)]
pub fn cluster_ctarank() -> usize {
    let r: u32;
    // SAFETY: reading a special register.
    unsafe {
        ptx!("mov.u32 {r}, %cluster_ctarank;", r = out(reg32) r, options(pure, nomem, nostack));
    }
    r as usize
}

/// The cluster's index in the grid and the number of clusters (`%clusterid.x`,
/// `%nclusterid.x`, §10.22-23).
#[inline(always)]
pub fn cluster_id() -> (usize, usize) {
    let (i, n): (u32, u32);
    // SAFETY: reading special registers.
    unsafe {
        ptx!("mov.u32 {i}, %clusterid.x;", "mov.u32 {n}, %nclusterid.x;", i = out(reg32) i, n = out(reg32) n,
            options(pure, nomem, nostack));
    }
    (i as usize, n as usize)
}

#[cfg(target_arch = "nvptx64")]
core::arch::global_asm!(".extern .shared .align 1024 .b8 CUTE_DYNAMIC_SMEM[];");

/// The shared address of the block's dynamic shared memory (the launch's `sharedMemBytes`):
/// an `.extern .shared` array (§5.1.5), 1024-byte aligned as the 128-byte swizzle's period.
#[inline(always)]
pub fn dynamic_smem() -> u32 {
    let a: u32;
    // SAFETY: the array's address, no memory access.
    unsafe {
        ptx!("mov.u32 {a}, CUTE_DYNAMIC_SMEM;", a = out(reg32) a, options(pure, nomem, nostack));
    }
    a
}

/// `setmaxnreg.inc` (§9.7.19.5) to `N` registers a thread.
///
/// # Safety
/// Every thread of the warpgroup executes it, together (`.sync.aligned`).
#[inline(always)]
pub unsafe fn setmaxnreg_inc<const N: u32>() {
    // SAFETY: a register-budget change, no memory access; the caller's promise.
    unsafe {
        ptx!("setmaxnreg.inc.sync.aligned.u32 {n};", n = const N, options(nostack));
    }
}

/// `setmaxnreg.dec` (§9.7.19.5) to `N` registers a thread.
///
/// # Safety
/// As [`setmaxnreg_inc`].
#[inline(always)]
pub unsafe fn setmaxnreg_dec<const N: u32>() {
    // SAFETY: as `setmaxnreg_inc`.
    unsafe {
        ptx!("setmaxnreg.dec.sync.aligned.u32 {n};", n = const N, options(nostack));
    }
}

/// `trap` (§9.7.19.2): aborts the kernel; the host sees a launch failure (a kernel's panic).
#[inline(always)]
pub fn trap() -> ! {
    // SAFETY: ends the kernel, no memory access.
    unsafe {
        ptx!("trap;", options(noreturn));
    }
}
