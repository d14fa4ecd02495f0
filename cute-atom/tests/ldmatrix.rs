//! `copy_to_fragment` of a tiled `ldmatrix` copy run on the host, the warp's instruction
//! emulated as the PTX ISA defines it (§9.7.14.5.15: thread `t` gives the row address of row
//! `t % 8` of matrix `t / 8`, and receives register `q` of matrix `q`: row `t / 4`, columns
//! `2 (t % 4)` and `2 (t % 4) + 1`; `.trans` the same of the transposed matrix). The law: for
//! the tiled copies `make_tiled_copy_A/B` of hgemm's warp MMA, each thread's fragment holds the
//! elements the MMA's `A` (`B`) thread-value layout gives it (cute-static's, proven against
//! CuTe C++ 4.2), in its value order, for every warp tile and `k` step of hgemm's swizzled
//! shared tiles.

use std::cell::RefCell;
use std::marker::PhantomData;

use cute_atom::algorithm::{copy_to_fragment, LoadCall};
use cute_atom::SmemTensor;
use cute_static::copy::{CopyAtom, SM75_U16x8_LDSM_T, SM75_U32x4_LDSM_N};
use cute_static::mma::{SM80_16x8x16_F32F16F16F32_TN, TiledMma};
use cute_static::swizzle::Swizzle;
use cute_static::typenum::{P3, P4, U0, U2, U3};
use cute_static::{ComposedLayout, Cons, Layout, LayoutAt, Nil, Tiler};

/// An atom with `A`'s layouts whose call records the address and returns registers that name
/// the call: register `q` of call `n` is `4 n + q`.
#[derive(Clone, Copy, Default, Debug)]
struct Record<A>(PhantomData<A>);
impl<A: CopyAtom> CopyAtom for Record<A> {
    const NAME: &'static str = "Record";
    type NumThr = A::NumThr;
    type NumVal = A::NumVal;
    type Src = A::Src;
    type Dst = A::Dst;
    type Ref = A::Ref;
}
thread_local! {
    static CALLS: RefCell<Vec<u32>> = const { RefCell::new(Vec::new()) };
}
impl<A: CopyAtom> LoadCall for Record<A> {
    type Regs = [u32; 4];
    unsafe fn call(src: u32) -> [u32; 4] {
        CALLS.with(|c| {
            let mut c = c.borrow_mut();
            let n = c.len() as u32;
            c.push(src);
            [4 * n, 4 * n + 1, 4 * n + 2, 4 * n + 3]
        })
    }
}

type Warp = TiledMma<SM80_16x8x16_F32F16F16F32_TN, Layout![(1,1,1):(0,0,0)], Tiler![<16, 16, 16>]>;
type SmemA = ComposedLayout<Swizzle<U2, U3, P3>, U0, Layout![(128,32):(32,1)]>;
type SmemB = ComposedLayout<Swizzle<U3, U3, P4>, U0, Layout![(32,128):(128,1)]>;

/// The shared tile's contents: the coordinate `(r, c)` stored at each offset.
fn contents<L: LayoutAt<Cons<usize, Cons<usize, Nil>>> + Default>(rows: usize, cols: usize) -> Vec<(usize, usize)> {
    let mut mem = vec![(usize::MAX, usize::MAX); rows * cols];
    for r in 0..rows {
        for c in 0..cols {
            mem[L::default().at(&Cons(r, Cons(c, Nil)))] = (r, c);
        }
    }
    mem
}

/// The warp's fragments after its `copy_to_fragment` calls (`run(t)` runs thread `t`'s), the
/// instruction emulated: thread `t`'s `W` registers, each its two 16-bit values' contents.
fn warp<const W: usize>(
    mem: &[(usize, usize)],
    trans: bool,
    run: impl Fn(usize, &mut [u32; W]),
) -> Vec<Vec<(usize, usize)>> {
    let mut addrs = vec![];
    let mut frags = vec![];
    for t in 0..32 {
        CALLS.with(|c| c.borrow_mut().clear());
        let mut frg = [u32::MAX; W];
        run(t, &mut frg);
        addrs.push(CALLS.with(|c| c.take()));
        frags.push(frg);
    }
    let calls = addrs[0].len();
    assert!(addrs.iter().all(|a| a.len() == calls), "every thread makes the same calls");
    // Element (row, col) of matrix q of call n: its row's address is thread 8q + row's.
    let elem = |n: usize, q: usize, row: usize, col: usize| {
        let a = addrs[8 * q + row][n] as usize;
        assert_eq!(a % 16, 0, "call {n}: row {row} of matrix {q} at {a}, not 16-byte aligned");
        mem[a / 2 + col]
    };
    (0..32)
        .map(|t| {
            frags[t]
                .iter()
                .flat_map(|&reg| {
                    let (n, q) = (reg as usize / 4, reg as usize % 4);
                    let (r, c) = (t / 4, 2 * (t % 4));
                    if trans {
                        [elem(n, q, c, r), elem(n, q, c + 1, r)]
                    } else {
                        [elem(n, q, r, c), elem(n, q, r, c + 1)]
                    }
                })
                .collect()
        })
        .collect()
}

#[test]
fn ldmatrix_fragments_are_the_mma_operands() {
    let mma = Warp::default();
    let (a_tv, b_tv) = (mma.layout_a_tv(), mma.layout_b_tv());
    let mem_a = contents::<SmemA>(128, 32);
    let mem_b = contents::<SmemB>(32, 128);
    let (sa, sb) =
        (SmemTensor::<u16, SmemA>::new(0, SmemA::default()), SmemTensor::<u16, SmemB>::new(0, SmemB::default()));
    // hgemm's warps: a 64x32 block of C (MI = 4 m16 tiles, NJ = 4 n8 tiles), 2 x 4 of them.
    let copy_a = mma.make_tiled_copy_a::<Record<SM75_U32x4_LDSM_N>>();
    let copy_b = mma.make_tiled_copy_b::<Record<SM75_U16x8_LDSM_T>>();
    for kk in 0..2 {
        for wm in 0..2 {
            let got = warp::<16>(&mem_a, false, |t, frg| {
                // SAFETY: the recording atom reads nothing.
                unsafe { copy_to_fragment(&copy_a, t, &sa.local_tile::<64, 16>((wm, kk)), frg) }
            });
            for (t, frg) in got.iter().enumerate() {
                for (u, &at) in frg.iter().enumerate() {
                    let i = a_tv.call(t + 32 * (u % 8));
                    let want = (64 * wm + 16 * (u / 8) + i % 16, 16 * kk + i / 16);
                    assert_eq!(at, want, "A: warp row {wm}, k step {kk}, thread {t}, value {u}");
                }
            }
        }
        for wn in 0..4 {
            let got = warp::<8>(&mem_b, true, |t, frg| {
                // SAFETY: as above.
                unsafe { copy_to_fragment(&copy_b, t, &sb.local_tile_t::<32, 16>((wn, kk)), frg) }
            });
            for (t, frg) in got.iter().enumerate() {
                for (u, &at) in frg.iter().enumerate() {
                    // B's (n, k) index; the shared tile is (k, n).
                    let i = b_tv.call(t + 32 * (u % 8));
                    let want = (16 * kk + i / 16, 32 * wn + 16 * (u / 8) + i % 16);
                    assert_eq!(at, want, "B: warp column {wn}, k step {kk}, thread {t}, value {u}");
                }
            }
        }
    }
}
