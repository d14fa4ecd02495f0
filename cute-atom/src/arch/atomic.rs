//! Global atomics (`atom`, PTX ISA §9.7.13.5) at GPU scope: the work counter of a dynamic
//! persistent tile scheduler (CUTLASS's `tile_count_semaphore`).

use super::ptx;

/// `atom.{sem}.gpu.global.add.u32`, one function a memory-ordering semantics.
macro_rules! atomic_add {
    ($(#[$doc:meta])* $name:ident, $sem:literal) => {
        $(#[$doc])*
        ///
        /// # Safety
        /// `p` is a 4-byte aligned, writable word of global memory that other threads access
        /// only through atomics (or after a synchronization that orders them).
        #[inline(always)]
        pub unsafe fn $name(p: *mut u32, v: u32) -> u32 {
            let old: u32;
            // SAFETY: the caller's promise.
            unsafe {
                ptx!(concat!("atom.", $sem, ".gpu.global.add.u32 {o}, [{p}], {v};"), o = out(reg32) old,
                    p = in(reg64) p, v = in(reg32) v, options(nostack));
            }
            old
        }
    };
}

atomic_add! {
    /// `atom.relaxed.gpu.global.add.u32`: adds `v` to `*p` and returns the value before.
    /// Relaxed: it orders no other access (a counter that hands out work, publishing nothing).
    atomic_add_relaxed_u32, "relaxed"
}

atomic_add! {
    /// `atom.acq_rel.gpu.global.add.u32`: [`atomic_add_relaxed_u32`] that also releases this
    /// thread's earlier accesses and acquires those released by earlier adds to `*p` (the last
    /// of a count sees everything the others did before they counted).
    atomic_add_acq_rel_u32, "acq_rel"
}

/// `st.relaxed.gpu.global.u32`: stores `v` to `*p`, visible to other threads' atomics.
///
/// # Safety
/// As [`atomic_add_relaxed_u32`].
#[inline(always)]
pub unsafe fn store_relaxed_u32(p: *mut u32, v: u32) {
    // SAFETY: the caller's promise.
    unsafe {
        ptx!("st.relaxed.gpu.global.u32 [{p}], {v};", p = in(reg64) p, v = in(reg32) v, options(nostack));
    }
}
