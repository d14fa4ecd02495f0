//! complement at the type level, for static layouts.
//!
//! The same algorithm as `cute_dyn::complement` (CuTe C++'s): the modes of `filter(L)` sorted by
//! stride (the first of equal strides first), each contributing `d / current` elements of stride
//! `current`, then the rest of the cotarget with compact strides, coalesced.

use core::ops::Add;
use typenum::{Bit, UInt, UTerm, Unsigned, B0, B1, U0, U1};

use crate::arith::{CeilDiv, DivMixed, DivT, EqT, IsOne, LeT, MulMixed, MulT};
use crate::coalesce::{CoalesceModes, CoalesceModesBound, ModesToLayout};
use crate::decided::{decide, Decided};
use crate::error::Error;
use crate::gate::{Operation, Route, StaticBit};
use crate::int_tuple::Concat;
use crate::int_tuple::{Cons, IntTuple, Nil};
use crate::layout::LayoutFn;
use crate::layout::{Congruent, Layout};
use crate::modes::{run_time_strides_last, FilterZeros, FlattenModes, Mode, ModeValues, SplitByStride};
use crate::ops::ComplementOp;
use crate::verdict::{First, FirstOf, Holds, Pair, Pass, Terminated};

/// The mode with the smallest stride (the first of equal ones) and the others, in order.
pub trait MinStride: Sized {
    /// The chosen mode.
    type Min;
    /// The rest.
    type Rest;
    /// The chosen mode and the rest, with their run-time values.
    fn min_stride(self) -> (Self::Min, Self::Rest);
}
impl<M> MinStride for Cons<M, Nil> {
    type Min = M;
    type Rest = Nil;
    #[inline(always)]
    fn min_stride(self) -> (M, Nil) {
        (self.0, Nil)
    }
}
impl<S, D, N, T> MinStride for Cons<Mode<S, D>, Cons<N, T>>
where
    Cons<N, T>: MinStride,
    <Cons<N, T> as MinStride>::Min: StrideOf,
    D: LeT<<<Cons<N, T> as MinStride>::Min as StrideOf>::D>,
    (<D as LeT<<<Cons<N, T> as MinStride>::Min as StrideOf>::D>>::Output,): PickMin<Mode<S, D>, Cons<N, T>>,
{
    type Min = <(<D as LeT<<<Cons<N, T> as MinStride>::Min as StrideOf>::D>>::Output,) as PickMin<
        Mode<S, D>,
        Cons<N, T>,
    >>::Min;
    type Rest = <(<D as LeT<<<Cons<N, T> as MinStride>::Min as StrideOf>::D>>::Output,) as PickMin<
        Mode<S, D>,
        Cons<N, T>,
    >>::Rest;
    #[inline(always)]
    fn min_stride(self) -> (Self::Min, Self::Rest) {
        <(<D as LeT<<<Cons<N, T> as MinStride>::Min as StrideOf>::D>>::Output,)>::pick(self.0, self.1)
    }
}

/// The stride of a mode.
pub trait StrideOf {
    /// `d`.
    type D;
}
impl<S, D> StrideOf for Mode<S, D> {
    type D = D;
}

/// Keep the head (`B1`: its stride is the smallest) or the tail's minimum.
pub trait PickMin<M, T: MinStride> {
    /// The chosen mode.
    type Min;
    /// The rest.
    type Rest;
    /// The chosen mode and the rest, with their run-time values.
    fn pick(m: M, t: T) -> (Self::Min, Self::Rest);
}
impl<M, T: MinStride> PickMin<M, T> for (B1,) {
    type Min = M;
    type Rest = T;
    #[inline(always)]
    fn pick(m: M, t: T) -> (M, T) {
        (m, t)
    }
}
impl<M, T: MinStride> PickMin<M, T> for (B0,) {
    type Min = T::Min;
    type Rest = Cons<M, T::Rest>;
    #[inline(always)]
    fn pick(m: M, t: T) -> (T::Min, Cons<M, T::Rest>) {
        let (min, rest) = t.min_stride();
        (min, Cons(m, rest))
    }
}

/// The modes sorted by stride.
pub trait SortByStride {
    /// The sorted list.
    type Output;
    /// The sorted list, with its run-time values.
    fn sort_by_stride(self) -> Self::Output;
}
impl SortByStride for Nil {
    type Output = Nil;
    #[inline(always)]
    fn sort_by_stride(self) -> Nil {
        Nil
    }
}
impl<M, T> SortByStride for Cons<M, T>
where
    Cons<M, T>: MinStride,
    <Cons<M, T> as MinStride>::Rest: SortByStride,
{
    type Output = Cons<<Cons<M, T> as MinStride>::Min, <<Cons<M, T> as MinStride>::Rest as SortByStride>::Output>;
    #[inline(always)]
    fn sort_by_stride(self) -> Self::Output {
        let (min, rest) = self.min_stride();
        Cons(min, rest.sort_by_stride())
    }
}

cute_macros::decimal_condition! {
    /// Complement places the modes one after another: each mode (sorted by stride) starts at
    /// or after the end of the previous ones, which fails where they overlap (a non-injective
    /// layout) or interleave (`(2,2):(6,4)`, injective). Implemented by `current <= stride`.
    pub trait Injective(stride, end) {
        message = "overlapping or interleaved modes in complement: a mode of stride {stride} starts inside the previous modes, which end at {end}",
        label = "complement needs modes that, sorted by stride, do not overlap or interleave",
        note = "sorted by stride, each mode must start at or after the end ({end}) of the modes before it",
    }
}

/// The fold over the sorted modes: `(result modes, current)`.
pub trait ComplementFold<C> {
    /// The result modes.
    type Modes;
    /// The final `current`.
    type Current;
}
impl<C> ComplementFold<C> for Nil {
    type Modes = Nil;
    type Current = C;
}
impl<S, D, T, C> ComplementFold<C> for Cons<Mode<S, D>, T>
where
    C: LeT<D>,
    <C as LeT<D>>::Output: ComplementStep<S, D, T, C>,
{
    type Modes = <<C as LeT<D>>::Output as ComplementStep<S, D, T, C>>::Modes;
    type Current = <<C as LeT<D>>::Output as ComplementStep<S, D, T, C>>::Current;
}

/// One mode of the fold, chosen by the injectivity bit: a mode that starts inside the previous
/// ones ends the fold, the list of modes ending with [`Injective`]'s verdict in place of `Nil`
/// ([`Terminated`]; going on would compute nonsense).
pub trait ComplementStep<S, D, T, C> {
    /// The result modes.
    type Modes;
    /// The final `current`.
    type Current;
}
impl<S, D, T, C> ComplementStep<S, D, T, C> for B1
where
    D: DivT<C> + MulT<S>,
    T: ComplementFold<<D as MulT<S>>::Output>,
{
    type Modes = Cons<Mode<<D as DivT<C>>::Output, C>, <T as ComplementFold<<D as MulT<S>>::Output>>::Modes>;
    type Current = <T as ComplementFold<<D as MulT<S>>::Output>>::Current;
}
impl<S, D, T, C> ComplementStep<S, D, T, C> for B0
where
    B0: Injective<D, C>,
{
    type Modes = <B0 as Injective<D, C>>::Verdict;
    type Current = C;
}

/// A cotarget: an integer or a shape (as `logical_divide` passes `shape(coalesce(A))`): the
/// rest mode `ceil_div(cotarget, current)` with compact strides from `current`, as flat modes.
pub trait Cotarget<C> {
    /// The rest modes.
    type Rest;
}

/// The rest of an integer cotarget; a static 1 gets stride 0 (C++'s compact layouts).
pub trait RestMode<C> {
    /// The mode.
    type Output;
}
impl<R, C> RestMode<C> for R
where
    R: EqT<U1>,
    (IsOne<R>,): RestStride<R, C>,
{
    type Output = <(IsOne<R>,) as RestStride<R, C>>::Output;
}
/// `_1:_0` or `r:c`.
pub trait RestStride<R, C> {
    /// The mode.
    type Output;
}
impl<R, C> RestStride<R, C> for (B1,) {
    type Output = Mode<U1, U0>;
}
impl<R, C> RestStride<R, C> for (B0,) {
    type Output = Mode<R, C>;
}

macro_rules! int_cotarget {
    ($([$($g:ident: $b:path),*] $ty:ty);*) => {$(
        /// An integer cotarget.
        impl<C, $($g: $b),*> Cotarget<C> for $ty
        where
            $ty: CeilDiv<C>,
            <$ty as CeilDiv<C>>::Output: RestMode<C>,
        {
            type Rest = Cons<<<$ty as CeilDiv<C>>::Output as RestMode<C>>::Output, Nil>;
        }
    )*};
}
int_cotarget!([] UTerm; [U: Unsigned, B: Bit] UInt<U, B>);

/// A shape cotarget `(a0, a1, ...)`: `ceil_div` folds left to right (`a_i / rest`, then
/// `rest = ceil(rest / a_i)`), and the all-static result coalesces into its product. Where
/// that product falls short of `ceil(size(cotarget) / current)` (the modes do not divide),
/// the latter, as cute-dyn: CuTe's shorter rest breaks complement's @post.
impl<H, T, C> Cotarget<C> for Cons<H, T>
where
    Cons<H, T>: ShapeCeilDiv<C> + crate::layout::SizeT,
    <Cons<H, T> as crate::layout::SizeT>::Output: CeilDiv<C>,
    <Cons<H, T> as ShapeCeilDiv<C>>::Prod:
        typenum::Max<<<Cons<H, T> as crate::layout::SizeT>::Output as CeilDiv<C>>::Output>,
    typenum::Maximum<
        <Cons<H, T> as ShapeCeilDiv<C>>::Prod,
        <<Cons<H, T> as crate::layout::SizeT>::Output as CeilDiv<C>>::Output,
    >: RestMode<C>,
{
    type Rest = Cons<
        <typenum::Maximum<
            <Cons<H, T> as ShapeCeilDiv<C>>::Prod,
            <<Cons<H, T> as crate::layout::SizeT>::Output as CeilDiv<C>>::Output,
        > as RestMode<C>>::Output,
        Nil,
    >;
}

/// `product(ceil_div(shape, c))` of a flat static shape.
pub trait ShapeCeilDiv<C> {
    /// The product of the per-mode quotients.
    type Prod;
}
impl<C> ShapeCeilDiv<C> for Nil {
    type Prod = U1;
}
impl<H, T, C> ShapeCeilDiv<C> for Cons<H, T>
where
    H: CeilDiv<C> + crate::int_tuple::Leaf,
    C: CeilDiv<H>,
    T: ShapeCeilDiv<<C as CeilDiv<H>>::Output>,
    <H as CeilDiv<C>>::Output: MulT<<T as ShapeCeilDiv<<C as CeilDiv<H>>::Output>>::Prod>,
{
    type Prod = <<H as CeilDiv<C>>::Output as MulT<<T as ShapeCeilDiv<<C as CeilDiv<H>>::Output>>::Prod>>::Output;
}

/// The branch on `filter(L)`: the irreducible `_1:d` (nothing left) or the general case.
pub trait ComplementCase<Modes, Cot> {
    /// `(layout, verdict)` ([`crate::verdict`]).
    type Output;
}
/// Nothing left: all of the cotarget, `make_layout(coalesce(cotarget))`.
impl<Modes, Cot> ComplementCase<Modes, Cot> for (B1,)
where
    Cot: Cotarget<U1>,
    <Cot as Cotarget<U1>>::Rest: CoalesceModes,
    <<Cot as Cotarget<U1>>::Rest as CoalesceModes>::Output: ModesToLayout,
{
    type Output = (<<<Cot as Cotarget<U1>>::Rest as CoalesceModes>::Output as ModesToLayout>::Output, Holds);
}
/// The modes of the fold over the sorted modes, ending with `Nil` ([`Terminated`]).
type FoldList<Modes> = <<<Modes as SortByStride>::Output as ComplementFold<U1>>::Modes as Terminated>::List;
/// The fold's verdict: [`Injective`]'s where a mode starts inside the previous ones.
type FoldVerdict<Modes> = <<<Modes as SortByStride>::Output as ComplementFold<U1>>::Modes as Terminated>::Verdict;

/// The general case's layout, before its @post check.
type General<Modes, Cot> = <<<FoldList<Modes> as crate::int_tuple::Concat<
    <Cot as Cotarget<<<Modes as SortByStride>::Output as ComplementFold<U1>>::Current>>::Rest,
>>::Output as CoalesceModes>::Output as ModesToLayout>::Output;

/// `size(cotarget)`.
type Target<Cot> = <Cot as crate::layout::SizeT>::Output;
/// `cosize(make_layout(L, R)) = cosize(L) + cosize(R) - 1`.
type Completed<Modes, Cot> =
    typenum::Add1<typenum::Sum<<Modes as ModesMaxIndex>::Output, <General<Modes, Cot> as LayoutMaxIndex>::Output>>;
/// `size(cotarget) / size(filter(L))`.
type Quotient<Modes, Cot> = <Target<Cot> as DivT<<Modes as ModesSize>::Output>>::Output;
/// `size(R)` of the general case.
type RSize<Modes, Cot> = <General<Modes, Cot> as LayoutSize>::Output;
/// [`ComplementReaches`]'s verdict.
type ReachesVerdict<Modes, Cot> = <<Target<Cot> as LeT<Completed<Modes, Cot>>>::Output as ComplementReaches<
    Completed<Modes, Cot>,
    Target<Cot>,
>>::Verdict;
/// [`ComplementCovers`]'s verdict.
type CoversVerdict<Modes, Cot> = <<Quotient<Modes, Cot> as LeT<RSize<Modes, Cot>>>::Output as ComplementCovers<
    RSize<Modes, Cot>,
    Quotient<Modes, Cot>,
>>::Verdict;
/// The verdicts of CuTe's two conditions, the first failure first.
type PostVerdict<Modes, Cot> = FirstOf<ReachesVerdict<Modes, Cot>, CoversVerdict<Modes, Cot>>;

impl<Modes, Cot> ComplementCase<Modes, Cot> for (B0,)
where
    Modes: SortByStride,
    <Modes as SortByStride>::Output: ComplementFold<U1>,
    Cot: Cotarget<<<Modes as SortByStride>::Output as ComplementFold<U1>>::Current>,
    <<Modes as SortByStride>::Output as ComplementFold<U1>>::Modes: Terminated,
    FoldList<Modes>: crate::int_tuple::Concat<
        <Cot as Cotarget<<<Modes as SortByStride>::Output as ComplementFold<U1>>::Current>>::Rest,
    >,
    <FoldList<Modes> as crate::int_tuple::Concat<
        <Cot as Cotarget<<<Modes as SortByStride>::Output as ComplementFold<U1>>::Current>>::Rest,
    >>::Output: CoalesceModes,
    <<FoldList<Modes> as crate::int_tuple::Concat<
        <Cot as Cotarget<<<Modes as SortByStride>::Output as ComplementFold<U1>>::Current>>::Rest,
    >>::Output as CoalesceModes>::Output: ModesToLayout,
    // CuTe's @post, which its truncating `d / current` can break (cute-dyn checks the same).
    Cot: crate::layout::SizeT,
    Modes: ModesMaxIndex + ModesSize,
    General<Modes, Cot>: LayoutMaxIndex + LayoutSize,
    <Modes as ModesMaxIndex>::Output: Add<<General<Modes, Cot> as LayoutMaxIndex>::Output>,
    typenum::Sum<<Modes as ModesMaxIndex>::Output, <General<Modes, Cot> as LayoutMaxIndex>::Output>: Add<B1>,
    Target<Cot>: LeT<Completed<Modes, Cot>> + DivT<<Modes as ModesSize>::Output>,
    <Target<Cot> as LeT<Completed<Modes, Cot>>>::Output: ComplementReaches<Completed<Modes, Cot>, Target<Cot>>,
    Quotient<Modes, Cot>: LeT<RSize<Modes, Cot>>,
    <Quotient<Modes, Cot> as LeT<RSize<Modes, Cot>>>::Output: ComplementCovers<RSize<Modes, Cot>, Quotient<Modes, Cot>>,
    ReachesVerdict<Modes, Cot>: First<CoversVerdict<Modes, Cot>>,
    FoldVerdict<Modes>: First<PostVerdict<Modes, Cot>>,
{
    type Output = (General<Modes, Cot>, FirstOf<FoldVerdict<Modes>, PostVerdict<Modes, Cot>>);
}

cute_macros::decimal_condition! {
    /// CuTe's complement @post (1), `cosize(make_layout(L, R)) >= size(cotarget)` (CUTLASS's
    /// `complement.cpp`), which CuTe's algorithm breaks where a stride is not a multiple of the
    /// span of the modes below it (it truncates `d / current`). Implemented by `cotarget <=
    /// cosize`.
    pub trait ComplementReaches(cosize, cotarget) {
        message = "complement would break CuTe's @post cosize(make_layout(L, R)) >= size(cotarget): the cosize is {cosize}, below the cotarget {cotarget}",
        label = "a stride is not a multiple of the span of the modes below it, and CuTe truncates the quotient",
        note = "CuTe's conditions: CUTLASS test/unit/cute/core/complement.cpp; cute-dyn refuses the same input",
    }
}

cute_macros::decimal_condition! {
    /// CuTe's complement @post `size(R) >= size(cotarget) / size(filter(L))` (integer division;
    /// `cute/layout.hpp`). Implemented by `quotient <= size`.
    pub trait ComplementCovers(size, quotient) {
        message = "complement would break CuTe's @post size(R) >= size(cotarget) / size(filter(L)): size(R) is {size}, below {quotient}",
        label = "a stride is not a multiple of the span of the modes below it, and CuTe truncates the quotient",
        note = "@post size(R) >= cotarget / size(filter(L)) (cute/layout.hpp); cute-dyn refuses the same input",
    }
}

/// The product of the shapes of a list of modes.
pub trait ModesSize {
    /// The product.
    type Output;
}
impl ModesSize for Nil {
    type Output = U1;
}
impl<S, D, T: ModesSize> ModesSize for Cons<Mode<S, D>, T>
where
    S: MulT<<T as ModesSize>::Output>,
{
    type Output = <S as MulT<<T as ModesSize>::Output>>::Output;
}

/// `cosize - 1` of the modes of a list: the sum of their `(s - 1) * d`.
pub trait ModesMaxIndex {
    /// The sum.
    type Output;
}
impl ModesMaxIndex for Nil {
    type Output = U0;
}
impl<S, D, T: ModesMaxIndex> ModesMaxIndex for Cons<Mode<S, D>, T>
where
    S: crate::layout::MaxIndexT<D>,
    <S as crate::layout::MaxIndexT<D>>::Output: Add<<T as ModesMaxIndex>::Output>,
{
    type Output = typenum::Sum<<S as crate::layout::MaxIndexT<D>>::Output, <T as ModesMaxIndex>::Output>;
}

/// `cosize(L) - 1` of a static layout.
pub trait LayoutMaxIndex {
    /// The largest index.
    type Output;
}
impl<S: crate::layout::MaxIndexT<D>, D> LayoutMaxIndex for Layout<S, D> {
    type Output = <S as crate::layout::MaxIndexT<D>>::Output;
}

/// `size(L)` of a static layout.
pub trait LayoutSize {
    /// The size.
    type Output;
}
impl<S: crate::layout::SizeT, D> LayoutSize for Layout<S, D> {
    type Output = <S as crate::layout::SizeT>::Output;
}

/// Whether the filtered stack is the lone `_1:d` (everything filtered away).
pub trait Lone {
    /// `B1` for a single mode of static shape 1.
    type Output: Bit;
}
impl<S: crate::modes::Known, D> Lone for Cons<Mode<S, D>, Nil> {
    type Output = S::IsOne;
}
impl<M, N, T> Lone for Cons<M, Cons<N, T>> {
    type Output = B0;
}

/// The filtered, coalesced modes of a layout.
type FilteredModes<S, D> = <<<S as FlattenModes<D>>::Output as FilterZeros>::Output as CoalesceModes>::Output;

/// `ComplementOf<L>`: the complement of `L` by this cotarget where its conditions hold (the
/// divides and products take it; a violation fails here, its error the condition's).
pub trait ComplementOf<L> {
    /// The complement's layout type.
    type Output;
}

/// The type checker's complement of `L` by this cotarget, `(layout, verdict)`
/// ([`crate::verdict`]): implemented by the cotarget (so that the type checker looks at it
/// only once it knows the cotarget).
pub trait ComplementPlan<L> {
    /// `(layout, verdict)`.
    type Out;
}

/// `Complemented<L, C>`: the type of `complement(L, C)`.
pub type Complemented<L, C> = <C as ComplementOf<L>>::Output;

/// The complement's bounds, once for its plan (`(layout, verdict)`, never failing) and once for
/// [`ComplementOf`] (the layout, where the verdict passes): an impl of each on the same bounds
/// rather than one over the other, which had rustc prove the plan again at each use of
/// [`ComplementOf`] in the divides and products (`scripts/compile_time.sh --instructions
/// logical_divide`: 83.5 against 70.3 million per call).
macro_rules! complement_impls {
    ($($tr:ident [$($extra:tt)*] { $($item:tt)* })*) => {$(
        impl<S, D, Cot> $tr<Layout<S, D>> for Cot
        where
            S: FlattenModes<D>,
            <S as FlattenModes<D>>::Output: FilterZeros,
            <<S as FlattenModes<D>>::Output as FilterZeros>::Output: CoalesceModes,
            FilteredModes<S, D>: Lone,
            (<FilteredModes<S, D> as Lone>::Output,): ComplementCase<FilteredModes<S, D>, Cot>,
            CaseOf<S, D, Cot>: Pair,
            <CaseOf<S, D, Cot> as Pair>::First: Default,
            $($extra)*
        {
            $($item)*
        }
    )*};
}
complement_impls! {
    ComplementPlan [] { type Out = CaseOf<S, D, Cot>; }
    ComplementOf [<CaseOf<S, D, Cot> as Pair>::Second: Pass,] { type Output = <CaseOf<S, D, Cot> as Pair>::First; }
}

/// The `(layout, verdict)` of the complement's case.
type CaseOf<S, D, Cot> = <(<FilteredModes<S, D> as Lone>::Output,) as ComplementCase<FilteredModes<S, D>, Cot>>::Output;

/// `complement(L, cotarget)`: the layout of the indices `L` does not reach, ordered, up to the
/// cotarget (an integer or a shape), computed by the type checker for static layouts. A
/// run-time `usize` cotarget ([`ComplementDyn`]) or a layout with run-time leaves
/// ([`ComplementMixed`]) gives a `Result`, its conditions on run-time values checked when it
/// runs. Where
/// CuTe's algorithm would break its @post `size(R) >= cotarget / size(filter(L))` (a stride
/// that is not a multiple of the span below it), a compile error, as cute-dyn refuses it.
///
/// # Examples
/// ```
/// use cute_static::{complement, layout, shape};
/// // CuTe docs
/// assert_eq!(complement(layout!(4:1), shape!(24)).to_string(), "6:4");
/// assert_eq!(complement(layout!(6:4), shape!(24)).to_string(), "4:1");
/// assert_eq!(complement(layout!((4,6):(1,4)), shape!(24)).to_string(), "1:0");
/// assert_eq!(complement(layout!(4:2), shape!(24)).to_string(), "(2,3):(1,8)");
/// assert_eq!(complement(layout!((2,4):(1,6)), shape!(24)).to_string(), "3:2");
/// assert_eq!(complement(layout!((2,2):(1,6)), shape!(24)).to_string(), "(3,2):(2,12)");
/// ```
#[inline(always)]
pub fn complement<L, Cot, V, R>(l: L, cotarget: Cot) -> R
where
    L: crate::ops::Plan<ComplementOp, Cot, Out = (R, V)>,
    V: Pass,
    R: crate::gate::Produce,
{
    R::produce(move || l.plan(cotarget).0)
}

crate::gate::judged_method!(complement, ComplementOp, Complement, (cotarget: Cot));

/// The operation as a trait: one bound in generic code; the cotarget a static integer or shape,
/// or a run-time `usize` (then a `Result`, [`ComplementDyn`]); a layout with run-time leaves
/// takes an integer or a shape (then a `Result`, [`ComplementMixed`]), and so does a static
/// layout by a shape with run-time leaves (a shape's nesting does not change the answer: its
/// leaves are the cotarget).
///
/// # Examples
/// ```
/// use cute_static::{layout, shape, Complement};
/// // complement(4:2, 24) (CuTe docs) with the cotarget known at run time: the rest is run-time.
/// let n = 24usize;
/// assert_eq!(layout!(4:2).complement(n)?.to_string(), "(2,{3}):(1,8)");
/// // complement((2,n):(1,6), (4,6)) with n = 3 known at run time (cute-dyn's answer, printed
/// // `(_3,2):(_2,18)` in the cpp style): the rest ceil_div((4,6), 18) = (1,2), run-time.
/// let n = 3usize;
/// assert_eq!(layout!((2,{n}):(1,6)).complement(shape!((4,6)))?.to_string(), "(3,{2}):(2,{18})");
/// # Ok::<(), cute_static::error::Error>(())
/// ```
impl<SA, DA, Cot: ComplementBy<Layout<SA, DA>, Output = O>, O> crate::ops::Plan<ComplementOp, Cot> for Layout<SA, DA> {
    type Out = O;
    #[inline(always)]
    fn plan(self, cotarget: Cot) -> O {
        cotarget.complement_by(self)
    }
}

/// `complement(L, self)` by the kind of cotarget (implemented by it, so that the type checker
/// looks at it only once it knows the cotarget): a static integer or shape ([`Route`]),
/// or a run-time `usize` ([`RunTimeCotarget`]).
pub trait ComplementBy<L> {
    /// `(complement, verdict)` ([`crate::verdict`]).
    type Output;
    /// The complement.
    fn complement_by(self, l: L) -> Self::Output;
}
macro_rules! static_cotarget {
    ($([$($g:ident: $b:path),*] $ty:ty);*) => {$(
        impl<SA, DA, R, $($g: $b),*> ComplementBy<Layout<SA, DA>> for $ty
        where
            Layout<SA, DA>: StaticBit,
            <Layout<SA, DA> as StaticBit>::Output: Route<ComplementOp, Layout<SA, DA>, $ty, Output = R>,
        {
            type Output = R;
            #[inline(always)]
            fn complement_by(self, l: Layout<SA, DA>) -> R {
                <<Layout<SA, DA> as StaticBit>::Output as Route<ComplementOp, Layout<SA, DA>, $ty>>::route(l, self)
            }
        }
    )*};
}
static_cotarget!([] typenum::UTerm; [U: Unsigned, B: Bit] UInt<U, B>);

/// A shape cotarget, by both operands' [`StaticBit`]: all static, the type checker's complement
/// ([`Route`]); a run-time leaf in the layout or the shape, the mixed complement of the
/// shape's leaves (cute-dyn's: the nesting of a shape does not change the answer), a `Result`.
impl<SA, DA, H: Copy, T: Copy, G, R> ComplementBy<Layout<SA, DA>> for Cons<H, T>
where
    Cons<Layout<SA, DA>, Cons<Cons<H, T>, Nil>>: StaticBit<Output = G>,
    G: ShapeCotarget<Layout<SA, DA>, Cons<H, T>, Output = R>,
{
    type Output = R;
    #[inline(always)]
    fn complement_by(self, l: Layout<SA, DA>) -> R {
        G::complement(l, self)
    }
}
/// A shape cotarget by both operands' [`StaticBit`] (see its [`ComplementBy`] impl).
pub trait ShapeCotarget<L, Cot> {
    /// The complement's type.
    type Output;
    /// The complement.
    fn complement(l: L, cotarget: Cot) -> Self::Output;
}
impl<L, Cot, R> ShapeCotarget<L, Cot> for B1
where
    B1: Route<ComplementOp, L, Cot, Output = R>,
{
    type Output = R;
    #[inline(always)]
    fn complement(l: L, cotarget: Cot) -> R {
        <B1 as Route<ComplementOp, L, Cot>>::route(l, cotarget)
    }
}
impl<L: LayoutFn, Cot: IntTuple + Copy, F, Leaves, R> ShapeCotarget<L, Cot> for B0
where
    Cot: FlattenModes<Cot, Output = F>,
    F: crate::modes::ModeShapes<Output = Leaves>,
    Leaves: ComplementMixedBy<L, Output = R>,
{
    type Output = (Result<Decided<R>, Error>, Holds);
    #[inline(always)]
    fn complement(l: L, cotarget: Cot) -> Self::Output {
        // The shape's leaves, paired with themselves to reuse the flattening of modes.
        let typed = cotarget.flatten_modes(&cotarget).mode_shapes().complement_mixed_by(l);
        (decide!(typed, || cute_dyn::complement(&l.to_dyn()?, &cotarget.to_dyn()?)), Holds)
    }
}

/// A run-time cotarget of a static layout.
impl<SA, DA> ComplementBy<Layout<SA, DA>> for usize
where
    Layout<SA, DA>: StaticBit,
    <Layout<SA, DA> as StaticBit>::Output: RunTimeCotarget<Layout<SA, DA>>,
{
    type Output = <<Layout<SA, DA> as StaticBit>::Output as RunTimeCotarget<Layout<SA, DA>>>::Output;
    #[inline(always)]
    fn complement_by(self, l: Layout<SA, DA>) -> Self::Output {
        <<Layout<SA, DA> as StaticBit>::Output as RunTimeCotarget<Layout<SA, DA>>>::complement(l, self)
    }
}
/// A static cotarget of a layout with run-time leaves ([`Route`]'s `B0`; every leaf static,
/// `B1`, is the type checker's [`ComplementOp`]): computed when it runs ([`ComplementMixed`]).
macro_rules! mixed_static_cotarget {
    ($([$($g:ident: $b:path),*] $ty:ty);*) => {$(
        impl<L: ComplementMixed<$ty, Output = R> + LayoutFn, R, $($g: $b),*> Route<ComplementOp, L, $ty> for B0 {
            // (result, verdict): the conditions are checked when it runs.
            type Output = (Result<Decided<R>, Error>, Holds);
            #[inline(always)]
            fn route(l: L, cotarget: $ty) -> Self::Output {
                (decide!(l.complement_mixed(cotarget), || cute_dyn::complement(&l.to_dyn()?, &cotarget.to_dyn()?)), Holds)
            }
        }
    )*};
}
mixed_static_cotarget!([] UTerm; [U: Unsigned, B: Bit] UInt<U, B>);
/// A run-time cotarget, by the layout's [`StaticBit`]: a static layout's complement
/// ([`ComplementDyn`]), or a layout with run-time leaves' ([`ComplementMixed`]).
pub trait RunTimeCotarget<L> {
    /// The complement's type.
    type Output;
    /// The complement.
    fn complement(l: L, cotarget: usize) -> Self::Output;
}
impl<L: ComplementDyn<Output = R>, R> RunTimeCotarget<L> for B1 {
    type Output = (Result<R, Error>, Holds);
    #[inline(always)]
    fn complement(l: L, cotarget: usize) -> Self::Output {
        (l.complement_dyn(cotarget), Holds)
    }
}
impl<L: ComplementMixed<usize, Output = R> + LayoutFn, R> RunTimeCotarget<L> for B0 {
    type Output = (Result<Decided<R>, Error>, Holds);
    #[inline(always)]
    fn complement(l: L, cotarget: usize) -> Self::Output {
        (decide!(l.complement_mixed(cotarget), || cute_dyn::complement(&l.to_dyn()?, &cotarget.to_dyn()?)), Holds)
    }
}

/// `ceil_div(shape, L)` (CuTe C++ `layout.hpp`): the shape of the tiles of `L` that cover
/// `shape`, `shape(complement(L, shape))`, computed by the type checker.
///
/// # Examples
/// ```
/// use cute_static::{ceil_div, layout, shape, Show};
/// // A (2,2):(1,8) tile over an (8,6) shape: (4,3) tiles (CuTe C++ 4.2 prints (_4,_3)).
/// assert_eq!(Show(&ceil_div(shape!((8,6)), layout!((2,2):(1,8)))).to_string(), "(4,3)");
/// ```
#[inline(always)]
pub fn ceil_div<Cot, L, S, D>(shape: Cot, l: L) -> S
where
    L: crate::ops::Complement<Cot, Output = Layout<S, D>>,
    S: crate::layout::Congruent<D>,
    D: IntTuple,
{
    *l.complement(shape).shape()
}

/// `cosize(L)` as a typenum number.
pub type CosizeT<S, D> = <<S as crate::layout::MaxIndexT<D>>::Output as core::ops::Add<B1>>::Output;

crate::gate::routed_op!(
    /// `complement(L)`: the complement up to `cosize(filter(L))` (CuTe's one-argument
    /// `complement`).
    ///
    /// Static layouts: computed by the type checker, every condition a compile error, as
    /// [`complement`]. A layout with run-time leaves: a `Result`, equal to cute-dyn's
    /// `complement_cosize`: the cosize is computed as cute-dyn's (static exactly where it is), then
    /// the complement up to it, its conditions checked when it runs as [`complement`]'s.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{complement_cosize, layout};
    /// // cosize(4:2) is 7: the complement fills the odd gaps, 2:1 (as CuTe C++'s complement(4:2))
    /// assert_eq!(complement_cosize(layout!(4:2)).to_string(), "2:1");
    /// assert_eq!(complement_cosize(layout!((2,2):(1,6))).to_string(), "3:2");
    /// // The same with the extent run-time, n = 2 (the definition, by hand): the cotarget
    /// // 1 + (n-1)*1 + 1*6 = 8 is run-time; 2:6 leaves a gap of 6/n = 3 at stride n, then the rest
    /// // ceil(8 / (2*6)) = 1 at stride 12. Run-time where n is involved, and a run-time 1 is kept
    /// // (as cute-dyn and the DSL keep it); C++'s static answer above drops it.
    /// let n = 2;
    /// assert_eq!(complement_cosize(layout!(({n},2):(1,6)))?.to_string(), "({3},{1}):({2},12)");
    /// # Ok::<(), cute_static::error::Error>(())
    /// ```
    fn complement_cosize() => ComplementCosizeOp, ComplementCosize
);

/// `complement(L)` (up to the cosize), as an operation marker: every leaf static, the type
/// checker's complement up to `cosize(L)` ([`Route`]'s `B1`).
#[derive(Clone, Copy, Default, Debug)]
pub struct ComplementCosizeOp;
impl<S, D, R, V> Operation<Layout<S, D>, ()> for ComplementCosizeOp
where
    S: crate::layout::MaxIndexT<D>,
    <S as crate::layout::MaxIndexT<D>>::Output: core::ops::Add<B1>,
    ComplementOp: Operation<Layout<S, D>, CosizeT<S, D>, Output = (R, V)>,
    V: Pass,
{
    type Output = R;
}
impl<S, D, FS, FD, C, R> Route<ComplementCosizeOp, Layout<S, D>, ()> for B0
where
    Layout<S, D>: Copy
        + crate::coalesce::Filter<Output = Layout<FS, FD>>
        + crate::ops::Complement<C, Output = Result<Decided<R>, Error>>,
    FS: crate::layout::CosizeFold<FD, U1, Output = C>,
{
    type Output = Result<Decided<R>, Error>;
    #[inline(always)]
    fn route(l: Layout<S, D>, _: ()) -> Self::Output {
        let (fs, fd) = crate::coalesce::Filter::filter(l).into_parts();
        let cosize = fs.cosize_fold(&fd, U1::default()).ok_or(Error::Overflow { op: "cosize" })?;
        crate::ops::Complement::complement(l, cosize)
    }
}

// ------------------------------------------------------------------------------------------
// A run-time cotarget: the rest of a layout with run-time extents, as `logical_divide` needs.
// ------------------------------------------------------------------------------------------

/// `complement(L, cotarget)` of a static layout and a run-time integer cotarget: the static
/// modes as for a static cotarget, then the rest `ceil_div(cotarget, current)` (run-time, never
/// provably 1) of stride `current`, coalesced: cute-dyn's answer, static flags included. Its
/// @post conditions depend on the cotarget's value and are checked when it runs; the layout's
/// own conditions (injectivity) are still compile errors.
///
/// # Examples
/// ```
/// use cute_static::{complement::ComplementDyn, layout};
/// // CuTe docs, complement(4:2, 24), with the cotarget known only at run time
/// let r = layout!(4:2).complement_dyn(24)?;
/// assert_eq!(r.to_string(), "(2,{3}):(1,8)");
/// assert_eq!(layout!(4:1).complement_dyn(24)?.to_string(), "{6}:4");
/// // 4:3 starts inside the span 2 of 2:1: CuTe truncates 3/2 to 1, and R = 2:12 covers
/// // size(R) * size(L) = 16 < 24 (cute-dyn refuses it too).
/// assert!(layout!((2,4):(1,3)).complement_dyn(24).is_err());
/// # Ok::<(), cute_static::error::Error>(())
/// ```
pub trait ComplementDyn {
    /// The complement's type.
    type Output;
    /// The complement up to `cotarget`.
    ///
    /// # Errors
    /// [`Error::Postcondition`] where CuTe's answer would not reach the cotarget;
    /// [`Error::Overflow`].
    fn complement_dyn(&self, cotarget: usize) -> Result<Self::Output, Error>;
}

impl<S, D, RS, RD> ComplementDyn for Layout<S, D>
where
    S: Congruent<D> + FlattenModes<D> + Default,
    D: IntTuple + Default,
    <S as FlattenModes<D>>::Output: FilterZeros,
    <<S as FlattenModes<D>>::Output as FilterZeros>::Output: CoalesceModes,
    FilteredModes<S, D>: Lone + ModesSize,
    <FilteredModes<S, D> as ModesSize>::Output: Unsigned,
    (<FilteredModes<S, D> as Lone>::Output,): ComplementDynCase<FilteredModes<S, D>, Output = Layout<RS, RD>>,
    Layout<RS, RD>: Spans,
{
    type Output = Layout<RS, RD>;
    fn complement_dyn(&self, cotarget: usize) -> Result<Layout<RS, RD>, Error> {
        let r = <(<FilteredModes<S, D> as Lone>::Output,)>::build(cotarget)?;
        let f_size = <<FilteredModes<S, D> as ModesSize>::Output as Unsigned>::USIZE;
        check_post(self.spans(), r.spans(), f_size, cotarget)?;
        Ok(r)
    }
}

/// The branch on `filter(L)` for a run-time cotarget, as [`ComplementCase`].
pub trait ComplementDynCase<Modes> {
    /// The layout.
    type Output;
    /// The layout for the cotarget.
    ///
    /// # Errors
    /// [`Error::DivisionByZero`] where the modes end at 0 (a mode of shape 0).
    fn build(cotarget: usize) -> Result<Self::Output, Error>;
}

/// Nothing left: all of the cotarget, `cotarget:1`.
impl<Modes> ComplementDynCase<Modes> for (B1,) {
    type Output = Layout<usize, U1>;
    fn build(cotarget: usize) -> Result<Self::Output, Error> {
        Ok(Layout::new(cotarget, U1::default()))
    }
}

/// The static modes of the fold, then the run-time rest.
type DynModes<Modes> = <FoldList<Modes> as crate::int_tuple::Concat<
    Cons<Mode<usize, <<Modes as SortByStride>::Output as ComplementFold<U1>>::Current>, Nil>,
>>::Output;

impl<Modes> ComplementDynCase<Modes> for (B0,)
where
    Modes: SortByStride,
    <Modes as SortByStride>::Output: ComplementFold<U1>,
    <<Modes as SortByStride>::Output as ComplementFold<U1>>::Modes: Terminated,
    // The static modes' condition (injectivity) fails here, with its numbers.
    FoldVerdict<Modes>: Pass,
    FoldList<Modes>: Default
        + crate::int_tuple::Concat<
            Cons<Mode<usize, <<Modes as SortByStride>::Output as ComplementFold<U1>>::Current>, Nil>,
        >,
    <<Modes as SortByStride>::Output as ComplementFold<U1>>::Current: Unsigned + Default + Copy,
    DynModes<Modes>: CoalesceModes,
    <DynModes<Modes> as CoalesceModes>::Output: ModesToLayout,
{
    type Output = <<DynModes<Modes> as CoalesceModes>::Output as ModesToLayout>::Output;
    fn build(cotarget: usize) -> Result<Self::Output, Error> {
        type Cur<M> = <<M as SortByStride>::Output as ComplementFold<U1>>::Current;
        // A mode of shape 0 ends the modes at 0 (cute-dyn's ceil_div refuses the same).
        let cur = <Cur<Modes> as Unsigned>::USIZE;
        if cur == 0 {
            return Err(Error::DivisionByZero { op: "ceil_div" });
        }
        let rest = cotarget.div_ceil(cur);
        let modes = FoldList::<Modes>::default();
        Ok(modes.concat(Cons(Mode(rest, Cur::<Modes>::default()), Nil)).coalesce_modes().to_layout())
    }
}

/// CuTe's @post conditions of complement that need no enumeration (cute-dyn checks the same),
/// on the values: `cosize(make_layout(L, R)) >= size(cotarget)` (CUTLASS's `complement.cpp`)
/// and `size(R) >= size(cotarget) / size(filter(L))` (`cute/layout.hpp`), given `(size,
/// cosize)` of `L` and `R` (`None`: an overflow).
#[inline]
fn check_post(
    l: Option<(usize, usize)>,
    r: Option<(usize, usize)>,
    filtered_size: usize,
    cotarget: usize,
) -> Result<(), Error> {
    let post = |condition| Error::Postcondition { op: "complement", condition };
    let overflow = Error::Overflow { op: "complement" };
    let ((_, l_cosize), (r_size, r_cosize)) = l.zip(r).ok_or(overflow)?;
    // cosize(make_layout(L, R)) = cosize(L) + cosize(R) - 1
    if l_cosize.checked_add(r_cosize).ok_or(overflow)? - 1 < cotarget {
        return Err(post("cosize(make_layout(L, R)) >= size(cotarget)"));
    }
    if filtered_size > 0 && r_size < cotarget / filtered_size {
        return Err(post("size(R) >= size(cotarget) / size(filter(L))"));
    }
    Ok(())
}

/// `(size, cosize)` of a layout, `None` when one overflows.
pub trait Spans {
    /// `(size, cosize)`.
    fn spans(&self) -> Option<(usize, usize)>;
}
impl<S: Congruent<D>, D: IntTuple> Spans for Layout<S, D> {
    #[inline(always)]
    fn spans(&self) -> Option<(usize, usize)> {
        self.checked_size().zip(self.checked_cosize())
    }
}

// ------------------------------------------------------------------------------------------
// A layout with run-time leaves. The structure follows cute-dyn's rule (a branch on a value
// only where it is static); the modes are sorted by the type checker where their strides are
// static (or there is one), otherwise in an assumed order checked when it runs
// ([`SortedModes`]); the values and the conditions on run-time values are computed when it
// runs.
// ------------------------------------------------------------------------------------------

/// `complement(L, cotarget)` of a layout with run-time leaves, a static or run-time integer or a flat shape
/// cotarget: the [`Complement`](crate::Complement) trait's route for such layouts.
///
/// Where a run-time value decides the structure, [`Error::Undecided`]: a run-time extent that
/// is 1 when it runs (cute-dyn then skips the mode, a structure no type fixes), a run-time
/// stride that is 0 (the static twin's mode would be filtered away), or run-time strides
/// among several modes that do not sort last ([`SortedModes`]). (The `Complement` trait then
/// answers with cute-dyn's run-time structure, a [`Decided::RunTime`].) Conditions on static
/// values (injectivity between static strides) are compile errors.
///
/// # Examples
/// ```
/// use cute_static::{layout, Complement};
/// // CuTe docs: complement((2,2):(1,6), 24) is (3,2):(2,12); with the second extent run-time,
/// // what follows it is run-time.
/// let n = 2usize;
/// assert_eq!(layout!((2,{n}):(1,6)).complement(typenum::U24::default())?.to_string(), "(3,{2}):(2,{12})");
/// // One mode with a run-time stride: complement(4:2, 24) is (2,3):(1,8).
/// let d = 2usize;
/// assert_eq!(layout!(4:{d}).complement(24usize)?.to_string(), "({2},{3}):(1,{8})");
/// // A tile with a run-time leading dimension 64 in a cotarget of 4096 (cute-dyn's answer:
/// // every stride is run-time once a run-time one is among those sorted).
/// let ld = 64usize;
/// assert_eq!(layout!((8,64):(1,{ld})).complement(4096usize)?.to_string(), "({1},{8},{1}):(1,{8},{4096})");
/// # Ok::<(), cute_static::error::Error>(())
/// ```
pub trait ComplementMixed<Cot>: Sized {
    /// The complement's type.
    type Output;
    /// The complement.
    ///
    /// # Errors
    /// `Undecided` (above), `NonInjective`, `Postcondition` (CuTe's answer would not reach the
    /// cotarget), `DivisionByZero` (a run-time extent 0), `Overflow`.
    fn complement_mixed(self, cotarget: Cot) -> Result<Self::Output, Error> {
        let (r, post) = self.complement_mixed_unchecked(cotarget)?;
        post.map(|()| r)
    }
    /// The complement by CuTe's algorithm, and the verdict of its @post apart: what a product
    /// takes, which is judged by its own definition instead.
    ///
    /// # Errors
    /// As [`ComplementMixed::complement_mixed`], but for `Postcondition`, which is the
    /// verdict's.
    fn complement_mixed_unchecked(self, cotarget: Cot) -> Result<(Self::Output, Result<(), Error>), Error>;
}

// Each intermediate type is a parameter bound once by an associated-type equality: a
// projection named in several bounds is normalized once per bound.
impl<S, D, Cot, F, G, M, One, R> ComplementMixed<Cot> for Layout<S, D>
where
    S: Congruent<D> + FlattenModes<D, Output = F>,
    D: IntTuple,
    Cot: IntTuple + Copy,
    F: FilterZeros<Output = G>,
    G: CoalesceModesBound<Output = M>,
    M: Lone<Output = One> + ModeValues,
    (One,): MixedCase<M, Cot, Output = R>,
    R: Spans,
{
    type Output = R;
    #[inline(always)]
    fn complement_mixed_unchecked(self, cotarget: Cot) -> Result<(R, Result<(), Error>), Error> {
        let filtered = self.flat_modes().filter_zeros().coalesce_modes_bound();
        if decided_on_values(&filtered) {
            return Err(Error::Undecided { op: "complement" });
        }
        let f_size = checked_size(&filtered).ok_or(Error::Overflow { op: "complement" })?;
        let r = <(One,)>::case(filtered, cotarget)?;
        // Where every `d / current` of the fold is exact and the rest is one mode
        // `ceil(cotarget / current)`, the modes of `filter(L)` and `R` interleave into a compact
        // layout of size `current * ceil(cotarget / current) >= cotarget` (each pair
        // `(d/c):c, s:d` spans `s*d - c`, a telescoping sum), so both conditions hold.
        if <(One,) as MixedCase<M, Cot>>::POST_HOLDS {
            return Ok((r, Ok(())));
        }
        let cotarget = cotarget.checked_product().ok_or(Error::Overflow { op: "complement" })?;
        match check_post(self.spans(), r.spans(), f_size, cotarget) {
            Err(e @ Error::Postcondition { .. }) => Ok((r, Err(e))),
            post => post.map(|()| (r, Ok(()))),
        }
    }
}

/// [`ComplementMixed`] implemented by the cotarget, so that the type checker looks at it only
/// once it knows the cotarget (a shape cotarget still unknown would have it try lists of every
/// length, and overflow).
pub trait ComplementMixedBy<L> {
    /// The complement's type.
    type Output;
    /// The complement.
    ///
    /// # Errors
    /// As [`ComplementMixed::complement_mixed`].
    fn complement_mixed_by(self, l: L) -> Result<Self::Output, Error>;
}
impl<L: ComplementMixed<Cot>, Cot> ComplementMixedBy<L> for Cot {
    type Output = L::Output;
    #[inline(always)]
    fn complement_mixed_by(self, l: L) -> Result<Self::Output, Error> {
        l.complement_mixed(self)
    }
}

/// Whether a run-time value decides complement's structure: a run-time extent 1 (cute-dyn
/// skips the mode) or a run-time stride 0 (the static twin's filter drops it).
fn decided_on_values(modes: &impl ModeValues) -> bool {
    let mut decided = false;
    modes.each_mode(&mut |s, d, s_static, d_static| decided |= (!s_static && s == 1) || (!d_static && d == 0));
    decided
}

/// The product of the extents, `None` on overflow.
fn checked_size(modes: &impl ModeValues) -> Option<usize> {
    let mut size = Some(1usize);
    modes.each_mode(&mut |s, _, _, _| size = size.and_then(|x| x.checked_mul(s)));
    size
}

/// The branch on the filtered modes, as [`ComplementCase`], with the values.
pub trait MixedCase<Modes, Cot> {
    /// The layout.
    type Output;
    /// Whether CuTe's @post conditions hold by construction (see [`ComplementMixed`]'s impl).
    const POST_HOLDS: bool;
    /// The layout.
    ///
    /// # Errors
    /// As [`ComplementMixed::complement_mixed`].
    fn case(modes: Modes, cotarget: Cot) -> Result<Self::Output, Error>;
}

/// Nothing left (every mode filtered away): all of the cotarget ([`LoneCotarget`], implemented
/// by it, so that the type checker looks at it only once it knows the cotarget: a shape
/// cotarget still unknown would have it try lists of every length, and overflow).
impl<Modes, Cot: LoneCotarget<Modes>> MixedCase<Modes, Cot> for (B1,) {
    type Output = Cot::Output;
    const POST_HOLDS: bool = false;
    #[inline(always)]
    fn case(modes: Modes, cotarget: Cot) -> Result<Self::Output, Error> {
        cotarget.lone(modes)
    }
}

/// All of a cotarget, as a layout (implemented by the cotarget): what the complement of modes
/// that filter away entirely is.
pub trait LoneCotarget<Modes> {
    /// The layout.
    type Output;
    /// The layout.
    ///
    /// # Errors
    /// `Overflow`.
    fn lone(self, modes: Modes) -> Result<Self::Output, Error>;
}
/// A static integer: as for a static layout.
macro_rules! lone_static_cotarget {
    ($([$($g:ident: $b:path),*] $ty:ty);*) => {$(
        impl<Modes, R: Default, $($g: $b),*> LoneCotarget<Modes> for $ty
        where
            // Nothing left: no condition can fail (`Holds`).
            (B1,): ComplementCase<Modes, $ty, Output = (R, Holds)>,
        {
            type Output = R;
            #[inline(always)]
            fn lone(self, _: Modes) -> Result<Self::Output, Error> {
                Ok(Default::default())
            }
        }
    )*};
}
lone_static_cotarget!([] UTerm; [U: Unsigned, B: Bit] UInt<U, B>);
/// A run-time integer: `cotarget:1`.
impl<Modes> LoneCotarget<Modes> for usize {
    type Output = Layout<usize, U1>;
    #[inline(always)]
    fn lone(self, _: Modes) -> Result<Self::Output, Error> {
        Ok(Layout::new(self, U1::default()))
    }
}
/// A shape of one leaf: that integer's.
impl<Modes, X: LoneCotarget<Modes>> LoneCotarget<Modes> for Cons<X, Nil> {
    type Output = X::Output;
    #[inline(always)]
    fn lone(self, modes: Modes) -> Result<Self::Output, Error> {
        self.0.lone(modes)
    }
}
/// A flat shape: its adjacent leaves of one kind merged (cute-dyn's `coalesce_leaves`), with
/// compact strides.
impl<Modes, X, Y, T> LoneCotarget<Modes> for Cons<X, Cons<Y, T>>
where
    Cons<X, Cons<Y, T>>: MergeLeaves,
    <Cons<X, Cons<Y, T>> as MergeLeaves>::Output: CompactModes<U1>,
    <<Cons<X, Cons<Y, T>> as MergeLeaves>::Output as CompactModes<U1>>::Output: ModesToLayout,
{
    type Output = <<<Cons<X, Cons<Y, T>> as MergeLeaves>::Output as CompactModes<U1>>::Output as ModesToLayout>::Output;
    #[inline(always)]
    fn lone(self, _: Modes) -> Result<Self::Output, Error> {
        Ok(self.merge_leaves()?.compact_modes(U1::default())?.to_layout())
    }
}

/// The general case: the modes sorted by stride, folded, the rest of the cotarget appended,
/// coalesced. (Each intermediate type a parameter bound once: see [`ComplementMixed`]'s impl.)
impl<Modes, Cot, T, Sorted, Folded, Current, Rest, R> MixedCase<Modes, Cot> for (B0,)
where
    Modes: StridesStatic<Output = T>,
    (T,): SortedModes<Modes, Output = Sorted>,
    Sorted: ComplementFoldMixed<U1, Modes = Folded, Current = Current>,
    Cot: RestModes<Current, Output = Rest>,
    Rest: AfterFolded<Folded, Output = R>,
{
    type Output = R;
    const POST_HOLDS: bool = Sorted::EXACT && Cot::ONE_MODE;
    #[inline(always)]
    fn case(modes: Modes, cotarget: Cot) -> Result<Self::Output, Error> {
        let sorted = <(T,)>::sorted(modes)?;
        let (folded, current) = sorted.fold(U1::default())?;
        Ok(cotarget.rest_modes(current)?.after_folded(folded))
    }
}

/// `coalesce(folded ++ rest)` as a layout, implemented by the rest modes, so that the type
/// checker looks at it only once it knows them (see [`LoneCotarget`]).
pub trait AfterFolded<Folded> {
    /// The layout.
    type Output;
    /// The layout.
    fn after_folded(self, folded: Folded) -> Self::Output;
}
impl<Rest, Folded, All, C, R> AfterFolded<Folded> for Rest
where
    Folded: Concat<Rest, Output = All>,
    All: CoalesceModesBound<Output = C>,
    C: ModesToLayout<Output = R>,
{
    type Output = R;
    #[inline(always)]
    fn after_folded(self, folded: Folded) -> R {
        folded.concat(self).coalesce_modes_bound().to_layout()
    }
}

/// `B1` when the type checker can sort the modes by stride: at most one mode, or every stride
/// static.
pub trait StridesStatic {
    /// The bit.
    type Output: Bit;
}
impl StridesStatic for Nil {
    type Output = B1;
}
impl<M> StridesStatic for Cons<M, Nil> {
    type Output = B1;
}
impl<S, D, N, T> StridesStatic for Cons<Mode<S, D>, Cons<N, T>>
where
    D: StaticBit,
    Cons<N, T>: EveryStride,
    <D as StaticBit>::Output: core::ops::BitAnd<<Cons<N, T> as EveryStride>::Output>,
    <<D as StaticBit>::Output as core::ops::BitAnd<<Cons<N, T> as EveryStride>::Output>>::Output: Bit,
{
    type Output = <<D as StaticBit>::Output as core::ops::BitAnd<<Cons<N, T> as EveryStride>::Output>>::Output;
}
/// `B1` when every stride of a list of modes is static.
pub trait EveryStride {
    /// The bit.
    type Output: Bit;
}
impl EveryStride for Nil {
    type Output = B1;
}
impl<S, D, T> EveryStride for Cons<Mode<S, D>, T>
where
    D: StaticBit,
    T: EveryStride,
    <D as StaticBit>::Output: core::ops::BitAnd<<T as EveryStride>::Output>,
    <<D as StaticBit>::Output as core::ops::BitAnd<<T as EveryStride>::Output>>::Output: Bit,
{
    type Output = <<D as StaticBit>::Output as core::ops::BitAnd<<T as EveryStride>::Output>>::Output;
}

/// The modes sorted by stride: by the type checker where it can sort them (`B1`: every stride
/// static, or one mode); with a run-time stride among several modes (`B0`), in the order the
/// types assume (the static strides sorted, then the run-time ones in their order), checked
/// when it runs ([`run_time_strides_last`]): where the values sort otherwise, `Undecided`.
/// (CuTe C++ refuses the latter: "Dynamic-stride complement only for rank-1 layouts"; cute-dyn
/// sorts the values.)
pub trait SortedModes<Modes> {
    /// The sorted modes.
    type Output;
    /// The sorted modes.
    ///
    /// # Errors
    /// `Undecided` (above).
    fn sorted(modes: Modes) -> Result<Self::Output, Error>;
}
impl<Modes: SortByStride> SortedModes<Modes> for (B1,) {
    type Output = Modes::Output;
    #[inline(always)]
    fn sorted(modes: Modes) -> Result<Self::Output, Error> {
        Ok(modes.sort_by_stride())
    }
}
/// (The static strides are run-time values then: cute-dyn picks each mode as the minimum of
/// the remaining strides, and a minimum over a run-time stride is run-time.)
impl<Modes, St, Rt, So, SoR> SortedModes<Modes> for (B0,)
where
    Modes: ModeValues + SplitByStride<Static = St, RunTime = Rt>,
    St: SortByStride<Output = So>,
    So: RunTimeStrides<Output = SoR>,
    SoR: Concat<Rt>,
{
    type Output = SoR::Output;
    #[inline(always)]
    fn sorted(modes: Modes) -> Result<Self::Output, Error> {
        if !run_time_strides_last(&modes) {
            return Err(Error::Undecided { op: "complement" });
        }
        let (st, rt) = modes.split_by_stride();
        Ok(st.sort_by_stride().run_time_strides().concat(rt))
    }
}

/// The modes with their strides as run-time values.
pub trait RunTimeStrides {
    /// The modes.
    type Output;
    /// Their values.
    fn run_time_strides(self) -> Self::Output;
}
impl RunTimeStrides for Nil {
    type Output = Nil;
    #[inline(always)]
    fn run_time_strides(self) -> Nil {
        Nil
    }
}
impl<S, D: crate::int_tuple::Leaf, T: RunTimeStrides> RunTimeStrides for Cons<Mode<S, D>, T> {
    type Output = Cons<Mode<S, usize>, T::Output>;
    #[inline(always)]
    fn run_time_strides(self) -> Self::Output {
        let Mode(s, d) = self.0;
        Cons(Mode(s, d.value()), self.1.run_time_strides())
    }
}

/// complement's precondition 1 at one mode, `current <= stride` (implemented by `current`): a
/// compile error ([`Injective`]) where both are static; checked when it runs otherwise.
pub trait InjectiveAt<D> {}
impl<U: Unsigned, B: Bit, V: Unsigned, C: Bit> InjectiveAt<UInt<V, C>> for UInt<U, B>
where
    UInt<U, B>: LeT<UInt<V, C>>,
    <UInt<U, B> as LeT<UInt<V, C>>>::Output: Injective<UInt<V, C>, UInt<U, B>>,
    <<UInt<U, B> as LeT<UInt<V, C>>>::Output as Injective<UInt<V, C>, UInt<U, B>>>::Check: injective::Report,
{
}
impl<U: Unsigned, B: Bit> InjectiveAt<usize> for UInt<U, B> {}
impl<D> InjectiveAt<D> for usize {}

/// The fold of [`ComplementFold`] with values, over modes sorted by stride: each mode `s:d`
/// gives `d / current` elements of stride `current`, then `current = d * s`.
pub trait ComplementFoldMixed<C> {
    /// The result modes.
    type Modes: Copy;
    /// The final `current`.
    type Current: Copy;
    /// Whether every `d / current` is known exact from the types (a static `current` of 1,
    /// or both static with `current | d`): then CuTe's @post conditions hold (see
    /// [`ComplementMixed`]'s impl).
    const EXACT: bool;
    /// The modes and the final `current`.
    ///
    /// # Errors
    /// `NonInjective` (a quotient of 0), `DivisionByZero`, `Overflow`.
    fn fold(self, current: C) -> Result<(Self::Modes, Self::Current), Error>;
}
impl<C: Copy> ComplementFoldMixed<C> for Nil {
    type Modes = Nil;
    type Current = C;
    const EXACT: bool = true;
    #[inline(always)]
    fn fold(self, current: C) -> Result<(Nil, C), Error> {
        Ok((Nil, current))
    }
}
impl<S, D, T, C> ComplementFoldMixed<C> for Cons<Mode<S, D>, T>
where
    C: InjectiveAt<D> + crate::int_tuple::Leaf + Copy,
    D: DivMixed<C> + MulMixed<S> + crate::int_tuple::Leaf,
    S: Copy,
    <D as DivMixed<C>>::Quot: crate::int_tuple::Leaf,
    T: ComplementFoldMixed<<D as MulMixed<S>>::Output>,
{
    type Modes = Cons<Mode<<D as DivMixed<C>>::Quot, C>, T::Modes>;
    type Current = T::Current;
    const EXACT: bool = match (D::STATIC, C::STATIC) {
        (_, Some(1)) => T::EXACT,
        (Some(d), Some(c)) => c != 0 && d % c == 0 && T::EXACT,
        _ => false,
    };
    #[inline(always)]
    fn fold(self, current: C) -> Result<(Self::Modes, Self::Current), Error> {
        use crate::int_tuple::Leaf;
        let Mode(s, d) = self.0;
        let new_shape = d.checked_div(current)?;
        if new_shape.value() == 0 {
            return Err(Error::NonInjective { op: "complement" });
        }
        let next = d.checked_mul(s).ok_or(Error::Overflow { op: "multiply" })?;
        let (modes, last) = self.1.fold(next)?;
        Ok((Cons(Mode(new_shape, current), modes), last))
    }
}

/// The rest of an integer cotarget (implemented by it) after the modes, which end at
/// `current`: `ceil_div(cotarget, current)` of stride `current`, static where both are (a
/// static 1 then gets stride 0, [`RestMode`]).
pub trait RestMixed<C> {
    /// The rest mode.
    type Output: Copy;
    /// The rest mode.
    ///
    /// # Errors
    /// `DivisionByZero` where the modes end at a run-time 0.
    fn rest(self, current: C) -> Result<Self::Output, Error>;
}
macro_rules! static_rest {
    ($([$($g:ident: $b:path),*] $ty:ty);*) => {$(
        impl<V: Unsigned, W: Bit, $($g: $b),*> RestMixed<UInt<V, W>> for $ty
        where
            $ty: CeilDiv<UInt<V, W>>,
            <$ty as CeilDiv<UInt<V, W>>>::Output: RestMode<UInt<V, W>>,
            <<$ty as CeilDiv<UInt<V, W>>>::Output as RestMode<UInt<V, W>>>::Output: Copy + Default,
        {
            type Output = <<$ty as CeilDiv<UInt<V, W>>>::Output as RestMode<UInt<V, W>>>::Output;
            #[inline(always)]
            fn rest(self, _: UInt<V, W>) -> Result<Self::Output, Error> {
                Ok(Default::default())
            }
        }
        impl<$($g: $b),*> RestMixed<usize> for $ty {
            type Output = Mode<usize, usize>;
            #[inline(always)]
            fn rest(self, current: usize) -> Result<Self::Output, Error> {
                Ok(Mode(DivMixed::checked_ceil_div(self, current)?, current))
            }
        }
    )*};
}
static_rest!([] UTerm; [U: Unsigned, B: Bit] UInt<U, B>);
impl<C: Copy> RestMixed<C> for usize
where
    usize: DivMixed<C, Ceil = usize>,
{
    type Output = Mode<usize, C>;
    #[inline(always)]
    fn rest(self, current: C) -> Result<Self::Output, Error> {
        Ok(Mode(DivMixed::checked_ceil_div(self, current)?, current))
    }
}

/// The rest of a cotarget after the modes, which end at `current`, as flat modes
/// (implemented by the cotarget): an integer's one mode ([`RestMixed`]); a flat shape's
/// `ceil_div(cotarget, current)`, cute-dyn's running quotient ([`CeilFold`]), its adjacent
/// leaves of one kind (static or run-time) merged ([`MergeLeaves`]), with compact strides from
/// `current` ([`CompactModes`]).
pub trait RestModes<C> {
    /// The rest modes.
    type Output;
    /// Whether the rest is the one mode `ceil_div(cotarget, current)` (an integer, or a shape
    /// of one leaf).
    const ONE_MODE: bool;
    /// The rest modes.
    ///
    /// # Errors
    /// `DivisionByZero` where the modes end at a run-time 0; `Undecided` where the quotients
    /// fall short of the cotarget (below); `Overflow`.
    fn rest_modes(self, current: C) -> Result<Self::Output, Error>;
}
macro_rules! integer_rest_modes {
    ($([$($g:ident: $b:path),*] $ty:ty);*) => {$(
        impl<C, $($g: $b),*> RestModes<C> for $ty
        where
            $ty: RestMixed<C>,
        {
            type Output = Cons<<$ty as RestMixed<C>>::Output, Nil>;
            const ONE_MODE: bool = true;
            #[inline(always)]
            fn rest_modes(self, current: C) -> Result<Self::Output, Error> {
                Ok(Cons(self.rest(current)?, Nil))
            }
        }
    )*};
}
integer_rest_modes!([] UTerm; [U: Unsigned, B: Bit] UInt<U, B>; [] usize);
/// A shape of one leaf: that integer's rest.
impl<C, X: RestModes<C>> RestModes<C> for Cons<X, Nil> {
    type Output = X::Output;
    const ONE_MODE: bool = X::ONE_MODE;
    #[inline(always)]
    fn rest_modes(self, current: C) -> Result<Self::Output, Error> {
        self.0.rest_modes(current)
    }
}
/// A flat shape of several leaves, by the static bit of it and `current` ([`ShapeRest`]).
impl<C, X, Y, T, G> RestModes<C> for Cons<X, Cons<Y, T>>
where
    Cons<Cons<X, Cons<Y, T>>, Cons<C, Nil>>: StaticBit<Output = G>,
    (G,): ShapeRest<Cons<X, Cons<Y, T>>, C>,
{
    type Output = <(G,) as ShapeRest<Cons<X, Cons<Y, T>>, C>>::Output;
    const ONE_MODE: bool = false;
    #[inline(always)]
    fn rest_modes(self, current: C) -> Result<Self::Output, Error> {
        <(G,)>::shape_rest(self, current)
    }
}
/// The rest of a flat shape cotarget of several leaves after `current`: all static (`B1`), the
/// type checker's ([`Cotarget`]: one mode, the quotients' product, or `ceil(size / current)`
/// where they fall short, as cute-dyn); otherwise (`B0`) cute-dyn's running quotient with its
/// values.
pub trait ShapeRest<Cot, C> {
    /// The rest modes.
    type Output;
    /// The rest modes.
    ///
    /// # Errors
    /// As [`RestModes::rest_modes`].
    fn shape_rest(cotarget: Cot, current: C) -> Result<Self::Output, Error>;
}
impl<Cot: Cotarget<C>, C> ShapeRest<Cot, C> for (B1,)
where
    Cot::Rest: Default,
{
    type Output = Cot::Rest;
    #[inline(always)]
    fn shape_rest(_: Cot, _: C) -> Result<Cot::Rest, Error> {
        Ok(Default::default())
    }
}
impl<Cot, C> ShapeRest<Cot, C> for (B0,)
where
    C: crate::int_tuple::Leaf,
    Cot: CeilFold<C> + IntTuple + Copy,
    <Cot as CeilFold<C>>::Output: MergeLeaves,
    <<Cot as CeilFold<C>>::Output as MergeLeaves>::Output: CompactModes<C> + IntTuple,
{
    type Output = <<<Cot as CeilFold<C>>::Output as MergeLeaves>::Output as CompactModes<C>>::Output;
    #[inline(always)]
    fn shape_rest(cotarget: Cot, current: C) -> Result<Self::Output, Error> {
        let overflow = Error::Overflow { op: "complement" };
        let merged = cotarget.ceil_fold(current)?.merge_leaves()?;
        // Where `current` does not divide into the leaves, the quotients fall short of
        // `ceil(size(cotarget) / current)` and cute-dyn takes that one mode instead (CuTe's
        // shorter rest breaks complement's @post): with a run-time value among them, a
        // structure this type does not have. (Rare: a tile that does not divide a mode, e.g.
        // 3:1 against (2,4).)
        let need = cotarget.checked_product().ok_or(overflow)?.div_ceil(current.value().max(1));
        if merged.checked_product().ok_or(overflow)? < need {
            return Err(Error::Undecided { op: "complement" });
        }
        merged.compact_modes(current)
    }
}

/// `ceil_div(shape, q)` of a flat shape (implemented by it), cute-dyn's running quotient: each
/// leaf `x` gives `ceil(x / q)`, then `q = ceil(q / x)`; static where both are.
pub trait CeilFold<Q> {
    /// The quotients.
    type Output;
    /// The quotients.
    ///
    /// # Errors
    /// `DivisionByZero` for a run-time 0.
    fn ceil_fold(self, q: Q) -> Result<Self::Output, Error>;
}
impl<Q> CeilFold<Q> for Nil {
    type Output = Nil;
    #[inline(always)]
    fn ceil_fold(self, _: Q) -> Result<Nil, Error> {
        Ok(Nil)
    }
}
impl<X, T, Q> CeilFold<Q> for Cons<X, T>
where
    X: DivMixed<Q>,
    Q: DivMixed<X>,
    T: CeilFold<<Q as DivMixed<X>>::Ceil>,
{
    type Output = Cons<<X as DivMixed<Q>>::Ceil, <T as CeilFold<<Q as DivMixed<X>>::Ceil>>::Output>;
    #[inline(always)]
    fn ceil_fold(self, q: Q) -> Result<Self::Output, Error> {
        let x = self.0;
        Ok(Cons(x.checked_ceil_div(q)?, self.1.ceil_fold(q.checked_ceil_div(x)?)?))
    }
}

/// A flat shape with its adjacent leaves of one kind merged into their product (cute-dyn's
/// `coalesce_leaves`: static with static, run-time with run-time).
pub trait MergeLeaves {
    /// The merged shape.
    type Output;
    /// The merged shape.
    ///
    /// # Errors
    /// `Overflow`.
    fn merge_leaves(self) -> Result<Self::Output, Error>;
}
impl MergeLeaves for Nil {
    type Output = Nil;
    #[inline(always)]
    fn merge_leaves(self) -> Result<Nil, Error> {
        Ok(Nil)
    }
}
impl<X, T> MergeLeaves for Cons<X, T>
where
    T: MergeLeaves,
    X: MergeFront<<T as MergeLeaves>::Output>,
{
    type Output = <X as MergeFront<<T as MergeLeaves>::Output>>::Output;
    #[inline(always)]
    fn merge_leaves(self) -> Result<Self::Output, Error> {
        self.0.merge_front(self.1.merge_leaves()?)
    }
}
/// A leaf in front of merged leaves: merged with the first if of one kind, else prepended.
pub trait MergeFront<R> {
    /// The merged shape.
    type Output;
    /// The merged shape.
    ///
    /// # Errors
    /// `Overflow`.
    fn merge_front(self, r: R) -> Result<Self::Output, Error>;
}
impl<X> MergeFront<Nil> for X {
    type Output = Cons<X, Nil>;
    #[inline(always)]
    fn merge_front(self, _: Nil) -> Result<Self::Output, Error> {
        Ok(Cons(self, Nil))
    }
}
macro_rules! merge_front {
    (merge: $([$($g:ident: $b:path),*] $x:ty, $h:ty);*; keep: $([$($k:ident: $kb:path),*] $kx:ty, $kh:ty);* $(;)?) => {
        $(
            impl<RT, $($g: $b),*> MergeFront<Cons<$h, RT>> for $x
            where
                $x: MulMixed<$h>,
            {
                type Output = Cons<<$x as MulMixed<$h>>::Output, RT>;
                #[inline(always)]
                fn merge_front(self, r: Cons<$h, RT>) -> Result<Self::Output, Error> {
                    Ok(Cons(self.checked_mul(r.0).ok_or(Error::Overflow { op: "complement" })?, r.1))
                }
            }
        )*
        $(
            impl<RT, $($k: $kb),*> MergeFront<Cons<$kh, RT>> for $kx {
                type Output = Cons<$kx, Cons<$kh, RT>>;
                #[inline(always)]
                fn merge_front(self, r: Cons<$kh, RT>) -> Result<Self::Output, Error> {
                    Ok(Cons(self, r))
                }
            }
        )*
    };
}
merge_front!(
    merge: [] UTerm, UTerm; [U: Unsigned, B: Bit] UTerm, UInt<U, B>; [U: Unsigned, B: Bit] UInt<U, B>, UTerm;
        [U: Unsigned, B: Bit, V: Unsigned, W: Bit] UInt<U, B>, UInt<V, W>; [] usize, usize;
    keep: [] UTerm, usize; [U: Unsigned, B: Bit] UInt<U, B>, usize; [] usize, UTerm; [U: Unsigned, B: Bit] usize, UInt<U, B>;
);

/// `compact_col_major(shape, c)` of a flat shape as modes `(x_i : stride_i)` (a static 1 gets
/// stride 0, as [`Compact`](crate::layout::Compact) gives it), implemented by the shape.
pub trait CompactModes<C> {
    /// The modes.
    type Output;
    /// The modes.
    ///
    /// # Errors
    /// `Overflow` for a run-time stride past `usize`.
    fn compact_modes(self, c: C) -> Result<Self::Output, Error>;
}
impl<X, C> CompactModes<C> for X
where
    X: crate::layout::Compact<crate::layout::LayoutLeft, C>
        + FlattenModes<<X as crate::layout::Compact<crate::layout::LayoutLeft, C>>::Stride>,
{
    type Output = <X as FlattenModes<<X as crate::layout::Compact<crate::layout::LayoutLeft, C>>::Stride>>::Output;
    #[inline(always)]
    fn compact_modes(self, c: C) -> Result<Self::Output, Error> {
        let (stride, _) = self.checked_compact(c).ok_or(Error::Overflow { op: "complement" })?;
        Ok(self.flatten_modes(&stride))
    }
}

impl<A, C: ComplementPlan<A>> Operation<A, C> for ComplementOp {
    type Output = <C as ComplementPlan<A>>::Out;
}
