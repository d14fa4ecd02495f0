//! `copy_from_fragment` of a tiled `stmatrix` copy run on the host, the warp's instruction
//! emulated as the PTX ISA defines it (§9.7.9.25.4.2 `stmatrix`: thread `t` gives the row
//! address of row `t % 8` of matrix `t / 8`, and register `q` holds its two values of matrix
//! `q`: row `t / 4`, columns `2 (t % 4)` and `+1`). The law, for the Hopper epilogues' copies
//! (a wgmma's C layout, eight values a thread at a time, into 64x64 swizzled tiles): each
//! accumulator lands at its coordinate in the atom's C layout (cute-static's
//! `SM90::GMMA::CLayout_64xN`, proven against CuTe C++ 4.2). The atoms: the HGEMM's `m64n256`
//! (`C` in four tiles) and attention's `m64n64` and `m64n128` `RS` atoms of `O += P·V`, f16 and
//! bf16 (`O`'s tile of each head dimension half).

use std::cell::RefCell;

use cute_atom::algorithm::{copy_from_fragment, EpilogueTv, FirstEight, StoreCall};
use cute_atom::SmemTensor;
use cute_static::copy::{CopyAtom, SM90_U32x4_STSM_N, TiledCopy, TilerMn};
use cute_static::gmma::{LayoutAtom, Sw128, K};
use cute_static::mma::{
    MmaAtom, SM90_64x128x16_F32BF16BF16_RS, SM90_64x128x16_F32F16F16_RS, SM90_64x256x16_F32F16F16_SS,
    SM90_64x64x16_F32BF16BF16_RS, SM90_64x64x16_F32F16F16_RS,
};
use cute_static::typenum::U16;
use cute_static::{Composition, Cons, LayoutAt, Nil, Shape, TileToShape};

/// An atom with `SM90_U32x4_STSM_N`'s layouts whose call records `(address, registers)`.
#[derive(Clone, Copy, Default, Debug)]
struct Record;
impl CopyAtom for Record {
    const NAME: &'static str = "Record";
    type NumThr = <SM90_U32x4_STSM_N as CopyAtom>::NumThr;
    type NumVal = <SM90_U32x4_STSM_N as CopyAtom>::NumVal;
    type Src = <SM90_U32x4_STSM_N as CopyAtom>::Src;
    type Dst = <SM90_U32x4_STSM_N as CopyAtom>::Dst;
    type Ref = <SM90_U32x4_STSM_N as CopyAtom>::Ref;
}
thread_local! {
    static CALLS: RefCell<Vec<(u32, [u32; 4])>> = const { RefCell::new(Vec::new()) };
}
impl StoreCall for Record {
    type Regs = [u32; 4];
    unsafe fn call(regs: [u32; 4], dst: u32) {
        CALLS.with(|c| c.borrow_mut().push((dst, regs)));
    }
}

/// `StoreEpilogue`'s tiled copy with the recording atom: `EpilogueTv` (the first 8 values of
/// each thread's accumulators, `composition(CLayout, (_, 8))`: 16 columns) over `(64, 16)`.
type Epilogue<C> = TiledCopy<Record, EpilogueTv<C>, TilerMn<Shape![(64, 16)]>>;
type CTile = <LayoutAtom<K, Sw128, U16> as TileToShape<Shape![(64, 64)]>>::Output;

#[test]
fn stmatrix_puts_each_accumulator_at_its_c_coordinate() {
    lands_at_c_coordinates::<<SM90_64x256x16_F32F16F16_SS as MmaAtom>::CLayout>(256);
    lands_at_c_coordinates::<<SM90_64x64x16_F32F16F16_RS as MmaAtom>::CLayout>(64);
    lands_at_c_coordinates::<<SM90_64x64x16_F32BF16BF16_RS as MmaAtom>::CLayout>(64);
    // The `_wide` attention kernels' one `O` atom over the head dimension: its two halves'
    // values, 32 apart, into one tile each.
    lands_at_c_coordinates::<<SM90_64x128x16_F32F16F16_RS as MmaAtom>::CLayout>(128);
    lands_at_c_coordinates::<<SM90_64x128x16_F32BF16BF16_RS as MmaAtom>::CLayout>(128);
}

/// The law for the atom of C layout `C`, `n` columns: each 64-column chunk of the accumulators
/// copied into a tile.
// `n` indexes every thread's calls at once, not one sequence.
#[allow(clippy::needless_range_loop)]
fn lands_at_c_coordinates<C>(n: usize)
where
    C: Default + cute_static::LayoutFn + Composition<FirstEight>,
    Epilogue<C>: cute_atom::algorithm::TiledCopyStore<SmemTensor<u16, CTile>, [u32; 16]>,
{
    let c_layout = C::default();
    let tile = SmemTensor::<u16, CTile>::new(0, CTile::default());
    for chunk in 0..n / 64 {
        // Thread t's fragment: register w holds accumulators 32 chunk + 2w and +1, named
        // (t, value) here.
        let mut calls = vec![];
        for t in 0..128 {
            let frg: [u32; 16] = std::array::from_fn(|w| (t * 256 + 32 * chunk + 2 * w) as u32);
            CALLS.with(|c| c.borrow_mut().clear());
            // SAFETY: the recording atom writes nothing.
            unsafe { copy_from_fragment(&Epilogue::<C>::default(), t, &frg, &tile) };
            calls.push(CALLS.with(|c| c.take()));
        }
        // The warps' stmatrix, emulated: each 16-bit value's (thread, accumulator) at its offset.
        let mut mem = vec![None; 64 * 64];
        let count = calls[0].len();
        assert!(calls.iter().all(|c| c.len() == count), "every thread makes the same calls");
        for warp in 0..4 {
            for n in 0..count {
                for q in 0..4 {
                    for row in 0..8 {
                        let (addr, _) = calls[32 * warp + 8 * q + row][n];
                        assert_eq!(addr % 16, 0, "chunk {chunk} call {n}: row {row} of matrix {q} not 16-byte aligned");
                        for col in 0..8 {
                            let t = 32 * warp + 4 * row + col / 2;
                            let pair = calls[t][n].1[q] as usize;
                            let at = addr as usize / 2 + col;
                            assert!(mem[at].is_none(), "chunk {chunk}: offset {at} written twice");
                            mem[at] = Some((pair / 256, pair % 256 + col % 2));
                        }
                    }
                }
            }
        }
        for t in 0..128 {
            for v in 32 * chunk..32 * chunk + 32 {
                let i = c_layout.call(t + 128 * v);
                let (m, n) = (i % 64, i / 64 - 64 * chunk);
                let at = tile.layout().at(&Cons(m, Cons(n, Nil)));
                assert_eq!(mem[at], Some((t, v)), "chunk {chunk}: accumulator {v} of thread {t} at ({m}, {n})");
            }
        }
    }
}
