//! Tilers, the right-hand sides of composition, the divides and the products.

// ------------------------------------------------------------------------------------------
// composition(A, B), computed by the type checker, for fully static layouts.
// ------------------------------------------------------------------------------------------

use core::ops::Not;

use typenum::{B0, B1, U0, U1, U2};

use crate::arith::{AndT, CeilDiv, DivT, Divides, EqT, IsOne, LeT, LtT, MinT, MulT, OrT};
use crate::coalesce::{CoalesceModes, ModesToLayout};
use crate::int_tuple::{Concat, Cons, IntTuple, IsNil, Nil};
use crate::layout::Layout;
use crate::modes::{FlattenModes, Mode};
use crate::ops::Composition;
use crate::scaled::StrideMul;
use crate::tiler::{CompositionOp, MakeLayout, TilerOp};
use crate::verdict::{First, FirstOf, Holds};

cute_macros::decimal_condition! {
    /// CuTe's stride divisibility condition, exact: at each mode `s` of `coalesce(A)` but the
    /// last, the remaining stride `d` of `B` has `d % s == 0`, or `d < s` with `s % d == 0` or
    /// `B` ending inside the mode. Implemented by the condition's bit.
    pub trait StrideDivisibility(stride, shape) {
        message = "stride divisibility condition violated in composition: stride {stride} vs shape {shape}",
        label = "the right operand's stride {stride} neither is a multiple of the left operand's mode {shape} nor divides it",
        note = "CuTe's condition: stride % shape == 0, or stride < shape with shape % stride == 0 (or the right operand ends inside the mode)",
    }
}

cute_macros::decimal_condition! {
    /// CuTe's shape divisibility condition: the remaining shape of `B` is divisible by the part
    /// a mode of `A` takes. Implemented by the condition's bit.
    pub trait ShapeDivisibility(shape, part) {
        message = "shape divisibility condition violated in composition: shape {shape} is not divisible by {part}",
        label = "the right operand's shape {shape} does not split evenly over the left operand's modes",
        note = "a mode of the left operand takes {part} elements of the right operand's shape {shape}",
    }
}

cute_macros::decimal_condition! {
    /// Right-distributivity: the modes of `B` together stay inside each mode of `coalesce(A)`
    /// but the last. Implemented by the condition's bit.
    pub trait ModesFit(reach, shape) {
        message = "modes overlap in composition: the right operand's modes reach index {reach} of a mode of shape {shape}",
        label = "the right operand's modes run past a mode of the left operand",
        note = "then A(x + y) != A(x) + A(y) for the images of the right operand's modes, and the result would not be A(B(i))",
    }
}

/// The fold state over `A`'s modes: the pieces so far, the rest of `B`'s shape and stride, and
/// the verdict so far ([`crate::verdict`]: a violated condition is carried, not failed on).
#[derive(Clone, Copy, Default)]
pub struct St<R, N, D, V>(R, N, D, V);

/// `A`'s modes with their reaches, and the verdict so far: threaded through `B`'s leaves.
#[derive(Clone, Copy, Default)]
pub struct Reaches<AR, V>(AR, V);

/// One mode of `A` with its reach so far.
#[derive(Clone, Copy, Default)]
pub struct Reach<M, K>(M, K);

/// One step of composition_impl over mode `s:d` of `A`:
///
/// | `next_shape = ceil(s / rest_stride)` or `rest_shape` is 1 | skip: the stride advances |
/// | otherwise | take `min(next_shape, rest_shape)` elements of stride `rest_stride * d` |
pub trait Step<M, K> {
    /// The next state.
    type St2;
    /// The mode's reach after this step.
    type K2;
}

/// The two branches of a step, chosen by the skip flag.
pub trait Branch<R, N, D, CS, CD, K, V> {
    /// The next state.
    type St2;
    /// The reach.
    type K2;
}

/// Skip: `St<R, N, ceil(D / s)>`.
impl<R, N, D: CeilDiv<CS>, CS, CD, K, V> Branch<R, N, D, CS, CD, K, V> for B1 {
    type St2 = St<R, N, <D as CeilDiv<CS>>::Output, V>;
    type K2 = K;
}

/// Take `new = min(ceil(s / D), N)` elements; `N` not divisible by `new` is
/// [`ShapeDivisibility`]'s verdict.
impl<R, N, D, CS, CD, K, V> Branch<R, N, D, CS, CD, K, V> for B0
where
    CS: CeilDiv<D>,
    D: CeilDiv<CS> + StrideMul<CD>,
    <CS as CeilDiv<D>>::Output: MinT<N>,
    N: Divides<<<CS as CeilDiv<D>>::Output as MinT<N>>::Output> + DivT<<<CS as CeilDiv<D>>::Output as MinT<N>>::Output>,
    <N as Divides<<<CS as CeilDiv<D>>::Output as MinT<N>>::Output>>::Output:
        ShapeDivisibility<N, <<CS as CeilDiv<D>>::Output as MinT<N>>::Output>,
    V: First<
        <<N as Divides<<<CS as CeilDiv<D>>::Output as MinT<N>>::Output>>::Output as ShapeDivisibility<
            N,
            <<CS as CeilDiv<D>>::Output as MinT<N>>::Output,
        >>::Verdict,
    >,
    R: Concat<Cons<Mode<<<CS as CeilDiv<D>>::Output as MinT<N>>::Output, <D as StrideMul<CD>>::Output>, Nil>>,
    <<CS as CeilDiv<D>>::Output as MinT<N>>::Output: core::ops::Sub<B1>,
    <<<CS as CeilDiv<D>>::Output as MinT<N>>::Output as core::ops::Sub<B1>>::Output: MulT<D>,
    K: crate::arith::AddT<
        <<<<CS as CeilDiv<D>>::Output as MinT<N>>::Output as core::ops::Sub<B1>>::Output as MulT<D>>::Output,
    >,
{
    type St2 =
        St<
            <R as Concat<
                Cons<Mode<<<CS as CeilDiv<D>>::Output as MinT<N>>::Output, <D as StrideMul<CD>>::Output>, Nil>,
            >>::Output,
            <N as DivT<<<CS as CeilDiv<D>>::Output as MinT<N>>::Output>>::Output,
            <D as CeilDiv<CS>>::Output,
            FirstOf<
                V,
                <<N as Divides<<<CS as CeilDiv<D>>::Output as MinT<N>>::Output>>::Output as ShapeDivisibility<
                    N,
                    <<CS as CeilDiv<D>>::Output as MinT<N>>::Output,
                >>::Verdict,
            >,
        >;
    type K2 = <K as crate::arith::AddT<
        <<<<CS as CeilDiv<D>>::Output as MinT<N>>::Output as core::ops::Sub<B1>>::Output as MulT<D>>::Output,
    >>::Output;
}

/// `B1` when the rest of B fits the mode exactly (the stride condition, or B is done).
type Admissible<N, D, CS> = <IsOne<N> as OrT<
    <<D as Divides<CS>>::Output as OrT<
        <<D as LtT<CS>>::Output as AndT<
            <<CS as Divides<D>>::Output as OrT<<N as LeT<<CS as CeilDiv<D>>::Output>>::Output>>::Output,
        >>::Output,
    >>::Output,
>>::Output;

/// The skip flag: `next_shape == 1 or rest_shape == 1`, or an inadmissible step (its verdict
/// is the stride condition's alone, not a knock-on shape error).
type SkipFlag<N, D, CS> = <<IsOne<<CS as CeilDiv<D>>::Output> as OrT<IsOne<N>>>::Output as OrT<
    <Admissible<N, D, CS> as Not>::Output,
>>::Output;

/// A step; an inadmissible one is [`StrideDivisibility`]'s verdict.
impl<R, N, D, CS, CD, K, V> Step<Mode<CS, CD>, K> for St<R, N, D, V>
where
    N: EqT<U1> + LeT<<CS as CeilDiv<D>>::Output>,
    D: Divides<CS> + LtT<CS>,
    CS: Divides<D> + CeilDiv<D>,
    <CS as CeilDiv<D>>::Output: EqT<U1>,
    <CS as Divides<D>>::Output: OrT<<N as LeT<<CS as CeilDiv<D>>::Output>>::Output>,
    <D as LtT<CS>>::Output:
        AndT<<<CS as Divides<D>>::Output as OrT<<N as LeT<<CS as CeilDiv<D>>::Output>>::Output>>::Output>,
    <D as Divides<CS>>::Output: OrT<
        <<D as LtT<CS>>::Output as AndT<
            <<CS as Divides<D>>::Output as OrT<<N as LeT<<CS as CeilDiv<D>>::Output>>::Output>>::Output,
        >>::Output,
    >,
    IsOne<N>: OrT<
        <<D as Divides<CS>>::Output as OrT<
            <<D as LtT<CS>>::Output as AndT<
                <<CS as Divides<D>>::Output as OrT<<N as LeT<<CS as CeilDiv<D>>::Output>>::Output>>::Output,
            >>::Output,
        >>::Output,
    >,
    Admissible<N, D, CS>: StrideDivisibility<D, CS>,
    V: First<<Admissible<N, D, CS> as StrideDivisibility<D, CS>>::Verdict>,
    IsOne<<CS as CeilDiv<D>>::Output>: OrT<IsOne<N>>,
    Admissible<N, D, CS>: Not,
    <IsOne<<CS as CeilDiv<D>>::Output> as OrT<IsOne<N>>>::Output: OrT<<Admissible<N, D, CS> as Not>::Output>,
    SkipFlag<N, D, CS>: Branch<R, N, D, CS, CD, K, StrideVerdict<V, N, D, CS>>,
{
    type St2 = <SkipFlag<N, D, CS> as Branch<R, N, D, CS, CD, K, StrideVerdict<V, N, D, CS>>>::St2;
    type K2 = <SkipFlag<N, D, CS> as Branch<R, N, D, CS, CD, K, StrideVerdict<V, N, D, CS>>>::K2;
}

/// The verdict `V` so far, then [`StrideDivisibility`]'s on a step.
type StrideVerdict<V, N, D, CS> = FirstOf<V, <Admissible<N, D, CS> as StrideDivisibility<D, CS>>::Verdict>;

/// Fold [`Step`] over `A`'s modes but the last, each with its reach.
pub trait Fold<S> {
    /// The final state.
    type St2;
    /// The reaches after the fold, one per mode.
    type Reach;
}

impl<S> Fold<S> for Nil {
    type St2 = S;
    type Reach = Nil;
}

impl<M, K, T, S> Fold<S> for Cons<Reach<M, K>, T>
where
    S: Step<M, K>,
    T: Fold<<S as Step<M, K>>::St2>,
{
    type St2 = <T as Fold<<S as Step<M, K>>::St2>>::St2;
    type Reach = Cons<<S as Step<M, K>>::K2, <T as Fold<<S as Step<M, K>>::St2>>::Reach>;
}

/// The stack of `coalesce_x(A)`: like coalesce, but a trailing static size-1 mode counts as
/// size 2, so that its stride survives (the left operand of a composition is read past its
/// size).
pub trait FixLast {
    /// The list with its last mode fixed.
    type Output;
    /// The list with its run-time values (a layout with run-time extents).
    fn fix_last(self) -> Self::Output;
}
impl<S: crate::modes::Known, D> FixLast for Cons<Mode<S, D>, Nil>
where
    (S::IsOne,): PickLast<S, D>,
{
    type Output = Cons<<(S::IsOne,) as PickLast<S, D>>::Output, Nil>;
    #[inline(always)]
    fn fix_last(self) -> Self::Output {
        Cons(<(S::IsOne,)>::pick(self.0), Nil)
    }
}
impl<M, N, T> FixLast for Cons<M, Cons<N, T>>
where
    Cons<N, T>: FixLast,
{
    type Output = Cons<M, <Cons<N, T> as FixLast>::Output>;
    #[inline(always)]
    fn fix_last(self) -> Self::Output {
        Cons(self.0, self.1.fix_last())
    }
}

/// `_1:d` becomes `_2:d`.
pub trait PickLast<S, D> {
    /// The mode.
    type Output;
    /// The mode, with its values.
    fn pick(m: Mode<S, D>) -> Self::Output;
}
impl<S, D> PickLast<S, D> for (B1,) {
    type Output = Mode<U2, D>;
    #[inline(always)]
    fn pick(m: Mode<S, D>) -> Mode<U2, D> {
        Mode(U2::default(), m.1)
    }
}
impl<S, D> PickLast<S, D> for (B0,) {
    type Output = Mode<S, D>;
    #[inline(always)]
    fn pick(m: Mode<S, D>) -> Mode<S, D> {
        m
    }
}

/// Every mode with a zero reach.
pub trait WithReach {
    /// `Cons<Reach<M, U0>, ...>`.
    type Output;
}
impl WithReach for Nil {
    type Output = Nil;
}
impl<M, T: WithReach> WithReach for Cons<M, T> {
    type Output = Cons<Reach<M, U0>, T::Output>;
}

/// The last element of a list and the rest.
pub trait SplitLast {
    /// All but the last.
    type Init;
    /// The last.
    type Last;
}
impl<M> SplitLast for Cons<M, Nil> {
    type Init = Nil;
    type Last = M;
}
impl<M, N, T> SplitLast for Cons<M, Cons<N, T>>
where
    Cons<N, T>: SplitLast,
{
    type Init = Cons<M, <Cons<N, T> as SplitLast>::Init>;
    type Last = <Cons<N, T> as SplitLast>::Last;
}

/// The modes with their new reaches (then the last mode, unchanged).
pub trait Rezip<KS, Last> {
    /// The list.
    type Output;
}
impl<Last> Rezip<Nil, Last> for Nil {
    type Output = Cons<Last, Nil>;
}
impl<M, K, T, K2, KT, Last> Rezip<Cons<K2, KT>, Last> for Cons<Reach<M, K>, T>
where
    T: Rezip<KT, Last>,
{
    type Output = Cons<Reach<M, K2>, <T as Rezip<KT, Last>>::Output>;
}

/// The layout that closes composition_impl for one leaf of B:
///
/// | no piece taken | `rest_shape : rest_stride * d_last` |
/// | `rest_shape == 1` | the pieces |
/// | otherwise | the pieces, then `rest_shape : rest_stride * d_last` |
pub trait Close<R, N, D, DL> {
    /// The layout.
    type Output;
}
impl<R, N, D: StrideMul<DL>, DL, X> Close<R, N, D, DL> for (B1, X) {
    type Output = Layout<N, <D as StrideMul<DL>>::Output>;
}
impl<R: ModesToLayout, N, D, DL> Close<R, N, D, DL> for (B0, B1) {
    type Output = <R as ModesToLayout>::Output;
}
impl<R, N, D: StrideMul<DL>, DL> Close<R, N, D, DL> for (B0, B0)
where
    R: Concat<Cons<Mode<N, <D as StrideMul<DL>>::Output>, Nil>>,
    <R as Concat<Cons<Mode<N, <D as StrideMul<DL>>::Output>, Nil>>>::Output: ModesToLayout,
{
    type Output = <<R as Concat<Cons<Mode<N, <D as StrideMul<DL>>::Output>, Nil>>>::Output as ModesToLayout>::Output;
}

/// composition_impl of `A` (modes with reaches) with one leaf `RS:RD` of `B`.
pub trait CompLeaf<RS, RD> {
    /// The layout.
    type Output;
    /// `A` with the reaches after this leaf.
    type AR;
}

/// The branch: a static-0 stride, a single-mode `A`, or the general fold (`V`: the verdict
/// so far).
pub trait LeafCase<AR, V, RS, RD> {
    /// The layout.
    type Output;
    /// The reaches and the verdict ([`Reaches`]).
    type AR;
}

/// `RD == 0`: `RS:0` (A(0) everywhere).
impl<AR, V, RS, RD, X> LeafCase<AR, V, RS, RD> for (B1, X) {
    type Output = Layout<RS, RD>;
    type AR = Reaches<AR, V>;
}

/// A single mode `s:d` (unbounded): `RS : RD*d`.
impl<S, D, K, V, RS, RD: StrideMul<D>> LeafCase<Cons<Reach<Mode<S, D>, K>, Nil>, V, RS, RD> for (B0, B1) {
    type Output = Layout<RS, <RD as StrideMul<D>>::Output>;
    type AR = Reaches<Cons<Reach<Mode<S, D>, K>, Nil>, V>;
}

/// The general case: fold over all but the last mode, then close.
impl<AR, V, RS, RD> LeafCase<AR, V, RS, RD> for (B0, B0)
where
    AR: SplitLast,
    <AR as SplitLast>::Init: Fold<St<Nil, RS, RD, V>>,
    <AR as SplitLast>::Last: LastStride,
    <<AR as SplitLast>::Init as Fold<St<Nil, RS, RD, V>>>::St2:
        Closing<<<AR as SplitLast>::Last as LastStride>::D> + StateVerdict,
    <AR as SplitLast>::Init:
        Rezip<<<AR as SplitLast>::Init as Fold<St<Nil, RS, RD, V>>>::Reach, <AR as SplitLast>::Last>,
{
    type Output = <<<AR as SplitLast>::Init as Fold<St<Nil, RS, RD, V>>>::St2 as Closing<
        <<AR as SplitLast>::Last as LastStride>::D,
    >>::Output;
    type AR = Reaches<
        <<AR as SplitLast>::Init as Rezip<
            <<AR as SplitLast>::Init as Fold<St<Nil, RS, RD, V>>>::Reach,
            <AR as SplitLast>::Last,
        >>::Output,
        <<<AR as SplitLast>::Init as Fold<St<Nil, RS, RD, V>>>::St2 as StateVerdict>::Output,
    >;
}

/// The stride of the last mode.
pub trait LastStride {
    /// `d_last`.
    type D;
}
impl<S, D, K> LastStride for Reach<Mode<S, D>, K> {
    type D = D;
}

/// Close a final state with the last stride.
pub trait Closing<DL> {
    /// The layout.
    type Output;
}

/// A state's verdict (a projection of the state type, with no bounds to prove: not a second
/// associated type of [`Closing`], whose bounds rustc would prove again).
pub trait StateVerdict {
    /// The verdict.
    type Output;
}
impl<R, N, D, V> StateVerdict for St<R, N, D, V> {
    type Output = V;
}
impl<R: IsNil, N: EqT<U1>, D, V, DL> Closing<DL> for St<R, N, D, V>
where
    (<R as IsNil>::Output, IsOne<N>): Close<R, N, D, DL>,
{
    type Output = <(<R as IsNil>::Output, IsOne<N>) as Close<R, N, D, DL>>::Output;
}

impl<AR, V, RS, RD> CompLeaf<RS, RD> for Reaches<AR, V>
where
    RD: EqT<U0>,
    AR: SplitLast,
    <AR as SplitLast>::Init: IsNil,
    (<RD as EqT<U0>>::Output, <<AR as SplitLast>::Init as IsNil>::Output): LeafCase<AR, V, RS, RD>,
{
    type Output =
        <(<RD as EqT<U0>>::Output, <<AR as SplitLast>::Init as IsNil>::Output) as LeafCase<AR, V, RS, RD>>::Output;
    type AR = <(<RD as EqT<U0>>::Output, <<AR as SplitLast>::Init as IsNil>::Output) as LeafCase<AR, V, RS, RD>>::AR;
}

/// composition_impl of `A` with `B` given as shape (the implementing type) and stride,
/// distributing over B's modes and threading the reaches. B's shape is the implementing type
/// so that the type checker never searches these impls before it knows B.
pub trait CompB<DB, AR> {
    /// The layout.
    type Output;
    /// The reaches after B.
    type AR;
}

/// The modes of a tuple B, each composed in turn.
pub trait CompModes<DB, AR> {
    /// The per-mode layouts, as a list.
    type Output;
    /// The reaches after all modes.
    type AR;
}
impl<AR> CompModes<Nil, AR> for Nil {
    type Output = Nil;
    type AR = AR;
}
impl<AR, S, ST, D, DT> CompModes<Cons<D, DT>, AR> for Cons<S, ST>
where
    S: CompB<D, AR>,
    ST: CompModes<DT, <S as CompB<D, AR>>::AR>,
{
    type Output = Cons<<S as CompB<D, AR>>::Output, <ST as CompModes<DT, <S as CompB<D, AR>>::AR>>::Output>;
    type AR = <ST as CompModes<DT, <S as CompB<D, AR>>::AR>>::AR;
}

/// A tuple B: its modes, composed in turn, make the modes of the result.
impl<AR, S, ST, D, DT> CompB<Cons<D, DT>, AR> for Cons<S, ST>
where
    Cons<S, ST>: CompModes<Cons<D, DT>, AR>,
    <Cons<S, ST> as CompModes<Cons<D, DT>, AR>>::Output: MakeLayout,
{
    type Output = Layout<
        <<Cons<S, ST> as CompModes<Cons<D, DT>, AR>>::Output as MakeLayout>::S,
        <<Cons<S, ST> as CompModes<Cons<D, DT>, AR>>::Output as MakeLayout>::D,
    >;
    type AR = <Cons<S, ST> as CompModes<Cons<D, DT>, AR>>::AR;
}

macro_rules! leaf_comp {
    ($([$($g:ident: $b:path),*] $s:ty, $d:ty);* $(;)?) => {$(
        /// A leaf of B.
        impl<AR, $($g: $b),*> CompB<$d, AR> for $s
        where
            AR: CompLeaf<$s, $d>,
        {
            type Output = <AR as CompLeaf<$s, $d>>::Output;
            type AR = <AR as CompLeaf<$s, $d>>::AR;
        }
    )*};
}
use typenum::{Bit, UInt, UTerm, Unsigned};
crate::int_tuple::for_each_leaf_pair!(leaf_comp);

/// Precondition 4 as a verdict: every mode but the last holds the reach of B's modes
/// ([`ModesFit`]), after the verdict carried through B's leaves.
pub trait Fits {
    /// The verdict.
    type Verdict;
}
impl<AR: FitsModes, V: First<AR::Verdict>> Fits for Reaches<AR, V> {
    type Verdict = FirstOf<V, AR::Verdict>;
}
/// [`ModesFit`]'s verdict on the modes but the last.
pub trait FitsModes {
    /// The verdict.
    type Verdict;
}
impl<M> FitsModes for Cons<M, Nil> {
    type Verdict = Holds;
}
impl<S, D, K, N, T> FitsModes for Cons<Reach<Mode<S, D>, K>, Cons<N, T>>
where
    K: LtT<S>,
    <K as LtT<S>>::Output: ModesFit<K, S>,
    Cons<N, T>: FitsModes,
    <<K as LtT<S>>::Output as ModesFit<K, S>>::Verdict: First<<Cons<N, T> as FitsModes>::Verdict>,
{
    type Verdict = FirstOf<<<K as LtT<S>>::Output as ModesFit<K, S>>::Verdict, <Cons<N, T> as FitsModes>::Verdict>;
}

/// `Composed<A, B>`: the type of `composition(A, B)`.
pub type Composed<A, B> = <A as Composition<B>>::Output;

/// The flat, coalesce_x'ed modes of A with zero reaches, and no verdict yet.
type ModesOf<SA, DA> = Reaches<
    <<<<SA as FlattenModes<DA>>::Output as FixLast>::Output as CoalesceModes>::Output as WithReach>::Output,
    Holds,
>;

// Routed by both operands' static bits, as the divides are: a `B` with a run-time leaf takes
// the route of run-time leaves (see the `B1` arrangement below).
crate::tiler::arranged_op!(
    CompositionOp,
    crate::tiler::Plain,
    Composition,
    by both operands,
    /// `composition(A, B)`: `R(c) = A(B(c))`, computed by the type checker for static layouts;
    /// every precondition is a compile error (stride and shape divisibility, overlapping modes).
    /// A layout with run-time leaves gives a `Result`, equal to cute-dyn's answer (static flags
    /// included): with static shapes, whatever the nesting and `B` (its run-time strides only
    /// flow into the result's strides, CuTe C++'s dynamic-stride path); with run-time shapes, by
    /// any layout ([`composition_mixed`]) or by a by-mode tiler, whatever the nesting. A static `A`
    /// by a `B` with run-time leaves is computed when it runs, as a run-time `A`.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{composition, layout};
    /// // CuTe docs
    /// let r = composition(layout!((6,2):(8,2)), layout!((4,3):(3,1)));
    /// assert_eq!(r.to_string(), "((2,2),3):((24,2),8)");
    /// let r = composition(layout!((10,2):(16,4)), layout!((5,4):(1,5)));
    /// assert_eq!(r.to_string(), "(5,(2,2)):(16,(80,4))");
    /// assert_eq!(core::mem::size_of_val(&r), 0);
    /// // By-mode tilers (a bare n is n:1, _ keeps a mode)
    /// use cute_static::tiler;
    /// let a = layout!((12,(4,8)):(59,(13,1)));
    /// assert_eq!(composition(a, tiler!(<3:4,8:2>)).to_string(), "(3,(2,4)):(236,(26,1))");
    /// assert_eq!(composition(a, tiler!(<3,8>)).to_string(), "(3,(4,2)):(59,(13,1))");
    /// assert_eq!(composition(a, tiler!(<_,8>)).to_string(), "(12,(4,2)):(59,(13,1))");
    /// // The first example with a run-time stride s = 2: the same layout, the mode that
    /// // stride reaches run-time.
    /// let s = 2;
    /// let r = composition(layout!((6,2):(8,{s})), layout!((4,3):(3,1)))?;
    /// assert_eq!(r.to_string(), "((2,2),3):((24,{2}),8)");
    /// // With the extent 2 run-time instead: B reads A's last mode only through its stride (the
    /// // last mode is unbounded), so the answer stays static, as cute-dyn's.
    /// let n = 2;
    /// let r = composition(layout!((6,{n}):(8,2)), layout!((4,3):(3,1)))?;
    /// assert_eq!(r.to_string(), "((2,2),3):((24,2),8)");
    /// // A static 8x8 column-major tile read by a layout of run-time extent k = 16 (cute-dyn's
    /// // answer: k columns of 4 elements at stride 2, B's strides through A).
    /// let k = 16;
    /// let r = composition(layout!((8,8):(1,8)), layout!((4,{k}):(2,8)))?;
    /// assert_eq!(r.to_string(), "(4,{16}):(2,8)");
    /// // By mode, a nested mode with a run-time extent m = 8: composition(A_0, 4) takes the first
    /// // 4 elements of ({8},2):(1,{8}) (cute-dyn's answer, `((4,1),_2):((_1,8),_8)` in the cpp
    /// // style, which prints run-time values bare: the static rule keeps the modes apart).
    /// let m = 8;
    /// let r = composition(layout!((({m},2),4):((1,{m}),8)), tiler!(<4,2>))?;
    /// assert_eq!(r.to_string(), "(({4},{1}),2):((1,{8}),8)");
    /// # Ok::<(), cute_static::error::Error>(())
    /// ```
    composition
);

crate::tiler::marked_shape_route!(CompositionOp);
// By a layout or an integer, cute-dyn coalesces A by its values where the static rule's modes
// break a condition: a structure the values decide. By mode, each mode's structure is static.
crate::tiler::mixed_answers!(typed CompositionOp, [L] crate::tiler::ByMode<L>);
crate::tiler::mixed_answers!(decided CompositionOp, [SB, DB] Layout<SB, DB>, crate::tiler::Plain, |a, b| cute_dyn::composition(&a.to_dyn()?, &crate::tiler::Tiler::to_dyn(&b)?));
crate::tiler::mixed_answers!(decided CompositionOp, [U: typenum::Unsigned, Bt: typenum::Bit] typenum::UInt<U, Bt>, crate::tiler::Plain, |a, b| cute_dyn::composition(&a.to_dyn()?, &crate::tiler::Tiler::to_dyn(&b)?));
crate::tiler::mixed_answers!(decided CompositionOp, [] typenum::UTerm, crate::tiler::Plain, |a, b| cute_dyn::composition(&a.to_dyn()?, &crate::tiler::Tiler::to_dyn(&b)?));
crate::tiler::mixed_answers!(decided CompositionOp, [] usize, crate::tiler::Plain, |a, b| cute_dyn::composition(&a.to_dyn()?, &crate::tiler::Tiler::to_dyn(&b)?));

/// A static `A` by a static `B`: the type checker's composition (by mode for a by-mode tiler).
/// (Composition is routed by both operands' bits: a `B` with a run-time leaf takes the route of
/// run-time leaves, as the value here is the result type's default, which a run-time leaf
/// reaching the result would make wrong; it did, before that route: `(8,8):(1,8) o {16}:1`
/// was `{0}:1`.)
impl<SA, DA, B, R, V> crate::tiler::Arrange<crate::tiler::Plain, CompositionOp, Layout<SA, DA>, B> for B1
where
    B: TilerOp<CompositionOp, Layout<SA, DA>, Output = (R, V)>,
    R: Default,
{
    type Plan = (crate::ops::Static<R>, V);
}

/// `composition(A, B)` computed by the type checker, for static layouts and for static shapes
/// with marked run-time strides ([`crate::scaled`]); also a layout element of a composition
/// tiler, `composition(A_i, B_i)`.
impl<SA, DA, SB, DB> TilerOp<CompositionOp, Layout<SA, DA>> for Layout<SB, DB>
where
    SA: FlattenModes<DA>,
    <SA as FlattenModes<DA>>::Output: FixLast,
    <<SA as FlattenModes<DA>>::Output as FixLast>::Output: CoalesceModes,
    <<<SA as FlattenModes<DA>>::Output as FixLast>::Output as CoalesceModes>::Output: WithReach,
    SB: CompB<DB, ModesOf<SA, DA>>,
    <SB as CompB<DB, ModesOf<SA, DA>>>::AR: Fits,
{
    type Output =
        (<SB as CompB<DB, ModesOf<SA, DA>>>::Output, <<SB as CompB<DB, ModesOf<SA, DA>>>::AR as Fits>::Verdict);
}

// ------------------------------------------------------------------------------------------
// composition(A, B) of a layout with run-time extents, by a layout B (any leaves): cute-dyn's
// `composition_impl`, the structure decided on static values by the type checker (the DSL's
// rule), the values and the conditions on them computed when it runs.
// ------------------------------------------------------------------------------------------

use crate::arith::{DivMixed, MinMixed, MulMixed};
use crate::error::Error;
use crate::int_tuple::Leaf;
use crate::modes::{Known, ModeValues};

/// The most modes of `coalesce_x(A)` a mixed composition tracks (each one's reach, on the
/// stack); a layout with more is refused as an overflow.
const MAX_MODES: usize = 64;

/// composition(A, B) of a layout `A` with run-time extents and a layout `B` whose leaves may be
/// run-time too: cute-dyn's answer, static flags included, or [`Error::Undecided`] where
/// cute-dyn would decide the structure on run-time values (an admissibility condition fails
/// on the static rule's modes, so cute-dyn retries with A coalesced on its values; a run-time
/// stride of B that is 0). Overflow and division by zero are errors as in cute-dyn.
pub fn composition_mixed<SA, DA, SB, DB, F, X, M, RS, RD>(
    a: Layout<SA, DA>,
    b: Layout<SB, DB>,
) -> Result<Layout<RS, RD>, Error>
where
    SA: FlattenModes<DA, Output = F>,
    F: FixLast<Output = X>,
    X: crate::coalesce::CoalesceModesBound<Output = M>,
    M: ModeValues,
    SB: ComposeB<DB, M, S = RS, D = RD>,
{
    let (sa, da) = a.into_parts();
    compose_modes_mixed(crate::coalesce::CoalesceModesBound::coalesce_modes_bound(sa.flatten_modes(&da).fix_last()), b)
}

/// [`composition_mixed`] of A's modes `coalesce_x(A)` (its callers name their type once, as a
/// parameter: a projection named in several bounds is normalized once per bound).
pub(crate) fn compose_modes_mixed<M: ModeValues, SB: ComposeB<DB, M, S = RS, D = RD>, DB, RS, RD>(
    modes: M,
    b: Layout<SB, DB>,
) -> Result<Layout<RS, RD>, Error> {
    if M::LEN > MAX_MODES {
        return Err(Error::Overflow { op: "composition" });
    }
    let mut reach = [0i64; MAX_MODES];
    let (sb, db) = b.into_parts();
    let composed = sb.compose_b(db, &modes, &mut reach).and_then(|r| check_reach(&modes, &reach).map(|()| r));
    match composed {
        Ok((s, d)) => Ok(Layout::from_parts(s, d)),
        // An admissibility condition fails on the static rule's modes: where a run-time value
        // is among them, cute-dyn retries with A coalesced on its values, a structure no type
        // fixes; where a run-time value of B is, cute-dyn tries B's static twin, whose static
        // branches (a shape 1, a stride 0) may answer. Where all are static, the condition is
        // the answer.
        Err(e) if e.is_admissibility() && !(all_static(&modes) && SB::STATIC) => {
            Err(Error::Undecided { op: "composition" })
        }
        Err(e) => Err(e),
    }
}

/// Whether every mode's extent and stride is static.
fn all_static(modes: &impl ModeValues) -> bool {
    let mut all = true;
    modes.each_mode(&mut |_, _, s_static, d_static| all &= s_static && d_static);
    all
}

/// Right-distributivity, cute-dyn's `check_reach`: the modes of B together stay inside each
/// chain of linearly chained modes of A (but the one holding A's last mode).
fn check_reach(modes: &impl ModeValues, reach: &[i64]) -> Result<(), Error> {
    let mut pairs = [(0i64, 0i64); MAX_MODES];
    let mut n = 0;
    let mut overflow = false;
    modes.each_mode(&mut |s, d, _, _| {
        match (i64::try_from(s), i64::try_from(d)) {
            (Ok(s), Ok(d)) => pairs[n] = (s, d),
            _ => overflow = true,
        }
        n += 1;
    });
    let overflow_err = Error::Overflow { op: "composition" };
    if overflow {
        return Err(overflow_err);
    }
    let mut k = 0;
    while k < n {
        let (mut total, mut capacity) = (0i64, 1i64);
        loop {
            let (s, d) = pairs[k];
            total = reach[k].checked_mul(capacity).and_then(|r| r.checked_add(total)).ok_or(overflow_err)?;
            capacity = capacity.checked_mul(s).ok_or(overflow_err)?;
            k += 1;
            if k == n || s.checked_mul(d) != Some(pairs[k].1) {
                break;
            }
        }
        if k < n && total >= capacity {
            // (`composition_mixed` answers Undecided for a run-time value among the modes)
            let (shape, reach) = (capacity as usize, total as usize);
            return Err(Error::ModeOverlap { op: "composition", shape, reach });
        }
    }
    Ok(())
}

/// `B`'s `(shape, stride)` composed with A's modes (implemented by the shape, so that the type
/// checker looks at it only once it knows B): composition distributes over B's modes; each
/// leaf of B gives its modes ([`ByStride`]), one leaf or a tuple.
pub trait ComposeB<DB, AM> {
    /// The shape.
    type S;
    /// The stride.
    type D;
    /// Whether every leaf of B is static.
    const STATIC: bool;
    /// The result, each leaf's reach into A's modes added to `reach`.
    ///
    /// # Errors
    /// As [`composition_mixed`].
    fn compose_b(self, db: DB, a: &AM, reach: &mut [i64]) -> Result<(Self::S, Self::D), Error>;
}
impl<AM> ComposeB<Nil, AM> for Nil {
    type S = Nil;
    type D = Nil;
    const STATIC: bool = true;
    #[inline(always)]
    fn compose_b(self, _: Nil, _: &AM, _: &mut [i64]) -> Result<(Nil, Nil), Error> {
        Ok((Nil, Nil))
    }
}
impl<AM, S, ST, D, DT> ComposeB<Cons<D, DT>, AM> for Cons<S, ST>
where
    S: ComposeB<D, AM>,
    ST: ComposeB<DT, AM>,
{
    type S = Cons<<S as ComposeB<D, AM>>::S, <ST as ComposeB<DT, AM>>::S>;
    type D = Cons<<S as ComposeB<D, AM>>::D, <ST as ComposeB<DT, AM>>::D>;
    const STATIC: bool = S::STATIC && ST::STATIC;
    #[inline(always)]
    fn compose_b(self, db: Cons<D, DT>, a: &AM, reach: &mut [i64]) -> Result<(Self::S, Self::D), Error> {
        let (s, d) = self.0.compose_b(db.0, a, reach)?;
        let (st, dt) = self.1.compose_b(db.1, a, reach)?;
        Ok((Cons(s, st), Cons(d, dt)))
    }
}
macro_rules! leaf_compose_b {
    ($([$($g:ident: $b:path),*] $s:ty, $d:ty);* $(;)?) => {$(
        /// A leaf `s:d` of B: its modes in A ([`ByStride`]), one leaf or a tuple.
        impl<AM, $($g: $b),*> ComposeB<$d, AM> for $s
        where
            $d: ByStride<AM, $s>,
            <$d as ByStride<AM, $s>>::Output: FlatParts,
        {
            type S = <<$d as ByStride<AM, $s>>::Output as FlatParts>::S;
            type D = <<$d as ByStride<AM, $s>>::Output as FlatParts>::D;
            const STATIC: bool = <$s as IntTuple>::IS_STATIC && <$d as IntTuple>::IS_STATIC;
            #[inline(always)]
            fn compose_b(self, db: $d, a: &AM, reach: &mut [i64]) -> Result<(Self::S, Self::D), Error> {
                Ok(db.by_stride(a, self, reach)?.flat_parts())
            }
        }
    )*};
}
crate::int_tuple::for_each_leaf_pair!(leaf_compose_b);

/// A leaf `s:d` of B by its stride `d` (implemented by it): a static 0 reads `A(0) = 0`
/// everywhere (the mode as it is); otherwise its modes in A ([`MixedLeaf`]).
pub trait ByStride<AM, RS>: Sized {
    /// The modes.
    type Output;
    /// The modes.
    ///
    /// # Errors
    /// As [`composition_mixed`].
    fn by_stride(self, a: &AM, rs: RS, reach: &mut [i64]) -> Result<Self::Output, Error>;
}
impl<AM, RS> ByStride<AM, RS> for UTerm {
    type Output = Cons<Mode<RS, UTerm>, Nil>;
    #[inline(always)]
    fn by_stride(self, _: &AM, rs: RS, _: &mut [i64]) -> Result<Self::Output, Error> {
        Ok(Cons(Mode(rs, UTerm), Nil))
    }
}
impl<AM: MixedLeaf<RS, UInt<U, B>>, RS, U: Unsigned, B: Bit> ByStride<AM, RS> for UInt<U, B> {
    type Output = AM::Output;
    #[inline(always)]
    fn by_stride(self, a: &AM, rs: RS, reach: &mut [i64]) -> Result<Self::Output, Error> {
        a.compose_leaf(rs, self, reach)
    }
}
impl<AM: MixedLeaf<RS, usize>, RS> ByStride<AM, RS> for usize {
    type Output = AM::Output;
    #[inline(always)]
    fn by_stride(self, a: &AM, rs: RS, reach: &mut [i64]) -> Result<Self::Output, Error> {
        if self == 0 {
            // cute-dyn takes the stride-0 branch on the value: another structure.
            return Err(Error::Undecided { op: "composition" });
        }
        a.compose_leaf(rs, self, reach)
    }
}

/// composition(A, s:d) for one leaf of B (implemented by A's modes): a leaf A scales the
/// stride; otherwise [`MixedSteps`] over A's modes.
pub trait MixedLeaf<RS, RD> {
    /// The modes.
    type Output;
    /// The modes.
    ///
    /// # Errors
    /// As [`composition_mixed`].
    fn compose_leaf(&self, rs: RS, rd: RD, reach: &mut [i64]) -> Result<Self::Output, Error>;
}
impl<S, D: Copy, RS, RD: MulMixed<D>> MixedLeaf<RS, RD> for Cons<Mode<S, D>, Nil> {
    type Output = Cons<Mode<RS, <RD as MulMixed<D>>::Output>, Nil>;
    #[inline(always)]
    fn compose_leaf(&self, rs: RS, rd: RD, _: &mut [i64]) -> Result<Self::Output, Error> {
        let d = rd.checked_mul(self.0 .1).ok_or(Error::Overflow { op: "multiply" })?;
        Ok(Cons(Mode(rs, d), Nil))
    }
}
impl<M, N, T, RS, RD> MixedLeaf<RS, RD> for Cons<M, Cons<N, T>>
where
    Cons<M, Cons<N, T>>: MixedSteps<RS, RD, B1>,
{
    type Output = <Cons<M, Cons<N, T>> as MixedSteps<RS, RD, B1>>::Output;
    #[inline(always)]
    fn compose_leaf(&self, rs: RS, rd: RD, reach: &mut [i64]) -> Result<Self::Output, Error> {
        self.steps(rs, rd, 0, reach)
    }
}

/// cute-dyn's walk over A's modes (implemented by the modes left) with the rest of B's leaf,
/// `rest_shape : rest_stride`; `E` is `B1` while no mode has been taken.
///
/// | `ceil(s / rest_stride)` or `rest_shape` is a static 1 | skip: the stride advances |
/// | otherwise | take `min(ceil(s / rest_stride), rest_shape)` of stride `rest_stride * d` |
///
/// After the last mode but one, `rest_shape : rest_stride * d_last` unless a mode was taken
/// and `rest_shape` is a static 1. Admissibility (the stride and shape divisibility
/// conditions) is checked on the values; where it fails with a run-time value among A's
/// modes, cute-dyn retries on A coalesced by its values, so [`composition_mixed`] answers
/// [`Error::Undecided`] there.
pub trait MixedSteps<RS, RD, E> {
    /// The modes.
    type Output;
    /// The modes, mode `k` of A first.
    ///
    /// # Errors
    /// As [`composition_mixed`].
    fn steps(&self, rs: RS, rd: RD, k: usize, reach: &mut [i64]) -> Result<Self::Output, Error>;
}
/// The last mode.
impl<LS, LD: Copy, RS: Known, RD: MulMixed<LD>, E: core::ops::BitOr<<RS::IsOne as Not>::Output>> MixedSteps<RS, RD, E>
    for Cons<Mode<LS, LD>, Nil>
where
    RS::IsOne: Not,
    (<E as core::ops::BitOr<<RS::IsOne as Not>::Output>>::Output,): CloseLeaf<RS, <RD as MulMixed<LD>>::Output>,
{
    type Output = <(<E as core::ops::BitOr<<RS::IsOne as Not>::Output>>::Output,) as CloseLeaf<
        RS,
        <RD as MulMixed<LD>>::Output,
    >>::Output;
    #[inline(always)]
    fn steps(&self, rs: RS, rd: RD, _: usize, _: &mut [i64]) -> Result<Self::Output, Error> {
        let d = rd.checked_mul(self.0 .1).ok_or(Error::Overflow { op: "multiply" })?;
        Ok(<(<E as core::ops::BitOr<<RS::IsOne as Not>::Output>>::Output,)>::close_leaf(rs, d))
    }
}
/// The closing mode, or none.
pub trait CloseLeaf<S, D> {
    /// The modes.
    type Output;
    /// The modes.
    fn close_leaf(s: S, d: D) -> Self::Output;
}
impl<S, D> CloseLeaf<S, D> for (B1,) {
    type Output = Cons<Mode<S, D>, Nil>;
    #[inline(always)]
    fn close_leaf(s: S, d: D) -> Self::Output {
        Cons(Mode(s, d), Nil)
    }
}
impl<S, D> CloseLeaf<S, D> for (B0,) {
    type Output = Nil;
    #[inline(always)]
    fn close_leaf(_: S, _: D) -> Nil {
        Nil
    }
}

/// `ceil(s / rest_stride)` and `ceil(rest_stride / s)`.
type NextShape<CS, RD> = <CS as DivMixed<RD>>::Ceil;
type NextStride<RD, CS> = <RD as DivMixed<CS>>::Ceil;
/// The skip flag: `next_shape` or `rest_shape` is a static 1.
type SkipBit<CS, RS, RD> = <<NextShape<CS, RD> as Known>::IsOne as core::ops::BitOr<<RS as Known>::IsOne>>::Output;

/// A mode of A but the last.
impl<CS, CD, N, T, RS, RD, E> MixedSteps<RS, RD, E> for Cons<Mode<CS, CD>, Cons<N, T>>
where
    CS: DivMixed<RD> + Leaf,
    CD: Copy,
    RD: DivMixed<CS> + Leaf,
    RS: Known + Leaf,
    NextShape<CS, RD>: Known + Leaf,
    <NextShape<CS, RD> as Known>::IsOne: core::ops::BitOr<<RS as Known>::IsOne>,
    (SkipBit<CS, RS, RD>,): Take<CS, CD, Cons<N, T>, RS, RD, E>,
{
    type Output = <(SkipBit<CS, RS, RD>,) as Take<CS, CD, Cons<N, T>, RS, RD, E>>::Output;
    #[inline(always)]
    fn steps(&self, rs: RS, rd: RD, k: usize, reach: &mut [i64]) -> Result<Self::Output, Error> {
        let Mode(cs, cd) = self.0;
        let next_shape = cs.checked_ceil_div(rd)?;
        let next_stride = rd.checked_ceil_div(cs)?;
        // Precondition 1 (stride divisibility), exact as in cute-dyn.
        let (d, s, n) = (rd.value(), cs.value(), rs.value());
        let exact = divides(d, s) || (d < s && (divides(s, d) || n <= next_shape.value()));
        if n != 1 && !exact {
            return Err(Error::StrideDivisibility { op: "composition", stride: d, factor: s });
        }
        <(SkipBit<CS, RS, RD>,)>::take(cd, &self.1, next_shape, next_stride, rs, rd, k, reach)
    }
}

/// `y` divides `x` (and is not 0).
#[inline]
fn divides(x: usize, y: usize) -> bool {
    x.checked_rem(y) == Some(0)
}

/// The two branches of a step over mode `CS:CD` of A, chosen by the skip flag.
pub trait Take<CS: DivMixed<RD>, CD, Tail, RS, RD: DivMixed<CS>, E> {
    /// The modes.
    type Output;
    /// The modes.
    ///
    /// # Errors
    /// As [`composition_mixed`].
    #[allow(clippy::too_many_arguments)]
    fn take(
        cd: CD,
        tail: &Tail,
        next_shape: NextShape<CS, RD>,
        next_stride: NextStride<RD, CS>,
        rs: RS,
        rd: RD,
        k: usize,
        reach: &mut [i64],
    ) -> Result<Self::Output, Error>;
}
/// Skip: the stride advances.
impl<CS, CD, Tail, RS, RD, E> Take<CS, CD, Tail, RS, RD, E> for (B1,)
where
    CS: DivMixed<RD>,
    RD: DivMixed<CS>,
    Tail: MixedSteps<RS, NextStride<RD, CS>, E>,
{
    type Output = Tail::Output;
    #[inline(always)]
    fn take(
        _: CD,
        tail: &Tail,
        _: NextShape<CS, RD>,
        next_stride: NextStride<RD, CS>,
        rs: RS,
        _: RD,
        k: usize,
        reach: &mut [i64],
    ) -> Result<Self::Output, Error> {
        tail.steps(rs, next_stride, k + 1, reach)
    }
}
/// The part the mode takes.
type Taken<CS, RD, RS> = <NextShape<CS, RD> as MinMixed<RS>>::Output;
/// Take `min(next_shape, rest_shape)` elements of stride `rest_stride * d`.
impl<CS, CD, Tail, RS, RD, E> Take<CS, CD, Tail, RS, RD, E> for (B0,)
where
    CS: DivMixed<RD>,
    RD: DivMixed<CS> + MulMixed<CD> + Leaf,
    RS: Leaf + DivMixed<Taken<CS, RD, RS>>,
    NextShape<CS, RD>: MinMixed<RS>,
    Taken<CS, RD, RS>: Leaf,
    Tail: MixedSteps<<RS as DivMixed<Taken<CS, RD, RS>>>::Quot, NextStride<RD, CS>, B0>,
{
    type Output = Cons<Mode<Taken<CS, RD, RS>, <RD as MulMixed<CD>>::Output>, Tail::Output>;
    #[inline(always)]
    fn take(
        cd: CD,
        tail: &Tail,
        next_shape: NextShape<CS, RD>,
        next_stride: NextStride<RD, CS>,
        rs: RS,
        rd: RD,
        k: usize,
        reach: &mut [i64],
    ) -> Result<Self::Output, Error> {
        let taken = next_shape.min(rs);
        // Precondition 2 (shape divisibility)
        if !divides(rs.value(), taken.value()) {
            return Err(Error::ShapeDivisibility { op: "composition", shape: rs.value(), divisor: taken.value() });
        }
        let overflow = Error::Overflow { op: "composition" };
        let (t, d) =
            (i64::try_from(taken.value()).map_err(|_| overflow)?, i64::try_from(rd.value()).map_err(|_| overflow)?);
        let top = t.checked_sub(1).and_then(|m| m.checked_mul(d)).ok_or(overflow)?;
        reach[k] = reach[k].checked_add(top).ok_or(overflow)?;
        let stride = rd.checked_mul(cd).ok_or(Error::Overflow { op: "multiply" })?;
        let rest = rs.checked_div(taken)?;
        Ok(Cons(Mode(taken, stride), tail.steps(rest, next_stride, k + 1, reach)?))
    }
}

/// A leaf's modes as a layout's parts: one mode is a leaf `s:d`, more a tuple.
pub trait FlatParts {
    /// The shape.
    type S;
    /// The stride.
    type D;
    /// The parts.
    fn flat_parts(self) -> (Self::S, Self::D);
}
impl<S, D> FlatParts for Cons<Mode<S, D>, Nil> {
    type S = S;
    type D = D;
    #[inline(always)]
    fn flat_parts(self) -> (S, D) {
        (self.0 .0, self.0 .1)
    }
}
impl<M, N, T> FlatParts for Cons<M, Cons<N, T>>
where
    Cons<M, Cons<N, T>>: crate::coalesce::Unzip,
{
    type S = <Cons<M, Cons<N, T>> as crate::coalesce::Unzip>::Shape;
    type D = <Cons<M, Cons<N, T>> as crate::coalesce::Unzip>::Stride;
    #[inline(always)]
    fn flat_parts(self) -> (Self::S, Self::D) {
        crate::coalesce::Unzip::unzip(self)
    }
}
