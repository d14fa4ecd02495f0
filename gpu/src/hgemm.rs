//! HGEMM on tensor cores, `C = A · B` with `A`, `B`, `C` fp16 row-major and fp32 accumulation:
//! `mma.sync.aligned.m16n8k16`, fragments loaded with `ldmatrix` (`.trans` for `B`), a 3-stage
//! `cp.async` pipeline of 128x128x32 block tiles, and swizzled shared tiles so that `ldmatrix`
//! and the 16-byte `cp.async` writes are free of bank conflicts:
//!
//! | tile | layout (halves) | why |
//! |---|---|---|
//! | `A` stage | `Sw<2,3,3> o 0 o (128,32):(32,1)` | a row is 64 bytes: rows r and r+2 share banks; the swizzle moves 16-byte chunk `c` of row `r` to `c ^ (r/2 % 4)` |
//! | `B` stage | `Sw<3,3,4> o 0 o (32,128):(128,1)` | a row is 256 bytes: 8 rows of one chunk share banks; chunk `c` of row `r` goes to `c ^ (r % 8)` |
//!
//! 8 warps (2 x 4) each own a 64x32 block of `C`: 4 x 4 `m16n8` accumulators. Any `M`; `N` and
//! `K` multiples of 8 (16-byte `cp.async` chunks); out-of-range chunks are zero-filled by
//! `cp.async`'s source size, out-of-range stores skipped.
//!
//! The kernel is written once, over its operands' pointer tensors and a [`Tiling`] (block tiles,
//! the swizzled shared tiles, the warps' layout over the block tile), one bound per operation;
//! its sizes are the tiling's (warp tiles of `BM/WM x BN/WN`, `m16n8k16` accumulators over
//! them, the chunks each thread copies). `hgemm` (run-time extents) and `hgemm_static_4096`
//! (static operands) instantiate it with the 128x128x32 tiling above; `hgemm_cta128x64` with
//! 128x64x32 tiles of 2 x 2 warps (`B`'s 128-byte rows swizzled by `Sw<3,3,3>`).
//!
//! `hgemm` takes every address from a layout, and its stage loads are CuTe's `copy_if` of two
//! tiled copies (`cute_atom::algorithm::copy_if`, the atom `SM80_CP_ASYNC_CACHEGLOBAL_ZFILL`:
//! each thread's 16-byte chunks are the copy's thread-value layout, predicated on the matrix's
//! extents, their swizzled destinations checked consecutive and aligned by the compiler);
//! `hgemm_by_hand` is the same kernel with the same addresses and loops written out (the
//! swizzles as CuTe's xor of shifted bits), the twin whose PTX and SASS the layout kernel is
//! held to (`scripts/gpu/ptx_guard.py`, `scripts/gpu/run.py --sass`).

use core::marker::PhantomData;

use cute_static::copy::{SM75_U16x8_LDSM_T, SM75_U32x4_LDSM_N, TiledCopy, SM80_CP_ASYNC_CACHEGLOBAL_ZFILL};
use cute_static::layout::Sizes as Extents;
use cute_static::product::ConstLayout;
use cute_static::typenum::{P3, P4, U0, U2, U3, U8};
use cute_static::{layout, ComposedLayout, Cons, Layout, LayoutAt, Nil, PtrAddr, PtrLocalTile, Shape, Swizzle, Tiler};

use cute_atom::algorithm::{copy_if, copy_to_fragment, CopyOperand, TiledCopyCall};
use cute_atom::arch::copy::{cp_async_cg16 as cp_async16, cp_async_commit, cp_async_wait, cvt_f16x2, ldmatrix_x4};
use cute_atom::atom::MmaCall;
use cute_atom::{shared_array, SmemTensor};
use cute_static::gmma::K;
use cute_static::mma::{SM80_16x8x16_F32F16F16F32_TN, TiledMma};

use crate::{block_idx, block_tile, sync_threads, thread_idx, tile_elem, PtrTensor};

/// Pipeline depth.
pub const STAGES: usize = 3;

type TileA = Layout![(128,32):(32,1)];
type TileB = Layout![(32,128):(128,1)];
type SwA = Swizzle<U2, U3, P3>;
type SwB = Swizzle<U3, U3, P4>;
/// Halves per stage of each shared array: a tiling's stage tiles fit it (checked at compile
/// time in `hgemm_body`).
const STAGE: usize = <TileA as Extents>::SIZE;

shared_array!(fn smem_a: STAGES * STAGE * 2, align 128 as "HGEMM_A");
shared_array!(fn smem_b: STAGES * STAGE * 2, align 128 as "HGEMM_B");

/// `d = a · b + d` for one `m16n8k16` tile: the atom `SM80_16x8x16_F32F16F16F32_TN`.
#[inline(always)]
fn mma(d: &mut [f32; 4], a: &[u32; 4], b: [u32; 2]) {
    // SAFETY: every lane of the warp executes it (the kernel's loops are warp-uniform).
    unsafe { SM80_16x8x16_F32F16F16F32_TN::call::<K, K>(d, *a, b, 1) }
}

/// The kernel's tiling, as layouts: the block tiles of `A`, `B`, `C` (shapes), the swizzled
/// shared tiles of a stage and the warps' shape over the block tile (warp `w` at its
/// column-major coordinate). The loops' sizes are theirs ([`Sizes`], read with `cute_static::layout::Sizes`), their conditions checked
/// at compile time.
///
/// # Safety
/// `SmemA` maps each `(r, c)` of the `BM x BK` tile to a distinct offset below `BM * BK`, and
/// `SmemB` each of the `BK x BN` tile below `BK * BN`, 8 consecutive columns from a multiple of
/// 8 to 8 consecutive offsets from a multiple of 8 (the 16-byte chunks `cp.async` writes and
/// `ldmatrix` reads): a compact row-major tile, swizzled at 16-byte granularity or coarser, is.
pub unsafe trait Tiling {
    /// Block tile shapes: `(BM, BK)` of `A`, `(BK, BN)` of `B`, `(BM, BN)` of `C`.
    type CtaA: Default + Copy + Extents;
    type CtaB: Default + Copy + Extents;
    type CtaC: Default + Copy + Extents;
    /// A stage of the shared `A` (`BM x BK`) and `B` (`BK x BN`) tiles, in halves.
    type SmemA: LayoutAt<Crd2> + ConstLayout + Default + Copy + Extents;
    type SmemB: LayoutAt<Crd2> + ConstLayout + Default + Copy + Extents;
    /// The warps, `(WM, WN)`: each owns a `BM/WM x BN/WN` block of `C`.
    type Warps: Extents;
    /// The block's `cp.async` copies of a stage: 16-byte chunks of `A`'s and `B`'s tiles.
    type CopyA: Default;
    type CopyB: Default;
}

/// The tiling of `hgemm`: the swizzles of the table above, 2 x 4 warps.
pub struct Cta128x128x32;
// SAFETY: compact row-major 128x32 and 32x128 tiles, swizzles that move 16-byte chunks (the
// table above) within the tile.
unsafe impl Tiling for Cta128x128x32 {
    type CtaA = Shape![(128, 32)];
    type CtaB = Shape![(32, 128)];
    type CtaC = Shape![(128, 128)];
    type SmemA = ComposedLayout<SwA, U0, TileA>;
    type SmemB = ComposedLayout<SwB, U0, TileB>;
    type Warps = Shape![(2, 4)];
    type CopyA = Chunks<Layout![(64,4):(4,1)]>;
    type CopyB = Chunks<Layout![(16,16):(16,1)]>;
}

/// The `m16n8` accumulator tiles of a warp's block, `(MI, NJ)`: the tiling's block tile over
/// its warps, over the atom's `M x N` (the kernel's register arrays).
const fn atoms<K: Tiling>() -> (usize, usize) {
    let [m, n, _] = SM80_16x8x16_F32F16F16F32_TN::SHAPE_MNK;
    let (c, w) = (<K::CtaC as Extents>::MODES, <K::Warps as Extents>::MODES);
    (c[0] / w[0] / m, c[1] / w[1] / n)
}

/// The MMA atom over one warp, its tile 16x16x16 (two atoms along N): `ldmatrix.x4` loads a
/// 16x16 block of A or of B for it.
type Warp = TiledMma<SM80_16x8x16_F32F16F16F32_TN, Layout![(1,1,1):(0,0,0)], Tiler![<16, 16, 16>]>;

/// 16-byte `cp.async` chunks (8 halves, zero-filled outside the matrix) by threads laid out
/// row-major over a tile's chunks.
type Chunks<Threads> = TiledCopy<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<U8>, Threads, Layout![(1,8):(0,1)]>;

/// 128x64x32 block tiles of 2 x 2 warps (128 threads): `A`'s stage as above, `B`'s rows of 64
/// halves (128 bytes, 8 chunks) swizzled by `Sw<3,3,3>` (chunk `c` of row `r` to `c ^ (r % 8)`:
/// `ldmatrix.trans` and the `cp.async` writes conflict-free).
pub struct Cta128x64x32;
// SAFETY: as `Cta128x128x32`'s; B's `Sw<3,3,3>` moves 16-byte chunks within each 8 rows of
// its compact 32x64 tile.
unsafe impl Tiling for Cta128x64x32 {
    type CtaA = Shape![(128, 32)];
    type CtaB = Shape![(32, 64)];
    type CtaC = Shape![(128, 64)];
    type SmemA = ComposedLayout<SwA, U0, TileA>;
    type SmemB = ComposedLayout<Swizzle<U3, U3, P3>, U0, Layout![(32,64):(64,1)]>;
    type Warps = Shape![(2, 2)];
    type CopyA = Chunks<Layout![(32,4):(4,1)]>;
    type CopyB = Chunks<Layout![(16,8):(8,1)]>;
}

/// The sizes the kernel's loops run over: from a tiling's layouts, or written by hand.
trait Sizes {
    /// The block tile.
    const BM: usize;
    /// The block tile.
    const BN: usize;
    /// The `k` step.
    const BK: usize;
    /// Warps along `m` and along `n`.
    const WM: usize;
    const WN: usize;
    /// Threads of a block.
    const THREADS: usize = 32 * Self::WM * Self::WN;
}

type Crd2 = Cons<usize, Cons<usize, Nil>>;

/// Where the kernel's addresses and sizes come from: layouts, or the same arithmetic by hand.
trait Indexing: Sizes {
    /// Thread `tid`'s `cp.async` chunks of block tiles `(by, kt)` of `A` and `(kt, bx)` of `B`
    /// into stage `stage` of the shared arrays at `bases`; chunks outside the `m x k`
    /// and `k x n` matrices are zero-filled.
    ///
    /// # Safety
    /// The stage's tiles are this block's, not read before the copies' wait and a barrier;
    /// `n` and `k` are multiples of 8.
    unsafe fn load(
        &self,
        tid: usize,
        tile: (usize, usize, usize),
        mnk: (usize, usize, usize),
        stage: usize,
        bases: (u32, u32),
    );
    /// Element `(r, c)` of block tile `(ti, tj)` of `C` (128x128 tiles).
    fn c_elem(&self, ti: usize, tj: usize, r: usize, col: usize) -> *mut u16;
    /// Lane `lane`'s fragment of 16x16 block `(i, kk)` of the `A` stage at shared address `sa`
    /// (rows `16 i..`, columns `16 kk..`), as the MMA atom reads it: `ldmatrix.x4`.
    ///
    /// # Safety
    /// Every lane of the warp calls it, together; the block is inside the stage.
    unsafe fn fragment_a(lane: usize, sa: u32, block: (usize, usize)) -> [u32; 4];
    /// Lane `lane`'s fragments of 16x16 block `(j, kk)` of the `B` stage at `sb` (columns
    /// `16 j..`, rows `16 kk..`): its two `n8` tiles (`ldmatrix.x4.trans`).
    ///
    /// # Safety
    /// As [`fragment_a`](Self::fragment_a).
    unsafe fn fragment_b(lane: usize, sb: u32, block: (usize, usize)) -> [[u32; 2]; 2];
    /// The `(m, n)` of accumulator `e` of lane `lane` in the atom's 16x8 tile (its C layout).
    fn acc(lane: usize, e: usize) -> (usize, usize);
}

/// The operands as pointer tensors of any layouts and a tiling: one bound per operation.
struct Layouts<PA, PB, PC, K>(PA, PB, PC, PhantomData<K>);
impl<PA, PB, PC, K: Tiling> Sizes for Layouts<PA, PB, PC, K> {
    const BM: usize = <K::CtaC as Extents>::MODES[0];
    const BN: usize = <K::CtaC as Extents>::MODES[1];
    const BK: usize = <K::CtaA as Extents>::MODES[1];
    const WM: usize = <K::Warps as Extents>::MODES[0];
    const WN: usize = <K::Warps as Extents>::MODES[1];
}
impl<PA, PB, PC, K> Indexing for Layouts<PA, PB, PC, K>
where
    K: Tiling,
    // local_tile of A, B, C, and an element's address in C's tile.
    PA: PtrLocalTile<K::CtaA>,
    PB: PtrLocalTile<K::CtaB>,
    PC: PtrLocalTile<K::CtaC>,
    PC::Output: PtrAddr<Crd2, Elem = u16>,
    // The copies of a stage, from A's and B's block tiles to the shared tiles.
    K::CopyA: TiledCopyCall<PA::Output, SmemTensor<u16, K::SmemA>>,
    K::CopyB: TiledCopyCall<PB::Output, SmemTensor<u16, K::SmemB>>,
    PA::Output: CopyOperand,
    PB::Output: CopyOperand,
{
    // `#[inline]`, not `always`: inlined late, after its own simplification, LLVM hoists the
    // swizzled offsets out of the k loop; inlined early it computed them again at each of the
    // three call sites (+6.6% PTX).
    #[inline]
    unsafe fn load(
        &self,
        tid: usize,
        (by, bx, kt): (usize, usize, usize),
        (m, n, k): (usize, usize, usize),
        stage: usize,
        (sa, sb): (u32, u32),
    ) {
        let (m0, n0, k0) = (by * Self::BM, bx * Self::BN, kt * Self::BK);
        let (sa, sb) = (sa + 2 * (stage * STAGE) as u32, sb + 2 * (stage * STAGE) as u32);
        let (ga, gb) = (
            block_tile(self.0.local_tile(K::CtaA::default(), &[by, kt])),
            block_tile(self.1.local_tile(K::CtaB::default(), &[kt, bx])),
        );
        let (sa, sb) = (
            SmemTensor::<u16, K::SmemA>::new(sa, Default::default()),
            SmemTensor::<u16, K::SmemB>::new(sb, Default::default()),
        );
        // SAFETY: the caller's promise; a chunk is read only inside the matrix (the
        // predicate), 16-byte aligned there (`k`, `n` multiples of 8).
        unsafe {
            copy_if(&K::CopyA::default(), tid, |r, c| m0 + r < m && k0 + c < k, &ga, &sa);
            copy_if(&K::CopyB::default(), tid, |r, c| k0 + r < k && n0 + c < n, &gb, &sb);
        }
    }
    #[inline(always)]
    fn c_elem(&self, ti: usize, tj: usize, r: usize, col: usize) -> *mut u16 {
        tile_elem(&self.2, K::CtaC::default(), ti, tj, r, col)
    }
    #[inline(always)]
    unsafe fn fragment_a(lane: usize, sa: u32, block: (usize, usize)) -> [u32; 4] {
        // The `SM75_U32x4_LDSM_N` copy of the warp MMA's A (`make_tiled_copy_A`).
        let (copy, mut f) = (Warp::default().make_tiled_copy_a::<SM75_U32x4_LDSM_N>(), [0; 4]);
        let tile = SmemTensor::<u16, K::SmemA>::new(sa, Default::default()).local_tile::<16, 16>(block);
        // SAFETY: the caller's promise; rows consecutive and aligned (checked by `copy_to_fragment`).
        unsafe { copy_to_fragment(&copy, lane, &tile, &mut f) };
        f
    }
    #[inline(always)]
    unsafe fn fragment_b(lane: usize, sb: u32, block: (usize, usize)) -> [[u32; 2]; 2] {
        // `SM75_U16x8_LDSM_T` of B, CuTe's `(n, k)`: the `(k, n)` stage transposed.
        let (copy, mut f) = (Warp::default().make_tiled_copy_b::<SM75_U16x8_LDSM_T>(), [[0; 2]; 2]);
        let tile = SmemTensor::<u16, K::SmemB>::new(sb, Default::default()).local_tile_t::<16, 16>(block);
        // SAFETY: as `fragment_a`'s.
        unsafe { copy_to_fragment(&copy, lane, &tile, &mut f) };
        f
    }
    #[inline(always)]
    fn acc(lane: usize, e: usize) -> (usize, usize) {
        SM80_16x8x16_F32F16F16F32_TN::c_coord(lane, e)
    }
}

/// Row-major operands, written by hand, for `Cta128x128x32`'s sizes.
struct ByHand {
    a: *const u16,
    b: *const u16,
    c: *mut u16,
    k: usize,
    n: usize,
}
impl Sizes for ByHand {
    const BM: usize = 128;
    const BN: usize = 128;
    const BK: usize = 32;
    const WM: usize = 2;
    const WN: usize = 4;
}
impl Indexing for ByHand {
    // `#[inline]`, as the layout kernel's.
    #[inline]
    unsafe fn load(
        &self,
        tid: usize,
        (by, bx, kt): (usize, usize, usize),
        (m, n, k): (usize, usize, usize),
        stage: usize,
        (base_a, base_b): (u32, u32),
    ) {
        let (m0, n0) = (by * Self::BM, bx * Self::BN);
        let at_a = |r: usize, c: usize| base_a + 2 * (stage * STAGE + Self::smem_a(r, c)) as u32;
        let at_b = |r: usize, c: usize| base_b + 2 * (stage * STAGE + Self::smem_b(r, c)) as u32;
        let a_elem =
            |ti: usize, tj: usize, r: usize, c: usize| self.a.wrapping_add((128 * ti + r) * self.k + 32 * tj + c);
        let b_elem =
            |ti: usize, tj: usize, r: usize, c: usize| self.b.wrapping_add((32 * ti + r) * self.n + 128 * tj + c);
        let k0 = kt * Self::BK;
        // Each thread copies whole 16-byte chunks of each tile: A's BM x BK tile has BK/8
        // chunks a row, B's BK x BN tile BN/8; the last tile of a ragged matrix reaches past
        // it, and its chunks are zero-filled.
        for j in 0..Self::BM * Self::BK / 8 / Self::THREADS {
            let q = tid + Self::THREADS * j;
            let (r, c) = (q / (Self::BK / 8), 8 * (q % (Self::BK / 8)));
            let ok = m0 + r < m && k0 + c < k;
            let src = if ok { a_elem(by, kt, r, c) } else { a_elem(0, 0, 0, 0) };
            // SAFETY: an aligned chunk inside the stage; src in A when ok (k % 8 == 0).
            unsafe { cp_async16(at_a(r, c), src, ok) };
        }
        for j in 0..Self::BK * Self::BN / 8 / Self::THREADS {
            let q = tid + Self::THREADS * j;
            let (r, c) = (q / (Self::BN / 8), 8 * (q % (Self::BN / 8)));
            let ok = k0 + r < k && n0 + c < n;
            let src = if ok { b_elem(kt, bx, r, c) } else { b_elem(0, 0, 0, 0) };
            // SAFETY: as above (n % 8 == 0).
            unsafe { cp_async16(at_b(r, c), src, ok) };
        }
    }
    #[inline(always)]
    unsafe fn fragment_a(lane: usize, sa: u32, (i, kk): (usize, usize)) -> [u32; 4] {
        // Row `lane % 8` of matrix `lane / 8`; the matrices are the 16x16 block's quarters,
        // column-major.
        let (r, c) = (16 * i + lane % 8 + 8 * (lane / 8 % 2), 16 * kk + 8 * (lane / 16));
        // SAFETY: the caller's promise.
        unsafe { ldmatrix_x4::<false>(sa + 2 * Self::smem_a(r, c) as u32) }
    }
    #[inline(always)]
    unsafe fn fragment_b(lane: usize, sb: u32, (j, kk): (usize, usize)) -> [[u32; 2]; 2] {
        // Matrices 0,1 are the first n8 tile, 2,3 the second.
        let (r, c) = (16 * kk + lane % 8 + 8 * (lane / 8 % 2), 16 * j + 8 * (lane / 16));
        // SAFETY: the caller's promise.
        let x = unsafe { ldmatrix_x4::<true>(sb + 2 * Self::smem_b(r, c) as u32) };
        [[x[0], x[1]], [x[2], x[3]]]
    }
    #[inline(always)]
    fn acc(lane: usize, e: usize) -> (usize, usize) {
        (lane / 4 + 8 * (e / 2), 2 * (lane % 4) + e % 2)
    }
    #[inline(always)]
    fn c_elem(&self, ti: usize, tj: usize, r: usize, col: usize) -> *mut u16 {
        self.c.wrapping_add((128 * ti + r) * self.n + 128 * tj + col)
    }
}
impl ByHand {
    /// Offset (halves) of `(r, c)` in a stage of the swizzled `A` tile.
    #[inline(always)]
    fn smem_a(r: usize, c: usize) -> usize {
        // Sw<2,3,3>: bits [6,8) xor-ed into bits [3,5).
        let o = 32 * r + c;
        o ^ ((o & 0xC0) >> 3)
    }
    /// Offset (halves) of `(r, c)` in a stage of the swizzled `B` tile.
    #[inline(always)]
    fn smem_b(r: usize, c: usize) -> usize {
        // Sw<3,3,4>: bits [7,10) xor-ed into bits [3,6).
        let o = 128 * r + c;
        o ^ ((o & 0x380) >> 4)
    }
}

/// `C (m x n, fp16) = A (m x k) · B (k x n)`; grid `(ceil(n/128), ceil(m/128))`, 256 threads.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn hgemm(m: usize, n: usize, k: usize, a: *const u16, b: *const u16, c: *mut u16) {
    let (a, b, c) = (
        PtrTensor::new(a as *mut u16, layout!(({m},{k}):({k},1))),
        PtrTensor::new(b as *mut u16, layout!(({k},{n}):({n},1))),
        PtrTensor::new(c, layout!(({m},{n}):({n},1))),
    );
    // SAFETY: the caller's buffers hold m*k, k*n and m*n halves.
    unsafe {
        hgemm_body::<_, { atoms::<Cta128x128x32>().0 }, { atoms::<Cta128x128x32>().1 }>(
            m,
            n,
            k,
            Layouts::<_, _, _, Cta128x128x32>(a, b, c, PhantomData),
        )
    }
}

/// The same kernel with its addresses written by hand.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn hgemm_by_hand(
    m: usize,
    n: usize,
    k: usize,
    a: *const u16,
    b: *const u16,
    c: *mut u16,
) {
    // SAFETY: as `hgemm`.
    unsafe { hgemm_body::<_, 4, 4>(m, n, k, ByHand { a, b, c, k, n }) }
}

/// The sizes' conditions, checked when a tiling instantiates the kernel: the tiles agree, the
/// warps' blocks are whole `m16n8` tiles (`MI x NJ` of them, the register arrays' lengths,
/// constants of the function), `B`'s fragments come in pairs of `n8` tiles (`ldmatrix .x4`),
/// the chunks divide among the threads, and a stage fits the arrays.
struct Checked<I, const MI: usize, const NJ: usize>(PhantomData<I>);
impl<I: Indexing, const MI: usize, const NJ: usize> Checked<I, MI, NJ> {
    const SIZES: () = {
        assert!(I::BM == I::WM * 16 * MI && I::BN == I::WN * 8 * NJ, "the warps' blocks are MI x NJ m16n8 tiles");
        assert!(NJ % 2 == 0 && I::BK % 16 == 0, "B's fragments in pairs of n8 tiles, k in steps of 16");
        assert!(
            (I::BM * I::BK / 8) % I::THREADS == 0 && (I::BK * I::BN / 8) % I::THREADS == 0,
            "whole chunks a thread"
        );
        assert!(I::BM * I::BK <= STAGE && I::BK * I::BN <= STAGE, "a stage fits the arrays");
    };
}

#[inline(always)]
unsafe fn hgemm_body<I: Indexing, const MI: usize, const NJ: usize>(m: usize, n: usize, k: usize, ix: I) {
    #[allow(clippy::let_unit_value)]
    let () = Checked::<I, MI, NJ>::SIZES;
    if n % 8 != 0 || k % 8 != 0 {
        panic!("N and K must be multiples of 8");
    }
    let (tid, _) = thread_idx();
    let (bx, by) = block_idx();
    let (m0, n0) = (by * I::BM, bx * I::BN);
    let (warp, lane) = (tid / 32, tid % 32);
    // Warp `warp` at its column-major coordinate in the (WM, WN) warps.
    let (wm, wn) = (16 * MI * (warp % I::WM), 8 * NJ * (warp / I::WM));
    let (base_a, base_b) = (smem_a(), smem_b());

    let load = |stage: usize, kt: usize| {
        // SAFETY: the stage is free (the ring's barriers below); n, k multiples of 8 (checked above).
        unsafe { ix.load(tid, (by, bx, kt), (m, n, k), stage, (base_a, base_b)) };
    };

    let mut acc = [[[0.0f32; 4]; NJ]; MI];
    let ktiles = k.div_ceil(I::BK);
    for s in 0..STAGES - 1 {
        if s < ktiles {
            load(s, s);
        }
        cp_async_commit();
    }
    for kt in 0..ktiles {
        cp_async_wait::<1>();
        sync_threads();
        // The stage read at kt - 1 is free now (every warp passed the barrier): refill it.
        if kt + STAGES - 1 < ktiles {
            load((kt + STAGES - 1) % STAGES, kt + STAGES - 1);
        }
        cp_async_commit();
        let stage = (kt % STAGES * STAGE * 2) as u32;
        let (sa, sb) = (base_a + stage, base_b + stage);
        for kk in 0..I::BK / 16 {
            let mut fa = [[0u32; 4]; MI];
            let mut fb = [[0u32; 2]; NJ];
            for (i, f) in fa.iter_mut().enumerate() {
                // SAFETY: warp-uniform; inside the stage's A tile (rows < BM, columns < BK).
                *f = unsafe { I::fragment_a(lane, sa, (wm / 16 + i, kk)) };
            }
            for j in 0..NJ / 2 {
                // SAFETY: as above, inside the stage's B tile.
                [fb[2 * j], fb[2 * j + 1]] = unsafe { I::fragment_b(lane, sb, (wn / 16 + j, kk)) };
            }
            for i in 0..MI {
                for j in 0..NJ {
                    mma(&mut acc[i][j], &fa[i], fb[j]);
                }
            }
        }
    }
    // Accumulator (i, j) element e: the atom's (m, n) of (lane, e), plus the warp's and the
    // atom's origin in the block's tile of C; elements 2h and 2h + 1 are neighbours in a row
    // (the host's tests check the atom's C layout against the PTX ISA's fragment).
    for (i, row) in acc.iter().enumerate() {
        for (j, d) in row.iter().enumerate() {
            for h in 0..2 {
                let (am, an) = I::acc(lane, 2 * h);
                let (r, col) = (wm + 16 * i + am, wn + 8 * j + an);
                if m0 + r < m && n0 + col < n {
                    let packed = cvt_f16x2(d[2 * h], d[2 * h + 1]);
                    // SAFETY: a 4-byte store inside C (n even).
                    unsafe { (ix.c_elem(by, bx, r, col) as *mut u32).write(packed) };
                }
            }
        }
    }
}

/// `hgemm` over static 4096x4096 row-major operands: every extent and stride a type.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn hgemm_static_4096(a: *const u16, b: *const u16, c: *mut u16) {
    type Square = Layout![(4096, 4096):(4096, 1)];
    let (a, b, c) = (
        PtrTensor::new(a as *mut u16, Square::default()),
        PtrTensor::new(b as *mut u16, Square::default()),
        PtrTensor::new(c, Square::default()),
    );
    // `k` static too, so LLVM unrolls the k loop by 2 (400 SASS instructions, not 520). Through
    // `black_box` (a run-time trip count) the kernel ran 3.1% slower than the PTX of b2db2f7,
    // level with it unrolled (H100, `scripts/gpu/hgemm_variants.py`, docs/gpu.md).
    // SAFETY: the caller's buffers hold 4096 * 4096 halves each.
    unsafe {
        hgemm_body::<_, { atoms::<Cta128x128x32>().0 }, { atoms::<Cta128x128x32>().1 }>(
            4096,
            4096,
            4096,
            Layouts::<_, _, _, Cta128x128x32>(a, b, c, PhantomData),
        )
    }
}

/// `hgemm` with other sizes, `Cta128x64x32`: grid `(ceil(n/64), ceil(m/128))`, 128 threads.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn hgemm_cta128x64(
    m: usize,
    n: usize,
    k: usize,
    a: *const u16,
    b: *const u16,
    c: *mut u16,
) {
    let (a, b, c) = (
        PtrTensor::new(a as *mut u16, layout!(({m},{k}):({k},1))),
        PtrTensor::new(b as *mut u16, layout!(({k},{n}):({n},1))),
        PtrTensor::new(c, layout!(({m},{n}):({n},1))),
    );
    // SAFETY: the caller's buffers hold m*k, k*n and m*n halves.
    unsafe {
        hgemm_body::<_, { atoms::<Cta128x64x32>().0 }, { atoms::<Cta128x64x32>().1 }>(
            m,
            n,
            k,
            Layouts::<_, _, _, Cta128x64x32>(a, b, c, PhantomData),
        )
    }
}
