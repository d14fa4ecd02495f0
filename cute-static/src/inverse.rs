//! right_inverse and left_inverse at the type level, for static layouts.
//!
//! The same algorithm as `cute_dyn::right_inverse` / `left_inverse` (CuTe C++'s): the modes of
//! `coalesce(L)` with their exclusive prefix products, sorted by stride with C++'s exchange
//! sort (so that equal strides land in the same order), then one fold.

use typenum::{B0, B1, U0, U1};

use crate::arith::{DivT, Divides, EqT, LeT, MulT};
use crate::coalesce::{CoalesceModes, ModesToLayout};
use crate::gate::Operation;
use crate::int_tuple::{Cons, Nil};
use crate::layout::Layout;
use crate::modes::{FlattenModes, Mode};

/// A mode of `coalesce(L)` with the product of the shapes before it.
#[derive(Clone, Copy, Default, Debug)]
pub struct Indexed<S, D, P>(S, D, P);

/// The modes with their exclusive prefix products, from `P`.
pub trait WithPreprod<P> {
    /// The list of [`Indexed`] modes.
    type Output;
    /// The product of all shapes.
    type Total;
}
impl<P> WithPreprod<P> for Nil {
    type Output = Nil;
    type Total = P;
}
impl<S, D, T, P: MulT<S>> WithPreprod<P> for Cons<Mode<S, D>, T>
where
    T: WithPreprod<<P as MulT<S>>::Output>,
{
    type Output = Cons<Indexed<S, D, P>, <T as WithPreprod<<P as MulT<S>>::Output>>::Output>;
    type Total = <T as WithPreprod<<P as MulT<S>>::Output>>::Total;
}

/// The stride, the sort key.
pub trait Key {
    /// The stride.
    type D;
}
impl<S, D, P> Key for Indexed<S, D, P> {
    type D = D;
}

/// One pass of C++'s exchange sort for the position of holder `H`: every later element with a
/// smaller key swaps with the holder (strict `<`, so ties keep the holder).
pub trait Pass<H> {
    /// The element that ends at the position.
    type Min;
    /// The other elements, in their positions after the pass.
    type Rest;
}
impl<H> Pass<H> for Nil {
    type Min = H;
    type Rest = Nil;
}
impl<H: Key, M: Key, T> Pass<H> for Cons<M, T>
where
    M::D: crate::arith::LtT<H::D>,
    <M::D as crate::arith::LtT<H::D>>::Output: PassStep<H, M, T>,
{
    type Min = <<M::D as crate::arith::LtT<H::D>>::Output as PassStep<H, M, T>>::Min;
    type Rest = <<M::D as crate::arith::LtT<H::D>>::Output as PassStep<H, M, T>>::Rest;
}
/// `B1`: `M` is smaller and becomes the holder, `H` takes its place.
pub trait PassStep<H, M, T> {
    /// As [`Pass::Min`].
    type Min;
    /// As [`Pass::Rest`].
    type Rest;
}
impl<H, M, T: Pass<M>> PassStep<H, M, T> for B1 {
    type Min = <T as Pass<M>>::Min;
    type Rest = Cons<H, <T as Pass<M>>::Rest>;
}
impl<H, M, T: Pass<H>> PassStep<H, M, T> for B0 {
    type Min = <T as Pass<H>>::Min;
    type Rest = Cons<M, <T as Pass<H>>::Rest>;
}

/// The list sorted by stride, as C++'s exchange sort leaves it.
pub trait ExchangeSort {
    /// The sorted list.
    type Output;
}
impl ExchangeSort for Nil {
    type Output = Nil;
}
impl<H, T: Pass<H>> ExchangeSort for Cons<H, T>
where
    <T as Pass<H>>::Rest: ExchangeSort,
{
    type Output = Cons<<T as Pass<H>>::Min, <<T as Pass<H>>::Rest as ExchangeSort>::Output>;
}

/// The sorted, indexed modes of `coalesce(L)`.
pub type SortedModes<S, D> =
    <<<<S as FlattenModes<D>>::Output as CoalesceModes>::Output as WithPreprod<U1>>::Output as ExchangeSort>::Output;

/// `coalesce` of a list of modes, as a layout.
pub type CoalescedModes<M> = <<M as CoalesceModes>::Output as ModesToLayout>::Output;

// ---------------------------------------------------------------------------- right_inverse

/// The right inverse's fold from `current`: a mode whose stride is `current` contributes
/// `s:preprod` and moves `current` to `s * d`; others are skipped.
pub trait RightFold<C> {
    /// The contributed modes.
    type Output;
}
impl<C> RightFold<C> for Nil {
    type Output = Nil;
}
impl<S, D: EqT<C>, P, T, C> RightFold<C> for Cons<Indexed<S, D, P>, T>
where
    <D as EqT<C>>::Output: RightStep<S, D, P, T, C>,
{
    type Output = <<D as EqT<C>>::Output as RightStep<S, D, P, T, C>>::Output;
}
/// Take (`B1`) or skip (`B0`) a mode.
pub trait RightStep<S, D, P, T, C> {
    /// The contributed modes.
    type Output;
}
impl<S: MulT<D>, D, P, T: RightFold<<S as MulT<D>>::Output>, C> RightStep<S, D, P, T, C> for B1 {
    type Output = Cons<Mode<S, P>, <T as RightFold<<S as MulT<D>>::Output>>::Output>;
}
impl<S, D, P, T: RightFold<C>, C> RightStep<S, D, P, T, C> for B0 {
    type Output = <T as RightFold<C>>::Output;
}

/// `right_inverse`, as an operation marker.
#[derive(Clone, Copy, Default, Debug)]
pub struct RightInverseOp;

impl<S, D> Operation<Layout<S, D>, ()> for RightInverseOp
where
    S: FlattenModes<D>,
    <S as FlattenModes<D>>::Output: CoalesceModes,
    <<S as FlattenModes<D>>::Output as CoalesceModes>::Output: WithPreprod<U1>,
    <<<S as FlattenModes<D>>::Output as CoalesceModes>::Output as WithPreprod<U1>>::Output: ExchangeSort,
    SortedModes<S, D>: RightFold<U1>,
    Cons<Mode<U1, U0>, <SortedModes<S, D> as RightFold<U1>>::Output>: CoalesceModes,
    <Cons<Mode<U1, U0>, <SortedModes<S, D> as RightFold<U1>>::Output> as CoalesceModes>::Output: ModesToLayout,
{
    type Output = CoalescedModes<Cons<Mode<U1, U0>, <SortedModes<S, D> as RightFold<U1>>::Output>>;
}

crate::gate::static_op!(
    /// `right_inverse(L)`: the largest compact `R` with `L(R(i)) == i` for `i < size(R)`,
    /// computed by the type checker for static layouts (modes of stride 0 or past a gap are
    /// skipped, as in C++).
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, right_inverse};
    /// // CuTe's tests: the inverse of a row-major (4,2) and of a layout with a stride-0 mode
    /// assert_eq!(right_inverse(layout!((4,2):(2,1))).to_string(), "(2,4):(4,1)");
    /// assert_eq!(right_inverse(layout!((6,2,6):(0,6,1))).to_string(), "(6,2):(12,6)");
    /// ```
    fn right_inverse() => RightInverseOp, RightInverse
);

// ----------------------------------------------------------------------------- left_inverse

cute_macros::decimal_condition! {
    /// Left inverse divisibility: each nonzero stride, by increasing stride, is divisible by
    /// the size of the inverse built so far. Implemented by the condition's bit.
    pub trait LeftInverseDivisibility(stride, size) {
        message = "left inverse divisibility condition violated: stride {stride} is not divisible by {size}",
        label = "the layout's strides do not nest: stride {stride} after modes covering {size} indices",
        note = "left_inverse takes, by increasing stride, modes whose strides are multiples of the size of the modes before",
    }
}

cute_macros::decimal_condition! {
    /// Apart from stride-0 modes, left_inverse needs an injective layout: by increasing
    /// stride, each mode starts at or after the span `s*d` of the previous one. Implemented by
    /// `span <= stride`.
    pub trait LeftInverseInjective(stride, span) {
        message = "non-injective layout in left_inverse: a mode of stride {stride} starts inside the previous mode, which spans {span}",
        label = "left_inverse needs a layout that is injective apart from its stride-0 modes",
        note = "C++ goes on and returns a layout R with L(R(L(i))) != L(i); cute-dyn refuses the same input",
    }
}

/// The left inverse's fold with the size so far (`Z`), the previous prefix product (`Prev`)
/// and the span `s*d` of the previous mode taken (`Sp`): stride 0 is skipped; otherwise
/// `d / size` elements of stride 0 (first) or of the previous mode's prefix product.
pub trait LeftFold<Z, Prev, Sp> {
    /// The contributed modes.
    type Output;
}
/// The end: the shape of the mode with the largest stride, at the last prefix product.
impl<Z, Prev, Sp, S, D, P> LeftFold<Z, Prev, Sp> for Cons<Indexed<S, D, P>, Nil>
where
    D: EqT<U0>,
    <D as EqT<U0>>::Output: LeftStep<S, D, P, Nil, Z, Prev, Sp>,
{
    type Output = <<D as EqT<U0>>::Output as LeftStep<S, D, P, Nil, Z, Prev, Sp>>::Output;
}
impl<Z, Prev, Sp, S, D, P, N, T> LeftFold<Z, Prev, Sp> for Cons<Indexed<S, D, P>, Cons<N, T>>
where
    D: EqT<U0>,
    <D as EqT<U0>>::Output: LeftStep<S, D, P, Cons<N, T>, Z, Prev, Sp>,
{
    type Output = <<D as EqT<U0>>::Output as LeftStep<S, D, P, Cons<N, T>, Z, Prev, Sp>>::Output;
}

/// Skip a stride-0 mode (`B1`) or contribute one (`B0`).
pub trait LeftStep<S, D, P, T, Z, Prev, Sp> {
    /// The contributed modes.
    type Output;
}
impl<S, D, P, T, Z, Prev, Sp> LeftStep<S, D, P, T, Z, Prev, Sp> for B1
where
    T: LeftRest<S, Z, Prev, Sp>,
{
    type Output = <T as LeftRest<S, Z, Prev, Sp>>::Output;
}
impl<S, D, P, T, Z, Prev, Sp> LeftStep<S, D, P, T, Z, Prev, Sp> for B0
where
    D: Divides<Z>,
    <D as Divides<Z>>::Output: LeftInverseDivisibility<D, Z>,
    (<D as Divides<Z>>::Output,): LeftDivided<S, D, P, T, Z, Prev, Sp>,
{
    type Output = <(<D as Divides<Z>>::Output,) as LeftDivided<S, D, P, T, Z, Prev, Sp>>::Output;
}

/// A mode of nonzero stride, chosen by the divisibility bit: checked for injectivity (`B1`),
/// or the end of the fold (its error is [`LeftInverseDivisibility`]'s alone). Divisibility
/// comes first, as in cute-dyn: with it, a stride inside the previous span is a collision.
pub trait LeftDivided<S, D, P, T, Z, Prev, Sp> {
    /// The contributed modes.
    type Output;
}
impl<S, D, P, T, Z, Prev, Sp> LeftDivided<S, D, P, T, Z, Prev, Sp> for (B0,) {
    type Output = Nil;
}
impl<S, D, P, T, Z, Prev, Sp> LeftDivided<S, D, P, T, Z, Prev, Sp> for (B1,)
where
    Sp: LeT<D>,
    <Sp as LeT<D>>::Output: LeftInverseInjective<D, Sp>,
    (<Sp as LeT<D>>::Output,): LeftTake<S, D, P, T, Z, Prev>,
{
    type Output = <(<Sp as LeT<D>>::Output,) as LeftTake<S, D, P, T, Z, Prev>>::Output;
}

/// A mode that divides, chosen by the injectivity bit: taken (`B1`), or, starting inside the
/// previous mode, the end of the fold (its error is [`LeftInverseInjective`]'s alone).
pub trait LeftTake<S, D, P, T, Z, Prev> {
    /// The contributed modes.
    type Output;
}
impl<S, D, P, T, Z, Prev> LeftTake<S, D, P, T, Z, Prev> for (B1,)
where
    D: DivT<Z>,
    S: MulT<D>,
    Z: MulT<<D as DivT<Z>>::Output>,
    T: LeftRest<S, <Z as MulT<<D as DivT<Z>>::Output>>::Output, P, <S as MulT<D>>::Output>,
{
    type Output = Cons<
        Mode<<D as DivT<Z>>::Output, Prev>,
        <T as LeftRest<S, <Z as MulT<<D as DivT<Z>>::Output>>::Output, P, <S as MulT<D>>::Output>>::Output,
    >;
}
impl<S, D, P, T, Z, Prev> LeftTake<S, D, P, T, Z, Prev> for (B0,) {
    type Output = Nil;
}

/// After a mode: the fold goes on, or (no modes left) the end mode is emitted with this mode's
/// shape.
pub trait LeftRest<S, Z, Prev, Sp> {
    /// The remaining modes.
    type Output;
}
impl<S, Z, Prev, Sp> LeftRest<S, Z, Prev, Sp> for Nil {
    type Output = Cons<Mode<S, Prev>, Nil>;
}
impl<S, Z, Prev, Sp, N, T> LeftRest<S, Z, Prev, Sp> for Cons<N, T>
where
    Cons<N, T>: LeftFold<Z, Prev, Sp>,
{
    type Output = <Cons<N, T> as LeftFold<Z, Prev, Sp>>::Output;
}

/// `left_inverse`, as an operation marker.
#[derive(Clone, Copy, Default, Debug)]
pub struct LeftInverseOp;

impl<S, D> Operation<Layout<S, D>, ()> for LeftInverseOp
where
    S: FlattenModes<D>,
    <S as FlattenModes<D>>::Output: CoalesceModes,
    <<S as FlattenModes<D>>::Output as CoalesceModes>::Output: WithPreprod<U1>,
    <<<S as FlattenModes<D>>::Output as CoalesceModes>::Output as WithPreprod<U1>>::Output: ExchangeSort,
    SortedModes<S, D>: LeftFold<U1, U0, U1>,
    <SortedModes<S, D> as LeftFold<U1, U0, U1>>::Output: CoalesceModes,
    <<SortedModes<S, D> as LeftFold<U1, U0, U1>>::Output as CoalesceModes>::Output: ModesToLayout,
{
    type Output = CoalescedModes<<SortedModes<S, D> as LeftFold<U1, U0, U1>>::Output>;
}

crate::gate::static_op!(
    /// `left_inverse(L)`: a layout `R` with `R(L(i)) == i` for `i < size(L)` when `L` is
    /// injective, computed by the type checker for static layouts (stride-0 modes are skipped, as
    /// in C++). A stride that is not a multiple of the size before it is a compile error, and so
    /// is a layout that overlaps itself apart from stride-0 modes (C++'s answer breaks its own
    /// @post there; cute-dyn refuses it too).
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, left_inverse};
    /// // CuTe's tests
    /// assert_eq!(left_inverse(layout!((4,2):(2,1))).to_string(), "(2,4):(4,1)");
    /// assert_eq!(left_inverse(layout!(2:8)).to_string(), "(8,2):(0,1)");
    /// ```
    fn left_inverse() => LeftInverseOp, LeftInverse
);
