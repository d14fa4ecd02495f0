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
//! * the epilogue divides by the row sums and stores `O` (through the `RS` atom's C layout)
//!   and the log-sum-exp of each row.
//!
//! Sequences of any length: keys past `seq` are masked (`-inf`, weight 0: the rows a ragged
//! block's TMA box reads from the next head, or zeros past the tensor, count for nothing),
//! queries past it are not stored. A row with no key left (none here: `seq_q == seq_k`) would
//! store zeros and a log-sum-exp of `+inf`, not NaN.

use cute_atom::algorithm::{acc_as_a, mask, warpgroup_wait, AccRows, TiledWgmma, WgmmaOperandB, WgmmaOperands};
use cute_atom::arch::barrier::{named_barrier_arrive, named_barrier_sync};
use cute_atom::arch::math::ex2;
use cute_atom::arch::thread::{dynamic_smem, setmaxnreg_dec, setmaxnreg_inc};
use cute_atom::atom::{Accumulators, Element16, MmaCall};
use cute_atom::pipeline::PipelineState;
use cute_atom::SmemTensor;
use cute_static::gmma::{ModeSizes, K, MN};
use cute_static::product::ConstLeaves;

use crate::{block_idx, grid_dim, sync_threads, thread_idx};

pub mod by_hand;
pub mod tiles;
use tiles::*;

/// A kernel of the signature every variant shares, `(seq, scale, causal, map_q, map_k, map_v,
/// o, lse)`, whose body is `$body`; a persistent one (`persistent`) also takes `heads`, the
/// `batch·heads` sequences (its grid does not say them).
macro_rules! attention_kernel {
    ($(#[$doc:meta])* $name:ident => $body:expr) => {
        attention_kernel!(@ $(#[$doc])* $name => $body; heads: 0usize;);
    };
    ($(#[$doc:meta])* persistent $name:ident => $body:expr) => {
        attention_kernel!(@ $(#[$doc])* $name => $body; heads: heads; heads: usize);
    };
    (@ $(#[$doc:meta])* $name:ident => $body:expr; heads: $heads:expr; $($arg:ident: $ty:ty)?) => {
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
            $($arg: $ty)?
        ) {
            let body: unsafe fn((usize, usize), f32, bool, (*const u8, *const u8, *const u8), *mut u16, *mut f32) = $body;
            // SAFETY: the caller's maps and buffers.
            unsafe { body((seq, $heads), scale, causal != 0, (map_q, map_k, map_v), o, lse) }
        }
    };
}

attention_kernel! {
    /// `O = softmax(Q·Kᵀ · scale) · V` (`causal != 0`: with the causal mask, key `j` of query
    /// `i` when `j <= i`), fp16. Grid `(ceil(seq/128), batch·heads)`, 384 threads,
    /// `tiles::SMEM_BYTES` of dynamic shared memory; `map_q`, `map_k`, `map_v` the tensor maps
    /// of the `(batch·heads·seq, 128)` tensors with 64x128 boxes, 128-byte swizzle; `o` the
    /// output (same shape), `lse` the `batch·heads·seq` log-sum-exps (natural log, of the
    /// scaled scores); `scale` the scores' scale times log2(e).
    attention_fwd => body::<Score, Out, 2, true, false, false>
}

attention_kernel! {
    /// `attention_fwd` without the overlap: each key block's `S`, softmax and `O += P·V` in
    /// turn (the baseline the overlap is measured against).
    attention_fwd_serial => body::<Score, Out, 2, false, false, false>
}

attention_kernel! {
    /// `attention_fwd` with FlashAttention-3's warpgroup ping-pong: the two consumer
    /// warpgroups take turns issuing their `wgmma`s (named barriers 1 and 2), so that one's
    /// softmax runs while the other's products have the tensor cores.
    attention_fwd_pingpong => body::<Score, Out, 2, true, true, false>
}

attention_kernel! {
    /// `attention_fwd_serial` with the warpgroup ping-pong: each product is a turn.
    attention_fwd_serial_pingpong => body::<Score, Out, 2, false, true, false>
}

attention_kernel! {
    /// `attention_fwd_serial` on a persistent grid: `heads` is `batch·heads`, and a block of a
    /// 1-D grid (one a multiprocessor) takes every `gridDim`-th `(query block, head)` tile, a
    /// head's last query block first. The rings run on across tiles: the producer loads the
    /// next tile's `Q` as soon as the consumers release it (their last `S` done), and its first
    /// `K` and `V` stages, while they normalize and store this tile's `O`. Measured 2% to 7%
    /// slower than the grid of a block a tile, and 26% with the causal mask at 16k (the static
    /// stride does not balance the causal tiles' work; `docs/gpu.md`).
    persistent attention_fwd_persistent => body::<Score, Out, 2, false, false, true>
}

attention_kernel! {
    /// `attention_fwd_persistent` with the intra-warpgroup overlap of `attention_fwd`.
    persistent attention_fwd_persistent_overlap => body::<Score, Out, 2, true, false, true>
}

attention_kernel! {
    /// `attention_fwd` for head dimension 64 (one 64-wide half of each tile; the maps' boxes
    /// the same 64x128).
    attention_fwd_hd64 => body::<Score, Out, 1, true, false, false>
}

attention_kernel! {
    /// The same kernel with its addresses, descriptors, barriers and fragments written by hand:
    /// the twin `scripts/gpu/ptx_guard.py` holds `attention_fwd` to.
    attention_fwd_by_hand => by_hand::by_hand
}

attention_kernel! {
    /// `attention_fwd` for bfloat16 `Q`, `K`, `V`, `O` (the maps' data type bfloat16).
    attention_fwd_bf16 => body::<ScoreBf16, OutBf16, 2, true, false, false>
}

/// The kernels' one body: `H` halves of 64 in the head dimension; `OVERLAP`, FA3's
/// intra-warpgroup overlap of `S_{j+1}` with `O += P_j·V_j`; `PINGPONG`, the consumer
/// warpgroups' turns; `PERSISTENT`, the block's tiles taken in turn (`heads` then says how
/// many sequences there are), else the grid's one.
#[inline(always)]
unsafe fn body<S, O, const H: usize, const OVERLAP: bool, const PINGPONG: bool, const PERSISTENT: bool>(
    (seq, heads): (usize, usize),
    scale: f32,
    causal: bool,
    (map_q, map_k, map_v): (*const u8, *const u8, *const u8),
    out: *mut u16,
    lse: *mut f32,
) where
    S: WgmmaOperands<Half, Half, K, K>,
    O: WgmmaOperandB<VHalf, MN> + MmaCall<A = [u32; 4], Elem: Element16>,
    S::CLayout: ConstLeaves + ModeSizes,
    O::CLayout: ConstLeaves + ModeSizes,
    Halves<H>: HeadDim,
{
    let d = 64 * H;
    // The rows the kernel's arrays are sized for, its atoms' (the f16 atoms', checked in
    // `tiles`: FIRST_OF_ROW).
    const { assert!(AccRows::<S>::ROW_OF.1 == ROWS && AccRows::<O>::ROW_OF.1 == ROWS) };
    let (tid, _) = thread_idx();
    // The block's tiles, `(query block, head)`: its grid position, or (PERSISTENT) every
    // `gridDim`-th of the heads' query blocks from its own. Either way each head's last block
    // comes first (the longest, when causal: the grid's tail is short blocks, not long ones)
    // and a head's blocks in turn (they share its `K` and `V` in L2).
    let q_blocks = seq.div_ceil(BM);
    let (first, step, tiles) = if PERSISTENT { (block_idx().0, grid_dim(), q_blocks * heads) } else { (0, 1, 1) };
    let tile_of = |tile: usize| {
        if PERSISTENT {
            (q_blocks - 1 - tile % q_blocks, tile / q_blocks)
        } else {
            let (x, bh) = block_idx();
            (q_blocks - 1 - x, bh)
        }
    };
    // The keys a query block attends to.
    let key_blocks_of = |m_block: usize| if causal { seq.min((m_block + 1) * BM) } else { seq }.div_ceil(BN);
    let smem = dynamic_smem();
    let (q_bytes, kv_bytes) = (PipeQ::<Halves<H>>::SMEM_BYTES as u32, PipeKv::<Halves<H>>::SMEM_BYTES as u32);
    let (pipe_q, q) = PipeQ::<Halves<H>>::carve(smem);
    let (pipe_k, k) = PipeKv::<Halves<H>>::carve(smem + q_bytes);
    let (pipe_v, v) = PipeKv::<Halves<H>>::carve(smem + q_bytes + kv_bytes);
    if tid == 0 {
        // SAFETY: one thread, before the barrier below that publishes them.
        unsafe {
            pipe_q.init();
            pipe_k.init();
            pipe_v.init();
        }
    }
    sync_threads();

    if tid / 128 == 0 {
        // SAFETY: the whole producer warpgroup.
        unsafe { setmaxnreg_dec::<40>() };
        if tid == 0 {
            let load = LoadHalf::default();
            let (mut wq, mut wk, mut wv) =
                (PipelineState::producer_start(), PipelineState::producer_start(), PipelineState::producer_start());
            let mut tile = first;
            while tile < tiles {
                let (m_block, bh) = tile_of(tile);
                tile += step;
                // The head's first row of the (batch·heads·seq, d) tensors.
                let row0 = bh * seq;
                // SAFETY: the pipelines' one producer thread; each copy fills the stage its
                // acquire gave, on that stage's barrier; the maps are the caller's. `Q`'s
                // stage is the consumers' until they release it after the tile's last `S`.
                unsafe {
                    let bar = pipe_q.producer_acquire(&wq);
                    for h in 0..H {
                        load.copy_at(map_q, &q.half(h).stage(0), (row0 + m_block * BM, 64 * h), bar);
                    }
                    wq.advance();
                    for j in 0..key_blocks_of(m_block) {
                        let bar = pipe_k.producer_acquire(&wk);
                        for h in 0..H {
                            load.copy_at(map_k, &k.half(h).stage(wk.index()), (row0 + j * BN, 64 * h), bar);
                        }
                        wk.advance();
                        let bar = pipe_v.producer_acquire(&wv);
                        for h in 0..H {
                            load.copy_at(map_v, &v.half(h).stage(wv.index()), (row0 + j * BN, 64 * h), bar);
                        }
                        wv.advance();
                    }
                }
            }
        }
        return;
    }
    // SAFETY: the whole consumer warpgroup.
    unsafe { setmaxnreg_inc::<232>() };
    let (w, t) = (tid / 128 - 1, tid % 128);
    let (mma_s, mma_o) =
        (TiledWgmma::<S, CONSUMERS>::new().slice(w), TiledWgmma::<O, CONSUMERS, K, MN>::new().slice(w));
    let (mut rq, mut rk, mut rv) =
        (PipelineState::consumer_start(), PipelineState::consumer_start(), PipelineState::consumer_start());
    let mut tile = first;
    while tile < tiles {
        let (m_block, bh) = tile_of(tile);
        tile += step;
        let row0 = bh * seq;
        let key_blocks = key_blocks_of(m_block);
        // The warpgroup's first query row of the head.
        let q_row0 = m_block * BM + w * S::SHAPE_MNK[0];
        // The thread's rows: ROWS of them, value v of S in local row ROW_OF[v] (the same rows as
        // O's local rows: `tiles::FIRST_OF_ROW`).
        let row_of = AccRows::<S>::ROW_OF.0;
        let (mut m_i, mut l_i) = ([f32::NEG_INFINITY; ROWS], [0.0f32; ROWS]);
        // O's columns 64h.. in o[h].
        let mut o = [O::zeros(); H];
        // SAFETY: the warpgroup waits for Q's stage, which no one writes before it is released.
        unsafe { pipe_q.consumer_wait(&rq) };
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
                        mma_o.gemm_rs(&$p, &v_as_b(v.half(h).stage(rv.index())), o);
                    }
                }
            };
        }
        // `S`'s groups waited (all, or all but `O`'s), then K's stage released.
        macro_rules! s_done {
            ($s:expr, $wait:expr) => {
                // SAFETY: the warpgroup's own groups; the stage is released once they are done.
                unsafe {
                    $wait(&mut $s);
                    pipe_k.consumer_release(&rk, t);
                }
                rk.advance();
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
                if (j + 1) * BN > seq || (causal && (j + 1) * BN > q_row0) {
                    mask::<S>(&mut $s, t, (q_row0, j * BN), seq, causal.then_some(0));
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
                $s.for_each_mut(|v, x| *x = ex2(*x * scale - m_use[row_of[v]]));
                // SAFETY: as above.
                let sum = unsafe { AccRows::<S>::reduce::<ROWS>(&$s, 0.0, |a, b| a + b) };
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
            s_done!(s, warpgroup_wait::<0>);
            softmax!(s, 0);
            let mut p = acc_as_a::<S, O, { BN / 16 }>(&s);
            for j in 1..key_blocks {
                let mut s = S::zeros();
                turn! {
                    issue_s!(s, rk);
                    issue_o!(p);
                }
                // S_j's groups done, O's may run on.
                s_done!(s, wait_all_but::<H>);
                let corr = softmax!(s, j);
                o_done!();
                o.iter_mut().for_each(|o| AccRows::<O>::scale(o, &corr));
                p = acc_as_a::<S, O, { BN / 16 }>(&s);
            }
            issue_o!(p);
            o_done!();
        } else {
            for j in 0..key_blocks {
                let mut s = S::zeros();
                turn! { issue_s!(s, rk); }
                s_done!(s, warpgroup_wait::<0>);
                let corr = softmax!(s, j);
                o.iter_mut().for_each(|o| AccRows::<O>::scale(o, &corr));
                let p = acc_as_a::<S, O, { BN / 16 }>(&s);
                turn! { issue_o!(p); }
                o_done!();
            }
        }
        // Q's stage free for the next tile's (every S of this one done).
        // SAFETY: the warpgroup's products are all done (`o_done`).
        unsafe { pipe_q.consumer_release(&rq, t) };
        rq.advance();
        // Epilogue: O / l through the RS atom's C layout (its values' rows are S's rows), pairs of
        // neighbours as one 4-byte store; the log-sum-exp by the first lane of each row's quad.
        let inv = l_i.map(|l| if l > 0.0 { 1.0 / l } else { 0.0 });
        let (r0, c0) = O::c_coord(t, 0);
        for (half, acc) in o.iter().enumerate() {
            acc.for_each_pair(|v, lo, hi| {
                let (dr, dc) = O::c_coord(0, v);
                let (r, c) = (q_row0 + r0 + dr, 64 * half + c0 + dc);
                if r < seq {
                    let k = AccRows::<O>::ROW_OF.0[v];
                    let packed = <O as MmaCall>::Elem::pack(lo * inv[k], hi * inv[k]);
                    // SAFETY: (r, c..c+2) inside the head's rows of O (c even, d a multiple of 64).
                    unsafe { (out.add((row0 + r) * d + c) as *mut u32).write(packed) };
                }
            });
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
}

/// Waits until at most `N` of the warpgroup's `wgmma` groups are pending (the last `N`
/// issued), then ties `acc`'s registers here.
///
/// # Safety
/// As [`warpgroup_wait`].
#[inline(always)]
unsafe fn wait_all_but<const N: usize>(acc: &mut impl Accumulators) {
    const { assert!(N == 1 || N == 2, "a head dimension of one or two halves") };
    // SAFETY: the caller's promise.
    unsafe {
        match N {
            1 => warpgroup_wait::<1>(acc),
            _ => warpgroup_wait::<2>(acc),
        }
    }
}

/// A `V` stage, written by the TMA as a `(keys, 64)` K-major tile, read as the `(64, keys)`
/// MN-major GMMA tile of the same bytes (`O += P·V`'s B, N the head dimension).
#[inline(always)]
fn v_as_b(stage: SmemTensor<u16, Half>) -> SmemTensor<u16, VHalf> {
    SmemTensor::new(stage.base(), VHalf::default())
}

/// `ln(x)` for `x > 0`, from `lg2.approx` through `ex2`'s inverse: `ln(x) = log2(x) · ln 2`.
#[inline(always)]
fn ln(x: f32) -> f32 {
    cute_atom::arch::math::lg2(x) * core::f32::consts::LN_2
}
