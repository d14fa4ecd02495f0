//! The atom layer's layouts and constants against their oracles: the PTX ISA's register
//! figures for the accumulator fragments (§9.7.15.5.1.1 for `wgmma .m64nNk16`, §9.7.14.5.14
//! for `mma.m16n8k16`), CUTLASS's `PipelineState`, and the TMA boxes' byte counts.

use cute_atom::atom::{Accumulators, MmaCall, Multicast, TmaCopy, TmaLoad};
use cute_atom::pipeline::{PipelineState, PipelineTmaAsync};
use cute_static::gmma::{LayoutAtom, Sw128, Sw64, K};
use cute_static::mma::*;
use cute_static::typenum::U16;
use cute_static::{Shape, TileToShape};

/// The PTX ISA's `wgmma .m64nNk16` D fragment with f32 accumulators: thread `t` holds rows
/// `16 * warp + lane / 4` and `+ 8`, columns `8 * (v / 4) + 2 * (lane % 4)` and `+ 1`.
fn wgmma_d(t: usize, v: usize) -> (usize, usize) {
    let (warp, lane) = (t / 32, t % 32);
    (16 * warp + lane / 4 + 8 * (v / 2 % 2), 8 * (v / 4) + 2 * (lane % 4) + v % 2)
}

fn check_wgmma<A: MmaCall>(n: usize) {
    check_wgmma_k::<A>(n, 16)
}

/// As [`check_wgmma`], for an atom of `k` elements of K an instruction (32 for 8-bit floats:
/// the D fragment depends only on M and N).
fn check_wgmma_k<A: MmaCall>(n: usize, k: usize) {
    let values = std::mem::size_of::<A::Acc>() / 4;
    assert_eq!(values, n / 2, "{}: N/2 accumulators a thread", A::NAME);
    assert_eq!(A::SHAPE_MNK, [64, n, k]);
    let mut seen = vec![false; 64 * n];
    for t in 0..128 {
        for v in 0..values {
            let (m, c) = A::c_coord(t, v);
            assert_eq!((m, c), wgmma_d(t, v), "{} thread {t} value {v}", A::NAME);
            // The thread and value parts add (the epilogue's offsets rely on it).
            let ((m0, c0), (dm, dc)) = (A::c_coord(t, 0), A::c_coord(0, v));
            assert_eq!((m, c), (m0 + dm, c0 + dc));
            assert!(!std::mem::replace(&mut seen[m + 64 * c], true), "{}: ({m}, {c}) twice", A::NAME);
        }
    }
    assert!(seen.iter().all(|&s| s), "{}: every element of the 64x{n} tile", A::NAME);
}

#[test]
fn wgmma_accumulators_are_the_ptx_isa_fragment() {
    check_wgmma::<SM90_64x64x16_F32F16F16_SS>(64);
    check_wgmma::<SM90_64x128x16_F32F16F16_SS>(128);
    check_wgmma::<SM90_64x80x16_F32F16F16_SS>(80);
    check_wgmma::<SM90_64x176x16_F32F16F16_SS>(176);
    check_wgmma::<SM90_64x192x16_F32F16F16_SS>(192);
    check_wgmma::<SM90_64x256x16_F32F16F16_SS>(256);
    check_wgmma::<SM90_64x256x16_F32BF16BF16_SS>(256);
    check_wgmma::<SM90_64x128x16_F32F16F16_RS>(128);
    check_wgmma::<SM90_64x256x16_F32BF16BF16_RS>(256);
}

#[test]
fn mma_sync_accumulators_are_the_ptx_isa_fragment() {
    fn check<A: MmaCall>() {
        assert_eq!(std::mem::size_of::<A::Acc>() / 4, 4);
        for t in 0..32 {
            for v in 0..4 {
                // `mma.m16n8k16` C/D: row `lane / 4` (`+ 8` for c2, c3), column `2 * (lane % 4) + v % 2`.
                assert_eq!(A::c_coord(t, v), (t / 4 + 8 * (v / 2), 2 * (t % 4) + v % 2));
            }
        }
    }
    check::<SM80_16x8x16_F32F16F16F32_TN>();
    check::<SM80_16x8x16_F32BF16BF16F32_TN>();
}

#[test]
fn for_each_pair_visits_the_even_values_in_order() {
    let mut acc = [0.0f32; 128];
    for (i, x) in acc.iter_mut().enumerate() {
        *x = i as f32;
    }
    let mut seen = vec![];
    acc.for_each_pair(|v, lo, hi| seen.push((v, lo, hi)));
    let want: Vec<_> = (0..64).map(|j| (2 * j, (2 * j) as f32, (2 * j + 1) as f32)).collect();
    assert_eq!(seen, want);
}

#[test]
fn pipeline_state_walks_the_ring_as_cutlass_does() {
    // CUTLASS's PipelineState: `++` moves to the next stage and flips the phase past the last;
    // consumers start at phase 0, producers at phase 1.
    let (mut c, mut p) = (PipelineState::<3>::consumer_start(), PipelineState::<3>::producer_start());
    for n in 0..20 {
        assert_eq!((c.index(), c.phase()), (n % 3, (n / 3 % 2) as u32));
        assert_eq!((p.index(), p.phase()), (n % 3, 1 ^ (n / 3 % 2) as u32));
        c.advance();
        p.advance();
    }
}

#[test]
fn advance_by_is_that_many_advances() {
    // The law: advance_by(n) lands where n advances do, from any state, for any n (CUTLASS's
    // `advance(n)`), here with 4 stages from each start and after each of 0..9 advances.
    for start in [PipelineState::<4>::consumer_start(), PipelineState::<4>::producer_start()] {
        for pre in 0..9 {
            let mut s = start;
            for _ in 0..pre {
                s.advance();
            }
            for n in 0..40 {
                let (mut stepped, mut jumped) = (s, s);
                for _ in 0..n {
                    stepped.advance();
                }
                jumped.advance_by(n);
                assert_eq!((jumped.index(), jumped.phase()), (stepped.index(), stepped.phase()), "{pre} then {n}");
            }
        }
    }
}

type Atom = LayoutAtom<K, Sw128, U16>;
type StageA = <Atom as TileToShape<Shape![(128, 64)]>>::Output;
type StageB = <Atom as TileToShape<Shape![(256, 64)]>>::Output;
type PartB = <Atom as TileToShape<Shape![(128, 64)]>>::Output;

#[test]
fn tma_copies_deliver_their_tiles() {
    // A 128x64 tile of halves is 16 KiB, one box; B's 256x64 in two multicast halves of 16 KiB.
    assert_eq!(<TmaLoad<U16, StageA> as TmaCopy>::TILE_BYTES, 128 * 64 * 2);
    assert_eq!(<TmaLoad<U16, StageA> as TmaCopy>::DELIVERED, 128 * 64 * 2);
    assert_eq!(<TmaLoad<U16, StageA> as TmaCopy>::MASK, 1);
    type Mc = TmaLoad<U16, StageB, Multicast<PartB, 0b11>>;
    assert_eq!(<Mc as TmaCopy>::TILE_BYTES, 256 * 64 * 2);
    assert_eq!(<Mc as TmaCopy>::DELIVERED, 256 * 64 * 2);
    assert_eq!(<Mc as TmaCopy>::MASK, 0b11);
    // A 64-byte swizzle's atom is 32 halves wide: a (64, 32) tile is 4 KiB.
    type Sw64Tile = <LayoutAtom<K, Sw64, U16> as TileToShape<Shape![(64, 32)]>>::Output;
    assert_eq!(<TmaLoad<U16, Sw64Tile> as TmaCopy>::DELIVERED, 64 * 32 * 2);
}

#[test]
fn pipeline_sizes_are_its_stages() {
    type P = PipelineTmaAsync<4, (TmaLoad<U16, StageA>, TmaLoad<U16, StageB>), 1, 2>;
    assert_eq!(P::STAGE_BYTES, 49152);
    assert_eq!(P::TX_BYTES, 49152);
    assert_eq!(P::SMEM_BYTES, 4 * 49152 + 1024 + 64);
    let (_, (a, b)) = P::carve(2048);
    assert_eq!((a.stage(0).base(), a.stage(1).base()), (2048, 2048 + 16384));
    assert_eq!(b.stage(0).base(), 2048 + 4 * 16384);
}

#[test]
#[should_panic(expected = "is a PTX instruction: it runs only in a kernel built for nvptx64-nvidia-cuda")]
fn an_instruction_off_the_gpu_says_so() {
    let _ = cute_atom::arch::thread::cluster_ctarank();
}

/// FlashAttention-3's relabelling (`acc_as_a`): accumulator pair `(v, v+1)` of `S = Q·Kᵀ`
/// (atom `SM90_64x128x16`) is register `v / 2 % 4` of k-block `v / 8` of the RS atom's A
/// fragment. Checked against the two atoms' layouts (cute-static's, proven against CuTe C++):
/// for every thread, k-block and value, the accumulator's `(m, n)` is the A value's `(m, k)`
/// with `n = 16 kb + k` (the same thread holds it: no data moves).
#[test]
fn accumulators_relabel_as_the_rs_a_fragment() {
    use cute_static::layout::Idx2Crd;
    use cute_static::mma::MmaAtom;
    use cute_static::{shape, Cons, Nil};
    type C = SM90_64x128x16_F32F16F16_SS;
    type R = SM90_64x64x16_F32F16F16_RS;
    let a_coord = |t: usize, j: usize| {
        let i = <R as MmaAtom>::ALayout::default().call_coord(&shape!(({ t }, { j })));
        let Cons(m, Cons(k, Nil)) = shape!((64, 16)).idx2crd(i);
        (m, k)
    };
    for t in 0..128 {
        for v in 0..64 {
            // acc_as_a's placement of the pair holding v (v % 2 its half); the A fragment's
            // value j is register j / 2, half j % 2.
            let (kb, reg) = cute_atom::algorithm::a_slot(v - v % 2);
            let j = 2 * reg + v % 2;
            let (m, k) = a_coord(t, j);
            assert_eq!(C::c_coord(t, v), (m, 16 * kb + k), "thread {t}, accumulator {v}");
        }
    }
}

/// The accumulators as rows (`AccRows`), against the atoms' C layouts at every thread: values
/// of one local row lie in one tile row, the lanes `t ^ x` (x the butterfly offsets) hold the
/// same rows, and no other lane of the warp does. For every `wgmma` C layout a thread holds 2
/// rows (`r`, `r + 8`) shared by the 4 lanes of a quad (offsets 1, 2); `mma.sync` alike.
#[test]
fn accumulator_rows_are_read_off_the_c_layout() {
    use cute_atom::algorithm::AccRows;
    fn check<C: MmaCall>()
    where
        C::CLayout: cute_static::product::ConstLeaves + cute_static::gmma::ModeSizes,
    {
        let (of, rows) = AccRows::<C>::ROW_OF;
        let (xors, n) = AccRows::<C>::LANE_XORS;
        assert_eq!((rows, &xors[..n]), (2, &[1u32, 2][..]), "{}", C::NAME);
        let values = std::mem::size_of::<C::Acc>() / 4;
        let threads = if C::SHAPE_MNK[0] == 64 { 128 } else { 32 };
        for t in 0..threads {
            let row = |v| C::c_coord(t, v).0;
            for v in 0..values {
                for u in 0..values {
                    assert_eq!(of[v] == of[u], row(v) == row(u), "{}: thread {t} values {v} {u}", C::NAME);
                }
            }
            let lane0 = t - t % 32;
            let sharing: Vec<usize> = (lane0..lane0 + 32).filter(|&s| C::c_coord(s, 0).0 == row(0)).collect();
            let mut butterfly: Vec<usize> = (0..1usize << n)
                .map(|m| (0..n).filter(|&i| m >> i & 1 == 1).fold(t, |acc, i| acc ^ xors[i] as usize))
                .collect();
            butterfly.sort();
            assert_eq!(sharing, butterfly, "{}: thread {t}", C::NAME);
        }
    }
    check::<SM90_64x64x16_F32F16F16_SS>();
    check::<SM90_64x128x16_F32F16F16_SS>();
    check::<SM90_64x256x16_F32BF16BF16_SS>();
    check::<SM80_16x8x16_F32F16F16F32_TN>();
}

/// The causal and key-length mask over a 64x128 score tile at (64, 128) of 200 keys and 192
/// queries (bottom-right aligned: diagonal 8), against the definition at every thread and value
/// with the PTX ISA's fragment coordinates.
#[test]
fn mask_follows_the_fragment_coordinates() {
    use cute_atom::algorithm::mask;
    type C = SM90_64x128x16_F32F16F16_SS;
    let (keys, diagonal) = (200usize, 8isize);
    for causal in [None, Some(diagonal)] {
        for t in 0..128 {
            let mut acc = C::zeros();
            mask::<C>(&mut acc, t, (64, 128), keys, causal);
            for (v, &x) in acc.iter().enumerate() {
                let (r, c) = wgmma_d(t, v);
                let (row, col) = (64 + r, 128 + c);
                let masked = col >= keys || causal.is_some_and(|d| col as isize > row as isize + d);
                assert_eq!(x == f32::NEG_INFINITY, masked, "thread {t} value {v} at ({row}, {col}), {causal:?}");
            }
        }
    }
}

/// The 8-bit float atoms (`wgmma .m64nNk32 .e4m3/.e5m2`): their accumulators are the PTX ISA's
/// D fragment; the `RS` A fragment is the ISA's `.m64nNk32` 8-bit A figure (four registers of
/// four elements: register `r` of thread `t` holds row `16 warp + lane / 4 + 8 (r % 2)`,
/// columns `4 (lane % 4) + 16 (r / 2)` and the next three); and the descriptors `gemm` reads off
/// a 128-byte-swizzled K-major tile of bytes are the ISA's canonical ones (rows of 128 bytes,
/// 8-row groups 1024 bytes apart, a k-block 32 bytes along the row, warpgroup `w`'s 64 rows
/// 8 KiB in).
#[test]
fn fp8_wgmma_atoms_are_the_ptx_isa_fragments_and_descriptors() {
    use cute_atom::algorithm::WgmmaOperands;
    use cute_static::mma::MmaAtom;
    use cute_static::typenum::U8;
    check_wgmma_k::<SM90_64x64x32_F32E4M3E4M3_SS_TN>(64, 32);
    check_wgmma_k::<SM90_64x128x32_F32E4M3E5M2_SS_TN>(128, 32);
    check_wgmma_k::<SM90_64x192x32_F32E5M2E4M3_RS_TN>(192, 32);
    check_wgmma_k::<SM90_64x256x32_F32E5M2E5M2_SS_TN>(256, 32);
    let a = <SM90_64x128x32_F32E4M3E4M3_RS_TN as MmaAtom>::ALayout::default();
    for t in 0..128 {
        let (warp, lane) = (t / 32, t % 32);
        for r in 0..4 {
            for e in 0..4 {
                let (m, k) = (16 * warp + lane / 4 + 8 * (r % 2), 4 * (lane % 4) + 16 * (r / 2) + e);
                assert_eq!(a.call(t + 128 * (4 * r + e)), m + 64 * k, "thread {t} register {r} element {e}");
            }
        }
    }
    type Atom8 = LayoutAtom<K, Sw128, U8>;
    type TileA = <Atom8 as TileToShape<Shape![(128, 128)]>>::Output;
    type TileB = <Atom8 as TileToShape<Shape![(256, 128)]>>::Output;
    type Ss = SM90_64x256x32_F32E4M3E4M3_SS_TN;
    let canonical = |start: u32| (1u64 << 62) | (64u64 << 32) | (1u64 << 16) | u64::from((start >> 4) & 0x3fff);
    let base = 0x2000;
    for kk in 0..4 {
        for w in 0..2 {
            assert_eq!(
                <Ss as WgmmaOperands<TileA, TileB, K, K>>::desc_a(w, kk, base),
                canonical(base + 8192 * w as u32 + 32 * kk as u32),
                "A, warpgroup {w}, k-block {kk}"
            );
        }
        assert_eq!(
            <Ss as WgmmaOperands<TileA, TileB, K, K>>::desc_b(0, kk, base),
            canonical(base + 32 * kk as u32),
            "B, k-block {kk}"
        );
    }
}
