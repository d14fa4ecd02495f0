//! Hopper's asynchronous instructions that Rust cannot spell, each one `asm!` wrapper (sm_90a):
//! the dynamic shared-memory window, mbarriers, TMA bulk tensor loads, `wgmma` and
//! `setmaxnreg`. Addresses are shared-state-space byte addresses (`u32`); every wrapper is
//! `#[inline(always)]`, so the kernel's PTX has the instruction where it is called.

use core::arch::asm;

core::arch::global_asm!(".extern .shared .align 1024 .b8 SM90_SMEM[];");

/// The shared address of the block's dynamic shared memory (the launch's `sharedMemBytes`).
#[inline(always)]
pub fn dynamic_smem() -> u32 {
    let a: u32;
    // SAFETY: the array's address, no memory access.
    unsafe { asm!("mov.u32 {a}, SM90_SMEM;", a = out(reg32) a, options(pure, nomem, nostack)) };
    a
}

/// `mbarrier.init` with an arrival count, then the fence that makes the initialization
/// visible to the asynchronous proxy (the TMA unit completes transactions on it).
///
/// # Safety
/// `bar` is an 8-byte aligned shared address no other thread uses before the next barrier.
#[inline(always)]
pub unsafe fn mbarrier_init(bar: u32, count: u32) {
    // SAFETY: the caller's promise.
    unsafe {
        asm!("mbarrier.init.shared::cta.b64 [{b}], {c};", "fence.mbarrier_init.release.cluster;",
            "fence.proxy.async.shared::cta;", b = in(reg32) bar, c = in(reg32) count, options(nostack))
    };
}

/// `mbarrier.arrive.expect_tx`: this thread's arrival, and `bytes` more transaction bytes the
/// phase waits for.
///
/// # Safety
/// `bar` is an initialized mbarrier.
#[inline(always)]
pub unsafe fn mbarrier_arrive_expect_tx(bar: u32, bytes: u32) {
    // SAFETY: the caller's promise.
    unsafe {
        asm!("mbarrier.arrive.expect_tx.shared::cta.b64 _, [{b}], {n};", b = in(reg32) bar, n = in(reg32) bytes,
            options(nostack))
    };
}

/// `mbarrier.arrive`: this thread's arrival.
///
/// # Safety
/// `bar` is an initialized mbarrier.
#[inline(always)]
pub unsafe fn mbarrier_arrive(bar: u32) {
    // SAFETY: the caller's promise.
    unsafe { asm!("mbarrier.arrive.shared::cta.b64 _, [{b}];", b = in(reg32) bar, options(nostack)) };
}

/// Wait until the phase of parity `parity` of `bar` has completed (`try_wait.parity` in a
/// loop: the hardware suspends the thread for a while on each try).
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
        asm!("{{", ".reg .pred done;", "WAIT:", "mbarrier.try_wait.parity.shared::cta.b64 done, [{b}], {p};",
            "@!done bra WAIT;", "}}", b = in(reg32) bar, p = in(reg32) parity, options(nostack))
    };
}

/// A 2-D TMA load of the box at `(c0, c1)` (innermost first) of the tensor map at `map` into
/// shared `dst`, completing `bar`'s transaction bytes.
///
/// # Safety
/// `map` points to a valid `CUtensorMap` in global memory; `dst` is a shared address aligned
/// as the map's swizzle needs (1024 bytes for 128B) with room for the box; `bar` an mbarrier
/// that expects the box's bytes.
#[inline(always)]
pub unsafe fn tma_load_2d(dst: u32, map: *const u8, bar: u32, c0: i32, c1: i32) {
    // SAFETY: the caller's promise.
    unsafe {
        asm!("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes [{d}], [{m}, {{{x}, {y}}}], [{b}];",
            d = in(reg32) dst, m = in(reg64) map, x = in(reg32) c0, y = in(reg32) c1, b = in(reg32) bar, options(nostack))
    };
}

/// `wgmma.fence`: orders this warpgroup's register accesses before the next `wgmma`.
#[inline(always)]
pub fn wgmma_fence() {
    // SAFETY: a fence; every thread of the warpgroup executes it (`.sync.aligned`).
    unsafe { asm!("wgmma.fence.sync.aligned;", options(nostack)) };
}

/// `wgmma.commit_group`: the `wgmma`s issued so far form one group.
#[inline(always)]
pub fn wgmma_commit() {
    // SAFETY: as `wgmma_fence`.
    unsafe { asm!("wgmma.commit_group.sync.aligned;", options(nostack)) };
}

/// `wgmma.wait_group N`: at most `N` groups still in flight; the accumulators of the others
/// may be read.
#[inline(always)]
pub fn wgmma_wait<const N: u32>(acc: &mut [f32; 128]) {
    // SAFETY: as `wgmma_fence`. The accumulators are operands, so the compiler neither reads
    // nor moves them across the wait (CUTLASS's `warpgroup_fence_operand`).
    unsafe { asm!("wgmma.wait_group.sync.aligned {n};", n = const N, options(nostack)) };
    fence_operands(acc);
}

/// `$m!($args; 0 1 ... 127)`: a macro over the indices of the 128 accumulators (inline PTX
/// names each register as its own operand).
macro_rules! with_accumulators {
    ($m:ident!($($args:tt)*)) => {
        $m!($($args)*; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
            32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63
            64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95
            96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 127)
    };
}

/// Ties the accumulators to this point of the program: the asynchronous `wgmma` writes them,
/// and nothing may be reordered across.
#[inline(always)]
pub fn fence_operands(acc: &mut [f32; 128]) {
    macro_rules! tie {
        (; $($i:literal)*) => {
            // SAFETY: no instruction (a PTX comment naming the registers); they pass through
            // unchanged.
            unsafe { asm!(concat!("// ", $("{", stringify!($i), "} ",)*), $(inout(reg32) acc[$i],)* options(nomem, nostack)) }
        };
    }
    with_accumulators!(tie!());
}

/// The 16-bit element types `wgmma` multiplies (fp32 accumulation): the instruction's type
/// and the conversion of two accumulators to a packed pair of elements.
pub trait Element16 {
    /// `acc += A · Bᵀ` for the 64x16 `A` and 256x16 `B` tiles (both K-major) the two
    /// shared-memory descriptors describe (`wgmma.mma_async m64n256k16 .f32.T.T`).
    /// Asynchronous: the accumulators are valid after [`wgmma_commit`] and [`wgmma_wait`].
    ///
    /// # Safety
    /// Every thread of the warpgroup executes it with the same descriptors, which describe
    /// shared memory this block owns and no one writes until the wait.
    unsafe fn wgmma_m64n256k16(acc: &mut [f32; 128], desc_a: u64, desc_b: u64);
    /// Two accumulators rounded to the element type (to nearest even), `lo` in the low half.
    fn pack(lo: f32, hi: f32) -> u32;
}

/// `wgmma.mma_async.sync.aligned.m64n256k16.f32.$t.$t` over the 128 accumulators.
macro_rules! wgmma_m64n256k16 {
    ($acc:ident, $da:ident, $db:ident, $t:literal; $first:literal $($i:literal)*) => {
        // SAFETY: the caller's promise.
        unsafe {
            asm!(
                concat!(
                    "{{ .reg .pred p; setp.ne.b32 p, {scale}, 0; ",
                    "wgmma.mma_async.sync.aligned.m64n256k16.f32.", $t, ".", $t, " {{",
                    "{", stringify!($first), "}", $(", {", stringify!($i), "}",)*
                    "}}, {da}, {db}, p, 1, 1, 0, 0; }}"
                ),
                inout(reg32) $acc[$first], $(inout(reg32) $acc[$i],)*
                da = in(reg64) $da, db = in(reg64) $db, scale = in(reg32) 1u32,
                options(nostack)
            )
        }
    };
}

/// An [`Element16`]: the type, and its `wgmma` and conversion spelled with PTX type `$t`.
macro_rules! element16 {
    ($(#[$doc:meta])* $name:ident, $t:literal) => {
        $(#[$doc])*
        pub struct $name;
        impl Element16 for $name {
            #[inline(always)]
            unsafe fn wgmma_m64n256k16(acc: &mut [f32; 128], desc_a: u64, desc_b: u64) {
                with_accumulators!(wgmma_m64n256k16!(acc, desc_a, desc_b, $t));
            }
            #[inline(always)]
            fn pack(lo: f32, hi: f32) -> u32 {
                let p: u32;
                // SAFETY: a register conversion.
                unsafe {
                    asm!(concat!("cvt.rn.", $t, "x2.f32 {p}, {hi}, {lo};"), p = out(reg32) p, hi = in(reg32) hi, lo = in(reg32) lo,
                        options(pure, nomem, nostack))
                };
                p
            }
        }
    };
}

element16!(
    /// IEEE half (`.f16`).
    F16, "f16"
);
element16!(
    /// bfloat16 (`.bf16`).
    Bf16, "bf16"
);

/// `setmaxnreg.inc` (consumers) to `N` registers a thread; the whole warpgroup executes it.
#[inline(always)]
pub fn setmaxnreg_inc<const N: u32>() {
    // SAFETY: a register-budget change, no memory access.
    unsafe { asm!("setmaxnreg.inc.sync.aligned.u32 {n};", n = const N, options(nostack)) };
}

/// `setmaxnreg.dec` (the producer) to `N` registers a thread; the whole warpgroup executes it.
#[inline(always)]
pub fn setmaxnreg_dec<const N: u32>() {
    // SAFETY: as `setmaxnreg_inc`.
    unsafe { asm!("setmaxnreg.dec.sync.aligned.u32 {n};", n = const N, options(nostack)) };
}

/// This block's rank in its cluster (`%cluster_ctarank`).
#[inline(always)]
pub fn cluster_ctarank() -> usize {
    let r: u32;
    // SAFETY: reading a special register.
    unsafe { asm!("mov.u32 {r}, %cluster_ctarank;", r = out(reg32) r, options(pure, nomem, nostack)) };
    r as usize
}

/// The cluster's index in the grid and the number of clusters (`%clusterid.x`, `%nclusterid.x`).
#[inline(always)]
pub fn cluster_id() -> (usize, usize) {
    let (i, n): (u32, u32);
    // SAFETY: reading special registers.
    unsafe {
        asm!("mov.u32 {i}, %clusterid.x;", "mov.u32 {n}, %nclusterid.x;", i = out(reg32) i, n = out(reg32) n,
            options(pure, nomem, nostack))
    };
    (i as usize, n as usize)
}

/// A barrier of every thread of the cluster (`barrier.cluster.arrive.release` then
/// `wait.acquire`): the blocks' shared-memory writes and mbarrier initializations before it are
/// visible to each other after it. Not `.aligned`: the threads of a warp may reach it apart.
#[inline(always)]
pub fn cluster_sync() {
    // SAFETY: a barrier every thread of every block of the cluster reaches once, where it is
    // called.
    unsafe { asm!("barrier.cluster.arrive.release;", "barrier.cluster.wait.acquire;", options(nostack)) };
}

/// `mbarrier.arrive` on the mbarrier at shared address `bar` of block `cta` of this cluster
/// (`mapa` to its address, then an arrive at the default scope, `.release.cta`, as CUTLASS's
/// `ClusterBarrier::arrive(cta_id)`). A `.release.cluster` arrive compiles to `MEMBAR.ALL.GPU;
/// ERRBAR; CGAERRBAR` before every arrive, which halved the cluster GEMM (docs/gpu.md); the
/// stage it releases was read by this block's own `wgmma`s, whose completion (`wgmma.wait_group`)
/// the arrive follows, so no ordering wider than the block is needed before the remote
/// producer's TMA overwrites it.
///
/// # Safety
/// `bar` is an initialized mbarrier in every block of the cluster, and block `cta` has not
/// exited (a cluster barrier before exit keeps it).
#[inline(always)]
pub unsafe fn mbarrier_arrive_cluster(bar: u32, cta: u32) {
    // SAFETY: the caller's promise.
    unsafe {
        asm!("{{", ".reg .b32 remote;", "mapa.shared::cluster.u32 remote, {b}, {c};",
            "mbarrier.arrive.shared::cluster.b64 _, [remote];", "}}",
            b = in(reg32) bar, c = in(reg32) cta, options(nostack))
    };
}

/// [`tma_load_2d`] multicast: the box lands at `dst` and completes `bar` in each block of the
/// cluster whose bit is set in `mask`.
///
/// # Safety
/// As [`tma_load_2d`], in every block of the mask; each of them expects the box's bytes.
#[inline(always)]
pub unsafe fn tma_load_2d_multicast(dst: u32, map: *const u8, bar: u32, c0: i32, c1: i32, mask: u16) {
    // SAFETY: the caller's promise.
    unsafe {
        asm!("cp.async.bulk.tensor.2d.shared::cluster.global.mbarrier::complete_tx::bytes.multicast::cluster [{d}], [{m}, {{{x}, {y}}}], [{b}], {k};",
            d = in(reg32) dst, m = in(reg64) map, x = in(reg32) c0, y = in(reg32) c1, b = in(reg32) bar, k = in(reg16) mask,
            options(nostack))
    };
}
