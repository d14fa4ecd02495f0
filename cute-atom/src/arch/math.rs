//! Special functions of the SFU (PTX ISA §9.7.4): the base-2 exponential a softmax takes;
//! and the fused multiply-add (§9.7.3.6), which Rust never contracts `a * b + c` into (LLVM
//! emits `mul.rn` and `add.rn`, which `ptxas` may not fuse).

use super::ptx;

/// `ex2.approx.ftz.f32`: `2^x`, to about 2 ulp, subnormals flushed to zero; `2^-inf` is `+0`
/// (a masked score's weight), `2^+inf` is `+inf`.
#[inline(always)]
pub fn ex2(x: f32) -> f32 {
    let y: f32;
    // SAFETY: a register operation.
    unsafe {
        ptx!("ex2.approx.ftz.f32 {y}, {x};", y = out(reg32) y, x = in(reg32) x, options(pure, nomem, nostack));
    }
    y
}

/// `lg2.approx.ftz.f32`: `log2(x)`, to about 2 ulp; `log2(0)` is `-inf`.
#[inline(always)]
pub fn lg2(x: f32) -> f32 {
    let y: f32;
    // SAFETY: a register operation.
    unsafe {
        ptx!("lg2.approx.ftz.f32 {y}, {x};", y = out(reg32) y, x = in(reg32) x, options(pure, nomem, nostack));
    }
    y
}

/// `fma.rn.f32`: `a * b + c` rounded once (CUTLASS's softmax computes its exponents
/// `x * scale - max` so: one `FFMA` where `x * scale - max` in Rust is an `FMUL` and an `FADD`).
#[inline(always)]
pub fn fma(a: f32, b: f32, c: f32) -> f32 {
    let y: f32;
    // SAFETY: a register operation.
    unsafe {
        ptx!("fma.rn.f32 {y}, {a}, {b}, {c};", y = out(reg32) y, a = in(reg32) a, b = in(reg32) b, c = in(reg32) c,
            options(pure, nomem, nostack));
    }
    y
}
