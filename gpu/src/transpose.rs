//! Transpose of an `m x n` row-major matrix through a 32x32 shared-memory tile, with three
//! tile layouts:
//!
//! | kernel | tile layout | reading a tile column |
//! |---|---|---|
//! | `transpose_naive` | `(32,32):(32,1)` | 32 threads hit one bank: 32-way conflict |
//! | `transpose_padded` | `(32,32):(33,1)` | 32 different banks |
//! | `transpose_swizzled` | `Sw<5,0,5> o 0 o (32,32):(32,1)` | 32 different banks, no padding |
//!
//! (`cute show --banks '(32,32):(32,1)'` and `'Sw<5,0,5> o 0 o (32,32):(32,1)'` draw them.)
//! Blocks of 32x8 threads; each thread moves 4 elements in and 4 out. Any `m`, `n`: the
//! elements of a ragged edge tile are predicated.

use cute_static::typenum::{P5, U0, U5};
use cute_static::{layout, shape, Composition, Layout, Swizzle};

use crate::{block_idx, shared_tile, sync_threads, thread_idx, PtrTensor, SmemTensor};

/// The tile's extent.
pub const TILE: usize = 32;
/// Threads per block: `TILE` columns by `ROWS` rows; each thread moves `TILE / ROWS` elements.
pub const ROWS: usize = 8;

type Naive = Layout![(32,32):(32,1)];
type Padded = Layout![(32,32):(33,1)];
shared_tile!(fn naive_tile: f32, Naive as "TRANSPOSE_NAIVE");
shared_tile!(fn padded_tile: f32, Padded as "TRANSPOSE_PADDED");
shared_tile!(fn swizzled_tile: f32, Naive as "TRANSPOSE_SWIZZLED");

/// CuTe's `Swizzle<5,0,5>`: bits [5,10) of an offset xor-ed into bits [0,5), i.e. column
/// `c ^ r` of row `r` in a 32x32 row-major tile; the tile's layout is `Sw<5,0,5> o 0 o
/// (32,32):(32,1)`, `composition(Swizzle, Layout)`.
type Sw505 = Swizzle<U5, U0, P5>;

/// One `TILE x TILE` tile: in (row-major `m x n`), out (row-major `n x m`), the shared tile
/// and its layout's offset of `(r, c)` (a layout's, or a swizzled layout's; inside the tile for
/// `r, c < TILE`).
#[inline(always)]
unsafe fn transpose_tile<L>(
    inp: *const f32,
    out: *mut f32,
    m: usize,
    n: usize,
    tile: SmemTensor<f32, L>,
    at: impl Fn(usize, usize) -> usize,
) {
    let (tx, ty) = thread_idx();
    let (bx, by) = block_idx();
    let a = PtrTensor::new(inp as *mut f32, layout!(({m},{n}):({n},1)));
    let b = PtrTensor::new(out, layout!(({n},{m}):({m},1)));
    let (r0, c0) = (by * TILE, bx * TILE);
    for j in 0..TILE / ROWS {
        let (r, c) = (ty + ROWS * j, tx);
        if r0 + r < m && c0 + c < n {
            // SAFETY: (r0 + r, c0 + c) is inside the m x n input; the tile offset inside the
            // tile's cosize; this thread's own slot until the barrier.
            unsafe { tile.store(at(r, c), *a.addr_at(&shape!(({ r0 + r }, { c0 + c })))) };
        }
    }
    sync_threads();
    for j in 0..TILE / ROWS {
        // Output row c0 + c reads tile column c.
        let (c, r) = (ty + ROWS * j, tx);
        if c0 + c < n && r0 + r < m {
            // SAFETY: as above, in the n x m output; the tile is read-only after the barrier.
            unsafe { *b.addr_at(&shape!(({ c0 + c }, { r0 + r }))) = tile.load(at(r, c)) };
        }
    }
}

/// `out = inᵀ` through the naive tile (bank conflicts on the column reads). Grid
/// `(ceil(n/32), ceil(m/32))`, blocks of 32x8 threads.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn transpose_naive(inp: *const f32, out: *mut f32, m: usize, n: usize) {
    let t = naive_tile();
    // SAFETY: the caller's buffers hold m*n elements.
    unsafe { transpose_tile(inp, out, m, n, t, |r, c| t.layout().call_coord(&shape!(({ r }, { c })))) }
}

/// `out = inᵀ` through the padded tile.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn transpose_padded(inp: *const f32, out: *mut f32, m: usize, n: usize) {
    let t = padded_tile();
    // SAFETY: as `transpose_naive`.
    unsafe { transpose_tile(inp, out, m, n, t, |r, c| t.layout().call_coord(&shape!(({ r }, { c })))) }
}

/// `out = inᵀ` through the swizzled tile.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn transpose_swizzled(inp: *const f32, out: *mut f32, m: usize, n: usize) {
    let sw = Sw505::new().composition(Naive::default());
    // SAFETY: as `transpose_naive`; the swizzle permutes offsets inside [0, 1024).
    unsafe { transpose_tile(inp, out, m, n, swizzled_tile(), |r, c| sw.call_coord(&shape!(({ r }, { c })))) }
}

/// The hand-indexed twin of `transpose_padded` (no layouts): its SASS is compared with the
/// layout-indexed kernel's by `scripts/gpu/run.py --sass`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn transpose_padded_by_hand(inp: *const f32, out: *mut f32, m: usize, n: usize) {
    let (tx, ty) = thread_idx();
    let (bx, by) = block_idx();
    let tile = padded_tile();
    let (r0, c0) = (by * TILE, bx * TILE);
    for j in 0..TILE / ROWS {
        let r = ty + ROWS * j;
        if r0 + r < m && c0 + tx < n {
            // SAFETY: as `transpose_padded`, with the same offsets written out.
            unsafe { tile.store(r * 33 + tx, *inp.add((r0 + r) * n + c0 + tx)) };
        }
    }
    sync_threads();
    for j in 0..TILE / ROWS {
        let c = ty + ROWS * j;
        if c0 + c < n && r0 + tx < m {
            // SAFETY: as above.
            unsafe { *out.add((c0 + c) * m + r0 + tx) = tile.load(tx * 33 + c) };
        }
    }
}
