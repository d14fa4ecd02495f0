//! Run-time strides under static shapes: CuTe C++'s dynamic-stride path, through the same
//! type-level algorithms as static layouts.
//!
//! A kernel's tile of a global tensor has a static shape and run-time strides (`(_128,_64):
//! (_1,ldA)`). Composition, the divides and the partitions built on them decide their result's
//! structure from the shapes and the right operand alone: they multiply a left operand's stride
//! by static factors and decide nothing on its value (coalesce keeps a run-time stride's mode,
//! as cute-dyn and the CuTe DSL do). So each run-time stride of the left operand is replaced by
//! a marker type, [`Scaled<K, I>`] ("`K` times run-time stride number `I`", numbered
//! depth-first from 0), the static algorithm runs on the marked layout, and [`Resolve`] turns
//! each marker of the result back into a run-time value, `K * stride_I`, checked for overflow.
//! A static factor 0 gives the static `_0` (CuTe's `_0 * m`), as cute-dyn's integers do.
//! `upcast<N>` divides a marked stride instead ([`Quot`]), its divisibility checked when it
//! runs; `downcast<N>` multiplies it ([`Times`]), a unit stride refused when it runs.

use core::fmt;
use core::marker::PhantomData;
use core::ops::Add;

use typenum::{Add1, Bit, UInt, UTerm, Unsigned, B0, B1, U1};

use crate::arith::{LtT, MulT};
use crate::error::Error;
use crate::int_tuple::{Cons, IntTuple, Leaf, Nil};

/// `K` times run-time stride number `I` of a left operand: a run-time leaf whose type says
/// where its value comes from. Only the type matters inside the algorithms (its value there
/// is the default); [`Resolve`] computes the value.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Scaled<K, I>(pub usize, PhantomData<(K, I)>);

/// A run-time leaf (the value is `self.0`), as `usize` is.
impl<K: Copy, I: Copy> IntTuple for Scaled<K, I> {
    const RANK: usize = 1;
    const DEPTH: usize = 0;
    const IS_STATIC: bool = false;
    const MAX_STATIC: u64 = 0;
    #[inline(always)]
    fn product(&self) -> usize {
        self.0
    }
    fn checked_product(&self) -> Option<usize> {
        Some(self.0)
    }
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write(f)
    }
    #[cfg(feature = "dyn")]
    fn to_dyn(&self) -> cute_dyn::Result<cute_dyn::IntTuple> {
        self.0.to_dyn()
    }
    #[cfg(feature = "dyn")]
    fn from_dyn(t: &cute_dyn::IntTuple, at: &str) -> cute_dyn::Result<Self> {
        Ok(Scaled(usize::from_dyn(t, at)?, PhantomData))
    }
}
impl<K: Copy, I: Copy> Leaf for Scaled<K, I> {
    // A run-time value.
    const STATIC: Option<usize> = None;
    #[inline(always)]
    fn value(&self) -> usize {
        self.0
    }
}

/// Call `$m!` with the (shape leaf, stride leaf) pairs of a marked layout: a static shape with
/// a marker stride.
macro_rules! for_each_scaled_pair {
    ($m:ident) => {
        $m!(
            [K: Copy, I: Copy] typenum::UTerm, $crate::scaled::Scaled<K, I>;
            [U: typenum::Unsigned, B: typenum::Bit, K: Copy, I: Copy] typenum::UInt<U, B>, $crate::scaled::Scaled<K, I>;
        );
    };
}
pub(crate) use for_each_scaled_pair;

// A marked stride is one leaf, static in structure (its value is resolved when it runs).
crate::int_tuple::leaf_concepts!([K: Copy, I: Copy] Scaled<K, I> => B1);

/// `D * CD` for a left operand's stride `CD` and a static factor `D` (the implementing type):
/// [`MulT`] for a static `CD`; a marker for a marker; the static 0 for a static 0 factor.
pub trait StrideMul<CD> {
    /// The product.
    type Output: Copy + Default;
}
impl<D: crate::arith::StaticValue + MulT<CD>, CD: crate::arith::StaticValue> StrideMul<CD> for D {
    type Output = <D as MulT<CD>>::Output;
}
impl<K, I> StrideMul<Scaled<K, I>> for UTerm {
    type Output = UTerm;
}
impl<U: Unsigned, B: Bit, K: Copy + Default, I: Copy + Default> StrideMul<Scaled<K, I>> for UInt<U, B>
where
    UInt<U, B>: MulT<K>,
{
    type Output = Scaled<<UInt<U, B> as MulT<K>>::Output, I>;
}

/// The stride tuple with each run-time leaf replaced by its marker, numbered from `N`.
pub trait Symbolize<N> {
    /// The marked tuple.
    type Output;
    /// The next number.
    type Next;
}
impl<N> Symbolize<N> for UTerm {
    type Output = UTerm;
    type Next = N;
}
impl<N, U, B> Symbolize<N> for UInt<U, B> {
    type Output = UInt<U, B>;
    type Next = N;
}
impl<N: Add<B1>> Symbolize<N> for usize {
    type Output = Scaled<U1, N>;
    type Next = Add1<N>;
}
impl<N> Symbolize<N> for Nil {
    type Output = Nil;
    type Next = N;
}
impl<N, H: Symbolize<N>, T: Symbolize<H::Next>> Symbolize<N> for Cons<H, T> {
    type Output = Cons<H::Output, T::Output>;
    type Next = T::Next;
}

/// `K * stride_I / N`: a marked stride divided by a static factor (upcast), the division
/// checked when it runs. The last operation on a marked layout ([`Resolve`] reads it).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Quot<K, I, N>(PhantomData<(K, I, N)>);

/// `K * stride_I * N`: a marked stride multiplied by a static factor (downcast), refused when it
/// runs if `K * stride_I` is 1 (a unit stride, whose mode's extent would grow instead). The last
/// operation on a marked layout ([`Resolve`] reads it).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Times<K, I, N>(PhantomData<(K, I, N)>);

/// Run-time leaf number `I` of a stride tuple numbered from `N` (as [`Symbolize`] numbers it).
pub trait Pick<N, I> {
    /// The value.
    fn pick(&self) -> usize;
}
/// The leaf numbered `N` itself (the tuple impls only come here for `I == N`).
impl<N, I> Pick<N, I> for usize {
    #[inline(always)]
    fn pick(&self) -> usize {
        *self
    }
}
impl<N, I, H: Symbolize<N>, T> Pick<N, I> for Cons<H, T>
where
    I: LtT<H::Next>,
    (<I as LtT<H::Next>>::Output,): PickIn<N, I, H, T>,
{
    #[inline(always)]
    fn pick(&self) -> usize {
        <(<I as LtT<H::Next>>::Output,) as PickIn<N, I, H, T>>::pick_in(self)
    }
}
/// In the head (`B1`: `I` is below the head's next number) or in the tail.
pub trait PickIn<N, I, H, T> {
    /// The value.
    fn pick_in(t: &Cons<H, T>) -> usize;
}
impl<N, I, H: Pick<N, I>, T> PickIn<N, I, H, T> for (B1,) {
    #[inline(always)]
    fn pick_in(t: &Cons<H, T>) -> usize {
        t.0.pick()
    }
}
impl<N, I, H: Symbolize<N>, T: Pick<H::Next, I>> PickIn<N, I, H, T> for (B0,) {
    #[inline(always)]
    fn pick_in(t: &Cons<H, T>) -> usize {
        t.1.pick()
    }
}

/// upcast of a run-time stride `v` by `n` (cute-dyn's rule for a dynamic stride): `v / n`
/// where `n` divides it.
///
/// # Errors
/// [`Error::Undecided`] where `v` divides `n` instead (static, the mode's extent would shrink:
/// another structure), [`Error::StrideDivisibility`] otherwise, [`Error::DivisionByZero`] for
/// `n = 0`.
#[inline]
pub(crate) fn upcast_run_time_stride(v: usize, n: usize) -> Result<usize, Error> {
    let rem = v.checked_rem(n).ok_or(Error::DivisionByZero { op: "upcast" })?;
    if rem != 0 {
        return Err(if n.is_multiple_of(v) {
            Error::Undecided { op: "upcast" }
        } else {
            Error::StrideDivisibility { op: "upcast", stride: v, factor: n }
        });
    }
    Ok(v / n)
}

/// downcast of a run-time stride `v` by `n`: `v * n` (only a static 1 is a unit stride, as in
/// CuTe C++).
///
/// # Errors
/// [`Error::Undecided`] for `v = 1` (static, its mode's extent would grow instead: cute-dyn
/// refuses it the same way), [`Error::Overflow`].
#[inline]
pub(crate) fn downcast_run_time_stride(v: usize, n: usize) -> Result<usize, Error> {
    if v == 1 {
        return Err(Error::Undecided { op: "downcast" });
    }
    v.checked_mul(n).ok_or(Error::Overflow { op: "downcast" })
}

/// A result's strides with each marker replaced by its value: `K * stride_I` of the left
/// operand's strides `DA` (a run-time `usize`), static leaves as they are.
pub trait Resolve<DA> {
    /// The strides.
    type Output;
    /// The values.
    ///
    /// # Errors
    /// [`Error::Overflow`] for a product past `usize`; for an upcast stride ([`Quot`]),
    /// [`Error::StrideDivisibility`] or [`Error::Undecided`] when the factor does not divide it;
    /// for a downcast stride ([`Times`]), [`Error::Undecided`] when it is 1.
    fn resolve(self, da: &DA) -> Result<Self::Output, Error>;
}
impl<DA> Resolve<DA> for UTerm {
    type Output = UTerm;
    #[inline(always)]
    fn resolve(self, _: &DA) -> Result<UTerm, Error> {
        Ok(self)
    }
}
impl<DA, U, B> Resolve<DA> for UInt<U, B> {
    type Output = Self;
    #[inline(always)]
    fn resolve(self, _: &DA) -> Result<Self, Error> {
        Ok(self)
    }
}
impl<DA: Pick<typenum::U0, I>, K: Unsigned, I> Resolve<DA> for Scaled<K, I> {
    type Output = usize;
    #[inline(always)]
    fn resolve(self, da: &DA) -> Result<usize, Error> {
        K::USIZE.checked_mul(da.pick()).ok_or(Error::Overflow { op: "composition" })
    }
}
impl<DA: Pick<typenum::U0, I>, K: Unsigned, I, N: Unsigned> Resolve<DA> for Quot<K, I, N> {
    type Output = usize;
    #[inline(always)]
    fn resolve(self, da: &DA) -> Result<usize, Error> {
        let v = K::USIZE.checked_mul(da.pick()).ok_or(Error::Overflow { op: "upcast" })?;
        upcast_run_time_stride(v, N::USIZE)
    }
}
impl<DA: Pick<typenum::U0, I>, K: Unsigned, I, N: Unsigned> Resolve<DA> for Times<K, I, N> {
    type Output = usize;
    #[inline(always)]
    fn resolve(self, da: &DA) -> Result<usize, Error> {
        let v = K::USIZE.checked_mul(da.pick()).ok_or(Error::Overflow { op: "downcast" })?;
        downcast_run_time_stride(v, N::USIZE)
    }
}
impl<DA> Resolve<DA> for Nil {
    type Output = Nil;
    #[inline(always)]
    fn resolve(self, _: &DA) -> Result<Nil, Error> {
        Ok(self)
    }
}
impl<DA, H: Resolve<DA>, T: Resolve<DA>> Resolve<DA> for Cons<H, T> {
    type Output = Cons<H::Output, T::Output>;
    #[inline(always)]
    fn resolve(self, da: &DA) -> Result<Self::Output, Error> {
        match (self.0.resolve(da), self.1.resolve(da)) {
            (Ok(h), Ok(t)) => Ok(Cons(h, t)),
            // `Undecided` only when no leaf is refused outright: with the values static the
            // operation would refuse those (cute-dyn reports its static twin's refusal).
            (Err(Error::Undecided { .. }), Err(e)) | (Err(e), _) | (_, Err(e)) => Err(e),
        }
    }
}

/// A layout computed on marked strides, its strides resolved against the left operand's `DA`.
pub trait ResolveLayout<DA> {
    /// The layout with run-time strides.
    type Output;
    /// The layout.
    ///
    /// # Errors
    /// [`Error::Overflow`] for a product past `usize`.
    fn resolve_layout(self, da: &DA) -> Result<Self::Output, Error>;
}

/// Static extents, the shapes the partitions mark strides under: `T`, where every leaf of the
/// shape `Self` is static. An operation's other bounds name `Out`, not `T`, so that a run-time
/// extent is the one error that says so. `Out`
/// is threaded through every leaf, so that where a leaf is run-time it is not known at all
/// and the bounds on it wait (a blanket impl would be selected anyway, its `Out` known, and
/// the bounds' own failures reported after the first). `T` is `()` in the operations' bounds
/// (the error then names no layout type); [`Gated`] applies the gate to a type.
#[doc(hidden)]
#[diagnostic::on_unimplemented(
    message = "static extents required: this operation is computed by the type checker (also with run-time strides), and this layout has a run-time ({{expr}}) extent",
    label = "a layout with a run-time extent",
    note = "a CTA's tile has static extents (`local_tile` of the global tensor gives one); otherwise use the cute-dyn operation on `.to_dyn()`"
)]
pub trait StaticExtentsGate<T> {
    /// `T`.
    type Out;
}
/// `T` once the gate `Self` (`()`) is known.
#[doc(hidden)]
pub trait Gated<T> {
    /// `T`.
    type Out;
}
impl<T> Gated<T> for () {
    type Out = T;
}
#[diagnostic::do_not_recommend]
impl<T> StaticExtentsGate<T> for UTerm {
    type Out = T;
}
#[diagnostic::do_not_recommend]
impl<U: Unsigned, B: Bit, T> StaticExtentsGate<T> for UInt<U, B> {
    type Out = T;
}
#[diagnostic::do_not_recommend]
impl<T> StaticExtentsGate<T> for Nil {
    type Out = T;
}
#[diagnostic::do_not_recommend]
impl<H: StaticExtentsGate<T, Out = Y>, R: StaticExtentsGate<Y, Out = Z>, T, Y, Z> StaticExtentsGate<T> for Cons<H, R> {
    type Out = Z;
}

/// The marked stride type of `DA`.
pub type Marked<DA> = <DA as Symbolize<typenum::U0>>::Output;

// A marked stride is a number when it runs: no verdict of its own (upcast's and downcast's
// conditions on it are checked then).
impl<K, I> crate::verdict::Leafwise for Scaled<K, I> {
    type Verdict = crate::verdict::Holds;
}
impl<K, I, N> crate::verdict::Leafwise for Quot<K, I, N> {
    type Verdict = crate::verdict::Holds;
}
impl<K, I, N> crate::verdict::Leafwise for Times<K, I, N> {
    type Verdict = crate::verdict::Holds;
}
