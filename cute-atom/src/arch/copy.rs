//! Copies by threads: shared-memory loads and stores (`ld.shared`/`st.shared`, PTX ISA
//! §9.7.9.8-9), `cp.async` (§9.7.9.25.3), `ldmatrix` (§9.7.14.5.15) and `stmatrix`
//! (§9.7.14.5.16), a global reduction (`red`, §9.7.13.6) and the
//! conversions of a pair of accumulators to a packed pair of 16-bit elements (`cvt`, §9.7.9.21).

use super::ptx;

/// `ld.shared.f32` at shared address `a`.
///
/// # Safety
/// `a` is a 4-byte aligned address of the block's shared memory that no thread writes before
/// the next barrier.
#[inline(always)]
pub unsafe fn ld_shared_f32(a: u32) -> f32 {
    let x: f32;
    // SAFETY: the caller's promise.
    unsafe {
        ptx!("ld.shared.f32 {x}, [{a}];", a = in(reg32) a, x = out(reg32) x, options(pure, readonly, nostack));
    }
    x
}

/// `st.shared.f32` at shared address `a`.
///
/// # Safety
/// `a` is a 4-byte aligned address of the block's shared memory no other thread accesses before
/// the next barrier.
#[inline(always)]
pub unsafe fn st_shared_f32(a: u32, x: f32) {
    // SAFETY: the caller's promise.
    unsafe {
        ptx!("st.shared.f32 [{a}], {x};", a = in(reg32) a, x = in(reg32) x, options(nostack));
    }
}

/// `ld.shared.v4.f32`: 16 bytes at shared address `a`.
///
/// # Safety
/// As [`ld_shared_f32`], `a` 16-byte aligned.
#[inline(always)]
pub unsafe fn ld_shared_v4_f32(a: u32) -> [f32; 4] {
    let (x, y, z, w): (f32, f32, f32, f32);
    // SAFETY: the caller's promise.
    unsafe {
        ptx!("ld.shared.v4.f32 {{{x}, {y}, {z}, {w}}}, [{a}];", a = in(reg32) a,
            x = out(reg32) x, y = out(reg32) y, z = out(reg32) z, w = out(reg32) w, options(pure, readonly, nostack));
    }
    [x, y, z, w]
}

/// `st.shared.v4.f32`: 16 bytes at shared address `a`.
///
/// # Safety
/// As [`st_shared_f32`], `a` 16-byte aligned.
#[inline(always)]
pub unsafe fn st_shared_v4_f32(a: u32, v: [f32; 4]) {
    let [x, y, z, w] = v;
    // SAFETY: the caller's promise.
    unsafe {
        ptx!("st.shared.v4.f32 [{a}], {{{x}, {y}, {z}, {w}}};", a = in(reg32) a,
            x = in(reg32) x, y = in(reg32) y, z = in(reg32) z, w = in(reg32) w, options(nostack));
    }
}

/// Loads and stores of 1, 2, 4, 8 or 16 bytes, global and shared: one 8- or 16-bit value, or
/// 1, 2 or 4 32-bit words (`ld{.global,.shared}{.v2,.v4}.b{8,16,32}`, and `st` the same): the
/// synchronous copies of `UniversalCopy`, global to shared and shared to global.
macro_rules! vector_words {
    ($($n:literal x $t:ident ($bits:literal, $reg:ident): [$ld:ident, $st:ident, $lds:ident, $stg:ident], $v:literal, $regs:literal, [$($w:ident)*];)*) => {$(
        vector_words!(@ld $ld<T>, "global", reg64, *const T, $n, $t, $bits, $reg, $v, $regs, [$($w)*]);
        vector_words!(@ld $lds<>, "shared", reg32, u32, $n, $t, $bits, $reg, $v, $regs, [$($w)*]);
        vector_words!(@st $st<>, "shared", reg32, u32, $n, $t, $bits, $reg, $v, $regs, [$($w)*]);
        vector_words!(@st $stg<T>, "global", reg64, *mut T, $n, $t, $bits, $reg, $v, $regs, [$($w)*]);
    )*};
    (@ld $name:ident<$($g:ident)?>, $space:literal, $areg:ident, $addr:ty, $n:literal, $t:ident, $bits:literal, $reg:ident, $v:literal, $regs:literal, [$($w:ident)*]) => {
        #[doc = concat!("`ld.", $space, $v, ".b", $bits, "`: ", stringify!($n), " x ", stringify!($t), " at ", $space, " address `p`.")]
        ///
        /// # Safety
        #[doc = concat!("`p` is aligned to the access (", stringify!($n), " x ", stringify!($t), ") with as many readable bytes of ", $space, " memory.")]
        #[inline(always)]
        pub unsafe fn $name<$($g)?>(p: $addr) -> [$t; $n] {
            $(let $w: $t;)*
            // SAFETY: the caller's promise.
            unsafe {
                ptx!(concat!("ld.", $space, $v, ".b", $bits, " ", $regs, ", [{p}];"),
                    p = in($areg) p, $($w = out($reg) $w,)* options(readonly, nostack));
            }
            [$($w),*]
        }
    };
    (@st $name:ident<$($g:ident)?>, $space:literal, $areg:ident, $addr:ty, $n:literal, $t:ident, $bits:literal, $reg:ident, $v:literal, $regs:literal, [$($w:ident)*]) => {
        #[doc = concat!("`st.", $space, $v, ".b", $bits, "`: ", stringify!($n), " x ", stringify!($t), " at ", $space, " address `a`.")]
        ///
        /// # Safety
        #[doc = concat!("`a` is aligned to the access with as many writable bytes of ", $space, " memory, which no other thread accesses until this store is ordered before it (a barrier for shared memory).")]
        #[inline(always)]
        pub unsafe fn $name<$($g)?>(a: $addr, v: [$t; $n]) {
            let [$($w),*] = v;
            // SAFETY: the caller's promise.
            unsafe {
                ptx!(concat!("st.", $space, $v, ".b", $bits, " [{a}], ", $regs, ";"),
                    a = in($areg) a, $($w = in($reg) $w,)* options(nostack));
            }
        }
    };
}

vector_words! {
    1 x u16 ("8", reg16): [ld_global_b8, st_shared_b8, ld_shared_b8, st_global_b8], "", "{x}", [x];
    1 x u16 ("16", reg16): [ld_global_b16, st_shared_b16, ld_shared_b16, st_global_b16], "", "{x}", [x];
    1 x u32 ("32", reg32): [ld_global_b32x1, st_shared_b32x1, ld_shared_b32x1, st_global_b32x1], "", "{x}", [x];
    2 x u32 ("32", reg32): [ld_global_b32x2, st_shared_b32x2, ld_shared_b32x2, st_global_b32x2], ".v2", "{{{x}, {y}}}", [x y];
    4 x u32 ("32", reg32): [ld_global_b32x4, st_shared_b32x4, ld_shared_b32x4, st_global_b32x4], ".v4", "{{{x}, {y}, {z}, {w}}}", [x y z w];
}

/// `cp.async.cg.shared.global` of 16 bytes, zero-filled past `valid` (16 or 0) source bytes.
///
/// # Safety
/// `dst` is a 16-byte aligned shared address this thread may write until the group's wait;
/// `src` is readable for 16 bytes when `valid` (nothing is read otherwise).
#[inline(always)]
pub unsafe fn cp_async_cg16<T>(dst: u32, src: *const T, valid: bool) {
    let n: u32 = if valid { 16 } else { 0 };
    // SAFETY: the caller's promise.
    unsafe {
        ptx!("cp.async.cg.shared.global [{d}], [{s}], 16, {n};", d = in(reg32) dst, s = in(reg64) src, n = in(reg32) n,
            options(nostack));
    }
}

/// `cp.async.ca.shared.global` of `BYTES` (4, 8 or 16) bytes, zero-filled past `valid` (`BYTES`
/// or 0) source bytes.
///
/// # Safety
/// `dst` is a `BYTES`-aligned shared address this thread may write until the group's wait;
/// `src` is `BYTES`-aligned and readable for `BYTES` bytes when `valid` (nothing is read
/// otherwise).
#[inline(always)]
pub unsafe fn cp_async_ca<const BYTES: u32, T>(dst: u32, src: *const T, valid: bool) {
    let n: u32 = if valid { BYTES } else { 0 };
    // SAFETY: the caller's promise.
    unsafe {
        ptx!("cp.async.ca.shared.global [{d}], [{s}], {b}, {n};", d = in(reg32) dst, s = in(reg64) src, b = const BYTES,
            n = in(reg32) n, options(nostack));
    }
}

/// `cp.async.commit_group`: this thread's copies issued so far form one group.
#[inline(always)]
pub fn cp_async_commit() {
    // SAFETY: groups this thread's copies; no memory access.
    unsafe {
        ptx!("cp.async.commit_group;", options(nostack));
    }
}

/// `cp.async.wait_group N`: at most `N` of this thread's groups still in flight.
#[inline(always)]
pub fn cp_async_wait<const N: u32>() {
    // SAFETY: waits on this thread's own copies.
    unsafe {
        ptx!("cp.async.wait_group {n};", n = const N, options(nostack));
    }
}

/// `ldmatrix.sync.aligned.m8n8.x4` (`.trans` when `TRANS`): four 8x8 matrices of 16-bit
/// elements, thread `t` giving the address of row `t % 8` of matrix `t / 8`.
///
/// # Safety
/// Every thread of the warp executes it, together; each address is 16-byte aligned with 16
/// readable shared bytes.
#[inline(always)]
pub unsafe fn ldmatrix_x4<const TRANS: bool>(addr: u32) -> [u32; 4] {
    let (a, b, c, d): (u32, u32, u32, u32);
    // SAFETY: the caller's promise.
    unsafe {
        if TRANS {
            ptx!("ldmatrix.sync.aligned.m8n8.x4.trans.shared.b16 {{{a}, {b}, {c}, {d}}}, [{p}];",
                p = in(reg32) addr, a = out(reg32) a, b = out(reg32) b, c = out(reg32) c, d = out(reg32) d,
                options(readonly, nostack));
        } else {
            ptx!("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {{{a}, {b}, {c}, {d}}}, [{p}];",
                p = in(reg32) addr, a = out(reg32) a, b = out(reg32) b, c = out(reg32) c, d = out(reg32) d,
                options(readonly, nostack));
        }
    }
    [a, b, c, d]
}

/// `stmatrix.sync.aligned.m8n8.x4` (`.trans` when `TRANS`, sm_90): four 8x8 matrices of 16-bit
/// elements from registers, thread `t` giving the address of row `t % 8` of matrix `t / 8`.
///
/// # Safety
/// Every thread of the warp executes it, together; each address is 16-byte aligned with 16
/// shared bytes no other thread accesses before the next barrier.
#[inline(always)]
pub unsafe fn stmatrix_x4<const TRANS: bool>(addr: u32, v: [u32; 4]) {
    let [a, b, c, d] = v;
    // SAFETY: the caller's promise.
    unsafe {
        if TRANS {
            ptx!("stmatrix.sync.aligned.m8n8.x4.trans.shared.b16 [{p}], {{{a}, {b}, {c}, {d}}};",
                p = in(reg32) addr, a = in(reg32) a, b = in(reg32) b, c = in(reg32) c, d = in(reg32) d, options(nostack));
        } else {
            ptx!("stmatrix.sync.aligned.m8n8.x4.shared.b16 [{p}], {{{a}, {b}, {c}, {d}}};",
                p = in(reg32) addr, a = in(reg32) a, b = in(reg32) b, c = in(reg32) c, d = in(reg32) d, options(nostack));
        }
    }
}

/// `red.global.add.f32`: `*p += v`, atomically.
///
/// # Safety
/// `p` is a valid, 4-byte aligned global address.
#[inline(always)]
pub unsafe fn red_global_add_f32(p: *mut f32, v: f32) {
    // SAFETY: the caller's promise.
    unsafe {
        ptx!("red.global.add.f32 [{p}], {v};", p = in(reg64) p, v = in(reg32) v, options(nostack));
    }
}

/// `cvt.rn.f16x2.f32`: two accumulators rounded to IEEE half (to nearest even), `lo` in the
/// low half.
#[inline(always)]
pub fn cvt_f16x2(lo: f32, hi: f32) -> u32 {
    let p: u32;
    // SAFETY: a register conversion.
    unsafe {
        ptx!("cvt.rn.f16x2.f32 {p}, {hi}, {lo};", p = out(reg32) p, hi = in(reg32) hi, lo = in(reg32) lo,
            options(pure, nomem, nostack));
    }
    p
}

/// `cvt.rn.bf16x2.f32`: as [`cvt_f16x2`], to bfloat16.
#[inline(always)]
pub fn cvt_bf16x2(lo: f32, hi: f32) -> u32 {
    let p: u32;
    // SAFETY: a register conversion.
    unsafe {
        ptx!("cvt.rn.bf16x2.f32 {p}, {hi}, {lo};", p = out(reg32) p, hi = in(reg32) hi, lo = in(reg32) lo,
            options(pure, nomem, nostack));
    }
    p
}
