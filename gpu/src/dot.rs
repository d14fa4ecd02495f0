//! The dot-product puzzle on the GPU: each thread accumulates a grid-strided part of `a · b`,
//! writes it into a shared tile sized by its static layout, a tree reduction halves the active
//! threads until slot 0 holds the block's sum, and thread 0 adds it to `out` atomically.

use cute_static::{layout, Layout};

use crate::{block_idx, shared_tile, sync_threads, thread_idx, PtrTensor, F4};

/// Threads per block, one shared slot each.
pub const THREADS: usize = 256;
type Slots = Layout![256:1];
shared_tile!(fn slots: f32, Slots as "DOT_SLOTS");

/// `out[0] += a · b` over `n` elements; launch with `THREADS` threads per block and any grid.
/// Vector loads when `n` is a multiple of 4 (and the pointers 16-byte aligned, as CuPy's are).
#[no_mangle]
pub unsafe extern "ptx-kernel" fn dot_product(a: *const f32, b: *const f32, out: *mut f32, n: usize) {
    let (tid, _) = thread_idx();
    let (bid, _) = block_idx();
    // SAFETY (reading special registers).
    let grid = unsafe { core::arch::nvptx::_grid_dim_x() } as usize * THREADS;
    let mut acc = 0.0f32;
    if n % 4 == 0 {
        // The same vectors seen as n/4 four-element vectors.
        let (va, vb) = (
            PtrTensor::new(a as *mut F4, layout!(({n / 4}):(1))),
            PtrTensor::new(b as *mut F4, layout!(({n / 4}):(1))),
        );
        let mut i = bid * THREADS + tid;
        while i < n / 4 {
            // SAFETY: i < n/4 and the host passes n-element buffers.
            let (x, y) = unsafe { (va.read(i), vb.read(i)) };
            acc += x.0[0] * y.0[0] + x.0[1] * y.0[1] + x.0[2] * y.0[2] + x.0[3] * y.0[3];
            i += grid;
        }
    } else {
        let (ga, gb) =
            (PtrTensor::new(a as *mut f32, layout!(({n}):(1))), PtrTensor::new(b as *mut f32, layout!(({n}):(1))));
        let mut i = bid * THREADS + tid;
        while i < n {
            // SAFETY: i < n.
            acc += unsafe { ga.read(i) * gb.read(i) };
            i += grid;
        }
    }
    // SAFETY: the block's own shared tile; each slot has one writer per step, the barrier
    // orders the steps.
    unsafe {
        let s = slots();
        let at = |t: usize| s.layout().call(t);
        s.store(at(tid), acc);
        sync_threads();
        let mut stride = THREADS / 2;
        while stride > 0 {
            if tid < stride {
                s.store(at(tid), s.load(at(tid)) + s.load(at(tid + stride)));
            }
            sync_threads();
            stride /= 2;
        }
        if tid == 0 {
            cute_atom::arch::copy::red_global_add_f32(out, s.load(at(0)));
        }
    }
}
