//! Special functions of the SFU (PTX ISA §9.7.4): the base-2 exponential a softmax takes.

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
