//! FlashAttention forward on Hopper, written in CuTe's words on `cute-atom`:
//! `O = softmax(Q·Kᵀ · scale [+ causal mask]) · V` and the rows' log-sum-exp, fp16, head
//! dimension 128, fp32 accumulation. `Q`, `K`, `V`, `O` are `(batch·heads, seq, 128)`
//! row-major; a block computes 128 query rows of one head with three warpgroups:
//!
//! * a producer (warpgroup 0): one thread loads the block's `Q` once and each 128-key block of
//!   `K` and `V` into two TMA → MMA rings ([`tiles`]), each stage's transaction bytes computed
//!   from its tiles;
//! * two consumers (64 query rows each), the slices of two tiled `wgmma`s: for each key block,
//!   `S = Q·Kᵀ` (the `SS` atom `SM90_64x128x16`, `Q`'s and `K`'s two 64-column halves), the
//!   mask ([`mask`], the atom's C layout plus the tile's origin), the online softmax over the
//!   rows ([`AccRows`]: the row's values and the lanes that share it read off the C layout),
//!   then `O += P·V` with `P` the score accumulators relabelled as the `RS` atom's register A
//!   operand ([`acc_as_a`], FA3's `convert_layout_acc_Aregs`: no data moved) and `V`'s two
//!   halves MN-major in shared memory (the same bytes the TMA wrote as `(keys, 64)` tiles,
//!   read as `(64, keys)` GMMA tiles);
//! * the epilogue divides by the row sums and stores `O` (through the `RS` atom's C layout;
//!   the `_epi` kernels through shared memory: `stmatrix` of that layout into swizzled tiles,
//!   then TMA stores of `O`'s rank-3 map, [`store_o`]) and the log-sum-exp of each row.
//!
//! Sequences of any length: keys past `seq` are masked (`-inf`, weight 0: the rows a ragged
//! block's TMA box reads from the next head, or zeros past the tensor, count for nothing),
//! queries past it are not stored. A row with no key left (none here: `seq_q == seq_k`) would
//! store zeros and a log-sum-exp of `+inf`, not NaN.

use cute_atom::algorithm::{
    acc_as_a, copy_from_fragment, mask, warpgroup_wait, AccRows, FirstEight, TiledCopyStore, TiledWgmma, WgmmaOperandB,
    WgmmaOperands,
};
use cute_atom::arch::atomic::{atomic_add_acq_rel_u32, atomic_add_relaxed_u32, store_relaxed_u32};
use cute_atom::arch::barrier::{
    cluster_sync, mbarrier_arrive, mbarrier_init, mbarrier_wait, named_barrier_arrive, named_barrier_sync,
};
use cute_atom::arch::copy::{ld_shared_b32x1, st_shared_b32x1};
use cute_atom::arch::math::{ex2, fma};
use cute_atom::arch::thread::{dynamic_smem, setmaxnreg_dec, setmaxnreg_inc};
use cute_atom::arch::tma::{fence_proxy_async, store_commit, store_wait_read};
use cute_atom::atom::{Accumulators, Element16, MmaCall, TmaCopy};
use cute_atom::pipeline::PipelineState;
use cute_atom::SmemTensor;
use cute_static::gmma::{ModeSizes, K, MN};
use cute_static::product::ConstLeaves;
use cute_static::Composition;

use crate::{block_idx, grid_dim, sync_threads, thread_idx};

pub mod by_hand;
pub mod tiles;
use tiles::*;

/// A kernel of the signature every variant shares, `(seq, scale, causal, map_q, map_k, map_v,
/// o, lse)`, whose body is `$body`; a persistent one (`persistent`) also takes `heads`, the
/// `batch·heads` sequences (its grid does not say them), and `counters`, its tile scheduler's
/// two words (zero before the first launch; each launch leaves them zero); one whose epilogue
/// goes through shared memory (`epi`) takes last `map_o`, `O`'s tensor map of rank 3
/// (`tiles::StoreO`).
macro_rules! attention_kernel {
    ($(#[$doc:meta])* $name:ident => $body:expr) => {
        attention_kernel!(@ $(#[$doc])* $name => $body; (0usize, core::ptr::null_mut(), core::ptr::null()););
    };
    ($(#[$doc:meta])* persistent $name:ident => $body:expr) => {
        attention_kernel!(@ $(#[$doc])* $name => $body; (heads, counters, core::ptr::null()); heads: usize, counters: *mut u32);
    };
    ($(#[$doc:meta])* epi $name:ident => $body:expr) => {
        attention_kernel!(@ $(#[$doc])* $name => $body; (0usize, core::ptr::null_mut(), map_o); map_o: *const u8);
    };
    ($(#[$doc:meta])* persistent epi $name:ident => $body:expr) => {
        attention_kernel!(@ $(#[$doc])* $name => $body; (heads, counters, map_o); heads: usize, counters: *mut u32, map_o: *const u8);
    };
    (@ $(#[$doc:meta])* $name:ident => $body:expr; ($heads:expr, $counters:expr, $map_o:expr); $($arg:ident: $ty:ty),*) => {
        $(#[$doc])*
        #[no_mangle]
        #[allow(clippy::too_many_arguments)]
        pub unsafe extern "ptx-kernel" fn $name(
            seq: usize,
            scale: f32,
            causal: u32,
            map_q: *const u8,
            map_k: *const u8,
            map_v: *const u8,
            o: *mut u16,
            lse: *mut f32,
            $($arg: $ty),*
        ) {
            let body: unsafe fn((usize, usize, *mut u32), f32, bool, Maps, *mut u16, *mut f32) = $body;
            // SAFETY: the caller's maps and buffers.
            unsafe { body((seq, $heads, $counters), scale, causal != 0, (map_q, map_k, map_v, $map_o), o, lse) }
        }
    };
}

/// The tensor maps of `Q`, `K`, `V` and (the `epi` kernels; else null) `O`.
type Maps = (*const u8, *const u8, *const u8, *const u8);

// Each kernel is `body::<S, O, VB, KB, CL, H, OA, OVERLAP, PINGPONG, PERSISTENT, LEAN, PIN,
// TMA_EPI, PRODUCER_REGS, CONSUMER_REGS>` (see `body`): the atoms of `S = Q·Kᵀ` and `O += P·V`,
// `V` as the second's B, k-blocks of keys a block (5: 80 keys, 8: 128, 11: 176), blocks a
// cluster, halves of 64 in the head dimension, `O`'s accumulators, the schedule's switches,
// and the warpgroups' registers after `setmaxnreg`.

attention_kernel! {
    /// `O = softmax(Q·Kᵀ · scale) · V` (`causal != 0`: with the causal mask, key `j` of query
    /// `i` when `j <= i`), fp16. Grid `(ceil(seq/128), batch·heads)`, 384 threads,
    /// `tiles::SMEM_BYTES` of dynamic shared memory; `map_q`, `map_k`, `map_v` the tensor maps
    /// of the `(batch·heads·seq, 128)` tensors with 64x128 boxes, 128-byte swizzle; `o` the
    /// output (same shape), `lse` the `batch·heads·seq` log-sum-exps (natural log, of the
    /// scaled scores); `scale` the scores' scale times log2(e).
    attention_fwd => body::<Score, Out, VHalf, 8, 1, 2, 2, true, false, false, false, false, false, 40, 232>
}

attention_kernel! {
    /// `attention_fwd` without the overlap: each key block's `S`, softmax and `O += P·V` in
    /// turn (the baseline the overlap is measured against).
    attention_fwd_serial => body::<Score, Out, VHalf, 8, 1, 2, 2, false, false, false, false, false, false, 40, 232>
}

attention_kernel! {
    /// `attention_fwd` with FlashAttention-3's warpgroup ping-pong: the two consumer
    /// warpgroups take turns issuing their `wgmma`s (named barriers 1 and 2), so that one's
    /// softmax runs while the other's products have the tensor cores.
    attention_fwd_pingpong => body::<Score, Out, VHalf, 8, 1, 2, 2, true, true, false, false, false, false, 40, 232>
}

attention_kernel! {
    /// `attention_fwd_serial` with the warpgroup ping-pong: each product is a turn.
    attention_fwd_serial_pingpong => body::<Score, Out, VHalf, 8, 1, 2, 2, false, true, false, false, false, false, 40, 232>
}

attention_kernel! {
    /// `attention_fwd_serial` on a persistent grid: `heads` is `batch·heads`, and a block of a
    /// 1-D grid (one a multiprocessor) takes tile `blockIdx.x` of the `(query block, head)`
    /// tiles, then the tiles a counter hands out (`counters[0]`, from `gridDim`: a dynamic
    /// scheduler, so a slower multiprocessor takes fewer tiles, as it would take fewer blocks
    /// of a grid), a head's last query block first. The producer sends each tile's number
    /// with its `Q` (through shared memory, before the stage's arrival) and `u32::MAX` when
    /// the counter runs past the last; the last block out resets `counters` for the next
    /// launch. The rings run on across tiles: the producer loads the next tile's first `K`,
    /// then its `Q` as soon as the consumers release it (after their last `S`), while they
    /// finish this tile's last `P·V` and store its `O`. The caller's contract adds: fewer than
    /// `u32::MAX` tiles, and one launch at a time on `counters` (a launch that does not
    /// complete leaves them for the caller to zero).
    persistent attention_fwd_persistent => body::<Score, Out, VHalf, 8, 1, 2, 2, false, false, true, true, false, false, 40, 232>
}

attention_kernel! {
    /// `attention_fwd_persistent` with the intra-warpgroup overlap of `attention_fwd`.
    persistent attention_fwd_persistent_overlap => body::<Score, Out, VHalf, 8, 1, 2, 2, true, false, true, true, false, false, 40, 232>
}

attention_kernel! {
    /// `attention_fwd` with `O`'s wait pinned below the softmax (`PIN`), so that the softmax
    /// runs beside the product as FlashAttention-3's overlap intends: 3.6% to 7% faster than
    /// `attention_fwd` on an H100 (`docs/gpu.md`).
    attention_fwd_pinned => body::<Score, Out, VHalf, 8, 1, 2, 2, true, false, false, false, true, false, 40, 232>
}

attention_kernel! {
    /// `attention_fwd_persistent_overlap` with the wait pinned, as `attention_fwd_pinned`: 2.5%
    /// to 12% faster than it, and the fastest of these kernels in most rows (`docs/gpu.md`).
    persistent attention_fwd_persistent_overlap_pinned => body::<Score, Out, VHalf, 8, 1, 2, 2, true, false, true, true, true, false, 40, 232>
}

attention_kernel! {
    /// `attention_fwd` for head dimension 64 (one 64-wide half of each tile; the maps' boxes
    /// the same 64x128).
    attention_fwd_hd64 => body::<Score, Out, VHalf, 8, 1, 1, 1, true, false, false, false, false, false, 40, 232>
}

attention_kernel! {
    /// The same kernel with its addresses, descriptors, barriers and fragments written by hand:
    /// the twin `scripts/gpu/ptx_guard.py` holds `attention_fwd` to.
    attention_fwd_by_hand => by_hand::by_hand
}

attention_kernel! {
    /// `attention_fwd` for bfloat16 `Q`, `K`, `V`, `O` (the maps' data type bfloat16).
    attention_fwd_bf16 => body::<ScoreBf16, OutBf16, VHalf, 8, 1, 2, 2, true, false, false, false, false, false, 40, 232>
}

attention_kernel! {
    /// `attention_fwd_pinned` for bfloat16.
    attention_fwd_bf16_pinned => body::<ScoreBf16, OutBf16, VHalf, 8, 1, 2, 2, true, false, false, false, true, false, 40, 232>
}

attention_kernel! {
    /// `attention_fwd_persistent_overlap_pinned` for bfloat16.
    persistent attention_fwd_bf16_persistent_overlap_pinned => body::<ScoreBf16, OutBf16, VHalf, 8, 1, 2, 2, true, false, true, true, true, false, 40, 232>
}

attention_kernel! {
    /// `attention_fwd_pinned` over key blocks of 176 (FlashAttention-3's for head dimension 128
    /// without the causal mask: fewer softmax steps a row for the same products); the maps of
    /// `K` and `V` take 176-row boxes (`tiles::Half176`).
    attention_fwd_n176_pinned => body::<Score176, Out, VHalf176, 11, 1, 2, 2, true, false, false, false, true, false, 24, 240>
}

attention_kernel! {
    /// `attention_fwd_persistent_overlap_pinned` over key blocks of 176.
    persistent attention_fwd_n176_persistent_overlap_pinned => body::<Score176, Out, VHalf176, 11, 1, 2, 2, true, false, true, true, true, false, 24, 240>
}

attention_kernel! {
    /// `attention_fwd_n176_pinned` for bfloat16.
    attention_fwd_bf16_n176_pinned => body::<Score176Bf16, OutBf16, VHalf176, 11, 1, 2, 2, true, false, false, false, true, false, 24, 240>
}

attention_kernel! {
    /// `attention_fwd_n176_persistent_overlap_pinned` for bfloat16.
    persistent attention_fwd_bf16_n176_persistent_overlap_pinned => body::<Score176Bf16, OutBf16, VHalf176, 11, 1, 2, 2, true, false, true, true, true, false, 24, 240>
}

attention_kernel! {
    /// `attention_fwd_n176_pinned` in clusters of 2 blocks (`.reqnctapercluster 2`, added by
    /// `build.sh`), FlashAttention-3's shape without the causal mask: two query blocks of a head
    /// (grid `x` rounded up to even), each block loading half of every `K` and `V` box (88
    /// rows: the maps of `K` and `V` encoded for it) into both, so the head's keys cross from
    /// L2 once a cluster. With the mask, both take the later block's key blocks.
    attention_fwd_n176_pinned_cluster => body::<Score176, Out, VHalf176, 11, 2, 2, 2, true, false, false, false, true, false, 24, 240>
}

attention_kernel! {
    /// `attention_fwd_pinned` in clusters of 2 blocks, as `attention_fwd_n176_pinned_cluster`
    /// (64-row parts of the 128-row boxes).
    attention_fwd_pinned_cluster => body::<Score, Out, VHalf, 8, 2, 2, 2, true, false, false, false, true, false, 40, 232>
}

attention_kernel! {
    /// `attention_fwd_pinned` for head dimension 256, FlashAttention-3's tiles for it
    /// (`tile_size_fwd_sm90`: 128 x 80, two stages): four 64-wide quarters of each tile, key
    /// blocks of 80 (the maps' boxes 64x128 for `Q`, 64x80 for `K` and `V`), `O` 128 registers a
    /// consumer thread beside `S`'s 40 (240 registers, the producer 24). The grid's blocks
    /// only: on the persistent grid the tile's state does not fit beside them (`ptxas`
    /// spilled 88 bytes, reloaded inside the loop).
    attention_fwd_hd256 => body::<Score80, Out, VHalf80, 5, 1, 4, 4, true, false, false, false, true, false, 24, 240>
}

attention_kernel! {
    /// `attention_fwd_hd256` for bfloat16.
    attention_fwd_bf16_hd256 => body::<Score80Bf16, OutBf16, VHalf80, 5, 1, 4, 4, true, false, false, false, true, false, 24, 240>
}

attention_kernel! {
    /// `attention_fwd_pinned` whose epilogue goes through shared memory, as FlashAttention-3's
    /// and `hgemm_sm90_tma_epi`'s: each consumer warpgroup writes its `O` with `stmatrix` into
    /// two swizzled 64x64 tiles (`tiles::StoreSmemO`) and one thread stores them with two TMA
    /// boxes (`tiles::StoreO`), instead of 64 four-byte stores a thread that each write 16
    /// bytes of 8 rows. Dynamic shared memory `tiles::SMEM_BYTES_EPI`; `map_o` the map of `O`
    /// as `(seq, 128, batch·heads)`, 64x64x1 boxes, 128-byte swizzle.
    epi attention_fwd_pinned_epi => body::<Score, Out, VHalf, 8, 1, 2, 2, true, false, false, false, true, true, 40, 232>
}

attention_kernel! {
    /// `attention_fwd_persistent_overlap_pinned` with the epilogue of `attention_fwd_pinned_epi`:
    /// a tile's store runs on while the block takes its next tile, whose epilogue first waits
    /// for it to have read the tiles.
    persistent epi attention_fwd_persistent_overlap_pinned_epi => body::<Score, Out, VHalf, 8, 1, 2, 2, true, false, true, true, true, true, 40, 232>
}

attention_kernel! {
    /// `attention_fwd_persistent_overlap_pinned_epi` with FlashAttention-3's warpgroup
    /// ping-pong (`attention_fwd_pingpong`'s turns) beside the intra-warpgroup overlap, as
    /// FlashAttention-3 runs head dimension 128: one consumer's first softmax of a tile and
    /// its epilogue beside the other's products.
    persistent epi attention_fwd_persistent_overlap_pingpong_pinned_epi => body::<Score, Out, VHalf, 8, 1, 2, 2, true, true, true, true, true, true, 40, 232>
}

attention_kernel! {
    /// `attention_fwd_pinned_epi` for bfloat16.
    epi attention_fwd_bf16_pinned_epi => body::<ScoreBf16, OutBf16, VHalf, 8, 1, 2, 2, true, false, false, false, true, true, 40, 232>
}

attention_kernel! {
    /// `attention_fwd_persistent_overlap_pinned_epi` for bfloat16.
    persistent epi attention_fwd_bf16_persistent_overlap_pinned_epi => body::<ScoreBf16, OutBf16, VHalf, 8, 1, 2, 2, true, false, true, true, true, true, 40, 232>
}

attention_kernel! {
    /// `attention_fwd_pinned_epi` with `O += P·V` over the whole head dimension in one atom
    /// (`tiles::OutWide`, `SM90_64x128x16` with `P` from registers; its B both halves of a `V`
    /// stage, `tiles::VBoth`), as FlashAttention-3's: one `wgmma` a k-block of `P` instead of
    /// two, and one accumulator of 64 registers a thread instead of two of 32.
    epi attention_fwd_wide_pinned_epi => body::<Score, OutWide, VBoth, 8, 1, 2, 1, true, false, false, false, true, true, 40, 232>
}

attention_kernel! {
    /// `attention_fwd_persistent_overlap_pinned_epi` with `O += P·V` in one atom, as
    /// `attention_fwd_wide_pinned_epi`.
    persistent epi attention_fwd_wide_persistent_overlap_pinned_epi => body::<Score, OutWide, VBoth, 8, 1, 2, 1, true, false, true, true, true, true, 40, 232>
}

attention_kernel! {
    /// `attention_fwd_n176_persistent_overlap_pinned` with `O += P·V` in one atom.
    persistent attention_fwd_n176_wide_persistent_overlap_pinned => body::<Score176, OutWide, VBoth176, 11, 1, 2, 1, true, false, true, true, true, false, 24, 240>
}

attention_kernel! {
    /// `attention_fwd_wide_persistent_overlap_pinned_epi` with the warpgroup ping-pong, as
    /// `attention_fwd_persistent_overlap_pingpong_pinned_epi` (FlashAttention-3 runs head
    /// dimension 128 with both): a turn is now 16 `wgmma`s, not 24.
    persistent epi attention_fwd_wide_persistent_overlap_pingpong_pinned_epi => body::<Score, OutWide, VBoth, 8, 1, 2, 1, true, true, true, true, true, true, 40, 232>
}

attention_kernel! {
    /// `attention_fwd_n176_persistent_overlap_pinned` with the epilogue through shared memory:
    /// beside 176-key rings the `O` tiles do not fit (244 KiB), so they go into stage 0 of `V`'s
    /// ring, as FlashAttention-3's `smem_o` lines up with `smem_v` (`tiles::Smem::O_IN_V`):
    /// both consumers sync before writing them, and the producer loads the next tile's `V`
    /// after their stores have read them (an mbarrier in the slot).
    persistent epi attention_fwd_n176_persistent_overlap_pinned_epi => body::<Score176, Out, VHalf176, 11, 1, 2, 2, true, false, true, true, true, true, 24, 240>
}

attention_kernel! {
    /// `attention_fwd_n176_persistent_overlap_pinned_epi` with `O += P·V` in one atom.
    persistent epi attention_fwd_n176_wide_persistent_overlap_pinned_epi => body::<Score176, OutWide, VBoth176, 11, 1, 2, 1, true, false, true, true, true, true, 24, 240>
}

attention_kernel! {
    /// `attention_fwd_n176_wide_persistent_overlap_pinned_epi` for bfloat16.
    persistent epi attention_fwd_bf16_n176_wide_persistent_overlap_pinned_epi => body::<Score176Bf16, OutWideBf16, VBoth176, 11, 1, 2, 1, true, false, true, true, true, true, 24, 240>
}

attention_kernel! {
    /// `attention_fwd_wide_pinned_epi` for bfloat16.
    epi attention_fwd_bf16_wide_pinned_epi => body::<ScoreBf16, OutWideBf16, VBoth, 8, 1, 2, 1, true, false, false, false, true, true, 40, 232>
}

attention_kernel! {
    /// `attention_fwd_wide_persistent_overlap_pinned_epi` for bfloat16.
    persistent epi attention_fwd_bf16_wide_persistent_overlap_pinned_epi => body::<ScoreBf16, OutWideBf16, VBoth, 8, 1, 2, 1, true, false, true, true, true, true, 40, 232>
}

attention_kernel! {
    /// `attention_fwd_n176_wide_persistent_overlap_pinned` for bfloat16.
    persistent attention_fwd_bf16_n176_wide_persistent_overlap_pinned => body::<Score176Bf16, OutWideBf16, VBoth176, 11, 1, 2, 1, true, false, true, true, true, false, 24, 240>
}

/// The kernels' one body: `S = Q·Kᵀ` with the atom `S`, `O += P·V` with the `RS` atom `O` whose
/// B is a `V` stage read as `VB` (a half, `tiles::VHalf`: `O` 64 wide; both, `tiles::VBoth`: `O`
/// the head dimension wide); key blocks of `16 KB` keys (`tiles::Keys`: 80, 128 or 176, `S`'s
/// columns); `CL` blocks a cluster, which share each `K` and `V` tile (multicast); `H` halves
/// of 64 in the head dimension; `OA` accumulators of `O` (`H` of 64 columns, or one);
/// `OVERLAP`, FA3's
/// intra-warpgroup overlap of `S_{j+1}` with `O += P_j·V_j`; `PINGPONG`, the consumer
/// warpgroups' turns; `PERSISTENT`, the block's tiles from the dynamic scheduler (`heads`
/// then says how many sequences there are), else the grid's one; `LEAN`, the softmax in
/// fewer instructions (one FFMA a score, the row sums reduced across lanes once, `O`'s rescale
/// skipped where no row moved). The persistent kernels measured faster with it, the grid's
/// 8% to 13% slower (the same call, `docs/gpu.md`), so each kernel says which it takes;
/// `PIN` (with `OVERLAP`), `O`'s wait held below the softmax, which `ptxas` otherwise hoists
/// above it; `TMA_EPI`, `O` stored through shared memory (`stmatrix`, then a TMA store of
/// each tile; head dimension 128; its tiles in `V`'s ring where they do not fit beside it,
/// `tiles::Smem::O_IN_V`); `PRODUCER_REGS` and `CONSUMER_REGS`, the warpgroups'
/// registers after `setmaxnreg` (176 keys: `S` is 88 a thread beside `P`'s 44 and `O`'s 64, so the consumers
/// take 240 and the producer keeps FlashAttention-3's 24; a branch on `KB` instead changed
/// the 128-key kernels' PTX).
#[inline(always)]
unsafe fn body<
    S,
    O,
    VB,
    const KB: usize,
    const CL: usize,
    const H: usize,
    const OA: usize,
    const OVERLAP: bool,
    const PINGPONG: bool,
    const PERSISTENT: bool,
    const LEAN: bool,
    const PIN: bool,
    const TMA_EPI: bool,
    const PRODUCER_REGS: u32,
    const CONSUMER_REGS: u32,
>(
    (seq, heads, counters): (usize, usize, *mut u32),
    scale: f32,
    causal: bool,
    (map_q, map_k, map_v, map_o): Maps,
    out: *mut u16,
    lse: *mut f32,
) where
    S: WgmmaOperands<Half, <Keys<KB> as KeyBlock>::Half, K, K>,
    O: WgmmaOperandB<VB, MN> + MmaCall<A = [u32; 4], Elem: Element16>,
    VB: Default,
    S::CLayout: ConstLeaves + ModeSizes,
    O::CLayout: ConstLeaves + ModeSizes + Composition<FirstEight>,
    StoreSmemO<O>: TiledCopyStore<SmemTensor<u16, OTile>, [u32; O_REGS]>,
    Halves<H>: HeadDim,
    Keys<KB>: KeyLoads<CL>,
{
    let d = 64 * H;
    // Keys a block: `S`'s columns, `KB` k-blocks of `P`.
    const { assert!(S::SHAPE_MNK[1] == <Keys<KB> as KeyBlock>::N && <Keys<KB> as KeyBlock>::N == 16 * KB) };
    let bn = <Keys<KB> as KeyBlock>::N;
    const { assert!(CL == 1 || (CL == 2 && !PERSISTENT), "clusters of 2, of grid blocks") };
    // `O`'s accumulators cover the head dimension.
    const { assert!(OA * O::SHAPE_MNK[1] == 64 * H && H % OA == 0) };
    const {
        assert!(
            !TMA_EPI || Smem::<Halves<H>, Keys<KB>>::EPI_FITS || Smem::<Halves<H>, Keys<KB>>::O_FITS_V,
            "O's tiles fit neither beside the pipelines in a block's 227 KiB nor in a stage of V"
        )
    };
    // `O`'s tiles in `V`'s ring (`tiles::Smem::O_IN_V`), and the mbarrier that hands the
    // stage back to the producer. A block alone: in a cluster the other block's multicast
    // loads into `V` would not wait for this one's stores (FlashAttention-3 needs a cluster
    // barrier there).
    const {
        assert!(
            !TMA_EPI || !Smem::<Halves<H>, Keys<KB>>::O_IN_V || CL == 1,
            "O's tiles in V's ring need a block alone, not a cluster"
        )
    };
    let o_in_v = TMA_EPI && Smem::<Halves<H>, Keys<KB>>::O_IN_V;
    // The rows the kernel's arrays are sized for, its atoms' (the f16 atoms', checked in
    // `tiles`: FIRST_OF_ROW).
    const { assert!(AccRows::<S>::ROW_OF.1 == ROWS && AccRows::<O>::ROW_OF.1 == ROWS) };
    let (tid, _) = thread_idx();
    // The block's tiles, `(query block, head)`: its grid position, or (PERSISTENT) tile
    // `blockIdx.x` of the heads' query blocks, then those a counter hands out (a dynamic
    // scheduler: a multiprocessor that runs slower takes fewer tiles, as a grid's blocks
    // would; under a static stride the multiprocessors idled 12% of the time, docs/gpu.md). Either way each
    // head's last block comes first (the longest, when causal: the tail is short blocks, not
    // long ones) and a head's blocks in turn (they share its `K` and `V` in L2).
    let q_blocks = seq.div_ceil(BM);
    let tiles = if PERSISTENT { q_blocks * heads } else { 1 };
    let tile_of = |tile: usize| {
        if PERSISTENT {
            // (`max(1)`: no division by zero for the compiler to guard; with no query block
            // there is no tile, and this is not called.)
            let per_head = q_blocks.max(1);
            (q_blocks - 1 - tile % per_head, tile / per_head)
        } else {
            // (CL: a cluster's blocks `x` and `x + 1` take query blocks `m` and `m - 1`, for
            // an even number of them; one past the last may be a block whose rows are not
            // stored, which loads its part of `K` and `V` for the other.)
            let (x, bh) = block_idx();
            (if CL > 1 { q_blocks.next_multiple_of(CL) } else { q_blocks } - 1 - x, bh)
        }
    };
    // The keys a query block attends to. (CL: both blocks of a cluster take the later one's,
    // `m | 1` at the two calls below, since they load each key block together; the earlier
    // one's mask covers the block past its diagonal. Inside the closure the `|` changed the
    // other kernels' mask lowering.)
    let key_blocks_of = |m_block: usize| if causal { seq.min((m_block + 1) * BM) } else { seq }.div_ceil(Keys::<KB>::N);
    // The pipelines, and the tile the producer sends with `Q` (PERSISTENT; `u32::MAX`: no more).
    let ((pipe_q, q), (pipe_k, k), (pipe_v, v), slot) = Smem::<Halves<H>, Keys<KB>>::carve::<CL>(dynamic_smem());
    if tid == 0 {
        // SAFETY: one thread, before the barrier below that publishes them.
        unsafe {
            pipe_q.init();
            pipe_k.init();
            pipe_v.init();
            if o_in_v {
                // One arrival a consumer warpgroup a tile.
                mbarrier_init(Smem::<Halves<H>, Keys<KB>>::o_bar(slot), CONSUMERS as u32);
            }
        }
    }
    if CL > 1 {
        // Both blocks' barriers initialized before a multicast or a remote arrive reaches them.
        // SAFETY: every thread of the cluster, once here.
        unsafe { cluster_sync() };
    } else {
        sync_threads();
    }

    if tid / 128 == 0 {
        // SAFETY: the whole producer warpgroup.
        unsafe { setmaxnreg_dec::<PRODUCER_REGS>() };
        if tid == 0 {
            let (load, load_kv) = (LoadHalf::default(), <Keys<KB> as KeyLoads<CL>>::Load::default());
            let (mut wq, mut wk, mut wv) =
                (PipelineState::producer_start(), PipelineState::producer_start(), PipelineState::producer_start());
            // A persistent block runs until the counter runs out; a grid block has one tile.
            // (This loop's form, and the consumers', keep the grid kernels' PTX that of the
            // build measured before the scheduler came: with `loop`/`break` LLVM lowered the
            // mask differently, and the grid kernels are sensitive to such changes.)
            let mut tile = if PERSISTENT { block_idx().0 } else { 0 };
            // Tiles loaded so far (`o_in_v`: the phase of `O`'s barrier to wait for).
            let mut o_tiles = 0u32;
            while PERSISTENT || tile < 1 {
                if PERSISTENT && tile >= tiles {
                    // SAFETY: the pipeline's one producer thread; the slot is read by the
                    // consumers after this stage's wait, released by the commit.
                    unsafe {
                        pipe_q.producer_wait(&wq);
                        st_shared_b32x1(slot, [u32::MAX]);
                        pipe_q.producer_commit(&wq);
                    }
                    break;
                }
                // The next tile, asked for now and used after this one's copies are issued.
                // SAFETY: the caller's counters, touched only by atomics in the launch.
                let next = if PERSISTENT {
                    grid_dim() + unsafe { atomic_add_relaxed_u32(counters, 1) } as usize
                } else {
                    tile + 1
                };
                let (m_block, bh) = tile_of(tile);
                // The head's first row of the (batch·heads·seq, d) tensors.
                let row0 = bh * seq;
                // `Q`'s tile (PERSISTENT: and the tile, through the slot).
                macro_rules! load_q {
                    () => {
                        pipe_q.producer_wait(&wq);
                        if PERSISTENT {
                            st_shared_b32x1(slot, [tile as u32]);
                        }
                        let bar = pipe_q.producer_expect(&wq);
                        for h in 0..H {
                            load.copy_at(map_q, &q.half(h).stage(0), (row0 + m_block * BM, 64 * h), bar);
                        }
                        wq.advance();
                    };
                }
                // SAFETY: the pipelines' one producer thread; each copy fills the stage its
                // acquire gave, on that stage's barrier; the maps are the caller's. `Q`'s
                // stage is the consumers' until they release it (PERSISTENT: after the tile's
                // last `S`).
                unsafe {
                    if !PERSISTENT {
                        load_q!();
                    }
                    for j in 0..key_blocks_of(if CL > 1 { m_block | 1 } else { m_block }) {
                        let bar = pipe_k.producer_acquire(&wk);
                        for h in 0..H {
                            load_kv.copy_at(map_k, &k.half(h).stage(wk.index()), (row0 + j * bn, 64 * h), bar);
                        }
                        wk.advance();
                        // A persistent block's `Q` after its first `K`: the next tile's `K_0`
                        // waits only for a free stage, its `Q` for the last `S` of the tile
                        // before, and both load during that tile's last `P·V` and epilogue.
                        // (The grid's blocks load `Q` first: measured 5-8% faster for them.)
                        if PERSISTENT && j == 0 {
                            load_q!();
                        }
                        if o_in_v && j == 0 && o_tiles > 0 {
                            // The tile before's `O` stores have read their stage of `V`
                            // (phase `o_tiles - 1` of the consumers' arrivals).
                            mbarrier_wait(Smem::<Halves<H>, Keys<KB>>::o_bar(slot), (o_tiles - 1) & 1);
                        }
                        let bar = pipe_v.producer_acquire(&wv);
                        for h in 0..H {
                            load_kv.copy_at(map_v, &v.half(h).stage(wv.index()), (row0 + j * bn, 64 * h), bar);
                        }
                        wv.advance();
                    }
                }
                tile = next;
                o_tiles += 1;
            }
            if PERSISTENT {
                // SAFETY: as above. The last block to count resets the counters for the next
                // launch: its acquire orders the reset after every block's last tile request
                // (each released by that block's count).
                unsafe {
                    if atomic_add_acq_rel_u32(counters.add(1), 1) as usize == grid_dim() - 1 {
                        store_relaxed_u32(counters, 0);
                        store_relaxed_u32(counters.add(1), 0);
                    }
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
    unsafe { setmaxnreg_inc::<CONSUMER_REGS>() };
    let (w, t) = (tid / 128 - 1, tid % 128);
    let (mma_s, mma_o) =
        (TiledWgmma::<S, CONSUMERS>::new().slice(w), TiledWgmma::<O, CONSUMERS, K, MN>::new().slice(w));
    let (mut rq, mut rk, mut rv) =
        (PipelineState::consumer_start(), PipelineState::consumer_start(), PipelineState::consumer_start());
    // The tiles taken (a grid block: its one), as the producer's loop.
    let mut taken = 0usize;
    while PERSISTENT || taken < 1 {
        let (m_block, bh) = if PERSISTENT {
            // SAFETY: the warpgroup waits for Q's stage, which no one writes before it is
            // released; the tile was written by the producer before the stage's arrival.
            let [tile] = unsafe {
                pipe_q.consumer_wait(&rq);
                ld_shared_b32x1(slot)
            };
            if tile as usize >= tiles {
                break;
            }
            tile_of(tile as usize)
        } else {
            tile_of(0)
        };
        taken += 1;
        let row0 = bh * seq;
        let key_blocks = key_blocks_of(if CL > 1 { m_block | 1 } else { m_block });
        // The warpgroup's first query row of the head.
        let q_row0 = m_block * BM + w * S::SHAPE_MNK[0];
        // The thread's rows: ROWS of them, value v of S in local row ROW_OF[v] (the same rows as
        // O's local rows: `tiles::FIRST_OF_ROW`).
        let row_of = AccRows::<S>::ROW_OF.0;
        let (mut m_i, mut l_i) = ([f32::NEG_INFINITY; ROWS], [0.0f32; ROWS]);
        // O's columns `N i..` in o[i], `N` the atom's columns (64, or the head dimension).
        let mut o = [O::zeros(); OA];
        if !PERSISTENT {
            // SAFETY: as above (the grid's kernels wait here, after their set-up).
            unsafe { pipe_q.consumer_wait(&rq) };
        }
        // The ping-pong (PINGPONG): warpgroup w's turn starts when barrier 1 + w completes (its own
        // 128 threads syncing, the other's 128 arriving) and ends by arriving on the other's.
        // Warpgroup 0 goes first: it arrives on its own barrier once. Both take the same turns (the
        // block's key blocks); warpgroup 1's last arrival is left out (no turn of 0's follows).
        let mut turns = if OVERLAP { key_blocks } else { 2 * key_blocks };
        if PINGPONG && w == 0 && turns > 0 {
            // SAFETY: barrier 1 gathers this arrival and warpgroup 0's first sync (256 threads).
            unsafe { named_barrier_arrive::<1, 256>() };
        }
        // Issues `$issue` as this warpgroup's turn.
        macro_rules! turn {
            ($($issue:tt)*) => {
                if PINGPONG {
                    // SAFETY: both consumer warpgroups, each its turns in order (above).
                    unsafe {
                        if w == 0 {
                            named_barrier_sync::<1, 256>();
                        } else {
                            named_barrier_sync::<2, 256>();
                        }
                    }
                }
                $($issue)*
                turns -= 1;
                if PINGPONG && !(w == 1 && turns == 0) {
                    // SAFETY: as above.
                    unsafe {
                        if w == 0 {
                            named_barrier_arrive::<2, 256>();
                        } else {
                            named_barrier_arrive::<1, 256>();
                        }
                    }
                }
            };
        }
        // `S_j = Q·K_jᵀ` issued (H groups, `Q`'s and `K_j`'s halves); waited by the caller.
        // (Macros, not closures: inlined always, so the accumulators stay in registers.)
        macro_rules! issue_s {
            ($s:expr, $rk:expr) => {
                // SAFETY: the whole warpgroup waits for the stage, then multiplies its tiles,
                // which no one writes before this warpgroup releases them.
                unsafe {
                    pipe_k.consumer_wait(&$rk);
                    for h in 0..H {
                        mma_s.gemm(&q.half(h).stage(0), &k.half(h).stage($rk.index()), &mut $s);
                    }
                }
            };
        }
        // `O += P·V_j` issued (H groups, `V_j`'s halves of the head dimension).
        macro_rules! issue_o {
            ($p:expr) => {
                // SAFETY: as for K's stage.
                unsafe {
                    pipe_v.consumer_wait(&rv);
                    for (h, o) in o.iter_mut().enumerate() {
                        mma_o.gemm_rs(&$p, &v_as_b::<VB>(v.half(h).stage(rv.index()).base()), o);
                    }
                }
            };
        }
        // O times each row's correction. LEAN: a row whose maximum stayed keeps its `O` (a
        // factor of exactly 1, most rows after the first key blocks), so the multiplies are
        // skipped where no row of the thread moved.
        macro_rules! rescale {
            ($corr:expr) => {
                let corr = $corr;
                if !LEAN || corr.iter().any(|&c| c != 1.0) {
                    o.iter_mut().for_each(|o| AccRows::<O>::scale(o, &corr));
                }
            };
        }
        // `S_j`'s `K` stage released, and (PERSISTENT) after the tile's last `S`, Q's: no
        // product reads it again, the next tile's may load.
        macro_rules! s_release {
            ($j:expr) => {
                // SAFETY: after `S_j`'s groups were waited for.
                unsafe {
                    pipe_k.consumer_release(&rk, t);
                    if PERSISTENT && $j + 1 == key_blocks {
                        pipe_q.consumer_release(&rq, t);
                        rq.advance();
                    }
                }
                rk.advance();
            };
        }
        // `S_j`'s groups waited (all of the warpgroup's), then its stages released.
        macro_rules! s_done {
            ($s:expr, $j:expr) => {
                // SAFETY: the warpgroup's own groups.
                unsafe { warpgroup_wait::<0>(&mut $s) };
                s_release!($j);
            };
        }
        // Every group waited (O's registers and P's are the warpgroup's again), then V's stage
        // released.
        macro_rules! o_done {
            () => {
                // SAFETY: as above.
                unsafe {
                    warpgroup_wait::<0>(&mut o[0]);
                    o.iter_mut().for_each(|o| o.fence_operands());
                    pipe_v.consumer_release(&rv, t);
                }
                rv.advance();
            };
        }
        // The mask (where the block reaches past the keys or the diagonal), then the online
        // softmax in base 2 (scores times `scale`, log2(e) folded in by the host): the rows'
        // maxima and sums updated, `S` replaced by the weights `P`; returns each row's rescale
        // of the `O` so far.
        macro_rules! softmax {
            ($s:expr, $j:expr) => {{
                let j = $j;
                if (j + 1) * bn > seq || (causal && (j + 1) * bn > q_row0) {
                    mask::<S>(&mut $s, t, (q_row0, j * bn), seq, causal.then_some(0));
                }
                // SAFETY: every lane of the warpgroup runs the reductions together.
                let max = unsafe { AccRows::<S>::reduce::<ROWS>(&$s, f32::NEG_INFINITY, f32::max) };
                let (mut corr, mut m_use) = ([0.0f32; ROWS], [0.0f32; ROWS]);
                for r in 0..ROWS {
                    let m_new = m_i[r].max(max[r] * scale);
                    // A row with no key yet: weights 2^-inf = 0, not NaN.
                    m_use[r] = if m_new == f32::NEG_INFINITY { 0.0 } else { m_new };
                    corr[r] = ex2(m_i[r] - m_use[r]);
                    m_i[r] = m_new;
                }
                let sum = if LEAN {
                    // One FFMA a score (Rust's `x * scale - m` is an FMUL and an FADD), and the
                    // thread's part of the rows' sums: they are summed across the row's lanes
                    // once, after the last key block (FlashAttention-3's `warp_reduce=false`).
                    $s.for_each_mut(|v, x| *x = ex2(fma(*x, scale, -m_use[row_of[v]])));
                    AccRows::<S>::reduce_thread::<ROWS>(&$s, 0.0, |a, b| a + b)
                } else {
                    $s.for_each_mut(|v, x| *x = ex2(*x * scale - m_use[row_of[v]]));
                    // SAFETY: as above.
                    unsafe { AccRows::<S>::reduce::<ROWS>(&$s, 0.0, |a, b| a + b) }
                };
                for r in 0..ROWS {
                    l_i[r] = l_i[r] * corr[r] + sum[r];
                }
                corr
            }};
        }
        if OVERLAP {
            // FlashAttention-3's intra-warpgroup overlap: `S_{j+1}` and `O += P_j·V_j` are issued
            // together; the softmax of `S_{j+1}` runs while the second is in flight (groups
            // complete in order: waiting for all but the last two leaves `O`'s).
            let mut s = S::zeros();
            turn! { issue_s!(s, rk); }
            s_done!(s, 0);
            softmax!(s, 0);
            let mut p = acc_as_a::<S, O, KB>(&s);
            for j in 1..key_blocks {
                let mut s = S::zeros();
                turn! {
                    issue_s!(s, rk);
                    issue_o!(p);
                }
                // S_j's groups done, O's may run on.
                // SAFETY: the warpgroup's own groups.
                unsafe { wait_all_but::<OA>(&mut s) };
                if !PIN {
                    s_release!(j);
                }
                let corr = softmax!(s, j);
                if PIN {
                    // `O`'s wait kept below the softmax. `ptxas` places `wgmma.wait_group` at
                    // the top of its basic block, above the softmax, which then runs after the
                    // product instead of beside it (the SASS of every build before this one,
                    // docs/gpu.md). Two operations it does not move the wait above: `K`'s
                    // release, and a shared store of the row sums (which the softmax computes
                    // last), predicated on a NaN scale: it never runs for a real one, and
                    // writes a word no one reads if it does. The release alone pins it in the
                    // persistent kernels, where the store's address was a spill reloaded each
                    // step (the 176-key kernel's 240 registers); the grid kernels need both.
                    s_release!(j);
                    if !PERSISTENT && scale.is_nan() {
                        // SAFETY: the slot's second word, inside the block's shared memory.
                        unsafe { st_shared_b32x1(slot + 4, [l_i[0].to_bits() ^ l_i[ROWS - 1].to_bits()]) };
                    }
                }
                o_done!();
                rescale!(corr);
                p = acc_as_a::<S, O, KB>(&s);
            }
            issue_o!(p);
            o_done!();
        } else {
            for j in 0..key_blocks {
                let mut s = S::zeros();
                turn! { issue_s!(s, rk); }
                s_done!(s, j);
                let corr = softmax!(s, j);
                rescale!(corr);
                let p = acc_as_a::<S, O, KB>(&s);
                turn! { issue_o!(p); }
                o_done!();
            }
        }
        if !PERSISTENT {
            // Q's stage free (every product of the tile done), as the persistent kernels
            // release it after the last `S`.
            // SAFETY: the warpgroup's products are all done (`o_done`).
            unsafe { pipe_q.consumer_release(&rq, t) };
            rq.advance();
        }
        // Epilogue: O / l through the RS atom's C layout (its values' rows are S's rows), pairs of
        // neighbours as one 4-byte store; the log-sum-exp by the first lane of each row's quad.
        // LEAN: the rows' sums, partial a thread until now.
        // SAFETY: every lane of the warpgroup.
        let l_i = if LEAN { unsafe { AccRows::<S>::reduce_lanes(l_i, |a, b| a + b) } } else { l_i };
        let inv = l_i.map(|l| if l > 0.0 { 1.0 / l } else { 0.0 });
        let (r0, c0) = O::c_coord(t, 0);
        if !TMA_EPI {
            for (half, acc) in o.iter().enumerate() {
                acc.for_each_pair(|v, lo, hi| {
                    let (dr, dc) = O::c_coord(0, v);
                    let (r, c) = (q_row0 + r0 + dr, O::SHAPE_MNK[1] * half + c0 + dc);
                    if r < seq {
                        let k = AccRows::<O>::ROW_OF.0[v];
                        let packed = <O as MmaCall>::Elem::pack(lo * inv[k], hi * inv[k]);
                        // SAFETY: (r, c..c+2) inside the head's rows of O (c even, d a
                        // multiple of 64).
                        unsafe { (out.add((row0 + r) * d + c) as *mut u32).write(packed) };
                    }
                });
            }
        }
        if TMA_EPI && !o_in_v {
            let at = Smem::<Halves<H>, Keys<KB>>::o_tiles(slot) + (H * w) as u32 * O_TILE;
            // SAFETY: every thread of the warpgroup; its `H` tiles at `at`; the caller's map.
            unsafe { store_o::<O, H, OA, false>(&o, &inv, at, (w, t), (q_row0, bh), (map_o, 0)) };
        }
        if o_in_v {
            let (at, bar) = (v.half(w).stage(0).base(), Smem::<Halves<H>, Keys<KB>>::o_bar(slot));
            // SAFETY: every thread of both consumer warpgroups (each stores its tile's `O`);
            // its `H` tiles in `V`'s stage, which the producer loads only after `bar`.
            unsafe { store_o::<O, H, OA, true>(&o, &inv, at, (w, t), (q_row0, bh), (map_o, bar)) };
        }
        if c0 == 0 {
            for k in 0..ROWS {
                let r = q_row0 + r0 + O::c_coord(0, FIRST_OF_ROW[k]).0;
                if r < seq {
                    let x = if l_i[k] > 0.0 { m_i[k] * core::f32::consts::LN_2 + ln(l_i[k]) } else { f32::INFINITY };
                    // SAFETY: row r of the head inside lse.
                    unsafe { lse.add(row0 + r).write(x) };
                }
            }
        }
    }
    if TMA_EPI && t == 0 {
        // The last tile's stores have read its tiles before the block's shared memory goes.
        store_wait_read::<0>();
    }
    if CL > 1 {
        // No block exits while the other may still multicast into it or arrive on its barriers.
        // SAFETY: every thread of the cluster, once here.
        unsafe { cluster_sync() };
    }
}

/// Waits until at most `N` of the warpgroup's `wgmma` groups are pending (the last `N`
/// issued), then ties `acc`'s registers here.
///
/// # Safety
/// As [`warpgroup_wait`].
#[inline(always)]
unsafe fn wait_all_but<const N: usize>(acc: &mut impl Accumulators) {
    const { assert!(N == 1 || N == 2 || N == 4, "a head dimension of one, two or four halves") };
    // SAFETY: the caller's promise.
    unsafe {
        match N {
            1 => warpgroup_wait::<1>(acc),
            2 => warpgroup_wait::<2>(acc),
            _ => warpgroup_wait::<4>(acc),
        }
    }
}

/// The epilogue through shared memory of consumer warpgroup `w` (thread `t`): its `O`
/// divided by the rows' sums (`inv`, their inverses) written with the `stmatrix` copy
/// `StoreSmemO` into its `H` tiles at `at` (each accumulator at its coordinate in the atom's C
/// layout), then stored by its thread 0, a TMA box a tile, to rows `q_row0..` of head `bh`. A
/// tile is rewritten once the warpgroup's store before has read it (the wait, then the
/// barrier), and stored once every thread's writes are fenced (the barrier). `IN_V`: the
/// tiles are in a stage of `V` (`tiles::Smem::O_IN_V`), so they are written once both
/// consumers are done reading `V` (a barrier of both), and thread 0 waits for its stores to
/// have read them, then arrives on `bar` (the producer's wait before the next tile's `V`).
///
/// # Safety
/// Every thread of the warpgroup, together (`IN_V`: of both); `at` is `H` `OTile`s of the
/// block's shared memory that only this warpgroup writes (`IN_V`: that no product reads after
/// the barrier, and no load writes before `bar`'s phase completes); `map_o` is `O`'s map of
/// rank 3 with `StoreO`'s box; `IN_V`: `bar` an mbarrier of one arrival a consumer.
#[inline(always)]
unsafe fn store_o<O, const H: usize, const OA: usize, const IN_V: bool>(
    o: &[O::Acc; OA],
    inv: &[f32; ROWS],
    at: u32,
    (w, t): (usize, usize),
    (q_row0, bh): (usize, usize),
    (map_o, bar): (*const u8, u32),
) where
    O: MmaCall<Elem: Element16>,
    O::CLayout: ConstLeaves + ModeSizes + Composition<FirstEight>,
    StoreSmemO<O>: TiledCopyStore<SmemTensor<u16, OTile>, [u32; O_REGS]>,
{
    let tile = |h: usize| SmemTensor::<u16, OTile>::new(at + h as u32 * O_TILE, OTile::default());
    // SAFETY: the caller's promise.
    unsafe {
        if IN_V {
            // Named barrier 5: both consumers' 256 threads (1 and 2 are the ping-pong's, 3 and
            // 4 `consumer_sync`'s).
            named_barrier_sync::<5, 256>();
        } else {
            if t == 0 {
                store_wait_read::<0>();
            }
            consumer_sync(w);
        }
        for h in 0..H {
            // Half `h`'s accumulators: an accumulator's values of its halves one after
            // another (the C layout's last value mode walks the columns 8 at a time).
            let (acc, first) = (o[h / (H / OA)].as_ref(), h % (H / OA) * 2 * O_REGS);
            let frg: [u32; O_REGS] = core::array::from_fn(|i| {
                let v = first + 2 * i;
                let k = AccRows::<O>::ROW_OF.0[v];
                O::Elem::pack(acc[v] * inv[k], acc[v + 1] * inv[k])
            });
            copy_from_fragment(&StoreSmemO::<O>::default(), t, &frg, &tile(h));
        }
        fence_proxy_async();
        consumer_sync(w);
        if t == 0 {
            for h in 0..H {
                StoreO::default().copy_at_nd(map_o, &tile(h), [(64 * h) as i32, q_row0 as i32, bh as i32]);
            }
            store_commit();
            if IN_V {
                store_wait_read::<0>();
                mbarrier_arrive(bar);
            }
        }
    }
}

/// Consumer warpgroup `w`'s own barrier (named barrier `3 + w`, its 128 threads).
///
/// # Safety
/// Every thread of the warpgroup, together.
#[inline(always)]
unsafe fn consumer_sync(w: usize) {
    // SAFETY: the caller's promise; barriers 1 and 2 are the ping-pong's.
    unsafe {
        if w == 0 {
            named_barrier_sync::<3, 128>();
        } else {
            named_barrier_sync::<4, 128>();
        }
    }
}

/// A `V` stage at `base`, written by the TMA as `(keys, 64)` K-major tiles, read as the
/// MN-major GMMA tile `VB` of the same bytes (`O += P·V`'s B, N the head dimension: a half,
/// `VHalf`, or both, `VBoth`).
#[inline(always)]
fn v_as_b<VB: Default>(base: u32) -> SmemTensor<u16, VB> {
    SmemTensor::new(base, VB::default())
}

/// `ln(x)` for `x > 0`, from `lg2.approx` through `ex2`'s inverse: `ln(x) = log2(x) · ln 2`.
#[inline(always)]
fn ln(x: f32) -> f32 {
    cute_atom::arch::math::lg2(x) * core::f32::consts::LN_2
}
