//! Exchanges between the lanes of a warp (`shfl.sync`, PTX ISA §9.7.8.6).

use super::ptx;

/// `shfl.sync.bfly.b32`: the value of lane `lane ^ xor` (a butterfly step of a reduction).
///
/// # Safety
/// Every lane of the warp executes it, together, with the same `xor` (`membermask` all 32).
#[inline(always)]
pub unsafe fn shfl_xor_f32(v: f32, xor: u32) -> f32 {
    let out: f32;
    // SAFETY: a register exchange within the warp; the caller's promise.
    unsafe {
        ptx!("shfl.sync.bfly.b32 {o}, {v}, {x}, 0x1f, 0xffffffff;", o = out(reg32) out, v = in(reg32) v, x = in(reg32) xor,
            options(pure, nomem, nostack));
    }
    out
}
