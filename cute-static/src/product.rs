//! logical_product at the type level, for static layouts:
//! `make_layout(A, composition(complement(A, size(A) * cosize(B)), B))`, by mode for a tiler.

use core::ops::{Add, Sub};

use typenum::{Bit, UInt, UTerm, Unsigned, B1, U1};

use crate::arith::MulT;
use crate::complement::ComplementOf;
use crate::composition::{ByMode, Composition, MakeLayout, Under, Wrap};
use crate::divide::{IntLayout, Parts};
use crate::int_tuple::{Cons, Nil};
use crate::layout::Layout;

/// `size`: the product of a static shape.
pub trait SizeT {
    /// The product.
    type Out;
}
impl SizeT for Nil {
    type Out = U1;
}
impl<H: SizeT, T: SizeT> SizeT for Cons<H, T>
where
    <H as SizeT>::Out: MulT<<T as SizeT>::Out>,
{
    type Out = <<H as SizeT>::Out as MulT<<T as SizeT>::Out>>::Out;
}
impl SizeT for UTerm {
    type Out = UTerm;
}
impl<U: Unsigned, B: Bit> SizeT for UInt<U, B> {
    type Out = UInt<U, B>;
}

/// `cosize - 1 = sum((s - 1) * d)` of a static shape with its stride.
pub trait MaxIndexT<D> {
    /// The largest index.
    type Out;
}
impl MaxIndexT<Nil> for Nil {
    type Out = typenum::U0;
}
impl<S, ST, D, DT> MaxIndexT<Cons<D, DT>> for Cons<S, ST>
where
    S: MaxIndexT<D>,
    ST: MaxIndexT<DT>,
    <S as MaxIndexT<D>>::Out: Add<<ST as MaxIndexT<DT>>::Out>,
{
    type Out = <<S as MaxIndexT<D>>::Out as Add<<ST as MaxIndexT<DT>>::Out>>::Output;
}
macro_rules! leaf_max_index {
    ($([$($g:ident: $b:path),*] $s:ty, $d:ty);* $(;)?) => {$(
        /// A leaf: `(s - 1) * d` (a static 0 shape counts as 1).
        impl<$($g: $b),*> MaxIndexT<$d> for $s
        where
            $s: typenum::Max<U1>,
            <$s as typenum::Max<U1>>::Output: Sub<B1>,
            <<$s as typenum::Max<U1>>::Output as Sub<B1>>::Output: MulT<$d>,
        {
            type Out = <<<$s as typenum::Max<U1>>::Output as Sub<B1>>::Output as MulT<$d>>::Out;
        }
    )*};
}
leaf_max_index!(
    [] UTerm, UTerm;
    [U: Unsigned, B: Bit] UTerm, UInt<U, B>;
    [U: Unsigned, B: Bit] UInt<U, B>, UTerm;
    [U: Unsigned, B: Bit, V: Unsigned, C: Bit] UInt<U, B>, UInt<V, C>;
);

/// `ProductOf<A>`: `logical_product(A, Self)`, implemented by the tiler.
pub trait ProductOf<A> {
    /// The product layout type.
    type Output;
}

/// `Multiplied<A, B>`: the type of `logical_product(A, B)`.
pub type Multiplied<A, B> = <B as ProductOf<A>>::Output;

/// `size(A) * cosize(B)`.
type Cotarget<SA, SB, DB> = <<SA as SizeT>::Out as MulT<<<SB as MaxIndexT<DB>>::Out as Add<B1>>::Output>>::Out;

/// The complement of A in the cotarget, composed with B.
type Repeat<SA, DA, SB, DB> =
    <<Cotarget<SA, SB, DB> as ComplementOf<Layout<SA, DA>>>::Output as Composition<Layout<SB, DB>>>::Output;

/// A layout tiler.
impl<SA, DA, SB, DB> ProductOf<Layout<SA, DA>> for Layout<SB, DB>
where
    SA: SizeT,
    SB: MaxIndexT<DB>,
    <SB as MaxIndexT<DB>>::Out: Add<B1>,
    <SA as SizeT>::Out: MulT<<<SB as MaxIndexT<DB>>::Out as Add<B1>>::Output>,
    Cotarget<SA, SB, DB>: ComplementOf<Layout<SA, DA>>,
    <Cotarget<SA, SB, DB> as ComplementOf<Layout<SA, DA>>>::Output: Composition<Layout<SB, DB>>,
    Repeat<SA, DA, SB, DB>: Parts,
{
    type Output = Layout<
        Cons<SA, Cons<<Repeat<SA, DA, SB, DB> as Parts>::S, Nil>>,
        Cons<DA, Cons<<Repeat<SA, DA, SB, DB> as Parts>::D, Nil>>,
    >;
}

/// `_`: the mode as it is.
impl<SA, DA> ProductOf<Layout<SA, DA>> for Under {
    type Output = Layout<SA, DA>;
}

macro_rules! int_product {
    ($([$($g:ident: $b:path),*] $ty:ty);*) => {$(
        /// A bare integer `n`: the product with `make_layout(n)`.
        impl<SA, DA, $($g: $b),*> ProductOf<Layout<SA, DA>> for $ty
        where
            $ty: IntLayout,
            <$ty as IntLayout>::Out: ProductOf<Layout<SA, DA>>,
        {
            type Output = <<$ty as IntLayout>::Out as ProductOf<Layout<SA, DA>>>::Output;
        }
    )*};
}
int_product!([] UTerm; [U: Unsigned, B: Bit] UInt<U, B>);

/// The elements of a by-mode tiler against A's modes; the modes past the tiler are kept.
pub trait ModesProduct<SA, DA> {
    /// The multiplied modes, as a list of layouts.
    type Out;
}
impl ModesProduct<Nil, Nil> for Nil {
    type Out = Nil;
}
impl<S, ST, D, DT> ModesProduct<Cons<S, ST>, Cons<D, DT>> for Nil
where
    Nil: ModesProduct<ST, DT>,
{
    type Out = Cons<Layout<S, D>, <Nil as ModesProduct<ST, DT>>::Out>;
}
impl<T, TT, S, ST, D, DT> ModesProduct<Cons<S, ST>, Cons<D, DT>> for Cons<T, TT>
where
    T: ProductOf<Layout<S, D>>,
    TT: ModesProduct<ST, DT>,
{
    type Out = Cons<<T as ProductOf<Layout<S, D>>>::Output, <TT as ModesProduct<ST, DT>>::Out>;
}

/// A by-mode tiler: element i multiplies mode i of A.
impl<SA, DA, L> ProductOf<Layout<SA, DA>> for ByMode<L>
where
    SA: Wrap,
    DA: Wrap,
    L: ModesProduct<<SA as Wrap>::Out, <DA as Wrap>::Out>,
    <L as ModesProduct<<SA as Wrap>::Out, <DA as Wrap>::Out>>::Out: MakeLayout,
{
    type Output = Layout<
        <<L as ModesProduct<<SA as Wrap>::Out, <DA as Wrap>::Out>>::Out as MakeLayout>::S,
        <<L as ModesProduct<<SA as Wrap>::Out, <DA as Wrap>::Out>>::Out as MakeLayout>::D,
    >;
}

/// `logical_product(A, B)`: `B` repeated over copies of `A`, computed by the type checker for
/// static layouts.
///
/// # Examples
/// ```
/// use cute_static::{layout, logical_product};
/// // CuTe docs
/// let r = logical_product(layout!((2,2):(4,1)), layout!(6:1));
/// assert_eq!(r.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
/// ```
#[inline(always)]
pub fn logical_product<SA, DA, B>(_: Layout<SA, DA>, _: B) -> <B as ProductOf<Layout<SA, DA>>>::Output
where
    B: ProductOf<Layout<SA, DA>>,
    <B as ProductOf<Layout<SA, DA>>>::Output: Default,
{
    // Every leaf is static: the value is the type's.
    Default::default()
}

use crate::divide::{rearrangements, Unpack, Unzip2By, Zipped};

rearrangements!(
    ProductOf, Multiplied, ZippedMultiplied,
    /// `zipped_product(A, B)`: `((block), (product))`.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, zipped_product};
    /// let r = zipped_product(layout!((2,5):(5,1)), layout!((3,4):(1,3)));
    /// assert_eq!(r.to_string(), "((2,5),(3,4)):((5,1),(10,30))");
    /// ```
    zipped_product,
    /// `tiled_product(A, B)`: `((block), product0, product1, ...)`.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, tiled_product};
    /// let r = tiled_product(layout!((2,5):(5,1)), layout!((3,4):(1,3)));
    /// assert_eq!(r.to_string(), "((2,5),3,4):((5,1),10,30)");
    /// ```
    tiled_product,
    /// `flat_product(A, B)`: `(block0, block1, ..., product0, product1, ...)`.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{flat_product, layout};
    /// let r = flat_product(layout!((2,5):(5,1)), layout!((3,4):(1,3)));
    /// assert_eq!(r.to_string(), "(2,5,3,4):(5,1,10,30)");
    /// ```
    flat_product
);
