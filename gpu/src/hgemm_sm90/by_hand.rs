//! `hgemm_sm90`'s hand-indexed twin: the same kernel (fp16, one block a cluster) with every
//! address, descriptor and accumulator coordinate written out by hand, and the instructions
//! called one by one from `cute_atom::arch`. The reference the layout kernel's PTX is held to
//! (`scripts/gpu/ptx_guard.py`); kept as it was written before the atom layer. With `TMA_EPI`,
//! `hgemm_sm90_tma_epi`'s twin: the epilogue through shared memory with its `stmatrix`
//! addresses, swizzle and TMA store coordinates written out.

use cute_atom::arch::barrier::{
    cluster_sync, mbarrier_arrive, mbarrier_arrive_cluster, mbarrier_arrive_expect_tx, mbarrier_init, mbarrier_wait,
    named_barrier_sync,
};
use cute_atom::arch::copy::{cvt_f16x2, stmatrix_x4};
use cute_atom::arch::thread::{cluster_ctarank, cluster_id, dynamic_smem, setmaxnreg_dec, setmaxnreg_inc};
use cute_atom::arch::tma::{fence_proxy_async, load_2d, load_2d_multicast, store_2d, store_commit, store_wait_read};
use cute_atom::arch::wgmma::{self, Accumulators};
use cute_static::gmma::K;

use super::tiles::*;
use crate::{block_idx, grid_dim, sync_threads, thread_idx};

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

/// Where the kernel's addresses come from (the twin's, by hand).
trait Indexing {
    fn stage_a(s: usize) -> u32;
    fn stage_b(s: usize) -> u32;
    fn desc_a(base: u32, w: usize, kk: usize, s: usize) -> u64;
    fn desc_b(base: u32, kk: usize, s: usize) -> u64;
    fn acc_thread(t: usize) -> (usize, usize);
    fn acc_value(v: usize) -> (usize, usize);
    fn block_tile_of(pid: usize, group: usize, n_tiles: usize, groups: usize) -> (usize, usize);
    fn c_elem(c: *mut u16, m: usize, n: usize, ti: usize, tj: usize, r: usize, col: usize) -> *mut u16;
    fn c_offset(n: usize, r: usize, col: usize) -> usize;
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

/// The hand-indexed kernel.
#[inline(always)]
pub unsafe fn by_hand(m: usize, n: usize, k: usize, group: usize, map_a: *const u8, map_b: *const u8, c: *mut u16) {
    // SAFETY: the caller's promise.
    unsafe { body::<ByHand, 1, false>(m, n, k, group, map_a, map_b, (c, core::ptr::null())) }
}

/// The hand-indexed kernel whose epilogue goes through shared memory (`map_c`: `C`'s tensor
/// map, 64x64 boxes, 128-byte swizzle).
#[inline(always)]
pub unsafe fn tma_epi_by_hand(
    m: usize,
    n: usize,
    k: usize,
    group: usize,
    map_a: *const u8,
    map_b: *const u8,
    map_c: *const u8,
) {
    // SAFETY: the caller's promise.
    unsafe { body::<ByHand, 1, true>(m, n, k, group, map_a, map_b, (core::ptr::null_mut(), map_c)) }
}

#[inline(always)]
unsafe fn body<I: Indexing, const CL: usize, const TMA_EPI: bool>(
    m: usize,
    n: usize,
    k: usize,
    group: usize,
    map_a: *const u8,
    map_b: *const u8,
    (c, map_c): (*mut u16, *const u8),
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
        // SAFETY: every thread of every block of the cluster, once here.
        unsafe { cluster_sync() };
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
        // SAFETY: the whole producer warpgroup.
        unsafe { setmaxnreg_dec::<40>() };
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
                        load_2d(ring_a + I::stage_a(s), map_a, full(s), [(kt * BK) as i32, (by * BM) as i32]);
                        if CL > 1 {
                            // This block's 1/CL of the stage's B tile, to every block.
                            let part = BN / CL;
                            let dst = ring_b + I::stage_b(s) + (rank * part * BK * 2) as u32;
                            let mask = ((1u32 << CL) - 1) as u16;
                            load_2d_multicast(
                                dst,
                                map_b,
                                full(s),
                                [(kt * BK) as i32, (bx * BN + rank * part) as i32],
                                mask,
                            );
                        } else {
                            load_2d(ring_b + I::stage_b(s), map_b, full(s), [(kt * BK) as i32, (bx * BN) as i32]);
                        }
                    }
                }
            }
        }
        if CL > 1 {
            // SAFETY: every thread of every block of the cluster, once here.
            unsafe { cluster_sync() };
        }
        return;
    }
    // SAFETY: the whole consumer warpgroup.
    unsafe { setmaxnreg_inc::<232>() };
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
            // SAFETY: every thread of the warpgroup.
            unsafe { wgmma::fence() };
            for kk in 0..BK / 16 {
                // SAFETY: every thread of the warpgroup, the same descriptors of this stage,
                // which no one writes before this warpgroup frees it below.
                unsafe {
                    wgmma::m64n256k16_f32_f16_f16_ss::<K, K>(
                        &mut acc,
                        I::desc_a(ring_a, w, kk, s),
                        I::desc_b(ring_b, kk, s),
                        1,
                    )
                };
            }
            // SAFETY: every thread of the warpgroup.
            unsafe {
                wgmma::commit_group();
                // The previous k-tile's group is done: its stage may be refilled.
                wgmma::wait_group::<1>();
            }
            acc.fence_operands();
            if kt > 0 && t == 0 {
                release((used - 2) % STAGES);
            }
        }
        // SAFETY: every thread of the warpgroup.
        unsafe { wgmma::wait_group::<0>() };
        acc.fence_operands();
        if ktiles > 0 && t == 0 {
            // The tile's last stage is free too.
            release((used - 1) % STAGES);
        }
        if TMA_EPI {
            // Two 64x64 tiles of 8 KiB a consumer, 1024-byte aligned after the ring and its
            // barriers.
            let buffers = (ring + RING + 16 * STAGES as u32 + 1023) & !1023;
            // SAFETY: the whole warpgroup; its two tiles are its own; map_c is C's.
            unsafe { store_through_smem(&acc, buffers + w as u32 * 2 * 64 * 128, w, t, 2 * by + w, bx, map_c) };
            continue;
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
                let packed = cvt_f16x2(acc[v], acc[v + 1]);
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
    if TMA_EPI && t == 0 {
        // The stores' reads of the tiles complete before the block's shared memory goes.
        store_wait_read::<0>();
    }
    if CL > 1 {
        // No block exits while another may still multicast into it or arrive on its barriers.
        // SAFETY: every thread of every block of the cluster, once here.
        unsafe { cluster_sync() };
    }
}

/// Consumer `w`'s epilogue through shared memory, by hand: its 64 rows of `C` (row tile
/// `row` of 64 rows), 64 columns at a time, into one of its two 64x64 tiles of 128-byte rows
/// (`buffers`, `+ 8192`) with `stmatrix.x4`, then one TMA store by thread 0.
///
/// `stmatrix.x4` of 16-column group `g` takes registers 8g + 2i, +1 (packed) as matrix `i`:
/// rows 0-7 (`i` even) or 8-15 of the warp's 16, columns 0-7 (`i` < 2) or 8-15 of the group;
/// lane `l` gives the address of row `l % 8` of matrix `l / 8`. The tile's 16-byte chunk `q` of
/// row `r` lies at chunk `q ^ (r % 8)` (the 128-byte swizzle, bits 4-6 of the byte offset
/// xor-ed with bits 7-9).
///
/// # Safety
/// Every thread of warpgroup `w`, together; `buffers` is two 8 KiB tiles of this block's
/// shared memory, 1024-byte aligned, no one else uses; `map_c` is `C`'s map with 64x64 boxes.
#[inline(always)]
unsafe fn store_through_smem(
    acc: &[f32; 128],
    buffers: u32,
    w: usize,
    t: usize,
    row: usize,
    bx: usize,
    map_c: *const u8,
) {
    let (warp, lane) = (t / 32, t % 32);
    let r = 16 * warp + 8 * (lane / 8 % 2) + lane % 8;
    unrolled!(chunk in [0 1 2 3] {
        let buffer = buffers + (chunk % 2) as u32 * 64 * 128;
        // SAFETY: the warpgroup's threads together; barrier 1 + w is this consumer's own
        // (128 threads); the tile is rewritten once the store two chunks back has read it.
        unsafe {
            if t == 0 {
                store_wait_read::<1>();
            }
            if w == 0 {
                named_barrier_sync::<1, 128>();
            } else {
                named_barrier_sync::<2, 128>();
            }
        }
        unrolled!(g in [0 1 2 3] {
            let v = 32 * chunk + 8 * g;
            let regs = [
                cvt_f16x2(acc[v], acc[v + 1]),
                cvt_f16x2(acc[v + 2], acc[v + 3]),
                cvt_f16x2(acc[v + 4], acc[v + 5]),
                cvt_f16x2(acc[v + 6], acc[v + 7]),
            ];
            let q = 2 * g + lane / 16;
            // SAFETY: a 16-byte row of the tile, 16-byte aligned.
            unsafe { stmatrix_x4::<false>(buffer + (r * 128 + ((q ^ (r % 8)) * 16)) as u32, regs) };
        });
        fence_proxy_async();
        // SAFETY: as above.
        unsafe {
            if w == 0 {
                named_barrier_sync::<1, 128>();
            } else {
                named_barrier_sync::<2, 128>();
            }
            if t == 0 {
                store_2d(map_c, buffer, [(64 * (4 * bx + chunk)) as i32, (64 * row) as i32]);
                store_commit();
            }
        }
    });
}
