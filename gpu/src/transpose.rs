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
//! Blocks of 32x8 threads; each thread moves 4 elements in and 4 out, in CuTe's words: two
//! `copy_if`s of one tiled copy of `UniversalCopy` atoms (`ld.global` + `st.shared`, then
//! `ld.shared` + `st.global`), the second reading the shared tile transposed. Any `m`, `n`:
//! the elements of a ragged edge tile are predicated. `transpose_padded_by_hand` is
//! `transpose_padded` with its offsets written out, its twin for the PTX guard.

use cute_atom::algorithm::{copy_if, TiledCopyCall};
use cute_atom::tensor::SmemTile;
use cute_static::copy::{TiledCopy, UniversalCopy};
use cute_static::layout::Sizes;
use cute_static::typenum::{P5, U0, U1, U5};
use cute_static::{layout, Composition, Cons, Layout, LayoutAt, Nil, Shape, Swizzle};

use crate::{block_idx, block_tile, shared_tile, sync_threads, thread_idx, PtrTensor, SmemTensor};

/// The tile's extent.
pub const TILE: usize = 32;
/// Threads per block: `TILE` columns by `ROWS` rows; each thread moves `TILE / ROWS` elements.
pub const ROWS: usize = 8;

type Naive = Layout![(32,32):(32,1)];
type Padded = Layout![(32,32):(33,1)];
shared_tile!(fn naive_tile: f32, Naive as "TRANSPOSE_NAIVE");
shared_tile!(fn padded_tile: f32, Padded as "TRANSPOSE_PADDED");

/// CuTe's `Swizzle<5,0,5>`: bits [5,10) of an offset xor-ed into bits [0,5), i.e. column
/// `c ^ r` of row `r` in a 32x32 row-major tile; the tile's layout is `Sw<5,0,5> o 0 o
/// (32,32):(32,1)`, `composition(Swizzle, Layout)`.
type Swizzled = <Swizzle<U5, U0, P5> as Composition<Naive>>::Output;
// The swizzled tile's storage: the naive tile's 1024 elements (the swizzle permutes them).
shared_tile!(fn swizzled_storage: f32, Naive as "TRANSPOSE_SWIZZLED");

/// Both copies of a tile, CuTe's `make_tiled_copy(Copy_Atom<UniversalCopy<float>, float>{},
/// Layout<Shape<_8,_32>, Stride<_32,_1>>{})`: thread `tx + 32 ty` moves element `(ty, tx)` of
/// each 8x32 row band, `(ty + 8j, tx)` of the 32x32 tile for `j` in 0..4, one 4-byte access
/// each (a warp reads or writes one 128-byte row of the global tile).
type TileCopy = TiledCopy<UniversalCopy<U1>, Layout![(8,32):(32,1)], Layout![(1,1):(0,0)]>;
/// A block's 32x32 tile of the input (and of the output), and that tile of a row-major matrix.
type Tile = Shape![(32, 32)];
type Gmem = PtrTensor<f32, Layout![(32,32):(usize,1)]>;

/// One `TILE x TILE` tile in CuTe's words: `copy_if` of the input's block tile into the shared
/// tile, a barrier, then `copy_if` of the shared tile read transposed (`local_tile_t`, its
/// `(c, r)` as `(r, c)`) into the output's block tile; predicated on the matrices' extents.
#[inline(always)]
unsafe fn transpose_tile<L>(inp: *const f32, out: *mut f32, m: usize, n: usize, tile: SmemTensor<f32, L>)
where
    L: Copy + Sizes + LayoutAt<Cons<usize, Cons<usize, Nil>>>,
    TileCopy: TiledCopyCall<Gmem, SmemTensor<f32, L>> + TiledCopyCall<SmemTile<f32, L, 32, 32, true>, Gmem>,
{
    let (tx, ty) = thread_idx();
    let (bx, by) = block_idx();
    let thr = tx + TILE * ty;
    let a = PtrTensor::new(inp as *mut f32, layout!(({m},{n}):({n},1)));
    let b = PtrTensor::new(out, layout!(({n},{m}):({m},1)));
    let (r0, c0) = (by * TILE, bx * TILE);
    let ga = block_tile(a.local_tile(Tile::default(), &[by, bx]));
    // SAFETY: 4-byte accesses of the block's tile, read where inside the m x n input; each
    // thread writes its own elements of the shared tile until the barrier.
    unsafe { copy_if(&TileCopy::default(), thr, |r, c| r0 + r < m && c0 + c < n, &ga, &tile) };
    sync_threads();
    let gb = block_tile(b.local_tile(Tile::default(), &[bx, by]));
    // Output row c0 + c is tile column c: the shared tile read transposed.
    // SAFETY: as above, written where inside the n x m output; the shared tile is read-only
    // after the barrier.
    unsafe {
        copy_if(&TileCopy::default(), thr, |c, r| c0 + c < n && r0 + r < m, &tile.local_tile_t::<32, 32>((0, 0)), &gb)
    };
}

/// `out = inᵀ` through the naive tile (bank conflicts on the column reads). Grid
/// `(ceil(n/32), ceil(m/32))`, blocks of 32x8 threads.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn transpose_naive(inp: *const f32, out: *mut f32, m: usize, n: usize) {
    // SAFETY: the caller's buffers hold m*n elements.
    unsafe { transpose_tile(inp, out, m, n, naive_tile()) }
}

/// `out = inᵀ` through the padded tile.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn transpose_padded(inp: *const f32, out: *mut f32, m: usize, n: usize) {
    // SAFETY: as `transpose_naive`.
    unsafe { transpose_tile(inp, out, m, n, padded_tile()) }
}

/// `out = inᵀ` through the swizzled tile.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn transpose_swizzled(inp: *const f32, out: *mut f32, m: usize, n: usize) {
    // SAFETY: as `transpose_naive`; the swizzle permutes offsets inside [0, 1024).
    let tile = SmemTensor::new(swizzled_storage().base(), Swizzled::default());
    unsafe { transpose_tile(inp, out, m, n, tile) }
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
