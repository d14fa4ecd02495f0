//! A CuTe-style tiled SGEMM on the CPU: `C = A B` for row-major `A (M x K)`, `B (K x N)`,
//! `C (M x N)` of any sizes (residue tiles predicated by the identity tensor's tiles), written
//! with a `TiledMMA`: `make_tiled_mma(UniversalFMA, (TM,TN,1))`, CPU "threads" as its threads
//! and registers as its values.
//!
//! * Block tiles by `local_tile`: `(BM, BK)` of `A`, `(BK, BN)` of `B`, `(BM, BN)` of `C`.
//! * Each block's `A` and `B` tiles are packed into shared tiles whose storage is sized by
//!   their (static) layouts at compile time, laid out so that every thread's operand panel is
//!   contiguous: `sA` is the `(M,K)` layout `((TM,MR),BK):((MR*BK,1),MR)`, `sB` the `(N,K)`
//!   layout `((TN,NR),BK):((NR*BK,1),NR)`. A `TiledCopy` packs them: `make_tiled_copy(
//!   UniversalCopy<uint128_t>, (16,8), (4,1))`, each thread moving its `partition_S` of the
//!   block tile (read through the identity tensor's tile, predicated) to its `partition_D` of
//!   the shared tile.
//! * Thread `tid`'s operands are the tiled MMA's `partition_A(sA)` and `partition_B(sB)` (its
//!   contiguous `(1,MR,BK)` and `(1,NR,BK)` panels), its accumulators a register fragment laid
//!   out by `partition_fragment_C` of the block, and it writes them through `partition_C` of the
//!   block: rows `tm + TM*i`, columns `tn + TN*j`. The partitions are computed by the type
//!   checker (cute-static's `mma` module); the micro-kernel `mma` is generic over the panel and
//!   accumulator layouts.
//!
//! Checked against the naive triple loop.

use cute_static::copy::{TiledCopy, UniversalCopy};
use cute_static::mma::{TiledMma, UniversalFMA};
use cute_static::tensor::{elem_less, make_tensor, IdentityTensor, Tensor};
use cute_static::{layout, shape, Layout, StaticLayout};

/// Rows of a thread's register tile.
pub const MR: usize = 8;
/// Columns of a thread's register tile.
pub const NR: usize = 8;
/// Block tile: rows of `C` (`TM * MR`).
pub const BM: usize = 64;
/// Block tile: columns of `C` (`TN * NR`).
pub const BN: usize = 128;
/// Block tile: the reduction depth.
pub const BK: usize = 256;

/// The tiled MMA: `(TM, TN, 1) = (8, 16, 1)` FMA "atoms" (threads), column-major.
type Mma = TiledMma<UniversalFMA, Layout![(8,16,1):(1,8,0)]>;
/// The shared tile of `A` as an `(M,K)` layout: row `tm + TM*i` of thread row `tm` at
/// `tm*MR*BK + i`, each thread's `(MR, BK)` panel contiguous.
type SmemA = Layout![((8,8),256):((2048,1),8)];
/// The shared tile of `B` as an `(N,K)` layout, each thread's `(NR, BK)` panel contiguous.
type SmemB = Layout![((16,8),256):((2048,1),8)];
/// The `(BM, BN)` block of `C`, column-major: the indices `partition_C` gives each thread.
type BlockC = Layout![(64,128):(1,64)];
/// The tiled copy that packs the shared tiles: 16x8 threads, each moving 4 consecutive rows
/// (`UniversalCopy<uint128_t>` of floats) of a `(64, 8)` tile.
type Pack = TiledCopy<UniversalCopy<cute_static::typenum::U4>, Layout![(16,8):(1,16)], Layout![(4,1):(1,0)]>;
/// A block tile of `A` as `(M,K)` indices of its column-major `(BM, BK)` coordinate tile.
type TileA = Layout![(64,256):(1,64)];
/// A block tile of `B` as `(N,K)` indices of its column-major `(BK, BN)` coordinate tile.
type TileB = Layout![(128,256):(256,1)];

/// `acc += pa * pb` over `BK`: the register tile of one thread, `pa` its `(1,MR,BK)` panel of
/// A, `pb` its `(1,NR,BK)` panel of B (index `i + MR*k`, `j + NR*k`) and `acc` its `(1,MR,NR)`
/// fragment of C (index `i + MR*j`). Generic over the layouts; the loops are over the static
/// sizes, so the index arithmetic folds to constants, and the accumulators live in registers.
#[inline(always)]
fn mma<LA: StaticLayout, LB: StaticLayout, LC: StaticLayout>(
    pa: &[f32; MR * BK],
    pb: &[f32; NR * BK],
    acc: &mut [f32; MR * NR],
) {
    let (la, lb, lc) = (LA::default(), LB::default(), LC::default());
    let mut r = *acc;
    for k in 0..BK {
        for i in 0..MR {
            let a = pa[la.call(i + MR * k)];
            for j in 0..NR {
                let c = &mut r[lc.call(i + MR * j)];
                *c = a.mul_add(pb[lb.call(j + NR * k)], *c);
            }
        }
    }
    *acc = r;
}

/// `mma` compiled for AVX2 and FMA (the CPU's fused multiply-add; `mul_add` without it is a
/// library call), chosen at run time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn mma_fma<LA: StaticLayout, LB: StaticLayout, LC: StaticLayout>(
    pa: &[f32; MR * BK],
    pb: &[f32; NR * BK],
    acc: &mut [f32; MR * NR],
) {
    mma::<LA, LB, LC>(pa, pb, acc)
}

/// The micro-kernel for the layouts of a thread's panels and accumulators (`LA`, `LB`, `LC`:
/// the tiled MMA's `partition_A`, `partition_B` and `partition_fragment_C`, passed by value for
/// their types).
fn mma_dispatch<LA: StaticLayout, LB: StaticLayout, LC: StaticLayout>(
    _: LA,
    _: LB,
    _: LC,
    pa: &[f32; MR * BK],
    pb: &[f32; NR * BK],
    acc: &mut [f32; MR * NR],
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has the features `mma_fma` is compiled for.
        return unsafe { mma_fma::<LA, LB, LC>(pa, pb, acc) };
    }
    // Without FMA, `mul_add` is exact but slow: use a multiply and an add.
    let (la, lb, lc) = (LA::default(), LB::default(), LC::default());
    for k in 0..BK {
        for i in 0..MR {
            let a = pa[la.call(i + MR * k)];
            for j in 0..NR {
                acc[lc.call(i + MR * j)] += a * pb[lb.call(j + NR * k)];
            }
        }
    }
}

/// A shared tile of `A` or `B`: storage sized by its static layout at compile time.
type Shared<L> =
    Tensor<cute_static::tensor::Owned<f32, cute_static::complement::CosizeT<<L as Parts>::S, <L as Parts>::D>>, L>;
use cute_static::tiler::Parts;

/// `c = a b` for row-major `a (m x k)`, `b (k x n)`, `c (m x n)` of any sizes.
///
/// Every block tile of `B` is packed once into its shared tile, the block row of `A` once per
/// block row; each `(BM, BN)` block of `C` then accumulates over `K` in the threads' register
/// tiles and is written through the threads' partitions. Residue tiles (a size that is not a
/// multiple of the block tile) are predicated the CuTe way: the identity tensor of each
/// operand's shape is tiled like the operand, and an element is read (else 0 is packed) or
/// written only where `elem_less(coordinate, shape)`.
///
/// # Panics
/// When a slice holds fewer elements than its matrix.
pub fn gemm(m: usize, n: usize, k: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    let ga = Tensor::new(a, layout!(({m},{k}):({k},1))).expect("a holds m x k");
    let gb = Tensor::new(b, layout!(({k},{n}):({n},1))).expect("b holds k x n");
    let mut gc = Tensor::new(c, layout!(({m},{n}):({n},1))).expect("c holds m x n");
    // The coordinates of each operand, tiled as the operand.
    let (ca, cb, cc) = (
        IdentityTensor::new(shape!(({ m }, { k }))),
        IdentityTensor::new(shape!(({ k }, { n }))),
        IdentityTensor::new(shape!(({ m }, { n }))),
    );
    let mma = Mma::new();
    let threads = mma.thr_layout_vmnk().size();
    let (k_tiles, n_tiles) = (k.div_ceil(BK), n.div_ceil(BN));
    // Each packing thread's source (indices of a block tile's coordinates, read through the
    // identity tensor's tile) and destination (offsets in the shared tile): `partition_S` and
    // `partition_D` of the tiled copy.
    let pack = Pack::new();
    let pack_threads = 16 * 8;
    macro_rules! pack_parts {
        ($src:ty, $dst:ty) => {
            (0..pack_threads)
                .map(|t| {
                    let s = pack.partition_s(<$src>::default(), t).expect("a thread of the tiled copy");
                    let d = pack.partition_d(<$dst>::default(), t).expect("a thread of the tiled copy");
                    (s, d)
                })
                .collect::<Vec<_>>()
        };
    }
    let (pack_a, pack_b) = (pack_parts!(TileA, SmemA), pack_parts!(TileB, SmemB));
    // The shared tiles' storage, indexed by offset.
    let (a_cosize, b_cosize) = (SmemA::default().cosize(), SmemB::default().cosize());
    // B's block tiles, (kt, bj) -> the shared tile.
    let mut sb: Vec<Shared<SmemB>> = Vec::with_capacity(k_tiles * n_tiles);
    for kt in 0..k_tiles {
        for bj in 0..n_tiles {
            let tb = cb.local_tile(shape!((256, 128)), &[kt, bj]).expect("a tile of the grid");
            let mut s = make_tensor::<f32, _, _>(SmemB::default());
            let mut flat = s.view_mut().with_layout(layout!({ b_cosize }:1)).expect("the shared tile's storage");
            for ((ps, off_s), (pd, off_d)) in &pack_b {
                for v in 0..ps.size() {
                    let crd = tb.get(off_s + ps.call(v));
                    flat[off_d + pd.call(v)] = if elem_less(&crd, cb.shape()) { *gb.at(&crd) } else { 0.0 };
                }
            }
            sb.push(s);
        }
    }
    let mut sa: Vec<Shared<SmemA>> = (0..k_tiles).map(|_| make_tensor::<f32, _, _>(SmemA::default())).collect();
    // Each thread's operands and results, from the tiled MMA: its panels of the shared tiles
    // (where they start; contiguous), its accumulator fragment, its part of a C block.
    let part = |tid| {
        let (pa, off_a) = mma.partition_a(SmemA::default(), tid).expect("a thread of the tiled MMA");
        let (pb, off_b) = mma.partition_b(SmemB::default(), tid).expect("a thread of the tiled MMA");
        let frg = mma.partition_fragment_c(BlockC::default(), tid).expect("a thread of the tiled MMA");
        let (pc, off_c) = mma.partition_c(BlockC::default(), tid).expect("a thread of the tiled MMA");
        ((pa, off_a), (pb, off_b), frg, (pc, off_c))
    };
    let parts: Vec<_> = (0..threads).map(part).collect();
    let mut acc = vec![[0f32; MR * NR]; threads];
    for bi in 0..m.div_ceil(BM) {
        for (kt, s) in sa.iter_mut().enumerate() {
            let ta = ca.local_tile(shape!((64, 256)), &[bi, kt]).expect("a tile of the grid");
            let mut flat = s.view_mut().with_layout(layout!({ a_cosize }:1)).expect("the shared tile's storage");
            for ((ps, off_s), (pd, off_d)) in &pack_a {
                for v in 0..ps.size() {
                    let crd = ta.get(off_s + ps.call(v));
                    flat[off_d + pd.call(v)] = if elem_less(&crd, ca.shape()) { *ga.at(&crd) } else { 0.0 };
                }
            }
        }
        for bj in 0..n_tiles {
            acc.iter_mut().for_each(|r| *r = [0.0; MR * NR]);
            for (kt, sa) in sa.iter().enumerate() {
                let sb = &sb[kt * n_tiles + bj];
                // Each thread: its panels, then its register tile.
                for (((pa, off_a), (pb, off_b), frg, _), acc) in parts.iter().zip(acc.iter_mut()) {
                    let a = sa.engine()[*off_a..off_a + MR * BK].try_into().expect("a panel");
                    let b = sb.engine()[*off_b..off_b + NR * BK].try_into().expect("a panel");
                    mma_dispatch(*pa, *pb, *frg, a, b, acc);
                }
            }
            // Each thread writes its register tile to its partition of the block, predicated.
            let tc = cc.local_tile(shape!((64, 128)), &[bi, bj]).expect("a tile of the grid");
            for ((_, _, frg, (pc, off_c)), acc) in parts.iter().zip(&acc) {
                for v in 0..MR * NR {
                    let crd = tc.get(off_c + pc.call(v));
                    if elem_less(&crd, cc.shape()) {
                        *gc.at_mut(&crd) = acc[frg.call(v)];
                    }
                }
            }
        }
    }
}

/// The naive triple loop.
pub fn naive(m: usize, n: usize, k: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    for i in 0..m {
        for j in 0..n {
            let mut s = 0.0f32;
            for p in 0..k {
                s += a[i * k + p] * b[p * n + j];
            }
            c[i * n + j] = s;
        }
    }
}

/// Small integer-valued inputs: every product and sum is exact in `f32`, so the tiled and the
/// naive results agree exactly whatever the summation order.
pub fn inputs(m: usize, n: usize, k: usize) -> (Vec<f32>, Vec<f32>) {
    let a = (0..m * k).map(|x| ((x * 7 + 3) % 5) as f32 - 2.0).collect();
    let b = (0..k * n).map(|x| ((x * 5 + 1) % 7) as f32 - 3.0).collect();
    (a, b)
}

/// `(tiled, naive)` for one size.
pub fn run(m: usize, n: usize, k: usize) -> (Vec<f32>, Vec<f32>) {
    let (a, b) = inputs(m, n, k);
    let (mut c, mut d) = (vec![0.0; m * n], vec![0.0; m * n]);
    gemm(m, n, k, &a, &b, &mut c);
    naive(m, n, k, &a, &b, &mut d);
    (c, d)
}

#[test]
fn gemm_matches_naive() {
    let (c, d) = run(128, 256, 512);
    assert_eq!(c, d);
}

/// Sizes that are not multiples of the block tile: every element as the naive loop's.
#[test]
fn ragged_sizes_are_predicated() {
    for (m, n, k) in [(1, 1, 1), (65, 129, 257), (100, 37, 300), (64, 130, 7), (3, 200, 513)] {
        let (c, d) = run(m, n, k);
        assert_eq!(c, d, "{m}x{n}x{k}");
    }
}

/// The tiled MMA's partitions are what the micro-kernel reads and writes: each thread's panel
/// of a shared tile is the contiguous `(1,MR,BK)` block at `tm*MR*BK` (`(1,NR,BK)` at
/// `tn*NR*BK`), its fragment a compact `(1,MR,NR)`, and its part of the C block the rows
/// `tm + TM*i` and columns `tn + TN*j`; the threads' parts cover the block once.
#[test]
fn the_partitions_are_the_panels() {
    let mma = Mma::new();
    let (tm_count, tn_count) = (BM / MR, BN / NR);
    assert_eq!(mma.thr_layout_vmnk().size(), tm_count * tn_count);
    let mut seen = vec![0; BM * BN];
    for tid in 0..tm_count * tn_count {
        let (tm, tn) = (tid % tm_count, tid / tm_count);
        let (pa, off_a) = mma.partition_a(SmemA::default(), tid).unwrap();
        let (pb, off_b) = mma.partition_b(SmemB::default(), tid).unwrap();
        let frg = mma.partition_fragment_c(BlockC::default(), tid).unwrap();
        let (pc, off_c) = mma.partition_c(BlockC::default(), tid).unwrap();
        assert_eq!((off_a, off_b), (tm * MR * BK, tn * NR * BK));
        for v in 0..MR * BK {
            assert_eq!(pa.call(v), v);
        }
        for v in 0..NR * BK {
            assert_eq!(pb.call(v), v);
        }
        for i in 0..MR {
            for j in 0..NR {
                assert_eq!(frg.call(i + MR * j), i + MR * j);
                let idx = off_c + pc.call(i + MR * j);
                assert_eq!((idx % BM, idx / BM), (tm + tm_count * i, tn + tn_count * j));
                seen[idx] += 1;
            }
        }
    }
    assert!(seen.iter().all(|&x| x == 1));
}

/// The packing copy moves each element of a block tile to its place in the shared tile, once:
/// the tiled copy's source part (an index of the tile's coordinates) and destination part (an
/// offset in the shared tile) of every thread and value name the same `(m, k)` (`(n, k)`).
#[test]
fn the_packing_copy_moves_each_element_once() {
    let pack = Pack::new();
    let (mut seen_a, mut seen_b) = (vec![0; BM * BK], vec![0; BN * BK]);
    for t in 0..16 * 8 {
        let ((ps, off_s), (pd, off_d)) =
            (pack.partition_s(TileA::default(), t).unwrap(), pack.partition_d(SmemA::default(), t).unwrap());
        for v in 0..ps.size() {
            let idx = off_s + ps.call(v);
            assert_eq!(SmemA::default().call(idx), off_d + pd.call(v));
            seen_a[idx] += 1;
        }
        let ((ps, off_s), (pd, off_d)) =
            (pack.partition_s(TileB::default(), t).unwrap(), pack.partition_d(SmemB::default(), t).unwrap());
        for v in 0..ps.size() {
            // TileB's index of (n, k) is the column-major (k, n) tile's: k + BK * n.
            let (n, k) = ((off_s + ps.call(v)) / BK, (off_s + ps.call(v)) % BK);
            assert_eq!(SmemB::default().call(n + BN * k), off_d + pd.call(v));
            seen_b[n + BN * k] += 1;
        }
    }
    assert!(seen_a.iter().chain(&seen_b).all(|&x| x == 1));
}
