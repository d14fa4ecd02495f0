//! SGEMM, `C = A · B` in fp32, all row-major (as PyTorch's tensors): `BM x BN` block tiles, a
//! `BK` step, `T x T` threads each computing a `V x V` block of `C` in registers, shared-memory
//! tiles double-buffered (one barrier per `BK` step, the next tile's global loads in flight
//! during the current tile's FMAs), 16-byte loads and stores. `Cta128`: 128x128x8 tiles, 16x16
//! threads of 8x8 values; `Cta64`: 64x64x16 tiles, 16x16 threads of 4x4 values.
//!
//! The kernel is written once, over its operands' pointer tensors and a [`Tiling`], with one
//! bound per operation (`PtrLocalTile`, `PtrAddr`, `LayoutAt`); its sizes are the tiling's
//! layouts' (the block tile shapes, the thread-value layout's two modes), and every loop bound
//! and register array follows them. The entry points instantiate it with run-time extents,
//! run-time leading dimensions, static operands, a second thread-value layout and a second
//! tile size.
//! Every index comes from a layout:
//! - `A`, `B`, `C` in global memory (`({m},{k}):({k},1)`, `({k},{n}):({n},1)`, `({m},{n}):({n},1)`
//!   in `sgemm_layouts`), their block tiles by `local_tile` (128x8 of `A`, 8x128 of `B`, 128x128
//!   of `C`; the last tile of a ragged matrix reaches past it, and the loads and stores are
//!   predicated, as in CuTe), and each accumulator's element of `C`'s tile at the coordinate the
//!   thread-value layout gives its row and column;
//! - the shared tiles, `m` (or `n`) contiguous so that a thread's 8 rows are 2 vector loads:
//!   `make_layout_left((128,8,2))` = `(128,8,2):(1,128,1024)` as `(m, k, stage)`;
//! - the thread-value layout of the accumulators, `(16,(4,2)):(4,(1,64))`: value `v` of thread
//!   row (or column) `t` is row `4t + v%4 + 64(v/4)`, so that the 8 threads of a quarter warp
//!   read 128 contiguous bytes (no bank conflict).
//!
//! Any `M`; `N` and `K` multiples of 4 (the 16-byte accesses, as CuTe's vectorized copies
//! need); ragged edge tiles are predicated (zero-filled loads, guarded stores).

use core::marker::PhantomData;

use cute_static::layout::Sizes as Extents;
use cute_static::tensor::CosizeConst;
use cute_static::{layout, Cons, Layout, LayoutAt, Nil, PtrAddr, PtrLocalTile, Shape};

use crate::{block_idx, block_tile, shared_tile, sync_threads, thread_idx, tile_elem, PtrTensor, F4};

/// `make_layout_left((128,8,2))`: (m, k, stage), m contiguous.
type SmemA = Layout![(128, 8, 2)];
/// The same for B: (n, k, stage).
type SmemB = Layout![(128, 8, 2)];
type ThrVal = Layout![(16,(4,2)):(4,(1,64))];
// The shared arrays, sized for `Cta128`'s tiles; a tiling's own tiles must fit them (checked
// at compile time in `sgemm`).
shared_tile!(fn smem_a: f32, SmemA as "SGEMM_A");
shared_tile!(fn smem_b: f32, SmemB as "SGEMM_B");

type Crd2 = Cons<usize, Cons<usize, Nil>>;
type Crd3 = Cons<usize, Crd2>;

/// The kernel's tiling, as layouts: the block tiles of `A`, `B`, `C` (shapes), the shared tiles
/// (`(m or n, k, stage)`, evaluated at their natural index) and the thread-value layout of the
/// accumulators' rows and columns. The sizes the kernel's loops run over are theirs
/// ([`Sizes`]): `BM x BK`, `BK x BN`, `BM x BN` tiles, `T x T` threads of `V x V` values
/// (`T x V` is `BM` and `BN`), each thread one 4-vector of `A`'s and of `B`'s tile a step.
/// What the sizes must satisfy is checked at compile time; what the 16-byte accesses need of
/// the layouts' values is the implementer's promise:
///
/// # Safety
/// `Smem`'s shape is `(BM, BK, 2)` (`BM == BN`), so that the kernel's coordinates are inside
/// it. `ThrVal` maps values `4h..4h+4` of each thread to 4 consecutive rows starting at a
/// multiple of 4, and `Smem` maps 4 consecutive `m` (or `n`) from a multiple of 4 to 4
/// consecutive offsets from a multiple of 4 (the kernel reads and writes them as one 16-byte
/// vector). That their values stay below the tile and the shared arrays is checked at compile
/// time (their cosizes).
pub unsafe trait Tiling {
    /// Block tile shapes: `(BM, BK)` of `A`, `(BK, BN)` of `B`, `(BM, BN)` of `C`.
    type CtaA: Default + Copy + Extents;
    type CtaB: Default + Copy + Extents;
    type CtaC: Default + Copy + Extents;
    /// The shared tiles, `(BM or BN, BK, 2)` as `(m or n, k, stage)`.
    type Smem: LayoutAt<Crd3> + Default + CosizeConst;
    /// Row (column) of value `v` of thread row (column) `t`, `(T, V)` as `(t, v)`.
    type ThrVal: LayoutAt<Crd2> + Default + Extents + CosizeConst;
}

/// The sizes a kernel's loops run over: from a tiling's layouts, or written by hand.
pub trait Sizes {
    /// The block tile.
    const BM: usize;
    /// The block tile.
    const BN: usize;
    /// The `k` step.
    const BK: usize;
    /// Threads per row (and column) of the block: `T x T` threads.
    const T: usize;
    /// Values per thread row (and column): `V x V` accumulators.
    const V: usize;
    /// The shared tiles' cosize (both stages): every offset of `shared` is below it.
    const SMEM: usize;
    /// The thread-value layout's cosize: every row of `thr_val` is below it.
    const ROWS: usize;
}

/// The tiling of `sgemm_layouts`: `m` (or `n`) contiguous shared tiles, so that a thread's 8
/// rows are 2 vector loads, and the thread-value layout `(16,(4,2)):(4,(1,64))`.
pub struct Cta128;
// SAFETY: see the thread-value layout and `Smem` above: 4 consecutive values are 4 consecutive
// rows from a multiple of 4, and `Smem` is `m` (or `n`) contiguous with strides multiples of 4.
unsafe impl Tiling for Cta128 {
    type CtaA = Shape![(128, 8)];
    type CtaB = Shape![(8, 128)];
    type CtaC = Shape![(128, 128)];
    type Smem = SmemA;
    type ThrVal = ThrVal;
}

/// The same sizes with each thread's rows (columns) contiguous, `(16,8):(8,1)`: a thread's
/// shared-memory reads stride 32 bytes across a quarter warp (bank conflicts: slower, and
/// correct, since the kernel is written over the tiling).
pub struct Cta128Blocked;
// SAFETY: see the thread-value layout and `Smem` above: 4 consecutive values are 4 consecutive
// rows from a multiple of 4, and `Smem` is `m` (or `n`) contiguous with strides multiples of 4.
unsafe impl Tiling for Cta128Blocked {
    type CtaA = Shape![(128, 8)];
    type CtaB = Shape![(8, 128)];
    type CtaC = Shape![(128, 128)];
    type Smem = SmemA;
    type ThrVal = Layout![(16, 8):(8, 1)];
}

/// Other sizes: 64x64 block tiles, a `k` step of 16, 16x16 threads of 4x4 values (thread row
/// `t`'s values are rows `4t..4t+4`, one 16-byte vector).
pub struct Cta64;
// SAFETY: see the thread-value layout and `Smem` above: 4 consecutive values are 4 consecutive
// rows from a multiple of 4, and `Smem` is `m` (or `n`) contiguous with strides multiples of 4.
unsafe impl Tiling for Cta64 {
    type CtaA = Shape![(64, 16)];
    type CtaB = Shape![(16, 64)];
    type CtaC = Shape![(64, 64)];
    type Smem = Layout![(64, 16, 2)];
    type ThrVal = Layout![(16, 4):(4, 1)];
}

/// A thread's values along a row (and a column) of its accumulators, `V`: the tiling's
/// thread-value layout's `size<1>` (the kernel's register arrays' length).
const fn values<K: Tiling>() -> usize {
    <K::ThrVal as Extents>::MODES[1]
}

/// Where the kernel's indices and sizes come from: layouts, or the same arithmetic written by
/// hand (the twin whose SASS the layout-indexed kernel is compared with).
trait Indexing: Sizes {
    /// Element `(r, c)` of block tile `(ti, tj)` of `A` (`BM x BK` tiles).
    fn a_elem(&self, ti: usize, tj: usize, r: usize, c: usize) -> *const f32;
    /// Element `(r, c)` of block tile `(ti, tj)` of `B` (`BK x BN` tiles).
    fn b_elem(&self, ti: usize, tj: usize, r: usize, c: usize) -> *const f32;
    /// Block tile `(ti, tj)` of `C` (`BM x BN` tiles).
    type CTile: Copy;
    fn c_tile(&self, ti: usize, tj: usize) -> Self::CTile;
    /// Element `(r, c)` of a block tile of `C`.
    fn c_elem(t: &Self::CTile, r: usize, c: usize) -> *mut f32;
    /// Offset of `(mn, k, stage)` in a shared tile.
    fn shared(mn: usize, k: usize, stage: usize) -> usize;
    /// Row (column) of value `v` of thread row (column) `t` in the block tile.
    fn thr_val(t: usize, v: usize) -> usize;
}

/// The operands as pointer tensors of any layouts (static or run-time extents and strides)
/// and a tiling: every index from a layout, one bound per operation.
struct Layouts<PA, PB, PC, K>(PA, PB, PC, PhantomData<K>);
impl<PA, PB, PC, K: Tiling> Sizes for Layouts<PA, PB, PC, K> {
    const BM: usize = <K::CtaC as Extents>::MODES[0];
    const BN: usize = <K::CtaC as Extents>::MODES[1];
    const BK: usize = <K::CtaA as Extents>::MODES[1];
    const T: usize = <K::ThrVal as Extents>::MODES[0];
    const V: usize = <K::ThrVal as Extents>::MODES[1];
    const SMEM: usize = <K::Smem as CosizeConst>::COSIZE;
    const ROWS: usize = <K::ThrVal as CosizeConst>::COSIZE;
}
impl<PA, PB, PC, K> Indexing for Layouts<PA, PB, PC, K>
where
    K: Tiling,
    // local_tile of A, B, C, and an element's address in each tile.
    PA: PtrLocalTile<K::CtaA>,
    PB: PtrLocalTile<K::CtaB>,
    PC: PtrLocalTile<K::CtaC>,
    PA::Output: PtrAddr<Crd2, Elem = f32>,
    PB::Output: PtrAddr<Crd2, Elem = f32>,
    PC::Output: PtrAddr<Crd2, Elem = f32>,
{
    #[inline(always)]
    fn a_elem(&self, ti: usize, tj: usize, r: usize, c: usize) -> *const f32 {
        tile_elem(&self.0, K::CtaA::default(), ti, tj, r, c)
    }
    #[inline(always)]
    fn b_elem(&self, ti: usize, tj: usize, r: usize, c: usize) -> *const f32 {
        tile_elem(&self.1, K::CtaB::default(), ti, tj, r, c)
    }
    type CTile = PC::Output;
    #[inline(always)]
    fn c_tile(&self, ti: usize, tj: usize) -> Self::CTile {
        block_tile(self.2.local_tile(K::CtaC::default(), &[ti, tj]))
    }
    #[inline(always)]
    fn c_elem(t: &Self::CTile, r: usize, c: usize) -> *mut f32 {
        t.addr_at(&Cons(r, Cons(c, Nil)))
    }
    #[inline(always)]
    fn shared(mn: usize, k: usize, stage: usize) -> usize {
        K::Smem::default().at(&Cons(mn, Cons(k, Cons(stage, Nil))))
    }
    #[inline(always)]
    fn thr_val(t: usize, v: usize) -> usize {
        K::ThrVal::default().at(&Cons(t, Cons(v, Nil)))
    }
}

/// Row-major `m x k`, `k x n`, `m x n` operands, written by hand, for `Cta128`'s sizes.
struct ByHand {
    a: *const f32,
    b: *const f32,
    c: *mut f32,
    k: usize,
    n: usize,
}
impl Sizes for ByHand {
    const BM: usize = 128;
    const BN: usize = 128;
    const BK: usize = 8;
    const T: usize = 16;
    const V: usize = 8;
    const SMEM: usize = 2048;
    const ROWS: usize = 128;
}
impl Indexing for ByHand {
    #[inline(always)]
    fn a_elem(&self, ti: usize, tj: usize, r: usize, c: usize) -> *const f32 {
        self.a.wrapping_add((128 * ti + r) * self.k + 8 * tj + c)
    }
    #[inline(always)]
    fn b_elem(&self, ti: usize, tj: usize, r: usize, c: usize) -> *const f32 {
        self.b.wrapping_add((8 * ti + r) * self.n + 128 * tj + c)
    }
    type CTile = (*mut f32, usize);
    #[inline(always)]
    fn c_tile(&self, ti: usize, tj: usize) -> Self::CTile {
        (self.c.wrapping_add(128 * ti * self.n + 128 * tj), self.n)
    }
    #[inline(always)]
    fn c_elem(t: &Self::CTile, r: usize, c: usize) -> *mut f32 {
        t.0.wrapping_add(r * t.1 + c)
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

/// The sizes' conditions, checked when a tiling instantiates the kernel: the tiles agree
/// (`A` is `BM x BK`, `B` `BK x BN`), the threads' values cover `C`'s tile in 4-vectors, each
/// thread loads one 4-vector of `A`'s and of `B`'s tile a step, and the shared tiles fit the
/// arrays. `V` is the register arrays' length, which must be a constant of the function.
struct Checked<I, const V: usize>(PhantomData<I>);
impl<I: Indexing, const V: usize> Checked<I, V> {
    const SIZES: () = {
        assert!(V == I::V, "the accumulator arrays' length is the thread-value layout's values");
        assert!(I::T * I::V == I::BM && I::T * I::V == I::BN, "T x V threads' values cover the tile");
        assert!(V % 4 == 0 && I::BK % 4 == 0, "16-byte vectors of values and of k");
        assert!(I::BM * I::BK == 4 * I::T * I::T && I::BK * I::BN == 4 * I::T * I::T, "one 4-vector a thread a step");
        assert!(I::SMEM <= SMEM_CAPACITY, "the stages fit the arrays");
        assert!(I::ROWS <= I::BM, "the threads' rows (and columns) are inside the tile");
    };
}
/// Elements of each shared array.
const SMEM_CAPACITY: usize = <SmemA as CosizeConst>::COSIZE;

#[inline(always)]
unsafe fn sgemm<I: Indexing, const V: usize>(m: usize, n: usize, k: usize, ix: I) {
    #[allow(clippy::let_unit_value)]
    let () = Checked::<I, V>::SIZES;
    if n % 4 != 0 || k % 4 != 0 {
        panic!("N and K must be multiples of 4");
    }
    let (tx, ty) = thread_idx();
    let (bx, by) = block_idx();
    let tid = tx + I::T * ty;
    let (m0, n0) = (by * I::BM, bx * I::BN);
    let (sa, sb) = (smem_a(), smem_b());
    // Each thread loads one 4-vector of A's tile (row tid / (BK/4), k 4*(tid % (BK/4))) and one
    // of B's (k tid / (BN/4), n 4*(tid % (BN/4))) per BK step; out-of-range vectors are zeros.
    let (ar, ak) = (tid / (I::BK / 4), 4 * (tid % (I::BK / 4)));
    let (bk, bn) = (tid / (I::BN / 4), 4 * (tid % (I::BN / 4)));
    let load_a = |kt: usize| -> F4 {
        let (r, kk) = (m0 + ar, kt * I::BK + ak);
        // SAFETY: (r, kk..kk+4) inside A (k % 4 == 0).
        if r < m && kk < k {
            unsafe { (ix.a_elem(by, kt, ar, ak) as *const F4).read() }
        } else {
            F4::default()
        }
    };
    let load_b = |kt: usize| -> F4 {
        let (kk, col) = (kt * I::BK + bk, n0 + bn);
        // SAFETY: (kk, col..col+4) inside B (n % 4 == 0).
        if kk < k && col < n {
            unsafe { (ix.b_elem(kt, bx, bk, bn) as *const F4).read() }
        } else {
            F4::default()
        }
    };
    let store = |stage: usize, va: F4, vb: F4| {
        // SAFETY: (ar, ak..ak+4) and (bn..bn+4, bk) are inside the stage's `(BM, BK)` tile
        // (`Checked`: one 4-vector a thread), so their offsets are below the shared tiles'
        // cosize, which fits the arrays (`Checked`); 4-aligned for B's vector (`Tiling`'s
        // contract). Each is written by one thread; the stage is not read before the next
        // barrier. A's vector lands transposed.
        unsafe {
            for i in 0..4 {
                sa.store(I::shared(ar, ak + i, stage), va.0[i]);
            }
            sb.store4(I::shared(bn, bk, stage), vb);
        }
    };
    let mut acc = [[0.0f32; V]; V];
    let ktiles = k.div_ceil(I::BK);
    store(0, load_a(0), load_b(0));
    sync_threads();
    for kt in 0..ktiles {
        let stage = kt % 2;
        let next = kt + 1 < ktiles;
        let (va, vb) = if next { (load_a(kt + 1), load_b(kt + 1)) } else { (F4::default(), F4::default()) };
        for kk in 0..I::BK {
            let mut fa = [0.0f32; V];
            let mut fb = [0.0f32; V];
            for h in 0..V / 4 {
                // SAFETY: thr_val < ROWS <= BM (`Checked`; 4 consecutive rows from a multiple
                // of 4 for v = 4h: `Tiling`'s contract), so inside the stage's tile; the stage
                // was written before the last barrier.
                let (x, y) = unsafe {
                    (
                        sa.load4(I::shared(I::thr_val(ty, 4 * h), kk, stage)),
                        sb.load4(I::shared(I::thr_val(tx, 4 * h), kk, stage)),
                    )
                };
                fa[4 * h..4 * h + 4].copy_from_slice(&x.0);
                fb[4 * h..4 * h + 4].copy_from_slice(&y.0);
            }
            for i in 0..V {
                for j in 0..V {
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
    let tc = ix.c_tile(by, bx);
    for (i, row) in acc.iter().enumerate() {
        let r = I::thr_val(ty, i);
        for h in 0..V / 4 {
            let col = I::thr_val(tx, 4 * h);
            if m0 + r < m && n0 + col < n {
                let v = F4([row[4 * h], row[4 * h + 1], row[4 * h + 2], row[4 * h + 3]]);
                // SAFETY: (m0 + r, n0 + col..+4) inside C.
                unsafe { (I::c_elem(&tc, r, col) as *mut F4).write(v) };
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
    let (a, b, c) = (
        PtrTensor::new(a as *mut f32, layout!(({m},{k}):({k},1))),
        PtrTensor::new(b as *mut f32, layout!(({k},{n}):({n},1))),
        PtrTensor::new(c, layout!(({m},{n}):({n},1))),
    );
    // SAFETY: the caller's buffers hold m*k, k*n and m*n elements.
    unsafe { sgemm::<_, { values::<Cta128>() }>(m, n, k, Layouts::<_, _, _, Cta128>(a, b, c, PhantomData)) }
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
    unsafe { sgemm::<_, 8>(m, n, k, ByHand { a, b, c, k, n }) }
}

/// `sgemm_layouts` over static 4096x4096 row-major operands: every extent and stride a type.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn sgemm_static_4096(a: *const f32, b: *const f32, c: *mut f32) {
    type Square = Layout![(4096, 4096):(4096, 1)];
    let (a, b, c) = (
        PtrTensor::new(a as *mut f32, Square::default()),
        PtrTensor::new(b as *mut f32, Square::default()),
        PtrTensor::new(c, Square::default()),
    );
    // `k` through `black_box`: with a known trip count LLVM unrolls the k loop by 2, and the
    // bigger body schedules worse (3% slower on the H100); the layouts stay static.
    // SAFETY: the caller's buffers hold 4096 * 4096 elements each.
    unsafe {
        sgemm::<_, { values::<Cta128>() }>(
            4096,
            4096,
            core::hint::black_box(4096),
            Layouts::<_, _, _, Cta128>(a, b, c, PhantomData),
        )
    }
}

/// `sgemm_layouts` over row-major operands with run-time leading dimensions (`lda >= k`,
/// `ldb >= n`, `ldc >= n`, multiples of 4): sub-matrices of larger ones.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "ptx-kernel" fn sgemm_ld(
    m: usize,
    n: usize,
    k: usize,
    lda: usize,
    ldb: usize,
    ldc: usize,
    a: *const f32,
    b: *const f32,
    c: *mut f32,
) {
    let (a, b, c) = (
        PtrTensor::new(a as *mut f32, layout!(({m},{k}):({lda},1))),
        PtrTensor::new(b as *mut f32, layout!(({k},{n}):({ldb},1))),
        PtrTensor::new(c, layout!(({m},{n}):({ldc},1))),
    );
    // SAFETY: the caller's buffers hold the (m-1)*lda + k, (k-1)*ldb + n, (m-1)*ldc + n elements.
    unsafe { sgemm::<_, { values::<Cta128>() }>(m, n, k, Layouts::<_, _, _, Cta128>(a, b, c, PhantomData)) }
}

/// `sgemm_layouts` with the other tiling, `Cta128Blocked`.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn sgemm_blocked(
    m: usize,
    n: usize,
    k: usize,
    a: *const f32,
    b: *const f32,
    c: *mut f32,
) {
    let (a, b, c) = (
        PtrTensor::new(a as *mut f32, layout!(({m},{k}):({k},1))),
        PtrTensor::new(b as *mut f32, layout!(({k},{n}):({n},1))),
        PtrTensor::new(c, layout!(({m},{n}):({n},1))),
    );
    // SAFETY: the caller's buffers hold m*k, k*n and m*n elements.
    unsafe {
        sgemm::<_, { values::<Cta128Blocked>() }>(m, n, k, Layouts::<_, _, _, Cta128Blocked>(a, b, c, PhantomData))
    }
}

/// `sgemm_layouts` with other sizes, `Cta64`: 64x64 block tiles, a `k` step of 16, 4x4 values a
/// thread; grid `(ceil(n/64), ceil(m/64))`, blocks of 16x16 threads.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn sgemm_cta64(m: usize, n: usize, k: usize, a: *const f32, b: *const f32, c: *mut f32) {
    let (a, b, c) = (
        PtrTensor::new(a as *mut f32, layout!(({m},{k}):({k},1))),
        PtrTensor::new(b as *mut f32, layout!(({k},{n}):({n},1))),
        PtrTensor::new(c, layout!(({m},{n}):({n},1))),
    );
    // SAFETY: the caller's buffers hold m*k, k*n and m*n elements.
    unsafe { sgemm::<_, { values::<Cta64>() }>(m, n, k, Layouts::<_, _, _, Cta64>(a, b, c, PhantomData)) }
}
