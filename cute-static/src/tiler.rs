//! Tilers and the by-mode rules: the right-hand sides of composition, the divides and the
//! products (`<t0,t1,...>`, `_`, a bare `n`, a layout), how each element applies an operation
//! to its mode ([`TilerOp`]), and how a divide or product is arranged (`logical`, `zipped`,
//! `tiled`, `flat`) and routed by the layout's [`StaticBit`](crate::int_tuple::StaticBit): by the type checker when every
//! leaf is static, when it runs otherwise ([`Arrange`]).

use core::fmt;
use core::marker::PhantomData;

use typenum::{Bit, UInt, UTerm, Unsigned, B0, B1, U0, U1};

use crate::arith::{EqT, IsOne, LeT};
use crate::int_tuple::{Cons, IntTuple, Nil, RankT, StaticBit, Wrap};
use crate::layout::Layout;
use crate::verdict::{First, FirstOf, Holds};

/// `<t0,t1,...>`: a by-mode tiler; element i applies to mode i.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct ByMode<L>(pub L);

/// `_`: leave the mode as it is.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Under;

/// A tiler element: a layout, `_`, or a nested by-mode tiler.
pub trait Tiler: Copy {
    /// Write in the notation.
    ///
    /// # Errors
    /// Only the formatter's.
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
    /// The `cute-dyn` tiler.
    ///
    /// # Errors
    /// `Overflow` for a value above `i64::MAX`.
    #[cfg(feature = "dyn")]
    fn to_dyn(&self) -> cute_dyn::Result<cute_dyn::Tiler>;
}

/// The elements of a by-mode tiler.
pub trait TilerList: Copy {
    /// Write the elements, comma separated.
    ///
    /// # Errors
    /// Only the formatter's.
    fn write_elems(&self, f: &mut fmt::Formatter<'_>, first: bool) -> fmt::Result;
    /// Push the `cute-dyn` elements.
    ///
    /// # Errors
    /// As [`Tiler::to_dyn`].
    #[cfg(feature = "dyn")]
    fn push_dyn(&self, out: &mut alloc::vec::Vec<cute_dyn::Tiler>) -> cute_dyn::Result<()>;
}

impl TilerList for Nil {
    fn write_elems(&self, _: &mut fmt::Formatter<'_>, _: bool) -> fmt::Result {
        Ok(())
    }
    #[cfg(feature = "dyn")]
    fn push_dyn(&self, _: &mut alloc::vec::Vec<cute_dyn::Tiler>) -> cute_dyn::Result<()> {
        Ok(())
    }
}

impl<H: Tiler, T: TilerList> TilerList for Cons<H, T> {
    fn write_elems(&self, f: &mut fmt::Formatter<'_>, first: bool) -> fmt::Result {
        if !first {
            f.write_str(",")?;
        }
        self.0.write(f)?;
        self.1.write_elems(f, false)
    }
    #[cfg(feature = "dyn")]
    fn push_dyn(&self, out: &mut alloc::vec::Vec<cute_dyn::Tiler>) -> cute_dyn::Result<()> {
        out.push(self.0.to_dyn()?);
        self.1.push_dyn(out)
    }
}

impl<L: TilerList> Tiler for ByMode<L> {
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<")?;
        self.0.write_elems(f, true)?;
        f.write_str(">")
    }
    #[cfg(feature = "dyn")]
    fn to_dyn(&self) -> cute_dyn::Result<cute_dyn::Tiler> {
        let mut v = alloc::vec::Vec::new();
        self.0.push_dyn(&mut v)?;
        Ok(cute_dyn::Tiler::ByMode(v))
    }
}

impl Tiler for Under {
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("_")
    }
    #[cfg(feature = "dyn")]
    fn to_dyn(&self) -> cute_dyn::Result<cute_dyn::Tiler> {
        Ok(cute_dyn::Tiler::Under)
    }
}

impl<S: crate::layout::Congruent<D>, D: IntTuple> Tiler for Layout<S, D> {
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
    #[cfg(feature = "dyn")]
    fn to_dyn(&self) -> cute_dyn::Result<cute_dyn::Tiler> {
        Ok(cute_dyn::Tiler::Layout(Layout::to_dyn(self)?))
    }
}

impl<L: TilerList> fmt::Display for ByMode<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Tiler::write(self, f)
    }
}

macro_rules! int_tiler {
    ($([$($g:ident: $b:path),*] $ty:ty);*) => {$(
        /// A bare integer `n` in a tiler: the layout `n:1` (printed `n`).
        impl<$($g: $b),*> Tiler for $ty {
            fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                IntTuple::write(self, f)
            }
            #[cfg(feature = "dyn")]
            fn to_dyn(&self) -> cute_dyn::Result<cute_dyn::Tiler> {
                match IntTuple::to_dyn(self)? {
                    cute_dyn::Tuple::Leaf(n) => Ok(cute_dyn::Tiler::Int(n)),
                    _ => unreachable!("a leaf is a leaf"),
                }
            }
        }
    )*};
}
int_tiler!([] typenum::UTerm; [U: typenum::Unsigned, B: typenum::Bit] typenum::UInt<U, B>; [] usize);

/// `make_layout(L0, L1, ...)` of a list of layouts.
pub trait MakeLayout {
    /// The shapes.
    type S;
    /// The strides.
    type D;
}
impl MakeLayout for Nil {
    type S = Nil;
    type D = Nil;
}
impl<S, D, T: MakeLayout> MakeLayout for Cons<Layout<S, D>, T> {
    type S = Cons<S, T::S>;
    type D = Cons<D, T::D>;
}

cute_macros::decimal_condition! {
    /// A by-mode tiler has at most as many elements as the layout has modes. Implemented by
    /// `rank(tiler) <= rank(A)`.
    pub trait TilerRank(tiler, rank) {
        message = "rank mismatch: a by-mode tiler of {tiler} elements for a layout of rank {rank}",
        label = "a by-mode tiler has at most rank(A) = {rank} elements",
        note = "element i of the tiler applies to mode i of the layout; modes past the tiler are kept (divides, products) or dropped (composition)",
    }
}

// ------------------------------------------------------------------------------------------
// By-mode application of a tiler: composition (modes past the tiler dropped, as in C++ 4.2),
// the divides and the products (modes past the tiler kept). One dispatch for all three, as
// cute-dyn's `by_mode`.
// ------------------------------------------------------------------------------------------

pub use crate::ops::{CompositionOp, DivideOp, Flat, Plain, ProductOp, Tile, Zip};

/// A tiler's [`StaticBit`]: `B1` when every leaf is static (a layout, `_`, a static integer, or
/// a by-mode tiler of those; layouts, integers and lists have theirs). Only such a tiler of a
/// static layout is applied by the type checker (a run-time value would reach the result, whose
/// value on that route is its type's default); a tiler with a run-time leaf takes the route of
/// run-time leaves ([`ShapeRoute`]): composition and the divides, as the products, are routed by
/// both operands' bits.
impl StaticBit for Under {
    type Output = B1;
}
impl<L: StaticBit> StaticBit for ByMode<L> {
    type Output = L::Output;
}

/// `Op` applied to `A` by a tiler element, implemented by the element (so that the type
/// checker looks at it only once it knows the tiler): a layout (the operation itself, in
/// `divide` and `product`), `_`, a bare `n`, or a nested by-mode tiler. This dispatch exists
/// once for the divides and the products.
pub trait TilerOp<Op, A> {
    /// `(result layout, verdict)`: the verdict on the operation's preconditions
    /// ([`crate::verdict`]) in one associated type with the result (a second one, named in a
    /// bound, has rustc prove the impl again).
    type Output;
}

/// What a bare `n` means to an operation: `n:_1` for composition, `make_layout(n)` for the
/// divides and products.
pub trait IntRule<N> {
    /// The layout `n` stands for.
    type Output;
}
impl<N> IntRule<N> for CompositionOp {
    type Output = Layout<N, U1>;
}
impl<N: IntLayout> IntRule<N> for DivideOp {
    type Output = <N as IntLayout>::Output;
}
impl<N: IntLayout> IntRule<N> for ProductOp {
    type Output = <N as IntLayout>::Output;
}

/// What becomes of A's modes past the tiler, as `(layout of the modes, verdict)`: dropped by
/// composition, kept by the divides and products.
pub trait RestRule<S, D> {
    /// `(Layout<shapes, strides>, Holds)`.
    type Output;
}
impl<S, D> RestRule<S, D> for CompositionOp {
    type Output = (Layout<Nil, Nil>, Holds);
}
impl<S, D> RestRule<S, D> for DivideOp {
    type Output = (Layout<S, D>, Holds);
}
impl<S, D> RestRule<S, D> for ProductOp {
    type Output = (Layout<S, D>, Holds);
}

/// `_`: the mode as it is.
impl<Op, SA, DA> TilerOp<Op, Layout<SA, DA>> for Under {
    type Output = (Layout<SA, DA>, Holds);
}

/// `make_layout(n)`: `n:_1`, or `_1:_0` for a static 1 (C++'s compact layouts).
pub trait IntLayout {
    /// The layout.
    type Output;
}
impl<N: EqT<U1>> IntLayout for N
where
    (IsOne<N>,): PickInt<N>,
{
    type Output = <(IsOne<N>,) as PickInt<N>>::Output;
}
/// `_1:_0` or `n:_1`.
pub trait PickInt<N> {
    /// The layout.
    type Output;
}
impl<N> PickInt<N> for (B1,) {
    type Output = Layout<U1, U0>;
}
impl<N> PickInt<N> for (B0,) {
    type Output = Layout<N, U1>;
}

macro_rules! int_tiler_op {
    ($([$($g:ident: $b:path),*] $ty:ty);*) => {$(
        /// A bare integer `n`: the operation with the layout `n` stands for ([`IntRule`]).
        impl<Op, SA, DA, $($g: $b),*> TilerOp<Op, Layout<SA, DA>> for $ty
        where
            Op: IntRule<$ty>,
            <Op as IntRule<$ty>>::Output: TilerOp<Op, Layout<SA, DA>>,
        {
            type Output = <<Op as IntRule<$ty>>::Output as TilerOp<Op, Layout<SA, DA>>>::Output;
        }
    )*};
}
int_tiler_op!([] UTerm; [U: Unsigned, B: Bit] UInt<U, B>);

/// The elements of a by-mode tiler against A's modes, as `(layout of the resulting modes,
/// verdict)`; the modes past the tiler follow [`RestRule`].
pub trait ModesOp<Op, SA, DA> {
    /// `(Layout<shapes, strides>, verdict)`.
    type Output;
}
impl<Op> ModesOp<Op, Nil, Nil> for Nil {
    type Output = (Layout<Nil, Nil>, Holds);
}
/// Tiler elements past A's modes: nothing (the [`TilerRank`] verdict reports them).
impl<Op, T, TT> ModesOp<Op, Nil, Nil> for Cons<T, TT> {
    type Output = (Layout<Nil, Nil>, Holds);
}
/// Past the tiler: A's remaining modes, as the operation's [`RestRule`] says.
impl<Op, S, ST, D, DT> ModesOp<Op, Cons<S, ST>, Cons<D, DT>> for Nil
where
    Op: RestRule<Cons<S, ST>, Cons<D, DT>>,
{
    type Output = <Op as RestRule<Cons<S, ST>, Cons<D, DT>>>::Output;
}
impl<Op, T, TT, S, ST, D, DT, S1, D1, V1, SR, DR, VR> ModesOp<Op, Cons<S, ST>, Cons<D, DT>> for Cons<T, TT>
where
    T: TilerOp<Op, Layout<S, D>, Output = (Layout<S1, D1>, V1)>,
    TT: ModesOp<Op, ST, DT, Output = (Layout<SR, DR>, VR)>,
    V1: First<VR>,
{
    type Output = (Layout<Cons<S1, SR>, Cons<D1, DR>>, FirstOf<V1, VR>);
}

/// A by-mode tiler: element i applies the operation to mode i of A; a tiler of more elements
/// than A has modes is [`TilerRank`]'s verdict.
impl<Op, SA, DA, L, M, V> TilerOp<Op, Layout<SA, DA>> for ByMode<L>
where
    SA: Wrap,
    DA: Wrap,
    L: RankT,
    <SA as Wrap>::Output: RankT,
    <L as RankT>::Output: LeT<<<SA as Wrap>::Output as RankT>::Output>,
    <<L as RankT>::Output as LeT<<<SA as Wrap>::Output as RankT>::Output>>::Output:
        TilerRank<<L as RankT>::Output, <<SA as Wrap>::Output as RankT>::Output>,
    L: ModesOp<Op, <SA as Wrap>::Output, <DA as Wrap>::Output, Output = (M, V)>,
    RankVerdict<L, SA>: First<V>,
{
    type Output = (M, FirstOf<RankVerdict<L, SA>, V>);
}

/// [`TilerRank`]'s verdict on a by-mode tiler `L` of a layout of shape `SA`.
type RankVerdict<L, SA> =
    <<<L as RankT>::Output as LeT<<<SA as Wrap>::Output as RankT>::Output>>::Output as TilerRank<
        <L as RankT>::Output,
        <<SA as Wrap>::Output as RankT>::Output,
    >>::Verdict;

/// The shape and stride types of a layout.
pub trait Parts {
    /// The shape.
    type S;
    /// The stride.
    type D;
}
impl<S, D> Parts for Layout<S, D> {
    type S = S;
    type D = D;
}

// ------------------------------------------------------------------- zipped, tiled, flat

/// CuTe's `zip2_by` on a divided (or multiplied) layout, guided by the tiler (implemented by
/// the guide): the rank-2 modes at the tiler's terminals are gathered into
/// `((tiles...), (rests..., untouched modes...))`.
pub trait Unzip2By<S, D> {
    /// The tile shapes and strides, and the rest shapes and strides, as lists.
    type TS;
    /// Tile strides.
    type TD;
    /// Rest shapes.
    type RS;
    /// Rest strides.
    type RD;
}

/// A terminal (a layout, an integer or `_`): the mode is `(tile, rest)`.
macro_rules! terminal_unzip {
    ($([$($g:ident: $b:path),*] $ty:ty);*) => {$(
        impl<T0, R0, T1, R1, $($g: $b),*> Unzip2By<Cons<T0, Cons<R0, Nil>>, Cons<T1, Cons<R1, Nil>>> for $ty {
            type TS = T0;
            type TD = T1;
            type RS = R0;
            type RD = R1;
        }
    )*};
}
terminal_unzip!([] UTerm; [U: Unsigned, B: Bit] UInt<U, B>; [] Under; [SB: Sized, DB: Sized] Layout<SB, DB>);

/// The elements of a by-mode guide against the modes; the modes past it go to the rests.
pub trait Unzip2List<S, D> {
    /// Tile shapes.
    type TS;
    /// Tile strides.
    type TD;
    /// Rest shapes.
    type RS;
    /// Rest strides.
    type RD;
}
impl<S, D> Unzip2List<S, D> for Nil {
    type TS = Nil;
    type TD = Nil;
    type RS = S;
    type RD = D;
}
/// Guide elements past the layout's modes: nothing (the tiler's [`TilerRank`] verdict reports
/// them).
///
/// [`TilerRank`]: crate::tiler::TilerRank
impl<G, GT> Unzip2List<Nil, Nil> for Cons<G, GT> {
    type TS = Nil;
    type TD = Nil;
    type RS = Nil;
    type RD = Nil;
}
impl<G, GT, S, ST, D, DT> Unzip2List<Cons<S, ST>, Cons<D, DT>> for Cons<G, GT>
where
    G: Unzip2By<S, D>,
    GT: Unzip2List<ST, DT>,
{
    type TS = Cons<<G as Unzip2By<S, D>>::TS, <GT as Unzip2List<ST, DT>>::TS>;
    type TD = Cons<<G as Unzip2By<S, D>>::TD, <GT as Unzip2List<ST, DT>>::TD>;
    type RS = Cons<<G as Unzip2By<S, D>>::RS, <GT as Unzip2List<ST, DT>>::RS>;
    type RD = Cons<<G as Unzip2By<S, D>>::RD, <GT as Unzip2List<ST, DT>>::RD>;
}

/// A by-mode guide: each element unzips its mode, tiles and rests gathered.
impl<L, S, D> Unzip2By<S, D> for ByMode<L>
where
    S: Wrap,
    D: Wrap,
    L: Unzip2List<<S as Wrap>::Output, <D as Wrap>::Output>,
{
    type TS = <L as Unzip2List<<S as Wrap>::Output, <D as Wrap>::Output>>::TS;
    type TD = <L as Unzip2List<<S as Wrap>::Output, <D as Wrap>::Output>>::TD;
    type RS = <L as Unzip2List<<S as Wrap>::Output, <D as Wrap>::Output>>::RS;
    type RD = <L as Unzip2List<<S as Wrap>::Output, <D as Wrap>::Output>>::RD;
}

/// `tile_unzip(L, guide)`: the zipped layout `((tiles), (rests))`.
pub type Zipped<G, S, D> = Layout<
    Cons<<G as Unzip2By<S, D>>::TS, Cons<<G as Unzip2By<S, D>>::RS, Nil>>,
    Cons<<G as Unzip2By<S, D>>::TD, Cons<<G as Unzip2By<S, D>>::RD, Nil>>,
>;

/// The modes `L(_, repeat<R>(_))` keeps of one mode: a rank-1 mode (a leaf or `(s)`) stays one
/// mode, a tuple of another rank is spliced into its modes.
pub trait Unpack<D>: Sized {
    /// The shapes, as a list.
    type S;
    /// The strides, as a list.
    type D;
    /// The modes' values (a layout with run-time leaves: the mixed divides).
    fn unpack(self, d: D) -> (Self::S, Self::D);
}
impl<H, D> Unpack<Cons<D, Nil>> for Cons<H, Nil> {
    type S = Cons<Cons<H, Nil>, Nil>;
    type D = Cons<Cons<D, Nil>, Nil>;
    #[inline(always)]
    fn unpack(self, d: Cons<D, Nil>) -> (Self::S, Self::D) {
        (Cons(self, Nil), Cons(d, Nil))
    }
}
impl<H, H2, T, D, D2, E> Unpack<Cons<D, Cons<D2, E>>> for Cons<H, Cons<H2, T>> {
    type S = Cons<H, Cons<H2, T>>;
    type D = Cons<D, Cons<D2, E>>;
    #[inline(always)]
    fn unpack(self, d: Cons<D, Cons<D2, E>>) -> (Self::S, Self::D) {
        (self, d)
    }
}
impl Unpack<Nil> for Nil {
    type S = Nil;
    type D = Nil;
    #[inline(always)]
    fn unpack(self, _: Nil) -> (Nil, Nil) {
        (Nil, Nil)
    }
}
macro_rules! leaf_unpack {
    ($([$($g:ident: $b:path),*] $s:ty, $d:ty);* $(;)?) => {$(
        impl<$($g: $b),*> Unpack<$d> for $s {
            type S = Cons<$s, Nil>;
            type D = Cons<$d, Nil>;
            #[inline(always)]
            fn unpack(self, d: $d) -> (Self::S, Self::D) {
                (Cons(self, Nil), Cons(d, Nil))
            }
        }
    )*};
}
crate::int_tuple::for_each_leaf_pair!(leaf_unpack);
crate::scaled::for_each_scaled_pair!(leaf_unpack);

/// The zipped, tiled and flat forms of a divide or a product: `$op` is the operation's marker
/// ([`DivideOp`], `ProductOp`), `$res` its result alias. Each is an [`Arrange`] route: computed
/// by the type checker when every leaf of the layout is static, or when it runs otherwise.
macro_rules! rearrangements {
    ($op:ty, $res:ident, $zalias:ident, $ztr:ident, $ttr:ident, $ftr:ident, $([$by:ident $both:ident $operands:ident],)?
     $(#[$zdoc:meta])* $zipped:ident, $(#[$tdoc:meta])* $tiled:ident, $(#[$fdoc:meta])* $flat:ident) => {
        // Every intermediate type is a parameter bound by an associated-type equality (see the
        // `gate` module): inferred once, never normalized again by code generation.
        impl<SA, DA, B, S, D, V, TS, TD, RS, RD> $crate::tiler::Arrange<$crate::tiler::Zip, $op, $crate::Layout<SA, DA>, B> for typenum::B1
        where
            B: $crate::tiler::TilerOp<$op, $crate::Layout<SA, DA>, Output = ($crate::Layout<S, D>, V)>,
            B: $crate::tiler::Unzip2By<S, D, TS = TS, TD = TD, RS = RS, RD = RD>,
            $crate::Layout<$crate::Cons<TS, $crate::Cons<RS, $crate::Nil>>, $crate::Cons<TD, $crate::Cons<RD, $crate::Nil>>>: Default,
        {
            type Plan = ($crate::ops::Static<$crate::Layout<$crate::Cons<TS, $crate::Cons<RS, $crate::Nil>>, $crate::Cons<TD, $crate::Cons<RD, $crate::Nil>>>>, V);
        }

        impl<SA, DA, B, S, D, V, TS, TD, RS, RD, US, UD> $crate::tiler::Arrange<$crate::tiler::Tile, $op, $crate::Layout<SA, DA>, B> for typenum::B1
        where
            B: $crate::tiler::TilerOp<$op, $crate::Layout<SA, DA>, Output = ($crate::Layout<S, D>, V)>,
            B: $crate::tiler::Unzip2By<S, D, TS = TS, TD = TD, RS = RS, RD = RD>,
            RS: $crate::tiler::Unpack<RD, S = US, D = UD>,
            $crate::Layout<$crate::Cons<TS, US>, $crate::Cons<TD, UD>>: Default,
        {
            type Plan = ($crate::ops::Static<$crate::Layout<$crate::Cons<TS, US>, $crate::Cons<TD, UD>>>, V);
        }

        impl<SA, DA, B, S, D, V, TS, TD, RS, RD, PS, PD, US, UD, FS, FD> $crate::tiler::Arrange<$crate::tiler::Flat, $op, $crate::Layout<SA, DA>, B> for typenum::B1
        where
            B: $crate::tiler::TilerOp<$op, $crate::Layout<SA, DA>, Output = ($crate::Layout<S, D>, V)>,
            B: $crate::tiler::Unzip2By<S, D, TS = TS, TD = TD, RS = RS, RD = RD>,
            TS: $crate::tiler::Unpack<TD, S = PS, D = PD>,
            RS: $crate::tiler::Unpack<RD, S = US, D = UD>,
            PS: crate::int_tuple::Concat<US, Output = FS>,
            PD: crate::int_tuple::Concat<UD, Output = FD>,
            $crate::Layout<FS, FD>: Default,
        {
            type Plan = ($crate::ops::Static<$crate::Layout<FS, FD>>, V);
        }

        #[doc = concat!("The type of `", stringify!($zipped), "(A, B)` for a static `A`.")]
        pub type $zalias<A, B> = $crate::tiler::Zipped<B, <$res<A, B> as $crate::tiler::Parts>::S, <$res<A, B> as $crate::tiler::Parts>::D>;

        $crate::tiler::arranged_op!($op, $crate::tiler::Zip, $ztr, $($by $both $operands,)? $(#[$zdoc])* $zipped);
        $crate::tiler::arranged_op!($op, $crate::tiler::Tile, $ttr, $($by $both $operands,)? $(#[$tdoc])* $tiled);
        $crate::tiler::arranged_op!($op, $crate::tiler::Flat, $ftr, $($by $both $operands,)? $(#[$fdoc])* $flat);
    };
}
pub(crate) use rearrangements;

/// An operation routed by [`Arrange`]: its plan ([`Arranged`](crate::ops::Arranged), which
/// the operation's trait in `ops` builds on), the free function and `Layout`'s own method. The
/// route is chosen by the layout's [`StaticBit`], or, with `by both operands`, by both
/// operands' (the divides, products and composition take run-time leaves in either: a static
/// layout by a tiler with a run-time leaf is computed when it runs). The route gives
/// `(plan, verdict)`: the plan ([`Run`](crate::ops::Run)) carries the result's type, the
/// verdict the preconditions ([`crate::verdict`]). The free function (any `L` with a plan) and
/// `Layout`'s own method (any leaves: a method call on a layout finds it before the trait's)
/// run the plan and ask the verdict to pass in a bound of its own, so that a violation's error
/// names the condition and no layout; code generation resolves only the plan's light impl,
/// not the trait method's, which would prove the type-level algorithm a second time
/// (`compile_time.sh --instructions`: mixed_composition, a method call, 26 -> 17 million
/// instructions against the trait's method; method_logical_divide 79 -> 75).
macro_rules! arranged_op {
    ($op:ty, $how:ty, $tr:ident, $(#[$doc:meta])* $name:ident) => {
        $crate::tiler::arranged_op!(@ $op, $how, $tr, $crate::Layout<SA, DA>, $(#[$doc])* $name);
    };
    ($op:ty, $how:ty, $tr:ident, by both operands, $(#[$doc:meta])* $name:ident) => {
        $crate::tiler::arranged_op!(@ $op, $how, $tr, $crate::Cons<$crate::Layout<SA, DA>, $crate::Cons<B, $crate::Nil>>, $(#[$doc])* $name);
    };
    (@ $op:ty, $how:ty, $tr:ident, $bits:ty, $(#[$doc:meta])* $name:ident) => {
        // The route is bound by its plan alone: naming a second associated type of the same
        // route (its result) had rustc prove the route's bounds once more
        // (`compile_time.sh --instructions`: composition_2mode 96 -> 82, logical_divide 89 -> 76).
        /// The operation's plan and verdict, by the route.
        impl<SA, DA, B, G, P> $crate::ops::Arranged<$how, $op, B> for $crate::Layout<SA, DA>
        where
            $bits: $crate::gate::StaticBit<Output = G>,
            G: $crate::tiler::Arrange<$how, $op, $crate::Layout<SA, DA>, B, Plan = P>,
        {
            type Out = P;
        }

        $(#[$doc])*
        #[inline(always)]
        pub fn $name<L, B, P, V>(l: L, b: B) -> P::Output
        where
            L: $crate::ops::Arranged<$how, $op, B, Out = (P, V)>,
            P: $crate::ops::Run<L, B>,
            V: $crate::verdict::Pass,
        {
            #[allow(clippy::let_unit_value)]
            let () = <V as $crate::verdict::Pass>::CHECK;
            P::run(l, b)
        }

        impl<SA, DA> $crate::Layout<SA, DA> {
            #[doc = concat!("`", stringify!($name), "(self, b)`: the [`", stringify!($tr), "`](crate::", stringify!($tr),
                ") trait's result, its plan run as the free function [`", stringify!($name), "`](fn@crate::",
                stringify!($name), ") runs it.")]
            #[inline(always)]
            pub fn $name<B, P, V>(self, b: B) -> P::Output
            where
                Self: $crate::ops::Arranged<$how, $op, B, Out = (P, V)>,
                P: $crate::ops::Run<Self, B>,
                V: $crate::verdict::Pass,
            {
                #[allow(clippy::let_unit_value)]
                let () = <V as $crate::verdict::Pass>::CHECK;
                P::run(self, b)
            }
        }
    };
}
pub(crate) use arranged_op;

/// How a divide or product `Op` arranged as `How` is computed, chosen by the layout's
/// [`StaticBit`](crate::gate::StaticBit): by the type checker (`B1`, every leaf static; the
/// result is zero-sized and every precondition a compile error) or when it runs (`B0`, a
/// run-time leaf: a `Result`, the conditions on run-time values checked then).
pub trait Arrange<How, Op, A, B> {
    /// `(plan, verdict)`: how the result is computed ([`Run`](crate::ops::Run); the result's
    /// type is the plan's), and the verdict on the preconditions ([`crate::verdict`]; `Holds`
    /// on the run-time routes, whose conditions on run-time values are checked when it runs).
    type Plan;
}

/// A run-time leaf in the layout or the tiler: routed by whether the layout's shape and the
/// tiler are static ([`ShapeRoute`]).
// (The bits and the result are parameters bound once: a projection named in several places
// had rustc prove the operation's bounds again for each. Both bits are the route's `Self`
// type, not two nested routes: each level's method is resolved again by code generation,
// which proves the operation's bounds again.)
impl<How, Op, SA, DA, B, G, H, P> Arrange<How, Op, Layout<SA, DA>, B> for typenum::B0
where
    SA: StaticBit<Output = G>,
    B: StaticBit<Output = H>,
    (G, H): ShapeRoute<How, Op, Layout<SA, DA>, B, Plan = P>,
{
    type Plan = P;
}

/// How an operation with a run-time leaf is computed, chosen by the layout's shape's and the
/// tiler's [`StaticBit`]s `(shape, tiler)`: static shapes with run-time strides by a static
/// tiler (`(B1, B1)`) go through the type checker's algorithm on marked strides
/// ([`crate::scaled`]), whatever the nesting and the tiler (for the operations that do not
/// compare strides: `marked_shape_route`); otherwise the route of run-time leaves ([`Mixed`]).
pub trait ShapeRoute<How, Op, A, B> {
    /// `(plan, verdict)`, as [`Arrange`]'s: the plan's result a `Result`, as conditions on
    /// run-time values are checked when it runs.
    type Plan;
}

/// A run-time extent.
impl<How, Op: MixedAnswer<How, A, B, Answer = R>, A, B, H, R> ShapeRoute<How, Op, A, B> for (typenum::B0, H) {
    type Plan = (ByMixed<How, Op, R>, Holds);
}

/// Static shapes: by a static tiler (`(B1, B1)`), the static route on the layout with its
/// run-time strides marked, then each marker of the result resolved to its value (the
/// operations whose static algorithm carries a stride it does not compare: composition, the
/// divides, upcast, downcast); by a tiler with a run-time leaf (`(B1, B0)`), the route of
/// run-time leaves ([`Mixed`]).
macro_rules! marked_shape_route {
    ($($op:ty),*) => {$(
        impl<How, SA, DA, B, G, V> $crate::tiler::ShapeRoute<How, $op, $crate::Layout<SA, DA>, B> for (typenum::B1, typenum::B1)
        where
            SA: $crate::layout::Congruent<DA>,
            DA: $crate::IntTuple + $crate::scaled::Symbolize<typenum::U0>,
            typenum::B1: $crate::tiler::Arrange<How, $op, $crate::Layout<SA, $crate::scaled::Marked<DA>>, B, Plan = ($crate::ops::Static<G>, V)>,
        {
            type Plan = ($crate::tiler::ResolveMarked<G>, V);
        }
        $crate::tiler::mixed_shape_route!(@ [] (typenum::B1, typenum::B0), $op);
    )*};
}
pub(crate) use marked_shape_route;

/// Static shapes through a product (complement sorts the strides, which a marked stride cannot
/// be), or by a tiler with a run-time leaf: the route of run-time leaves ([`Mixed`]).
macro_rules! mixed_shape_route {
    ($($op:ty),*) => {$(
        $crate::tiler::mixed_shape_route!(@ [H] (typenum::B1, H), $op);
    )*};
    (@ [$($g:ident)?] $bits:ty, $op:ty) => {
        impl<How, A, B, $($g,)? R> $crate::tiler::ShapeRoute<How, $op, A, B> for $bits
        where
            $op: $crate::tiler::MixedAnswer<How, A, B, Answer = R>,
        {
            type Plan = ($crate::tiler::ByMixed<How, $op, R>, $crate::verdict::Holds);
        }
    };
}
pub(crate) use mixed_shape_route;

/// The plan of a route of run-time leaves ([`Mixed`]): `Op::answer(a, b)` ([`MixedAnswer`]).
pub struct ByMixed<How, Op, R>(PhantomData<(How, Op, R)>);
impl<How, Op: MixedAnswer<How, A, B, Answer = R>, A, B, R> crate::ops::Run<A, B> for ByMixed<How, Op, R> {
    type Output = R;
    #[inline(always)]
    fn run(a: A, b: B) -> R {
        Op::answer(a, b)
    }
}

/// What a route of run-time leaves answers with: the typed `Result` of [`Mixed`] (the
/// divides, the recasts, composition by mode: their structure comes from static values), or
/// a [`Decided`](crate::Decided) where the values may decide the structure (the products and
/// composition by a layout or an integer: cute-dyn sorts and compares values in complement and
/// coalesces by them in composition; the operation modules say which).
pub trait MixedAnswer<How, A, B> {
    /// The answer's type.
    type Answer;
    /// The answer.
    fn answer(a: A, b: B) -> Self::Answer;
}

/// `MixedAnswer` of operations: `typed` for [`Mixed`]'s result as it is (for every right
/// operand, or for one type `$b`), `decided` for a [`Decided`](crate::Decided) whose run-time
/// structure is cute-dyn's answer `$by_values` (an expression of the operands `$a`, `$b`,
/// compiled only with the `dyn` feature).
macro_rules! mixed_answers {
    (typed $op:ty) => {
        $crate::tiler::mixed_answers!(typed $op, [B] B);
    };
    (typed $op:ty, [$($g:ident $(: $bound:path)?),*] $b:ty) => {
        impl<How, A, $($g $(: $bound)?,)* R> $crate::tiler::MixedAnswer<How, A, $b> for $op
        where
            $op: $crate::tiler::Mixed<How, A, $b, Output = R>,
        {
            type Answer = R;
            #[inline(always)]
            fn answer(a: A, b: $b) -> R {
                <$op as $crate::tiler::Mixed<How, A, $b>>::mixed(a, b)
            }
        }
    };
    (decided $op:ty, [$($g:ident $(: $bound:path)?),*] $b:ty, $how:ty, |$a:ident, $bb:ident| $by_values:expr) => {
        impl<SA, DA, $($g $(: $bound)?,)* R> $crate::tiler::MixedAnswer<$how, $crate::Layout<SA, DA>, $b> for $op
        where
            $op: $crate::tiler::Mixed<$how, $crate::Layout<SA, DA>, $b, Output = Result<R, $crate::error::Error>>,
            SA: $crate::layout::Congruent<DA>,
            DA: $crate::IntTuple,
            $b: $crate::tiler::Tiler,
        {
            type Answer = Result<$crate::Decided<R>, $crate::error::Error>;
            #[inline(always)]
            fn answer($a: $crate::Layout<SA, DA>, $bb: $b) -> Self::Answer {
                let typed = <$op as $crate::tiler::Mixed<$how, $crate::Layout<SA, DA>, $b>>::mixed($a, $bb);
                $crate::decided::decide!(typed, || $by_values)
            }
        }
    };
}
pub(crate) use mixed_answers;

/// An arrangement (`Plain`, `Zip`, `Tile`, `Flat`) of a divide or a product `Op`, as cute-dyn's
/// function of it (what a product or divide by one layout calls for a run-time structure).
pub trait ByValues<Op> {
    /// cute-dyn's answer for `a` by `b`.
    ///
    /// # Errors
    /// cute-dyn's.
    #[cfg(feature = "dyn")]
    fn by_values(a: &cute_dyn::Layout, b: &cute_dyn::Tiler) -> cute_dyn::Result<cute_dyn::Layout>;
}
macro_rules! by_values {
    ($($op:ty: $($how:ty => $f:ident),*;)*) => {$($(
        impl ByValues<$op> for $how {
            #[cfg(feature = "dyn")]
            fn by_values(a: &cute_dyn::Layout, b: &cute_dyn::Tiler) -> cute_dyn::Result<cute_dyn::Layout> {
                cute_dyn::$f(a, b)
            }
        }
    )*)*};
}
by_values! {
    crate::ops::DivideOp: Plain => logical_divide, Zip => zipped_divide, Tile => tiled_divide, Flat => flat_divide;
    crate::ops::ProductOp: Plain => logical_product, Zip => zipped_product, Tile => tiled_product, Flat => flat_product;
}

/// The plan of static extents with run-time strides by a static tiler: the type checker's
/// result on the marked strides `G`, each marker resolved to its stride when it runs.
pub struct ResolveMarked<G>(PhantomData<G>);
impl<SA, DA, B, G: Default + crate::scaled::ResolveLayout<DA>> crate::ops::Run<Layout<SA, DA>, B> for ResolveMarked<G> {
    type Output = Result<G::Output, crate::error::Error>;
    #[inline(always)]
    fn run(a: Layout<SA, DA>, _: B) -> Self::Output {
        G::default().resolve_layout(&a.into_parts().1)
    }
}

/// An operation on a layout with run-time leaves.
#[diagnostic::on_unimplemented(
    message = "with run-time leaves (in the layout's extents or in the tiler), this operation takes a by-mode tiler of layouts or integers (the divides and products: or of such tilers, nested), or one layout or integer",
    label = "a layout or tiler with a run-time ({{expr}}) leaf",
    note = "e.g. `layout!(({{m}},{{n}}):(1,{{m}})).zipped_divide(tiler!(<32,64>))`; static extents with run-time strides take any tiler; otherwise use the cute-dyn operation on `.to_dyn()`"
)]
pub trait Mixed<How, A, B> {
    /// The result type: a `Result`, as conditions on run-time values are checked when it runs.
    type Output;
    /// The result.
    fn mixed(a: A, b: B) -> Self::Output;
}

/// The logical, zipped, tiled and flat forms of an operation `$op` (a divide or a product) of a
/// layout with run-time leaves by one layout or integer `$t` (not by mode), from its two
/// modes `(tile, rest)`, which `$parts::$method` computes (implemented by the tiler; its `Output` is
/// `(tile shape, tile stride, rest shape, rest stride)`). CuTe's `zip2_by` keeps the layout
/// whole for a guide that is not a tuple, so the zipped form is the logical one; the tiled
/// form unpacks the rest, the flat form the tile and the rest.
macro_rules! whole_layout_ops {
    ($op:ty, $parts:ident::$method:ident; $([$($g:ident: $b:path),*] $t:ty);*) => {
        // In a block of its own for its imports. Each part is a parameter bound once by an
        // associated-type equality (an alias of the projection, named in several places, had
        // rustc prove the operation's bounds again for each: 5x the cost of a product).
        const _: () = {
            use $crate::error::Error;
            use $crate::int_tuple::{Concat, Cons, Nil};
            use $crate::layout::Layout;
            use $crate::tiler::{Flat, Mixed, Plain, Tile, Unpack, Zip};

            $(
                /// The logical form.
                impl<SA, DA, TS, TD, RS, RD, $($g: $b),*> Mixed<Plain, Layout<SA, DA>, $t> for $op
                where
                    $t: $parts<SA, DA, Output = (TS, TD, RS, RD)>,
                {
                    type Output = Result<Layout<Cons<TS, Cons<RS, Nil>>, Cons<TD, Cons<RD, Nil>>>, Error>;
                    #[inline(always)]
                    fn mixed(a: Layout<SA, DA>, t: $t) -> Self::Output {
                        let (sa, da) = a.into_parts();
                        let (ts, td, rs, rd) = <$t as $parts<SA, DA>>::$method(&t, sa, da)?;
                        Ok(Layout::from_parts(Cons(ts, Cons(rs, Nil)), Cons(td, Cons(rd, Nil))))
                    }
                }
                /// The zipped form: the logical one (a guide that is not a tuple keeps the
                /// layout whole).
                impl<SA, DA, R, $($g: $b),*> Mixed<Zip, Layout<SA, DA>, $t> for $op
                where
                    $op: Mixed<Plain, Layout<SA, DA>, $t, Output = R>,
                {
                    type Output = R;
                    #[inline(always)]
                    fn mixed(a: Layout<SA, DA>, t: $t) -> R {
                        <$op as Mixed<Plain, Layout<SA, DA>, $t>>::mixed(a, t)
                    }
                }
                /// The tiled form: `(tile, rest0, rest1, ...)`.
                impl<SA, DA, TS, TD, RS, RD, US, UD, $($g: $b),*> Mixed<Tile, Layout<SA, DA>, $t> for $op
                where
                    $t: $parts<SA, DA, Output = (TS, TD, RS, RD)>,
                    RS: Unpack<RD, S = US, D = UD>,
                {
                    type Output = Result<Layout<Cons<TS, US>, Cons<TD, UD>>, Error>;
                    #[inline(always)]
                    fn mixed(a: Layout<SA, DA>, t: $t) -> Self::Output {
                        let (sa, da) = a.into_parts();
                        let (ts, td, rs, rd) = <$t as $parts<SA, DA>>::$method(&t, sa, da)?;
                        let (us, ud) = rs.unpack(rd);
                        Ok(Layout::from_parts(Cons(ts, us), Cons(td, ud)))
                    }
                }
                /// The flat form: `(tile0, tile1, ..., rest0, rest1, ...)`.
                impl<SA, DA, TS, TD, RS, RD, PS, PD, US, UD, FS, FD, $($g: $b),*> Mixed<Flat, Layout<SA, DA>, $t> for $op
                where
                    $t: $parts<SA, DA, Output = (TS, TD, RS, RD)>,
                    TS: Unpack<TD, S = PS, D = PD>,
                    RS: Unpack<RD, S = US, D = UD>,
                    PS: Concat<US, Output = FS>,
                    PD: Concat<UD, Output = FD>,
                {
                    type Output = Result<Layout<FS, FD>, Error>;
                    #[inline(always)]
                    fn mixed(a: Layout<SA, DA>, t: $t) -> Self::Output {
                        let (sa, da) = a.into_parts();
                        let (ts, td, rs, rd) = <$t as $parts<SA, DA>>::$method(&t, sa, da)?;
                        let ((ps, pd), (us, ud)) = (ts.unpack(td), rs.unpack(rd));
                        Ok(Layout::from_parts(ps.concat(us), pd.concat(ud)))
                    }
                }
            )*
        };
    };
}
pub(crate) use whole_layout_ops;

// ------------------------------------------------------------------------------------------
// A divide or product of a layout with run-time leaves by a by-mode tiler: each element
// against its mode (`ModeParts`, implemented in the operation's module), the modes past the
// tiler kept; the four arrangements from the per-mode parts (`by_mode_mixed!`).
// ------------------------------------------------------------------------------------------

/// One element of a by-mode tiler applied by `Op` to one mode `s:d` of a layout with run-time
/// leaves: its tile and rest, `(tile shape, tile stride, rest shape, rest stride)` (a divide's
/// tile and rest, a product's block and copies), and the mode's logical form (for a layout or
/// an integer, `(tile, rest)`; for a nested by-mode tiler, the mode's own modes each divided,
/// while the tiles and the rests gather as CuTe's `zip2_by` gathers them).
pub trait ModeParts<Op, S, D> {
    /// `(tile shape, tile stride, rest shape, rest stride, logical shape, logical stride)`.
    type Output;
    /// The two modes.
    ///
    /// # Errors
    /// The operation's, on run-time values.
    fn mode_parts(&self, s: S, d: D) -> Result<Self::Output, crate::error::Error>;
}

/// The elements of a by-mode tiler applied by `Op` to the modes of a layout with run-time
/// leaves: per mode `(tile, rest)` (`L*`, the logical form), and the tiles and the rests
/// gathered (`T*`, `R*`; the modes past the tiler go to the rests, as CuTe's `zip2_by`).
pub trait TilerModes<Op, SA, DA> {
    /// The logical form's shapes.
    type LS;
    /// The logical form's strides.
    type LD;
    /// Tile shapes.
    type TS;
    /// Tile strides.
    type TD;
    /// Rest shapes.
    type RS;
    /// Rest strides.
    type RD;
    /// The parts.
    ///
    /// # Errors
    /// As [`ModeParts::mode_parts`].
    #[allow(clippy::type_complexity)]
    fn tiler_modes(
        &self,
        sa: SA,
        da: DA,
    ) -> Result<(Self::LS, Self::LD, Self::TS, Self::TD, Self::RS, Self::RD), crate::error::Error>;
}
impl<Op, SA: Copy, DA: Copy> TilerModes<Op, SA, DA> for Nil {
    type LS = SA;
    type LD = DA;
    type TS = Nil;
    type TD = Nil;
    type RS = SA;
    type RD = DA;
    #[inline(always)]
    fn tiler_modes(&self, sa: SA, da: DA) -> Result<(SA, DA, Nil, Nil, SA, DA), crate::error::Error> {
        Ok((sa, da, Nil, Nil, sa, da))
    }
}
impl<Op, T, TT, S, ST, D, DT, PS, PD, QS, QD, LS, LD> TilerModes<Op, Cons<S, ST>, Cons<D, DT>> for Cons<T, TT>
where
    T: ModeParts<Op, S, D, Output = (PS, PD, QS, QD, LS, LD)>,
    TT: TilerModes<Op, ST, DT>,
    PS: Copy,
    PD: Copy,
    QS: Copy,
    QD: Copy,
{
    type LS = Cons<LS, TT::LS>;
    type LD = Cons<LD, TT::LD>;
    type TS = Cons<PS, TT::TS>;
    type TD = Cons<PD, TT::TD>;
    type RS = Cons<QS, TT::RS>;
    type RD = Cons<QD, TT::RD>;
    #[inline(always)]
    fn tiler_modes(
        &self,
        sa: Cons<S, ST>,
        da: Cons<D, DT>,
    ) -> Result<(Self::LS, Self::LD, Self::TS, Self::TD, Self::RS, Self::RD), crate::error::Error> {
        let (ts, td, rs, rd, ls, ld) = self.0.mode_parts(sa.0, da.0)?;
        let (ls2, ld2, ts2, td2, rs2, rd2) = self.1.tiler_modes(sa.1, da.1)?;
        Ok((Cons(ls, ls2), Cons(ld, ld2), Cons(ts, ts2), Cons(td, td2), Cons(rs, rs2), Cons(rd, rd2)))
    }
}

/// A nested by-mode tiler against one mode of A (CuTe's `transform_layout` by mode, once more):
/// the mode's own modes each divided (or multiplied) by the tiler's elements; the tiles and the
/// rests nest as the tiler does.
impl<Op, L, S, D> ModeParts<Op, S, D> for ByMode<L>
where
    L: TilerModes<Op, S, D>,
{
    type Output = (L::TS, L::TD, L::RS, L::RD, L::LS, L::LD);
    #[inline(always)]
    fn mode_parts(&self, s: S, d: D) -> Result<Self::Output, crate::error::Error> {
        let (ls, ld, ts, td, rs, rd) = self.0.tiler_modes(s, d)?;
        Ok((ts, td, rs, rd, ls, ld))
    }
}

/// The parts of one tiler element that is a layout or an integer: `(tile, rest)` is the
/// logical form.
pub type LeafParts<PS, PD, QS, QD> = (PS, PD, QS, QD, Cons<PS, Cons<QS, Nil>>, Cons<PD, Cons<QD, Nil>>);

/// `(tile, rest)` of one tiler element that is a layout or an integer, with its logical form.
#[inline(always)]
pub fn leaf_parts<PS: Copy, PD: Copy, QS: Copy, QD: Copy>(
    (ts, td, rs, rd): (PS, PD, QS, QD),
) -> LeafParts<PS, PD, QS, QD> {
    (ts, td, rs, rd, Cons(ts, Cons(rs, Nil)), Cons(td, Cons(rd, Nil)))
}

/// [`ModeParts`] of `$op` for the tiler elements that are a layout or an integer, by the
/// operation's own per-mode trait `$tr::$method` (whose output is `(tile, rest)`). (One impl per
/// element type, so that a nested by-mode tiler takes the impl above.)
macro_rules! leaf_mode_parts {
    ($op:ty, $tr:ident::$method:ident) => {
        $crate::tiler::leaf_mode_parts!(@ $op, $tr::$method;
            [TS, TD] $crate::Layout<TS, TD>; [U: typenum::Unsigned, B: typenum::Bit] typenum::UInt<U, B>;
            [] typenum::UTerm; [] usize);
    };
    (@ $op:ty, $tr:ident::$method:ident; $([$($g:ident $(: $b:path)?),*] $t:ty);*) => {$(
        impl<S, D, PS: Copy, PD: Copy, QS: Copy, QD: Copy, $($g $(: $b)?),*> $crate::tiler::ModeParts<$op, S, D> for $t
        where
            $t: $tr<S, D, Output = (PS, PD, QS, QD)>,
        {
            type Output = $crate::tiler::LeafParts<PS, PD, QS, QD>;
            #[inline(always)]
            fn mode_parts(&self, s: S, d: D) -> Result<Self::Output, $crate::error::Error> {
                self.$method(s, d).map($crate::tiler::leaf_parts)
            }
        }
    )*};
}
pub(crate) use leaf_mode_parts;

/// A leaf layout `s:d` by a by-mode tiler: its one mode `(s):(d)` (as cute-dyn's `by_mode`, so
/// the result nests once more than by the layout alone).
macro_rules! leaf_tiler_modes {
    ($([$($g:ident: $b:path),*] $s:ty);*) => {$(
        impl<Op, T, TT, D, $($g: $b),*> TilerModes<Op, $s, D> for Cons<T, TT>
        where
            Cons<T, TT>: TilerModes<Op, Cons<$s, Nil>, Cons<D, Nil>>,
        {
            type LS = <Cons<T, TT> as TilerModes<Op, Cons<$s, Nil>, Cons<D, Nil>>>::LS;
            type LD = <Cons<T, TT> as TilerModes<Op, Cons<$s, Nil>, Cons<D, Nil>>>::LD;
            type TS = <Cons<T, TT> as TilerModes<Op, Cons<$s, Nil>, Cons<D, Nil>>>::TS;
            type TD = <Cons<T, TT> as TilerModes<Op, Cons<$s, Nil>, Cons<D, Nil>>>::TD;
            type RS = <Cons<T, TT> as TilerModes<Op, Cons<$s, Nil>, Cons<D, Nil>>>::RS;
            type RD = <Cons<T, TT> as TilerModes<Op, Cons<$s, Nil>, Cons<D, Nil>>>::RD;
            #[inline(always)]
            fn tiler_modes(
                &self,
                sa: $s,
                da: D,
            ) -> Result<(Self::LS, Self::LD, Self::TS, Self::TD, Self::RS, Self::RD), crate::error::Error> {
                self.tiler_modes(Cons(sa, Nil), Cons(da, Nil))
            }
        }
    )*};
}
leaf_tiler_modes!([] usize; [U: Unsigned, B: Bit] UInt<U, B>; [] UTerm);

/// The parts of a mixed by-mode divide or product, as a tuple of lists.
pub type ModesParts<Op, L, SA, DA> = (
    <L as TilerModes<Op, SA, DA>>::LS,
    <L as TilerModes<Op, SA, DA>>::LD,
    <L as TilerModes<Op, SA, DA>>::TS,
    <L as TilerModes<Op, SA, DA>>::TD,
    <L as TilerModes<Op, SA, DA>>::RS,
    <L as TilerModes<Op, SA, DA>>::RD,
);

/// The logical, zipped, tiled and flat forms of `$op` (a divide or a product) of a layout with
/// run-time leaves by a by-mode tiler, from [`TilerModes`].
macro_rules! by_mode_mixed {
    ($op:ty) => {
        const _: () = {
            use $crate::error::Error;
            use $crate::int_tuple::{Concat, Cons, IntTuple, Nil};
            use $crate::layout::{Congruent, Layout};
            use $crate::tiler::{ByMode, Flat, Mixed, ModesParts, Plain, Splice, Tile, TilerModes, Zip};

            /// The logical form: mode i is `(tile_i, rest_i)`.
            impl<SA, DA, L> Mixed<Plain, Layout<SA, DA>, ByMode<L>> for $op
            where
                SA: Congruent<DA>,
                DA: IntTuple,
                L: TilerModes<$op, SA, DA>,
            {
                type Output = Result<Layout<L::LS, L::LD>, Error>;
                #[inline(always)]
                fn mixed(a: Layout<SA, DA>, b: ByMode<L>) -> Self::Output {
                    let p: ModesParts<$op, L, SA, DA> = b.0.tiler_modes(*a.shape(), *a.stride())?;
                    Ok(Layout::from_parts(p.0, p.1))
                }
            }

            /// The zipped form: `((tiles), (rests))`.
            impl<SA, DA, L> Mixed<Zip, Layout<SA, DA>, ByMode<L>> for $op
            where
                SA: Congruent<DA>,
                DA: IntTuple,
                L: TilerModes<$op, SA, DA>,
            {
                type Output = Result<Layout<Cons<L::TS, Cons<L::RS, Nil>>, Cons<L::TD, Cons<L::RD, Nil>>>, Error>;
                #[inline(always)]
                fn mixed(a: Layout<SA, DA>, b: ByMode<L>) -> Self::Output {
                    let p: ModesParts<$op, L, SA, DA> = b.0.tiler_modes(*a.shape(), *a.stride())?;
                    Ok(Layout::from_parts(Cons(p.2, Cons(p.4, Nil)), Cons(p.3, Cons(p.5, Nil))))
                }
            }

            /// The tiled form: `((tiles), rest0, rest1, ...)`.
            impl<SA, DA, L> Mixed<Tile, Layout<SA, DA>, ByMode<L>> for $op
            where
                SA: Congruent<DA>,
                DA: IntTuple,
                L: TilerModes<$op, SA, DA>,
                L::RS: Splice,
                L::RD: Splice,
            {
                type Output = Result<
                    Layout<Cons<L::TS, <L::RS as Splice>::Output>, Cons<L::TD, <L::RD as Splice>::Output>>,
                    Error,
                >;
                #[inline(always)]
                fn mixed(a: Layout<SA, DA>, b: ByMode<L>) -> Self::Output {
                    let p: ModesParts<$op, L, SA, DA> = b.0.tiler_modes(*a.shape(), *a.stride())?;
                    Ok(Layout::from_parts(Cons(p.2, p.4.splice()), Cons(p.3, p.5.splice())))
                }
            }

            /// The flat form: `(tile0, tile1, ..., rest0, rest1, ...)`.
            impl<SA, DA, L> Mixed<Flat, Layout<SA, DA>, ByMode<L>> for $op
            where
                SA: Congruent<DA>,
                DA: IntTuple,
                L: TilerModes<$op, SA, DA>,
                L::TS: Splice,
                L::TD: Splice,
                L::RS: Splice,
                L::RD: Splice,
                <L::TS as Splice>::Output: Concat<<L::RS as Splice>::Output>,
                <L::TD as Splice>::Output: Concat<<L::RD as Splice>::Output>,
            {
                type Output = Result<
                    Layout<
                        <<L::TS as Splice>::Output as Concat<<L::RS as Splice>::Output>>::Output,
                        <<L::TD as Splice>::Output as Concat<<L::RD as Splice>::Output>>::Output,
                    >,
                    Error,
                >;
                #[inline(always)]
                fn mixed(a: Layout<SA, DA>, b: ByMode<L>) -> Self::Output {
                    let p: ModesParts<$op, L, SA, DA> = b.0.tiler_modes(*a.shape(), *a.stride())?;
                    Ok(Layout::from_parts(p.2.splice().concat(p.4.splice()), p.3.splice().concat(p.5.splice())))
                }
            }
        };
    };
}
pub(crate) use by_mode_mixed;

/// [`Unpack`](crate::tiler::Unpack) with values, for the lists of a mixed divide and the slices
/// `(repeat<R>(_), c)` of `local_tile`/`local_partition`: the modes `L(_, repeat<R>(_))` keeps
/// of a list of modes: a list of one mode stays one mode, wrapped once more (`((_16)):((_1))`,
/// CuTe C++ 4.2's `local_tile(64:1, <16>, 1)`), a longer one is spliced into its modes.
pub trait Splice {
    /// The modes.
    type Output: Copy;
    /// The modes.
    fn splice(self) -> Self::Output;
}
impl Splice for Nil {
    type Output = Nil;
    #[inline(always)]
    fn splice(self) -> Nil {
        Nil
    }
}
impl<H: Copy> Splice for Cons<H, Nil> {
    type Output = Cons<Cons<H, Nil>, Nil>;
    #[inline(always)]
    fn splice(self) -> Self::Output {
        Cons(self, Nil)
    }
}
impl<H: Copy, H2: Copy, T: Copy> Splice for Cons<H, Cons<H2, T>> {
    type Output = Self;
    #[inline(always)]
    fn splice(self) -> Self {
        self
    }
}
