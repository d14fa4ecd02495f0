//! MMA atoms that execute: [`MmaCall`] for cute-static's atom types (CuTe's `MMA_Atom<Op>`:
//! the operation's layouts and its `fma`). The accumulator fragment's type is
//! `[f32; size<1>(CLayout)]`, read off the atom's C layout by the compiler, and the (thread,
//! value) → (m, n) map of it is [`MmaCall::c_coord`], the C layout again: nothing about an
//! atom's registers is written twice.

use cute_static::gmma::ModeSizes;
use cute_static::layout::Idx2Crd;
use cute_static::mma::MmaAtom;
use cute_static::typenum::Unsigned;
use cute_static::{shape, Cons, Nil};

use crate::arch::copy::{cvt_bf16x2, cvt_f16x2};
use crate::arch::wgmma::{Accumulators, Transpose};
use crate::arch::{mma as sm80, wgmma};

/// An MMA atom that issues its instruction.
///
/// # Examples
/// ```
/// use cute_atom::atom::MmaCall;
/// use cute_static::mma::{SM80_16x8x16_F32F16F16F32_TN, SM90_64x256x16_F32F16F16_SS};
/// // The PTX ISA's `mma.m16n8k16` accumulators: lane 5 holds c0..c3 at rows 1, 1, 9, 9 and
/// // columns 2, 3, 2, 3 of the 16x8 tile.
/// type Sm80 = SM80_16x8x16_F32F16F16F32_TN;
/// assert_eq!([Sm80::c_coord(5, 0), Sm80::c_coord(5, 1), Sm80::c_coord(5, 2), Sm80::c_coord(5, 3)],
///     [(1, 2), (1, 3), (9, 2), (9, 3)]);
/// // `wgmma .m64n256k16`: 128 accumulators a thread, `size<1>(CLayout_64x256)`.
/// assert_eq!(SM90_64x256x16_F32F16F16_SS::zeros().len(), 128);
/// ```
pub trait MmaCall: MmaAtom {
    /// `(M, N, K)`, the atom's `Shape_MNK`.
    const SHAPE_MNK: [usize; 3];
    /// The element type of A and B.
    type Elem: Element;
    /// A thread's accumulators, `[f32; size<1>(CLayout)]`.
    type Acc: Accumulators + Copy + AsRef<[f32]> + AsMut<[f32]>;
    /// How A reaches the instruction: a shared-memory descriptor (`SS`), or the thread's
    /// registers (`RS`, `mma.sync`).
    type A: Copy;
    /// How B reaches the instruction.
    type B: Copy;
    /// The accumulators, zeroed (CuTe's `partition_fragment_C` then `clear`).
    fn zeros() -> Self::Acc;
    /// `acc = A · B + (scale_d ? acc : 0)`; `TA`, `TB` the shared operands' majors
    /// (descriptors only).
    ///
    /// # Safety
    /// The atom's threads (a warpgroup for `wgmma`, a warp for `mma.sync`) execute it together
    /// with the same descriptors, which describe canonical GMMA tiles of this block's shared
    /// memory that no one writes until the group completes; for `wgmma`, after
    /// [`wgmma::fence`] and before [`wgmma::commit_group`].
    unsafe fn call<TA: Transpose, TB: Transpose>(acc: &mut Self::Acc, a: Self::A, b: Self::B, scale_d: u32);
    /// The `(m, n)` coordinate in the atom's `M x N` tile of value `v` of thread `t`: the C
    /// layout's index, read column-major. The layout's thread and value parts add, so a kernel
    /// may take `c_coord(t, 0)` once and add `c_coord(0, v)` for each `v` (the host's tests
    /// check that it holds, on every (thread, value) of the atoms the kernels use).
    fn c_coord(t: usize, v: usize) -> (usize, usize);
}

/// An element type of an MMA's A and B: its width, as cute-static's GMMA descriptors take it.
pub trait Element {
    /// The width in bits.
    type Bits: cute_static::gmma::ElementBits;
}

/// The 16-bit element types of the f16/bf16 atoms: the conversion of two accumulators to a
/// packed pair (to nearest even, `lo` in the low half).
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not known to be a 16-bit element (f16, bf16): two accumulators do not pack into one of its registers",
    label = "where the atom is generic, bound its element: `MmaCall<Elem: Element16>`",
    note = "an 8-bit float's A fragment holds four elements a register in another order: relabelling accumulators would need a register permute (FA3's fp8 path), which is not built"
)]
pub trait Element16: Element {
    /// `cvt.rn.{f16,bf16}x2.f32`.
    fn pack(lo: f32, hi: f32) -> u32;
}

/// IEEE half (`.f16`).
pub struct F16;
impl Element for F16 {
    type Bits = cute_static::typenum::U16;
}
impl Element16 for F16 {
    #[inline(always)]
    fn pack(lo: f32, hi: f32) -> u32 {
        cvt_f16x2(lo, hi)
    }
}

/// bfloat16 (`.bf16`).
pub struct Bf16;
impl Element for Bf16 {
    type Bits = cute_static::typenum::U16;
}
impl Element16 for Bf16 {
    #[inline(always)]
    fn pack(lo: f32, hi: f32) -> u32 {
        cvt_bf16x2(lo, hi)
    }
}

/// The 8-bit float of 4 exponent and 3 mantissa bits (`.e4m3`, CuTe's `float_e4m3_t`).
pub struct E4M3;
impl Element for E4M3 {
    type Bits = cute_static::typenum::U8;
}

/// The 8-bit float of 5 exponent and 2 mantissa bits (`.e5m2`).
pub struct E5M2;
impl Element for E5M2 {
    type Bits = cute_static::typenum::U8;
}

/// The A operand of an `RS` atom: registers, no transpose flag (`wgmma`'s RS form has none).
pub struct RegistersA;
impl Transpose for RegistersA {
    const TNSP: u32 = 0;
}

impl Transpose for cute_static::gmma::K {
    const TNSP: u32 = 0;
}
impl Transpose for cute_static::gmma::MN {
    const TNSP: u32 = 1;
}

/// `size<1>(CLayout)` of an atom: its accumulators a thread.
pub const fn values<C: ModeSizes>() -> usize {
    C::SIZES[1]
}

/// An atom's `(M, N, K)` as numbers.
const fn shape_mnk<A: MmaAtom>() -> [usize; 3]
where
    A::M: Unsigned,
    A::N: Unsigned,
    A::K: Unsigned,
{
    [A::M::USIZE, A::N::USIZE, A::K::USIZE]
}

/// The `(m, n)` of index `i` of an atom's column-major `M x N` tile.
#[inline(always)]
fn c_coord<A: MmaAtom>(i: usize) -> (usize, usize)
where
    Cons<A::M, Cons<A::N, Nil>>: Idx2Crd<Crd = Cons<usize, Cons<usize, Nil>>> + Default,
{
    let Cons(m, Cons(n, Nil)) = Cons::<A::M, Cons<A::N, Nil>>::default().idx2crd(i);
    (m, n)
}

/// `MmaCall` for atom `$atom` of elements `$elem`, operands `$a` and `$b`, its instruction's
/// call `$call` (with `acc`, `a`, `b`, `scale_d` in scope).
macro_rules! mma_call {
    ($atom:ident, $elem:ident, $a:ty, $b:ty, |$acc:ident, $av:ident, $bv:ident, $s:ident| $call:expr) => {
        impl MmaCall for cute_static::mma::$atom {
            const SHAPE_MNK: [usize; 3] = shape_mnk::<cute_static::mma::$atom>();
            type Elem = $elem;
            type Acc = [f32; values::<<cute_static::mma::$atom as MmaAtom>::CLayout>()];
            type A = $a;
            type B = $b;
            #[inline(always)]
            fn zeros() -> Self::Acc {
                [0.0; values::<<cute_static::mma::$atom as MmaAtom>::CLayout>()]
            }
            #[inline(always)]
            fn c_coord(t: usize, v: usize) -> (usize, usize) {
                c_coord::<cute_static::mma::$atom>(
                    <cute_static::mma::$atom as MmaAtom>::CLayout::default().call_coord(&shape!(({ t }, { v }))),
                )
            }
            #[inline(always)]
            unsafe fn call<TA: Transpose, TB: Transpose>($acc: &mut Self::Acc, $av: $a, $bv: $b, $s: u32) {
                // SAFETY: the caller's promise.
                unsafe { $call }
            }
        }
    };
}

/// The `wgmma` atoms `SM90_64x{N}x16_F32{T}{T}_{SS,RS}` for the `N` of `arch::wgmma`.
macro_rules! sm90_calls {
    ($($n:literal)*) => {paste::paste! {$(
        mma_call!([<SM90_64x $n x16_F32F16F16_SS>], F16, u64, u64, |acc, a, b, s| wgmma::[<m64n $n k16_f32_f16_f16_ss>]::<TA, TB>(acc, a, b, s));
        mma_call!([<SM90_64x $n x16_F32BF16BF16_SS>], Bf16, u64, u64, |acc, a, b, s| wgmma::[<m64n $n k16_f32_bf16_bf16_ss>]::<TA, TB>(acc, a, b, s));
        mma_call!([<SM90_64x $n x16_F32F16F16_RS>], F16, [u32; 4], u64, |acc, a, b, s| wgmma::[<m64n $n k16_f32_f16_f16_rs>]::<TB>(acc, a, b, s));
        mma_call!([<SM90_64x $n x16_F32BF16BF16_RS>], Bf16, [u32; 4], u64, |acc, a, b, s| wgmma::[<m64n $n k16_f32_bf16_bf16_rs>]::<TB>(acc, a, b, s));
    )*}};
}

sm90_calls!(64 80 128 176 192 256);

/// The 8-bit float `wgmma` atoms `SM90_64x{N}x32_F32{A}{B}_{SS,RS}_TN` for the `N` of
/// `arch::wgmma` but 80 and 176 (the attention kernels' key blocks, 16-bit only so far;
/// cute-static has no 8-bit atom of them either). The instruction has no transpose: an MN-major
/// operand is refused by the compiler (here, and by `make_gmma_desc` for the tiles `gemm` reads).
macro_rules! sm90_fp8_calls {
    ($($n:literal)*) => {$(
        sm90_fp8_calls!(@types $n, [E4M3E4M3, E4M3, e4m3, e4m3], [E4M3E5M2, E4M3, e4m3, e5m2], [E5M2E4M3, E5M2, e5m2, e4m3], [E5M2E5M2, E5M2, e5m2, e5m2]);
    )*};
    (@types $n:literal, $([$ab:ident, $elem:ident, $a:ident, $b:ident]),*) => {paste::paste! {$(
        mma_call!([<SM90_64x $n x32_F32 $ab _SS_TN>], $elem, u64, u64, |acc, a, b, s| {
            k_major::<TA, TB>();
            wgmma::[<m64n $n k32_f32_ $a _ $b _ss>](acc, a, b, s)
        });
        mma_call!([<SM90_64x $n x32_F32 $ab _RS_TN>], $elem, [u32; 4], u64, |acc, a, b, s| {
            k_major::<TA, TB>();
            wgmma::[<m64n $n k32_f32_ $a _ $b _rs>](acc, a, b, s)
        });
    )*}};
}

sm90_fp8_calls!(64 128 192 256);

/// The 8-bit `wgmma`'s operands are K-major (no transpose immediates): checked by the compiler.
#[inline(always)]
fn k_major<TA: Transpose, TB: Transpose>() {
    const {
        assert!(
            TA::TNSP == 0 && TB::TNSP == 0,
            "wgmma of 8-bit floats reads K-major A and B only (no transpose): an MN-major operand must be K-major"
        )
    };
}

// The SM80 `mma.sync` atom `m16n8k16` with f32 accumulation (`scale_d` is the instruction's
// `+ C`, always on).
mma_call!(SM80_16x8x16_F32F16F16F32_TN, F16, [u32; 4], [u32; 2], |acc, a, b, _s| sm80::m16n8k16_f32_f16_f16_f32(
    acc, &a, b
));
mma_call!(SM80_16x8x16_F32BF16BF16F32_TN, Bf16, [u32; 4], [u32; 2], |acc, a, b, _s| {
    sm80::m16n8k16_f32_bf16_bf16_f32(acc, &a, b)
});
