//! `attention_fwd`'s hand-indexed twin: the same kernel (fp16, the intra-warpgroup overlap)
//! with every address, descriptor, barrier phase, fragment coordinate and lane written out by
//! hand, and the instructions called one by one from `cute_atom::arch`. The reference the
//! layout kernel's PTX is held to (`scripts/gpu/ptx_guard.py`).

use cute_atom::arch::barrier::{mbarrier_arrive, mbarrier_arrive_expect_tx, mbarrier_init, mbarrier_wait};
use cute_atom::arch::copy::cvt_f16x2;
use cute_atom::arch::math::{ex2, lg2};
use cute_atom::arch::thread::{dynamic_smem, setmaxnreg_dec, setmaxnreg_inc};
use cute_atom::arch::tma::load_2d;
use cute_atom::arch::warp::shfl_xor_f32;
use cute_atom::arch::wgmma::{self, Accumulators};
use cute_static::gmma::{K, MN};

use super::tiles::{BM, BN, CONSUMERS, D, STAGES};
use crate::{block_idx, sync_threads, thread_idx};

/// Bytes of a 128x64 half tile.
const HALF: u32 = 128 * 64 * 2;

/// A K-major, 128-byte-swizzle descriptor: 8-row core groups 1024 bytes apart (SBO), LBO 1
/// (unused when swizzled), the start address in 16-byte units.
#[inline(always)]
fn desc_k(start: u32) -> u64 {
    (1u64 << 62) | ((1024u64 >> 4) << 32) | (1u64 << 16) | u64::from((start >> 4) & 0x3fff)
}

/// An MN-major, 128-byte-swizzle descriptor of a 64-wide tile: 8-key core groups 1024 bytes
/// apart (SBO), LBO 0 (one atom along N).
#[inline(always)]
fn desc_mn(start: u32) -> u64 {
    (1u64 << 62) | ((1024u64 >> 4) << 32) | u64::from((start >> 4) & 0x3fff)
}

/// The hand-indexed kernel, `attention_fwd`'s signature.
#[inline(always)]
pub unsafe fn by_hand(
    (seq, _heads, _counters): (usize, usize, *mut u32),
    scale: f32,
    causal: bool,
    (map_q, map_k, map_v, _map_o): super::Maps,
    o: *mut u16,
    lse: *mut f32,
) {
    let (tid, _) = thread_idx();
    // The head's last query block first (as `attention_fwd`).
    let (x, bh) = block_idx();
    let m_block = seq.div_ceil(BM) - 1 - x;
    let row0 = bh * seq;
    let key_blocks = if causal { seq.min((m_block + 1) * BM) } else { seq }.div_ceil(BN);
    // Q's halves, then K's and V's rings (two halves a stage), then the barriers.
    let base = (dynamic_smem() + 1023) & !1023;
    let q = |h: u32| base + h * HALF;
    let k_at = |s: usize, h: u32| base + 2 * HALF + (2 * s as u32 + h) * HALF;
    let v_at = |s: usize, h: u32| base + (2 + 2 * STAGES as u32) * HALF + (2 * s as u32 + h) * HALF;
    let bars = base + (2 + 4 * STAGES as u32) * HALF;
    let q_full = bars;
    let k_full = |s: usize| bars + 8 + 8 * s as u32;
    let k_empty = |s: usize| bars + 8 + 8 * (STAGES + s) as u32;
    let v_full = |s: usize| bars + 8 + 8 * (2 * STAGES + s) as u32;
    let v_empty = |s: usize| bars + 8 + 8 * (3 * STAGES + s) as u32;
    if tid == 0 {
        // SAFETY: the barriers' own words; the block barrier below publishes them.
        unsafe {
            mbarrier_init(q_full, 1);
            for s in 0..STAGES {
                mbarrier_init(k_full(s), 1);
                mbarrier_init(k_empty(s), CONSUMERS as u32);
                mbarrier_init(v_full(s), 1);
                mbarrier_init(v_empty(s), CONSUMERS as u32);
            }
        }
    }
    sync_threads();

    if tid / 128 == 0 {
        // SAFETY: the whole producer warpgroup.
        unsafe { setmaxnreg_dec::<40>() };
        if tid == 0 {
            // SAFETY: initialized barriers; each box fits its 1024-byte-aligned half.
            unsafe {
                let r = (row0 + m_block * BM) as i32;
                mbarrier_arrive_expect_tx(q_full, 2 * HALF);
                load_2d(q(0), map_q, q_full, [0, r]);
                load_2d(q(1), map_q, q_full, [64, r]);
                for j in 0..key_blocks {
                    let (s, round) = (j % STAGES, (j / STAGES) as u32);
                    let r = (row0 + j * BN) as i32;
                    if round > 0 {
                        mbarrier_wait(k_empty(s), (round - 1) & 1);
                    }
                    mbarrier_arrive_expect_tx(k_full(s), 2 * HALF);
                    load_2d(k_at(s, 0), map_k, k_full(s), [0, r]);
                    load_2d(k_at(s, 1), map_k, k_full(s), [64, r]);
                    if round > 0 {
                        mbarrier_wait(v_empty(s), (round - 1) & 1);
                    }
                    mbarrier_arrive_expect_tx(v_full(s), 2 * HALF);
                    load_2d(v_at(s, 0), map_v, v_full(s), [0, r]);
                    load_2d(v_at(s, 1), map_v, v_full(s), [64, r]);
                }
            }
        }
        return;
    }
    // SAFETY: the whole consumer warpgroup.
    unsafe { setmaxnreg_inc::<232>() };
    let (w, t) = (tid / 128 - 1, tid % 128);
    let (warp, lane) = (t / 32, t % 32);
    // The thread's rows of the warpgroup's 64: r and r + 8 (the wgmma D fragment).
    let q_row0 = m_block * BM + 64 * w;
    let r0 = 16 * warp + lane / 4;
    let c0 = 2 * (lane % 4);
    let (mut m_i, mut l_i) = ([f32::NEG_INFINITY; 2], [0.0f32; 2]);
    let (mut o_lo, mut o_hi) = ([0.0f32; 32], [0.0f32; 32]);
    // SAFETY: Q's barrier, completed once.
    unsafe { mbarrier_wait(q_full, 0) };

    // (Macros, not closures: inlined always, so the accumulators stay in registers.)
    macro_rules! issue_s {
        ($s_acc:expr, $j:expr) => {{
            let (s_acc, j): (&mut [f32; 64], usize) = (&mut $s_acc, $j);
            let s = j % STAGES;
            // SAFETY: the stage's barrier; the descriptors address its halves and Q's, rows 64w.
            unsafe {
                mbarrier_wait(k_full(s), (j / STAGES) as u32 & 1);
                for h in 0..2u32 {
                    wgmma::fence();
                    for kk in 0..4u32 {
                        let (da, db) = (desc_k(q(h) + w as u32 * 64 * 128 + kk * 32), desc_k(k_at(s, h) + kk * 32));
                        wgmma::m64n128k16_f32_f16_f16_ss::<K, K>(s_acc, da, db, 1);
                    }
                    wgmma::commit_group();
                }
            }
        }};
    }
    macro_rules! issue_o {
        ($p:expr, $j:expr) => {{
            let (p, j): (&[[u32; 4]; 8], usize) = (&$p, $j);
            let s = j % STAGES;
            // SAFETY: as above; V's halves MN-major, 16 keys (2048 bytes) a k-block.
            unsafe {
                mbarrier_wait(v_full(s), (j / STAGES) as u32 & 1);
                wgmma::fence();
                for (kk, a) in p.iter().enumerate() {
                    wgmma::m64n64k16_f32_f16_f16_rs::<MN>(&mut o_lo, *a, desc_mn(v_at(s, 0) + kk as u32 * 2048), 1);
                }
                wgmma::commit_group();
                wgmma::fence();
                for (kk, a) in p.iter().enumerate() {
                    wgmma::m64n64k16_f32_f16_f16_rs::<MN>(&mut o_hi, *a, desc_mn(v_at(s, 1) + kk as u32 * 2048), 1);
                }
                wgmma::commit_group();
            }
        }};
    }
    // The row's maximum (or sum) over the thread's values, then its quad (lanes ^1, ^2).
    macro_rules! reduce {
        ($s_acc:expr, $init:expr, $op:expr) => {{
            let (s_acc, op): (&[f32; 64], fn(f32, f32) -> f32) = (&$s_acc, $op);
            let mut r = [$init; 2];
            for (v, &x) in s_acc.iter().enumerate() {
                r[v / 2 % 2] = op(r[v / 2 % 2], x);
            }
            // SAFETY: every lane of the warp.
            unsafe {
                for x in &mut r {
                    *x = op(*x, shfl_xor_f32(*x, 1));
                    *x = op(*x, shfl_xor_f32(*x, 2));
                }
            }
            r
        }};
    }
    macro_rules! softmax {
        ($s_acc:expr, $j:expr) => {{
            let j: usize = $j;
            if (j + 1) * BN > seq || (causal && (j + 1) * BN > q_row0) {
                for (v, x) in $s_acc.iter_mut().enumerate() {
                    let (row, col) = (q_row0 + r0 + 8 * (v / 2 % 2), j * BN + 8 * (v / 4) + c0 + v % 2);
                    if col >= seq || (causal && col > row) {
                        *x = f32::NEG_INFINITY;
                    }
                }
            }
            let max = reduce!($s_acc, f32::NEG_INFINITY, f32::max);
            let (mut corr, mut m_use) = ([0.0f32; 2], [0.0f32; 2]);
            for r in 0..2 {
                let m_new = m_i[r].max(max[r] * scale);
                m_use[r] = if m_new == f32::NEG_INFINITY { 0.0 } else { m_new };
                corr[r] = ex2(m_i[r] - m_use[r]);
                m_i[r] = m_new;
            }
            for (v, x) in $s_acc.iter_mut().enumerate() {
                *x = ex2(*x * scale - m_use[v / 2 % 2]);
            }
            let sum = reduce!($s_acc, 0.0, |a, b| a + b);
            for r in 0..2 {
                l_i[r] = l_i[r] * corr[r] + sum[r];
            }
            corr
        }};
    }
    // S's 16-key block kb as the RS A fragment: (r, c..c+1), (r + 8, ...), then 8 columns on.
    macro_rules! as_a {
        ($s_acc:expr) => {{
            let s_acc: &[f32; 64] = &$s_acc;
            let p: [[u32; 4]; 8] = core::array::from_fn(|kb| {
                core::array::from_fn(|i| cvt_f16x2(s_acc[8 * kb + 2 * i], s_acc[8 * kb + 2 * i + 1]))
            });
            p
        }};
    }
    macro_rules! rescale {
        ($o:expr, $corr:expr) => {
            for (v, x) in $o.iter_mut().enumerate() {
                *x *= $corr[v / 2 % 2];
            }
        };
    }
    let release = |bar: u32| {
        if t == 0 {
            // SAFETY: an initialized barrier of this block.
            unsafe { mbarrier_arrive(bar) };
        }
    };

    let mut s_acc = [0.0f32; 64];
    issue_s!(s_acc, 0);
    // SAFETY: the warpgroup's own groups.
    unsafe { wgmma::wait_group::<0>() };
    s_acc.fence_operands();
    release(k_empty(0));
    softmax!(s_acc, 0);
    let mut p = as_a!(s_acc);
    for j in 1..key_blocks {
        let mut s_acc = [0.0f32; 64];
        issue_s!(s_acc, j);
        issue_o!(p, j - 1);
        // SAFETY: the warpgroup's own groups: S's two done, O's may run on.
        unsafe { wgmma::wait_group::<2>() };
        s_acc.fence_operands();
        release(k_empty(j % STAGES));
        let corr = softmax!(s_acc, j);
        // SAFETY: as above; every group done.
        unsafe { wgmma::wait_group::<0>() };
        o_lo.fence_operands();
        o_hi.fence_operands();
        release(v_empty((j - 1) % STAGES));
        rescale!(o_lo, corr);
        rescale!(o_hi, corr);
        p = as_a!(s_acc);
    }
    issue_o!(p, key_blocks - 1);
    // SAFETY: as above.
    unsafe { wgmma::wait_group::<0>() };
    o_lo.fence_operands();
    o_hi.fence_operands();
    release(v_empty((key_blocks - 1) % STAGES));

    let inv = l_i.map(|l| if l > 0.0 { 1.0 / l } else { 0.0 });
    for (half, acc) in [(0, &o_lo), (1, &o_hi)] {
        for v in (0..32).step_by(2) {
            let (r, c) = (q_row0 + r0 + 8 * (v / 2 % 2), half * D / 2 + 8 * (v / 4) + c0);
            if r < seq {
                let k = v / 2 % 2;
                let packed = cvt_f16x2(acc[v] * inv[k], acc[v + 1] * inv[k]);
                // SAFETY: (r, c..c+2) inside the head's rows of O.
                unsafe { (o.add((row0 + r) * D + c) as *mut u32).write(packed) };
            }
        }
    }
    if c0 == 0 {
        for k in 0..2 {
            let r = q_row0 + r0 + 8 * k;
            if r < seq {
                let x = if l_i[k] > 0.0 {
                    m_i[k] * core::f32::consts::LN_2 + lg2(l_i[k]) * core::f32::consts::LN_2
                } else {
                    f32::INFINITY
                };
                // SAFETY: row r of the head inside lse.
                unsafe { lse.add(row0 + r).write(x) };
            }
        }
    }
}
