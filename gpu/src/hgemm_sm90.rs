//! Hopper HGEMM, `C = A · Bᵀ`: `A` (`m x k`) and `B` (`n x k`) fp16 and K-major (row-major),
//! `C` (`m x n`) fp16 row-major, fp32 accumulation. The block computes a 128x256 tile of `C`
//! with three warpgroups:
//!
//! * a producer (warpgroup 0, 40 registers after `setmaxnreg.dec`): one thread issues the TMA
//!   loads of each 128x64 `A` and 256x64 `B` k-tile into a 4-stage shared-memory ring, each
//!   stage's `full` mbarrier expecting the 48 KiB of its two boxes;
//! * two consumers (warpgroups 1, 2, 232 registers after `setmaxnreg.inc`): each waits on a
//!   stage's `full` barrier, issues four `wgmma.mma_async m64n256k16` on its 64 rows (one per
//!   16 of k), keeps one group in flight, and frees the previous stage on its `empty` barrier.
//!
//! The shared ring is `tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>, (128,64,4))` for `A`
//! and `(256,64,4)` for `B` (`tiles`): the TMA's 128-byte swizzle writes exactly that layout
//! (the host derives each tensor map from it, `cute-gpu-host`), and each `wgmma`'s operand
//! descriptor is the layout's (64,16) or (256,16) tile at `(row, k, stage)`, computed by the
//! type checker (`GmmaTile`). The epilogue stores each accumulator at the `C` coordinate the
//! `m64n256` accumulator layout (CuTe's `CLayout_64x256`) gives it, through `C`'s layout.
//! Ragged `m`, `n`, `k`: the TMA fills the boxes' out-of-bounds elements with zeros, and the
//! stores are predicated. `k` must be a multiple of 8 (TMA's 16-byte global strides).
//!
//! Blocks take their tiles in groups of `group` row tiles (the raster, a layout), one tile a
//! block or, with a smaller grid, every `gridDim`-th (persistent: the ring runs on across
//! tiles). `hgemm_sm90_bf16` is the same body for bfloat16.
//!
//! `hgemm_sm90` takes its addresses from layouts; `hgemm_sm90_by_hand` is the same kernel with
//! them written out, its twin in `scripts/gpu/ptx_guard.py`.

use cute_static::gmma::GmmaTile;
use cute_static::typenum::U16;
use cute_static::layout::Idx2Crd;
use cute_static::{layout, shape, tiler, Cons, Nil};

use crate::sm90::*;
use crate::{block_idx, grid_dim, sync_threads, thread_idx, tile_elem, PtrTensor};

pub mod tiles;
use tiles::*;

/// `$body` once for each listed constant `$j`: a loop the compiler must unroll.
macro_rules! unrolled {
    ($j:ident in [$($n:literal)*] $body:block) => {
        $({
            let $j: usize = $n;
            $body
        })*
    };
}

/// The ring's bytes. The launch gives the block `tiles::SMEM_BYTES`: the ring, 1 KiB to align
/// it to the 128-byte swizzle's 1024-byte period, and the barriers.
const RING: u32 = STAGES as u32 * (STAGE_A + STAGE_B);

/// Where the kernel's addresses come from: layouts, or the same arithmetic by hand.
trait Indexing {
    /// Byte offset of stage `s` in the `A` ring, and in the `B` ring.
    fn stage_a(s: usize) -> u32;
    fn stage_b(s: usize) -> u32;
    /// The descriptor of consumer `w`'s 64x16 `A` tile at k-step `kk` of stage `s`, the ring
    /// at shared address `base`.
    fn desc_a(base: u32, w: usize, kk: usize, s: usize) -> u64;
    /// The descriptor of the 256x16 `B` tile at k-step `kk` of stage `s`.
    fn desc_b(base: u32, kk: usize, s: usize) -> u64;
    /// The (row, column) of warpgroup thread `t`'s first accumulator in the warpgroup's 64x256
    /// tile, and the offset of accumulator `v` from it: the accumulator layout's thread and
    /// value parts occupy disjoint bits of the tile's index, so the two add
    /// (`cute-gpu-host`'s tests check it on every (thread, value)).
    fn acc_thread(t: usize) -> (usize, usize);
    fn acc_value(v: usize) -> (usize, usize);
    /// The block tile `(ti, tj)` of `C` that block `pid` computes: blocks run through groups of
    /// `group` row tiles, the row tile fastest, so that the blocks running at once share the
    /// rows of `A` and the columns of `B` they read (through L2).
    fn block_tile_of(pid: usize, group: usize, n_tiles: usize, groups: usize) -> (usize, usize);
    /// Element `(r, col)` of `C`'s 128x256 block tile `(ti, tj)`.
    fn c_elem(c: *mut u16, m: usize, n: usize, ti: usize, tj: usize, r: usize, col: usize) -> *mut u16;
    /// The offset of `(r, col)` from `(0, 0)` in a tile of `C`.
    fn c_offset(n: usize, r: usize, col: usize) -> usize;
}

struct Layouts;
impl Indexing for Layouts {
    #[inline(always)]
    fn stage_a(s: usize) -> u32 {
        (2 * SmemA::default().call_coord(&shape!((0, 0, { s })))) as u32
    }
    #[inline(always)]
    fn stage_b(s: usize) -> u32 {
        (2 * SmemB::default().call_coord(&shape!((0, 0, { s })))) as u32
    }
    #[inline(always)]
    fn desc_a(base: u32, w: usize, kk: usize, s: usize) -> u64 {
        GmmaTile::<_, _, cute_static::gmma::K, U16>::gmma_desc_of_tile(SmemA::default(), tiler!(<64,16>), &Cons(w, Cons(kk, Cons(s, Nil))), base)
    }
    #[inline(always)]
    fn desc_b(base: u32, kk: usize, s: usize) -> u64 {
        GmmaTile::<_, _, cute_static::gmma::K, U16>::gmma_desc_of_tile(SmemB::default(), tiler!(<256,16>), &Cons(0usize, Cons(kk, Cons(s, Nil))), base)
    }
    #[inline(always)]
    fn acc_thread(t: usize) -> (usize, usize) {
        // (thread, value) -> the column-major index of the 64x256 tile -> its coordinate.
        let Cons(r, Cons(c, Nil)) = layout!((64, 256):(1, 64)).idx2crd(AccLayout::default().call_coord(&shape!(({ t }, 0))));
        (r, c)
    }
    #[inline(always)]
    fn acc_value(v: usize) -> (usize, usize) {
        let Cons(r, Cons(c, Nil)) = layout!((64, 256):(1, 64)).idx2crd(AccLayout::default().call_coord(&shape!((0, { v }))));
        (r, c)
    }
    #[inline(always)]
    fn block_tile_of(pid: usize, group: usize, n_tiles: usize, groups: usize) -> (usize, usize) {
        // The raster is the layout (group, n_tiles, groups) -> pid, column-major; a block's
        // coordinate is its inverse, idx2crd.
        let Cons(i, Cons(j, Cons(g, Nil))) = shape!(({ group }, { n_tiles }, { groups })).idx2crd(pid);
        (layout!(({ group }, 1):(1, { group })).call_coord(&shape!(({ i }, { g }))), j)
    }
    #[inline(always)]
    fn c_elem(c: *mut u16, m: usize, n: usize, ti: usize, tj: usize, r: usize, col: usize) -> *mut u16 {
        tile_elem(&PtrTensor::new(c, layout!(({m},{n}):({n},1))), shape!((128, 256)), ti, tj, r, col)
    }
    #[inline(always)]
    fn c_offset(n: usize, r: usize, col: usize) -> usize {
        layout!((128, 256):({n}, 1)).call_coord(&shape!(({ r }, { col })))
    }
}

struct ByHand;
impl Indexing for ByHand {
    #[inline(always)]
    fn stage_a(s: usize) -> u32 {
        s as u32 * (BM * BK * 2) as u32
    }
    #[inline(always)]
    fn stage_b(s: usize) -> u32 {
        s as u32 * (BN * BK * 2) as u32
    }
    #[inline(always)]
    fn desc_a(base: u32, w: usize, kk: usize, s: usize) -> u64 {
        // SW128 K-major: 8-row core groups 1024 bytes apart (SBO), LBO 1 (unused), a k-step
        // 32 bytes into the 128-byte row; the start address in 16-byte units.
        let start = base + s as u32 * (BM * BK * 2) as u32 + w as u32 * 64 * 128 + kk as u32 * 32;
        (1u64 << 62) | ((1024u64 >> 4) << 32) | (1u64 << 16) | u64::from((start >> 4) & 0x3fff)
    }
    #[inline(always)]
    fn desc_b(base: u32, kk: usize, s: usize) -> u64 {
        let start = base + s as u32 * (BN * BK * 2) as u32 + kk as u32 * 32;
        (1u64 << 62) | ((1024u64 >> 4) << 32) | (1u64 << 16) | u64::from((start >> 4) & 0x3fff)
    }
    #[inline(always)]
    fn acc_thread(t: usize) -> (usize, usize) {
        let (warp, lane) = (t / 32, t % 32);
        (16 * warp + lane / 4, 2 * (lane % 4))
    }
    #[inline(always)]
    fn acc_value(v: usize) -> (usize, usize) {
        (8 * (v / 2 % 2), 8 * (v / 4) + v % 2)
    }
    #[inline(always)]
    fn block_tile_of(pid: usize, group: usize, n_tiles: usize, _: usize) -> (usize, usize) {
        let (i, rest) = (pid % group, pid / group);
        (group * (rest / n_tiles) + i, rest % n_tiles)
    }
    #[inline(always)]
    fn c_elem(c: *mut u16, _: usize, n: usize, ti: usize, tj: usize, r: usize, col: usize) -> *mut u16 {
        c.wrapping_add((BM * ti + r) * n + BN * tj + col)
    }
    #[inline(always)]
    fn c_offset(n: usize, r: usize, col: usize) -> usize {
        r * n + col
    }
}

/// `C (m x n) = A (m x k) · B (n x k)ᵀ`; a 1-D grid of `group * ceil(ceil(m/128) / group) *
/// ceil(n/256)` blocks (`group` row tiles side by side; blocks past `m` return), 384 threads,
/// `tiles::SMEM_BYTES` of dynamic shared memory; `map_a`, `map_b` the tensor maps of `A` and
/// `B` (in global memory) with boxes 64x128 and 64x256, 128-byte swizzle.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn hgemm_sm90(m: usize, n: usize, k: usize, group: usize, map_a: *const u8, map_b: *const u8, c: *mut u16) {
    // SAFETY: the caller's maps describe A and B; C holds m*n halves.
    unsafe { body::<Layouts, F16, 1>(m, n, k, group, map_a, map_b, c) }
}

/// `hgemm_sm90` in clusters of 2 blocks (`.reqnctapercluster 2`, added by `build.sh`): the
/// two blocks take row tiles `2u` and `2u + 1` beside each other and share their `B` tiles,
/// each loading half (a 64x128 box, `map_b` encoded for a multicast to 2) into both blocks.
/// The grid is an even number of blocks; `group` counts pairs of row tiles. Exact, and level
/// with `hgemm_sm90` since the stages' remote releases arrive at the default scope (the cluster
/// scope put `MEMBAR.ALL.GPU` before each and halved it; docs/gpu.md, measured on an H200).
#[no_mangle]
pub unsafe extern "ptx-kernel" fn hgemm_sm90_cluster(m: usize, n: usize, k: usize, group: usize, map_a: *const u8, map_b: *const u8, c: *mut u16) {
    // SAFETY: as `hgemm_sm90`.
    unsafe { body::<Layouts, F16, 2>(m, n, k, group, map_a, map_b, c) }
}

/// `hgemm_sm90` for bfloat16 `A`, `B`, `C` (the maps' data type bfloat16).
#[no_mangle]
pub unsafe extern "ptx-kernel" fn hgemm_sm90_bf16(m: usize, n: usize, k: usize, group: usize, map_a: *const u8, map_b: *const u8, c: *mut u16) {
    // SAFETY: as `hgemm_sm90`.
    unsafe { body::<Layouts, Bf16, 1>(m, n, k, group, map_a, map_b, c) }
}

/// The same kernel with its addresses written by hand.
#[no_mangle]
pub unsafe extern "ptx-kernel" fn hgemm_sm90_by_hand(m: usize, n: usize, k: usize, group: usize, map_a: *const u8, map_b: *const u8, c: *mut u16) {
    // SAFETY: as `hgemm_sm90`.
    unsafe { body::<ByHand, F16, 1>(m, n, k, group, map_a, map_b, c) }
}

#[inline(always)]
unsafe fn body<I: Indexing, E: Element16, const CL: usize>(
    m: usize,
    n: usize,
    k: usize,
    group: usize,
    map_a: *const u8,
    map_b: *const u8,
    c: *mut u16,
) {
    if group == 0 || m == 0 || n == 0 {
        // Nothing to compute (and no raster to divide by).
        return;
    }
    let (tid, _) = thread_idx();
    // The unit of work is a cluster's CL row tiles side by side (one each), which share their
    // tile of B: each block loads 1/CL of it and multicasts it to the cluster.
    let (rank, (first_tile, grid)) =
        if CL > 1 { (cluster_ctarank(), cluster_id()) } else { (0, (block_idx().0, grid_dim())) };
    let (n_tiles, groups) = (n.div_ceil(BN), m.div_ceil(BM * CL).div_ceil(group));
    let tiles = groups * group * n_tiles;
    let wg = tid / 128;
    // The ring at the first 1024-byte boundary of the window, the barriers after it.
    let ring = (dynamic_smem() + 1023) & !1023;
    let (ring_a, ring_b) = (ring, ring + STAGES as u32 * STAGE_A);
    let full = |s: usize| ring + RING + 8 * s as u32;
    let empty = |s: usize| ring + RING + 8 * (STAGES + s) as u32;
    if tid == 0 {
        for s in 0..STAGES {
            // SAFETY: the barriers' own 8-byte words; the block barrier below publishes them.
            unsafe {
                mbarrier_init(full(s), 1);
                mbarrier_init(empty(s), (CONSUMERS * CL) as u32);
            }
        }
    }
    if CL > 1 {
        // Every block's barriers initialized before any multicast or remote arrive reaches them.
        cluster_sync();
    } else {
        sync_threads();
    }
    // A stage is free once every consumer of the cluster has released it (each block's copy
    // of B is written by every block's producer).
    let release = |s: usize| {
        for cta in 0..CL {
            // SAFETY: an initialized barrier in every block, which waits at the final cluster
            // barrier before it exits.
            unsafe {
                if CL > 1 {
                    mbarrier_arrive_cluster(empty(s), cta as u32);
                } else {
                    mbarrier_arrive(empty(s));
                }
            }
        }
    };
    let ktiles = k.div_ceil(BK);
    // The block's tiles: first_tile, then every grid-th (one each when the grid covers them all;
    // a persistent grid of one block per SM takes turns). The ring runs on across tiles: its
    // uses are counted from the block's first k-tile, so the producer fills the next tile's
    // stages while the consumers store the last one.
    if wg == 0 {
        setmaxnreg_dec::<40>();
        if tid == 0 {
            let mut used = 0usize;
            let mut tile = first_tile;
            while tile < tiles {
                let (unit, bx) = I::block_tile_of(tile, group, n_tiles, groups);
                let by = CL * unit + rank;
                tile += grid;
                if CL * unit * BM >= m {
                    continue; // the last group's row tiles past m (the whole cluster's)
                }
                for kt in 0..ktiles {
                    let s = used % STAGES;
                    let round = (used / STAGES) as u32;
                    used += 1;
                    // SAFETY: initialized barriers; each stage's boxes fit its slots of the ring
                    // (1024-byte aligned), the maps are the caller's.
                    unsafe {
                        if round > 0 {
                            // Both consumers have released the stage's previous use.
                            mbarrier_wait(empty(s), (round - 1) & 1);
                        }
                        mbarrier_arrive_expect_tx(full(s), STAGE_A + STAGE_B);
                        tma_load_2d(ring_a + I::stage_a(s), map_a, full(s), (kt * BK) as i32, (by * BM) as i32);
                        if CL > 1 {
                            // This block's 1/CL of the stage's B tile, to every block.
                            let part = BN / CL;
                            let dst = ring_b + I::stage_b(s) + (rank * part * BK * 2) as u32;
                            let mask = ((1u32 << CL) - 1) as u16;
                            tma_load_2d_multicast(dst, map_b, full(s), (kt * BK) as i32, (bx * BN + rank * part) as i32, mask);
                        } else {
                            tma_load_2d(ring_b + I::stage_b(s), map_b, full(s), (kt * BK) as i32, (bx * BN) as i32);
                        }
                    }
                }
            }
        }
        if CL > 1 {
            cluster_sync();
        }
        return;
    }
    setmaxnreg_inc::<232>();
    let w = wg - 1;
    let t = tid % 128;
    let mut used = 0usize;
    let mut tile = first_tile;
    while tile < tiles {
        let (unit, bx) = I::block_tile_of(tile, group, n_tiles, groups);
        let by = CL * unit + rank;
        tile += grid;
        if CL * unit * BM >= m {
            continue;
        }
        let mut acc = [0.0f32; 128];
        for kt in 0..ktiles {
            let s = used % STAGES;
            // SAFETY: an initialized barrier; the stage's tiles are the TMA's once it flips.
            unsafe { mbarrier_wait(full(s), (used / STAGES) as u32 & 1) };
            used += 1;
            wgmma_fence();
            for kk in 0..BK / 16 {
                // SAFETY: every thread of the warpgroup, the same descriptors of this stage,
                // which no one writes before this warpgroup frees it below.
                unsafe { E::wgmma_m64n256k16(&mut acc, I::desc_a(ring_a, w, kk, s), I::desc_b(ring_b, kk, s)) };
            }
            wgmma_commit();
            // The previous k-tile's group is done: its stage may be refilled.
            wgmma_wait::<1>(&mut acc);
            if kt > 0 && t == 0 {
                release((used - 2) % STAGES);
            }
        }
        wgmma_wait::<0>(&mut acc);
        if ktiles > 0 && t == 0 {
            // The tile's last stage is free too.
            release((used - 1) % STAGES);
        }
        let (m0, n0) = (by * BM + 64 * w, bx * BN);
        let (r0, c0) = I::acc_thread(t);
        // The thread's first accumulator's element of C; the others are offsets from it.
        let first = I::c_elem(c, m, n, by, bx, 64 * w + r0, c0);
        // Unrolled by the macro (64 copies), so each accumulator index is a constant and the
        // accumulators stay in registers (a loop would index them and move them to local memory).
        unrolled!(j in [0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
            32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63] {
            let v = 2 * j;
            let (dr, dc) = I::acc_value(v);
            let (r, col) = (r0 + dr, c0 + dc);
            if m0 + r < m && n0 + col < n {
                let p = first.wrapping_add(I::c_offset(n, dr, dc));
                let packed = E::pack(acc[v], acc[v + 1]);
                // SAFETY: stores inside C: (r, col) is in range, and (r, col + 1) is when n is
                // even (4-byte aligned), else stored alone if in range.
                unsafe {
                    if n % 2 == 0 {
                        (p as *mut u32).write(packed);
                    } else {
                        p.write(packed as u16);
                        if n0 + col + 1 < n {
                            p.add(1).write((packed >> 16) as u16);
                        }
                    }
                }
            }
        });
    }
    if CL > 1 {
        // No block exits while another may still multicast into it or arrive on its barriers.
        cluster_sync();
    }
}
