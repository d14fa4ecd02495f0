//! logical_divide at the type level, for static layouts:
//! `composition(A, make_layout(B, complement(B, shape(coalesce(A)))))`, by mode for a tiler
//! through [`TilerOp`] (`_` keeps a mode, `n` is `make_layout(n)`, modes past the tiler are
//! kept); and its zipped, tiled and flat forms.

use typenum::{Bit, UInt, UTerm, Unsigned};

use crate::coalesce::Coalesce;
use crate::complement::ComplementOf;
use crate::composition::{ByMode, Composition, DivideOp, TilerOp, Under, Wrap};
use crate::int_tuple::{Cons, Nil};
use crate::layout::Layout;

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

/// `Divided<A, B>`: the type of `logical_divide(A, B)`.
pub type Divided<A, B> = <B as TilerOp<DivideOp, A>>::Output;

/// The complement of `B` in `shape(coalesce(A))`.
type Rest<A, SB, DB> = <<<A as Coalesce>::Output as Parts>::S as ComplementOf<Layout<SB, DB>>>::Output;

/// A layout tiler: `A ∘ (B, complement(B, shape(coalesce(A))))`.
impl<SA, DA, SB, DB> TilerOp<DivideOp, Layout<SA, DA>> for Layout<SB, DB>
where
    Layout<SA, DA>: Coalesce,
    <Layout<SA, DA> as Coalesce>::Output: Parts,
    <<Layout<SA, DA> as Coalesce>::Output as Parts>::S: ComplementOf<Layout<SB, DB>>,
    Rest<Layout<SA, DA>, SB, DB>: Parts,
    Layout<SA, DA>: Composition<
        Layout<
            Cons<SB, Cons<<Rest<Layout<SA, DA>, SB, DB> as Parts>::S, Nil>>,
            Cons<DB, Cons<<Rest<Layout<SA, DA>, SB, DB> as Parts>::D, Nil>>,
        >,
    >,
{
    type Output = <Layout<SA, DA> as Composition<
        Layout<
            Cons<SB, Cons<<Rest<Layout<SA, DA>, SB, DB> as Parts>::S, Nil>>,
            Cons<DB, Cons<<Rest<Layout<SA, DA>, SB, DB> as Parts>::D, Nil>>,
        >,
    >>::Output;
}

crate::diag::static_op!(
    /// `logical_divide(A, B)`: `A` split into (tile, rest) by `B`, computed by the type checker for
    /// static layouts.
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
    /// ```
    fn logical_divide<B>(B) => DivideOp, LogicalDivide
);

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
/// Guide elements past the layout's modes: nothing (the tiler's [`TilerRank`] check reports
/// them).
///
/// [`TilerRank`]: crate::composition::TilerRank
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
    L: Unzip2List<<S as Wrap>::Out, <D as Wrap>::Out>,
{
    type TS = <L as Unzip2List<<S as Wrap>::Out, <D as Wrap>::Out>>::TS;
    type TD = <L as Unzip2List<<S as Wrap>::Out, <D as Wrap>::Out>>::TD;
    type RS = <L as Unzip2List<<S as Wrap>::Out, <D as Wrap>::Out>>::RS;
    type RD = <L as Unzip2List<<S as Wrap>::Out, <D as Wrap>::Out>>::RD;
}

/// `tile_unzip(L, guide)`: the zipped layout `((tiles), (rests))`.
pub type Zipped<G, S, D> = Layout<
    Cons<<G as Unzip2By<S, D>>::TS, Cons<<G as Unzip2By<S, D>>::RS, Nil>>,
    Cons<<G as Unzip2By<S, D>>::TD, Cons<<G as Unzip2By<S, D>>::RD, Nil>>,
>;

/// The modes `L(_, repeat<R>(_))` keeps of one mode: a rank-1 mode (a leaf or `(s)`) stays one
/// mode, a tuple of another rank is spliced into its modes.
pub trait Unpack<D> {
    /// The shapes, as a list.
    type S;
    /// The strides, as a list.
    type D;
}
impl<H, D> Unpack<Cons<D, Nil>> for Cons<H, Nil> {
    type S = Cons<Cons<H, Nil>, Nil>;
    type D = Cons<Cons<D, Nil>, Nil>;
}
impl<H, H2, T, D, D2, E> Unpack<Cons<D, Cons<D2, E>>> for Cons<H, Cons<H2, T>> {
    type S = Cons<H, Cons<H2, T>>;
    type D = Cons<D, Cons<D2, E>>;
}
impl Unpack<Nil> for Nil {
    type S = Nil;
    type D = Nil;
}
macro_rules! leaf_unpack {
    ($([$($g:ident: $b:path),*] $s:ty, $d:ty);* $(;)?) => {$(
        impl<$($g: $b),*> Unpack<$d> for $s {
            type S = Cons<$s, Nil>;
            type D = Cons<$d, Nil>;
        }
    )*};
}
crate::int_tuple::for_each_leaf_pair!(leaf_unpack);

/// The zipped, tiled and flat forms of a divide or a product: `$op` is the operation's marker
/// ([`DivideOp`], `ProductOp`), `$res` its result alias.
macro_rules! rearrangements {
    ($op:ty, $res:ident, $zalias:ident, $ztr:ident, $ttr:ident, $ftr:ident,
     $(#[$zdoc:meta])* $zipped:ident, $(#[$tdoc:meta])* $tiled:ident, $(#[$fdoc:meta])* $flat:ident) => {
        /// The operation as a trait: one bound in generic code.
        impl<SA, DA, B> $crate::ops::$ztr<B> for Layout<SA, DA>
        where
            B: TilerOp<$op, Layout<SA, DA>>,
            $res<Layout<SA, DA>, B>: Parts,
            B: Unzip2By<<$res<Layout<SA, DA>, B> as Parts>::S, <$res<Layout<SA, DA>, B> as Parts>::D>,
            $zalias<Layout<SA, DA>, B>: Default,
        {
            type Output = $zalias<Layout<SA, DA>, B>;
            #[inline(always)]
            fn $zipped(self, b: B) -> Self::Output {
                $zipped(self, b)
            }
        }

        /// The operation as a trait: one bound in generic code.
        impl<SA, DA, B, TS, TD, RS, RD> $crate::ops::$ttr<B> for Layout<SA, DA>
        where
            B: TilerOp<$op, Layout<SA, DA>>,
            $res<Layout<SA, DA>, B>: Parts,
            B: Unzip2By<
                <$res<Layout<SA, DA>, B> as Parts>::S,
                <$res<Layout<SA, DA>, B> as Parts>::D,
                TS = TS,
                TD = TD,
                RS = RS,
                RD = RD,
            >,
            RS: Unpack<RD>,
            Layout<Cons<TS, <RS as Unpack<RD>>::S>, Cons<TD, <RS as Unpack<RD>>::D>>: Default,
        {
            type Output = Layout<Cons<TS, <RS as Unpack<RD>>::S>, Cons<TD, <RS as Unpack<RD>>::D>>;
            #[inline(always)]
            fn $tiled(self, b: B) -> Self::Output {
                $tiled(self, b)
            }
        }

        /// The operation as a trait: one bound in generic code.
        impl<SA, DA, B, TS, TD, RS, RD> $crate::ops::$ftr<B> for Layout<SA, DA>
        where
            B: TilerOp<$op, Layout<SA, DA>>,
            $res<Layout<SA, DA>, B>: Parts,
            B: Unzip2By<
                <$res<Layout<SA, DA>, B> as Parts>::S,
                <$res<Layout<SA, DA>, B> as Parts>::D,
                TS = TS,
                TD = TD,
                RS = RS,
                RD = RD,
            >,
            TS: Unpack<TD>,
            RS: Unpack<RD>,
            <TS as Unpack<TD>>::S: crate::coalesce::Concat<<RS as Unpack<RD>>::S>,
            <TS as Unpack<TD>>::D: crate::coalesce::Concat<<RS as Unpack<RD>>::D>,
            Layout<
                <<TS as Unpack<TD>>::S as crate::coalesce::Concat<<RS as Unpack<RD>>::S>>::Output,
                <<TS as Unpack<TD>>::D as crate::coalesce::Concat<<RS as Unpack<RD>>::D>>::Output,
            >: Default,
        {
            type Output = Layout<
                <<TS as Unpack<TD>>::S as crate::coalesce::Concat<<RS as Unpack<RD>>::S>>::Output,
                <<TS as Unpack<TD>>::D as crate::coalesce::Concat<<RS as Unpack<RD>>::D>>::Output,
            >;
            #[inline(always)]
            fn $flat(self, b: B) -> Self::Output {
                $flat(self, b)
            }
        }

        #[doc = concat!("The type of `", stringify!($zipped), "(A, B)`.")]
        pub type $zalias<A, B> = Zipped<B, <$res<A, B> as Parts>::S, <$res<A, B> as Parts>::D>;

        $(#[$zdoc])*
        #[inline(always)]
        pub fn $zipped<SA, DA, B>(_: Layout<SA, DA>, _: B) -> $zalias<Layout<SA, DA>, B>
        where
            B: TilerOp<$op, Layout<SA, DA>>,
            $res<Layout<SA, DA>, B>: Parts,
            B: Unzip2By<<$res<Layout<SA, DA>, B> as Parts>::S, <$res<Layout<SA, DA>, B> as Parts>::D>,
            $zalias<Layout<SA, DA>, B>: Default,
        {
            Default::default()
        }

        $(#[$tdoc])*
        #[inline(always)]
        pub fn $tiled<SA, DA, B, TS, TD, RS, RD>(
            _: Layout<SA, DA>,
            _: B,
        ) -> Layout<Cons<TS, <RS as Unpack<RD>>::S>, Cons<TD, <RS as Unpack<RD>>::D>>
        where
            B: TilerOp<$op, Layout<SA, DA>>,
            $res<Layout<SA, DA>, B>: Parts,
            B: Unzip2By<
                <$res<Layout<SA, DA>, B> as Parts>::S,
                <$res<Layout<SA, DA>, B> as Parts>::D,
                TS = TS,
                TD = TD,
                RS = RS,
                RD = RD,
            >,
            RS: Unpack<RD>,
            Layout<Cons<TS, <RS as Unpack<RD>>::S>, Cons<TD, <RS as Unpack<RD>>::D>>: Default,
        {
            Default::default()
        }

        $(#[$fdoc])*
        #[inline(always)]
        pub fn $flat<SA, DA, B, TS, TD, RS, RD>(
            _: Layout<SA, DA>,
            _: B,
        ) -> Layout<
            <<TS as Unpack<TD>>::S as crate::coalesce::Concat<<RS as Unpack<RD>>::S>>::Output,
            <<TS as Unpack<TD>>::D as crate::coalesce::Concat<<RS as Unpack<RD>>::D>>::Output,
        >
        where
            B: TilerOp<$op, Layout<SA, DA>>,
            $res<Layout<SA, DA>, B>: Parts,
            B: Unzip2By<
                <$res<Layout<SA, DA>, B> as Parts>::S,
                <$res<Layout<SA, DA>, B> as Parts>::D,
                TS = TS,
                TD = TD,
                RS = RS,
                RD = RD,
            >,
            TS: Unpack<TD>,
            RS: Unpack<RD>,
            <TS as Unpack<TD>>::S: crate::coalesce::Concat<<RS as Unpack<RD>>::S>,
            <TS as Unpack<TD>>::D: crate::coalesce::Concat<<RS as Unpack<RD>>::D>,
            Layout<
                <<TS as Unpack<TD>>::S as crate::coalesce::Concat<<RS as Unpack<RD>>::S>>::Output,
                <<TS as Unpack<TD>>::D as crate::coalesce::Concat<<RS as Unpack<RD>>::D>>::Output,
            >: Default,
        {
            Default::default()
        }
    };
}
pub(crate) use rearrangements;

rearrangements!(
    DivideOp, Divided, ZippedDivided, ZippedDivide, TiledDivide, FlatDivide,
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
