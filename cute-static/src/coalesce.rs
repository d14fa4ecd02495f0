//! coalesce at the type level: the type checker merges the modes of a layout.
//!
//! CuTe's `bw_coalesce`, walking the flat modes from the back with a stack whose front is the
//! mode being grown (`cute_dyn::coalesce` takes the same decisions walking forward, which
//! merges the same neighbours); every decision is taken only on static values (typenum
//! leaves), so a `usize` leaf keeps its mode, exactly as cute-dyn does with a dynamic value:
//!
//! | front `s0:d0` | next `s:d` | action |
//! |---|---|---|
//! | any | `_1:d` | skip it |
//! | `_1:d0`, alone | `s:d` | replace the front |
//! | static, `s*d == d0` (all static) | `s:d` | merge: `s*s0:d` |
//! | otherwise | `s:d` | prepend |

use core::ops::{BitAnd, Mul};

use typenum::{Bit, IsEqual, UInt, UTerm, Unsigned, B0, B1, U0, U1};

use crate::int_tuple::{Cons, IntTuple, IsNil, List, Nil};
use crate::layout::{AsModes, Congruent, Layout};
use crate::modes::{FilterZeros, FlattenModes, Known, Mode};

/// Combine one mode with the coalesced stack of the modes after it (the table above).
pub trait Combine<R> {
    /// The new stack.
    type Output: Copy;
    /// Its values.
    fn combine(self, r: R) -> Self::Output;
}

// The table's rows are tested in order, each in an impl of its own chosen by the row before:
// the type checker proves every bound of an impl, so tests in one impl would all be computed
// for every pair of modes, the multiplication `s*d` of static values included, where a skipped
// or run-time mode needs none of it.

/// `_1:d`: skip the mode (`(B1,)`); otherwise the next row ([`Replace`]).
impl<S: Known, D, S0, D0, Rt> Combine<Cons<Mode<S0, D0>, Rt>> for Mode<S, D>
where
    (S::IsOne,): Skip<Mode<S, D>, Cons<Mode<S0, D0>, Rt>>,
{
    type Output = <(S::IsOne,) as Skip<Mode<S, D>, Cons<Mode<S0, D0>, Rt>>>::Output;
    #[inline(always)]
    fn combine(self, r: Cons<Mode<S0, D0>, Rt>) -> Self::Output {
        <(S::IsOne,)>::skip(self, r)
    }
}

/// The table's rows, one trait each, implemented by the row's bit: `(B1,)` takes the row.
macro_rules! coalesce_row {
    ($($(#[$doc:meta])* $name:ident::$method:ident;)*) => {$(
        $(#[$doc])*
        pub trait $name<M, R> {
            /// The new stack.
            type Output: Copy;
            /// Its values.
            fn $method(m: M, r: R) -> Self::Output;
        }
    )*};
}
coalesce_row! {
    /// Row 1: `_1:d` is skipped.
    Skip::skip;
    /// Row 2: a lone `_1` front is replaced.
    Replace::replace;
    /// Row 3: the four leaves static, then row 4's test.
    AllStatic::all_static;
    /// Row 4: `s*d == d0` merges into `s*s0:d`; otherwise the mode is prepended.
    Merge::merge;
}

impl<M, R: Copy> Skip<M, R> for (B1,) {
    type Output = R;
    #[inline(always)]
    fn skip(_: M, r: R) -> R {
        r
    }
}
impl<S: Known, D: Known, S0: Known, D0: Known, Rt: IsNil> Skip<Mode<S, D>, Cons<Mode<S0, D0>, Rt>> for (B0,)
where
    S0::IsOne: BitAnd<Rt::Output>,
    (<S0::IsOne as BitAnd<Rt::Output>>::Output,): Replace<Mode<S, D>, Cons<Mode<S0, D0>, Rt>>,
{
    type Output = <(<S0::IsOne as BitAnd<Rt::Output>>::Output,) as Replace<Mode<S, D>, Cons<Mode<S0, D0>, Rt>>>::Output;
    #[inline(always)]
    fn skip(m: Mode<S, D>, r: Cons<Mode<S0, D0>, Rt>) -> Self::Output {
        <(<S0::IsOne as BitAnd<Rt::Output>>::Output,)>::replace(m, r)
    }
}

impl<M: Copy, R> Replace<M, R> for (B1,) {
    type Output = Cons<M, Nil>;
    #[inline(always)]
    fn replace(m: M, _: R) -> Self::Output {
        Cons(m, Nil)
    }
}
/// `B1` when the four leaves are static (only then is `s*d == d0` known).
type FourStatic<S, D, S0, D0> = <<<<S as Known>::Static as BitAnd<<D as Known>::Static>>::Output as BitAnd<
    <S0 as Known>::Static,
>>::Output as BitAnd<<D0 as Known>::Static>>::Output;
impl<S: Known, D: Known, S0: Known, D0: Known, Rt> Replace<Mode<S, D>, Cons<Mode<S0, D0>, Rt>> for (B0,)
where
    S::Static: BitAnd<D::Static>,
    <S::Static as BitAnd<D::Static>>::Output: BitAnd<S0::Static>,
    <<S::Static as BitAnd<D::Static>>::Output as BitAnd<S0::Static>>::Output: BitAnd<D0::Static>,
    (FourStatic<S, D, S0, D0>,): AllStatic<Mode<S, D>, Cons<Mode<S0, D0>, Rt>>,
{
    type Output = <(FourStatic<S, D, S0, D0>,) as AllStatic<Mode<S, D>, Cons<Mode<S0, D0>, Rt>>>::Output;
    #[inline(always)]
    fn replace(m: Mode<S, D>, r: Cons<Mode<S0, D0>, Rt>) -> Self::Output {
        <(FourStatic<S, D, S0, D0>,)>::all_static(m, r)
    }
}

/// A run-time leaf: no merge (a run-time value is not known to equal anything).
impl<M, R> AllStatic<M, R> for (B0,)
where
    (B0,): Merge<M, R>,
{
    type Output = <(B0,) as Merge<M, R>>::Output;
    #[inline(always)]
    fn all_static(m: M, r: R) -> Self::Output {
        <(B0,)>::merge(m, r)
    }
}
impl<S, D, S0, D0, Rt> AllStatic<Mode<S, D>, Cons<Mode<S0, D0>, Rt>> for (B1,)
where
    S: Mul<D>,
    <S as Mul<D>>::Output: IsEqual<D0>,
    (<<S as Mul<D>>::Output as IsEqual<D0>>::Output,): Merge<Mode<S, D>, Cons<Mode<S0, D0>, Rt>>,
{
    type Output =
        <(<<S as Mul<D>>::Output as IsEqual<D0>>::Output,) as Merge<Mode<S, D>, Cons<Mode<S0, D0>, Rt>>>::Output;
    #[inline(always)]
    fn all_static(m: Mode<S, D>, r: Cons<Mode<S0, D0>, Rt>) -> Self::Output {
        <(<<S as Mul<D>>::Output as IsEqual<D0>>::Output,)>::merge(m, r)
    }
}

/// `s*d == d0`, all static: merge into `s*s0:d`.
impl<S, D, S0, D0, Rt: Copy> Merge<Mode<S, D>, Cons<Mode<S0, D0>, Rt>> for (B1,)
where
    S: Mul<S0>,
    <S as Mul<S0>>::Output: Copy + Default,
    D: Copy,
{
    type Output = Cons<Mode<<S as Mul<S0>>::Output, D>, Rt>;
    #[inline(always)]
    fn merge(m: Mode<S, D>, r: Cons<Mode<S0, D0>, Rt>) -> Self::Output {
        Cons(Mode(Default::default(), m.1), r.1)
    }
}

/// Otherwise: prepend the mode.
impl<M: Copy, R: Copy> Merge<M, R> for (B0,) {
    type Output = Cons<M, R>;
    #[inline(always)]
    fn merge(m: M, r: R) -> Self::Output {
        Cons(m, r)
    }
}

/// Coalesce a non-empty flat list of modes into the final stack.
pub trait CoalesceModes {
    /// The stack.
    type Output: Copy;
    /// Its values.
    fn coalesce_modes(self) -> Self::Output;
}

/// The last mode starts the stack.
impl<M: Copy> CoalesceModes for Cons<M, Nil> {
    type Output = Cons<M, Nil>;
    #[inline(always)]
    fn coalesce_modes(self) -> Self::Output {
        self
    }
}

/// A mode in front of coalesced later modes.
impl<M, N, T> CoalesceModes for Cons<M, Cons<N, T>>
where
    Cons<N, T>: CoalesceModes,
    M: Combine<<Cons<N, T> as CoalesceModes>::Output>,
{
    type Output = <M as Combine<<Cons<N, T> as CoalesceModes>::Output>>::Output;
    #[inline(always)]
    fn coalesce_modes(self) -> Self::Output {
        self.0.combine(self.1.coalesce_modes())
    }
}

/// [`CoalesceModes`], its recursion written with each level's stack a parameter bound once:
/// what the routes with run-time leaves name. (The type checker's cost of the two forms
/// differs by caller: the static algebra, whose bounds name projections, is fastest with
/// [`CoalesceModes`]; the mixed routes, whose bounds bind parameters, with this one:
/// `scripts/compile_time.sh --instructions` mixed_logical_product 228 -> 141 million
/// instructions per call, logical_divide 125 -> 177 had the static algebra taken it too.)
pub trait CoalesceModesBound {
    /// The stack.
    type Output;
    /// Its values.
    fn coalesce_modes_bound(self) -> Self::Output;
}
impl<M: Copy> CoalesceModesBound for Cons<M, Nil> {
    type Output = Cons<M, Nil>;
    #[inline(always)]
    fn coalesce_modes_bound(self) -> Self::Output {
        self
    }
}
impl<M, N, T, R, O> CoalesceModesBound for Cons<M, Cons<N, T>>
where
    Cons<N, T>: CoalesceModesBound<Output = R>,
    M: Combine<R, Output = O>,
{
    type Output = O;
    #[inline(always)]
    fn coalesce_modes_bound(self) -> O {
        self.0.combine(self.1.coalesce_modes_bound())
    }
}

/// The stack as a layout: one mode is a leaf layout (a lone static 1 is `1:0`), more are a
/// tuple layout.
pub trait ModesToLayout {
    /// The layout type.
    type Output;
    /// The layout.
    fn to_layout(self) -> Self::Output;
}

/// One mode: `s:d`, or `1:0` for a static 1 (the flag picks).
impl<S: Known, D: IntTuple> ModesToLayout for Cons<Mode<S, D>, Nil>
where
    S: Congruent<D>,
    (S::IsOne,): LoneMode<S, D>,
{
    type Output = <(S::IsOne,) as LoneMode<S, D>>::Output;
    #[inline(always)]
    fn to_layout(self) -> Self::Output {
        <(S::IsOne,) as LoneMode<S, D>>::lone(self.0)
    }
}

/// The layout of a lone mode.
pub trait LoneMode<S, D> {
    /// `1:0` or `s:d`.
    type Output;
    /// The layout.
    fn lone(m: Mode<S, D>) -> Self::Output;
}

impl<S, D> LoneMode<S, D> for (B1,) {
    type Output = Layout<U1, U0>;
    #[inline(always)]
    fn lone(_: Mode<S, D>) -> Self::Output {
        Layout::new(U1::default(), U0::default())
    }
}

impl<S: Congruent<D>, D: IntTuple> LoneMode<S, D> for (B0,) {
    type Output = Layout<S, D>;
    #[inline(always)]
    fn lone(m: Mode<S, D>) -> Self::Output {
        Layout::new(m.0, m.1)
    }
}

/// Split a mode list into its shape list and stride list.
pub trait Unzip {
    /// The shapes.
    type Shape: List;
    /// The strides.
    type Stride: List;
    /// The tuple layout `(shapes):(strides)`.
    type Output;
    /// Both.
    fn unzip(self) -> (Self::Shape, Self::Stride);
    /// The tuple layout.
    fn unzip_layout(self) -> Self::Output;
}

impl Unzip for Nil {
    type Shape = Nil;
    type Stride = Nil;
    type Output = Layout<Nil, Nil>;
    fn unzip(self) -> (Nil, Nil) {
        (Nil, Nil)
    }
    fn unzip_layout(self) -> Self::Output {
        Layout::new(Nil, Nil)
    }
}

/// Each mode congruent (a bound per mode, not per suffix: the suffixes' congruence is a proof
/// per level, which the type checker pays for on every coalesce with run-time leaves).
impl<S: Congruent<D>, D: IntTuple, T: Unzip> Unzip for Cons<Mode<S, D>, T> {
    type Shape = Cons<S, T::Shape>;
    type Stride = Cons<D, T::Stride>;
    type Output = Layout<Cons<S, T::Shape>, Cons<D, T::Stride>>;
    #[inline(always)]
    fn unzip(self) -> (Self::Shape, Self::Stride) {
        let (s, d) = self.1.unzip();
        (Cons(self.0 .0, s), Cons(self.0 .1, d))
    }
    #[inline(always)]
    fn unzip_layout(self) -> Self::Output {
        let (s, d) = self.unzip();
        // Congruent by construction: each mode's shape and stride are.
        Layout::from_parts(s, d)
    }
}

/// Two or more modes: a tuple layout.
impl<M, N, T> ModesToLayout for Cons<M, Cons<N, T>>
where
    Cons<M, Cons<N, T>>: Unzip,
{
    type Output = <Cons<M, Cons<N, T>> as Unzip>::Output;
    #[inline(always)]
    fn to_layout(self) -> Self::Output {
        self.unzip_layout()
    }
}

/// `Coalesce`: the trait behind [`coalesce`].
pub trait Coalesce: Copy {
    /// The coalesced layout type.
    type Output: crate::gate::Produce;
    /// `coalesce(L)`.
    fn coalesce(self) -> Self::Output;
}

/// `Coalesced<L>`: the type of `coalesce(L)`.
pub type Coalesced<L> = <L as Coalesce>::Output;

// The flattened modes are a parameter `F`, not the projection `S::Output`: in generic code whose
// bounds are projections (`<<L as ZippedDivide<T>>::Output as Get<0>>::Output: Coalesce`), rustc
// may check this impl while a nested mode of `S` is still being inferred; the projection then
// normalizes to a list with unknown modes, on which `CoalesceModes` recursed until rustc
// overflowed (E0275, no span), where `F` stays unknown until `S` is. It costs the divides about
// 10% more type checking (`scripts/compile_time.sh --instructions 10`: logical_divide 91.6 ->
// 101.8, zipped_divide 99.0 -> 109.2, coalesce 11.4 -> 12.0 million instructions per call).
impl<S, D, F> Coalesce for Layout<S, D>
where
    S: FlattenModes<D, Output = F>,
    F: CoalesceModes,
    <F as CoalesceModes>::Output: ModesToLayout,
    <<F as CoalesceModes>::Output as ModesToLayout>::Output: crate::gate::Produce,
    Layout<S, D>: Copy,
{
    type Output = <<F as CoalesceModes>::Output as ModesToLayout>::Output;
    #[inline(always)]
    fn coalesce(self) -> Self::Output {
        self.flat_modes().coalesce_modes().to_layout()
    }
}

/// `coalesce(L)`: flatten and merge contiguous modes, computed by the type checker.
///
/// # Postconditions
/// `size(R) == size(L)`, `depth(R) <= 1`, `R(i) == L(i)` for `i < size(L)`.
///
/// # Examples
/// ```
/// use cute_static::{coalesce, layout};
/// // CuTe docs
/// let c = coalesce(layout!((2,(1,6)):(1,(6,2))));
/// assert_eq!(c.to_string(), "12:1");
/// assert_eq!(core::mem::size_of_val(&c), 0);
/// let c = coalesce(layout!(((2,(3,4)),(3,2),1):((4,(8,24)),(2,6),12)));
/// assert_eq!(c.to_string(), "(24,6):(4,2)");
/// // A run-time leaf keeps its mode (as in cute-dyn and the CuTe DSL).
/// let n = 6;
/// assert_eq!(coalesce(layout!((2,(1,{n})):(1,(6,2)))).to_string(), "(2,{6}):(1,2)");
/// ```
#[inline(always)]
pub fn coalesce<L: Coalesce<Output = R>, R: crate::gate::Produce>(l: L) -> R {
    R::produce(move || l.coalesce())
}

crate::gate::static_method!(coalesce, Coalesce, ());

/// `Filter`: the trait behind [`filter`].
pub trait Filter: Copy {
    /// The filtered layout type.
    type Output: crate::gate::Produce;
    /// `filter(L)`.
    fn filter(self) -> Self::Output;
}

/// `Filtered<L>`: the type of `filter(L)`.
pub type Filtered<L> = <L as Filter>::Output;

impl<S, D> Filter for Layout<S, D>
where
    S: FlattenModes<D>,
    S::Output: FilterZeros,
    <S::Output as FilterZeros>::Output: CoalesceModes,
    <<S::Output as FilterZeros>::Output as CoalesceModes>::Output: ModesToLayout,
    <<<S::Output as FilterZeros>::Output as CoalesceModes>::Output as ModesToLayout>::Output: crate::gate::Produce,
    Layout<S, D>: Copy,
{
    type Output = <<<S::Output as FilterZeros>::Output as CoalesceModes>::Output as ModesToLayout>::Output;
    #[inline(always)]
    fn filter(self) -> Self::Output {
        self.flat_modes().filter_zeros().coalesce_modes().to_layout()
    }
}

/// `filter(L)`: drop the static stride-0 and static size-1 modes and coalesce (`1:0` if nothing
/// is left), computed by the type checker.
///
/// # Examples
/// ```
/// use cute_static::{filter, layout};
/// assert_eq!(filter(layout!((3,(2,4)):(0,(1,2)))).to_string(), "8:1");
/// assert_eq!(filter(layout!((8,5):(0,0))).to_string(), "1:0");
/// ```
#[inline(always)]
pub fn filter<L: Filter<Output = R>, R: crate::gate::Produce>(l: L) -> R {
    R::produce(move || l.filter())
}

crate::gate::static_method!(filter, Filter, ());

/// `flatten(L)`: the flat modes of `L` as one tuple layout.
///
/// # Examples
/// ```
/// use cute_static::{flatten, layout};
/// assert_eq!(flatten(layout!(((2,3),(4,(5))):((1,2),(6,(24))))).to_string(), "(2,3,4,5):(1,2,6,24)");
/// ```
#[inline(always)]
pub fn flatten<S, D>(l: Layout<S, D>) -> <<S as FlattenModes<D>>::Output as Unzip>::Output
where
    S: FlattenModes<D>,
    S::Output: Unzip,
    <S::Output as Unzip>::Output: Copy,
{
    l.flat_modes().unzip_layout()
}

/// `flatten` as a trait ([`crate::ops::Flatten`]): one bound in generic code.
impl<S, D> crate::ops::Flatten for Layout<S, D>
where
    S: FlattenModes<D>,
    S::Output: Unzip,
    <S::Output as Unzip>::Output: Copy,
{
    type Output = <<S as FlattenModes<D>>::Output as Unzip>::Output;
    #[inline(always)]
    fn flatten(self) -> Self::Output {
        flatten(self)
    }
}

// ------------------------------------------------------------------ coalesce by profile

/// `coalesce` as an operation a profile applies by mode (through the tilers' by-mode dispatch,
/// [`crate::TilerOp`]: modes past the profile are kept).
#[derive(Clone, Copy, Default, Debug)]
pub struct CoalesceOp;

/// A profile leaf: coalesce the whole (sub-)layout.
#[derive(Clone, Copy, Default, Debug)]
pub struct Whole;

impl<S, D> crate::tiler::TilerOp<CoalesceOp, Layout<S, D>> for Whole
where
    Layout<S, D>: Coalesce,
{
    type Output = (Coalesced<Layout<S, D>>, crate::verdict::Holds);
}

impl<S, D> crate::tiler::RestRule<S, D> for CoalesceOp {
    type Output = (Layout<S, D>, crate::verdict::Holds);
}

/// A profile as a by-mode tiler: a leaf is [`Whole`], a tuple applies its elements by mode.
pub trait ProfileTiler {
    /// The tiler.
    type Output;
}
impl<H: ProfileTiler, T: ProfileList> ProfileTiler for Cons<H, T> {
    type Output = crate::tiler::ByMode<Cons<H::Output, T::Output>>;
}
impl ProfileTiler for UTerm {
    type Output = Whole;
}
impl<U: Unsigned, B: Bit> ProfileTiler for UInt<U, B> {
    type Output = Whole;
}
// (A profile's values are ignored: a run-time leaf is a leaf.)
impl ProfileTiler for usize {
    type Output = Whole;
}
/// The elements of a tuple profile.
pub trait ProfileList {
    /// The tiler elements.
    type Output;
}
impl ProfileList for Nil {
    type Output = Nil;
}
impl<H: ProfileTiler, T: ProfileList> ProfileList for Cons<H, T> {
    type Output = Cons<H::Output, T::Output>;
}

pub use crate::ops::CoalesceByOp;

impl<A, P: ProfileTiler> crate::gate::Operation<A, P> for CoalesceByOp
where
    P::Output: crate::tiler::TilerOp<CoalesceOp, A>,
{
    type Output = <P::Output as crate::tiler::TilerOp<CoalesceOp, A>>::Output;
}

/// `coalesce_by` of a layout with a run-time leaf ([`crate::gate::Route`]'s `B0`; every leaf
/// static, `B1`, is the type checker's): each mode of the profile coalesced with values
/// ([`CoalesceProfile`]). (The route is the layout's static bit alone: the profile's values are
/// ignored, so a run-time leaf there changes nothing.)
impl<SA, DA, P: CoalesceProfile<SA, DA>> crate::gate::Route<CoalesceByOp, Layout<SA, DA>, P> for B0 {
    // (result, verdict): nothing is checked on run-time values, the ranks are the types'.
    type Output = (Result<Layout<P::S, P::D>, crate::error::Error>, crate::verdict::Holds);
    #[inline(always)]
    fn route(l: Layout<SA, DA>, _: P) -> Self::Output {
        let (s, d) = l.into_parts();
        let (s, d) = P::coalesce_profile(s, d);
        (Ok(Layout::from_parts(s, d)), crate::verdict::Holds)
    }
}

/// A profile applied to a (sub-)layout `S:D` with run-time leaves, implemented by the profile
/// (cute-dyn's `by_profile`): a leaf coalesces the whole (sub-)layout, a tuple its modes one
/// by one (a leaf layout is its one mode), the modes past the profile kept.
#[diagnostic::on_unimplemented(
    message = "coalesce_by: the profile `{Self}` has more modes than the layout's `{S}`",
    label = "a profile of higher rank than its mode",
    note = "at every level, a profile has at most as many modes as the layout"
)]
pub trait CoalesceProfile<S, D> {
    /// The result's shape.
    type S;
    /// The result's stride.
    type D;
    /// Both.
    fn coalesce_profile(s: S, d: D) -> (Self::S, Self::D);
}
macro_rules! leaf_profile {
    ($([$($g:ident: $b:path),*] $p:ty);*) => {$(
        /// A leaf of the profile: `coalesce` of the (sub-)layout.
        impl<S, D, CS, CD, $($g: $b),*> CoalesceProfile<S, D> for $p
        where
            Layout<S, D>: Coalesce<Output = Layout<CS, CD>>,
        {
            type S = CS;
            type D = CD;
            #[inline(always)]
            fn coalesce_profile(s: S, d: D) -> (CS, CD) {
                Layout::from_parts(s, d).coalesce().into_parts()
            }
        }
    )*};
}
leaf_profile!([] UTerm; [U: Unsigned, B: Bit] UInt<U, B>; [] usize);

macro_rules! tuple_profile {
    ($([$($g:ident),*] $p:ty);*) => {$(
        /// A tuple profile: mode by mode.
        impl<S: AsModes, D: AsModes, $($g),*> CoalesceProfile<S, D> for $p
        where
            $p: ProfileModes<S::Modes, D::Modes>,
        {
            type S = <$p as ProfileModes<S::Modes, D::Modes>>::S;
            type D = <$p as ProfileModes<S::Modes, D::Modes>>::D;
            #[inline(always)]
            fn coalesce_profile(s: S, d: D) -> (Self::S, Self::D) {
                <$p>::profile_modes(s.as_modes(), d.as_modes())
            }
        }
    )*};
}
tuple_profile!([] Nil; [H, T] Cons<H, T>);

/// A tuple profile's elements over the modes `S:D` (lists): element i on mode i, the modes
/// past the profile kept.
#[diagnostic::on_unimplemented(
    message = "coalesce_by: the profile has more modes than the layout",
    label = "a profile of higher rank than its mode",
    note = "at every level, a profile has at most as many modes as the layout"
)]
pub trait ProfileModes<S, D> {
    /// The result's shapes.
    type S;
    /// The result's strides.
    type D;
    /// Both.
    fn profile_modes(s: S, d: D) -> (Self::S, Self::D);
}
impl<S, D> ProfileModes<S, D> for Nil {
    type S = S;
    type D = D;
    #[inline(always)]
    fn profile_modes(s: S, d: D) -> (S, D) {
        (s, d)
    }
}
impl<H: CoalesceProfile<S, D>, T: ProfileModes<ST, DT>, S, ST, D, DT> ProfileModes<Cons<S, ST>, Cons<D, DT>>
    for Cons<H, T>
{
    type S = Cons<H::S, T::S>;
    type D = Cons<H::D, T::D>;
    #[inline(always)]
    fn profile_modes(s: Cons<S, ST>, d: Cons<D, DT>) -> (Self::S, Self::D) {
        let ((hs, hd), (ts, td)) = (H::coalesce_profile(s.0, d.0), T::profile_modes(s.1, d.1));
        (Cons(hs, ts), Cons(hd, td))
    }
}

crate::gate::judged_op!(
    /// `coalesce(L, profile)`: coalesce each mode at the terminals of `profile` separately,
    /// keeping the modes past the profile (the profile's values are ignored).
    ///
    /// Static layouts: computed by the type checker (a profile of higher rank than its mode is
    /// a compile error). A layout with run-time leaves: a `Result` (never an error: the ranks
    /// are the types'; a `Result` as every operation with run-time leaves), equal to
    /// cute-dyn's answer, each mode coalesced as [`coalesce`] (a run-time leaf keeps its mode).
    ///
    /// # Examples
    /// ```
    /// use cute_static::{coalesce_by, layout, shape};
    /// // CuTe docs (02_layout_algebra): by-mode coalesce of (2,(1,6)):(1,(6,2))
    /// let l = layout!((2,(1,6)):(1,(6,2)));
    /// assert_eq!(coalesce_by(l, shape!((1,1))).to_string(), "(2,6):(1,2)");
    /// // With a run-time stride t = 12 in the second mode: static, 6:2 and 2:12 merge into
    /// // 12:2; run-time, nothing is merged (the DSL's rule: `(2,(6,2)):(1,(2,?))`).
    /// let t = 12;
    /// let l = layout!((2,(6,2)):(1,(2,{t})));
    /// assert_eq!(coalesce_by(l, shape!((1,1)))?.to_string(), "(2,(6,2)):(1,(2,{12}))");
    /// # Ok::<(), cute_static::error::Error>(())
    /// ```
    fn coalesce_by(profile: P) by Layout<SA, DA> => CoalesceByOp, CoalesceBy
);
