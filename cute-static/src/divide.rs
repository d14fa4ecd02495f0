//! logical_divide at the type level, for static layouts:
//! `composition(A, make_layout(B, complement(B, shape(coalesce(A)))))`, by mode for a tiler
//! (`_` keeps a mode, `n` is `make_layout(n)`, modes past the tiler are kept).

use typenum::{Bit, UInt, UTerm, Unsigned, B0, B1, U0, U1};

use crate::arith::{EqT, IsOne};
use crate::coalesce::Coalesce;
use crate::complement::ComplementOf;
use crate::composition::{ByMode, Composition, MakeLayout, Under, Wrap};
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

/// `DivideOf<A>`: `logical_divide(A, Self)`, implemented by the tiler (so that the type checker
/// looks at it only once it knows the tiler).
pub trait DivideOf<A> {
    /// The divided layout type.
    type Output;
}

/// `Divided<A, B>`: the type of `logical_divide(A, B)`.
pub type Divided<A, B> = <B as DivideOf<A>>::Output;

/// The complement of `B` in `shape(coalesce(A))`.
type Rest<A, SB, DB> = <<<A as Coalesce>::Output as Parts>::S as ComplementOf<Layout<SB, DB>>>::Output;

/// A layout tiler: `A ∘ (B, complement(B, shape(coalesce(A))))`.
impl<SA, DA, SB, DB> DivideOf<Layout<SA, DA>> for Layout<SB, DB>
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

/// `_`: the mode as it is.
impl<SA, DA> DivideOf<Layout<SA, DA>> for Under {
    type Output = Layout<SA, DA>;
}

/// `make_layout(n)`: `n:_1`, or `_1:_0` for a static 1 (C++'s compact layouts).
pub trait IntLayout {
    /// The layout.
    type Out;
}
impl<N: EqT<U1>> IntLayout for N
where
    (IsOne<N>,): PickInt<N>,
{
    type Out = <(IsOne<N>,) as PickInt<N>>::Out;
}
/// `_1:_0` or `n:_1`.
pub trait PickInt<N> {
    /// The layout.
    type Out;
}
impl<N> PickInt<N> for (B1,) {
    type Out = Layout<U1, U0>;
}
impl<N> PickInt<N> for (B0,) {
    type Out = Layout<N, U1>;
}

macro_rules! int_divide {
    ($([$($g:ident: $b:path),*] $ty:ty);*) => {$(
        /// A bare integer `n`: divide by `make_layout(n)`.
        impl<SA, DA, $($g: $b),*> DivideOf<Layout<SA, DA>> for $ty
        where
            $ty: IntLayout,
            <$ty as IntLayout>::Out: DivideOf<Layout<SA, DA>>,
        {
            type Output = <<$ty as IntLayout>::Out as DivideOf<Layout<SA, DA>>>::Output;
        }
    )*};
}
int_divide!([] UTerm; [U: Unsigned, B: Bit] UInt<U, B>);

/// The elements of a by-mode tiler against A's modes; the modes past the tiler are kept.
pub trait ModesDivide<SA, DA> {
    /// The divided modes, as a list of layouts.
    type Out;
}
impl ModesDivide<Nil, Nil> for Nil {
    type Out = Nil;
}
/// Past the tiler: keep A's remaining modes.
impl<S, ST, D, DT> ModesDivide<Cons<S, ST>, Cons<D, DT>> for Nil
where
    Nil: ModesDivide<ST, DT>,
{
    type Out = Cons<Layout<S, D>, <Nil as ModesDivide<ST, DT>>::Out>;
}
impl<T, TT, S, ST, D, DT> ModesDivide<Cons<S, ST>, Cons<D, DT>> for Cons<T, TT>
where
    T: DivideOf<Layout<S, D>>,
    TT: ModesDivide<ST, DT>,
{
    type Out = Cons<<T as DivideOf<Layout<S, D>>>::Output, <TT as ModesDivide<ST, DT>>::Out>;
}

/// A by-mode tiler: element i divides mode i of A.
impl<SA, DA, L> DivideOf<Layout<SA, DA>> for ByMode<L>
where
    SA: Wrap,
    DA: Wrap,
    L: ModesDivide<<SA as Wrap>::Out, <DA as Wrap>::Out>,
    <L as ModesDivide<<SA as Wrap>::Out, <DA as Wrap>::Out>>::Out: MakeLayout,
{
    type Output = Layout<
        <<L as ModesDivide<<SA as Wrap>::Out, <DA as Wrap>::Out>>::Out as MakeLayout>::S,
        <<L as ModesDivide<<SA as Wrap>::Out, <DA as Wrap>::Out>>::Out as MakeLayout>::D,
    >;
}

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
#[inline(always)]
pub fn logical_divide<SA, DA, B>(_: Layout<SA, DA>, _: B) -> <B as DivideOf<Layout<SA, DA>>>::Output
where
    B: DivideOf<Layout<SA, DA>>,
    <B as DivideOf<Layout<SA, DA>>>::Output: Default,
{
    // Every leaf is static: the value is the type's.
    Default::default()
}
