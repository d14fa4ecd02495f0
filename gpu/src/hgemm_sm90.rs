//! Hopper HGEMM, `C = A · Bᵀ`, written in CuTe's words on `cute-atom`: `A` (`m x k`) and `B`
//! (`n x k`) fp16 or bf16 and K-major (row-major), `C` (`m x n`) of the same type, row-major,
//! fp32 accumulation. The block computes a 128x256 tile of `C` with three warpgroups:
//!
//! * a producer (warpgroup 0, 40 registers after `setmaxnreg.dec`): one thread acquires each
//!   stage of the [`Pipeline`] (a 4-stage TMA → MMA ring) and issues its two TMA copy atoms,
//!   `A`'s 128x64 and `B`'s 256x64 k-tiles; the stage's barrier expects what the copies
//!   deliver, computed by the compiler from the stages' tiles;
//! * two consumers (warpgroups 1, 2, 232 registers after `setmaxnreg.inc`), the slices of a
//!   [`TiledWgmma`] of `SM90_64x256x16` atoms over the block's 128 rows: each waits for a
//!   stage, `gemm`s it (one atom a k-block of 16, the descriptors read off the stage's
//!   layouts), keeps one group in flight and releases the stage before.
//!
//! The shared stages are `tile_to_shape(GMMA::Layout_K_SW128_Atom<T>, (128,64))` for `A` and
//! `(256,64)` for `B` (`tiles`): the TMA's 128-byte swizzle writes exactly that layout (the host
//! derives each tensor map from it, `cute-gpu-host`). The accumulators are the atom's fragment
//! (`[f32; size<1>(CLayout)]`), and the epilogue stores each at the `C` coordinate the atom's C
//! layout gives it, through `C`'s layout. Ragged `m`, `n`, `k`: the TMA fills the boxes'
//! out-of-bounds elements with zeros, and the stores are predicated. `k` must be a multiple of
//! 8 (TMA's 16-byte global strides; the host checks it).
//!
//! Blocks take their tiles in groups of `group` row tiles (the raster, a layout), one tile a
//! block or, with a smaller grid, every `gridDim`-th (persistent: the ring runs on across
//! tiles). `hgemm_sm90_cluster` pairs blocks in clusters of 2 that multicast `B`;
//! `hgemm_sm90_bf16` is the same body for bfloat16; `*_tma_epi` store `C` through shared
//! memory; `fp8_gemm_sm90*` are the same body over e4m3 operands (byte stages with a k-tile of
//! 128, `k32` atoms, bf16 `C`); `*_pingpong` give each consumer warpgroup its own 64x256 tile,
//! taken in turn (one's epilogue beside the other's main loop). The body is generic over its
//! copies, atom, output element, cluster and consumers a stage, so each kernel is a line.
//!
//! No inline assembly here: the instructions are `cute_atom`'s. `hgemm_sm90_by_hand` is the same
//! kernel with its addresses written out, its twin in `scripts/gpu/ptx_guard.py`.

use cute_atom::algorithm::{copy_from_fragment, warpgroup_wait, TiledWgmma, WgmmaOperands};
use cute_atom::arch::barrier::{cluster_sync, named_barrier_arrive, named_barrier_sync};
use cute_atom::arch::thread::{cluster_ctarank, cluster_id, dynamic_smem, setmaxnreg_dec, setmaxnreg_inc};
use cute_atom::arch::tma::{fence_proxy_async, store_commit, store_wait_read};
use cute_atom::atom::{Accumulators, Bf16, Element16, MmaCall, TmaCopy, F16};
use cute_atom::pipeline::{PipelineState, PipelineTmaAsync};
use cute_atom::SmemTensor;
use cute_static::gmma::K;
use cute_static::mma::{
    MmaAtom, SM90_64x256x16_F32BF16BF16_SS, SM90_64x256x16_F32F16F16_SS, SM90_64x256x32_F32E4M3E4M3_SS_TN,
};
use cute_static::{layout, shape};

use crate::{block_idx, grid_dim, sync_threads, thread_idx, tile_elem, PtrTensor};

pub mod by_hand;
pub mod tiles;
use tiles::*;

/// A kernel of the signature every variant shares, `(m, n, k, group, map_a, map_b, c)`, whose
/// body is `$body`.
macro_rules! hgemm_kernel {
    ($(#[$doc:meta])* $name:ident => $body:expr) => {
        $(#[$doc])*
        #[no_mangle]
        pub unsafe extern "ptx-kernel" fn $name(m: usize, n: usize, k: usize, group: usize, map_a: *const u8, map_b: *const u8, c: *mut u16) {
            let body: unsafe fn(usize, usize, usize, usize, *const u8, *const u8, *mut u16) = $body;
            // SAFETY: the caller's maps describe A and B (their element type the kernel's);
            // C holds m*n elements.
            unsafe { body(m, n, k, group, map_a, map_b, c) }
        }
    };
}

hgemm_kernel! {
    /// `C (m x n) = A (m x k) · B (n x k)ᵀ`; a 1-D grid of `group * ceil(ceil(m/128) / group) *
    /// ceil(n/256)` blocks (`group` row tiles side by side; blocks past `m` return), 384 threads,
    /// `tiles::SMEM_BYTES` of dynamic shared memory; `map_a`, `map_b` the tensor maps of `A` and
    /// `B` (in global memory) with boxes 64x128 and 64x256, 128-byte swizzle.
    hgemm_sm90 => stores::<SM90_64x256x16_F32F16F16_SS, LoadA, LoadB, F16, 1>
}

hgemm_kernel! {
    /// `hgemm_sm90` in clusters of 2 blocks (`.reqnctapercluster 2`, added by `build.sh`): the
    /// two blocks take row tiles `2u` and `2u + 1` beside each other and share their `B` tiles,
    /// each loading half (a 64x128 box, `map_b` encoded for it) into both blocks
    /// ([`LoadBMulticast`]). The grid is an even number of blocks; `group` counts pairs of row tiles.
    hgemm_sm90_cluster => stores::<SM90_64x256x16_F32F16F16_SS, LoadA, LoadBMulticast, F16, 2>
}

hgemm_kernel! {
    /// `hgemm_sm90` for bfloat16 `A`, `B`, `C` (the maps' data type bfloat16).
    hgemm_sm90_bf16 => stores::<SM90_64x256x16_F32BF16BF16_SS, LoadA, LoadB, Bf16, 1>
}

hgemm_kernel! {
    /// The same kernel with its addresses written by hand.
    hgemm_sm90_by_hand => by_hand::by_hand
}

/// A kernel whose epilogue goes through shared memory, `(m, n, k, group, map_a, map_b, map_c)`,
/// of atom `$atom`, `A` copied by `$copy_a` and `B` by `$copy_b` into clusters of `$cl`, `C` of
/// element `$out`, each stage read by `$cons` consumer warpgroups (2: cooperative; 1:
/// ping-pong, when a consumer's tile is its own; `CONSUMERS` unless said).
macro_rules! tma_epi_kernel {
    ($(#[$doc:meta])* $name:ident => fn $f:path) => {
        $(#[$doc])*
        #[no_mangle]
        pub unsafe extern "ptx-kernel" fn $name(m: usize, n: usize, k: usize, group: usize, map_a: *const u8, map_b: *const u8, map_c: *const u8) {
            // SAFETY: the caller's maps describe A, B and C.
            unsafe { $f(m, n, k, group, map_a, map_b, map_c) }
        }
    };
    ($(#[$doc:meta])* $name:ident => $atom:ty, $copy_a:ty, $copy_b:ty, $out:ty, $cl:literal) => {
        tma_epi_kernel!($(#[$doc])* $name => $atom, $copy_a, $copy_b, $out, $cl, CONSUMERS);
    };
    ($(#[$doc:meta])* $name:ident => $atom:ty, $copy_a:ty, $copy_b:ty, $out:ty, $cl:literal, $cons:expr) => {
        $(#[$doc])*
        #[no_mangle]
        pub unsafe extern "ptx-kernel" fn $name(m: usize, n: usize, k: usize, group: usize, map_a: *const u8, map_b: *const u8, map_c: *const u8) {
            // SAFETY: the caller's maps describe A, B (their element type the atom's) and C
            // (`$out`).
            unsafe { body::<$atom, $copy_a, $copy_b, $out, $cl, $cons, true>(m, n, k, group, map_a, map_b, (core::ptr::null_mut(), map_c)) }
        }
    };
}

tma_epi_kernel! {
    /// `hgemm_sm90` whose epilogue goes through shared memory: each consumer warpgroup writes its
    /// accumulators, 64 columns at a time, into a swizzled 64x64 tile with `stmatrix`, and one of
    /// its threads stores the tile with TMA (`map_c`, `C`'s tensor map with 64x64 boxes, 128-byte
    /// swizzle), two tiles a warpgroup in flight. `tiles::SMEM_BYTES_TMA_EPI` of dynamic shared
    /// memory; otherwise as `hgemm_sm90`.
    hgemm_sm90_tma_epi => SM90_64x256x16_F32F16F16_SS, LoadA, LoadB, F16, 1
}

tma_epi_kernel! {
    /// `hgemm_sm90_tma_epi` with its addresses written by hand (its twin in `ptx_guard.py`).
    hgemm_sm90_tma_epi_by_hand => fn by_hand::tma_epi_by_hand
}

tma_epi_kernel! {
    /// `hgemm_sm90_tma_epi` for bfloat16 `A`, `B`, `C` (the maps' data type bfloat16).
    hgemm_sm90_bf16_tma_epi => SM90_64x256x16_F32BF16BF16_SS, LoadA, LoadB, Bf16, 1
}

tma_epi_kernel! {
    /// `hgemm_sm90_tma_epi` in clusters of 2 blocks that multicast `B`, as `hgemm_sm90_cluster`.
    hgemm_sm90_tma_epi_cluster => SM90_64x256x16_F32F16F16_SS, LoadA, LoadBMulticast, F16, 2
}

tma_epi_kernel! {
    /// `hgemm_sm90_tma_epi_cluster` for bfloat16 `A`, `B`, `C`.
    hgemm_sm90_bf16_tma_epi_cluster => SM90_64x256x16_F32BF16BF16_SS, LoadA, LoadBMulticast, Bf16, 2
}

tma_epi_kernel! {
    /// `hgemm_sm90_tma_epi` in 1x2 clusters (CUTLASS's `ClusterShape<_1,_2,_1>`): the two blocks
    /// take column tiles `2u` and `2u + 1` of one row tile and share its `A` tiles, each loading
    /// half (a 64x64 box, `map_a` encoded for it) into both ([`LoadAMulticast`]); each loads its
    /// own `B`. `group` counts row tiles.
    hgemm_sm90_tma_epi_cluster1x2 => SM90_64x256x16_F32F16F16_SS, LoadAMulticast, LoadB, F16, 2
}

tma_epi_kernel! {
    /// `hgemm_sm90_tma_epi_cluster1x2` for bfloat16 `A`, `B`, `C`.
    hgemm_sm90_bf16_tma_epi_cluster1x2 => SM90_64x256x16_F32BF16BF16_SS, LoadAMulticast, LoadB, Bf16, 2
}

hgemm_kernel! {
    /// `C (bf16) = A · Bᵀ` of 8-bit floats (e4m3) `A` and `B`, K-major, fp32 accumulation:
    /// the same body with `SM90_64x256x32_F32E4M3E4M3_SS_TN` atoms over 128x128 and 256x128
    /// byte stages (`tiles::Stage8A`, `Stage8B`: a k-tile of 128, one 128-byte row); `map_a`,
    /// `map_b` with boxes 128x128 and 128x256 of `uint8`, 128-byte swizzle. `c` is bfloat16
    /// (`u16` bits). `k` a multiple of 16 (TMA's 16-byte strides).
    fp8_gemm_sm90 => stores::<SM90_64x256x32_F32E4M3E4M3_SS_TN, Load8A, Load8B, Bf16, 1>
}

tma_epi_kernel! {
    /// `fp8_gemm_sm90` whose epilogue goes through shared memory, as `hgemm_sm90_tma_epi`
    /// (`map_c` bfloat16).
    fp8_gemm_sm90_tma_epi => SM90_64x256x32_F32E4M3E4M3_SS_TN, Load8A, Load8B, Bf16, 1
}

tma_epi_kernel! {
    /// `fp8_gemm_sm90_tma_epi` in clusters of 2 blocks that multicast `B` (half a 256x128 byte
    /// stage each), as `hgemm_sm90_tma_epi_cluster`.
    fp8_gemm_sm90_tma_epi_cluster => SM90_64x256x32_F32E4M3E4M3_SS_TN, Load8A, Load8BMulticast, Bf16, 2
}

tma_epi_kernel! {
    /// `fp8_gemm_sm90_tma_epi` in 1x2 clusters that multicast `A` (half a 128x128 byte stage
    /// each), as `hgemm_sm90_tma_epi_cluster1x2`.
    fp8_gemm_sm90_tma_epi_cluster1x2 => SM90_64x256x32_F32E4M3E4M3_SS_TN, Load8AMulticast, Load8B, Bf16, 2
}

tma_epi_kernel! {
    /// `hgemm_sm90_tma_epi` with ping-pong consumers (CUTLASS's `KernelTmaWarpSpecializedPingpong`):
    /// the block's tiles are 64x256, and its two consumer warpgroups take them in turn, each a
    /// whole tile, so that one's epilogue runs beside the other's main loop. The producer fills
    /// the ring in the tiles' order; a consumer lets the other's stages pass (one warpgroup
    /// releases a stage: the ring's `CONSUMERS` is 1). `map_a`'s box is 64x64
    /// (`tiles::StagePpA`); `tiles::SMEM_BYTES_PP` of dynamic shared memory.
    hgemm_sm90_pingpong => SM90_64x256x16_F32F16F16_SS, LoadPpA, LoadB, F16, 1, 1
}

tma_epi_kernel! {
    /// `hgemm_sm90_pingpong` for bfloat16 `A`, `B`, `C`.
    hgemm_sm90_bf16_pingpong => SM90_64x256x16_F32BF16BF16_SS, LoadPpA, LoadB, Bf16, 1, 1
}

tma_epi_kernel! {
    /// `fp8_gemm_sm90_tma_epi` with ping-pong consumers, as `hgemm_sm90_pingpong` (`map_a`'s
    /// box 128x64 bytes, `tiles::Stage8PpA`).
    fp8_gemm_sm90_pingpong => SM90_64x256x32_F32E4M3E4M3_SS_TN, Load8PpA, Load8B, Bf16, 1, 1
}

/// The kernels whose epilogue stores from registers.
#[inline(always)]
unsafe fn stores<Atom, CopyA, CopyB, Out, const CL: usize>(
    m: usize,
    n: usize,
    k: usize,
    group: usize,
    map_a: *const u8,
    map_b: *const u8,
    c: *mut u16,
) where
    Atom: WgmmaOperands<CopyA::Tile, CopyB::Tile, K, K> + MmaAtom<CLayout = AccLayout>,
    CopyA: TmaCopy + Default,
    CopyB: TmaCopy + Default,
    Out: Element16,
{
    // SAFETY: the caller's promise.
    unsafe {
        body::<Atom, CopyA, CopyB, Out, CL, CONSUMERS, false>(m, n, k, group, map_a, map_b, (c, core::ptr::null()))
    }
}

/// The kernels' one body: `A` copied by `CopyA` and `B` by `CopyB` (their stages the tiles
/// `Atom` multiplies, the k-tile read off them), `C` of element `Out` stored from registers
/// (to `c`) or, with `TMA_EPI`, through shared memory (by `map_c`). `CONS` consumer warpgroups
/// read each stage: `CONSUMERS` (cooperative: the block tile's rows shared among them), or 1
/// (ping-pong: each consumer's tile its own, the block's tiles taken in turn).
#[inline(always)]
unsafe fn body<Atom, CopyA, CopyB, Out, const CL: usize, const CONS: usize, const TMA_EPI: bool>(
    m: usize,
    n: usize,
    k: usize,
    group: usize,
    map_a: *const u8,
    map_b: *const u8,
    (c, map_c): (*mut u16, *const u8),
) where
    Atom: WgmmaOperands<CopyA::Tile, CopyB::Tile, K, K> + MmaAtom<CLayout = AccLayout>,
    CopyA: TmaCopy + Default,
    CopyB: TmaCopy + Default,
    Out: Element16,
{
    // The block tile's rows and columns, and the k-tile: the stages' extents (a ping-pong
    // consumer's tile is one warpgroup's rows).
    const {
        assert!(
            Atom::A_SIZES[0] == BM / CONSUMERS * CONS && Atom::B_SIZES[0] == BN,
            "the stages are not the block tile"
        );
        assert!(CONS == CONSUMERS || (CONS == 1 && TMA_EPI && CL == 1), "ping-pong: through shared memory, no cluster");
    };
    let (bm, bk) = (Atom::A_SIZES[0], Atom::A_SIZES[1]);
    if group == 0 || m == 0 || n == 0 {
        // Nothing to compute (and no raster to divide by).
        return;
    }
    let (tid, _) = thread_idx();
    // The unit of work is a cluster's CL tiles side by side (one each), which share the tile
    // of the operand their copy multicasts: each block loads 1/CL of it into every block. B
    // multicast: CL row tiles (a 2x1 cluster); A multicast: CL column tiles (1x2).
    const { assert!(CopyA::MASK == 1 || CopyB::MASK == 1, "a cluster shares A's tile or B's, not both") };
    let (rank, (first_tile, grid)) =
        if CL > 1 { (cluster_ctarank(), cluster_id()) } else { (0, (block_idx().0, grid_dim())) };
    let raster = Raster::new((m, n), bm, group, CL, CopyA::MASK != 1);
    let tiles = raster.units();
    let place = |tile: usize| raster.place(tile, rank);
    let (pipe, (ring_a, ring_b)) = PipelineTmaAsync::<STAGES, (CopyA, CopyB), CL, CONS>::carve(dynamic_smem());
    // The epilogue's buffers (TMA_EPI), 1024-byte aligned after the pipeline's memory.
    let c_buffers =
        (dynamic_smem() + PipelineTmaAsync::<STAGES, (CopyA, CopyB), CL, CONS>::SMEM_BYTES as u32 + 1023) & !1023;
    if tid == 0 {
        // SAFETY: one thread, before the barrier below that publishes it.
        unsafe { pipe.init() };
    }
    if CL > 1 {
        // Every block's barriers initialized before any multicast or remote arrive reaches them.
        // SAFETY: every thread of the cluster, once here.
        unsafe { cluster_sync() };
    } else {
        sync_threads();
    }
    let ktiles = k.div_ceil(bk);
    // The block's tiles: first_tile, then every grid-th. The ring runs on across tiles: the
    // producer fills the next tile's stages while the consumers store the last one.
    if tid / 128 == 0 {
        // SAFETY: the whole producer warpgroup.
        unsafe { setmaxnreg_dec::<40>() };
        if tid == 0 {
            let mut write = PipelineState::producer_start();
            let mut tile = first_tile;
            while tile < tiles {
                let ((by, bx), valid) = place(tile);
                tile += grid;
                if !valid {
                    continue;
                }
                for kt in 0..ktiles {
                    // SAFETY: the pipeline's one producer thread; the copies fill the stage
                    // the acquire gave, on its barrier; the maps are the caller's.
                    unsafe {
                        let bar = pipe.producer_acquire(&write);
                        CopyA::default().copy(map_a, &ring_a.stage(write.index()), (by, kt), bar);
                        CopyB::default().copy(map_b, &ring_b.stage(write.index()), (bx, kt), bar);
                    }
                    write.advance();
                }
            }
        }
        if CL > 1 {
            // SAFETY: every thread of the cluster, once here.
            unsafe { cluster_sync() };
        }
        return;
    }
    // SAFETY: the whole consumer warpgroup.
    unsafe { setmaxnreg_inc::<232>() };
    let w = tid / 128 - 1;
    let t = tid % 128;
    let mma = TiledWgmma::<Atom, CONS>::new().slice(if CONS == 1 { 0 } else { w });
    let (mut read, mut release) = (PipelineState::consumer_start(), PipelineState::consumer_start());
    let mut tile = first_tile;
    // Ping-pong: the block's tiles so far, whose parity says whose turn it is.
    let mut turn = 0;
    while tile < tiles {
        let ((by, bx), valid) = place(tile);
        tile += grid;
        if !valid {
            continue;
        }
        if CONS == 1 {
            turn += 1;
            if (turn - 1) % CONSUMERS != w {
                // The other consumer's tile: its stages pass by.
                read.advance_by(ktiles);
                release.advance_by(ktiles);
                continue;
            }
            if turn > 1 {
                // The main loops take turns (CUTLASS's math ordering barrier): this one starts
                // once the other consumer's last one waited for all its stages. Then every
                // stage's `full` barrier is at most one phase behind this tile's, which is what
                // a parity wait can tell apart.
                // SAFETY: barrier 3 + w gathers this warpgroup's sync and the other's arrival
                // (256 threads), each once a turn.
                unsafe { named_barrier_of::<3, 4, 256, false>(w) };
            }
        }
        let mut acc = Atom::zeros();
        for kt in 0..ktiles {
            // SAFETY: the whole warpgroup waits for the stage, multiplies its tiles (which no
            // one writes before this warpgroup releases them), and releases the stage before
            // once its group is done.
            unsafe {
                pipe.consumer_wait(&read);
                mma.gemm(&ring_a.stage(read.index()), &ring_b.stage(read.index()), &mut acc);
                warpgroup_wait::<1>(&mut acc);
                if kt > 0 {
                    pipe.consumer_release(&release, t);
                    release.advance();
                }
            }
            read.advance();
        }
        if CONS == 1 {
            // The next tile is the other consumer's turn, if there is one.
            let mut next = tile;
            while next < tiles && !place(next).1 {
                next += grid;
            }
            if next < tiles {
                // SAFETY: the other's barrier (3 + (1 - w)), paired with its sync.
                unsafe { named_barrier_of::<3, 4, 256, true>(1 - w) };
            }
        }
        // SAFETY: as above; the tile's last stage is free too.
        unsafe {
            warpgroup_wait::<0>(&mut acc);
            if ktiles > 0 {
                pipe.consumer_release(&release, t);
                release.advance();
            }
        }
        if TMA_EPI {
            // C's 64-row tile: this warpgroup's half of the block tile, or its own tile.
            let row = if CONS == 1 { by } else { 2 * by + w };
            // SAFETY: the whole warpgroup; its two buffers are its own; map_c is C's.
            unsafe { store_through_smem::<Atom, Out>(&acc, c_buffers + 2 * w as u32 * C_TILE, w, t, (row, bx), map_c) };
            continue;
        }
        // The warpgroup's 64 rows of the block tile, through the atom's C layout.
        let rows = Atom::SHAPE_MNK[0];
        let (m0, n0) = (by * bm + rows * w, bx * BN);
        let (r0, c0) = Atom::c_coord(t, 0);
        // The thread's first accumulator's element of C; the others are offsets from it.
        let c_tensor = PtrTensor::new(c, layout!(({ m }, { n }):({ n }, 1)));
        let first = tile_elem(&c_tensor, shape!((128, 256)), by, bx, rows * w + r0, c0);
        // Pairs of accumulators (v, v + 1) are neighbours in a row of C: one 4-byte store.
        acc.for_each_pair(|v, lo, hi| {
            let (dr, dc) = Atom::c_coord(0, v);
            let (r, col) = (r0 + dr, c0 + dc);
            if m0 + r < m && n0 + col < n {
                let p = first.wrapping_add(layout!((128, 256):({ n }, 1)).call_coord(&shape!(({ dr }, { dc }))));
                let packed = Out::pack(lo, hi);
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
        // The stores' reads of the buffers complete before the block's shared memory goes.
        store_wait_read::<0>();
    }
    if CL > 1 {
        // No block exits while another may still multicast into it or arrive on its barriers.
        // SAFETY: every thread of the cluster, once here.
        unsafe { cluster_sync() };
    }
}

/// The epilogue through shared memory of one consumer warpgroup `w` (thread `t`): its 64 rows,
/// `C`'s 64-row tile `row` of column tile `bx`, 64 columns at a time, converted and copied with the `stmatrix`
/// tiled copy `StoreSmemC` (the atom's C layout, so each accumulator lands at its coordinate:
/// `cute-atom/tests/stmatrix.rs`) into one of its two swizzled tiles (`CTile`, at `buffers` and
/// `buffers + C_TILE`), then stored by its thread 0 with one TMA box. A buffer is rewritten
/// once the store two chunks back has read it (`cp.async.bulk.wait_group.read 1`, then the
/// warpgroup's named barrier).
///
/// # Safety
/// Every thread of the warpgroup, together; `buffers` is two `C_TILE`s of this block's shared
/// memory no one else uses; `map_c` is `C`'s tensor map with `CTile`'s box.
#[inline(always)]
unsafe fn store_through_smem<Atom: MmaCall + MmaAtom<CLayout = AccLayout>, Out: Element16>(
    acc: &Atom::Acc,
    buffers: u32,
    w: usize,
    t: usize,
    (row, bx): (usize, usize),
    map_c: *const u8,
) {
    let acc = acc.as_ref();
    for chunk in 0..BN / 64 {
        let buffer = SmemTensor::<u16, CTile>::new(buffers + (chunk % 2) as u32 * C_TILE, CTile::default());
        // SAFETY: the warpgroup's threads, together; the barrier ids 1 + w are the consumers'.
        unsafe {
            if t == 0 {
                store_wait_read::<1>();
            }
            named_barrier_of::<1, 2, 128, false>(w);
            let at = 2 * CHUNK_REGS * chunk;
            let frg: [u32; CHUNK_REGS] = core::array::from_fn(|i| Out::pack(acc[at + 2 * i], acc[at + 2 * i + 1]));
            copy_from_fragment(&StoreSmemC::default(), t, &frg, &buffer);
            fence_proxy_async();
            named_barrier_of::<1, 2, 128, false>(w);
            if t == 0 {
                StoreC::default().copy(map_c, &buffer, (row, BN / 64 * bx + chunk));
                store_commit();
            }
        }
    }
}

/// Named barrier `ID0` (for consumer `w` = 0) or `ID1` (`w` = 1) of `THREADS` threads: a
/// sync, or with `ARRIVE` an arrival. Consumer `w`'s own barrier is `<1, 2, 128>`; the
/// ping-pong's turns are `<3, 4, 256>` (consumer `w` syncs on its own, the other arrives).
///
/// # Safety
/// Every thread of the calling warpgroup, together, each sync paired with the arrivals and
/// syncs of the barrier's other threads.
#[inline(always)]
unsafe fn named_barrier_of<const ID0: u32, const ID1: u32, const THREADS: u32, const ARRIVE: bool>(w: usize) {
    // SAFETY: the caller's promise.
    unsafe {
        match (w == 0, ARRIVE) {
            (true, false) => named_barrier_sync::<ID0, THREADS>(),
            (false, false) => named_barrier_sync::<ID1, THREADS>(),
            (true, true) => named_barrier_arrive::<ID0, THREADS>(),
            (false, true) => named_barrier_arrive::<ID1, THREADS>(),
        }
    }
}
