//! right_inverse and left_inverse at the type level, for static layouts.
//!
//! The same algorithm as `cute_dyn::right_inverse` / `left_inverse` (CuTe C++'s): the modes of
//! `coalesce(L)` with their exclusive prefix products, sorted by stride with C++'s exchange
//! sort (so that equal strides land in the same order), then one fold. Layouts with run-time
//! leaves go through the same fold on values ([`Route`]'s `B0` impls), the order and each step's
//! choice fixed by the types, checked against the values when it runs.

use typenum::{Bit, UInt, UTerm, Unsigned, B0, B1, U0, U1};

use crate::arith::{DivMixed, DivT, Divides, EqT, LeT, MulMixed, MulT};
use crate::coalesce::{CoalesceModes, CoalesceModesBound, ModesToLayout};
use crate::decided::{decide, Decided};
use crate::error::Error;
use crate::gate::{Operation, Route};
use crate::int_tuple::{Concat, Cons, Leaf, Nil};
use crate::layout::Layout;
use crate::modes::{run_time_strides_last, FlattenModes, Mode, ModeValues};
use crate::ops::LeftInverseOp;
use crate::product::{leaf_call, ConstLeaves, Leaves};
use crate::verdict::Terminated;

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
    /// The pass on values (layouts with run-time leaves carry them).
    fn pass(self, holder: H) -> (Self::Min, Self::Rest);
}
impl<H> Pass<H> for Nil {
    type Min = H;
    type Rest = Nil;
    #[inline(always)]
    fn pass(self, holder: H) -> (H, Nil) {
        (holder, Nil)
    }
}
impl<H: Key, M: Key, T> Pass<H> for Cons<M, T>
where
    M::D: crate::arith::LtT<H::D>,
    <M::D as crate::arith::LtT<H::D>>::Output: PassStep<H, M, T>,
{
    type Min = <<M::D as crate::arith::LtT<H::D>>::Output as PassStep<H, M, T>>::Min;
    type Rest = <<M::D as crate::arith::LtT<H::D>>::Output as PassStep<H, M, T>>::Rest;
    #[inline(always)]
    fn pass(self, holder: H) -> (Self::Min, Self::Rest) {
        <<M::D as crate::arith::LtT<H::D>>::Output as PassStep<H, M, T>>::step(holder, self.0, self.1)
    }
}
/// `B1`: `M` is smaller and becomes the holder, `H` takes its place.
pub trait PassStep<H, M, T> {
    /// As [`Pass::Min`].
    type Min;
    /// As [`Pass::Rest`].
    type Rest;
    /// As [`Pass::pass`].
    fn step(holder: H, m: M, t: T) -> (Self::Min, Self::Rest);
}
impl<H, M, T: Pass<M>> PassStep<H, M, T> for B1 {
    type Min = <T as Pass<M>>::Min;
    type Rest = Cons<H, <T as Pass<M>>::Rest>;
    #[inline(always)]
    fn step(holder: H, m: M, t: T) -> (Self::Min, Self::Rest) {
        let (min, rest) = t.pass(m);
        (min, Cons(holder, rest))
    }
}
impl<H, M, T: Pass<H>> PassStep<H, M, T> for B0 {
    type Min = <T as Pass<H>>::Min;
    type Rest = Cons<M, <T as Pass<H>>::Rest>;
    #[inline(always)]
    fn step(holder: H, m: M, t: T) -> (Self::Min, Self::Rest) {
        let (min, rest) = t.pass(holder);
        (min, Cons(m, rest))
    }
}

/// The list sorted by stride, as C++'s exchange sort leaves it.
pub trait ExchangeSort {
    /// The sorted list.
    type Output;
    /// The sorted values.
    fn exchange_sort(self) -> Self::Output;
}
impl ExchangeSort for Nil {
    type Output = Nil;
    #[inline(always)]
    fn exchange_sort(self) -> Nil {
        Nil
    }
}
impl<H, T: Pass<H>> ExchangeSort for Cons<H, T>
where
    <T as Pass<H>>::Rest: ExchangeSort,
{
    type Output = Cons<<T as Pass<H>>::Min, <<T as Pass<H>>::Rest as ExchangeSort>::Output>;
    #[inline(always)]
    fn exchange_sort(self) -> Self::Output {
        let (min, rest) = self.1.pass(self.0);
        Cons(min, rest.exchange_sort())
    }
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

crate::gate::routed_op!(
    /// `right_inverse(L)`: the largest compact `R` with `L(R(i)) == i` for `i < size(R)`,
    /// computed by the type checker for static layouts (modes of stride 0 or past a gap are
    /// skipped, as in C++); a layout with run-time leaves gives a `Result` ([`Route`]).
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

/// The left inverse's fold with the size so far (`Z`), the previous prefix product (`Prev`)
/// and the span `s*d` of the previous mode taken (`Sp`): stride 0 is skipped; otherwise
/// `d / size` elements of stride 0 (first) or of the previous mode's prefix product. A
/// violated condition ends the list of modes with its verdict ([`crate::verdict`]) in place
/// of `Nil` (one associated type per step, the verdict carried in it: [`Terminated`]).
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
    (<D as Divides<Z>>::Output,): LeftDivided<S, D, P, T, Z, Prev, Sp>,
{
    type Output = <(<D as Divides<Z>>::Output,) as LeftDivided<S, D, P, T, Z, Prev, Sp>>::Output;
}

/// A mode of nonzero stride, chosen by the divisibility bit: checked for injectivity (`B1`),
/// or the end of the fold with [`LeftInverseDivisibility`]'s verdict. Divisibility comes
/// first, as in cute-dyn: with it, a stride inside the previous span is a collision.
pub trait LeftDivided<S, D, P, T, Z, Prev, Sp> {
    /// The contributed modes.
    type Output;
}
impl<S, D, P, T, Z, Prev, Sp> LeftDivided<S, D, P, T, Z, Prev, Sp> for (B0,)
where
    B0: LeftInverseDivisibility<D, Z>,
{
    type Output = <B0 as LeftInverseDivisibility<D, Z>>::Verdict;
}
impl<S, D, P, T, Z, Prev, Sp> LeftDivided<S, D, P, T, Z, Prev, Sp> for (B1,)
where
    Sp: LeT<D>,
    (<Sp as LeT<D>>::Output,): LeftTake<S, D, P, T, Z, Prev, Sp>,
{
    type Output = <(<Sp as LeT<D>>::Output,) as LeftTake<S, D, P, T, Z, Prev, Sp>>::Output;
}

/// A mode that divides, chosen by the injectivity bit: taken (`B1`), or, starting inside the
/// previous mode, taken all the same with its list marked [`OverlapEnd`] (C++ goes on; the
/// answer is judged by CuTe's law, [`LawCheck`]).
pub trait LeftTake<S, D, P, T, Z, Prev, Sp> {
    /// The contributed modes.
    type Output;
}
impl<S, D, P, T, Z, Prev, Sp> LeftTake<S, D, P, T, Z, Prev, Sp> for (B1,)
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
impl<S, D, P, T, Z, Prev, Sp> LeftTake<S, D, P, T, Z, Prev, Sp> for (B0,)
where
    (B1,): LeftTake<S, D, P, T, Z, Prev, Sp>,
    <(B1,) as LeftTake<S, D, P, T, Z, Prev, Sp>>::Output: MarkOverlap,
{
    // C++'s algorithm goes on; its answer is judged by CuTe's law ([`LawCheck`]).
    type Output = <<(B1,) as LeftTake<S, D, P, T, Z, Prev, Sp>>::Output as MarkOverlap>::Output;
}

/// The end of a left inverse's modes where a mode started inside the previous one: the list
/// ends as `Nil` does, with the verdict [`Overlapped`] (the law is then checked on the answer).
pub struct OverlapEnd;
impl crate::verdict::Terminated for OverlapEnd {
    type List = Nil;
    type Verdict = Overlapped;
}

/// The list of modes with its end marked [`OverlapEnd`] (a failed condition's end stays).
pub trait MarkOverlap {
    /// The marked list.
    type Output;
}
impl MarkOverlap for Nil {
    type Output = OverlapEnd;
}
impl MarkOverlap for OverlapEnd {
    type Output = OverlapEnd;
}
impl<H, T: MarkOverlap> MarkOverlap for Cons<H, T> {
    type Output = Cons<H, T::Output>;
}
impl<T> MarkOverlap for left_inverse_divisibility::Failed<T> {
    type Output = Self;
}

/// A left inverse's modes overlapped: CuTe's answer stands where its law holds.
pub struct Overlapped;

/// The verdict of a left inverse, given the layout `L` and the answer `R`: [`Overlapped`]
/// becomes [`LawCheck`]; the others stay.
pub trait JudgeOverlap<L, R> {
    /// The verdict.
    type Output;
}
impl<L, R> JudgeOverlap<L, R> for crate::verdict::Holds {
    type Output = crate::verdict::Holds;
}
impl<L, R> JudgeOverlap<L, R> for Overlapped {
    type Output = LawCheck<L, R>;
}
impl<L, R, T> JudgeOverlap<L, R> for left_inverse_divisibility::Failed<T> {
    type Output = Self;
}

/// CuTe's law for the left inverse `R` of a layout `L` whose modes overlap, `L(R(L(i))) ==
/// L(i)` for every `i < size(L)`, checked by the compiler where the inverse is instantiated
/// (a constant's panic names the first `i` where it fails; up to 2^16 points), as cute-dyn
/// checks it when it runs: `(4,3):(12,12)` is C++'s `(12,3):(0,4)`, and C++'s answer for
/// `((2,4,8,4),4):((4,12,2,12),1)` breaks the law at 17.
pub struct LawCheck<L, R>(core::marker::PhantomData<(L, R)>);
impl<L: ConstLeaves, R: ConstLeaves> crate::verdict::Settle for LawCheck<L, R> {
    const CHECK: () = left_inverse_law(&L::LEAVES, &R::LEAVES);
}
impl<L, R, V> crate::verdict::First<V> for LawCheck<L, R> {
    type Output = Self;
}
impl<L, R> Default for LawCheck<L, R> {
    fn default() -> Self {
        LawCheck(core::marker::PhantomData)
    }
}
impl<L, R> Clone for LawCheck<L, R> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<L, R> Copy for LawCheck<L, R> {}

/// The most points [`left_inverse_law`] checks.
const LAW_POINTS: usize = 1 << 16;

/// `L(R(L(i))) == L(i)` for every `i < size(L)`, or a constant's panic at the first `i` where
/// it fails.
const fn left_inverse_law(l: &Leaves, r: &Leaves) {
    let (mut n, mut k) = (1usize, 0);
    while k < l.0 {
        n = match n.checked_mul(l.1[k]) {
            Some(n) if n <= LAW_POINTS => n,
            _ => panic!("left_inverse: the layout's modes overlap and it has more than 2^16 points, too many to check CuTe's law L(R(L(i))) == L(i) at compile time; give it a run-time leaf (cute-dyn then checks it)"),
        };
        k += 1;
    }
    let mut i = 0;
    while i < n {
        let li = leaf_call(l, i);
        let back = leaf_call(l, leaf_call(r, li));
        if back != li {
            let mut m = crate::product::ConstMessage::new();
            m.push(
                "left_inverse: the layout's modes overlap, and CuTe's answer breaks its law L(R(L(i))) == L(i) at i = ",
            );
            m.number(i);
            m.push(": L(i) = ");
            m.number(li);
            m.push(", L(R(L(i))) = ");
            m.number(back);
            panic!("{}", m.as_str());
        }
        i += 1;
    }
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

impl<S, D, F, M, V> Operation<Layout<S, D>, ()> for LeftInverseOp
where
    S: FlattenModes<D>,
    <S as FlattenModes<D>>::Output: CoalesceModes,
    <<S as FlattenModes<D>>::Output as CoalesceModes>::Output: WithPreprod<U1>,
    <<<S as FlattenModes<D>>::Output as CoalesceModes>::Output as WithPreprod<U1>>::Output: ExchangeSort,
    SortedModes<S, D>: LeftFold<U1, U0, U1, Output = F>,
    F: Terminated<List = M, Verdict = V>,
    M: CoalesceModes,
    <M as CoalesceModes>::Output: ModesToLayout,
    V: JudgeOverlap<Layout<S, D>, CoalescedModes<M>>,
{
    type Output = (CoalescedModes<M>, <V as JudgeOverlap<Layout<S, D>, CoalescedModes<M>>>::Output);
}

crate::gate::judged_op!(
    /// `left_inverse(L)`: a layout `R` with `R(L(i)) == i` for `i < size(L)` when `L` is
    /// injective, computed by the type checker for static layouts (stride-0 modes are skipped, as
    /// in C++). A stride that is not a multiple of the size before it is a compile error. A
    /// layout that overlaps itself apart from stride-0 modes gets C++'s answer where it keeps
    /// CuTe's law `L(R(L(i))) == L(i)` (`(4,3):(12,12)` is `(12,3):(0,4)`), checked by the
    /// compiler where the inverse is instantiated ([`LawCheck`]); where the law breaks, a
    /// compile error names the `i` (cute-dyn refuses it too). A layout with run-time leaves
    /// gives a `Result` ([`Route`]), those conditions checked when it runs.
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

// ------------------------------------------------------------------------------------------
// Layouts with run-time leaves. cute-dyn sorts the modes by their values and compares each
// stride with the running `current` by value; a type cannot follow every such choice, so the
// structure is fixed by the static values, with the choices a run-time value makes assumed
// (below), and checked against the values when it runs: where cute-dyn would choose otherwise,
// `Undecided`.
// ------------------------------------------------------------------------------------------

/// The modes with their exclusive prefix products from `P` (as [`WithPreprod`], with values),
/// split into those of static stride (`Static`) and those of run-time stride (`RunTime`), each
/// in their order. (One pass, one impl per kind of stride: the type checker's cheapest shape.)
pub trait IndexModes<P> {
    /// The [`Indexed`] modes of static stride.
    type Static;
    /// The [`Indexed`] modes of run-time stride.
    type RunTime;
    /// The product of all shapes.
    type Total;
    /// Both lists and the total.
    ///
    /// # Errors
    /// `Overflow`.
    fn index_modes(self, p: P) -> Result<(Self::Static, Self::RunTime, Self::Total), Error>;
}
impl<P> IndexModes<P> for Nil {
    type Static = Nil;
    type RunTime = Nil;
    type Total = P;
    #[inline(always)]
    fn index_modes(self, p: P) -> Result<(Nil, Nil, P), Error> {
        Ok((Nil, Nil, p))
    }
}
macro_rules! index_modes {
    ($([$($g:ident: $b:path),*] $d:ty => $st:ty, $rt:ty, $put:ident);*) => {$(
        impl<S: Copy, P: MulMixed<S>, T: IndexModes<P::Output>, $($g: $b),*> IndexModes<P> for Cons<Mode<S, $d>, T> {
            type Static = $st;
            type RunTime = $rt;
            type Total = T::Total;
            #[inline(always)]
            fn index_modes(self, p: P) -> Result<(Self::Static, Self::RunTime, Self::Total), Error> {
                let Mode(s, d) = self.0;
                let next = p.checked_mul(s).ok_or(Error::Overflow { op: "multiply" })?;
                let (st, rt, total) = self.1.index_modes(next)?;
                index_modes!(@$put Indexed(s, d, p), st, rt, total)
            }
        }
    )*};
    (@static $m:expr, $st:ident, $rt:ident, $total:ident) => { Ok((Cons($m, $st), $rt, $total)) };
    (@run_time $m:expr, $st:ident, $rt:ident, $total:ident) => { Ok(($st, Cons($m, $rt), $total)) };
}
index_modes!(
    [] UTerm => Cons<Indexed<S, UTerm, P>, T::Static>, T::RunTime, static;
    [U: Unsigned, B: Bit] UInt<U, B> => Cons<Indexed<S, UInt<U, B>, P>, T::Static>, T::RunTime, static;
    [] usize => T::Static, Cons<Indexed<S, usize, P>, T::RunTime>, run_time
);

/// The modes of `coalesce(L)`, indexed, in the order the types assume for cute-dyn's sort: the
/// static strides by C++'s exchange sort, then the run-time strides in their order. When it
/// runs, that order is checked to be the sort's on the values (`sort_is_assumed`).
pub trait InverseOrder {
    /// The ordered [`Indexed`] modes.
    type Order;
    /// `size(L)`.
    type Total;
    /// The ordered modes, the size, and whether a static twin (the same values, all static)
    /// would coalesce further: a refusal is then `Undecided`, as cute-dyn's (its twin might
    /// go through).
    ///
    /// # Errors
    /// `Undecided` where the sort is decided on values otherwise than assumed; `Overflow`.
    fn inverse_order(self) -> Result<(Self::Order, Self::Total, bool), Error>;
}
impl<S, D, F, M, Total, St, Rt, Sorted, Order> InverseOrder for Layout<S, D>
where
    S: FlattenModes<D, Output = F>,
    F: CoalesceModesBound<Output = M>,
    M: ModeValues + IndexModes<U1, Static = St, RunTime = Rt, Total = Total>,
    St: ExchangeSort<Output = Sorted>,
    Sorted: Concat<Rt, Output = Order>,
{
    type Order = Order;
    type Total = Total;
    #[inline(always)]
    fn inverse_order(self) -> Result<(Order, Total, bool), Error> {
        let modes = self.flat_modes().coalesce_modes_bound();
        if !sort_is_assumed(&modes) {
            return Err(Error::Undecided { op: "inverse" });
        }
        let twin_coalesces = twin_coalesces_further(&modes);
        let (st, rt, total) = modes.index_modes(U1::default())?;
        Ok((st.exchange_sort().concat(rt), total, twin_coalesces))
    }
}

/// Whether cute-dyn's sort of these modes' values is the order the types assume: no run-time
/// extent is 1 (cute-dyn leaves such a mode out of the sort and makes its answer dynamic), and
/// the run-time strides sort last ([`run_time_strides_last`]).
fn sort_is_assumed(modes: &impl ModeValues) -> bool {
    let mut no_run_time_one = true;
    modes.each_mode(&mut |s, _, s_static, _| no_run_time_one &= s_static || s != 1);
    no_run_time_one && run_time_strides_last(modes)
}

/// Whether the static twin's coalesce would merge or drop a mode that the DSL's rule keeps: an
/// extent 1 beside other modes, or neighbours with `s0 * d0 == d1`.
fn twin_coalesces_further<M: ModeValues>(modes: &M) -> bool {
    let (mut further, mut prev) = (false, None::<(usize, usize)>);
    modes.each_mode(&mut |s, d, _, _| {
        further |= s == 1 && M::LEN > 1;
        further |= prev.is_some_and(|(s0, d0)| s0.checked_mul(d0) == Some(d));
        prev = Some((s, d));
    });
    further
}

/// The right inverse's choice at a mode of stride `Self` with `current` `C`: `B1` (take) when
/// both are static and equal, or both run-time (the assumption: as in a compact layout of
/// run-time extents, `({m},{n}):(1,{m})`, a run-time stride meets a run-time product); `B0`
/// (skip) when they differ, or one is static and the other run-time (the assumption: a
/// run-time value meets no static one). The assumptions are checked when it runs.
pub trait AssumedEq<C> {
    /// The bit.
    type Output;
}
macro_rules! assumed_eq {
    ($([$($g:ident: $b:path),*] $x:ty, $y:ty);*) => {$(
        impl<$($g: $b),*> AssumedEq<$y> for $x
        where
            $x: crate::arith::EqT<$y>,
        {
            type Output = <$x as crate::arith::EqT<$y>>::Output;
        }
    )*};
}
assumed_eq!(
    [] UTerm, UTerm;
    [U: Unsigned, B: Bit] UTerm, UInt<U, B>;
    [U: Unsigned, B: Bit] UInt<U, B>, UTerm;
    [U: Unsigned, B: Bit, V: Unsigned, W: Bit] UInt<U, B>, UInt<V, W>
);
impl AssumedEq<usize> for usize {
    type Output = B1;
}
impl AssumedEq<UTerm> for usize {
    type Output = B0;
}
impl<U: Unsigned, B: Bit> AssumedEq<UInt<U, B>> for usize {
    type Output = B0;
}
impl AssumedEq<usize> for UTerm {
    type Output = B0;
}
impl<U: Unsigned, B: Bit> AssumedEq<usize> for UInt<U, B> {
    type Output = B0;
}

/// The right inverse's fold ([`RightFold`]) on values, from `current`.
pub trait RightFoldMixed<C> {
    /// The contributed modes.
    type Output;
    /// The contributed modes.
    ///
    /// # Errors
    /// `Undecided` where the values choose otherwise than [`AssumedEq`] assumed; `Overflow`.
    fn right_fold(self, current: C) -> Result<Self::Output, Error>;
}
impl<C> RightFoldMixed<C> for Nil {
    type Output = Nil;
    #[inline(always)]
    fn right_fold(self, _: C) -> Result<Nil, Error> {
        Ok(Nil)
    }
}
impl<S, D: AssumedEq<C>, P, T, C> RightFoldMixed<C> for Cons<Indexed<S, D, P>, T>
where
    (D::Output,): RightStepMixed<S, D, P, T, C>,
{
    type Output = <(D::Output,) as RightStepMixed<S, D, P, T, C>>::Output;
    #[inline(always)]
    fn right_fold(self, current: C) -> Result<Self::Output, Error> {
        <(D::Output,)>::right_step(self.0, self.1, current)
    }
}
/// Take (`B1`) or skip (`B0`) a mode, on values.
pub trait RightStepMixed<S, D, P, T, C> {
    /// The contributed modes.
    type Output;
    /// The contributed modes.
    ///
    /// # Errors
    /// As [`RightFoldMixed::right_fold`].
    fn right_step(m: Indexed<S, D, P>, rest: T, current: C) -> Result<Self::Output, Error>;
}
impl<S: MulMixed<D>, D: Leaf, P, T: RightFoldMixed<S::Output>, C: Leaf> RightStepMixed<S, D, P, T, C> for (B1,) {
    type Output = Cons<Mode<S, P>, T::Output>;
    #[inline(always)]
    fn right_step(m: Indexed<S, D, P>, rest: T, current: C) -> Result<Self::Output, Error> {
        let Indexed(s, d, p) = m;
        if d.value() != current.value() {
            return Err(Error::Undecided { op: "right_inverse" });
        }
        let next = s.checked_mul(d).ok_or(Error::Overflow { op: "right_inverse" })?;
        Ok(Cons(Mode(s, p), rest.right_fold(next)?))
    }
}
impl<S, D: Leaf, P, T: RightFoldMixed<C>, C: Leaf> RightStepMixed<S, D, P, T, C> for (B0,) {
    type Output = T::Output;
    #[inline(always)]
    fn right_step(m: Indexed<S, D, P>, rest: T, current: C) -> Result<Self::Output, Error> {
        if m.1.value() == current.value() {
            return Err(Error::Undecided { op: "right_inverse" });
        }
        rest.right_fold(current)
    }
}

/// The left inverse's fold ([`LeftFold`]) on values, with the stride of the next mode (`St`, the
/// previous prefix product), the size so far (`Z`), the shape that closes the result (`La`) and
/// the span `s*d` of the previous mode taken (a value: it is only compared). A static stride 0
/// is skipped; any other, a run-time stride included (assumed nonzero, checked when it runs),
/// is taken. (One impl per kind of stride, not a bit and a step trait: a level less for the
/// type checker.)
pub trait LeftFoldMixed<St, Z, La> {
    /// The result modes.
    type Output;
    /// The result modes.
    ///
    /// # Errors
    /// `StrideDivisibility` and `NonInjective` (cute-dyn's preconditions 1 and 3), `Undecided`
    /// for a run-time stride 0, `Overflow`.
    fn left_fold(self, stride: St, size: Z, last: La, span: usize) -> Result<Self::Output, Error>;
}
impl<St, Z, La> LeftFoldMixed<St, Z, La> for Nil {
    type Output = Cons<Mode<La, St>, Nil>;
    #[inline(always)]
    fn left_fold(self, stride: St, _: Z, last: La, _: usize) -> Result<Self::Output, Error> {
        Ok(Cons(Mode(last, stride), Nil))
    }
}
impl<S, P, T: LeftFoldMixed<St, Z, La>, St, Z, La> LeftFoldMixed<St, Z, La> for Cons<Indexed<S, UTerm, P>, T> {
    type Output = T::Output;
    #[inline(always)]
    fn left_fold(self, stride: St, size: Z, last: La, span: usize) -> Result<T::Output, Error> {
        self.1.left_fold(stride, size, last, span)
    }
}
macro_rules! left_take {
    ($([$($g:ident: $b:path),*] $d:ty);*) => {$(
        impl<S, P, T, St, Z, La, Q, $($g: $b),*> LeftFoldMixed<St, Z, La> for Cons<Indexed<S, $d, P>, T>
        where
            S: Leaf + Copy,
            $d: Leaf + DivMixed<Z, Quot = Q>,
            Z: Leaf + MulMixed<Q>,
            Q: Copy,
            T: LeftFoldMixed<P, Z::Output, S>,
        {
            type Output = Cons<Mode<Q, St>, T::Output>;
            #[inline(always)]
            fn left_fold(self, stride: St, size: Z, _: La, span: usize) -> Result<Self::Output, Error> {
                let Indexed(s, d, p) = self.0;
                let overflow = Error::Overflow { op: "left_inverse" };
                let (dv, zv) = (d.value(), size.value());
                if dv == 0 {
                    // cute-dyn skips a stride 0; the types took the run-time stride.
                    return Err(Error::Undecided { op: "left_inverse" });
                }
                if dv.checked_rem(zv) != Some(0) {
                    return Err(Error::StrideDivisibility { op: "left_inverse", stride: dv, factor: zv });
                }
                if dv < span {
                    return Err(Error::NonInjective { op: "left_inverse" });
                }
                let q = DivMixed::checked_div(d, size)?;
                let size = MulMixed::checked_mul(size, q).ok_or(overflow)?;
                let span = s.value().checked_mul(dv).ok_or(overflow)?;
                Ok(Cons(Mode(q, stride), self.1.left_fold(p, size, s, span)?))
            }
        }
    )*};
}
left_take!([U: Unsigned, B: Bit] UInt<U, B>; [] usize);

/// The left inverse's fold from its start (stride `0`, size `1`): a first mode of static stride
/// 1 contributes `1:0`, which the final coalesce drops, so it is not written.
pub trait LeftFoldFirst<La> {
    /// The result modes.
    type Output;
    /// The result modes.
    ///
    /// # Errors
    /// As [`LeftFoldMixed::left_fold`].
    fn left_fold_first(self, last: La) -> Result<Self::Output, Error>;
}
impl<S: Leaf + Copy, P, T: LeftFoldMixed<P, U1, S>, La> LeftFoldFirst<La> for Cons<Indexed<S, U1, P>, T> {
    type Output = T::Output;
    #[inline(always)]
    fn left_fold_first(self, _: La) -> Result<Self::Output, Error> {
        let Indexed(s, _, p) = self.0;
        self.1.left_fold(p, U1::default(), s, s.value())
    }
}
macro_rules! left_first {
    ($([$($g:ident: $b:path),*] $d:ty);*) => {$(
        impl<S, P, T, La, $($g: $b),*> LeftFoldFirst<La> for Cons<Indexed<S, $d, P>, T>
        where
            Self: LeftFoldMixed<U0, U1, La>,
        {
            type Output = <Self as LeftFoldMixed<U0, U1, La>>::Output;
            #[inline(always)]
            fn left_fold_first(self, last: La) -> Result<Self::Output, Error> {
                self.left_fold(U0::default(), U1::default(), last, 1)
            }
        }
    )*};
}
left_first!([] UTerm; [] usize; [U: Unsigned, B: Bit, C: Bit] UInt<UInt<U, B>, C>);

/// An inverse of a layout with run-time leaves ([`crate::gate::Route`]'s `B0`; every leaf
/// static, `B1`, is the type checker's): cute-dyn's answer, static flags included, or its
/// refusal (left_inverse's `StrideDivisibility` and `NonInjective`; `Overflow`), as a
/// [`Decided`].
///
/// The types fix the structure from the static values and assume that a run-time value
/// decides nothing: the run-time strides sort after the static ones (in their order), the
/// right inverse's comparisons are [`AssumedEq`]'s, and no run-time extent is 1. When it
/// runs, where the values keep that assumption, [`Decided::Typed`]; where they break it,
/// cute-dyn's answer with its other structure, [`Decided::RunTime`] (or cute-dyn's refusal).
/// E.g. the inverses of a tile with a run-time leading dimension `(8,64):(1,{ld})` are typed
/// for every `ld` above 8.
///
/// # Examples
/// ```
/// use cute_static::{layout, LeftInverse, RightInverse};
/// // CuTe's tests: the inverses of (4,2):(2,1) are (2,4):(4,1); with the extent 4 run-time,
/// // cute-dyn's answers (printed `(_2,4):(4,_1)` and `(_2,4):(4,_1)` in the cpp style).
/// let n = 4usize;
/// assert_eq!(layout!(({n},2):(2,1)).left_inverse()?.to_string(), "(2,{4}):({4},1)");
/// // right_inverse takes 2:1, then 4:2, as its stride is 2 * 1 (static values both).
/// assert_eq!(layout!(({n},2):(2,1)).right_inverse()?.to_string(), "(2,{4}):({4},1)");
/// # Ok::<(), cute_static::error::Error>(())
/// ```
impl<L, Order, Total, Folded, R> Route<RightInverseOp, L, ()> for B0
where
    L: InverseOrder<Order = Order, Total = Total> + crate::layout::LayoutFn,
    Order: RightFoldMixed<U1, Output = Folded>,
    Folded: AfterRightFold<Output = R>,
{
    type Output = Result<Decided<R>, Error>;
    #[inline(always)]
    fn route(l: L, _: ()) -> Self::Output {
        let typed = || -> Result<R, Error> {
            let (order, _, _) = l.inverse_order().map_err(|e| named(e, "right_inverse"))?;
            Ok(order.right_fold(U1::default())?.after_right_fold())
        };
        decide!(typed(), || cute_dyn::right_inverse(&l.to_dyn()?))
    }
}

/// `coalesce(1:0 ++ modes)` as a layout: `1:0` for no modes, else their coalesce (the front
/// `1:0` is skipped by coalesce's first row). Implemented by the folded modes (so that the type
/// checker looks at it only once it knows them: a list still unknown inside `Cons` would have
/// it try lists of every length, and overflow).
pub trait AfterRightFold {
    /// The layout.
    type Output;
    /// The layout.
    fn after_right_fold(self) -> Self::Output;
}
/// Nothing taken: `1:0`.
impl AfterRightFold for Nil {
    type Output = Layout<U1, U0>;
    #[inline(always)]
    fn after_right_fold(self) -> Self::Output {
        Layout::from_parts(U1::default(), U0::default())
    }
}
/// Modes taken: their coalesce (the front `1:0` is the first row of coalesce's table, skipped).
impl<M, T, C, R> AfterRightFold for Cons<M, T>
where
    Cons<M, T>: CoalesceModesBound<Output = C>,
    C: ModesToLayout<Output = R>,
{
    type Output = R;
    #[inline(always)]
    fn after_right_fold(self) -> R {
        self.coalesce_modes_bound().to_layout()
    }
}

/// The left inverse of a layout with run-time leaves (as the right inverse's, above).
impl<L, Order, Total, Folded, C, R> Route<LeftInverseOp, L, ()> for B0
where
    L: InverseOrder<Order = Order, Total = Total> + crate::layout::LayoutFn,
    Order: LeftFoldFirst<Total, Output = Folded>,
    Folded: CoalesceModesBound<Output = C>,
    C: ModesToLayout<Output = R>,
{
    // (result, verdict): the conditions on run-time values are checked when it runs.
    type Output = (Result<Decided<R>, Error>, crate::verdict::Holds);
    #[inline(always)]
    fn route(l: L, _: ()) -> Self::Output {
        (decide!(left_inverse_mixed(l), || cute_dyn::left_inverse(&l.to_dyn()?)), crate::verdict::Holds)
    }
}

/// The left inverse of a layout with run-time leaves, on values (the route above).
#[inline(always)]
fn left_inverse_mixed<L, Order, Total, Folded, C, R>(l: L) -> Result<R, Error>
where
    L: InverseOrder<Order = Order, Total = Total>,
    Order: LeftFoldFirst<Total, Output = Folded>,
    Folded: CoalesceModesBound<Output = C>,
    C: ModesToLayout<Output = R>,
{
    {
        let (order, total, twin_coalesces) = l.inverse_order().map_err(|e| named(e, "left_inverse"))?;
        let folded = order.left_fold_first(total).map_err(|e| match e {
            // cute-dyn tries the static twin on a refusal: where it coalesces otherwise, its
            // answer may stand instead.
            Error::StrideDivisibility { .. } if twin_coalesces => Error::Undecided { op: "left_inverse" },
            // Modes that overlap: CuTe's law L(R(L(i))) == L(i) decides, on every point, which
            // cute-dyn checks (its answer, C++'s, or the law's witness).
            Error::NonInjective { .. } => Error::Undecided { op: "left_inverse" },
            e => e,
        })?;
        Ok(folded.coalesce_modes_bound().to_layout())
    }
}

/// `Undecided` from the shared order, named for the operation.
#[inline]
fn named(e: Error, op: &'static str) -> Error {
    match e {
        Error::Undecided { .. } => Error::Undecided { op },
        e => e,
    }
}
