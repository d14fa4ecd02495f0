//! The FlashAttention forward kernel's host (`attention_fwd` of `gpu/src/attention.rs`): its
//! TMA maps from the kernel's own tiles, checks against an fp32 reference on the host (random
//! inputs, ragged lengths, causal and not), and timings.

use std::sync::Arc;

use cudarc::driver::{CudaFunction, CudaSlice, CudaStream, LaunchConfig, PushKernelArg};

#[path = "../../gpu/src/attention/tiles.rs"]
#[allow(dead_code)]
pub mod tiles;
/// What a kernel's name says of its launch: the keys a block takes (176 for the `_n176` kernels,
/// 80 for the `_hd256` ones, else 128), the blocks a cluster (2 for the `_cluster` kernels,
/// which multicast `K` and `V`), and whether it stores `O` with the TMA (`_epi`: it takes `O`'s
/// map, and the shared memory of its `O` tiles).
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct Kind {
    pub keys: usize,
    pub cluster: usize,
    pub epi: bool,
}

/// The [`Kind`] of the kernel `name`.
pub fn kind_of(name: &str) -> Kind {
    let keys = if name.contains("_n176") {
        176
    } else if name.contains("_hd256") {
        80
    } else {
        BN
    };
    Kind { keys, cluster: if name.contains("_cluster") { 2 } else { 1 }, epi: name.ends_with("_epi") }
}

/// Dynamic shared memory a block of the kernel of head dimension `d` (64, 128 or 256) and kind
/// `kind` (key blocks of 128, or 176 for head dimension 128; 80 for 256).
pub fn smem_bytes(d: usize, kind: Kind) -> usize {
    match (d, kind.keys, kind.epi) {
        (64, _, _) => Smem::<Halves<1>, Keys<8>>::BYTES,
        (256, _, _) => Smem::<Halves<4>, Keys<5>>::BYTES,
        (_, 176, _) => Smem::<Halves<2>, Keys<11>>::BYTES,
        (_, _, true) => SMEM_BYTES_EPI,
        _ => SMEM_BYTES,
    }
}

/// The maps of `K` and `V` an [`Attention`] of head dimension `d` holds: one for each (keys a
/// block, blocks a cluster) of its kernels.
fn kv_maps(d: usize) -> &'static [(usize, usize)] {
    match d {
        64 => &[(128, 1)],
        256 => &[(80, 1)],
        _ => &[(128, 1), (176, 1), (128, 2), (176, 2)],
    }
}
use tiles::*;

use crate::{tensor_map, Dtype, Res};

/// One problem: `batch·heads` sequences of `seq` tokens, head dimension `d` (64, 128 or 256),
/// fp16 or bf16.
pub struct Attention {
    pub dtype: Dtype,
    pub d: usize,
    pub bh: usize,
    pub seq: usize,
    pub causal: bool,
    q: Vec<f32>,
    k: Vec<f32>,
    v: Vec<f32>,
    /// The device's Q, K, V, which the maps point into (kept alive with them).
    _data: [CudaSlice<u16>; 3],
    pub o: CudaSlice<u16>,
    pub lse: CudaSlice<f32>,
    /// `Q`'s map, then `K`'s and `V`'s for each of `kv_maps(d)` (their boxes a block's part of
    /// the key block's `tiles::KeyBlock::Half`).
    maps: Vec<CudaSlice<u64>>,
    /// `O`'s map for the `_epi` kernels' TMA stores: `(seq, d, batch·heads)`, `tiles::OTile`'s
    /// box.
    map_o: CudaSlice<u64>,
    /// A persistent kernel's tile scheduler: zero, and each launch leaves it so.
    counters: CudaSlice<u32>,
}

/// A deterministic value in [-1, 1) per index, rounded to the type.
fn uniform(dtype: Dtype, seed: u64, i: usize) -> f32 {
    let x = (crate::splitmix(seed, i) >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0;
    dtype.value_of(dtype.bits_of(x))
}

impl Attention {
    pub fn new(stream: &Arc<CudaStream>, dtype: Dtype, d: usize, bh: usize, seq: usize, causal: bool) -> Res<Self> {
        let n = bh * seq * d;
        let gen = |seed| (0..n).map(|i| uniform(dtype, seed, i)).collect::<Vec<f32>>();
        let (q, k, v) = (gen(11), gen(12), gen(13));
        let up = |x: &[f32]| stream.clone_htod(&x.iter().map(|&x| dtype.bits_of(x)).collect::<Vec<u16>>());
        let (dq, dk, dv) = (up(&q)?, up(&k)?, up(&v)?);
        let map = |x: &CudaSlice<u16>, (keys, cluster): (usize, usize)| {
            let cluster = cluster as u32;
            match keys {
                176 => tensor_map(stream, dtype, cluster, bh * seq, d, x, &Half176::default()),
                80 => tensor_map(stream, dtype, cluster, bh * seq, d, x, &Half80::default()),
                _ => tensor_map(stream, dtype, cluster, bh * seq, d, x, &Half::default()),
            }
        };
        let mut maps = vec![map(&dq, (BM, 1))?];
        for &kv in kv_maps(d) {
            maps.extend([map(&dk, kv)?, map(&dv, kv)?]);
        }
        let (o, lse) = (stream.alloc_zeros::<u16>(n)?, stream.alloc_zeros::<f32>(bh * seq)?);
        let map_o = crate::encode_tensor_map(stream, o_map_desc(dtype, bh, seq, d)?, &o)?;
        let counters = stream.alloc_zeros::<u32>(2)?;
        Ok(Attention { dtype, d, bh, seq, causal, q, k, v, _data: [dq, dk, dv], o, lse, maps, map_o, counters })
    }

    /// `1/sqrt(d)`, the scores' scale.
    pub fn softmax_scale(&self) -> f32 {
        1.0 / (self.d as f32).sqrt()
    }

    /// One launch: a block per 128 query rows of each sequence (an even number of them in
    /// clusters of 2), or (`persistent`, a kernel that takes `heads`) that many blocks taking
    /// the tiles in turn; `kind` the kernel's ([`kind_of`]).
    pub fn launch(
        &mut self,
        stream: &Arc<CudaStream>,
        f: &CudaFunction,
        persistent: Option<usize>,
        kind: Kind,
    ) -> Res<()> {
        let (keys, cluster) = (kind.keys, kind.cluster);
        let tiles = self.seq.div_ceil(BM) * self.bh;
        let cfg = LaunchConfig {
            grid_dim: match persistent {
                Some(blocks) => (blocks.min(tiles) as u32, 1, 1),
                None => (self.seq.div_ceil(BM).next_multiple_of(cluster) as u32, self.bh as u32, 1),
            },
            block_dim: (THREADS as u32, 1, 1),
            shared_mem_bytes: smem_bytes(self.d, kind) as u32,
        };
        let scale = self.softmax_scale() * std::f32::consts::LOG2_E;
        let causal = u32::from(self.causal);
        let mut l = stream.launch_builder(f);
        let kv = 1 + 2 * kv_maps(self.d).iter().position(|&m| m == (keys, cluster)).ok_or("no maps for this kernel")?;
        l.arg(&self.seq).arg(&scale).arg(&causal).arg(&self.maps[0]).arg(&self.maps[kv]).arg(&self.maps[kv + 1]);
        l.arg(&mut self.o).arg(&mut self.lse);
        if persistent.is_some() {
            l.arg(&self.bh).arg(&mut self.counters);
        }
        if kind.epi {
            l.arg(&self.map_o);
        }
        // SAFETY: the kernel's signature (seq, scale, causal, map_q, map_k, map_v, o, lse[,
        // heads, counters][, map_o]), the maps of Q, K, V of bh * seq rows of D halves, O of as
        // many (and its map), lse of bh * seq floats, two zero words of counters (launches on
        // one stream, in turn).
        unsafe { l.launch(cfg) }?;
        Ok(())
    }

    /// FLOPs of one forward (two GEMMs of `2·seq²·D` each per sequence; half with the causal
    /// mask, as FlashAttention counts).
    pub fn flops(&self) -> f64 {
        let full = 4.0 * self.bh as f64 * (self.seq as f64).powi(2) * self.d as f64;
        if self.causal {
            full / 2.0
        } else {
            full
        }
    }

    /// The largest differences of `O` and of the log-sum-exp from the fp32 reference computed
    /// on the host, over sequences `0..check` (all when `None`).
    pub fn max_errors(&self, stream: &Arc<CudaStream>, check: Option<usize>) -> Res<(f32, f32)> {
        let (o, lse) = (stream.clone_dtoh(&self.o)?, stream.clone_dtoh(&self.lse)?);
        let (seq, dd) = (self.seq, self.d);
        let (mut eo, mut el) = (0.0f32, 0.0f32);
        for b in 0..check.unwrap_or(self.bh).min(self.bh) {
            let head = |x: &[f32]| x[b * seq * dd..(b + 1) * seq * dd].to_vec();
            let (want_o, want_lse) =
                reference(&head(&self.q), &head(&self.k), &head(&self.v), dd, self.softmax_scale(), self.causal);
            for (i, w) in want_o.iter().enumerate() {
                eo = eo.max((self.dtype.value_of(o[b * seq * dd + i]) - w).abs());
            }
            for (i, w) in want_lse.iter().enumerate() {
                el = el.max((lse[b * seq + i] - w).abs());
            }
        }
        Ok((eo, el))
    }
}

/// The descriptor of `O`'s map for the `_epi` kernels: `O` as the rank-3 tensor `(seq, d,
/// batch·heads)` (CuTe's `make_tma_copy(SM90_TMA_STORE{}, mO, OTile)`), so that a box, the
/// tile's `(64, 64)` and 1 of the head, stops at its head's last row.
pub fn o_map_desc(dtype: Dtype, bh: usize, seq: usize, d: usize) -> Res<cute_static::cute_dyn::tma::TmaDesc> {
    let global = cute_static::layout!(({ seq }, { d }, { bh }):({ d }, 1, { seq * d }));
    Ok(cute_static::tma::make_tma_copy_desc(global, dtype.cute_name(), &OTile::default())?)
}

/// One head's attention in fp32 on the host, the checks' reference: `O = softmax(Q·Kᵀ · scale)
/// · V` (`causal`: key `j` of query `i` when `j <= i`) and each row's log-sum-exp
/// `ln Σ_j exp(scale · q_i·k_j)`, for `Q`, `K`, `V` of `seq` rows of `d` (row-major).
pub fn reference(q: &[f32], k: &[f32], v: &[f32], d: usize, scale: f32, causal: bool) -> (Vec<f32>, Vec<f32>) {
    let seq = q.len() / d;
    let (mut o, mut lse) = (vec![0.0f32; seq * d], vec![0.0f32; seq]);
    let mut p = vec![0.0f32; seq];
    for i in 0..seq {
        let qi = &q[i * d..(i + 1) * d];
        let keys = if causal { i + 1 } else { seq };
        let mut mx = f32::NEG_INFINITY;
        for j in 0..keys {
            p[j] = qi.iter().zip(&k[j * d..(j + 1) * d]).map(|(a, b)| a * b).sum::<f32>() * scale;
            mx = mx.max(p[j]);
        }
        let mut sum = 0.0;
        for x in &mut p[..keys] {
            *x = (*x - mx).exp();
            sum += *x;
        }
        for c in 0..d {
            o[i * d + c] = (0..keys).map(|j| p[j] * v[j * d + c]).sum::<f32>() / sum;
        }
        lse[i] = mx + sum.ln();
    }
    (o, lse)
}

/// Median milliseconds of each of `n` runs, `run(i)` the `i`-th, each after a warm-up of its own
/// launches (the host's `time_all`).
pub type Timer<'a> = dyn Fn(usize, &mut dyn FnMut(usize) -> Res<()>) -> Res<Vec<f64>> + 'a;

/// The kernel's checks and timings: `(failures, JSON records)`.
pub fn run(
    stream: &Arc<CudaStream>,
    kernels: &[(String, Dtype, usize, CudaFunction, Option<usize>)],
    time: &Timer,
) -> Res<(usize, Vec<String>)> {
    let (mut failures, mut record) = (0, Vec::new());
    // fp16 rounding of P and of O: errors of a few 1e-4 (|O| <= 1), bf16's 8x that; a wrong
    // row or mask is off by about 1e-1.
    let tol = |dtype| if dtype == Dtype::F16 { 4e-3f32 } else { 2e-2 };
    for (name, dtype, d, f, grid) in kernels {
        let (tol, d) = (tol(*dtype), *d);
        for &(bh, seq) in &[(1, 128), (2, 300), (1, 77), (3, 1000), (1, 2048)] {
            for causal in [false, true] {
                let mut a = Attention::new(stream, *dtype, d, bh, seq, causal)?;
                a.launch(stream, f, *grid, kind_of(name))?;
                let (eo, el) = a.max_errors(stream, None)?;
                let ok = eo <= tol && el <= tol && eo.is_finite() && el.is_finite();
                failures += usize::from(!ok);
                println!(
                    "{}  {name} {bh}x{seq}x{d} causal {causal}: max |O - ref| {eo:.2e}, max |lse - ref| {el:.2e} (fp32 host reference, tolerance {tol:.0e})",
                    if ok { "close" } else { "WRONG" }
                );
                record.push(format!(
                    "{{\"check\":\"{name} {bh}x{seq}x{d} causal {causal}\",\"max_err_o\":{eo:e},\"max_err_lse\":{el:e},\"ok\":{ok}}}"
                ));
            }
        }
    }
    println!("timing: median of the launches (CUDA events), each after a warm-up of its own launches");
    for &(bh, seq) in &[(64, 4096), (32, 8192), (16, 16384)] {
        for causal in [false, true] {
            for (dtype, d) in
                [(Dtype::F16, 128), (Dtype::Bf16, 128), (Dtype::F16, 64), (Dtype::F16, 256), (Dtype::Bf16, 256)]
            {
                let fs: Vec<_> = kernels.iter().filter(|k| (k.1, k.2) == (dtype, d)).collect();
                if fs.is_empty() {
                    continue;
                }
                let mut a = Attention::new(stream, dtype, d, bh, seq, causal)?;
                let ms = time(fs.len(), &mut |i| a.launch(stream, &fs[i].3, fs[i].4, kind_of(&fs[i].0)))?;
                for (&&(ref name, _, _, ref f, grid), ms) in fs.iter().zip(ms) {
                    let tol = tol(dtype);
                    let tflops = a.flops() / ms / 1e9;
                    // The first sequence against the host reference where it takes seconds.
                    let check = if seq <= 4096 {
                        a.launch(stream, f, grid, kind_of(name))?;
                        let (eo, el) = a.max_errors(stream, Some(1))?;
                        failures += usize::from(!(eo <= tol && el <= tol));
                        format!(" (first sequence: max |O - ref| {eo:.1e}, max |lse - ref| {el:.1e})")
                    } else {
                        String::new()
                    };
                    println!(
                        "  {name} batch*heads {bh}, seq {seq}, d {d}, causal {causal}: {ms:.3} ms, {tflops:.0} TFLOP/s{check}"
                    );
                    record.push(format!(
                        "{{\"kernel\":\"{name}\",\"attention\":\"{bh}x{seq}x{d}\",\"causal\":{causal},\"ms\":{ms:.4},\"tflops\":{tflops:.1}}}"
                    ));
                }
            }
        }
    }
    Ok((failures, record))
}

#[cfg(test)]
mod tests {
    use super::tiles::*;
    use cute_atom::atom::MmaCall;
    use cute_static::{Cons, LayoutAt, Nil};

    /// A `V` half as the TMA writes it, `(keys, 64)` K-major, and as `O += P·V` reads it,
    /// `(64, keys)` MN-major, are the same bytes: element `(key, d)` of one is `(d, key)` of
    /// the other, for every element (both with the 128-byte swizzle).
    #[test]
    fn v_half_is_one_tile_read_two_ways() {
        fn check<Kb: KeyBlock>()
        where
            Kb::Half: LayoutAt<Cons<usize, Cons<usize, Nil>>>,
            Kb::VHalf: LayoutAt<Cons<usize, Cons<usize, Nil>>>,
        {
            let (tma, mma) = (Kb::Half::default(), Kb::VHalf::default());
            for key in 0..Kb::N {
                for d in 0..D / 2 {
                    assert_eq!(tma.at(&Cons(key, Cons(d, Nil))), mma.at(&Cons(d, Cons(key, Nil))), "({key}, {d})");
                }
            }
        }
        check::<Keys<5>>();
        check::<Keys<8>>();
        check::<Keys<11>>();
    }

    /// The `_wide` kernels' `V` as one `(128, keys)` B (`VBoth`, `VBoth176`) is the two halves
    /// the TMA writes: element `(d, key)` is element `(d % 64, key)` of `VHalf` in half `d / 64`,
    /// whose stage is `STAGES` tiles of `keys x 64` past half 0's in the ring (`Ring::stage`).
    #[test]
    fn v_both_is_both_halves() {
        fn check<Kb: KeyBlock, B: Default + LayoutAt<Cons<usize, Cons<usize, Nil>>>>()
        where
            Kb::VHalf: LayoutAt<Cons<usize, Cons<usize, Nil>>>,
        {
            let (half, both) = (Kb::VHalf::default(), B::default());
            let ring = STAGES * Kb::N * 64;
            for key in 0..Kb::N {
                for d in 0..D {
                    let want = half.at(&Cons(d % 64, Cons(key, Nil))) + d / 64 * ring;
                    assert_eq!(both.at(&Cons(d, Cons(key, Nil))), want, "({d}, {key}) of {} keys", Kb::N);
                }
            }
        }
        check::<Keys<8>, VBoth>();
        check::<Keys<11>, VBoth176>();
    }

    /// The descriptors the kernel reads off its tiles are the PTX ISA's canonical 128-byte
    /// swizzle descriptors (start >> 4 in bits 0-13, LBO >> 4 in 16-29, SBO >> 4 in 32-45,
    /// mode 1 = 128B in 62-63), what the twin (`attention/by_hand.rs`) writes: K-major `Q` and
    /// `K` halves, 8-row groups 1024 bytes apart, LBO 16 (unused), warpgroup `w`'s 64 rows
    /// 8 KiB in, a k-block 32 bytes along the row; MN-major `V` halves, 8-key groups 1024
    /// bytes apart, LBO 0 (one 64-wide atom), a k-block of 16 keys 2048 bytes on.
    #[test]
    fn descriptors_are_canonical() {
        use cute_static::gmma::{GmmaTile, K, MN};
        use cute_static::tiler;
        use cute_static::typenum::U16;
        let desc = |start: u32, lbo: u64| (1u64 << 62) | (64u64 << 32) | (lbo << 16) | u64::from((start >> 4) & 0x3fff);
        let base = 0x400;
        for kk in 0..4usize {
            for w in 0..CONSUMERS {
                let d = GmmaTile::<_, _, K, U16>::gmma_desc_of_tile(
                    Half::default(),
                    tiler!(<64,16>),
                    &Cons(w, Cons(kk, Nil)),
                    base,
                );
                assert_eq!(d, desc(base + (w * 64 * 128 + kk * 32) as u32, 1), "Q, warpgroup {w}, k-block {kk}");
            }
        }
        // The key blocks of 80, 128 and 176: `K`'s whole block a k-block, `V`'s k-blocks.
        macro_rules! keys {
            ($half:ty, $vhalf:ty, $n:literal) => {
                for kk in 0..4usize {
                    let d = GmmaTile::<_, _, K, U16>::gmma_desc_of_tile(
                        <$half>::default(),
                        tiler!(<$n,16>),
                        &Cons(0usize, Cons(kk, Nil)),
                        base,
                    );
                    assert_eq!(d, desc(base + (kk * 32) as u32, 1), "K of {}, k-block {kk}", $n);
                }
                for kk in 0..$n / 16 {
                    let d = GmmaTile::<_, _, MN, U16>::gmma_desc_of_tile(
                        <$vhalf>::default(),
                        tiler!(<64,16>),
                        &Cons(0usize, Cons(kk, Nil)),
                        base,
                    );
                    assert_eq!(d, desc(base + (kk * 2048) as u32, 0), "V of {}, k-block {kk}", $n);
                }
            };
        }
        // `VBoth`: a k-block's 128 x 16 tile, the second 64-wide atom a ring's two stages of
        // the half on (LBO, in 16-byte units), 8-key groups 1024 bytes apart.
        macro_rules! both {
            ($both:ty, $n:literal) => {
                for kk in 0..$n / 16 {
                    let d = GmmaTile::<_, _, MN, U16>::gmma_desc_of_tile(
                        <$both>::default(),
                        tiler!(<128,16>),
                        &Cons(0usize, Cons(kk, Nil)),
                        base,
                    );
                    let lbo = (STAGES * $n * 64 * 2 / 16) as u64;
                    assert_eq!(d, desc(base + (kk * 2048) as u32, lbo), "V of {} as one B, k-block {kk}", $n);
                }
            };
        }
        both!(VBoth, 128);
        both!(VBoth176, 176);
        keys!(Half, VHalf, 128);
        keys!(Half176, VHalf176, 176);
        keys!(Half80, VHalf80, 80);
    }

    /// `O`'s map for the TMA stores, `(seq, d, batch·heads)` (row-major rows of `d` halves, a
    /// head after another): the box is the tile's `(64, 64)` along `d` and `seq`, then 1 along
    /// the heads, the mode the tile does not walk (as CuTe's `make_tma_copy` appends it), so a
    /// box of a ragged block stops at its head's last row. (That the tiles fit beside the
    /// rings is checked by the compiler: `SMEM_BYTES_EPI`.)
    #[test]
    fn o_map_box() {
        let desc = super::o_map_desc(crate::Dtype::F16, 3, 300, 128).unwrap();
        assert_eq!(
            (desc.global_dim, desc.global_strides, desc.box_dim, desc.swizzle),
            (vec![128, 300, 3], vec![256, 300 * 256], vec![64, 64, 1], 3)
        );
        assert_eq!(O_TILE, 64 * 64 * 2);
    }

    /// The `_epi` kernels' shared memory, wherever the launch places it (every 16-byte
    /// aligned base): the `O` tiles start on a 1024-byte boundary (the 128-byte swizzle's
    /// period) past the slot that ends the pipelines, and end inside `SMEM_BYTES_EPI`.
    #[test]
    fn o_tiles_follow_the_pipelines() {
        for base in (0..4096u32).step_by(16) {
            let (.., slot) = Smem::<Halves<2>, Keys<8>>::carve::<1>(base);
            assert!(slot + 16 <= base + SMEM_BYTES as u32, "base {base}: the slot past SMEM_BYTES");
            let at = Smem::<Halves<2>, Keys<8>>::o_tiles(slot);
            assert_eq!(at % 1024, 0, "base {base}");
            assert!(at >= slot + 16, "base {base}: the O tiles overlap the slot");
            assert!(at + (CONSUMERS * 2) as u32 * O_TILE <= base + SMEM_BYTES_EPI as u32, "base {base}");
        }
    }

    /// The 176-key `_epi` kernels' `O` tiles, in `V`'s ring (`Smem::O_IN_V`), wherever the
    /// launch places shared memory: consumer `w`'s two tiles start on a 1024-byte boundary in
    /// stage 0 of `V`'s half `w` and end inside it; `O`'s mbarrier is the slot's 8-byte-aligned
    /// second half, inside the launch's bytes (`smem_bytes`, which the 128-key kernels'
    /// separate tiles would exceed).
    #[test]
    fn o_tiles_in_v_for_176_keys() {
        type Sm = Smem<Halves<2>, Keys<11>>;
        const { assert!(Sm::O_IN_V && Sm::O_FITS_V && !Smem::<Halves<2>, Keys<8>>::O_IN_V) };
        let kind = super::kind_of("attention_fwd_n176_wide_persistent_overlap_pinned_epi");
        assert!(kind.epi && kind.keys == 176);
        let bytes = super::smem_bytes(128, kind) as u32;
        assert_eq!(bytes as usize, Sm::BYTES);
        let half = <Half176 as cute_static::tma::TmaBox<cute_static::typenum::U16>>::BYTES;
        for base in (0..4096u32).step_by(16) {
            let (_, _, (_, v), slot) = Sm::carve::<1>(base);
            for w in 0..CONSUMERS {
                let at = v.half(w).stage(0).base();
                assert_eq!(at % 1024, 0, "base {base}");
                assert!(2 * O_TILE <= half, "consumer {w}'s tiles inside its stage");
                assert!(at + half <= slot, "base {base}: V's stage before the slot");
            }
            let bar = Sm::o_bar(slot);
            assert!(bar.is_multiple_of(8) && bar >= slot + 4 && bar + 8 <= base + bytes, "base {base}");
        }
    }

    /// The maps `Attention` encodes for each kernel (`kv_maps`): `Q`'s and the 128-key `K` and
    /// `V` boxes 64 x 128, the 176-key ones 64 x 176, the 80-key ones (head dimension 256)
    /// 64 x 80; in clusters of 2 each block's box is half the rows (64, 88), as the multicast
    /// loads' parts (`tiles::KeyBlock::Part`) are; all with the 128-byte swizzle and rows of
    /// the head dimension's bytes.
    #[test]
    fn kv_map_boxes() {
        use cute_static::tma::{make_tma_copy_desc_multicast, TmaBox};
        use cute_static::typenum::U16;
        for d in [64usize, 128, 256] {
            let global = cute_static::layout!(({ 3000usize }, { d }):({ d }, 1));
            for &(keys, cluster) in super::kv_maps(d) {
                let desc = match keys {
                    176 => make_tma_copy_desc_multicast(global, "half_t", &Half176::default(), cluster as u32),
                    80 => make_tma_copy_desc_multicast(global, "half_t", &Half80::default(), cluster as u32),
                    _ => make_tma_copy_desc_multicast(global, "half_t", &Half::default(), cluster as u32),
                }
                .unwrap();
                assert_eq!(
                    (desc.box_dim, desc.swizzle, desc.global_strides),
                    (vec![64, (keys / cluster) as u32], 3, vec![2 * d as u64]),
                    "head dimension {d}, {keys} keys, clusters of {cluster}"
                );
            }
        }
        let part = |b: [u32; 2]| b[1] as usize;
        assert_eq!(part(<<Keys<8> as KeyBlock>::Part as TmaBox<U16>>::BOX), 64);
        assert_eq!(part(<<Keys<11> as KeyBlock>::Part as TmaBox<U16>>::BOX), 88);
        assert_eq!(part(<<Keys<5> as KeyBlock>::Part as TmaBox<U16>>::BOX), 40);
    }

    /// The host reference on cases with known answers: equal scores average `V` (so a row of
    /// `V`s that are all 1 gives 1, and the log-sum-exp is `ln(keys)`); a query that matches
    /// one key far better than the others copies that key's `V`; causal, query 0 sees key 0
    /// alone.
    #[test]
    fn the_reference_is_attention() {
        let d = 4;
        // Q = 0: every score 0, weights 1/seq.
        let (q, k) = (vec![0.0f32; 3 * d], vec![1.0f32; 3 * d]);
        let v: Vec<f32> = (0..3 * d).map(|i| (i / d) as f32).collect(); // row j is all j
        let (o, lse) = super::reference(&q, &k, &v, d, 0.5, false);
        assert!(o.iter().all(|&x| (x - 1.0).abs() < 1e-6), "the mean of rows 0, 1, 2");
        assert!(lse.iter().all(|&x| (x - 3f32.ln()).abs() < 1e-6));
        let (o, lse) = super::reference(&q, &k, &v, d, 0.5, true);
        assert_eq!((o[0], o[d], o[2 * d]), (0.0, 0.5, 1.0), "causal: the mean of rows 0..=i");
        assert!((lse[1] - 2f32.ln()).abs() < 1e-6);
        // One key aligned with query 0, scores 100 apart: its V (query 1 is 0: the mean).
        let q = vec![10.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0];
        let k = vec![0.0, 0.0, 0.0, 0.0, 10.0, 0.0, 0.0, 0.0];
        let v = vec![5.0, 5.0, 5.0, 5.0, 7.0, 7.0, 7.0, 7.0];
        let (o, lse) = super::reference(&q, &k, &v, d, 1.0, false);
        assert!(o[..d].iter().all(|&x| (x - 7.0).abs() < 1e-6));
        assert!(o[d..].iter().all(|&x| (x - 6.0).abs() < 1e-6));
        assert!((lse[0] - 100.0).abs() < 1e-4, "ln(e^0 + e^100) = 100");
    }

    /// The `_wide` kernels' epilogue takes half `h` of the head dimension from values `32 h..`
    /// of the one `64 x 128` accumulator (`store_o`): value `32 h + v` of `OutWide` is value
    /// `v` of the `64 x 64` atom `Out`, `64 h` columns on, at every thread, in f16 and bf16;
    /// and the rows (`AccRows`) agree, so the softmax's statistics index both alike.
    #[test]
    fn wide_accumulator_is_two_halves() {
        use cute_atom::algorithm::AccRows;
        for t in 0..128 {
            for h in 0..2 {
                for v in 0..32 {
                    let (r, c) = Out::c_coord(t, v);
                    assert_eq!(OutWide::c_coord(t, 32 * h + v), (r, c + 64 * h), "thread {t}, half {h}, value {v}");
                    assert_eq!(OutWideBf16::c_coord(t, 32 * h + v), (r, c + 64 * h));
                    assert_eq!(AccRows::<OutWide>::ROW_OF.0[32 * h + v], AccRows::<Out>::ROW_OF.0[v]);
                }
            }
        }
        assert_eq!(AccRows::<OutWide>::ROW_OF.1, ROWS);
        // And both are the PTX ISA's `wgmma` D fragment: value `i` of thread `t` at row
        // `16 (t / 32) + (t % 32) / 4 + 8 ((i / 2) % 2)`, column `2 (t % 4) + i % 2 + 8 (i / 4)`.
        for t in 0..128 {
            for i in 0..64 {
                let want = (16 * (t / 32) + t % 32 / 4 + 8 * (i / 2 % 2), 2 * (t % 4) + i % 2 + 8 * (i / 4));
                assert_eq!(OutWide::c_coord(t, i), want, "thread {t}, value {i}");
            }
        }
    }

    /// A consumer thread's local row `k` is the PTX ISA's `wgmma` D-fragment row `16 (t / 32) +
    /// (t % 32) / 4 + 8 k`, in `S`'s atom and (through `FIRST_OF_ROW`) in `O`'s.
    #[test]
    fn local_rows_are_the_fragment_rows() {
        assert_eq!(ROWS, 2);
        for t in 0..128 {
            for (k, &first) in FIRST_OF_ROW.iter().enumerate() {
                let want = 16 * (t / 32) + t % 32 / 4 + 8 * k;
                assert_eq!(Out::c_coord(t, first).0, want, "O, thread {t}, row {k}");
                let v = (0..64).find(|&v| cute_atom::algorithm::AccRows::<Score>::ROW_OF.0[v] == k).unwrap();
                assert_eq!(Score::c_coord(t, v).0, want, "S, thread {t}, row {k}");
            }
        }
    }
}
