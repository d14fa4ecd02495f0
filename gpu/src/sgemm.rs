//! SGEMM, `C = A · B` in fp32, all row-major (as PyTorch's tensors): 128x128 block tiles, `BK`
//! of 8, 256 threads (16x16) each computing an 8x8 block of `C` in registers, shared-memory
//! tiles double-buffered (one barrier per `BK` step, the next tile's global loads in flight
//! during the current tile's FMAs), 16-byte loads and stores.
//!
//! Every index comes from a layout:
//! - `A`, `B`, `C` in global memory: `({m},{k}):({k},1)`, `({k},{n}):({n},1)`, `({m},{n}):({n},1)`,
//!   their block tiles by `local_tile` (128x8 of `A`, 8x128 of `B`, 128x128 of `C`; the last tile
//!   of a ragged matrix reaches past it, and the loads and stores are predicated, as in CuTe),
//!   and each thread's part of `C`'s tile by `local_partition` over 4x4 blocks;
//! - the shared tiles, `m` (or `n`) contiguous so that a thread's 8 rows are 2 vector loads:
//!   `make_layout_left((128,8,2))` = `(128,8,2):(1,128,1024)` as `(m, k, stage)`;
//! - the thread-value layout of the accumulators, `(16,(4,2)):(4,(1,64))`: value `v` of thread
//!   row (or column) `t` is row `4t + v%4 + 64(v/4)`, so that the 8 threads of a quarter warp
//!   read 128 contiguous bytes (no bank conflict).
//!
//! Any `M`; `N` and `K` multiples of 4 (the 16-byte accesses, as CuTe's vectorized copies
//! need); ragged edge tiles are predicated (zero-filled loads, guarded stores).

use cute_static::typenum::{U1, U64};
use cute_static::{layout, shape, Cons, Layout, Nil, Shape};

use crate::{block_idx, block_tile, shared_tile, sync_threads, thread_idx, PtrTensor, F4};

/// The block tile.
pub const BM: usize = 128;
/// The block tile.
pub const BN: usize = 128;
/// The `k` step.
pub const BK: usize = 8;

/// `make_layout_left((128,8,2))`: (m, k, stage), m contiguous.
type SmemA = Layout![(128, 8, 2)];
/// The same for B: (n, k, stage).
type SmemB = Layout![(128, 8, 2)];
type ThrVal = Layout![(16,(4,2)):(4,(1,64))];
shared_tile!(fn smem_a: f32, SmemA as "SGEMM_A");
shared_tile!(fn smem_b: f32, SmemB as "SGEMM_B");

/// Where the kernel's indices come from: layouts, or the same arithmetic written by hand (the
/// twin whose SASS the layout-indexed kernel is compared with).
trait Indexing {
    /// Element `(r, c)` of block tile `(ti, tj)` of `A` (`m x k`, 128x8 tiles).
    fn a_elem(a: *const f32, m: usize, k: usize, ti: usize, tj: usize, r: usize, c: usize) -> *const f32;
    /// Element `(r, c)` of block tile `(ti, tj)` of `B` (`k x n`, 8x128 tiles).
    fn b_elem(b: *const f32, k: usize, n: usize, ti: usize, tj: usize, r: usize, c: usize) -> *const f32;
    /// Thread `(tx, ty)`'s part of block tile `(ti, tj)` of `C` (`m x n`, 128x128 tiles).
    type CPart: Copy;
    /// Thread `(tx, ty)`'s part of block tile `(ti, tj)` of `C`.
    fn c_part(c: *mut f32, m: usize, n: usize, ti: usize, tj: usize, tx: usize, ty: usize) -> Self::CPart;
    /// The first of the 4 consecutive elements of the thread's row `i` (0..8), column group
    /// `h` (0..2).
    fn c_elem(t: &Self::CPart, i: usize, h: usize) -> *mut f32;
    /// Offset of `(mn, k, stage)` in a shared tile.
    fn shared(mn: usize, k: usize, stage: usize) -> usize;
    /// Row (column) of value `v` of thread row (column) `t` in the block tile.
    fn thr_val(t: usize, v: usize) -> usize;
}

struct Layouts;
impl Indexing for Layouts {
    #[inline(always)]
    fn a_elem(a: *const f32, m: usize, k: usize, ti: usize, tj: usize, r: usize, c: usize) -> *const f32 {
        let g = PtrTensor::new(a as *mut f32, layout!(({m},{k}):({k},1)));
        block_tile(g.local_tile(shape!((128, 8)), &[ti, tj])).addr_at(&Cons(r, Cons(c, Nil)))
    }
    #[inline(always)]
    fn b_elem(b: *const f32, k: usize, n: usize, ti: usize, tj: usize, r: usize, c: usize) -> *const f32 {
        let g = PtrTensor::new(b as *mut f32, layout!(({k},{n}):({n},1)));
        block_tile(g.local_tile(shape!((8, 128)), &[ti, tj])).addr_at(&Cons(r, Cons(c, Nil)))
    }
    type CPart = PtrTensor<f32, Layout<Shape![(4, 2, 4, 2)], Cons<usize, Cons<usize, Cons<U1, Cons<U64, Nil>>>>>>;
    #[inline(always)]
    fn c_part(c: *mut f32, m: usize, n: usize, ti: usize, tj: usize, tx: usize, ty: usize) -> Self::CPart {
        let g = PtrTensor::new(c, layout!(({m},{n}):({n},1)));
        let tile = block_tile(g.local_tile(shape!((128, 128)), &[ti, tj]));
        // The tile in blocks of 4x4: rows (4,32):(n,4n), columns (4,32):(1,4). 16x16 threads
        // over the block grid (thread (ty, tx) is index ty + 16 tx), each owning a 2x2 grid of
        // blocks 64 rows and 64 columns apart: the thread-value layout `ThrVal` in both modes.
        let blocks = PtrTensor::new(tile.ptr(), layout!((4,32,4,32):({n},{4 * n},1,4)));
        block_tile(blocks.local_partition(layout!((1,16,1,16):(1,1,16,16)), ty + 16 * tx))
    }
    #[inline(always)]
    fn c_elem(t: &Self::CPart, i: usize, h: usize) -> *mut f32 {
        t.addr_at(&shape!(({ i % 4 }, { i / 4 }, 0, { h })))
    }
    #[inline(always)]
    fn shared(mn: usize, k: usize, stage: usize) -> usize {
        SmemA::default().call_coord(&shape!(({ mn }, { k }, { stage })))
    }
    #[inline(always)]
    fn thr_val(t: usize, v: usize) -> usize {
        ThrVal::default().call_coord(&Cons(t, Cons(v, Nil)))
    }
}

struct ByHand;
impl Indexing for ByHand {
    #[inline(always)]
    fn a_elem(a: *const f32, _: usize, k: usize, ti: usize, tj: usize, r: usize, c: usize) -> *const f32 {
        a.wrapping_add((128 * ti + r) * k + 8 * tj + c)
    }
    #[inline(always)]
    fn b_elem(b: *const f32, _: usize, n: usize, ti: usize, tj: usize, r: usize, c: usize) -> *const f32 {
        b.wrapping_add((8 * ti + r) * n + 128 * tj + c)
    }
    type CPart = (*mut f32, usize);
    #[inline(always)]
    fn c_part(c: *mut f32, _: usize, n: usize, ti: usize, tj: usize, tx: usize, ty: usize) -> Self::CPart {
        (c.wrapping_add((128 * ti + 4 * ty) * n + 128 * tj + 4 * tx), n)
    }
    #[inline(always)]
    fn c_elem(t: &Self::CPart, i: usize, h: usize) -> *mut f32 {
        t.0.wrapping_add((i % 4 + 64 * (i / 4)) * t.1 + 64 * h)
    }
    #[inline(always)]
    fn shared(mn: usize, k: usize, stage: usize) -> usize {
        mn + 128 * k + 1024 * stage
    }
    #[inline(always)]
    fn thr_val(t: usize, v: usize) -> usize {
        4 * t + (v & 3) + 64 * (v >> 2)
    }
}

#[inline(always)]
unsafe fn sgemm<I: Indexing>(m: usize, n: usize, k: usize, a: *const f32, b: *const f32, c: *mut f32) {
    if n % 4 != 0 || k % 4 != 0 {
        panic!("N and K must be multiples of 4");
    }
    let (tx, ty) = thread_idx();
    let (bx, by) = block_idx();
    let tid = tx + 16 * ty;
    let (m0, n0) = (by * BM, bx * BN);
    let (sa, sb) = (smem_a(), smem_b());
    // Each thread loads one 4-vector of A's tile (row tid/2, k 4*(tid%2)) and one of B's (k
    // tid/32, n 4*(tid%32)) per BK step; out-of-range vectors are zeros.
    let (ar, ak) = (tid / 2, 4 * (tid % 2));
    let (bk, bn) = (tid / 32, 4 * (tid % 32));
    let load_a = |kt: usize| -> F4 {
        let (r, kk) = (m0 + ar, kt * BK + ak);
        // SAFETY: (r, kk..kk+4) inside A (k % 4 == 0).
        if r < m && kk < k {
            unsafe { (I::a_elem(a, m, k, by, kt, ar, ak) as *const F4).read() }
        } else {
            F4::default()
        }
    };
    let load_b = |kt: usize| -> F4 {
        let (kk, col) = (kt * BK + bk, n0 + bn);
        // SAFETY: (kk, col..col+4) inside B (n % 4 == 0).
        if kk < k && col < n {
            unsafe { (I::b_elem(b, k, n, kt, bx, bk, bn) as *const F4).read() }
        } else {
            F4::default()
        }
    };
    let store = |stage: usize, va: F4, vb: F4| {
        // SAFETY: offsets inside the (128,8,2) tiles, each written by one thread; the stage
        // is not read before the next barrier. A's vector lands transposed.
        unsafe {
            for i in 0..4 {
                sa.store(I::shared(ar, ak + i, stage), va.0[i]);
            }
            sb.store4(I::shared(bn, bk, stage), vb);
        }
    };
    let mut acc = [[0.0f32; 8]; 8];
    let ktiles = k.div_ceil(BK);
    store(0, load_a(0), load_b(0));
    sync_threads();
    for kt in 0..ktiles {
        let stage = kt % 2;
        let next = kt + 1 < ktiles;
        let (va, vb) = if next { (load_a(kt + 1), load_b(kt + 1)) } else { (F4::default(), F4::default()) };
        for kk in 0..BK {
            let mut fa = [0.0f32; 8];
            let mut fb = [0.0f32; 8];
            for h in 0..2 {
                // SAFETY: thr_val < 128 (a multiple of 4 for v = 4h): inside the tiles; the
                // stage was written before the last barrier.
                let (x, y) = unsafe {
                    (
                        sa.load4(I::shared(I::thr_val(ty, 4 * h), kk, stage)),
                        sb.load4(I::shared(I::thr_val(tx, 4 * h), kk, stage)),
                    )
                };
                fa[4 * h..4 * h + 4].copy_from_slice(&x.0);
                fb[4 * h..4 * h + 4].copy_from_slice(&y.0);
            }
            for i in 0..8 {
                for j in 0..8 {
                    // `fma.rn.f32` (a plain `a * b + c` is emitted as `mul.rn` + `add.rn`, which
                    // ptxas may not fuse).
                    acc[i][j] = core::intrinsics::fmaf32(fa[i], fb[j], acc[i][j]);
                }
            }
        }
        if next {
            store(1 - stage, va, vb);
        }
        sync_threads();
    }
    let tc = I::c_part(c, m, n, by, bx, tx, ty);
    for (i, row) in acc.iter().enumerate() {
        let r = I::thr_val(ty, i);
        for h in 0..2 {
            let col = I::thr_val(tx, 4 * h);
            if m0 + r < m && n0 + col < n {
                let v = F4([row[4 * h], row[4 * h + 1], row[4 * h + 2], row[4 * h + 3]]);
                // SAFETY: (m0 + r, n0 + col..+4) inside C.
                unsafe { (I::c_elem(&tc, i, h) as *mut F4).write(v) };
            }
        }
    }
}

/// `C (m x n) = A (m x k) · B (k x n)`, layout-indexed; grid `(ceil(n/128), ceil(m/128))`,
/// blocks of 16x16 threads.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn sgemm_layouts(
    m: usize,
    n: usize,
    k: usize,
    a: *const f32,
    b: *const f32,
    c: *mut f32,
) {
    // SAFETY: the caller's buffers hold m*k, k*n and m*n elements.
    unsafe { sgemm::<Layouts>(m, n, k, a, b, c) }
}

/// The same kernel with its indices written by hand.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn sgemm_by_hand(
    m: usize,
    n: usize,
    k: usize,
    a: *const f32,
    b: *const f32,
    c: *mut f32,
) {
    // SAFETY: as `sgemm_layouts`.
    unsafe { sgemm::<ByHand>(m, n, k, a, b, c) }
}
