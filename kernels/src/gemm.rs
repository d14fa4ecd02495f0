//! A CuTe-style tiled SGEMM on the CPU, written once and generic over its tiling and over the
//! operands' layouts: `C = A B` for `A (M x K)`, `B (K x N)`, `C (M x N)` of any sizes and
//! strides, with static extents (every divide computed by the type checker) or run-time ones
//! (residue tiles predicated by the identity tensor's tiles), in [`gemm_tiled`]. A tiling
//! ([`Tiling`]) is what CuTe's kernel templates take: block tiles, shared tiles, a tiled copy
//! that packs them and a `TiledMMA` (`make_tiled_mma(UniversalFMA, (TM,TN,1))`, CPU "threads"
//! as its threads and registers as its values).
//!
//! * Block tiles by `local_tile` of the operands' layouts (and of their identity tensors).
//! * Each block's `A` and `B` tiles are packed into shared tiles laid out so that every
//!   thread's operand panel is contiguous: for [`Cpu64x128x256`], `sA` is the `(M,K)` layout
//!   `((TM,MR),BK):((MR*BK,1),MR)`, `sB` the `(N,K)` layout `((TN,NR),BK):((NR*BK,1),NR)`. A
//!   `TiledCopy` packs them: each thread moves its `partition_S` of the block tile (read where
//!   the identity tensor's tile says the element is inside the matrix, else 0) to its
//!   `partition_D` of the shared tile.
//! * Thread `tid`'s operands are the tiled MMA's `partition_A(sA)` and `partition_B(sB)` (its
//!   contiguous `(1,MR,BK)` and `(1,NR,BK)` panels), its accumulators a register fragment laid
//!   out by `partition_fragment_C` of the block, and it writes them through `partition_C` of the
//!   block, predicated. The micro-kernel `mma` is generic over the panel and accumulator
//!   layouts.
//!
//! Checked against the naive triple loop, static and run-time extents, two tilings.

use cute_static::copy::{TiledCopy, UniversalCopy};
use cute_static::error::Error;
use cute_static::mma::{TiledMma, UniversalFMA};
use cute_static::tensor::{elem_less, IdentityTensor, TensorError};
use cute_static::{
    layout, shape, Cons, CoordTile, Layout, LayoutFn, LocalTile, Nil, PartitionA, PartitionB, PartitionC, PartitionD,
    PartitionFragmentC, PartitionS, Threads,
};

/// A 2-D coordinate (a tile's, or an element's in its matrix).
type Crd2 = Cons<usize, Cons<usize, Nil>>;

/// What a tiled GEMM is built of, as CuTe's kernel templates take them (`CtaTiler`,
/// `SmemLayoutA/B`, `TiledCopy`, `TiledMma`); each a type, chosen once per tiling. The kernel,
/// [`gemm_tiled`], is generic over it and over the operands' layouts.
pub trait Tiling {
    /// The block tiles of `A (M,K)`, `B (K,N)` and `C (M,N)`: `<BM,BK>`, `<BK,BN>`, `<BM,BN>`.
    type CtaA: Copy + Default;
    /// See `CtaA`.
    type CtaB: Copy + Default;
    /// See `CtaA`.
    type CtaC: Copy + Default;
    /// The index of `(m, k)` in the column-major `(BM, BK)` block tile, as an `(M,K)` layout
    /// (what the packing copy's source partition indexes; `(BM,BK):(1,BM)`).
    type IndexA: Copy + Default;
    /// The index of `(n, k)` in the column-major `(BK, BN)` block tile of `B`, as an `(N,K)`
    /// layout (`(BN,BK):(BK,1)`).
    type IndexB: Copy + Default;
    /// The index of `(m, n)` in the column-major `(BM, BN)` block tile of `C`.
    type IndexC: Copy + Default;
    /// The shared tile of `A`, an `(M,K)` layout (each thread's panel contiguous).
    type SmemA: Copy + Default;
    /// The shared tile of `B`, an `(N,K)` layout.
    type SmemB: Copy + Default;
    /// The tiled MMA: threads, and each thread's panels and accumulators.
    type Mma: Copy + Default;
    /// The tiled copy that packs a block tile into its shared tile.
    type Pack: Copy + Default;
    /// A thread's register tile (`MR x NR`) and the reduction depth of a block (`BK`): the
    /// micro-kernel's loop bounds, checked against the partitions' sizes.
    const MR: usize;
    /// See `MR`.
    const NR: usize;
    /// See `MR`.
    const BK: usize;
}

/// The tiling of [`gemm`]: 64x128 blocks of `C`, a depth of 256, 8x16 threads of 8x8 registers.
#[derive(Clone, Copy, Default, Debug)]
pub struct Cpu64x128x256;
impl Tiling for Cpu64x128x256 {
    type CtaA = cute_static::Tiler![<64, 256>];
    type CtaB = cute_static::Tiler![<256, 128>];
    type CtaC = cute_static::Tiler![<64, 128>];
    type IndexA = Layout![(64,256):(1,64)];
    type IndexB = Layout![(128,256):(256,1)];
    type IndexC = Layout![(64,128):(1,64)];
    /// Row `tm + TM*i` of thread row `tm` at `tm*MR*BK + i`: each thread's `(MR, BK)` panel
    /// contiguous.
    type SmemA = Layout![((8,8),256):((2048,1),8)];
    type SmemB = Layout![((16,8),256):((2048,1),8)];
    /// `(TM, TN, 1) = (8, 16, 1)` FMA "atoms" (threads), column-major.
    type Mma = TiledMma<UniversalFMA, Layout![(8,16,1):(1,8,0)]>;
    /// 16x8 threads, each moving 4 consecutive rows (`UniversalCopy<uint128_t>` of floats).
    type Pack = TiledCopy<UniversalCopy<cute_static::typenum::U4>, Layout![(16,8):(1,16)], Layout![(4,1):(1,0)]>;
    const MR: usize = 8;
    const NR: usize = 8;
    const BK: usize = 256;
}

/// A second tiling, to show the kernel is generic over it: 32x32 blocks of `C`, a depth of 64,
/// 4x8 threads of 8x4 registers, packed by 8x4 threads of 4 rows.
#[derive(Clone, Copy, Default, Debug)]
pub struct Cpu32x32x64;
impl Tiling for Cpu32x32x64 {
    type CtaA = cute_static::Tiler![<32, 64>];
    type CtaB = cute_static::Tiler![<64, 32>];
    type CtaC = cute_static::Tiler![<32, 32>];
    type IndexA = Layout![(32,64):(1,32)];
    type IndexB = Layout![(32,64):(64,1)];
    type IndexC = Layout![(32,32):(1,32)];
    type SmemA = Layout![((4,8),64):((512,1),8)];
    type SmemB = Layout![((8,4),64):((256,1),4)];
    type Mma = TiledMma<UniversalFMA, Layout![(4,8,1):(1,4,0)]>;
    type Pack = TiledCopy<UniversalCopy<cute_static::typenum::U4>, Layout![(8,4):(1,8)], Layout![(4,1):(1,0)]>;
    const MR: usize = 8;
    const NR: usize = 4;
    const BK: usize = 64;
}

/// `acc += pa * pb` over `BK`: one thread's register tile, `pa` its `(1,MR,BK)` panel of A,
/// `pb` its `(1,NR,BK)` panel of B (indices by the layouts `la`, `lb`) and `acc` its `(1,MR,NR)`
/// fragment of C (index by `lc`), each product added by `fma`. The loops run over the tiling's
/// constants, so for static layouts the index arithmetic folds to constants and the
/// accumulators stay in registers.
#[inline(always)]
fn mma<K: Tiling>(
    (la, lb, lc): (impl LayoutFn, impl LayoutFn, impl LayoutFn),
    pa: &[f32],
    pb: &[f32],
    acc: &mut [f32],
    fma: impl Fn(f32, f32, f32) -> f32,
) {
    let (mr, nr) = (K::MR, K::NR);
    // Lengths the compiler knows: with static layouts, no bounds check is left in the loops.
    let (pa, pb, acc) = (&pa[..mr * K::BK], &pb[..nr * K::BK], &mut acc[..mr * nr]);
    for k in 0..K::BK {
        for i in 0..mr {
            let a = pa[la.call(i + mr * k)];
            for j in 0..nr {
                let c = &mut acc[lc.call(i + mr * j)];
                *c = fma(a, pb[lb.call(j + nr * k)], *c);
            }
        }
    }
}

/// `mma` compiled for AVX2 and FMA (the CPU's fused multiply-add; `mul_add` without it is a
/// library call).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn mma_fma<K: Tiling>(layouts: (impl LayoutFn, impl LayoutFn, impl LayoutFn), pa: &[f32], pb: &[f32], acc: &mut [f32]) {
    mma::<K>(layouts, pa, pb, acc, f32::mul_add)
}

/// The micro-kernel, FMA chosen at run time (without it, `mul_add` is exact but slow: a
/// multiply and an add instead).
fn mma_dispatch<K: Tiling>(
    layouts: (impl LayoutFn, impl LayoutFn, impl LayoutFn),
    pa: &[f32],
    pb: &[f32],
    acc: &mut [f32],
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") && std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has the features `mma_fma` is compiled for.
        return unsafe { mma_fma::<K>(layouts, pa, pb, acc) };
    }
    mma::<K>(layouts, pa, pb, acc, |a, b, c| c + a * b)
}

/// `c = a b` for `a (m x k)`, `b (k x n)`, `c (m x n)`, whose elements are at `la(m, k)`,
/// `lb(k, n)`, `lc(m, n)` in their slices: any strides, static extents (the divides computed by
/// the type checker) or run-time ones (computed when it runs), tiled by `K`. Written once, one
/// bound per operation it calls.
///
/// Every block tile of `B` is packed once into its shared tile, the block row of `A` once per
/// block row; each `(BM, BN)` block of `C` then accumulates over `K` in the threads' register
/// tiles and is written through the threads' partitions. Residue tiles are predicated the CuTe
/// way: the identity tensor of each operand's shape is tiled like the operand, and an element
/// is read (else 0 is packed) or written only where `elem_less(coordinate, shape)`.
///
/// # Errors
/// A layout whose size is not its operand's `m x k` (`k x n`, `m x n`), or whose cosize its
/// slice does not hold; a tiling whose partitions are not the `MR x BK`, `NR x BK` panels and
/// `MR x NR` fragment it declares; a run-time divide's error.
pub fn gemm_tiled<K, LA, LB, LC>(
    (m, n, k): (usize, usize, usize),
    (a, la): (&[f32], LA),
    (b, lb): (&[f32], LB),
    (c, lc): (&mut [f32], LC),
) -> Result<(), TensorError>
where
    K: Tiling,
    // The operands' block tiles (`local_tile`), and those of their identity tensors.
    LA: LocalTile<K::CtaA, Crd2> + LayoutFn,
    LB: LocalTile<K::CtaB, Crd2> + LayoutFn,
    LC: LocalTile<K::CtaC, Crd2> + LayoutFn,
    K::CtaA: CoordTile<Crd2>,
    K::CtaB: CoordTile<Crd2>,
    K::CtaC: CoordTile<Crd2>,
    // The packing copy: its threads, their source and destination parts.
    K::Pack: Threads + PartitionS<K::IndexA> + PartitionD<K::SmemA> + PartitionS<K::IndexB> + PartitionD<K::SmemB>,
    // The tiled MMA: its threads, their panels, accumulators and part of C.
    K::Mma:
        Threads + PartitionA<K::SmemA> + PartitionB<K::SmemB> + PartitionC<K::IndexC> + PartitionFragmentC<K::IndexC>,
    // The shared tiles' storage (`cosize`).
    K::SmemA: LayoutFn,
    K::SmemB: LayoutFn,
{
    /// A layout of `rows x cols` elements whose cosize the slice's `len` holds.
    fn holds(l: &impl LayoutFn, rows: usize, cols: usize, len: usize) -> Result<(), TensorError> {
        if rows.checked_mul(cols) != Some(l.size()) {
            return Err(TensorError::Algebra(Error::Postcondition {
                op: "gemm_tiled",
                condition: "size(layout) == rows * cols of its operand",
            }));
        }
        match l.cosize() {
            cosize if cosize > len && l.size() > 0 => Err(TensorError::StorageTooSmall { cosize, len }),
            _ => Ok(()),
        }
    }
    holds(&la, m, k, a.len())?;
    holds(&lb, k, n, b.len())?;
    holds(&lc, m, n, c.len())?;
    let crd = |x, y| Cons(x, Cons(y, Nil));
    // The coordinates of each operand, tiled as the operand.
    let (ia, ib, ic) = (
        IdentityTensor::new(shape!(({ m }, { k }))),
        IdentityTensor::new(shape!(({ k }, { n }))),
        IdentityTensor::new(shape!(({ m }, { n }))),
    );
    let (mma, pack, smem_a, smem_b) = (K::Mma::default(), K::Pack::default(), K::SmemA::default(), K::SmemB::default());
    // Each packing thread's source (the index of a block tile's element) and destination (its
    // offset in the shared tile): `partition_S` and `partition_D` of the tiled copy.
    let pack_a: Vec<_> = (0..pack.threads())
        .map(|t| Ok((pack.partition_s(K::IndexA::default(), t)?, pack.partition_d(smem_a, t)?)))
        .collect::<Result<_, TensorError>>()?;
    let pack_b: Vec<_> = (0..pack.threads())
        .map(|t| Ok((pack.partition_s(K::IndexB::default(), t)?, pack.partition_d(smem_b, t)?)))
        .collect::<Result<_, TensorError>>()?;
    // Each thread's operands and results, from the tiled MMA: its panels of the shared tiles
    // (where they start; contiguous), its accumulator fragment, its part of a C block.
    let parts: Vec<_> = (0..mma.threads())
        .map(|t| {
            let pa = mma.partition_a(smem_a, t)?;
            let pb = mma.partition_b(smem_b, t)?;
            let frg = mma.partition_fragment_c(K::IndexC::default(), t)?;
            let pc = mma.partition_c(K::IndexC::default(), t)?;
            if (pa.0.size(), pb.0.size(), frg.size()) != (K::MR * K::BK, K::NR * K::BK, K::MR * K::NR) {
                return Err(TensorError::Algebra(Error::Postcondition {
                    op: "gemm_tiled",
                    condition: "the tiled MMA's parts are the tiling's MR x BK and NR x BK panels and MR x NR fragment",
                }));
            }
            Ok((pa, pb, frg, pc))
        })
        .collect::<Result<_, TensorError>>()?;
    // Pack block tile `tile` of an operand (`l`'s elements of `data`, coordinates `id`) into `s`.
    macro_rules! pack {
        ($s:expr, $parts:expr, $data:expr, $l:expr, $id:expr, $cta:ty, $x:expr, $y:expr) => {{
            let (tile, off) = $l.try_local_tile(<$cta>::default(), &crd($x, $y))?;
            let coords = $id.local_tile(<$cta>::default(), &[$x, $y])?;
            for ((ps, off_s), (pd, off_d)) in $parts {
                for v in 0..ps.size() {
                    let i = off_s + ps.call(v);
                    let inside = elem_less(&coords.get(i), $id.shape());
                    $s[off_d + pd.call(v)] = if inside { $data[off + tile.call(i)] } else { 0.0 };
                }
            }
        }};
    }
    let (m_tiles, n_tiles, k_tiles) =
        (ic.tiles(K::CtaC::default(), 0), ic.tiles(K::CtaC::default(), 1), ia.tiles(K::CtaA::default(), 1));
    // B's block tiles, (kt, bj) -> the shared tile.
    let mut sb = vec![vec![0f32; smem_b.cosize()]; k_tiles * n_tiles];
    for kt in 0..k_tiles {
        for bj in 0..n_tiles {
            pack!(sb[kt * n_tiles + bj], &pack_b, b, lb, ib, K::CtaB, kt, bj);
        }
    }
    let mut sa = vec![vec![0f32; smem_a.cosize()]; k_tiles];
    let mut acc = vec![vec![0f32; K::MR * K::NR]; parts.len()];
    for bi in 0..m_tiles {
        for (kt, s) in sa.iter_mut().enumerate() {
            pack!(s, &pack_a, a, la, ia, K::CtaA, bi, kt);
        }
        for bj in 0..n_tiles {
            acc.iter_mut().for_each(|r| r.fill(0.0));
            for (kt, sa) in sa.iter().enumerate() {
                let sb = &sb[kt * n_tiles + bj];
                // Each thread: its panels, then its register tile.
                for (((pa, off_a), (pb, off_b), frg, _), acc) in parts.iter().zip(acc.iter_mut()) {
                    let (pa_s, pb_s) = (&sa[*off_a..off_a + K::MR * K::BK], &sb[*off_b..off_b + K::NR * K::BK]);
                    mma_dispatch::<K>((*pa, *pb, *frg), pa_s, pb_s, acc);
                }
            }
            // Each thread writes its register tile to its partition of the block, predicated.
            let (tile, off) = lc.try_local_tile(K::CtaC::default(), &crd(bi, bj))?;
            let coords = ic.local_tile(K::CtaC::default(), &[bi, bj])?;
            for ((_, _, frg, (pc, off_c)), acc) in parts.iter().zip(&acc) {
                for v in 0..K::MR * K::NR {
                    let i = off_c + pc.call(v);
                    if elem_less(&coords.get(i), ic.shape()) {
                        c[off + tile.call(i)] = acc[frg.call(v)];
                    }
                }
            }
        }
    }
    Ok(())
}

/// `c = a b` for row-major `a (m x k)`, `b (k x n)`, `c (m x n)` of any sizes: [`gemm_tiled`]
/// with run-time extents, tiled by [`Cpu64x128x256`].
///
/// # Panics
/// When a slice holds fewer elements than its matrix.
pub fn gemm(m: usize, n: usize, k: usize, a: &[f32], b: &[f32], c: &mut [f32]) {
    gemm_tiled::<Cpu64x128x256, _, _, _>(
        (m, n, k),
        (a, layout!(({m},{k}):({k},1))),
        (b, layout!(({k},{n}):({n},1))),
        (c, layout!(({m},{n}):({n},1))),
    )
    .expect("each slice holds its matrix")
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

/// The same function with static extents (every divide by the type checker), with another
/// tiling, and with column-major operands: each `C` equal to the naive loop's.
#[test]
fn one_function_static_and_run_time_two_tilings() {
    let (m, n, k) = (96, 160, 320);
    let (a, b) = inputs(m, n, k);
    let mut expected = vec![0.0; m * n];
    naive(m, n, k, &a, &b, &mut expected);
    let mut c = vec![0.0; m * n];
    gemm_tiled::<Cpu64x128x256, _, _, _>(
        (m, n, k),
        (&a, layout!((96,320):(320,1))),
        (&b, layout!((320,160):(160,1))),
        (&mut c, layout!((96,160):(160,1))),
    )
    .unwrap();
    assert_eq!(c, expected, "static extents");
    for (m, n, k) in [(96, 160, 320), (33, 47, 65)] {
        let (a, b) = inputs(m, n, k);
        let mut expected = vec![0.0; m * n];
        naive(m, n, k, &a, &b, &mut expected);
        let mut c = vec![0.0; m * n];
        gemm_tiled::<Cpu32x32x64, _, _, _>(
            (m, n, k),
            (&a, layout!(({m},{k}):({k},1))),
            (&b, layout!(({k},{n}):({n},1))),
            (&mut c, layout!(({m},{n}):({n},1))),
        )
        .unwrap();
        assert_eq!(c, expected, "{m}x{n}x{k}, 32x32x64 tiling");
        // Column-major A and C (the transposes' storage), the same products.
        let at: Vec<f32> = (0..m * k).map(|x| a[(x % m) * k + x / m]).collect();
        let mut ct = vec![0.0; m * n];
        gemm_tiled::<Cpu32x32x64, _, _, _>(
            (m, n, k),
            (&at, layout!(({m},{k}):(1,{m}))),
            (&b, layout!(({k},{n}):({n},1))),
            (&mut ct, layout!(({m},{n}):(1,{m}))),
        )
        .unwrap();
        assert!((0..m * n).all(|x| ct[(x % n) * m + x / n] == expected[x]), "column-major {m}x{n}x{k}");
    }
    // A layout that is not its operand's size, and a slice too short, are errors.
    let short = vec![0.0; 10];
    let r = gemm_tiled::<Cpu32x32x64, _, _, _>(
        (4, 4, 4),
        (&short, layout!((4,4):(4,1))),
        (&short, layout!((4,4):(4,1))),
        (&mut [0.0; 16], layout!((4,4):(4,1))),
    );
    assert_eq!(r, Err(TensorError::StorageTooSmall { cosize: 16, len: 10 }));
    let r = gemm_tiled::<Cpu32x32x64, _, _, _>(
        (4, 4, 5),
        (&a, layout!((4,4):(4,1))),
        (&b, layout!((4,4):(4,1))),
        (&mut [0.0; 16], layout!((4,4):(4,1))),
    );
    assert!(r.is_err());
}

/// The tiled MMA's partitions are what the micro-kernel reads and writes: each thread's panel
/// of a shared tile is the contiguous `(1,MR,BK)` block at `tm*MR*BK` (`(1,NR,BK)` at
/// `tn*NR*BK`), its fragment a compact `(1,MR,NR)`, and its part of the C block the rows
/// `tm + TM*i` and columns `tn + TN*j`; the threads' parts cover the block once.
#[test]
fn the_partitions_are_the_panels() {
    type T = Cpu64x128x256;
    const BM: usize = 64;
    const BN: usize = 128;
    let (mr, nr, bk) = (T::MR, T::NR, T::BK);
    let mma = <T as Tiling>::Mma::default();
    let (tm_count, tn_count) = (BM / mr, BN / nr);
    assert_eq!(mma.threads(), tm_count * tn_count);
    let mut seen = vec![0; BM * BN];
    for tid in 0..tm_count * tn_count {
        let (tm, tn) = (tid % tm_count, tid / tm_count);
        let (pa, off_a) = mma.partition_a(<T as Tiling>::SmemA::default(), tid).unwrap();
        let (pb, off_b) = mma.partition_b(<T as Tiling>::SmemB::default(), tid).unwrap();
        let frg = mma.partition_fragment_c(<T as Tiling>::IndexC::default(), tid).unwrap();
        let (pc, off_c) = mma.partition_c(<T as Tiling>::IndexC::default(), tid).unwrap();
        assert_eq!((off_a, off_b), (tm * mr * bk, tn * nr * bk));
        for v in 0..mr * bk {
            assert_eq!(pa.call(v), v);
        }
        for v in 0..nr * bk {
            assert_eq!(pb.call(v), v);
        }
        for i in 0..mr {
            for j in 0..nr {
                assert_eq!(frg.call(i + mr * j), i + mr * j);
                let idx = off_c + pc.call(i + mr * j);
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
    type T = Cpu64x128x256;
    const BM: usize = 64;
    const BN: usize = 128;
    let bk = T::BK;
    let pack = <T as Tiling>::Pack::default();
    let (smem_a, smem_b) = (<T as Tiling>::SmemA::default(), <T as Tiling>::SmemB::default());
    let (mut seen_a, mut seen_b) = (vec![0; BM * bk], vec![0; BN * bk]);
    assert_eq!(pack.threads(), 16 * 8);
    for t in 0..pack.threads() {
        let ((ps, off_s), (pd, off_d)) =
            (pack.partition_s(<T as Tiling>::IndexA::default(), t).unwrap(), pack.partition_d(smem_a, t).unwrap());
        for v in 0..ps.size() {
            let idx = off_s + ps.call(v);
            assert_eq!(smem_a.call(idx), off_d + pd.call(v));
            seen_a[idx] += 1;
        }
        let ((ps, off_s), (pd, off_d)) =
            (pack.partition_s(<T as Tiling>::IndexB::default(), t).unwrap(), pack.partition_d(smem_b, t).unwrap());
        for v in 0..ps.size() {
            // IndexB's index of (n, k) is the column-major (k, n) tile's: k + BK * n.
            let (n, k) = ((off_s + ps.call(v)) / bk, (off_s + ps.call(v)) % bk);
            assert_eq!(smem_b.call(n + BN * k), off_d + pd.call(v));
            seen_b[n + BN * k] += 1;
        }
    }
    assert!(seen_a.iter().chain(&seen_b).all(|&x| x == 1));
}
