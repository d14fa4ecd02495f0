//! Hopper's warpgroup MMA, `wgmma.mma_async` (PTX ISA §9.7.15): 128 threads compute a 64xN
//! tile of `D += A · B`, A and B read from shared memory through matrix descriptors (`SS`) or A
//! from registers (`RS`), asynchronously: `fence` before, `commit_group` after, `wait_group`
//! before the accumulators are read. One macro writes the family, named after the
//! instruction's shape and types: the 16-bit `k16` forms (`m64n256k16_f32_f16_f16_ss`, with
//! transpose flags) and the 8-bit float `k32` ones (`m64n256k32_f32_e4m3_e5m2_ss`, K-major
//! only); the atoms that call them are [`crate::atom::mma`].

use super::ptx;

/// `wgmma.fence` (§9.7.15.5.1): orders this warpgroup's register accesses before the next
/// `wgmma`.
///
/// # Safety
/// Every thread of the warpgroup executes it, together (`.sync.aligned`).
#[inline(always)]
pub unsafe fn fence() {
    // SAFETY: a fence; the caller's promise.
    unsafe {
        ptx!("wgmma.fence.sync.aligned;", options(nostack));
    }
}

/// `wgmma.commit_group` (§9.7.15.5.2): the `wgmma`s issued so far form one group.
///
/// # Safety
/// As [`fence`].
#[inline(always)]
pub unsafe fn commit_group() {
    // SAFETY: the caller's promise.
    unsafe {
        ptx!("wgmma.commit_group.sync.aligned;", options(nostack));
    }
}

/// `wgmma.wait_group N` (§9.7.15.5.3): at most `N` groups still in flight; the accumulators of
/// the others may be read, once tied to this point ([`Accumulators::fence_operands`]).
///
/// # Safety
/// As [`fence`].
#[inline(always)]
pub unsafe fn wait_group<const N: u32>() {
    // SAFETY: the caller's promise.
    unsafe {
        ptx!("wgmma.wait_group.sync.aligned {n};", n = const N, options(nostack));
    }
}

/// An operand's major mode as `wgmma`'s `imm-trans` flag (§9.7.15.5.1): 0 for K-major, 1 for
/// MN-major (the crate implements it for cute-static's `gmma::K` and `gmma::MN`).
pub trait Transpose {
    /// `imm-trans-a` / `imm-trans-b`.
    const TNSP: u32;
}

/// A register array an asynchronous MMA writes: `[f32; V]` for each `V` a `wgmma` (or
/// `mma.sync`) shape has.
pub trait Accumulators {
    /// Ties the registers to this point of the program: the asynchronous `wgmma` writes them,
    /// and the compiler may neither read them early nor move them across (CUTLASS's
    /// `warpgroup_fence_operand`).
    fn fence_operands(&mut self);
    /// `f(v, acc[v], acc[v + 1])` for each even `v`, unrolled: each index a constant, so the
    /// accumulators stay in registers (a loop the compiler keeps would index them in local
    /// memory).
    fn for_each_pair(&self, f: impl FnMut(usize, f32, f32));
    /// `f(v, &mut acc[v])` for each `v`, unrolled as [`for_each_pair`](Self::for_each_pair).
    fn for_each_mut(&mut self, f: impl FnMut(usize, &mut f32));
}

/// The accumulator array of `V` registers, and the `wgmma`s of shape `m64nNk16` over it.
macro_rules! wgmma_n {
    ($(($n:literal, $v:literal; $first:literal $($i:literal)*))*) => {$(
        impl Accumulators for [f32; $v] {
            #[inline(always)]
            fn fence_operands(&mut self) {
                // SAFETY: no instruction (a PTX comment naming the registers); they pass
                // through unchanged.
                unsafe {
                    ptx!(concat!("// ", "{", stringify!($first), "} ", $("{", stringify!($i), "} ",)*),
                        inout(reg32) self[$first], $(inout(reg32) self[$i],)* options(nomem, nostack));
                }
            }
            #[inline(always)]
            fn for_each_pair(&self, mut f: impl FnMut(usize, f32, f32)) {
                // The first index is 0; `v | 1` is `v + 1` for the even `v` the branches keep
                // (and in bounds for every `v`).
                f($first, self[$first], self[$first | 1]);
                $(if $i % 2 == 0 { f($i, self[$i], self[$i | 1]) })*
            }
            #[inline(always)]
            fn for_each_mut(&mut self, mut f: impl FnMut(usize, &mut f32)) {
                f($first, &mut self[$first]);
                $(f($i, &mut self[$i]);)*
            }
        }
        wgmma_n!(@types $n, $v; $first $($i)*);
    )*};
    (@types $n:literal, $v:literal; $($i:literal)*) => {
        wgmma_n!(@ss $n, $v, "f16"; $($i)*);
        wgmma_n!(@ss $n, $v, "bf16"; $($i)*);
        wgmma_n!(@rs $n, $v, "f16"; $($i)*);
        wgmma_n!(@rs $n, $v, "bf16"; $($i)*);
        wgmma_n!(@fp8 $n, $v, e4m3, e4m3; $($i)*);
        wgmma_n!(@fp8 $n, $v, e4m3, e5m2; $($i)*);
        wgmma_n!(@fp8 $n, $v, e5m2, e4m3; $($i)*);
        wgmma_n!(@fp8 $n, $v, e5m2, e5m2; $($i)*);
    };
    (@fp8 $n:literal, $v:literal, $a:ident, $b:ident; $first:literal $($i:literal)*) => { paste::paste! {
        #[doc = concat!("`wgmma.mma_async.sync.aligned.m64n", $n, "k32.f32.", stringify!($a), ".", stringify!($b), "`, A and B from shared memory, both K-major (8-bit operands have no transpose): `acc = A · B + (scale_d ? acc : 0)` for the 64x32 `A` and ", $n, "x32 `B` tiles the descriptors describe (PTX ISA, `wgmma.mma_async`, `.e4m3`/`.e5m2`).")]
        ///
        /// # Safety
        /// As the 16-bit `SS` forms, the descriptors K-major.
        #[inline(always)]
        pub unsafe fn [<m64n $n k32_f32_ $a _ $b _ss>](acc: &mut [f32; $v], desc_a: u64, desc_b: u64, scale_d: u32) {
            // SAFETY: the caller's promise.
            unsafe {
                ptx!(
                    concat!(
                        "{{ .reg .pred p; setp.ne.b32 p, {scale}, 0; ",
                        "wgmma.mma_async.sync.aligned.m64n", $n, "k32.f32.", stringify!($a), ".", stringify!($b), " {{",
                        "{", stringify!($first), "}", $(", {", stringify!($i), "}",)*
                        "}}, {da}, {db}, p, 1, 1; }}"
                    ),
                    inout(reg32) acc[$first], $(inout(reg32) acc[$i],)*
                    da = in(reg64) desc_a, db = in(reg64) desc_b, scale = in(reg32) scale_d,
                    options(nostack)
                );
            }
        }

        #[doc = concat!("`wgmma.mma_async.sync.aligned.m64n", $n, "k32.f32.", stringify!($a), ".", stringify!($b), "`, A from registers (four registers of four elements a thread, the atom's A layout `ALayout_64x32`) and B K-major from shared memory.")]
        ///
        /// # Safety
        /// As the `SS` form, `a` the thread's fragment of the 64x32 A tile.
        #[inline(always)]
        pub unsafe fn [<m64n $n k32_f32_ $a _ $b _rs>](acc: &mut [f32; $v], a: [u32; 4], desc_b: u64, scale_d: u32) {
            // SAFETY: the caller's promise.
            unsafe {
                ptx!(
                    concat!(
                        "{{ .reg .pred p; setp.ne.b32 p, {scale}, 0; ",
                        "wgmma.mma_async.sync.aligned.m64n", $n, "k32.f32.", stringify!($a), ".", stringify!($b), " {{",
                        "{", stringify!($first), "}", $(", {", stringify!($i), "}",)*
                        "}}, {{{a0}, {a1}, {a2}, {a3}}}, {db}, p, 1, 1; }}"
                    ),
                    inout(reg32) acc[$first], $(inout(reg32) acc[$i],)*
                    a0 = in(reg32) a[0], a1 = in(reg32) a[1], a2 = in(reg32) a[2], a3 = in(reg32) a[3],
                    db = in(reg64) desc_b, scale = in(reg32) scale_d,
                    options(nostack)
                );
            }
        }
    }};
    (@ss $n:literal, $v:literal, $t:literal; $first:literal $($i:literal)*) => { paste::paste! {
        #[doc = concat!("`wgmma.mma_async.sync.aligned.m64n", $n, "k16.f32.", $t, ".", $t, "`, A and B from shared memory: `acc = A · B + (scale_d ? acc : 0)` for the 64x16 `A` and ", $n, "x16 `B` tiles the descriptors describe (the majors `TA`, `TB` give the transpose flags).")]
        ///
        /// # Safety
        /// Every thread of the warpgroup executes it, together, with the same descriptors, after
        /// [`fence`]; the descriptors describe canonical GMMA tiles of shared memory this block
        /// owns that no one writes until the group's [`wait_group`].
        #[inline(always)]
        pub unsafe fn [<m64n $n k16_f32_ $t _ $t _ss>]<TA: Transpose, TB: Transpose>(acc: &mut [f32; $v], desc_a: u64, desc_b: u64, scale_d: u32) {
            // SAFETY: the caller's promise.
            unsafe {
                ptx!(
                    concat!(
                        "{{ .reg .pred p; setp.ne.b32 p, {scale}, 0; ",
                        "wgmma.mma_async.sync.aligned.m64n", $n, "k16.f32.", $t, ".", $t, " {{",
                        "{", stringify!($first), "}", $(", {", stringify!($i), "}",)*
                        "}}, {da}, {db}, p, 1, 1, {ta}, {tb}; }}"
                    ),
                    inout(reg32) acc[$first], $(inout(reg32) acc[$i],)*
                    da = in(reg64) desc_a, db = in(reg64) desc_b, scale = in(reg32) scale_d,
                    ta = const TA::TNSP, tb = const TB::TNSP,
                    options(nostack)
                );
            }
        }
    }};
    (@rs $n:literal, $v:literal, $t:literal; $first:literal $($i:literal)*) => { paste::paste! {
        #[doc = concat!("`wgmma.mma_async.sync.aligned.m64n", $n, "k16.f32.", $t, ".", $t, "`, A from registers (four pairs of elements a thread, the atom's A layout) and B from shared memory (the major `TB` gives the transpose flag).")]
        ///
        /// # Safety
        /// As the `SS` form, `a` the thread's fragment of the 64x16 A tile.
        #[inline(always)]
        pub unsafe fn [<m64n $n k16_f32_ $t _ $t _rs>]<TB: Transpose>(acc: &mut [f32; $v], a: [u32; 4], desc_b: u64, scale_d: u32) {
            // SAFETY: the caller's promise.
            unsafe {
                ptx!(
                    concat!(
                        "{{ .reg .pred p; setp.ne.b32 p, {scale}, 0; ",
                        "wgmma.mma_async.sync.aligned.m64n", $n, "k16.f32.", $t, ".", $t, " {{",
                        "{", stringify!($first), "}", $(", {", stringify!($i), "}",)*
                        "}}, {{{a0}, {a1}, {a2}, {a3}}}, {db}, p, 1, 1, {tb}; }}"
                    ),
                    inout(reg32) acc[$first], $(inout(reg32) acc[$i],)*
                    a0 = in(reg32) a[0], a1 = in(reg32) a[1], a2 = in(reg32) a[2], a3 = in(reg32) a[3],
                    db = in(reg64) desc_b, scale = in(reg32) scale_d, tb = const TB::TNSP,
                    options(nostack)
                );
            }
        }
    }};
}

wgmma_n! {
    (64, 32; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31)
    (80, 40; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39)
    (128, 64; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63)
    (176, 88; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87)
    (192, 96; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95)
    (256, 128; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95 96 97 98 99 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115 116 117 118 119 120 121 122 123 124 125 126 127)
}
