//! Probes of the atom layer's register-level functions on the GPU (FlashAttention's building
//! blocks, issue #61), checked by `scripts/gpu/probe_rows.py` against the PTX ISA's fragment
//! coordinates.

use cute_atom::algorithm::{acc_as_a, AccRows};
use cute_atom::atom::MmaCall;
use cute_static::mma::{SM90_64x128x16_F32F16F16_SS as C, SM90_64x64x16_F32F16F16_RS as R};

use crate::thread_idx;

/// One warpgroup (128 threads). Accumulators of the 64x128 atom set to `(131 t + 17 v) % 97`;
/// `rows[4t..4t+4]` gets the thread's two row maxima and two row sums (`AccRows::reduce`),
/// `frag[32t..32t+32]` its 8 k-blocks of the RS atom's A fragment (`acc_as_a`).
#[no_mangle]
pub unsafe extern "ptx-kernel" fn rows_probe(rows: *mut f32, frag: *mut u32) {
    let (t, _) = thread_idx();
    let mut acc = C::zeros();
    acc.iter_mut().enumerate().for_each(|(v, x)| *x = ((t * 131 + v * 17) % 97) as f32);
    // SAFETY: the whole warpgroup runs every line (no branch on the thread).
    let (m, s) = unsafe {
        (AccRows::<C>::reduce::<2>(&acc, f32::MIN, f32::max), AccRows::<C>::reduce::<2>(&acc, 0.0, |a, b| a + b))
    };
    let a = acc_as_a::<C, R, 8>(&acc);
    // SAFETY: the caller's buffers hold 4 floats and 32 words a thread of the block.
    unsafe {
        for (i, x) in [m[0], m[1], s[0], s[1]].into_iter().enumerate() {
            rows.add(4 * t + i).write(x);
        }
        for (kb, regs) in a.iter().enumerate() {
            for (r, &x) in regs.iter().enumerate() {
                frag.add(32 * t + 4 * kb + r).write(x);
            }
        }
    }
}
