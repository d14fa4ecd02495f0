//! Barriers: the block barrier (`bar.sync`, PTX ISA §9.7.13.1), the cluster barrier
//! (`barrier.cluster`, §9.7.13.2) and mbarriers (`mbarrier`, §9.7.13.15), the objects TMA
//! transactions complete on. An mbarrier is an 8-byte word of shared memory at a `u32` shared
//! address.

use super::ptx;

/// `__syncthreads()` (`bar.sync 0`).
///
/// # Safety
/// Every thread of the block reaches it (a barrier in divergent code deadlocks or is
/// undefined).
#[inline(always)]
pub unsafe fn sync_threads() {
    #[cfg(target_arch = "nvptx64")]
    // SAFETY: the caller's promise.
    unsafe {
        core::arch::nvptx::_syncthreads()
    };
    #[cfg(not(target_arch = "nvptx64"))]
    super::off_gpu("bar.sync 0");
}

/// A named barrier of `THREADS` threads (`bar.sync ID, THREADS`, §9.7.13.1): a warpgroup's own
/// barrier (`THREADS` 128), which the other warpgroups of the block do not wait on.
///
/// # Safety
/// Exactly `THREADS` threads (whole warps) reach barrier `ID` once per use; `ID` is not 0 (the
/// block's) and no other group uses it at the same time.
#[inline(always)]
pub unsafe fn named_barrier_sync<const ID: u32, const THREADS: u32>() {
    // SAFETY: the caller's promise.
    unsafe {
        ptx!("bar.sync {id}, {n};", id = const ID, n = const THREADS, options(nostack));
    }
}

/// `bar.arrive id, n` (PTX ISA §9.7.13.1): this warp's arrival on named barrier `ID` of
/// `THREADS` threads, without waiting: the signalling side of a barrier other warps
/// [`named_barrier_sync`] on (FlashAttention-3's scheduling of two warpgroups). No memory
/// ordering: it orders execution only.
///
/// # Safety
/// Each use of barrier `ID` gathers exactly `THREADS` threads (whole warps), arriving or
/// syncing; `ID` is not 0 and no other group uses it at the same time.
#[inline(always)]
pub unsafe fn named_barrier_arrive<const ID: u32, const THREADS: u32>() {
    // SAFETY: the caller's promise.
    unsafe {
        ptx!("bar.arrive {id}, {n};", id = const ID, n = const THREADS, options(nostack));
    }
}

/// A barrier of every thread of the cluster (`barrier.cluster.arrive.release` then
/// `wait.acquire`): the blocks' shared-memory writes and mbarrier initializations before it
/// are visible to each other after it. Not `.aligned`: the threads of a warp may reach it apart.
///
/// # Safety
/// Every thread of every block of the cluster reaches it once per use.
#[inline(always)]
pub unsafe fn cluster_sync() {
    // SAFETY: the caller's promise.
    unsafe {
        ptx!("barrier.cluster.arrive.release;", "barrier.cluster.wait.acquire;", options(nostack));
    }
}

/// `mbarrier.init` with an arrival count, then the fences that make the initialization visible
/// to the cluster and to the asynchronous proxy (the TMA unit completes transactions on it).
///
/// # Safety
/// `bar` is an 8-byte aligned shared address that no other thread uses before the next block
/// (or cluster) barrier.
#[inline(always)]
pub unsafe fn mbarrier_init(bar: u32, count: u32) {
    // SAFETY: the caller's promise.
    unsafe {
        ptx!("mbarrier.init.shared::cta.b64 [{b}], {c};", "fence.mbarrier_init.release.cluster;",
            "fence.proxy.async.shared::cta;", b = in(reg32) bar, c = in(reg32) count, options(nostack));
    }
}

/// `mbarrier.arrive.expect_tx`: this thread's arrival, and `bytes` more transaction bytes the
/// current phase waits for.
///
/// # Safety
/// `bar` is an initialized mbarrier.
#[inline(always)]
pub unsafe fn mbarrier_arrive_expect_tx(bar: u32, bytes: u32) {
    // SAFETY: the caller's promise.
    unsafe {
        ptx!("mbarrier.arrive.expect_tx.shared::cta.b64 _, [{b}], {n};", b = in(reg32) bar, n = in(reg32) bytes,
            options(nostack));
    }
}

/// `mbarrier.arrive`: this thread's arrival, at the default `.release.cta` scope.
///
/// # Safety
/// `bar` is an initialized mbarrier.
#[inline(always)]
pub unsafe fn mbarrier_arrive(bar: u32) {
    // SAFETY: the caller's promise.
    unsafe {
        ptx!("mbarrier.arrive.shared::cta.b64 _, [{b}];", b = in(reg32) bar, options(nostack));
    }
}

/// `mbarrier.arrive` on the mbarrier at shared address `bar` of block `cta` of this cluster:
/// `mapa` to its address, then an arrive at the default scope, `.release.cta`, as CUTLASS's
/// `ClusterBarrier::arrive(cta_id)`. A `.release.cluster` arrive compiles to `MEMBAR.ALL.GPU;
/// ERRBAR; CGAERRBAR` before every arrive, which halved the cluster GEMM (docs/gpu.md); a
/// pipeline's release follows the reads it releases (`wgmma.wait_group`), so no ordering wider
/// than the block is needed before the remote producer's TMA overwrites the stage. The wider
/// scope, where a caller needs it, is [`mbarrier_arrive_cluster_release`].
///
/// # Safety
/// `bar` is an initialized mbarrier in every block of the cluster, and block `cta` (a rank
/// below the cluster's size) has not exited.
#[inline(always)]
pub unsafe fn mbarrier_arrive_cluster(bar: u32, cta: u32) {
    // SAFETY: the caller's promise.
    unsafe {
        ptx!("{{", ".reg .b32 remote;", "mapa.shared::cluster.u32 remote, {b}, {c};",
            "mbarrier.arrive.shared::cluster.b64 _, [remote];", "}}",
            b = in(reg32) bar, c = in(reg32) cta, options(nostack));
    }
}

/// [`mbarrier_arrive_cluster`] at the `.release.cluster` scope: this thread's writes before the
/// arrive are visible to the cluster when the phase completes. It costs `MEMBAR.ALL.GPU` per
/// arrive in SASS; use it only where another block reads what this thread wrote.
///
/// # Safety
/// As [`mbarrier_arrive_cluster`].
#[inline(always)]
pub unsafe fn mbarrier_arrive_cluster_release(bar: u32, cta: u32) {
    // SAFETY: the caller's promise.
    unsafe {
        ptx!("{{", ".reg .b32 remote;", "mapa.shared::cluster.u32 remote, {b}, {c};",
            "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [remote];", "}}",
            b = in(reg32) bar, c = in(reg32) cta, options(nostack));
    }
}

/// Wait until the phase of parity `parity` of `bar` has completed (`try_wait.parity` in a
/// loop: the hardware suspends the thread a while on each try). A fresh mbarrier counts the
/// phase before its first as completed, so a wait on parity 1 passes at once (CUTLASS's
/// producer start state).
///
/// # Safety
/// `bar` is an initialized mbarrier.
#[inline(always)]
// PTX has no numeric local labels; a label inside `{ }` is local to that block, so each
// inlined copy has its own (as CUTLASS's `ClusterBarrier::wait` does).
#[allow(named_asm_labels)]
pub unsafe fn mbarrier_wait(bar: u32, parity: u32) {
    // SAFETY: the caller's promise.
    unsafe {
        ptx!("{{", ".reg .pred done;", "WAIT:", "mbarrier.try_wait.parity.shared::cta.b64 done, [{b}], {p};",
            "@!done bra WAIT;", "}}", b = in(reg32) bar, p = in(reg32) parity, options(nostack));
    }
}
