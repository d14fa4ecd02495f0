//! upcast and downcast at the type level (and, for layouts with run-time leaves, with values):
//! re-express a layout for elements `N` times larger or smaller (the same rules as
//! `cute_dyn::upcast` / `downcast`, CuTe C++'s).

use typenum::{Bit, UInt, UTerm, Unsigned, B0, B1, U0, U1};

use crate::arith::{CeilDiv, DivMixed, Divides, EqT, MulMixed, MulT, OrT};
use crate::error::Error;
use crate::gate::Operation;
use crate::int_tuple::{Cons, IntTuple, Nil};
use crate::layout::{Congruent, Layout};
use crate::ops::{DowncastOp, UpcastOp};
use crate::scaled::{downcast_run_time_stride, upcast_run_time_stride, Quot, Scaled, Times};

cute_macros::decimal_condition! {
    /// upcast: each nonzero stride is a multiple or a divisor of the factor. Implemented by
    /// the condition's bit.
    pub trait UpcastDivisibility(stride, factor) {
        message = "stride divisibility condition violated in upcast: stride {stride} vs factor {factor}",
        label = "stride {stride} is neither a multiple nor a divisor of {factor}",
        note = "upcast<N> merges N elements into one: each nonzero stride must be a multiple or a divisor of N",
    }
}

/// The verdict of a downcast of a layout without a stride-1 mode: passes only where
/// [`Missing`] is implemented for it (never; its error is that trait's message). Its parameter
/// is what is missing, [`UnitStrideMode`], so that rustc's notes read as the condition (a
/// where clause on a concrete type that holds for nothing would be rejected as trivially false).
#[derive(Clone, Copy, Default, Debug)]
pub struct NoUnitStride<M>(core::marker::PhantomData<M>);
impl<M> crate::verdict::Settle for NoUnitStride<M> where (): Missing<M> {}

/// A mode of stride 1, which downcast needs.
#[derive(Clone, Copy, Default, Debug)]
pub struct UnitStrideMode;

/// downcast's condition as a verdict reports it: a trait of no impls (rustc lists none).
#[diagnostic::on_unimplemented(
    message = "downcast of a layout without a stride-1 mode",
    label = "downcast<N> splits adjacent elements: the layout needs a mode of stride 1"
)]
pub trait Missing<M> {}

/// downcast's verdict by the unit-stride bit.
pub trait UnitStrideVerdict {
    /// [`Holds`](crate::verdict::Holds) or [`NoUnitStride`].
    type Output;
}
impl UnitStrideVerdict for B1 {
    type Output = crate::verdict::Holds;
}
impl UnitStrideVerdict for B0 {
    type Output = NoUnitStride<UnitStrideMode>;
}

crate::tiler::marked_shape_route!(UpcastOp, DowncastOp);
crate::tiler::mixed_answers!(typed UpcastOp);
crate::tiler::mixed_answers!(typed DowncastOp);

/// The leafwise rewrite of `Op` with factor `N` (implemented by the shape, with its stride).
pub trait Recast<Op, N, D> {
    /// The new shape.
    type S;
    /// The new stride.
    type D;
}
impl<Op, N> Recast<Op, N, Nil> for Nil {
    type S = Nil;
    type D = Nil;
}
impl<Op, N, H: Recast<Op, N, DH>, T: Recast<Op, N, DT>, DH, DT> Recast<Op, N, Cons<DH, DT>> for Cons<H, T> {
    type S = Cons<H::S, T::S>;
    type D = Cons<H::D, T::D>;
}

/// One leaf `s:d`: the rule of each operation, chosen by the stride.
pub trait RecastLeaf<Op, N, S, D> {
    /// The new shape.
    type S;
    /// The new stride.
    type D;
}
/// upcast, stride 0: kept.
impl<N, S> RecastLeaf<UpcastOp, N, S, U0> for B1 {
    type S = S;
    type D = U0;
}
/// upcast, nonzero stride: `ceil(s / ceil(n / d)) : ceil(d / n)`.
impl<N, S, D: UpcastStride<N>> RecastLeaf<UpcastOp, N, S, D> for B0
where
    S: CeilDiv<D::ShapeDivisor>,
{
    type S = <S as CeilDiv<D::ShapeDivisor>>::Output;
    type D = D::Output;
}

/// upcast of a static nonzero stride `Self` by `N` (a compile error unless one divides the
/// other): the new stride `ceil(d / n)`, and `ceil(n / d)`, by which the mode's extent is
/// divided (rounding up).
pub trait UpcastStride<N> {
    /// `ceil(n / d)`.
    type ShapeDivisor: Default + Copy;
    /// `ceil(d / n)`, or [`UpcastDivisibility`]'s failed verdict in its place (the verdict of
    /// the whole upcast is the first such leaf: [`crate::verdict::Leafwise`]).
    type Output: Default + Copy;
}
impl<N, D> UpcastStride<N> for D
where
    D: Divides<N> + CeilDiv<N>,
    N: Divides<D> + CeilDiv<D>,
    <D as Divides<N>>::Output: OrT<<N as Divides<D>>::Output>,
    (<<D as Divides<N>>::Output as OrT<<N as Divides<D>>::Output>>::Output,): UpcastPick<D, N>,
    <N as CeilDiv<D>>::Output: Default + Copy,
{
    type ShapeDivisor = <N as CeilDiv<D>>::Output;
    type Output =
        <(<<D as Divides<N>>::Output as OrT<<N as Divides<D>>::Output>>::Output,) as UpcastPick<D, N>>::Output;
}

/// The new stride where the condition holds (`B1`), its failed verdict where it does not.
pub trait UpcastPick<D, N> {
    /// `ceil(d / n)` or the verdict.
    type Output: Default + Copy;
}
impl<D: CeilDiv<N>, N> UpcastPick<D, N> for (B1,)
where
    <D as CeilDiv<N>>::Output: Default + Copy,
{
    type Output = <D as CeilDiv<N>>::Output;
}
impl<D, N> UpcastPick<D, N> for (B0,)
where
    B0: UpcastDivisibility<D, N>,
    <B0 as UpcastDivisibility<D, N>>::Verdict: Default + Copy,
{
    type Output = <B0 as UpcastDivisibility<D, N>>::Verdict;
}

/// downcast, stride 1: the shape grows.
impl<N, S: MulT<N>, D> RecastLeaf<DowncastOp, N, S, D> for B1 {
    type S = <S as MulT<N>>::Output;
    type D = D;
}
/// downcast, other strides: the stride grows.
impl<N, S, D: MulT<N>> RecastLeaf<DowncastOp, N, S, D> for B0 {
    type S = S;
    type D = <D as MulT<N>>::Output;
}

/// upcast of a marked run-time stride (static extent): the shape is kept and the stride divided
/// by `N` when it runs (cute-dyn's rule for a dynamic stride; its divisibility is checked then).
impl<N: typenum::NonZero, K, I> Recast<UpcastOp, N, Scaled<K, I>> for UTerm {
    type S = UTerm;
    type D = Quot<K, I, N>;
}
impl<N: typenum::NonZero, K, I, U: Unsigned, B: Bit> Recast<UpcastOp, N, Scaled<K, I>> for UInt<U, B> {
    type S = UInt<U, B>;
    type D = Quot<K, I, N>;
}

/// downcast of a marked run-time stride (static extent): a run-time stride is never a unit
/// stride (CuTe C++'s `is_constant<1>`), so the shape is kept and the stride multiplied by `N`
/// when it runs, where a stride of 1 is refused as undecided (cute-dyn's rule).
impl<N, K, I> Recast<DowncastOp, N, Scaled<K, I>> for UTerm {
    type S = UTerm;
    type D = Times<K, I, N>;
}
impl<N, K, I, U: Unsigned, B: Bit> Recast<DowncastOp, N, Scaled<K, I>> for UInt<U, B> {
    type S = UInt<U, B>;
    type D = Times<K, I, N>;
}

/// Which stride picks the special rule: 0 for upcast, 1 for downcast.
pub trait Special {
    /// The stride.
    type D;
}
impl Special for UpcastOp {
    type D = U0;
}
impl Special for DowncastOp {
    type D = U1;
}

macro_rules! leaf_recast {
    ($([$($g:ident: $b:path),*] $s:ty, $d:ty);* $(;)?) => {$(
        /// A leaf pair.
        impl<Op: Special, N, $($g: $b),*> Recast<Op, N, $d> for $s
        where
            $d: EqT<Op::D>,
            <$d as EqT<Op::D>>::Output: RecastLeaf<Op, N, $s, $d>,
        {
            type S = <<$d as EqT<Op::D>>::Output as RecastLeaf<Op, N, $s, $d>>::S;
            type D = <<$d as EqT<Op::D>>::Output as RecastLeaf<Op, N, $s, $d>>::D;
        }
    )*};
}
leaf_recast!(
    [] UTerm, UTerm;
    [U: Unsigned, B: Bit] UTerm, UInt<U, B>;
    [U: Unsigned, B: Bit] UInt<U, B>, UTerm;
    [U: Unsigned, B: Bit, V: Unsigned, C: Bit] UInt<U, B>, UInt<V, C>;
);

/// `B1` when some stride is 1.
pub trait AnyUnit {
    /// The bit.
    type Output: Bit;
}
impl AnyUnit for Nil {
    type Output = B0;
}
impl<H: AnyUnit, T: AnyUnit> AnyUnit for Cons<H, T>
where
    H::Output: OrT<T::Output>,
{
    type Output = <H::Output as OrT<T::Output>>::Output;
}
impl AnyUnit for UTerm {
    type Output = B0;
}
/// A run-time stride is not a unit stride (only a static 1 is).
impl<K, I> AnyUnit for Scaled<K, I> {
    type Output = B0;
}
impl AnyUnit for usize {
    type Output = B0;
}
impl<U: Unsigned, B: Bit> AnyUnit for UInt<U, B>
where
    UInt<U, B>: EqT<U1>,
{
    type Output = <UInt<U, B> as EqT<U1>>::Output;
}

/// The recast of a layout by the factor `Self`, implemented by the factor (a typenum number),
/// so that the type checker looks at it only once it knows the factor.
pub trait RecastBy<Op, L> {
    /// `(recast layout, verdict)` ([`crate::verdict`]).
    type Output;
}
macro_rules! factor {
    ($([$($g:ident: $b:path),*] $n:ty);*) => {$(
        impl<S: Recast<UpcastOp, $n, D>, D, $($g: $b),*> RecastBy<UpcastOp, Layout<S, D>> for $n
        where
            S::D: crate::verdict::Leafwise,
        {
            type Output = (Layout<S::S, S::D>, <S::D as crate::verdict::Leafwise>::Verdict);
        }
        impl<S: Recast<DowncastOp, $n, D>, D: AnyUnit, $($g: $b),*> RecastBy<DowncastOp, Layout<S, D>> for $n
        where
            D::Output: UnitStrideVerdict,
        {
            type Output = (Layout<S::S, S::D>, <D::Output as UnitStrideVerdict>::Output);
        }
    )*};
}
factor!([] UTerm; [U: Unsigned, B: Bit] UInt<U, B>);

impl<L, N: RecastBy<UpcastOp, L>> Operation<L, N> for UpcastOp {
    type Output = N::Output;
}
impl<L, N: RecastBy<DowncastOp, L>> Operation<L, N> for DowncastOp {
    type Output = N::Output;
}

/// The routes of upcast and downcast, one impl each (a blanket impl over the operation would
/// be a candidate for every other operation's route, and rustc would report it there).
macro_rules! recast_routes {
    ($($op:ty),*) => {$(
        /// A static layout (and a marked one, for [`ShapeRoute`](crate::tiler::ShapeRoute)): the
        /// type checker's, routed as the divides are (`Arrange`), so that static extents with
        /// run-time strides take the marked path.
        impl<SA, DA, N, R: Default, V> crate::tiler::Arrange<crate::tiler::Plain, $op, Layout<SA, DA>, N> for B1
        where
            $op: Operation<Layout<SA, DA>, N, Output = (R, V)>,
        {
            type Plan = (crate::ops::Static<R>, V);
        }

        /// A layout with a run-time leaf: the arranged routes (static extents with run-time
        /// strides by the marked path, its verdict the type checker's on the static values;
        /// run-time extents leaf by leaf), a `Result` whose conditions on run-time values are
        /// checked when it runs.
        impl<SA, DA, N, P, V: Default, R> crate::gate::Route<$op, Layout<SA, DA>, N> for B0
        where
            B0: crate::tiler::Arrange<crate::tiler::Plain, $op, Layout<SA, DA>, N, Plan = (P, V)>,
            P: crate::ops::Run<Layout<SA, DA>, N, Output = R>,
        {
            type Output = (R, V);
            #[inline(always)]
            fn route(l: Layout<SA, DA>, n: N) -> Self::Output {
                (P::run(l, n), V::default())
            }
        }

        /// A layout with a run-time extent: leaf by leaf, with values ([`RecastMixed`]).
        impl<SA, DA, N: MixedRecastBy<$op, Layout<SA, DA>>> crate::tiler::Mixed<crate::tiler::Plain, Layout<SA, DA>, N> for $op {
            type Output = Result<N::Output, Error>;
            #[inline(always)]
            fn mixed(l: Layout<SA, DA>, _: N) -> Self::Output {
                N::mixed_recast_by(l)
            }
        }
    )*};
}
recast_routes!(UpcastOp, DowncastOp);

// ------------------------------------------------------------------------------------------
// Run-time extents: the structure comes from the strides alone (a static stride takes its rule
// by its value, a run-time one is divided or multiplied), so each leaf is rewritten with its
// values, cute-dyn's rule leaf by leaf.
// ------------------------------------------------------------------------------------------

/// The leafwise rewrite of `Op` with factor `N`, with values (implemented by the shape, with its
/// stride): a static stride as [`RecastLeaf`] (its conditions compile errors), the extent
/// divided or multiplied when it runs where it is run-time; a run-time stride divided or
/// multiplied when it runs, the extent kept.
pub trait RecastMixed<Op, N, D> {
    /// The new shape.
    type S;
    /// The new stride.
    type D;
    /// Both.
    ///
    /// # Errors
    /// The run-time stride's rule's ([`RunTimeStride`]); `Overflow`.
    fn recast_mixed(self, d: D) -> Result<(Self::S, Self::D), Error>;
}
impl<Op, N> RecastMixed<Op, N, Nil> for Nil {
    type S = Nil;
    type D = Nil;
    #[inline(always)]
    fn recast_mixed(self, _: Nil) -> Result<(Nil, Nil), Error> {
        Ok((Nil, Nil))
    }
}
impl<Op, N, H: RecastMixed<Op, N, DH>, T: RecastMixed<Op, N, DT>, DH, DT> RecastMixed<Op, N, Cons<DH, DT>>
    for Cons<H, T>
{
    type S = Cons<H::S, T::S>;
    type D = Cons<H::D, T::D>;
    #[inline(always)]
    fn recast_mixed(self, d: Cons<DH, DT>) -> Result<(Self::S, Self::D), Error> {
        let ((hs, hd), (ts, td)) = (self.0.recast_mixed(d.0)?, self.1.recast_mixed(d.1)?);
        Ok((Cons(hs, ts), Cons(hd, td)))
    }
}
macro_rules! leaf_recast_mixed {
    ($([$($g:ident: $b:path),*] $s:ty);*) => {$(
        /// Stride 0, either operation: kept (upcast keeps it; downcast's `0 * n` is 0).
        impl<Op, N, $($g: $b),*> RecastMixed<Op, N, UTerm> for $s {
            type S = $s;
            type D = UTerm;
            #[inline(always)]
            fn recast_mixed(self, d: UTerm) -> Result<($s, UTerm), Error> {
                Ok((self, d))
            }
        }
        /// upcast, static nonzero stride: the extent divided by `ceil(n / d)`, rounding up.
        impl<N, V: Unsigned, C: Bit, $($g: $b),*> RecastMixed<UpcastOp, N, UInt<V, C>> for $s
        where
            UInt<V, C>: UpcastStride<N>,
            $s: DivMixed<<UInt<V, C> as UpcastStride<N>>::ShapeDivisor>,
        {
            type S = <$s as DivMixed<<UInt<V, C> as UpcastStride<N>>::ShapeDivisor>>::Ceil;
            type D = <UInt<V, C> as UpcastStride<N>>::Output;
            #[inline(always)]
            fn recast_mixed(self, _: UInt<V, C>) -> Result<(Self::S, Self::D), Error> {
                Ok((DivMixed::checked_ceil_div(self, Default::default())?, Default::default()))
            }
        }
        /// Run-time stride, either operation: the extent kept, the stride divided (upcast) or
        /// multiplied (downcast) when it runs ([`RunTimeStride`]).
        impl<Op: RunTimeStride, N: Unsigned, $($g: $b),*> RecastMixed<Op, N, usize> for $s {
            type S = $s;
            type D = usize;
            #[inline(always)]
            fn recast_mixed(self, d: usize) -> Result<($s, usize), Error> {
                Ok((self, Op::run_time_stride(d, N::USIZE)?))
            }
        }
        /// downcast, static stride: by its bit (`B1`, a unit stride).
        impl<N, V: Unsigned, C: Bit, $($g: $b),*> RecastMixed<DowncastOp, N, UInt<V, C>> for $s
        where
            UInt<V, C>: EqT<U1>,
            (<UInt<V, C> as EqT<U1>>::Output,): DowncastLeaf<N, $s, UInt<V, C>>,
        {
            type S = <(<UInt<V, C> as EqT<U1>>::Output,) as DowncastLeaf<N, $s, UInt<V, C>>>::S;
            type D = <(<UInt<V, C> as EqT<U1>>::Output,) as DowncastLeaf<N, $s, UInt<V, C>>>::D;
            #[inline(always)]
            fn recast_mixed(self, d: UInt<V, C>) -> Result<(Self::S, Self::D), Error> {
                <(<UInt<V, C> as EqT<U1>>::Output,)>::downcast_leaf(self, d)
            }
        }
    )*};
}
leaf_recast_mixed!([] UTerm; [U: Unsigned, B: Bit] UInt<U, B>; [] usize);

/// An operation's rule for a run-time stride `v` and factor `n` (the marked route's too:
/// [`Quot`] and [`Times`] resolve through the same functions).
pub trait RunTimeStride {
    /// The new stride.
    ///
    /// # Errors
    /// upcast: `Undecided` where `v` divides `n` (static, the mode's extent would shrink
    /// instead), `StrideDivisibility` where neither divides the other; downcast: `Undecided`
    /// for `v = 1` (static, the extent would grow instead), `Overflow`.
    fn run_time_stride(v: usize, n: usize) -> Result<usize, Error>;
}
impl RunTimeStride for UpcastOp {
    #[inline(always)]
    fn run_time_stride(v: usize, n: usize) -> Result<usize, Error> {
        upcast_run_time_stride(v, n)
    }
}
impl RunTimeStride for DowncastOp {
    #[inline(always)]
    fn run_time_stride(v: usize, n: usize) -> Result<usize, Error> {
        downcast_run_time_stride(v, n)
    }
}

/// downcast of a static stride, with values: a unit stride (`B1`) multiplies the extent, any
/// other the stride.
pub trait DowncastLeaf<N, S, D> {
    /// The new shape.
    type S;
    /// The new stride.
    type D;
    /// Both.
    ///
    /// # Errors
    /// `Overflow`.
    fn downcast_leaf(s: S, d: D) -> Result<(Self::S, Self::D), Error>;
}
impl<N: Default, S: MulMixed<N>, D> DowncastLeaf<N, S, D> for (B1,) {
    type S = S::Output;
    type D = D;
    #[inline(always)]
    fn downcast_leaf(s: S, d: D) -> Result<(S::Output, D), Error> {
        Ok((s.checked_mul(N::default()).ok_or(Error::Overflow { op: "downcast" })?, d))
    }
}
impl<N, S, D: MulT<N>> DowncastLeaf<N, S, D> for (B0,) {
    type S = S;
    type D = <D as MulT<N>>::Output;
    #[inline(always)]
    fn downcast_leaf(s: S, _: D) -> Result<(S, Self::D), Error> {
        Ok((s, Default::default()))
    }
}

/// upcast or downcast of a layout with run-time extents by the factor `N` (a typenum number):
/// cute-dyn's answer, static flags included. downcast needs a static unit stride (a compile
/// error otherwise, as for static layouts).
pub trait MixedRecast<Op, N> {
    /// The recast layout.
    type Output;
    /// The recast layout.
    ///
    /// # Errors
    /// As [`RecastMixed::recast_mixed`].
    fn mixed_recast(self) -> Result<Self::Output, Error>;
}
impl<Op: RecastRequires<D>, S, D, N> MixedRecast<Op, N> for Layout<S, D>
where
    S: Congruent<D> + RecastMixed<Op, N, D>,
    D: IntTuple,
    // A static stride's condition (upcast's, in place of the stride) is a compile error here.
    S::D: crate::verdict::Leafwise,
    <S::D as crate::verdict::Leafwise>::Verdict: crate::verdict::Pass,
    S::S: Congruent<S::D>,
    S::D: IntTuple,
{
    type Output = Layout<S::S, S::D>;
    #[inline(always)]
    fn mixed_recast(self) -> Result<Self::Output, Error> {
        let (s, d) = (*self.shape()).recast_mixed(*self.stride())?;
        Ok(Layout::new(s, d))
    }
}

/// [`MixedRecast`] implemented by the factor (a typenum number), so that the type checker looks
/// at it only once it knows the factor: with the factor still unknown, the leaves' rules would
/// run typenum's arithmetic on an unknown number (measured: `upcast` of a layout with run-time
/// extents 144 -> 9 million rustc instructions per call).
pub trait MixedRecastBy<Op, L> {
    /// The recast layout.
    type Output;
    /// The recast layout.
    ///
    /// # Errors
    /// As [`MixedRecast::mixed_recast`].
    fn mixed_recast_by(l: L) -> Result<Self::Output, Error>;
}
macro_rules! mixed_factor {
    ($([$($g:ident: $b:path),*] $n:ty);*) => {$(
        impl<Op, L: MixedRecast<Op, $n>, $($g: $b),*> MixedRecastBy<Op, L> for $n {
            type Output = L::Output;
            #[inline(always)]
            fn mixed_recast_by(l: L) -> Result<Self::Output, Error> {
                l.mixed_recast()
            }
        }
    )*};
}
mixed_factor!([] UTerm; [U: Unsigned, B: Bit] UInt<U, B>);

/// What an operation requires of the strides `D` before its leafwise rewrite: nothing for
/// upcast; a static unit stride for downcast (a compile error, [`Missing`]'s, as for
/// static layouts).
pub trait RecastRequires<D> {}
impl<D> RecastRequires<D> for UpcastOp {}
impl<D: AnyUnit> RecastRequires<D> for DowncastOp
where
    D::Output: UnitStrideVerdict,
    <D::Output as UnitStrideVerdict>::Output: crate::verdict::Pass,
{
}

crate::gate::judged_op!(
    /// `upcast<N>(L)`: for elements `N` times larger: a stride-1 mode's size is divided by `N`,
    /// other nonzero strides are divided by `N` (stride-0 modes are kept), computed by the type
    /// checker for static layouts. A stride that is neither a multiple nor a divisor of `N` is a
    /// compile error. A layout with run-time leaves gives a `Result`: each run-time stride is
    /// divided when it runs (a stride that `N` does not divide is
    /// [`Error::StrideDivisibility`](crate::error::Error::StrideDivisibility), or
    /// [`Error::Undecided`](crate::error::Error::Undecided) when it divides `N`: static, its mode's
    /// extent would shrink instead), and so is a run-time extent under a static stride, as
    /// cute-dyn.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, shape, upcast};
    /// // (4,8):(1,4) of 16-bit elements, seen as 32-bit elements
    /// assert_eq!(upcast(layout!((4,8):(1,4)), shape!(2)).to_string(), "(2,8):(1,2)");
    /// // A tile of a row-major global matrix with a run-time leading dimension 1024, read as
    /// // 128-bit vectors of 16-bit elements: the leading dimension counts vectors now.
    /// let ld = 1024;
    /// assert_eq!(upcast(layout!((64,32):({ld},1)), shape!(8))?.to_string(), "(64,4):({128},1)");
    /// let ld = 1001; // rows that do not start on a vector
    /// assert!(upcast(layout!((64,32):({ld},1)), shape!(8)).is_err());
    /// // A column-major matrix of run-time extents, as 8-element vectors (cute-dyn's answer,
    /// // `(8,32):(_1,8)` in the cpp style).
    /// let (m, n) = (64, 32);
    /// assert_eq!(upcast(layout!(({m},{n}):(1,{m})), shape!(8))?.to_string(), "({8},{32}):(1,{8})");
    /// # Ok::<(), cute_static::error::Error>(())
    /// ```
    fn upcast(n: N) by crate::Layout<SA, DA> => UpcastOp, Upcast
);

crate::gate::judged_op!(
    /// `downcast<N>(L)`: for elements `N` times smaller: a stride-1 mode's size is multiplied by
    /// `N`, other strides are multiplied by `N`, computed by the type checker for static layouts.
    /// A layout without a (static) stride-1 mode is a compile error. A layout with run-time
    /// leaves gives a `Result`: a run-time extent under a static unit stride, and a run-time
    /// stride, are multiplied when it runs (only a static 1 is a unit stride, as in CuTe C++); a
    /// run-time stride that is 1 then is
    /// [`Error::Undecided`](crate::error::Error::Undecided) (static, its mode's extent would grow
    /// instead), as cute-dyn.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{downcast, layout, shape};
    /// assert_eq!(downcast(layout!((2,8):(1,2)), shape!(2)).to_string(), "(4,8):(1,4)");
    /// // A column-major tile of 32-bit elements with a run-time leading dimension 64, seen as
    /// // 16-bit elements: twice the rows, and the leading dimension counts the smaller elements.
    /// let ld = 64;
    /// assert_eq!(downcast(layout!((8,4):(1,{ld})), shape!(2))?.to_string(), "(16,4):(1,{128})");
    /// // A unit stride known only when it runs: refused (as a static 1 its extent would grow).
    /// let ld = 1;
    /// let e = downcast(layout!((8,4):(1,{ld})), shape!(2)).unwrap_err();
    /// assert_eq!(e, cute_static::error::Error::Undecided { op: "downcast" });
    /// # Ok::<(), cute_static::error::Error>(())
    /// ```
    fn downcast(n: N) by crate::Layout<SA, DA> => DowncastOp, Downcast
);
