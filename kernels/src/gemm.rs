//! A CuTe-style tiled SGEMM on the CPU: `C = A B` for row-major `A (M x K)`, `B (K x N)`,
//! `C (M x N)` of any sizes (residue tiles predicated by the identity tensor's tiles).
//!
//! * Block tiles by `local_tile`: `(BM, BK)` of `A`, `(BK, BN)` of `B`, `(BM, BN)` of `C`.
//! * Each block's `A` and `B` tiles are packed into shared tiles whose storage is sized by
//!   their (static) layouts at compile time, laid out so that every thread's operand panel is
//!   contiguous: `sA` is `(TM, MR, BK):(MR*BK, 1, MR)`, `sB` is `(BK, TN, NR):(NR, NR*BK, 1)`.
//! * The `(BM, BN)` block is spread over a `(TM, TN)` thread layout by `local_partition`: thread
//!   `(tm, tn)` owns rows `tm + TM*i` and columns `tn + TN*j`, an `MR x NR` register tile
//!   accumulated by the micro-kernel `mma`, which is generic over the panel and accumulator
//!   layouts (any static layouts of the right sizes compute the same product).
//!
//! Checked against the naive triple loop.

use cute_static::tensor::{elem_less, local_partition, make_tensor, IdentityTensor, Tensor};
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

/// The shared tile of `A`: `(tm, i, k)`, each thread's `(MR, BK)` panel contiguous.
type SmemA = Layout![(8,8,256):(2048,1,8)];
/// The shared tile of `B`: `(k, tn, j)`, each thread's `(BK, NR)` panel contiguous.
type SmemB = Layout![(256,16,8):(8,2048,1)];
/// The threads over a `(BM, BN)` block: `(TM, TN)` = `(8, 16)`, column-major.
type Threads = Layout![(8,16):(1,8)];
/// A thread's `A` panel, `(MR, BK)`, and `B` panel, `(BK, NR)`, inside the shared tiles.
type PanelA = Layout![(8,256):(1,8)];
type PanelB = Layout![(256,8):(8,1)];
/// A thread's accumulators, `(MR, NR)`, row-major.
type Acc = Layout![(8,8):(8,1)];

/// `acc += pa * pb` over `BK`: the register tile of one thread. Generic over the layouts; the
/// loops are over the static sizes, so the index arithmetic folds to constants, and the
/// accumulators live in registers.
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
                *c = a.mul_add(pb[lb.call(k + BK * j)], *c);
            }
        }
    }
    *acc = r;
}

/// `mma` compiled for AVX2 and FMA (the CPU's fused multiply-add; `mul_add` without it is a
/// library call), chosen at run time.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn mma_fma(pa: &[f32; MR * BK], pb: &[f32; NR * BK], acc: &mut [f32; MR * NR]) {
    mma::<PanelA, PanelB, Acc>(pa, pb, acc)
}

fn mma_dispatch(pa: &[f32; MR * BK], pb: &[f32; NR * BK], acc: &mut [f32; MR * NR]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has the features `mma_fma` is compiled for.
        return unsafe { mma_fma(pa, pb, acc) };
    }
    // Without FMA, `mul_add` is exact but slow: use a multiply and an add.
    let (la, lb, lc) = (PanelA::default(), PanelB::default(), Acc::default());
    for k in 0..BK {
        for i in 0..MR {
            let a = pa[la.call(i + MR * k)];
            for j in 0..NR {
                acc[lc.call(i + MR * j)] += a * pb[lb.call(k + BK * j)];
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
    let threads = Threads::default();
    let (tm_count, tn_count) = (BM / MR, BN / NR);
    let (k_tiles, n_tiles) = (k.div_ceil(BK), n.div_ceil(BN));
    // B's block tiles, (kt, bj) -> the shared tile.
    let mut sb: Vec<Shared<SmemB>> = Vec::with_capacity(k_tiles * n_tiles);
    for kt in 0..k_tiles {
        for bj in 0..n_tiles {
            let tb = cb.local_tile(shape!((256, 128)), &[kt, bj]).expect("a tile of the grid");
            let mut s = make_tensor::<f32, _, _>(SmemB::default());
            for kk in 0..BK {
                for j in 0..BN {
                    let crd = tb.get(kk + BK * j);
                    let x = if elem_less(&crd, cb.shape()) { *gb.at(&crd) } else { 0.0 };
                    s[kk + BK * ((j % tn_count) + tn_count * (j / tn_count))] = x;
                }
            }
            sb.push(s);
        }
    }
    let mut sa: Vec<Shared<SmemA>> = (0..k_tiles).map(|_| make_tensor::<f32, _, _>(SmemA::default())).collect();
    let mut acc = vec![[0f32; MR * NR]; tm_count * tn_count];
    // Each thread's part of a (BM, BN) block, as indices of the block (column-major): the same
    // partition as the data's, applied to the block's coordinates. It is CuTe's
    // `make_tiled_mma(UniversalFMA, (TM,TN,1))` `partition_C` (a test below checks it).
    let parts: Vec<_> = (0..tm_count * tn_count)
        .map(|tid| local_partition(layout!((64,128):(1,64)), threads, tid).expect("a thread of the layout"))
        .collect();
    for bi in 0..m.div_ceil(BM) {
        for (kt, s) in sa.iter_mut().enumerate() {
            let ta = ca.local_tile(shape!((64, 256)), &[bi, kt]).expect("a tile of the grid");
            for i in 0..BM {
                for kk in 0..BK {
                    let crd = ta.get(i + BM * kk);
                    let x = if elem_less(&crd, ca.shape()) { *ga.at(&crd) } else { 0.0 };
                    s[(i % tm_count) + tm_count * ((i / tm_count) + MR * kk)] = x;
                }
            }
        }
        for bj in 0..n_tiles {
            acc.iter_mut().for_each(|r| *r = [0.0; MR * NR]);
            for (kt, sa) in sa.iter().enumerate() {
                let sb = &sb[kt * n_tiles + bj];
                // Each thread: its panels (contiguous in the shared tiles), then its tile.
                for (tid, acc) in acc.iter_mut().enumerate() {
                    let (tm, tn) = (tid % tm_count, tid / tm_count);
                    let pa = sa.engine()[tm * MR * BK..(tm + 1) * MR * BK].try_into().expect("a panel");
                    let pb = sb.engine()[tn * NR * BK..(tn + 1) * NR * BK].try_into().expect("a panel");
                    mma_dispatch(pa, pb, acc);
                }
            }
            // Each thread writes its register tile to its partition of the block, predicated.
            let tc = cc.local_tile(shape!((64, 128)), &[bi, bj]).expect("a tile of the grid");
            let lc = Acc::default();
            for ((part, offset), acc) in parts.iter().zip(&acc) {
                for i in 0..MR {
                    for j in 0..NR {
                        let crd = tc.get(offset + part.call(i + MR * j));
                        if elem_less(&crd, cc.shape()) {
                            *gc.at_mut(&crd) = acc[lc.call(i + MR * j)];
                        }
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

#[test]
fn the_shared_tiles_are_what_the_kernel_indexes() {
    // The hand-written packing offsets are the layouts' own.
    let (sa, sb) = (SmemA::default(), SmemB::default());
    for i in 0..BM {
        for kk in 0..BK {
            let (tm, ii) = (i % (BM / MR), i / (BM / MR));
            assert_eq!(sa.call(tm + (BM / MR) * (ii + MR * kk)), tm * MR * BK + ii + MR * kk);
        }
    }
    for kk in 0..BK {
        for j in 0..BN {
            let (tn, jj) = (j % (BN / NR), j / (BN / NR));
            assert_eq!(sb.call(kk + BK * (tn + (BN / NR) * jj)), tn * NR * BK + kk * NR + jj);
        }
    }
    let _ = (PanelA::default(), PanelB::default(), Threads::default());
}

/// The threads' parts of a C block are CuTe's `TiledMMA` partition: `make_tiled_mma(
/// UniversalFMA, (TM,TN,1))`'s `partition_C` of the `(BM, BN)` block (cute-dyn's `TiledMma`,
/// checked against CuTe C++ 4.2 in `tests/mma.rs`) is each thread's `local_partition`.
#[test]
fn the_thread_partition_is_the_tiled_mma_partition() {
    use cute_static::cute_dyn::mma::{MmaAtom, TiledMma};
    use cute_static::cute_dyn::{Int, Layout as DynLayout};
    let atom_layout: DynLayout = "(8,16,1):(1,8,0)".parse().unwrap();
    let mma = TiledMma::new(MmaAtom::named("UniversalFMA").unwrap(), &atom_layout, &[]).unwrap();
    let block: DynLayout = "(64,128):(1,64)".parse().unwrap();
    for tid in 0..(BM / MR) * (BN / NR) {
        let (part, offset) = local_partition(layout!((64,128):(1,64)), Threads::default(), tid).unwrap();
        let (frg, off) = mma.partition_c(&block, Int::st(tid as i64)).unwrap();
        // C++'s partition_C is (FrgV, RestM, RestN) with FrgV = 1 here: the same elements.
        assert_eq!(off.value() as usize, offset, "thread {tid}");
        for i in 0..MR {
            for j in 0..NR {
                assert_eq!(
                    frg.call((i + MR * j) as i64).unwrap() as usize,
                    part.call(i + MR * j),
                    "thread {tid} ({i},{j})"
                );
            }
        }
    }
}
