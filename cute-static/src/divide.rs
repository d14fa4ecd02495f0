//! logical_divide at the type level, for static layouts:
//! `composition(A, make_layout(B, complement(B, shape(coalesce(A)))))`, by mode for a tiler
//! through [`TilerOp`] (`_` keeps a mode, `n` is `make_layout(n)`, modes past the tiler are
//! kept); and its zipped, tiled and flat forms.

use typenum::{Bit, UInt, UTerm, Unsigned};

use crate::coalesce::Coalesce;
use crate::complement::{ComplementMixed, ComplementOf, ComplementPlan};
use crate::int_tuple::StaticBit;
use crate::int_tuple::{Cons, IntTuple, Nil};
use crate::layout::{Congruent, Layout};
use crate::tiler::{arranged_op, rearrangements, ByMode, CompositionOp, DivideOp, IntRule, Mixed, Plain, TilerOp};
use crate::verdict::{First, FirstOf, Pair};

/// `Divided<A, B>`: the type of `logical_divide(A, B)`.
pub type Divided<A, B> = <<B as TilerOp<DivideOp, A>>::Output as crate::verdict::Pair>::First;

/// A layout tiler: `A ∘ (B, complement(B, shape(coalesce(A))))`, with the first of
/// complement's and composition's verdicts. The intermediate layouts are projections (aliases
/// below): with each one a parameter bound by an associated-type equality instead, rustc spent
/// a tenth more instructions on a divide (`scripts/compile_time.sh --instructions
/// logical_divide`: 140 -> 126 million per call), though the products, the other way round,
/// are cheaper with equalities.
impl<SA, DA, SB, DB, R, V> TilerOp<DivideOp, Layout<SA, DA>> for Layout<SB, DB>
where
    Layout<SA, DA>: Coalesce,
    <Layout<SA, DA> as Coalesce>::Output: crate::tiler::Parts,
    CoalescedShape<SA, DA>: ComplementPlan<Layout<SB, DB>>,
    <CoalescedShape<SA, DA> as ComplementPlan<Layout<SB, DB>>>::Out: Pair,
    DivideRest<SA, DA, SB, DB>: crate::tiler::Parts,
    DivideTiler<SA, DA, SB, DB>: TilerOp<CompositionOp, Layout<SA, DA>, Output = (R, V)>,
    <<CoalescedShape<SA, DA> as ComplementPlan<Layout<SB, DB>>>::Out as Pair>::Second: First<V>,
{
    type Output = (R, FirstOf<<<CoalescedShape<SA, DA> as ComplementPlan<Layout<SB, DB>>>::Out as Pair>::Second, V>);
}

/// `shape(coalesce(A))`.
type CoalescedShape<SA, DA> = <<Layout<SA, DA> as Coalesce>::Output as crate::tiler::Parts>::S;
/// `complement(B, shape(coalesce(A)))`.
type DivideRest<SA, DA, SB, DB> = <<CoalescedShape<SA, DA> as ComplementPlan<Layout<SB, DB>>>::Out as Pair>::First;
/// `make_layout(B, complement(B, shape(coalesce(A))))`.
type DivideTiler<SA, DA, SB, DB> = Layout<
    Cons<SB, Cons<<DivideRest<SA, DA, SB, DB> as crate::tiler::Parts>::S, Nil>>,
    Cons<DB, Cons<<DivideRest<SA, DA, SB, DB> as crate::tiler::Parts>::D, Nil>>,
>;

crate::tiler::marked_shape_route!(DivideOp);
// By mode (a kernel's tiles), each mode's structure is static; by one layout or integer, the
// composition coalesces A by its values where the static rule's modes break a condition, as
// composition's own (a structure the values decide).
crate::tiler::mixed_answers!(typed DivideOp, [L] crate::tiler::ByMode<L>);
crate::tiler::mixed_answers!(decided DivideOp, [How: crate::tiler::ByValues<DivideOp>, SB, DB] Layout<SB, DB>, How, |a, b| How::by_values(&a.to_dyn()?, &crate::tiler::Tiler::to_dyn(&b)?));
crate::tiler::mixed_answers!(decided DivideOp, [How: crate::tiler::ByValues<DivideOp>, U: typenum::Unsigned, Bt: typenum::Bit] typenum::UInt<U, Bt>, How, |a, b| How::by_values(&a.to_dyn()?, &crate::tiler::Tiler::to_dyn(&b)?));
crate::tiler::mixed_answers!(decided DivideOp, [How: crate::tiler::ByValues<DivideOp>] typenum::UTerm, How, |a, b| How::by_values(&a.to_dyn()?, &crate::tiler::Tiler::to_dyn(&b)?));
crate::tiler::mixed_answers!(decided DivideOp, [How: crate::tiler::ByValues<DivideOp>] usize, How, |a, b| How::by_values(&a.to_dyn()?, &crate::tiler::Tiler::to_dyn(&b)?));

/// A static `A` by a static tiler: the type checker's divide.
impl<SA, DA, B, R, V> crate::tiler::Arrange<Plain, DivideOp, Layout<SA, DA>, B> for typenum::B1
where
    B: TilerOp<DivideOp, Layout<SA, DA>, Output = (R, V)>,
    R: Default,
{
    type Plan = (crate::ops::Static<R>, V);
}

arranged_op!(
    DivideOp,
    Plain,
    LogicalDivide,
    by both operands,
    /// `logical_divide(A, B)`: `A` split into (tile, rest) by `B`. Static layouts: computed by
    /// the type checker (zero-sized, every precondition a compile error). Static extents with
    /// run-time strides, any nesting, by a static tiler: the type checker's structure, the
    /// strides computed when it runs. Run-time leaves elsewhere (in the layout's extents or in
    /// the tiler), by a layout or by-mode tiler: a `Result`, the conditions on run-time values
    /// checked when it runs, equal to cute-dyn's answer (static flags included). A leaf mode
    /// `s:d` is `(T, complement(T, s))` with strides times `d`; a nested mode (or a layout of
    /// several modes by one layout) takes cute-dyn's general path,
    /// `composition(A_i, (T, complement(T, shape(coalesce(A_i)))))`. Where cute-dyn decides
    /// that composition's structure on values: by one layout or integer, cute-dyn's run-time
    /// structure (the answer is a [`crate::Decided`]); inside a by-mode tiler, whose result
    /// stays typed, `Error::Undecided`.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, logical_divide, tiler};
    /// // CuTe docs
    /// let r = logical_divide(layout!((4,2,3):(2,1,8)), layout!(4:2));
    /// assert_eq!(r.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    /// let r = logical_divide(layout!((9,(4,8)):(59,(13,1))), tiler!(<3:3,(2,4):(1,8)>));
    /// assert_eq!(r.to_string(), "((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))");
    /// assert_eq!(core::mem::size_of_val(&r), 0);
    /// // Run-time extents: m = 128 rows, column-major.
    /// let m = 128;
    /// let r = logical_divide(layout!(({m},64):(1,{m})), tiler!(<32,16>))?;
    /// assert_eq!(r.to_string(), "((32,{4}),(16,4)):((1,32),({128},{2048}))");
    /// // A static vector of 64 cut into tiles of run-time length t = 16.
    /// let t = 16;
    /// let r = logical_divide(layout!(64:1), layout!({t}:1))?;
    /// assert_eq!(r.to_string(), "({16},{4}):(1,{16})");
    /// // A nested mode with a run-time extent m = 8 (cute-dyn's answer, printed
    /// // `(((4,1),(2,2)),(_2,_2)):(((_1,8),(_4,8)),(_8,_16))` in the cpp style).
    /// let m = 8;
    /// let r = logical_divide(layout!((({m},2),4):((1,{m}),8)), tiler!(<4,2>))?;
    /// assert_eq!(r.to_string(), "((({4},{1}),({2},{2})),(2,2)):(((1,{8}),(4,{8})),(8,16))");
    /// # Ok::<(), cute_static::error::Error>(())
    /// ```
    logical_divide
);

rearrangements!(
    DivideOp, Divided, ZippedDivided, ZippedDivide, TiledDivide, FlatDivide, [by both operands],
    /// `zipped_divide(A, B)`: `((tile), (rest))` of [`logical_divide`], tiles and rests gathered.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, tiler, zipped_divide};
    /// let r = zipped_divide(layout!((9,(4,8)):(59,(13,1))), tiler!(<3:3,(2,4):(1,8)>));
    /// assert_eq!(r.to_string(), "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))");
    /// ```
    zipped_divide,
    /// `tiled_divide(A, B)`: `((tile), rest0, rest1, ...)`.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, tiled_divide, tiler};
    /// let r = tiled_divide(layout!((9,(4,8)):(59,(13,1))), tiler!(<3:3,(2,4):(1,8)>));
    /// assert_eq!(r.to_string(), "((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))");
    /// ```
    tiled_divide,
    /// `flat_divide(A, B)`: `(tile0, tile1, ..., rest0, rest1, ...)`.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{flat_divide, layout, tiler};
    /// let r = flat_divide(layout!((9,(4,8)):(59,(13,1))), tiler!(<3:3,(2,4):(1,8)>));
    /// assert_eq!(r.to_string(), "(3,(2,4),3,(2,2)):(177,(13,2),59,(26,1))");
    /// ```
    flat_divide
);

// ------------------------------------------------------------------------------------------
// Layouts with run-time leaves: the divides of a layout whose divided modes are leaves (a
// matrix of run-time extents and strides) by a by-mode tiler of static layouts.
//
// Mode i is a leaf `s:d`, so `composition(s:d, (T, complement(T, s)))` is `(T, complement)`
// with every stride times `d` (a static 0 stays 0: it reads index 0). The complement is static
// where `s` is ([`ComplementOf`]), and has a run-time rest where it is not ([`ComplementDyn`]).
// cute-dyn takes the same path for these inputs (`composition` of a leaf scales the strides;
// every decision is on static values), so the results agree, static flags included.
// ------------------------------------------------------------------------------------------

use crate::arith::MulMixed;
use crate::complement::ComplementDyn;
use crate::error::Error;

/// The strides of a tile or a rest scaled by the divided mode's stride `d`.
pub trait ScaleBy<D>: Sized {
    /// The scaled strides.
    type Output;
    /// Scale.
    ///
    /// # Errors
    /// [`Error::Overflow`] for a run-time product past `usize`.
    fn scale_by(self, d: D) -> Result<Self::Output, Error>;
}
/// A static 0 stays 0 (as cute-dyn's composition keeps a stride-0 mode of `B` as it is).
impl<D> ScaleBy<D> for UTerm {
    type Output = UTerm;
    #[inline(always)]
    fn scale_by(self, _: D) -> Result<UTerm, Error> {
        Ok(UTerm)
    }
}
impl<U: Unsigned, B: Bit, D> ScaleBy<D> for UInt<U, B>
where
    UInt<U, B>: MulMixed<D> + Default,
{
    type Output = <UInt<U, B> as MulMixed<D>>::Output;
    #[inline(always)]
    fn scale_by(self, d: D) -> Result<Self::Output, Error> {
        self.checked_mul(d).ok_or(Error::Overflow { op: "logical_divide" })
    }
}
/// A run-time stride (of a tile with run-time leaves), scaled when it runs.
impl<D> ScaleBy<D> for usize
where
    usize: MulMixed<D>,
{
    type Output = <usize as MulMixed<D>>::Output;
    #[inline(always)]
    fn scale_by(self, d: D) -> Result<Self::Output, Error> {
        MulMixed::checked_mul(self, d).ok_or(Error::Overflow { op: "logical_divide" })
    }
}
impl<D> ScaleBy<D> for Nil {
    type Output = Nil;
    #[inline(always)]
    fn scale_by(self, _: D) -> Result<Nil, Error> {
        Ok(Nil)
    }
}
impl<H: ScaleBy<D>, T: ScaleBy<D>, D: Copy> ScaleBy<D> for Cons<H, T> {
    type Output = Cons<H::Output, T::Output>;
    #[inline(always)]
    fn scale_by(self, d: D) -> Result<Self::Output, Error> {
        Ok(Cons(self.0.scale_by(d)?, self.1.scale_by(d)?))
    }
}

/// `complement(T, s)` for the extent `s` of a divided mode, routed by the tile's
/// [`StaticBit`] ([`RestRoute`]).
pub trait RestOf<T> {
    /// The complement.
    type Output;
    /// The complement.
    ///
    /// # Errors
    /// As [`ComplementDyn::complement_dyn`] and [`ComplementMixed::complement_mixed`].
    fn rest_of(self, t: &T) -> Result<Self::Output, Error>;
}
macro_rules! rest_of {
    ($([$($g:ident: $b:path),*] $ty:ty);*) => {$(
        impl<T: StaticBit, $($g: $b),*> RestOf<T> for $ty
        where
            (T::Output,): RestRoute<$ty, T>,
        {
            type Output = <(T::Output,) as RestRoute<$ty, T>>::Output;
            #[inline(always)]
            fn rest_of(self, t: &T) -> Result<Self::Output, Error> {
                <(T::Output,)>::rest_route(self, t)
            }
        }
    )*};
}
rest_of!([] UTerm; [U: Unsigned, B: Bit] UInt<U, B>; [] usize);

/// [`RestOf`] by the tile's [`StaticBit`]: a static tile (`(B1,)`) by the type checker's
/// complement for a static extent, or up to a run-time one ([`ComplementDyn`]); a tile with a
/// run-time leaf (`(B0,)`) by the mixed complement, checked when it runs.
pub trait RestRoute<N, T> {
    /// The complement.
    type Output;
    /// The complement.
    ///
    /// # Errors
    /// As [`RestOf::rest_of`].
    fn rest_route(n: N, t: &T) -> Result<Self::Output, Error>;
}
macro_rules! static_rest_route {
    ($([$($g:ident: $b:path),*] $ty:ty);*) => {$(
        impl<T, $($g: $b),*> RestRoute<$ty, T> for (typenum::B1,)
        where
            $ty: ComplementOf<T>,
            <$ty as ComplementOf<T>>::Output: Default,
        {
            type Output = <$ty as ComplementOf<T>>::Output;
            #[inline(always)]
            fn rest_route(_: $ty, _: &T) -> Result<Self::Output, Error> {
                Ok(Default::default())
            }
        }
    )*};
}
static_rest_route!([] UTerm; [U: Unsigned, B: Bit] UInt<U, B>);
impl<T: ComplementDyn> RestRoute<usize, T> for (typenum::B1,) {
    type Output = T::Output;
    #[inline(always)]
    fn rest_route(s: usize, t: &T) -> Result<T::Output, Error> {
        t.complement_dyn(s)
    }
}
impl<N, T: ComplementMixed<N> + Copy> RestRoute<N, T> for (typenum::B0,) {
    type Output = <T as ComplementMixed<N>>::Output;
    #[inline(always)]
    fn rest_route(n: N, t: &T) -> Result<Self::Output, Error> {
        t.complement_mixed(n)
    }
}

/// One tiler element against one leaf mode `s:d`: the tile and the rest, strides scaled.
#[diagnostic::on_unimplemented(
    message = "this divide with run-time leaves needs each tiler element to be a layout or an integer (static or run-time), or a by-mode tiler of those",
    label = "a tiler element against a mode of the layout",
    note = "with run-time leaves, each divided mode must be a single leaf s:d and each tiler element a layout or an integer"
)]
pub trait DivideLeaf<S, D> {
    /// `(the tile's shape (the tiler element's), its strides, the rest's shape, its strides)`.
    type Output;
    /// Divide.
    ///
    /// # Errors
    /// As [`ComplementDyn::complement_dyn`]; [`Error::Overflow`].
    fn divide_leaf(&self, s: S, d: D) -> Result<Self::Output, Error>;
}
impl<TS, TD, S, D> DivideLeaf<S, D> for Layout<TS, TD>
where
    (S, D): LeafMode<TS, TD>,
{
    type Output = (
        <(S, D) as LeafMode<TS, TD>>::TileS,
        <(S, D) as LeafMode<TS, TD>>::TileD,
        <(S, D) as LeafMode<TS, TD>>::RestS,
        <(S, D) as LeafMode<TS, TD>>::RestD,
    );
    #[inline(always)]
    fn divide_leaf(&self, s: S, d: D) -> Result<Self::Output, Error> {
        <(S, D) as LeafMode<TS, TD>>::divide(self, (s, d))
    }
}

/// A mode `(s, d)` of a layout with run-time leaves, divided by a tile `TS:TD`: a leaf pair, or
/// a nested mode (cute-dyn's general path).
pub trait LeafMode<TS, TD>: Sized {
    /// The tile's shape.
    type TileS;
    /// The tile's strides.
    type TileD;
    /// The rest's shape.
    type RestS;
    /// The rest's strides.
    type RestD;
    /// `(T, complement(T, s))`, every stride times `d`.
    ///
    /// # Errors
    /// As [`ComplementDyn::complement_dyn`]; [`Error::Overflow`].
    fn divide(t: &Layout<TS, TD>, mode: Self) -> Result<(Self::TileS, Self::TileD, Self::RestS, Self::RestD), Error>;
}
macro_rules! leaf_mode {
    ($([$($g:ident: $b:path),*] $s:ty, $d:ty);* $(;)?) => {$(
        impl<TS, TD, RS, RD, $($g: $b),*> LeafMode<TS, TD> for ($s, $d)
        where
            TS: Congruent<TD>,
            TD: IntTuple + ScaleBy<$d>,
            $s: RestOf<Layout<TS, TD>, Output = Layout<RS, RD>>,
            RS: Congruent<RD>,
            RD: IntTuple + ScaleBy<$d>,
        {
            type TileS = TS;
            type TileD = <TD as ScaleBy<$d>>::Output;
            type RestS = RS;
            type RestD = <RD as ScaleBy<$d>>::Output;
            #[inline(always)]
            fn divide(t: &Layout<TS, TD>, (s, d): Self) -> Result<(TS, Self::TileD, RS, Self::RestD), Error> {
                let rest = s.rest_of(t)?;
                Ok((*t.shape(), t.stride().scale_by(d)?, *rest.shape(), rest.stride().scale_by(d)?))
            }
        }
    )*};
}
crate::int_tuple::for_each_leaf_pair!(leaf_mode);

/// A nested mode `(s, d)` (tuples), or a whole layout of several modes: cute-dyn's general
/// path, `composition(A_i, (T, complement(T, shape(coalesce(A_i)))))`, through the mixed
/// complement (a flat shape cotarget) and the mixed composition's route. Each intermediate
/// type is a parameter bound once.
impl<TS, TD, H, T, E, F, FM, CM, Cot, RS, RD, S0, S1, D0, D1> LeafMode<TS, TD> for (Cons<H, T>, Cons<E, F>)
where
    Cons<H, T>: crate::modes::FlattenModes<Cons<E, F>, Output = FM>,
    FM: crate::coalesce::CoalesceModesBound<Output = CM>,
    CM: crate::modes::ModeShapes<Output = Cot>,
    Layout<TS, TD>: Copy,
    Cot: crate::complement::ComplementMixedBy<Layout<TS, TD>, Output = Layout<RS, RD>>,
    CompositionOp: Mixed<
        Plain,
        Layout<Cons<H, T>, Cons<E, F>>,
        Layout<Cons<TS, Cons<RS, Nil>>, Cons<TD, Cons<RD, Nil>>>,
        Output = Result<Layout<Cons<S0, Cons<S1, Nil>>, Cons<D0, Cons<D1, Nil>>>, Error>,
    >,
{
    type TileS = S0;
    type TileD = D0;
    type RestS = S1;
    type RestD = D1;
    #[inline(always)]
    fn divide(t: &Layout<TS, TD>, (s, d): Self) -> Result<(S0, D0, S1, D1), Error> {
        use crate::modes::FlattenModes;
        let rest = s.flatten_modes(&d).coalesce_modes_bound().mode_shapes().complement_mixed_by(*t)?;
        let ((ts, td), (rs, rd)) = (t.into_parts(), rest.into_parts());
        let tiler = Layout::from_parts(Cons(ts, Cons(rs, Nil)), Cons(td, Cons(rd, Nil)));
        let (rs, rd) = CompositionOp::mixed(Layout::from_parts(s, d), tiler)?.into_parts();
        Ok((rs.0, rd.0, rs.1 .0, rd.1 .0))
    }
}

/// A bare integer `n` in a tiler: the layout [`IntRule`](crate::tiler::IntRule) gives it,
/// as on the static path (`make_layout(n)` for the divides, so `1` is `1:0`; `n:1` for
/// composition).
macro_rules! int_tiler_leaf {
    ($([$($g:ident: $b:path),*] $ty:ty);*) => {$(
        impl<S, D, $($g: $b),*> DivideLeaf<S, D> for $ty
        where
            DivideOp: IntRule<$ty>,
            <DivideOp as IntRule<$ty>>::Output: DivideLeaf<S, D> + Default,
        {
            type Output = <<DivideOp as IntRule<$ty>>::Output as DivideLeaf<S, D>>::Output;
            #[inline(always)]
            fn divide_leaf(&self, s: S, d: D) -> Result<Self::Output, Error> {
                // (Named in full: a method call would have the type checker try every
                // `DivideLeaf` impl with the mode's types unknown, and the nested mode's
                // recursion on them overflows.)
                <<DivideOp as IntRule<$ty>>::Output as DivideLeaf<S, D>>::divide_leaf(&Default::default(), s, d)
            }
        }
        impl<S, D, $($g: $b),*> ComposeLeaf<S, D> for $ty
        where
            CompositionOp: IntRule<$ty>,
            <CompositionOp as IntRule<$ty>>::Output: ComposeLeaf<S, D> + Default,
        {
            type S = <<CompositionOp as IntRule<$ty>>::Output as ComposeLeaf<S, D>>::S;
            type D = <<CompositionOp as IntRule<$ty>>::Output as ComposeLeaf<S, D>>::D;
            #[inline(always)]
            fn compose_leaf(&self, s: S, d: D) -> Result<(Self::S, Self::D), Error> {
                // (Named in full: see `DivideLeaf` above.)
                <<CompositionOp as IntRule<$ty>>::Output as ComposeLeaf<S, D>>::compose_leaf(&Default::default(), s, d)
            }
        }
    )*};
}
int_tiler_leaf!([] UTerm; [U: Unsigned, B: Bit] UInt<U, B>);

/// A bare run-time `n` in a tiler: the layout `n:1` (`make_layout(n)` of a run-time `n`, and
/// composition's `n:_1`), computed when it runs.
impl<S, D> DivideLeaf<S, D> for usize
where
    Layout<usize, typenum::U1>: DivideLeaf<S, D>,
{
    type Output = <Layout<usize, typenum::U1> as DivideLeaf<S, D>>::Output;
    #[inline(always)]
    fn divide_leaf(&self, s: S, d: D) -> Result<Self::Output, Error> {
        // (Named in full: see `int_tiler_leaf!`.)
        <Layout<usize, typenum::U1> as DivideLeaf<S, D>>::divide_leaf(&Layout::new(*self, typenum::U1::default()), s, d)
    }
}
impl<S, D> ComposeLeaf<S, D> for usize
where
    Layout<usize, typenum::U1>: ComposeLeaf<S, D>,
{
    type S = <Layout<usize, typenum::U1> as ComposeLeaf<S, D>>::S;
    type D = <Layout<usize, typenum::U1> as ComposeLeaf<S, D>>::D;
    #[inline(always)]
    fn compose_leaf(&self, s: S, d: D) -> Result<(Self::S, Self::D), Error> {
        <Layout<usize, typenum::U1> as ComposeLeaf<S, D>>::compose_leaf(
            &Layout::new(*self, typenum::U1::default()),
            s,
            d,
        )
    }
}

// One element of a by-mode tiler against one mode of a layout with run-time leaves (the
// divide's part of [`TilerModes`](crate::tiler::TilerModes)).
crate::tiler::leaf_mode_parts!(DivideOp, DivideLeaf::divide_leaf);

crate::tiler::by_mode_mixed!(DivideOp);

// ------------------------------------------------------------------------------------------
// A layout with a run-time extent divided by one layout or integer (not by mode): the layout
// must then be one leaf mode `s:d` (a vector of run-time length), and `logical_divide(s:d, T)`
// is `(T, complement(T, s))` with every stride times `d`, as for a mode of a by-mode divide.
// The zipped form is the logical one (CuTe's `zip2_by` keeps the layout whole for a guide that
// is not a tuple); the tiled form unpacks the rest, the flat form the tile and the rest.
// ------------------------------------------------------------------------------------------

crate::tiler::whole_layout_ops!(DivideOp, DivideLeaf::divide_leaf; [SB: Copy, DB: Copy] Layout<SB, DB>; [U: Unsigned, B: Bit] UInt<U, B>; [] UTerm; [] usize);

// ------------------------------------------------------------------------------------------
// composition(A, <B0,B1,...>) of a layout with run-time leaves: for a leaf mode,
// `composition(s:d, B_i)` is `B_i` with its strides times `d` (cute-dyn's path for a leaf);
// a nested mode takes the mixed composition; the modes past the tiler are dropped (C++ 4.2).
// ------------------------------------------------------------------------------------------

/// The elements of a by-mode tiler composed with the modes of a layout.
#[diagnostic::on_unimplemented(
    message = "this composition of a layout with run-time leaves needs a by-mode tiler of layouts or integers",
    label = "a by-mode tiler against the layout's modes",
    note = "with run-time leaves, each tiler element must be a layout or an integer; otherwise use cute-dyn's composition on `.to_dyn()`"
)]
pub trait ComposeModes<SA, DA> {
    /// The shapes.
    type S;
    /// The strides.
    type D;
    /// Compose.
    ///
    /// # Errors
    /// [`Error::Overflow`].
    fn compose_modes(&self, sa: SA, da: DA) -> Result<(Self::S, Self::D), Error>;
}
/// The tiler's end: A's remaining modes are dropped.
impl<SA, DA> ComposeModes<SA, DA> for Nil {
    type S = Nil;
    type D = Nil;
    #[inline(always)]
    fn compose_modes(&self, _: SA, _: DA) -> Result<(Nil, Nil), Error> {
        Ok((Nil, Nil))
    }
}
impl<T, TT, S, ST, D, DT> ComposeModes<Cons<S, ST>, Cons<D, DT>> for Cons<T, TT>
where
    T: ComposeLeaf<S, D>,
    TT: ComposeModes<ST, DT>,
{
    type S = Cons<T::S, TT::S>;
    type D = Cons<T::D, TT::D>;
    #[inline(always)]
    fn compose_modes(&self, sa: Cons<S, ST>, da: Cons<D, DT>) -> Result<(Self::S, Self::D), Error> {
        // (Named in full: see `DivideLeaf` above.)
        let (s, d) = <T as ComposeLeaf<S, D>>::compose_leaf(&self.0, sa.0, da.0)?;
        let (st, dt) = self.1.compose_modes(sa.1, da.1)?;
        Ok((Cons(s, st), Cons(d, dt)))
    }
}

/// A leaf layout `s:d` with a run-time extent by a by-mode tiler: its one mode `(s):(d)`.
impl<T, TT, D> ComposeModes<usize, D> for Cons<T, TT>
where
    Cons<T, TT>: ComposeModes<Cons<usize, Nil>, Cons<D, Nil>>,
{
    type S = <Cons<T, TT> as ComposeModes<Cons<usize, Nil>, Cons<D, Nil>>>::S;
    type D = <Cons<T, TT> as ComposeModes<Cons<usize, Nil>, Cons<D, Nil>>>::D;
    #[inline(always)]
    fn compose_modes(&self, sa: usize, da: D) -> Result<(Self::S, Self::D), Error> {
        self.compose_modes(Cons(sa, Nil), Cons(da, Nil))
    }
}

/// A tiler element composed with a mode `S:D` of a layout with run-time leaves: for a leaf
/// mode, the element with its strides times `D`; for a nested mode, the mixed composition.
pub trait ComposeLeaf<S, D> {
    /// The shape.
    type S;
    /// The strides.
    type D;
    /// Compose.
    ///
    /// # Errors
    /// [`Error::Overflow`]; for a nested mode, those of
    /// [`composition_mixed`](crate::composition::composition_mixed).
    fn compose_leaf(&self, s: S, d: D) -> Result<(Self::S, Self::D), Error>;
}
macro_rules! compose_leaf {
    ($([$($g:ident: $b:path),*] $d:ty);*) => {$(
        impl<S, TS: Congruent<TD>, TD: IntTuple + ScaleBy<$d>, $($g: $b),*> ComposeLeaf<S, $d> for Layout<TS, TD> {
            type S = TS;
            type D = TD::Output;
            #[inline(always)]
            fn compose_leaf(&self, _: S, d: $d) -> Result<(TS, TD::Output), Error> {
                Ok((*self.shape(), self.stride().scale_by(d)?))
            }
        }
    )*};
}
compose_leaf!([] UTerm; [U: Unsigned, B: Bit] UInt<U, B>; [] usize);
/// A nested mode: `composition(A_i, B_i)` by the mixed composition (the route of
/// `composition(A, B)` for a layout `B`, below), cute-dyn's general path.
impl<TS, TD, S, H, T, RS, RD> ComposeLeaf<S, Cons<H, T>> for Layout<TS, TD>
where
    CompositionOp: Mixed<Plain, Layout<S, Cons<H, T>>, Layout<TS, TD>, Output = Result<Layout<RS, RD>, Error>>,
    Layout<TS, TD>: Copy,
{
    type S = RS;
    type D = RD;
    #[inline(always)]
    fn compose_leaf(&self, s: S, d: Cons<H, T>) -> Result<(RS, RD), Error> {
        Ok(CompositionOp::mixed(Layout::from_parts(s, d), *self)?.into_parts())
    }
}

/// `composition(A, B)` of a layout with a run-time extent by a layout:
/// [`composition_mixed`](crate::composition::composition_mixed), cute-dyn's algorithm with
/// the structure decided on static values.
impl<SA, DA, SB, DB, F, X, M, RS, RD> Mixed<Plain, Layout<SA, DA>, Layout<SB, DB>> for CompositionOp
where
    SA: crate::modes::FlattenModes<DA, Output = F>,
    F: crate::composition::FixLast<Output = X>,
    X: crate::coalesce::CoalesceModesBound<Output = M>,
    M: crate::modes::ModeValues,
    SB: crate::composition::ComposeB<DB, M, S = RS, D = RD>,
{
    type Output = Result<Layout<RS, RD>, Error>;
    #[inline(always)]
    fn mixed(a: Layout<SA, DA>, b: Layout<SB, DB>) -> Self::Output {
        crate::composition::composition_mixed(a, b)
    }
}

/// `composition(A, n)`: `A ∘ n:1` (the integer is `n:1` for composition).
macro_rules! int_composition {
    ($([$($g:ident: $b:path),*] $t:ty);*) => {$(
        impl<SA, DA, $($g: $b),*> Mixed<Plain, Layout<SA, DA>, $t> for CompositionOp
        where
            CompositionOp: Mixed<Plain, Layout<SA, DA>, Layout<$t, typenum::U1>>,
        {
            type Output = <CompositionOp as Mixed<Plain, Layout<SA, DA>, Layout<$t, typenum::U1>>>::Output;
            #[inline(always)]
            fn mixed(a: Layout<SA, DA>, n: $t) -> Self::Output {
                <CompositionOp as Mixed<Plain, Layout<SA, DA>, Layout<$t, typenum::U1>>>::mixed(a, Layout::from_parts(n, typenum::U1::default()))
            }
        }
    )*};
}
int_composition!([U: Unsigned, B: Bit] UInt<U, B>; [] UTerm; [] usize);

/// `composition(A, <B0,B1,...>)` of a layout with run-time leaves.
impl<SA, DA, L> Mixed<Plain, Layout<SA, DA>, ByMode<L>> for CompositionOp
where
    SA: Congruent<DA>,
    DA: IntTuple,
    L: ComposeModes<SA, DA>,
{
    type Output = Result<Layout<L::S, L::D>, Error>;
    #[inline(always)]
    fn mixed(a: Layout<SA, DA>, b: ByMode<L>) -> Self::Output {
        let (s, d) = b.0.compose_modes(*a.shape(), *a.stride())?;
        Ok(Layout::from_parts(s, d))
    }
}
