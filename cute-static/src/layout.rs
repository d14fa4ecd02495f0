//! `Layout<Shape, Stride>`: a layout whose structure (and static values) are its type.

use core::fmt;

use core::ops::{Add, Sub};

use crate::arith::{AddMixed, EqT, IsOne, LtT, MulMixed, MulT};
use crate::int_tuple::{Cons, IntTuple, Leaf, List, Nil, RankT};
use typenum::{B0, B1, U0, U1};

/// Shape and stride have the same nesting profile (CuTe's `congruent`), and the layout
/// function `crd2idx` of an integer index over them.
///
/// Implemented for every shape whose [`Pairing`] with the stride has a verdict that passes
/// ([`crate::verdict`]): a violation's error names the condition (the ranks in decimal, or a
/// leaf against a tuple), not the chain of the pairing's impls with their types. (The pairing
/// is a supertrait, so that generic code with `S: Congruent<D>` pairs tuples of such `S`; its
/// verdict is asked to [`Settle`](crate::verdict::Settle), which a list of the modes' verdicts
/// does where each mode's does.)
pub trait Congruent<D: IntTuple>: IntTuple + Pairing<D, Verdict: crate::verdict::Settle> {
    /// `crd2idx(i, shape, stride)` for an integer index: split colexicographically, the last
    /// mode taking the remaining quotient. Plain wrapping arithmetic, as C++'s and as the
    /// hand-written index of a kernel: an index of the domain never wraps (the layout's cosize
    /// fits), and whoever trusts an offset of an arbitrary index asks
    /// [`checked_crd2idx`](Congruent::checked_crd2idx) instead.
    fn crd2idx(&self, stride: &D, i: usize) -> usize;
    /// `crd2idx`, `None` where a product or a sum overflows `usize` (a run-time index far
    /// past the shape): what a checked accessor compares with its storage.
    fn checked_crd2idx(&self, stride: &D, i: usize) -> Option<usize>;
    /// `cosize - 1`: `sum((s - 1) * d)`, `None` on overflow.
    fn max_index(&self, stride: &D) -> Option<usize>;
    /// C++'s `get_hier_coord(i)`, which `local_partition` asks of its thread layout:
    /// `(i / d) % s` at each leaf (`0` at an extent 1), read as its colexicographic index in the
    /// shape, with the size and the coordinate's image.
    ///
    /// # Errors
    /// [`HierFail`]: a stride 0 under an extent above 1 (C++ divides by it), or an overflow.
    fn hier_coord(&self, stride: &D, i: usize) -> Result<Hier, HierFail>;
}

/// [`Congruent::hier_coord`]'s answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hier {
    /// The coordinate's colexicographic index in the shape.
    pub index: usize,
    /// The shape's size.
    pub size: usize,
    /// The layout's value at the coordinate.
    pub image: usize,
}

impl Hier {
    /// A mode followed by the rest of the modes.
    fn then(self, rest: Hier) -> Result<Hier, HierFail> {
        let index = rest.index.checked_mul(self.size).and_then(|x| x.checked_add(self.index));
        let size = self.size.checked_mul(rest.size);
        let image = self.image.checked_add(rest.image);
        match (index, size, image) {
            (Some(index), Some(size), Some(image)) => Ok(Hier { index, size, image }),
            _ => Err(HierFail::Overflow),
        }
    }
}

/// Why [`Congruent::hier_coord`] has no answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HierFail {
    /// A leaf of this extent (above 1) has stride 0: C++'s `idx2crd` divides by it.
    ZeroStride(usize),
    /// A product or sum does not fit in `usize`.
    Overflow,
}
impl<S: IntTuple + Pairing<D, Verdict = V>, D: IntTuple, V: crate::verdict::Settle> Congruent<D> for S {
    #[inline(always)]
    fn crd2idx(&self, stride: &D, i: usize) -> usize {
        self.pair_crd2idx(stride, i)
    }
    #[inline(always)]
    fn checked_crd2idx(&self, stride: &D, i: usize) -> Option<usize> {
        self.pair_crd2idx(stride, i)
    }
    #[inline(always)]
    fn max_index(&self, stride: &D) -> Option<usize> {
        self.pair_max_index(stride)
    }
    fn hier_coord(&self, stride: &D, i: usize) -> Result<Hier, HierFail> {
        self.pair_hier(stride, i)
    }
}

/// How `crd2idx` adds up its terms `c * d`: `usize` wraps (the index arithmetic every kernel
/// runs, C++'s: no branch, no panic), `Option<usize>` is checked (the accessors that trust
/// the offset). One algorithm serves both.
pub trait Offset: Copy {
    /// The offset of no term.
    const ZERO: Self;
    /// `c * d`.
    fn term(c: usize, d: usize) -> Self;
    /// `self + rhs`.
    fn plus(self, rhs: Self) -> Self;
}
impl Offset for usize {
    const ZERO: usize = 0;
    #[inline(always)]
    fn term(c: usize, d: usize) -> usize {
        c.wrapping_mul(d)
    }
    #[inline(always)]
    fn plus(self, rhs: usize) -> usize {
        self.wrapping_add(rhs)
    }
}
impl Offset for Option<usize> {
    const ZERO: Option<usize> = Some(0);
    #[inline(always)]
    fn term(c: usize, d: usize) -> Option<usize> {
        c.checked_mul(d)
    }
    #[inline(always)]
    fn plus(self, rhs: Option<usize>) -> Option<usize> {
        self?.checked_add(rhs?)
    }
}

#[doc(hidden)]
/// A shape paired with a stride, whatever their profiles: the verdict on their congruence
/// ([`crate::verdict`]: `Holds` for leaves, a leaf against a tuple's or two ranks' failure, the
/// list of the modes' verdicts for tuples, which passes where each does) and, for congruent
/// ones, `crd2idx` (its value for others is never asked: only [`Congruent`] calls it, for a
/// verdict that passes).
pub trait Pairing<D> {
    /// The verdict.
    type Verdict;
    /// As [`Congruent::crd2idx`], in the arithmetic of `O`.
    fn pair_crd2idx<O: Offset>(&self, stride: &D, i: usize) -> O;
    /// As [`Congruent::max_index`].
    fn pair_max_index(&self, stride: &D) -> Option<usize>;
    /// As [`Congruent::hier_coord`].
    fn pair_hier(&self, stride: &D, i: usize) -> Result<Hier, HierFail>;
}

cute_macros::decimal_condition! {
    /// A shape tuple and a stride tuple have one rank. Implemented by the condition's bit.
    pub trait SameRank(shape_rank, stride_rank) {
        message = "not congruent: a shape tuple of rank {shape_rank} and a stride tuple of rank {stride_rank}",
        label = "the shape and the stride have a different number of modes here",
        note = "congruent: a leaf pairs with a leaf, a tuple of rank n with a tuple of rank n, at every level",
    }
}

#[doc(hidden)]
/// Two tuples by the bit `rank(S) == rank(D)`: their modes paired (`B1`), or [`SameRank`]'s
/// verdict (`B0`).
pub trait TuplesPairing<S, D> {
    /// The verdict.
    type Verdict;
    /// `crd2idx` over the tuples' modes.
    fn crd2idx<O: Offset>(s: &S, stride: &D, i: usize) -> O;
    /// `sum((s - 1) * d)` over the modes, `None` on overflow.
    fn max_index(s: &S, stride: &D) -> Option<usize>;
    /// [`Congruent::hier_coord`] over the modes.
    fn hier(s: &S, stride: &D, i: usize) -> Result<Hier, HierFail>;
}

impl<S: ModesPairing<D>, D> TuplesPairing<S, D> for B1 {
    type Verdict = S::Verdict;
    #[inline(always)]
    fn crd2idx<O: Offset>(s: &S, stride: &D, i: usize) -> O {
        s.crd2idx_modes(stride, i)
    }
    #[inline(always)]
    fn max_index(s: &S, stride: &D) -> Option<usize> {
        s.max_index_modes(stride)
    }
    fn hier(s: &S, stride: &D, i: usize) -> Result<Hier, HierFail> {
        s.hier_modes(stride, i)
    }
}

impl<S: RankT, D: RankT> TuplesPairing<S, D> for B0
where
    B0: SameRank<S::Output, D::Output>,
{
    type Verdict = <B0 as SameRank<S::Output, D::Output>>::Verdict;
    // Never called: the verdict fails.
    fn crd2idx<O: Offset>(_: &S, _: &D, _: usize) -> O {
        O::ZERO
    }
    fn max_index(_: &S, _: &D) -> Option<usize> {
        None
    }
    fn hier(_: &S, _: &D, _: usize) -> Result<Hier, HierFail> {
        Err(HierFail::Overflow)
    }
}

#[doc(hidden)]
/// The modes of two tuples of one rank, paired.
pub trait ModesPairing<D> {
    /// The modes' verdicts, as a list (not the first failed one: generic code knows of a
    /// congruent mode only that its verdict passes, not which verdict it is).
    type Verdict;
    /// `crd2idx` over the remaining modes.
    fn crd2idx_modes<O: Offset>(&self, stride: &D, i: usize) -> O;
    /// `sum((s - 1) * d)` over the modes, `None` on overflow.
    fn max_index_modes(&self, stride: &D) -> Option<usize>;
    /// [`Congruent::hier_coord`] over the remaining modes.
    fn hier_modes(&self, stride: &D, i: usize) -> Result<Hier, HierFail>;
}

impl ModesPairing<Nil> for Nil {
    type Verdict = Nil;
    #[inline(always)]
    fn crd2idx_modes<O: Offset>(&self, _: &Nil, _: usize) -> O {
        O::ZERO
    }
    fn max_index_modes(&self, _: &Nil) -> Option<usize> {
        Some(0)
    }
    fn hier_modes(&self, _: &Nil, _: usize) -> Result<Hier, HierFail> {
        Ok(Hier { index: 0, size: 1, image: 0 })
    }
}

/// The last mode takes the remaining quotient unwrapped: `(s):(d)` at `i` is `s:d` at `i`.
impl<S: Pairing<D>, D> ModesPairing<Cons<D, Nil>> for Cons<S, Nil> {
    type Verdict = Cons<S::Verdict, Nil>;
    #[inline(always)]
    fn crd2idx_modes<O: Offset>(&self, stride: &Cons<D, Nil>, i: usize) -> O {
        self.0.pair_crd2idx(&stride.0, i)
    }
    fn max_index_modes(&self, stride: &Cons<D, Nil>) -> Option<usize> {
        self.0.pair_max_index(&stride.0)
    }
    fn hier_modes(&self, stride: &Cons<D, Nil>, i: usize) -> Result<Hier, HierFail> {
        self.0.pair_hier(&stride.0, i)
    }
}

/// `(s, S...):(d, D...)` at `i` is `s:d` at `i % size(s)` plus `(S...):(D...)` at `i / size(s)`.
impl<S, D, S2, T2, D2, E2> ModesPairing<Cons<D, Cons<D2, E2>>> for Cons<S, Cons<S2, T2>>
where
    S: Pairing<D> + IntTuple,
    Cons<S2, T2>: ModesPairing<Cons<D2, E2>>,
{
    type Verdict = Cons<S::Verdict, <Cons<S2, T2> as ModesPairing<Cons<D2, E2>>>::Verdict>;
    #[inline(always)]
    fn crd2idx_modes<O: Offset>(&self, stride: &Cons<D, Cons<D2, E2>>, i: usize) -> O {
        let s = self.0.product();
        // A run-time extent of 0 leaves no index to split (the layout is empty): any offset
        // will do, and no division by zero (a panic branch in every kernel) is compiled.
        let (here, rest) = (i.checked_rem(s).unwrap_or(i), i.checked_div(s).unwrap_or(0));
        self.0.pair_crd2idx::<O>(&stride.0, here).plus(self.1.crd2idx_modes(&stride.1, rest))
    }
    fn max_index_modes(&self, stride: &Cons<D, Cons<D2, E2>>) -> Option<usize> {
        self.0.pair_max_index(&stride.0)?.checked_add(self.1.max_index_modes(&stride.1)?)
    }
    // Each leaf's coordinate is its own (`(i / d) % s`): every mode sees the whole `i`.
    fn hier_modes(&self, stride: &Cons<D, Cons<D2, E2>>, i: usize) -> Result<Hier, HierFail> {
        self.0.pair_hier(&stride.0, i)?.then(self.1.hier_modes(&stride.1, i)?)
    }
}

/// The bit `rank(S) == rank(D)`.
type SameRankBit<S, D> = <<S as RankT>::Output as typenum::IsEqual<<D as RankT>::Output>>::Output;

/// A tuple shape with a tuple stride.
impl<S, T, D, E> Pairing<Cons<D, E>> for Cons<S, T>
where
    Cons<S, T>: RankT,
    Cons<D, E>: RankT,
    <Cons<S, T> as RankT>::Output: typenum::IsEqual<<Cons<D, E> as RankT>::Output>,
    SameRankBit<Cons<S, T>, Cons<D, E>>: TuplesPairing<Cons<S, T>, Cons<D, E>>,
{
    type Verdict = <SameRankBit<Cons<S, T>, Cons<D, E>> as TuplesPairing<Cons<S, T>, Cons<D, E>>>::Verdict;
    #[inline(always)]
    fn pair_crd2idx<O: Offset>(&self, stride: &Cons<D, E>, i: usize) -> O {
        <SameRankBit<Cons<S, T>, Cons<D, E>> as TuplesPairing<_, _>>::crd2idx(self, stride, i)
    }
    fn pair_max_index(&self, stride: &Cons<D, E>) -> Option<usize> {
        <SameRankBit<Cons<S, T>, Cons<D, E>> as TuplesPairing<_, _>>::max_index(self, stride)
    }
    fn pair_hier(&self, stride: &Cons<D, E>, i: usize) -> Result<Hier, HierFail> {
        <SameRankBit<Cons<S, T>, Cons<D, E>> as TuplesPairing<_, _>>::hier(self, stride, i)
    }
}

/// `():()`.
impl Pairing<Nil> for Nil {
    type Verdict = crate::verdict::Holds;
    fn pair_crd2idx<O: Offset>(&self, _: &Nil, _: usize) -> O {
        O::ZERO
    }
    fn pair_max_index(&self, _: &Nil) -> Option<usize> {
        Some(0)
    }
    fn pair_hier(&self, _: &Nil, _: usize) -> Result<Hier, HierFail> {
        Ok(Hier { index: 0, size: 1, image: 0 })
    }
}

#[doc(hidden)]
/// The verdict on a leaf paired with a tuple (`W` says which is the leaf): passes only where
/// [`ProfilesDiffer`] is implemented (never; its error is that trait's message).
#[derive(Clone, Copy, Default, Debug)]
pub struct LeafWithTuple<W>(core::marker::PhantomData<W>);
impl<W> crate::verdict::Settle for LeafWithTuple<W> where (): ProfilesDiffer<W> {}

#[doc(hidden)]
/// A leaf of the shape against a tuple of the stride.
#[derive(Clone, Copy, Default, Debug)]
pub struct ShapeLeaf;
#[doc(hidden)]
/// A leaf of the stride against a tuple of the shape.
#[derive(Clone, Copy, Default, Debug)]
pub struct StrideLeaf;

/// A leaf paired with a tuple, as its verdict reports it: a trait of no impls (rustc lists
/// none).
#[diagnostic::on_unimplemented(
    message = "not congruent: a leaf of one pairs with a tuple of the other",
    label = "the shape and the stride have different profiles",
    note = "congruent: a leaf pairs with a leaf, a tuple of rank n with a tuple of rank n, at every level"
)]
#[doc(hidden)]
pub trait ProfilesDiffer<W> {}

macro_rules! leaf_with_tuple {
    ($($w:ident { $([$($g:ident: $b:path),*] $s:ty, $d:ty);* $(;)? })*) => {$($(
        /// Not congruent: [`LeafWithTuple`]'s verdict.
        impl<$($g: $b),*> Pairing<$d> for $s {
            type Verdict = LeafWithTuple<$w>;
            // Never called: the verdict fails.
            fn pair_crd2idx<O: Offset>(&self, _: &$d, _: usize) -> O {
                O::ZERO
            }
            fn pair_max_index(&self, _: &$d) -> Option<usize> {
                None
            }
            fn pair_hier(&self, _: &$d, _: usize) -> Result<Hier, HierFail> {
                Err(HierFail::Overflow)
            }
        }
    )*)*};
}
leaf_with_tuple!(
    StrideLeaf {
        [H: IntTuple, T: List] Cons<H, T>, UTerm;
        [H: IntTuple, T: List, U: Unsigned, B: Bit] Cons<H, T>, UInt<U, B>;
        [H: IntTuple, T: List] Cons<H, T>, usize;
    }
    ShapeLeaf {
        [H: IntTuple, T: List] UTerm, Cons<H, T>;
        [H: IntTuple, T: List, U: Unsigned, B: Bit] UInt<U, B>, Cons<H, T>;
        [H: IntTuple, T: List] usize, Cons<H, T>;
    }
);

macro_rules! leaf_pairs {
    ($([$($g:ident: $b:path),*] $s:ty, $d:ty);* $(;)?) => {$(
        /// A leaf shape with a leaf stride: `s:d` at `i` is `i * d`.
        impl<$($g: $b),*> Pairing<$d> for $s {
            type Verdict = crate::verdict::Holds;
            #[inline(always)]
            fn pair_crd2idx<O: Offset>(&self, stride: &$d, i: usize) -> O {
                O::term(i, Leaf::value(stride))
            }
            fn pair_max_index(&self, stride: &$d) -> Option<usize> {
                Leaf::value(self).saturating_sub(1).checked_mul(Leaf::value(stride))
            }
            fn pair_hier(&self, stride: &$d, i: usize) -> Result<Hier, HierFail> {
                let (s, d) = (Leaf::value(self), Leaf::value(stride));
                // C++ gives an extent 1 the coordinate `_0` without dividing.
                if s == 1 {
                    return Ok(Hier { index: 0, size: 1, image: 0 });
                }
                let c = i.checked_div(d).ok_or(HierFail::ZeroStride(s))?.checked_rem(s).unwrap_or(0);
                Ok(Hier { index: c, size: s, image: c.checked_mul(d).ok_or(HierFail::Overflow)? })
            }
        }
    )*};
}
use typenum::{Bit, UInt, UTerm, Unsigned};
crate::int_tuple::for_each_leaf_pair!(leaf_pairs);
crate::scaled::for_each_scaled_pair!(leaf_pairs);

// ------------------------------------------------------------------- size and cosize as types

/// `size`: the product of a static shape.
pub trait SizeT {
    /// The product.
    type Output;
}
impl SizeT for Nil {
    type Output = U1;
}
impl<H: SizeT, T: SizeT> SizeT for Cons<H, T>
where
    <H as SizeT>::Output: MulT<<T as SizeT>::Output>,
{
    type Output = <<H as SizeT>::Output as MulT<<T as SizeT>::Output>>::Output;
}
impl SizeT for UTerm {
    type Output = UTerm;
}
impl<U: Unsigned, B: Bit> SizeT for UInt<U, B> {
    type Output = UInt<U, B>;
}

/// The most modes [`Sizes::MODES`] holds.
pub const MAX_MODES: usize = 16;

/// `rank`, `size` and each mode's `size<I>` of a static shape or layout (a swizzled one too)
/// as constants: the one bound generic code writes to reach any of a tiling's sizes (a loop
/// bound, a register array's length), where a `Get<I>` bound a mode would take one each.
///
/// # Examples
/// ```
/// use cute_static::layout::Sizes;
/// use cute_static::{Layout, Shape};
/// // CuTe docs: (4,(2,3)):(1,(4,8)) has rank 2, size 24, size<1> = 6.
/// type L = Layout![(4,(2,3)):(1,(4,8))];
/// assert_eq!((L::RANK, L::SIZE, L::MODES[0], L::MODES[1]), (2, 24, 4, 6));
///
/// // A GEMM generic over its tiles: BK is `size<1>` of A's tile, with the one bound.
/// fn k_steps<CtaA: Sizes>(k: usize) -> usize {
///     k.div_ceil(CtaA::MODES[1])
/// }
/// assert_eq!(k_steps::<Shape![(128, 32)]>(100), 4);
/// ```
pub trait Sizes {
    /// `rank`: the number of top-level modes (1 for an integer).
    const RANK: usize;
    /// `size<I>` for `I < RANK`, then zeros.
    const MODES: [usize; MAX_MODES];
    /// `size`: the product of the modes.
    const SIZE: usize;
}
impl Sizes for UTerm {
    const RANK: usize = 1;
    const MODES: [usize; MAX_MODES] = prepend_mode(0, [0; MAX_MODES], 0);
    const SIZE: usize = 0;
}
impl<U: Unsigned, B: Bit> Sizes for UInt<U, B> {
    const RANK: usize = 1;
    const MODES: [usize; MAX_MODES] = prepend_mode(<UInt<U, B> as Unsigned>::USIZE, [0; MAX_MODES], 0);
    const SIZE: usize = <UInt<U, B> as Unsigned>::USIZE;
}
impl Sizes for Nil {
    const RANK: usize = 0;
    const MODES: [usize; MAX_MODES] = [0; MAX_MODES];
    const SIZE: usize = 1;
}
impl<H: SizeT, T: Sizes> Sizes for Cons<H, T>
where
    H::Output: Unsigned,
{
    const RANK: usize = T::RANK + 1;
    const MODES: [usize; MAX_MODES] = prepend_mode(<H::Output as Unsigned>::USIZE, T::MODES, T::RANK);
    const SIZE: usize = <H::Output as Unsigned>::USIZE * T::SIZE;
}
impl<S: Sizes, D> Sizes for Layout<S, D> {
    const RANK: usize = S::RANK;
    const MODES: [usize; MAX_MODES] = S::MODES;
    const SIZE: usize = S::SIZE;
}
impl<F, O, L: Sizes> Sizes for crate::ComposedLayout<F, O, L> {
    const RANK: usize = L::RANK;
    const MODES: [usize; MAX_MODES] = L::MODES;
    const SIZE: usize = L::SIZE;
}

/// `[h, rest...]`, the rest holding `rank` modes (a compile error past [`MAX_MODES`]).
const fn prepend_mode(h: usize, rest: [usize; MAX_MODES], rank: usize) -> [usize; MAX_MODES] {
    assert!(rank < MAX_MODES, "Sizes: a shape of more than 16 top-level modes");
    let mut out = [0; MAX_MODES];
    out[0] = h;
    let mut i = 1;
    while i < MAX_MODES {
        out[i] = rest[i - 1];
        i += 1;
    }
    out
}

/// `cosize - 1 = sum((s - 1) * d)` of a static shape with its stride.
pub trait MaxIndexT<D> {
    /// The largest index.
    type Output;
}
impl MaxIndexT<Nil> for Nil {
    type Output = typenum::U0;
}
impl<S, ST, D, DT> MaxIndexT<Cons<D, DT>> for Cons<S, ST>
where
    S: MaxIndexT<D>,
    ST: MaxIndexT<DT>,
    <S as MaxIndexT<D>>::Output: Add<<ST as MaxIndexT<DT>>::Output>,
{
    type Output = <<S as MaxIndexT<D>>::Output as Add<<ST as MaxIndexT<DT>>::Output>>::Output;
}
macro_rules! leaf_max_index {
    ($([$($g:ident: $b:path),*] $s:ty, $d:ty);* $(;)?) => {$(
        /// A leaf: `(s - 1) * d` (a static 0 shape counts as 1).
        impl<$($g: $b),*> MaxIndexT<$d> for $s
        where
            $s: typenum::Max<U1>,
            <$s as typenum::Max<U1>>::Output: Sub<B1>,
            <<$s as typenum::Max<U1>>::Output as Sub<B1>>::Output: MulT<$d>,
        {
            type Output = <<<$s as typenum::Max<U1>>::Output as Sub<B1>>::Output as MulT<$d>>::Output;
        }
    )*};
}
leaf_max_index!(
    [] UTerm, UTerm;
    [U: Unsigned, B: Bit] UTerm, UInt<U, B>;
    [U: Unsigned, B: Bit] UInt<U, B>, UTerm;
    [U: Unsigned, B: Bit, V: Unsigned, C: Bit] UInt<U, B>, UInt<V, C>;
);

// ------------------------------------------------- size and cosize over run-time leaves

/// `size` of a shape whose leaves may be run-time, as cute-dyn's: the product folded from the
/// left over the leaves, starting at `_1`, so static exactly where cute-dyn's is (every leaf
/// static, or a static 0 among them). Implemented by the shape; `Acc` is the product so far.
#[doc(hidden)]
pub trait SizeFold<Acc> {
    /// The product's type.
    type Output: Leaf;
    /// `acc * product(self)`, `None` on overflow.
    fn size_fold(&self, acc: Acc) -> Option<Self::Output>;
}
impl<Acc: Leaf> SizeFold<Acc> for Nil {
    type Output = Acc;
    #[inline(always)]
    fn size_fold(&self, acc: Acc) -> Option<Acc> {
        Some(acc)
    }
}
impl<Acc, H: SizeFold<Acc>, T: SizeFold<H::Output>> SizeFold<Acc> for Cons<H, T> {
    type Output = T::Output;
    #[inline(always)]
    fn size_fold(&self, acc: Acc) -> Option<Self::Output> {
        self.1.size_fold(self.0.size_fold(acc)?)
    }
}
macro_rules! leaf_size_fold {
    ($([$($g:ident: $b:path),*] $ty:ty);*) => {$(
        impl<Acc: MulMixed<$ty>, $($g: $b),*> SizeFold<Acc> for $ty
        where
            Acc::Output: Leaf,
        {
            type Output = Acc::Output;
            #[inline(always)]
            fn size_fold(&self, acc: Acc) -> Option<Acc::Output> {
                acc.checked_mul(*self)
            }
        }
    )*};
}
leaf_size_fold!([] UTerm; [U: Unsigned, B: Bit] UInt<U, B>; [] usize);

/// `cosize` of a layout whose leaves may be run-time, as cute-dyn's: `1 + sum((s-1) * d)`
/// folded from the left over the leaf pairs (an extent 0 reaches as far as 1), static exactly
/// where cute-dyn's is. Implemented by the shape, `D` the stride; `Acc` is the sum so far.
#[doc(hidden)]
pub trait CosizeFold<D, Acc> {
    /// The cosize's type.
    type Output: Leaf;
    /// `acc + sum((s-1) * d)` over `self`'s pairs, `None` on overflow.
    fn cosize_fold(&self, d: &D, acc: Acc) -> Option<Self::Output>;
}
impl<Acc: Leaf> CosizeFold<Nil, Acc> for Nil {
    type Output = Acc;
    #[inline(always)]
    fn cosize_fold(&self, _: &Nil, acc: Acc) -> Option<Acc> {
        Some(acc)
    }
}
impl<Acc, H: CosizeFold<D, Acc>, T: CosizeFold<DT, H::Output>, D, DT> CosizeFold<Cons<D, DT>, Acc> for Cons<H, T> {
    type Output = T::Output;
    #[inline(always)]
    fn cosize_fold(&self, d: &Cons<D, DT>, acc: Acc) -> Option<Self::Output> {
        self.1.cosize_fold(&d.1, self.0.cosize_fold(&d.0, acc)?)
    }
}

/// The largest coordinate of an extent: `s - 1`, and `0` for an extent 0 (cute-dyn's
/// `cosize`); static where the extent is.
#[doc(hidden)]
pub trait LastCoord: Copy {
    /// Its type.
    type Output: Copy;
    /// Its value.
    fn last_coord(self) -> Self::Output;
}
impl LastCoord for UTerm {
    type Output = UTerm;
    #[inline(always)]
    fn last_coord(self) -> UTerm {
        UTerm
    }
}
impl<U: Unsigned, B: Bit> LastCoord for UInt<U, B>
where
    UInt<U, B>: Sub<B1>,
    <UInt<U, B> as Sub<B1>>::Output: Copy + Default,
{
    type Output = <UInt<U, B> as Sub<B1>>::Output;
    #[inline(always)]
    fn last_coord(self) -> Self::Output {
        Default::default()
    }
}
impl LastCoord for usize {
    type Output = usize;
    #[inline(always)]
    fn last_coord(self) -> usize {
        self.saturating_sub(1)
    }
}
macro_rules! leaf_cosize_fold {
    ($([$($g:ident: $b:path),*] $s:ty, $d:ty);* $(;)?) => {$(
        impl<Acc, R, P, $($g: $b),*> CosizeFold<$d, Acc> for $s
        where
            $s: LastCoord<Output = R>,
            R: MulMixed<$d, Output = P>,
            Acc: AddMixed<P>,
            Acc::Output: Leaf,
        {
            type Output = Acc::Output;
            #[inline(always)]
            fn cosize_fold(&self, d: &$d, acc: Acc) -> Option<Self::Output> {
                acc.checked_add(self.last_coord().checked_mul(*d)?)
            }
        }
    )*};
}
crate::int_tuple::for_each_leaf_pair!(leaf_cosize_fold);

/// A layout `shape:stride`. Zero-sized when every leaf is static; its evaluation compiles to
/// the index arithmetic one would write by hand.
///
/// Written with the `layout!` macro (value) or `Layout!` (type):
///
/// ```
/// use cute_static::{layout, Layout};
/// type Smem = Layout![(8,(4,8)):(32,(1,4))];
/// let l: Smem = layout!((8,(4,8)):(32,(1,4)));
/// assert_eq!(core::mem::size_of::<Smem>(), 0);
/// assert_eq!(l.to_string(), "(8,(4,8)):(32,(1,4))");
/// assert_eq!(l.call(9), 32 + 1);
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Layout<S, D> {
    shape: S,
    stride: D,
}

impl<S, D> Layout<S, D> {
    /// A layout the algebra built congruent by construction. Its result types stay free of
    /// `Congruent` bounds, which the type checker would otherwise try to prove on types it has
    /// not inferred yet (and overflow); every method that reads a layout still asks for them.
    #[inline(always)]
    pub(crate) const fn from_parts(shape: S, stride: D) -> Self {
        Layout { shape, stride }
    }

    /// The shape and the stride, without bounds (for the type-level machinery).
    pub(crate) fn into_parts(self) -> (S, D) {
        (self.shape, self.stride)
    }

    /// The flat `(shape, stride)` modes, with no `Congruent` bound:
    /// [`FlattenModes`](crate::modes::FlattenModes) holds for congruent pairs only.
    #[inline(always)]
    pub(crate) fn flat_modes(self) -> S::Output
    where
        S: crate::modes::FlattenModes<D>,
    {
        self.shape.flatten_modes(&self.stride)
    }
}

impl<S: Congruent<D>, D: IntTuple> Layout<S, D> {
    /// `make_layout(shape, stride)`; congruence is a trait bound.
    #[inline(always)]
    pub const fn new(shape: S, stride: D) -> Self {
        Layout { shape, stride }
    }

    /// The shape.
    pub fn shape(&self) -> &S {
        &self.shape
    }

    /// The stride.
    pub fn stride(&self) -> &D {
        &self.stride
    }

    /// `rank`.
    pub const RANK: usize = S::RANK;

    /// `depth`.
    pub const DEPTH: usize = S::DEPTH;

    /// Whether every shape and stride leaf is static.
    pub const IS_STATIC: bool = S::IS_STATIC && D::IS_STATIC;

    /// `size`: the product of the shape.
    ///
    /// # Panics
    /// When the product overflows `usize` (only possible with run-time leaves or huge static
    /// ones; [`Layout::checked_size`] returns `None` instead).
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.checked_size().expect("size overflows usize")
    }

    /// `size`, `None` when the product overflows `usize`.
    #[inline(always)]
    pub fn checked_size(&self) -> Option<usize> {
        self.shape.checked_product()
    }

    /// `cosize`: `1 + sum((s - 1) * d)`.
    ///
    /// # Panics
    /// When the sum overflows `usize` ([`Layout::checked_cosize`] returns `None` instead).
    pub fn cosize(&self) -> usize {
        self.checked_cosize().expect("cosize overflows usize")
    }

    /// `cosize`, `None` when `1 + sum((s - 1) * d)` overflows `usize`.
    pub fn checked_cosize(&self) -> Option<usize> {
        self.shape.max_index(&self.stride)?.checked_add(1)
    }

    /// `coshape(L)`: the extent of the codomain, `1 + sum((s-1) * d)`. With cute-static's
    /// non-negative integer strides it is the cosize (CuTe's coshape is a tuple only for
    /// scaled-basis strides).
    #[inline(always)]
    pub fn coshape(&self) -> usize {
        self.cosize()
    }

    /// Evaluate at an integer index, `L(i)` (colexicographic split; the last mode is unwrapped).
    /// The arithmetic wraps, as C++'s: exact for every index whose offset fits in `usize`
    /// (every `i < size` of a layout whose cosize fits); [`checked_call`](Layout::checked_call)
    /// says where it does not.
    #[inline(always)]
    pub fn call(&self, i: usize) -> usize {
        self.shape.crd2idx(&self.stride, i)
    }

    /// `L(i)`, `None` where the offset does not fit in `usize`.
    ///
    /// # Examples
    /// ```
    /// use cute_static::layout;
    /// let l = layout!((4,4):(1,8));
    /// assert_eq!(l.checked_call(6), Some(10));
    /// assert_eq!(l.checked_call(usize::MAX), None); // (3, 2^62 - 1) * (1, 8) overflows
    /// ```
    #[inline(always)]
    pub fn checked_call(&self, i: usize) -> Option<usize> {
        self.shape.checked_crd2idx(&self.stride, i)
    }

    /// The text in one of the notation's styles (values, as `Display`; cpp: static as `_N`;
    /// dsl: dynamic as `?`).
    ///
    /// # Errors
    /// `Overflow` for a value above `i64::MAX`.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{cute_dyn::Style, layout};
    /// let n = 6;
    /// let l = layout!((2,(1,{n})):(1,(6,2)));
    /// assert_eq!(l.to_styled(Style::Cpp)?, "(_2,(_1,6)):(_1,(_6,_2))");
    /// assert_eq!(l.to_styled(Style::Dsl)?, "(2,(1,?)):(1,(6,2))");
    /// # Ok::<(), cute_static::cute_dyn::Error>(())
    /// ```
    #[cfg(feature = "dyn")]
    pub fn to_styled(&self, style: cute_dyn::Style) -> cute_dyn::Result<alloc::string::String> {
        Ok(self.to_dyn()?.to_styled(style))
    }

    /// The `cute-dyn` layout, with the same static flags.
    ///
    /// # Errors
    /// `Overflow` for a value above `i64::MAX`.
    #[cfg(feature = "dyn")]
    pub fn to_dyn(&self) -> cute_dyn::Result<cute_dyn::Layout> {
        cute_dyn::Layout::new(self.shape.to_dyn()?, self.stride.to_dyn()?)
    }
}

/// A cute-dyn layout as this typed layout, the way back of [`Layout::to_dyn`]: each static leaf
/// of the type must have the layout's value there, each run-time (`usize`) leaf takes it, and
/// the nesting is the type's.
///
/// # Errors
/// `InvalidArgument` naming the first leaf that does not fit (`shape<1,0>`, `stride<1>`) and
/// what the type and the layout have there.
///
/// # Examples
/// ```
/// use cute_static::{cute_dyn, layout, Layout};
/// // A kernel parameter's type, filled from a layout read at run time.
/// type Gmem = Layout![(usize,8):(1,usize)];
/// let g = Gmem::try_from(&"(100,8):(1,100)".parse::<cute_dyn::Layout>()?)?;
/// assert_eq!(g, layout!(({100usize},8):(1,{100usize})));
/// let e = Gmem::try_from(&"(100,6):(1,100)".parse::<cute_dyn::Layout>()?).unwrap_err();
/// assert_eq!(e.to_string(), "invalid argument to Layout::try_from: shape<1>: the type has the static 8, the layout 6");
/// # Ok::<(), cute_dyn::Error>(())
/// ```
#[cfg(feature = "dyn")]
impl<S: IntTuple + Congruent<D>, D: IntTuple> TryFrom<&cute_dyn::Layout> for Layout<S, D> {
    type Error = cute_dyn::Error;
    fn try_from(l: &cute_dyn::Layout) -> cute_dyn::Result<Self> {
        Ok(Layout::from_parts(S::from_dyn(&l.shape(), "shape")?, D::from_dyn(&l.stride(), "stride")?))
    }
}

impl<S, D> crate::int_tuple::StaticBit for Layout<S, D>
where
    Cons<S, Cons<D, Nil>>: crate::int_tuple::StaticBit,
{
    type Output = <Cons<S, Cons<D, Nil>> as crate::int_tuple::StaticBit>::Output;
}

/// A layout as a function, static or with run-time leaves: what generic code evaluates
/// (`call`, `size`, `cosize`) on a layout value it was given or computed.
pub trait LayoutFn: Copy + fmt::Display {
    /// `L(i)`.
    fn call(&self, i: usize) -> usize;
    /// `size(L)`.
    fn size(&self) -> usize;
    /// `cosize(L)`.
    fn cosize(&self) -> usize;
    /// The `cute-dyn` layout (as [`Layout::to_dyn`]): generic code prints and checks through
    /// cute-dyn with this one bound.
    ///
    /// # Errors
    /// `Overflow` for a value above `i64::MAX`.
    #[cfg(feature = "dyn")]
    fn to_dyn(&self) -> cute_dyn::Result<cute_dyn::Layout>;
}

impl<S: Congruent<D>, D: IntTuple> LayoutFn for Layout<S, D> {
    #[inline(always)]
    fn call(&self, i: usize) -> usize {
        Layout::call(self, i)
    }
    fn size(&self) -> usize {
        Layout::size(self)
    }
    fn cosize(&self) -> usize {
        Layout::cosize(self)
    }
    #[cfg(feature = "dyn")]
    fn to_dyn(&self) -> cute_dyn::Result<cute_dyn::Layout> {
        Layout::to_dyn(self)
    }
}

/// A layout that is a type: generic code names it in a signature and gets its value with
/// `Default` (every static layout is zero-sized). Only layouts whose every leaf is static: a
/// run-time leaf's value is not in the type (its `Default` is 0); take such a layout as a
/// value, bound by [`LayoutFn`].
pub trait StaticLayout: LayoutFn + Default {
    /// The `cute-dyn` layout, infallible: every value is in the type, and that each fits
    /// cute-dyn's `i64` (and the nesting its depth limit) is checked at compile time (where
    /// [`LayoutFn::to_dyn`] of a layout with run-time leaves returns a `Result`).
    ///
    /// # Examples
    /// ```
    /// use cute_static::{Layout, StaticLayout};
    /// // CuTe docs: (2,(1,6)):(1,(6,2)), every leaf static.
    /// type L = Layout![(2,(1,6)):(1,(6,2))];
    /// let d = L::default().dyn_layout();
    /// assert_eq!(d.to_string(), "(2,(1,6)):(1,(6,2))");
    /// assert!(d.is_static());
    /// ```
    #[cfg(feature = "dyn")]
    fn dyn_layout(&self) -> cute_dyn::Layout;
}

/// The bit "every leaf is static" of a [`StaticLayout`], as a bound whose failure is a sentence.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "a layout with run-time leaves is not a `StaticLayout`: its type does not hold their values",
    label = "this layout has a run-time leaf",
    note = "take a layout with run-time leaves as a value, bound by `LayoutFn` (call, size, cosize)"
)]
pub trait EveryLeafStatic {}
impl EveryLeafStatic for AllLeavesStatic {}

/// The bit "every leaf is static", named for an error message: [`AllLeavesStatic`] or
/// [`SomeLeafAtRunTime`].
#[doc(hidden)]
pub trait LeavesNamed {
    /// The name.
    type Name;
}
impl LeavesNamed for typenum::B1 {
    type Name = AllLeavesStatic;
}
impl LeavesNamed for typenum::B0 {
    type Name = SomeLeafAtRunTime;
}
/// Every leaf of the layout is static.
#[doc(hidden)]
pub struct AllLeavesStatic;
/// A leaf of the layout is a run-time value.
#[doc(hidden)]
pub struct SomeLeafAtRunTime;

impl<S: Congruent<D> + Default, D: IntTuple + Default> StaticLayout for Layout<S, D>
where
    Self: crate::int_tuple::StaticBit<Output: LeavesNamed<Name: EveryLeafStatic>>,
{
    #[cfg(feature = "dyn")]
    fn dyn_layout(&self) -> cute_dyn::Layout {
        // `to_dyn` refuses a value above `i64::MAX` and, through `cute_dyn::Layout::new`, a
        // nesting deeper than cute-dyn's limit (it also refuses non-congruent or negative
        // shapes, which a static layout's type cannot be): both excluded at compile time.
        const {
            assert!(
                S::MAX_STATIC <= i64::MAX as u64 && D::MAX_STATIC <= i64::MAX as u64,
                "a static layout's values fit cute-dyn's i64"
            );
            assert!(
                S::DEPTH <= cute_dyn::int_tuple::MAX_DEPTH && D::DEPTH <= cute_dyn::int_tuple::MAX_DEPTH,
                "a static layout's nesting is within cute-dyn's"
            );
        };
        match Layout::to_dyn(self) {
            Ok(l) => l,
            Err(_) => unreachable!("a static layout converts to cute-dyn (checked at compile time)"),
        }
    }
}

/// Prints `shape:stride` in the canonical values notation, identical to `cute-dyn`'s.
impl<S: IntTuple, D: IntTuple> fmt::Display for Layout<S, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.shape.write(f)?;
        f.write_str(":")?;
        self.stride.write(f)
    }
}

/// A coordinate for a shape `S` with stride `D`: an integer (`usize`, split
/// colexicographically) or a tuple of coordinates, one per mode (CuTe's `crd2idx`), whose
/// static leaves lie in their modes. Implemented for every [`CrdIdx`] whose verdict passes
/// ([`crate::verdict`]): the one bound generic code writes.
pub trait Coord<S, D>: CrdIdx<S, D, Verdict: crate::verdict::Pass> {}
impl<C: CrdIdx<S, D, Verdict: crate::verdict::Pass>, S, D> Coord<S, D> for C {}

/// A layout evaluated at a coordinate of type `C` (`call_coord`) as one bound in generic code:
/// `L: LayoutAt<Cons<usize, Cons<usize, Nil>>>` for a rank-2 coordinate. Implemented by every
/// layout (and swizzled layout) for which `C` is a [`Coord`].
///
/// # Examples
/// ```
/// use cute_static::{layout, Cons, LayoutAt, Nil};
/// // Row of value v of thread t: a thread-value layout evaluated at (t, v).
/// fn row<L: LayoutAt<Cons<usize, Cons<usize, Nil>>>>(tv: &L, t: usize, v: usize) -> usize {
///     tv.at(&Cons(t, Cons(v, Nil)))
/// }
/// // (16,(4,2)):(4,(1,64)): value 5 = (1,1) of thread 3 is 4*3 + 1 + 64.
/// assert_eq!(row(&layout!((16,(4,2)):(4,(1,64))), 3, 5), 77);
/// ```
#[diagnostic::on_unimplemented(
    message = "this layout is not known to take a coordinate of type `{C}`",
    label = "where the layout is generic, add the bound `LayoutAt<Coord>` for it",
    note = "a coordinate is an index or has the layout's profile, its static leaves inside their modes"
)]
pub trait LayoutAt<C> {
    /// `layout(c)`: crd2idx of the coordinate (wrapping, as C++'s index arithmetic).
    fn at(&self, c: &C) -> usize;
}
impl<S: Congruent<D>, D: IntTuple, C: CrdIdx<S, D, Verdict = V>, V: crate::verdict::Pass> LayoutAt<C> for Layout<S, D> {
    #[inline(always)]
    fn at(&self, c: &C) -> usize {
        self.call_coord(c)
    }
}

/// `crd2idx` of a coordinate for a shape `S` with stride `D`, and whether its static leaves
/// lie in their modes (a verdict: the methods that take a coordinate ask it to pass in a bound
/// of their own, so that an error names the coordinate and the mode's size and no type).
#[doc(hidden)]
pub trait CrdIdx<S, D> {
    /// [`Holds`](crate::verdict::Holds), or the first static leaf out of its mode.
    type Verdict;
    /// `crd2idx(c, shape, stride)` in the arithmetic of `O` ([`Offset`]).
    fn offset<O: Offset>(&self, shape: &S, stride: &D) -> O;
    /// `crd2idx(c, shape, stride)`, wrapping (C++'s index arithmetic).
    #[inline(always)]
    fn crd2idx(&self, shape: &S, stride: &D) -> usize {
        self.offset(shape, stride)
    }
}

/// An integer coordinate over any shape.
impl<S: Congruent<D>, D: IntTuple> CrdIdx<S, D> for usize {
    type Verdict = crate::verdict::Holds;
    #[inline(always)]
    fn offset<O: Offset>(&self, shape: &S, stride: &D) -> O {
        shape.pair_crd2idx(stride, *self)
    }
}

cute_macros::decimal_condition! {
    /// A static coordinate lies inside its mode. Implemented by `c < size(mode)`.
    pub trait CoordInRange(coord, size) {
        message = "static coordinate out of range: {coord} in a mode of size {size}",
        label = "a coordinate of this mode is in [0, {size})",
        note = "a static coordinate is checked at compile time; a run-time one (usize) is not checked",
    }
}

/// The extent a static coordinate is checked against: the size of a static mode; a run-time
/// leaf's extent is not known, so nothing is checked there.
#[doc(hidden)]
pub trait InRange<C> {
    /// [`CoordInRange`]'s verdict.
    type Verdict;
}
impl<C> InRange<C> for usize {
    type Verdict = crate::verdict::Holds;
}
impl<C: LtT<Sz>, Sz, S: SizeT<Output = Sz>> InRange<C> for S
where
    <C as LtT<Sz>>::Output: CoordInRange<C, Sz>,
{
    type Verdict = <<C as LtT<Sz>>::Output as CoordInRange<C, Sz>>::Verdict;
}

macro_rules! static_coord {
    ($([$($g:ident: $b:path),*] $ty:ty);*) => {$(
        /// A static integer coordinate, checked against the mode's size at compile time.
        impl<S: Congruent<D> + InRange<$ty>, D: IntTuple, $($g: $b),*> CrdIdx<S, D> for $ty {
            type Verdict = <S as InRange<$ty>>::Verdict;
            #[inline(always)]
            fn offset<O: Offset>(&self, shape: &S, stride: &D) -> O {
                shape.pair_crd2idx(stride, <$ty as Unsigned>::USIZE)
            }
        }
    )*};
}
static_coord!([] UTerm; [U: Unsigned, B: Bit] UInt<U, B>);

/// The modes of a tuple coordinate.
#[doc(hidden)]
pub trait CoordList<S, D> {
    /// The first failure of the modes' verdicts.
    type Verdict;
    /// The sum over the modes.
    fn crd2idx_modes<O: Offset>(&self, shape: &S, stride: &D) -> O;
}

impl CoordList<Nil, Nil> for Nil {
    type Verdict = crate::verdict::Holds;
    #[inline(always)]
    fn crd2idx_modes<O: Offset>(&self, _: &Nil, _: &Nil) -> O {
        O::ZERO
    }
}

impl<C, CT, S, ST, D, DT> CoordList<Cons<S, ST>, Cons<D, DT>> for Cons<C, CT>
where
    C: CrdIdx<S, D>,
    CT: CoordList<ST, DT>,
    C::Verdict: crate::verdict::First<CT::Verdict>,
{
    type Verdict = crate::verdict::FirstOf<C::Verdict, CT::Verdict>;
    #[inline(always)]
    fn crd2idx_modes<O: Offset>(&self, shape: &Cons<S, ST>, stride: &Cons<D, DT>) -> O {
        self.0.offset::<O>(&shape.0, &stride.0).plus(self.1.crd2idx_modes(&shape.1, &stride.1))
    }
}

/// A tuple coordinate: one coordinate per mode of a tuple shape.
impl<C, CT, S, ST, D, DT> CrdIdx<Cons<S, ST>, Cons<D, DT>> for Cons<C, CT>
where
    Cons<C, CT>: CoordList<Cons<S, ST>, Cons<D, DT>>,
{
    type Verdict = <Cons<C, CT> as CoordList<Cons<S, ST>, Cons<D, DT>>>::Verdict;
    #[inline(always)]
    fn offset<O: Offset>(&self, shape: &Cons<S, ST>, stride: &Cons<D, DT>) -> O {
        self.crd2idx_modes(shape, stride)
    }
}

/// The natural coordinate of an index in a shape (CuTe's `idx2crd`): a `usize` per leaf, with
/// the shape's profile; the last mode is not wrapped.
pub trait Idx2Crd: IntTuple {
    /// The coordinate type (the shape's profile with `usize` leaves).
    type Crd: Copy + fmt::Debug + PartialEq;
    /// `idx2crd(i, shape)`.
    fn idx2crd(&self, i: usize) -> Self::Crd;
}

/// The modes of [`Idx2Crd`].
#[doc(hidden)]
pub trait Idx2CrdList: List {
    /// The coordinate list.
    type Crd: Copy + fmt::Debug + PartialEq;
    /// Split `i` over the modes.
    fn idx2crd_modes(&self, i: usize) -> Self::Crd;
}

impl Idx2CrdList for Nil {
    type Crd = Nil;
    fn idx2crd_modes(&self, _: usize) -> Nil {
        Nil
    }
}

/// The last mode takes the rest of the index.
impl<S: Idx2Crd> Idx2CrdList for Cons<S, Nil> {
    type Crd = Cons<S::Crd, Nil>;
    #[inline(always)]
    fn idx2crd_modes(&self, i: usize) -> Self::Crd {
        Cons(self.0.idx2crd(i), Nil)
    }
}

/// Other modes take `i % size(mode)`.
impl<S: Idx2Crd, S2: IntTuple, T: List> Idx2CrdList for Cons<S, Cons<S2, T>>
where
    Cons<S2, T>: Idx2CrdList,
{
    type Crd = Cons<S::Crd, <Cons<S2, T> as Idx2CrdList>::Crd>;
    #[inline(always)]
    fn idx2crd_modes(&self, i: usize) -> Self::Crd {
        let s = self.0.product();
        Cons(self.0.idx2crd(i % s), self.1.idx2crd_modes(i / s))
    }
}

impl<S: IntTuple, T: List> Idx2Crd for Cons<S, T>
where
    Cons<S, T>: Idx2CrdList,
{
    type Crd = <Cons<S, T> as Idx2CrdList>::Crd;
    #[inline(always)]
    fn idx2crd(&self, i: usize) -> Self::Crd {
        self.idx2crd_modes(i)
    }
}

impl Idx2Crd for Nil {
    type Crd = Nil;
    fn idx2crd(&self, _: usize) -> Nil {
        Nil
    }
}

macro_rules! leaf_idx2crd {
    ($([$($g:ident: $b:path),*] $ty:ty);*) => {$(
        /// A leaf keeps the whole index (C++: `idx2crd(i, s) == i`).
        impl<$($g: $b),*> Idx2Crd for $ty {
            type Crd = usize;
            #[inline(always)]
            fn idx2crd(&self, i: usize) -> usize {
                i
            }
        }
    )*};
}
leaf_idx2crd!([] UTerm; [U: Unsigned, B: Bit] UInt<U, B>; [] usize);

impl<S: Congruent<D>, D: IntTuple> Layout<S, D> {
    /// Evaluate at a hierarchical coordinate (`L((i,(j,k)))`); a coordinate is an integer or a
    /// tuple of coordinates congruent to the modes it indexes.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, shape, Cons, Nil};
    /// // CuTe docs: (3,(2,3)):(3,(12,1)) maps (1,(1,2)), (1,5) and 16 to 17
    /// let l = layout!((3,(2,3)):(3,(12,1)));
    /// assert_eq!(l.call_coord(&Cons(1usize, Cons(Cons(1usize, Cons(2usize, Nil)), Nil))), 17);
    /// assert_eq!(l.call_coord(&Cons(1usize, Cons(5usize, Nil))), 17);
    /// assert_eq!(l.call_coord(&16usize), 17);
    /// ```
    #[inline(always)]
    pub fn call_coord<C, V>(&self, c: &C) -> usize
    where
        C: CrdIdx<S, D, Verdict = V>,
        V: crate::verdict::Pass,
    {
        c.crd2idx(&self.shape, &self.stride)
    }

    /// [`call_coord`](Layout::call_coord), `None` where the offset does not fit in `usize`
    /// (a run-time coordinate far past the shape, whose wrapped offset could land anywhere):
    /// what an accessor that trusts the offset asks.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, Cons, Nil};
    /// let l = layout!((4,4):(1,4));
    /// assert_eq!(l.checked_call_coord(&Cons(1usize, Cons(2usize, Nil))), Some(9));
    /// // 4 * 2^62 wraps to 0 in `call_coord`
    /// assert_eq!(l.checked_call_coord(&Cons(0usize, Cons(1usize << (usize::BITS - 2), Nil))), None);
    /// ```
    #[inline(always)]
    pub fn checked_call_coord<C, V>(&self, c: &C) -> Option<usize>
    where
        C: CrdIdx<S, D, Verdict = V>,
        V: crate::verdict::Pass,
    {
        c.offset(&self.shape, &self.stride)
    }

    /// `idx2crd(i, shape)`: the natural coordinate of index `i`.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, Cons, Nil};
    /// // CuTe docs: idx2crd(16, (3,(2,3))) is (1,(1,2))
    /// let l = layout!((3,(2,3)):(3,(12,1)));
    /// assert_eq!(l.idx2crd(16), Cons(1, Cons(Cons(1, Cons(2, Nil)), Nil)));
    /// ```
    #[inline(always)]
    pub fn idx2crd(&self, i: usize) -> S::Crd
    where
        S: Idx2Crd,
    {
        self.shape.idx2crd(i)
    }
}

// ------------------------------------------------------------------------------------------
// make_layout with compact strides: LayoutLeft (column-major) and LayoutRight (row-major).
// ------------------------------------------------------------------------------------------

/// Compact column-major strides (CuTe's `LayoutLeft`): the first mode is contiguous.
#[derive(Clone, Copy, Default, Debug)]
pub struct LayoutLeft;

/// Compact row-major strides (CuTe's `LayoutRight`): the last mode is contiguous.
#[derive(Clone, Copy, Default, Debug)]
pub struct LayoutRight;

/// Compact strides for a shape, from the running product `A` (a typenum value while every leaf
/// so far is static, else a `usize`), in the direction `Dir`.
pub trait Compact<Dir, A> {
    /// The stride tuple.
    type Stride: IntTuple;
    /// The running product after this shape.
    type Acc: Copy;
    /// The strides and the running product, `None` when a run-time product overflows `usize`.
    fn checked_compact(&self, acc: A) -> Option<(Self::Stride, Self::Acc)>;
    /// The strides and the running product.
    ///
    /// # Panics
    /// When a run-time stride overflows `usize`.
    #[inline(always)]
    fn compact(&self, acc: A) -> (Self::Stride, Self::Acc) {
        self.checked_compact(acc).expect("a run-time stride overflows usize")
    }
}

impl<Dir, A: Copy> Compact<Dir, A> for Nil {
    type Stride = Nil;
    type Acc = A;
    #[inline(always)]
    fn checked_compact(&self, acc: A) -> Option<(Nil, A)> {
        Some((Nil, acc))
    }
}

/// Left: the head first, then the later modes.
impl<A, H: Compact<LayoutLeft, A>, T: List + Compact<LayoutLeft, H::Acc>> Compact<LayoutLeft, A> for Cons<H, T>
where
    T::Stride: List,
{
    type Stride = Cons<H::Stride, T::Stride>;
    type Acc = T::Acc;
    #[inline(always)]
    fn checked_compact(&self, acc: A) -> Option<(Self::Stride, Self::Acc)> {
        let (h, acc) = self.0.checked_compact(acc)?;
        let (t, acc) = self.1.checked_compact(acc)?;
        Some((Cons(h, t), acc))
    }
}

/// Right: the later modes first, then the head.
impl<A, T: List + Compact<LayoutRight, A>, H: Compact<LayoutRight, T::Acc>> Compact<LayoutRight, A> for Cons<H, T>
where
    T::Stride: List,
{
    type Stride = Cons<H::Stride, T::Stride>;
    type Acc = H::Acc;
    #[inline(always)]
    fn checked_compact(&self, acc: A) -> Option<(Self::Stride, Self::Acc)> {
        let (t, acc) = self.1.checked_compact(acc)?;
        let (h, acc) = self.0.checked_compact(acc)?;
        Some((Cons(h, t), acc))
    }
}

/// A static leaf: stride `_0` for a static 1 (as CuTe C++), else the running product.
impl<Dir, A, U: Unsigned, B: Bit> Compact<Dir, A> for UInt<U, B>
where
    UInt<U, B>: EqT<U1>,
    (IsOne<UInt<U, B>>,): CompactLeaf<UInt<U, B>, A>,
{
    type Stride = <(IsOne<UInt<U, B>>,) as CompactLeaf<UInt<U, B>, A>>::Stride;
    type Acc = <(IsOne<UInt<U, B>>,) as CompactLeaf<UInt<U, B>, A>>::Acc;
    #[inline(always)]
    fn checked_compact(&self, acc: A) -> Option<(Self::Stride, Self::Acc)> {
        <(IsOne<UInt<U, B>>,)>::leaf(*self, acc)
    }
}

/// A static 0: stride the running product, which becomes 0.
impl<Dir, A: IntTuple + MulMixed<UTerm>> Compact<Dir, A> for UTerm {
    type Stride = A;
    type Acc = A::Output;
    #[inline(always)]
    fn checked_compact(&self, acc: A) -> Option<(A, A::Output)> {
        Some((acc, acc.checked_mul(UTerm)?))
    }
}

/// A run-time leaf: stride the running product, which becomes a run-time value.
impl<Dir, A: IntTuple + MulMixed<usize>> Compact<Dir, A> for usize {
    type Stride = A;
    type Acc = A::Output;
    #[inline(always)]
    fn checked_compact(&self, acc: A) -> Option<(A, A::Output)> {
        Some((acc, acc.checked_mul(*self)?))
    }
}

/// A static leaf's stride, chosen by `s == 1`.
#[doc(hidden)]
pub trait CompactLeaf<S, A> {
    /// The stride.
    type Stride: IntTuple;
    /// The running product after it.
    type Acc: Copy;
    /// Both values, `None` when a run-time product overflows.
    fn leaf(s: S, acc: A) -> Option<(Self::Stride, Self::Acc)>;
}
impl<S, A: Copy> CompactLeaf<S, A> for (B1,) {
    type Stride = U0;
    type Acc = A;
    #[inline(always)]
    fn leaf(_: S, acc: A) -> Option<(U0, A)> {
        Some((U0::default(), acc))
    }
}
impl<S, A: IntTuple + MulMixed<S>> CompactLeaf<S, A> for (B0,) {
    type Stride = A;
    type Acc = A::Output;
    #[inline(always)]
    fn leaf(s: S, acc: A) -> Option<(A, A::Output)> {
        Some((acc, acc.checked_mul(s)?))
    }
}

/// `make_layout(shape)`: compact column-major strides (`LayoutLeft`); static size-1 modes get
/// stride `_0` as in C++; a stride after a run-time leaf is a run-time product.
///
/// # Panics
/// When a run-time stride overflows `usize`.
///
/// # Examples
/// ```
/// use cute_static::{make_layout_left, shape};
/// // CuTe docs (01_layout): s2xd4_col is (_2,4):(_1,_2), s2xh4_col is (2,(2,2)):(_1,(2,4))
/// let (four, two) = (4, 2);
/// assert_eq!(make_layout_left(shape!((2,{four}))).to_string(), "(2,{4}):(1,2)");
/// assert_eq!(make_layout_left(shape!(({two},({two},{two})))).to_string(), "({2},({2},{2})):(1,({2},{4}))");
/// ```
#[inline(always)]
pub fn make_layout_left<S: Compact<LayoutLeft, U1> + Congruent<S::Stride>>(shape: S) -> Layout<S, S::Stride> {
    let (stride, _) = shape.compact(U1::default());
    Layout::new(shape, stride)
}

/// `make_layout(shape, LayoutRight{})`: compact row-major strides at every level.
///
/// # Panics
/// When a run-time stride overflows `usize`.
///
/// # Examples
/// ```
/// use cute_static::{make_layout_right, shape};
/// // CuTe docs (01_layout): s2xd4_row is (_2,4):(4,_1)
/// let four = 4;
/// assert_eq!(make_layout_right(shape!((2,{four}))).to_string(), "(2,{4}):({4},1)");
/// ```
#[inline(always)]
pub fn make_layout_right<S: Compact<LayoutRight, U1> + Congruent<S::Stride>>(shape: S) -> Layout<S, S::Stride> {
    let (stride, _) = shape.compact(U1::default());
    Layout::new(shape, stride)
}

/// `compact_col_major(shape, current)`: column-major compact strides of `shape` starting at
/// `current` (a typenum value or a run-time `usize`), as cute-dyn's: static size-1 modes get
/// `_0`, a stride after a run-time extent is run-time.
///
/// # Panics
/// When a run-time stride overflows `usize`.
///
/// # Examples
/// ```
/// use cute_static::{compact_col_major, compact_row_major, shape, typenum::{U1, U2}, Show};
/// // CuTe (stride.hpp): compact_col_major((2,(3,4)), 2) = (2,(4,12)); row-major from 1 = (12,(4,1))
/// assert_eq!(Show(&compact_col_major(shape!((2,(3,4))), U2::default())).to_string(), "(2,(4,12))");
/// assert_eq!(Show(&compact_row_major(shape!((2,(3,4))), U1::default())).to_string(), "(12,(4,1))");
/// // A run-time start: every stride is run-time.
/// assert_eq!(Show(&compact_col_major(shape!((2,3)), 5usize)).to_string(), "({5},{10})");
/// ```
#[inline(always)]
pub fn compact_col_major<S: Compact<LayoutLeft, A>, A>(shape: S, current: A) -> S::Stride {
    shape.compact(current).0
}

/// `compact_row_major(shape, current)`: row-major compact strides (see [`compact_col_major`]).
///
/// # Panics
/// When a run-time stride overflows `usize`.
#[inline(always)]
pub fn compact_row_major<S: Compact<LayoutRight, A>, A>(shape: S, current: A) -> S::Stride {
    shape.compact(current).0
}

// ------------------------------------------------------------------------------------------
// Modes: get, take, select, append, prepend, group_modes (cute-dyn's methods of the same
// names). Indices are const generics; out of range is a compile error.
// ------------------------------------------------------------------------------------------

/// A shape or stride as the list of its modes: a tuple is its own list, a leaf is one mode.
pub trait AsModes: IntTuple {
    /// The modes.
    type Modes: List + IntTuple;
    /// The modes' values.
    fn as_modes(&self) -> Self::Modes;
}
impl<H: IntTuple, T: List> AsModes for Cons<H, T> {
    type Modes = Self;
    #[inline(always)]
    fn as_modes(&self) -> Self {
        *self
    }
}
impl AsModes for Nil {
    type Modes = Nil;
    #[inline(always)]
    fn as_modes(&self) -> Nil {
        Nil
    }
}
macro_rules! leaf_as_modes {
    ($([$($g:ident: $b:path),*] $ty:ty);*) => {$(
        /// A leaf is a single mode.
        impl<$($g: $b),*> AsModes for $ty {
            type Modes = Cons<$ty, Nil>;
            #[inline(always)]
            fn as_modes(&self) -> Self::Modes {
                Cons(*self, Nil)
            }
        }
    )*};
}
leaf_as_modes!([] UTerm; [U: Unsigned, B: Bit] UInt<U, B>; [] usize);

/// Mode `I` of a list of modes; `O` is the index asked for (for the message).
#[diagnostic::on_unimplemented(
    message = "mode index out of range: there is no mode {O}",
    label = "the layout's rank is at most {O}",
    note = "modes are numbered from 0 to rank - 1"
)]
#[doc(hidden)]
pub trait ModeAt<const I: usize, const O: usize>: List {
    /// The mode.
    type Output: IntTuple;
    /// Its value.
    fn mode_at(&self) -> Self::Output;
}
#[diagnostic::do_not_recommend]
impl<H: IntTuple, T: List, const O: usize> ModeAt<0, O> for Cons<H, T> {
    type Output = H;
    #[inline(always)]
    fn mode_at(&self) -> H {
        self.0
    }
}
/// Past the last mode: never applies ([`PastTheRank`]).
#[diagnostic::do_not_recommend]
impl<const I: usize, const O: usize> ModeAt<I, O> for Nil
where
    (): PastTheRank<O>,
{
    type Output = Nil;
    fn mode_at(&self) -> Nil {
        Nil
    }
}

/// An index `O` past the rank: a trait of no impls, so that the impls for `Nil` never apply.
/// (Those impls exist so that the search ends at `Nil`, where `ModeAt`'s and `SplitAt`'s
/// messages name the index asked for, and no note names the modes' types.)
#[doc(hidden)]
pub trait PastTheRank<const O: usize> {}

/// Mode index `I`, an element of [`Layout::select`]'s list of indices (`modes![0, 2]`).
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct ModeIndex<const I: usize>;

#[doc(hidden)]
/// The modes at a list of [`ModeIndex`] (implemented by a list of modes): `select`'s gathering,
/// each through [`ModeAt`] (an index out of range is its error).
pub trait SelectModes<Ix>: List {
    /// The selected modes.
    type Output: List + IntTuple;
    /// Their values.
    fn select_modes(&self) -> Self::Output;
}
impl<M: List> SelectModes<Nil> for M {
    type Output = Nil;
    #[inline(always)]
    fn select_modes(&self) -> Nil {
        Nil
    }
}
impl<M: ModeAt<I, I> + SelectModes<T>, const I: usize, T> SelectModes<Cons<ModeIndex<I>, T>> for M {
    type Output = Cons<<M as ModeAt<I, I>>::Output, <M as SelectModes<T>>::Output>;
    #[inline(always)]
    fn select_modes(&self) -> Self::Output {
        Cons(ModeAt::<I, I>::mode_at(self), SelectModes::<T>::select_modes(self))
    }
}

/// A list split before mode `N`; `O` is the split asked for (for the message).
#[diagnostic::on_unimplemented(
    message = "mode index out of range: a split at {O} needs at least {O} modes",
    label = "the layout has fewer than {O} modes",
    note = "modes are numbered from 0 to rank - 1; a range [b, e) needs e <= rank"
)]
#[doc(hidden)]
pub trait SplitAt<const N: usize, const O: usize>: List {
    /// Modes `[0, N)`.
    type Front: List + IntTuple;
    /// Modes `[N, rank)`.
    type Back: List + IntTuple;
    /// Both values.
    fn split_at(&self) -> (Self::Front, Self::Back);
}
impl<L: List + IntTuple, const O: usize> SplitAt<0, O> for L {
    type Front = Nil;
    type Back = L;
    #[inline(always)]
    fn split_at(&self) -> (Nil, L) {
        (Nil, *self)
    }
}

macro_rules! mode_indices {
    ($(($i:literal, $p:literal)),*) => {$(
        // Not recommended: a missing mode is reported at the index asked for, without the
        // list of every index the lists implement.
        #[diagnostic::do_not_recommend]
        impl<H: IntTuple, T: ModeAt<$p, O>, const O: usize> ModeAt<$i, O> for Cons<H, T> {
            type Output = T::Output;
            #[inline(always)]
            fn mode_at(&self) -> T::Output {
                self.1.mode_at()
            }
        }
        /// Past the last mode: never applies ([`PastTheRank`]).
        #[diagnostic::do_not_recommend]
        impl<const O: usize> SplitAt<$i, O> for Nil
        where
            (): PastTheRank<O>,
        {
            type Front = Nil;
            type Back = Nil;
            fn split_at(&self) -> (Nil, Nil) {
                (Nil, Nil)
            }
        }
        #[diagnostic::do_not_recommend]
        impl<H: IntTuple, T: SplitAt<$p, O>, const O: usize> SplitAt<$i, O> for Cons<H, T> {
            type Front = Cons<H, T::Front>;
            type Back = T::Back;
            #[inline(always)]
            fn split_at(&self) -> (Self::Front, T::Back) {
                let (f, b) = self.1.split_at();
                (Cons(self.0, f), b)
            }
        }
    )*};
}
mode_indices!(
    (1, 0),
    (2, 1),
    (3, 2),
    (4, 3),
    (5, 4),
    (6, 5),
    (7, 6),
    (8, 7),
    (9, 8),
    (10, 9),
    (11, 10),
    (12, 11),
    (13, 12),
    (14, 13),
    (15, 14),
    (16, 15),
    (17, 16),
    (18, 17),
    (19, 18),
    (20, 19),
    (21, 20),
    (22, 21),
    (23, 22),
    (24, 23),
    (25, 24),
    (26, 25),
    (27, 26),
    (28, 27),
    (29, 28),
    (30, 29),
    (31, 30),
    (32, 31)
);

/// `L ++ R` on lists of modes, with values.
#[doc(hidden)]
pub trait Append<R: List + IntTuple>: List {
    /// The joined list.
    type Output: List + IntTuple;
    /// Its value.
    fn append_list(&self, r: R) -> Self::Output;
}
impl<R: List + IntTuple> Append<R> for Nil {
    type Output = R;
    #[inline(always)]
    fn append_list(&self, r: R) -> R {
        r
    }
}
impl<H: IntTuple, T: Append<R>, R: List + IntTuple> Append<R> for Cons<H, T> {
    type Output = Cons<H, T::Output>;
    #[inline(always)]
    fn append_list(&self, r: R) -> Self::Output {
        Cons(self.0, self.1.append_list(r))
    }
}

/// The modes of a layout's shape and stride.
pub(crate) type ModesS<S> = <S as AsModes>::Modes;

// Congruence is preserved by these rearrangements (the same modes of congruent tuples, and
// modes of layouts, which are congruent), so they build results without asking again: an
// out-of-range index is then one error, not an inference overflow.
impl<S: Congruent<D> + AsModes, D: IntTuple + AsModes> Layout<S, D> {
    /// `get<I>(L)`: mode `I` (a leaf layout is its own mode 0).
    ///
    /// # Examples
    /// ```
    /// use cute_static::layout;
    /// // CuTe docs (01_layout): get<1>((2,(2,2)):(4,(2,1))) is (2,2):(2,1)
    /// let l = layout!((2,(2,2)):(4,(2,1)));
    /// assert_eq!(l.get::<1>().to_string(), "(2,2):(2,1)");
    /// assert_eq!(l.get::<0>().to_string(), "2:4");
    /// ```
    #[inline(always)]
    pub fn get<const I: usize>(&self) -> Layout<<S::Modes as ModeAt<I, I>>::Output, <D::Modes as ModeAt<I, I>>::Output>
    where
        S::Modes: ModeAt<I, I>,
        D::Modes: ModeAt<I, I>,
    {
        Layout { shape: self.shape.as_modes().mode_at(), stride: self.stride.as_modes().mode_at() }
    }

    /// `take<B, E>(L)`: modes `[B, E)` as a layout of rank `E - B`.
    ///
    /// # Examples
    /// ```
    /// use cute_static::layout;
    /// let l = layout!((2,3,4,5):(1,2,6,24));
    /// assert_eq!(l.take::<1, 3>().to_string(), "(3,4):(2,6)");
    /// ```
    #[inline(always)]
    pub fn take<const B: usize, const E: usize>(
        &self,
    ) -> Layout<
        <<ModesS<S> as SplitAt<E, E>>::Front as SplitAt<B, B>>::Back,
        <<ModesS<D> as SplitAt<E, E>>::Front as SplitAt<B, B>>::Back,
    >
    where
        ModesS<S>: SplitAt<E, E>,
        ModesS<D>: SplitAt<E, E>,
        <ModesS<S> as SplitAt<E, E>>::Front: SplitAt<B, B>,
        <ModesS<D> as SplitAt<E, E>>::Front: SplitAt<B, B>,
    {
        let s = self.shape.as_modes().split_at().0.split_at().1;
        let d = self.stride.as_modes().split_at().0.split_at().1;
        Layout { shape: s, stride: d }
    }

    /// `append(L, X)`: `L`'s modes, then `X` as one more mode.
    ///
    /// # Examples
    /// ```
    /// use cute_static::layout;
    /// assert_eq!(layout!((2,3):(1,2)).append(layout!(4:6)).to_string(), "(2,3,4):(1,2,6)");
    /// assert_eq!(layout!(2:1).append(layout!((3,4):(2,6))).to_string(), "(2,(3,4)):(1,(2,6))");
    /// ```
    #[inline(always)]
    pub fn append<XS: IntTuple, XD: IntTuple>(
        &self,
        x: Layout<XS, XD>,
    ) -> Layout<<ModesS<S> as Append<Cons<XS, Nil>>>::Output, <ModesS<D> as Append<Cons<XD, Nil>>>::Output>
    where
        ModesS<S>: Append<Cons<XS, Nil>>,
        ModesS<D>: Append<Cons<XD, Nil>>,
    {
        Layout {
            shape: self.shape.as_modes().append_list(Cons(x.shape, Nil)),
            stride: self.stride.as_modes().append_list(Cons(x.stride, Nil)),
        }
    }

    /// `prepend(L, X)`: `X` as the first mode, then `L`'s modes.
    ///
    /// # Examples
    /// ```
    /// use cute_static::layout;
    /// assert_eq!(layout!((2,3):(1,2)).prepend(layout!(4:6)).to_string(), "(4,2,3):(6,1,2)");
    /// ```
    #[inline(always)]
    pub fn prepend<XS: IntTuple, XD: IntTuple>(
        &self,
        x: Layout<XS, XD>,
    ) -> Layout<Cons<XS, ModesS<S>>, Cons<XD, ModesS<D>>> {
        Layout { shape: Cons(x.shape, self.shape.as_modes()), stride: Cons(x.stride, self.stride.as_modes()) }
    }

    /// `select<I...>(L)`: the layout of modes `I...` in that order (`make_layout(get<I>(L)...)`),
    /// the indices given as [`modes!`](crate::modes) (`l.select(modes![0, 2])`). An index is
    /// any mode of `L`, repeats allowed; one out of range is a compile error ("mode index out of
    /// range").
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, modes};
    /// let l = layout!((4,2,3):(2,1,8));
    /// assert_eq!(l.select(modes![0, 2]).to_string(), "(4,3):(2,8)");
    /// assert_eq!(l.select(modes![2, 0]).to_string(), "(3,4):(8,2)");
    /// assert_eq!(l.select(modes![1]).to_string(), "(2):(1)");
    /// // Run-time values are carried: m = 16 rows.
    /// let m = 16;
    /// assert_eq!(layout!(({m},(2,4)):(1,({m},32))).select(modes![1]).to_string(), "((2,4)):(({16},32))");
    /// ```
    ///
    /// ```compile_fail
    /// use cute_static::{layout, modes};
    /// let _ = layout!((4,2,3):(2,1,8)).select(modes![0, 3]); // no mode 3
    /// ```
    #[inline(always)]
    pub fn select<Ix>(
        &self,
        _: Ix,
    ) -> Layout<<ModesS<S> as SelectModes<Ix>>::Output, <ModesS<D> as SelectModes<Ix>>::Output>
    where
        ModesS<S>: SelectModes<Ix>,
        ModesS<D>: SelectModes<Ix>,
    {
        Layout { shape: self.shape.as_modes().select_modes(), stride: self.stride.as_modes().select_modes() }
    }

    /// `group_modes<B, E>(L)`: modes `[B, E)` gathered into one mode.
    ///
    /// # Examples
    /// ```
    /// use cute_static::layout;
    /// let l = layout!((2,3,4,5):(1,2,6,24));
    /// assert_eq!(l.group_modes::<1, 3>().to_string(), "(2,(3,4),5):(1,(2,6),24)");
    /// assert_eq!(l.group_modes::<0, 4>().to_string(), "((2,3,4,5)):((1,2,6,24))");
    /// ```
    #[inline(always)]
    pub fn group_modes<const B: usize, const E: usize>(&self) -> <Self as GroupModesOf<B, E>>::Output
    where
        Self: GroupModesOf<B, E>,
    {
        GroupModesOf::group_modes_of(self)
    }
}

/// `group_modes<B, E>` of a layout (one trait, so that an index out of range is one error).
#[doc(hidden)]
pub trait GroupModesOf<const B: usize, const E: usize> {
    /// The regrouped layout.
    type Output;
    /// Its value.
    fn group_modes_of(&self) -> Self::Output;
}
impl<S, D, const B: usize, const E: usize> GroupModesOf<B, E> for Layout<S, D>
where
    S: AsModes,
    D: AsModes,
    ModesS<S>: GroupModes<B, E>,
    ModesS<D>: GroupModes<B, E>,
{
    type Output = Layout<Grouped<ModesS<S>, B, E>, Grouped<ModesS<D>, B, E>>;
    #[inline(always)]
    fn group_modes_of(&self) -> Self::Output {
        Layout { shape: self.shape.as_modes().group(), stride: self.stride.as_modes().group() }
    }
}

/// Modes `[B, E)` of a list gathered into one mode.
#[doc(hidden)]
pub trait GroupModes<const B: usize, const E: usize>: List {
    /// The regrouped list.
    type Output: List + IntTuple;
    /// Its value.
    fn group(&self) -> Self::Output;
}
impl<L: SplitAt<E, E>, const B: usize, const E: usize> GroupModes<B, E> for L
where
    L::Front: SplitAt<B, B>,
    <L::Front as SplitAt<B, B>>::Front: Append<Cons<<L::Front as SplitAt<B, B>>::Back, L::Back>>,
{
    type Output =
        <<L::Front as SplitAt<B, B>>::Front as Append<Cons<<L::Front as SplitAt<B, B>>::Back, L::Back>>>::Output;
    #[inline(always)]
    fn group(&self) -> Self::Output {
        let (front, back) = self.split_at();
        let (head, mid) = front.split_at();
        head.append_list(Cons(mid, back))
    }
}

/// The type of `group_modes<B, E>` on a list of modes.
pub type Grouped<L, const B: usize, const E: usize> = <L as GroupModes<B, E>>::Output;

/// `select<I...>(L)`: the modes `I...` in that order, as a layout of that rank; the same as
/// [`Layout::select`] with the indices as [`modes!`](crate::modes).
///
/// # Examples
/// ```
/// use cute_static::{layout, select};
/// let l = layout!((2,3,4):(1,2,6));
/// assert_eq!(select!(l; 2, 0).to_string(), "(4,2):(6,1)");
/// ```
#[macro_export]
macro_rules! select {
    ($l:expr; $($i:literal),+ $(,)?) => {
        $crate::ops::Select::select(&$l, $crate::modes!($($i),+))
    };
}

// The mode accessors as traits (`crate::ops`): one bound each in generic code.
impl<S: Congruent<D> + AsModes, D: IntTuple + AsModes, const I: usize> crate::ops::Get<I> for Layout<S, D>
where
    S::Modes: ModeAt<I, I>,
    D::Modes: ModeAt<I, I>,
{
    type Output = Layout<<S::Modes as ModeAt<I, I>>::Output, <D::Modes as ModeAt<I, I>>::Output>;
    #[inline(always)]
    fn get(&self) -> Self::Output {
        Layout::get::<I>(self)
    }
}

impl<S: Congruent<D> + AsModes, D: IntTuple + AsModes, const B: usize, const E: usize> crate::ops::Take<B, E>
    for Layout<S, D>
where
    ModesS<S>: SplitAt<E, E>,
    ModesS<D>: SplitAt<E, E>,
    <ModesS<S> as SplitAt<E, E>>::Front: SplitAt<B, B>,
    <ModesS<D> as SplitAt<E, E>>::Front: SplitAt<B, B>,
{
    type Output = Layout<
        <<ModesS<S> as SplitAt<E, E>>::Front as SplitAt<B, B>>::Back,
        <<ModesS<D> as SplitAt<E, E>>::Front as SplitAt<B, B>>::Back,
    >;
    #[inline(always)]
    fn take(&self) -> Self::Output {
        Layout::take::<B, E>(self)
    }
}

impl<S: Congruent<D> + AsModes, D: IntTuple + AsModes, XS: IntTuple, XD: IntTuple> crate::ops::Append<Layout<XS, XD>>
    for Layout<S, D>
where
    ModesS<S>: Append<Cons<XS, Nil>>,
    ModesS<D>: Append<Cons<XD, Nil>>,
{
    type Output = Layout<<ModesS<S> as Append<Cons<XS, Nil>>>::Output, <ModesS<D> as Append<Cons<XD, Nil>>>::Output>;
    #[inline(always)]
    fn append(&self, x: Layout<XS, XD>) -> Self::Output {
        Layout::append(self, x)
    }
}

impl<S: Congruent<D> + AsModes, D: IntTuple + AsModes, XS: IntTuple, XD: IntTuple> crate::ops::Prepend<Layout<XS, XD>>
    for Layout<S, D>
{
    type Output = Layout<Cons<XS, ModesS<S>>, Cons<XD, ModesS<D>>>;
    #[inline(always)]
    fn prepend(&self, x: Layout<XS, XD>) -> Self::Output {
        Layout::prepend(self, x)
    }
}

impl<S: Congruent<D> + AsModes, D: IntTuple + AsModes, Ix> crate::ops::Select<Ix> for Layout<S, D>
where
    ModesS<S>: SelectModes<Ix>,
    ModesS<D>: SelectModes<Ix>,
{
    type Output = Layout<<ModesS<S> as SelectModes<Ix>>::Output, <ModesS<D> as SelectModes<Ix>>::Output>;
    #[inline(always)]
    fn select(&self, ix: Ix) -> Self::Output {
        Layout::select(self, ix)
    }
}

impl<S, D, const B: usize, const E: usize> crate::ops::GroupModes<B, E> for Layout<S, D>
where
    Self: GroupModesOf<B, E>,
{
    type Output = <Self as GroupModesOf<B, E>>::Output;
    #[inline(always)]
    fn group_modes(&self) -> Self::Output {
        GroupModesOf::group_modes_of(self)
    }
}

// ------------------------------------------------------------------------------------------
// make_ordered_layout, make_layout_like (cute-dyn's functions of the same names): compact
// strides that visit the leaves in the order of a key per leaf. A leaf's stride is the product
// of the (filtered) shapes of the leaves of lesser key; static keys compare by value, a
// run-time key is greater than every static one and run-time keys are in leaf order (the
// DSL's rule, so that no structure depends on a run-time value).
// ------------------------------------------------------------------------------------------

#[doc(hidden)]
/// The flat modes `Mode<shape, key>`, each with its leaf position `I` (a typenum counter).
pub trait Positions<I> {
    /// `Cons<(Mode<S, K>, I), ...>`.
    type Output: Copy;
    /// The modes with their positions.
    fn positions(self) -> Self::Output;
}
impl<I> Positions<I> for Nil {
    type Output = Nil;
    #[inline(always)]
    fn positions(self) -> Nil {
        Nil
    }
}
impl<M: Copy, T: Positions<typenum::Add1<I>>, I: Add<B1> + Default + Copy> Positions<I> for Cons<M, T> {
    type Output = Cons<(M, I), T::Output>;
    #[inline(always)]
    fn positions(self) -> Self::Output {
        Cons((self.0, I::default()), self.1.positions())
    }
}

#[doc(hidden)]
/// `B1` when the key `(Self, J)` (a key leaf at position `J`) orders before `(K, I)`.
pub trait KeyBefore<J, K, I> {
    /// The answer.
    type Output: Bit;
}
impl<K2: crate::int_tuple::StaticBit, J, K: crate::int_tuple::StaticBit, I> KeyBefore<J, K, I> for K2
where
    (K2::Output, K::Output): KeyCase<K2, J, K, I>,
{
    type Output = <(K2::Output, K::Output) as KeyCase<K2, J, K, I>>::Output;
}
#[doc(hidden)]
/// [`KeyBefore`] by the keys' static bits.
pub trait KeyCase<K2, J, K, I> {
    /// The answer.
    type Output: Bit;
}
/// Two static keys: by value.
impl<K2: LtT<K>, J, K, I> KeyCase<K2, J, K, I> for (B1, B1) {
    type Output = K2::Output;
}
/// A static key orders before a run-time one.
impl<K2, J, K, I> KeyCase<K2, J, K, I> for (B1, B0) {
    type Output = B1;
}
/// A run-time key orders after a static one.
impl<K2, J, K, I> KeyCase<K2, J, K, I> for (B0, B1) {
    type Output = B0;
}
/// Two run-time keys: by position.
impl<K2, J: LtT<I>, K, I> KeyCase<K2, J, K, I> for (B0, B0) {
    type Output = J::Output;
}

#[doc(hidden)]
/// The start stride of the leaf of key `K` at position `I`: the product of the shapes of the
/// leaves (of this list) ordered before it.
pub trait StartOf<K, I> {
    /// The product's type (static while every factor is).
    type Output: IntTuple;
    /// The product.
    fn start(&self) -> Self::Output;
}
impl<K, I> StartOf<K, I> for Nil {
    type Output = U1;
    #[inline(always)]
    fn start(&self) -> U1 {
        U1::default()
    }
}
impl<S: Copy, K2: KeyBefore<J, K, I>, J, T: StartOf<K, I>, K, I> StartOf<K, I>
    for Cons<(crate::modes::Mode<S, K2>, J), T>
where
    (K2::Output,): Factor<S, T::Output>,
{
    type Output = <(K2::Output,) as Factor<S, T::Output>>::Output;
    #[inline(always)]
    fn start(&self) -> Self::Output {
        <(K2::Output,)>::factor(self.0 .0 .0, self.1.start())
    }
}
#[doc(hidden)]
/// `s * rest` when the leaf orders before (`B1`), else `rest`.
pub trait Factor<S, R> {
    /// The product's type.
    type Output: IntTuple;
    /// The product.
    fn factor(s: S, rest: R) -> Self::Output;
}
impl<S, R: IntTuple + MulMixed<S>> Factor<S, R> for (B1,)
where
    R::Output: IntTuple,
{
    type Output = R::Output;
    #[inline(always)]
    fn factor(s: S, rest: R) -> Self::Output {
        rest.mul(s)
    }
}
impl<S, R: IntTuple> Factor<S, R> for (B0,) {
    type Output = R;
    #[inline(always)]
    fn factor(_: S, rest: R) -> R {
        rest
    }
}

#[doc(hidden)]
/// The ordered strides of the positioned modes, each from its start over all of `All`:
/// `compact_major(s, start)` of a leaf (`_0` for a static 1).
pub trait OrderedStrides<All> {
    /// The flat strides.
    type Output: Copy;
    /// Their values.
    fn ordered_strides(self, all: &All) -> Self::Output;
}
impl<All> OrderedStrides<All> for Nil {
    type Output = Nil;
    #[inline(always)]
    fn ordered_strides(self, _: &All) -> Nil {
        Nil
    }
}
impl<S, K, I, T, All> OrderedStrides<All> for Cons<(crate::modes::Mode<S, K>, I), T>
where
    All: StartOf<K, I>,
    S: Compact<LayoutLeft, All::Output>,
    T: OrderedStrides<All>,
{
    type Output = Cons<S::Stride, T::Output>;
    #[inline(always)]
    fn ordered_strides(self, all: &All) -> Self::Output {
        Cons(self.0 .0 .0.compact(all.start()).0, self.1.ordered_strides(all))
    }
}

#[doc(hidden)]
/// A flat list of leaves put back into the profile of `Self` (a shape or stride).
pub trait Refill<L> {
    /// The nested tuple.
    type Output: IntTuple;
    /// The leaves left over.
    type Rest;
    /// Both.
    fn refill(l: L) -> (Self::Output, Self::Rest);
}
macro_rules! refill_leaf {
    ($([$($g:ident: $b:path),*] $ty:ty);*) => {$(
        impl<$($g: $b,)* H: IntTuple, T> Refill<Cons<H, T>> for $ty {
            type Output = H;
            type Rest = T;
            #[inline(always)]
            fn refill(l: Cons<H, T>) -> (H, T) {
                (l.0, l.1)
            }
        }
    )*};
}
refill_leaf!([] typenum::UTerm; [U: typenum::Unsigned, B: typenum::Bit] typenum::UInt<U, B>; [] usize);
impl<L> Refill<L> for Nil {
    type Output = Nil;
    type Rest = L;
    #[inline(always)]
    fn refill(l: L) -> (Nil, L) {
        (Nil, l)
    }
}
impl<L, H: Refill<L>, T: Refill<H::Rest>> Refill<L> for Cons<H, T>
where
    T::Output: List,
{
    type Output = Cons<H::Output, T::Output>;
    type Rest = T::Rest;
    #[inline(always)]
    fn refill(l: L) -> (Self::Output, T::Rest) {
        let (h, rest) = H::refill(l);
        let (t, rest) = T::refill(rest);
        (Cons(h, t), rest)
    }
}

#[doc(hidden)]
/// The strides of `make_ordered_layout(shape, order)` for a flat list of `Mode<shape, key>`,
/// put back into the profile `P`: implemented by the list.
pub trait OrderModes<P> {
    /// The strides, in `P`'s profile.
    type Output: IntTuple;
    /// Their values.
    fn order_modes(self) -> Self::Output;
}
impl<L, P, Q, F> OrderModes<P> for L
where
    L: Positions<U0, Output = Q>,
    Q: OrderedStrides<Q, Output = F> + Copy,
    P: Refill<F, Rest = Nil>,
{
    type Output = P::Output;
    #[inline(always)]
    fn order_modes(self) -> P::Output {
        let q = self.positions();
        P::refill(q.ordered_strides(&q)).0
    }
}

/// `make_ordered_layout(shape, order)`: compact strides that visit the leaves of `shape` in the
/// order of the congruent `order` (lower orders get smaller strides, equal orders share a start
/// stride; a run-time order is after every static one, in leaf order), as cute-dyn's (whose
/// `order` may also be weakly congruent). A stride after a run-time extent is run-time.
///
/// # Panics
/// When a run-time stride overflows `usize`.
///
/// # Examples
/// ```
/// use cute_static::{make_ordered_layout, shape};
/// // CuTe: make_ordered_layout(Shape<_2,_2,_2,_2>{}, Step<_0,_2,_3,_1>{}) -> (_2,_2,_2,_2):(_1,_4,_8,_2)
/// let l = make_ordered_layout(shape!((2,2,2,2)), shape!((0,2,3,1)));
/// assert_eq!(l.to_string(), "(2,2,2,2):(1,4,8,2)");
/// ```
#[inline(always)]
pub fn make_ordered_layout<S, O, M, R>(shape: S, order: O) -> Layout<S, R>
where
    S: crate::modes::FlattenModes<O, Output = M> + Congruent<R>,
    M: OrderModes<S, Output = R>,
    R: IntTuple,
{
    Layout::new(shape, shape.flatten_modes(&order).order_modes())
}

/// `make_layout_like(L)`: a compact layout of `L`'s shape whose strides follow the order of
/// `L`'s strides; static-0 strides are kept (CuTe C++ `layout.hpp`), as cute-dyn's.
///
/// # Panics
/// When a run-time stride overflows `usize`.
///
/// # Examples
/// ```
/// use cute_static::{layout, make_layout_like};
/// // CuTe's examples in layout.hpp
/// assert_eq!(make_layout_like(layout!((2,2,2,2):(0,2,4,1))).to_string(), "(2,2,2,2):(0,2,4,1)");
/// let (a, b, c, d, e) = (2, 3, 4, 5, 42);
/// let l = make_layout_like(layout!(({a},{b},{c},{d}):(0,{e},1,0)));
/// assert_eq!(l.to_styled(cute_static::cute_dyn::Style::Cpp)?, "(2,3,4,5):(_0,4,_1,_0)");
/// # Ok::<(), cute_static::cute_dyn::Error>(())
/// ```
#[inline(always)]
pub fn make_layout_like<S, D, M, F, R>(l: Layout<S, D>) -> Layout<S, R>
where
    S: Congruent<D> + crate::modes::FlattenModes<D, Output = M> + Congruent<R>,
    D: IntTuple,
    M: crate::modes::FilterZeros<Output = F>,
    F: OrderModes<S, Output = R>,
    R: IntTuple,
{
    let s = *l.shape();
    Layout::new(s, s.flatten_modes(l.stride()).filter_zeros().order_modes())
}

/// A layout computed on marked strides: its strides resolved (see [`crate::scaled`]).
impl<S, DM: crate::scaled::Resolve<DA>, DA> crate::scaled::ResolveLayout<DA> for Layout<S, DM> {
    type Output = Layout<S, DM::Output>;
    #[inline(always)]
    fn resolve_layout(self, da: &DA) -> Result<Self::Output, crate::error::Error> {
        let (s, d) = self.into_parts();
        Ok(Layout::from_parts(s, d.resolve(da)?))
    }
}
