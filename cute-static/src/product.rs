//! logical_product at the type level, for static layouts:
//! `make_layout(A, composition(complement(A, size(A) * cosize(B)), B))`, by mode for a tiler.

use core::ops::{Add, Sub};

use typenum::{Bit, UInt, UTerm, Unsigned, B1, U1};

use crate::arith::MulT;
use crate::complement::ComplementOf;
use crate::composition::{Composition, ProductOp, TilerOp};
use crate::diag::{Gate, Gated, StaticBit};
use crate::divide::Parts;
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

/// `Multiplied<A, B>`: the type of `logical_product(A, B)`.
pub type Multiplied<A, B> = <B as TilerOp<ProductOp, A>>::Output;

/// `size(A) * cosize(B)`.
type Cotarget<SA, SB, DB> = <<SA as SizeT>::Out as MulT<<<SB as MaxIndexT<DB>>::Out as Add<B1>>::Output>>::Out;

/// The complement of A in the cotarget, composed with B.
type Repeat<SA, DA, SB, DB> =
    <<Cotarget<SA, SB, DB> as ComplementOf<Layout<SA, DA>>>::Output as Composition<Layout<SB, DB>>>::Output;

/// A layout tiler.
impl<SA, DA, SB, DB> TilerOp<ProductOp, Layout<SA, DA>> for Layout<SB, DB>
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
pub fn logical_product<SA, DA, B>(_: Layout<SA, DA>, _: B) -> Gated<ProductOp, Layout<SA, DA>, B>
where
    Layout<SA, DA>: StaticBit,
    <Layout<SA, DA> as StaticBit>::Out: Gate<ProductOp, Layout<SA, DA>, B>,
    Gated<ProductOp, Layout<SA, DA>, B>: Default,
{
    // Every leaf is static: the value is the type's.
    Default::default()
}

use crate::divide::{rearrangements, Unpack, Unzip2By, Zipped};

rearrangements!(
    ProductOp, Multiplied, ZippedMultiplied,
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
