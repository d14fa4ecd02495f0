//! Compile errors in plain words: numbers in decimal.
//!
//! Each precondition is a trait `Cond<X, Y>` implemented by the condition's bit: by `B1` always,
//! by `B0` only where the decimal digits of `X` and `Y` satisfy a trait that nothing
//! implements, whose `#[diagnostic::on_unimplemented]` message shows the digits. rustc prints
//! const arguments as values, so the message reads `stride 3 vs shape 4` rather than the
//! binary typenum types (see `cute_macros::decimal_condition`). The digits are computed only on
//! the failing branch, so a program that compiles never pays for them.

use core::ops::{Div, Rem};

use typenum::{IsLess, B0, B1, U10};

/// Appends a decimal digit (a typenum `U0 ..= U9`).
pub trait Push<D> {
    /// The longer number.
    type Out;
}

cute_macros::decimal_digits!();

/// The decimal digits of a typenum number, as `DecN<d1, .., dN>`.
pub trait Decimal {
    /// The digits.
    type Out;
}
impl<N> Decimal for N
where
    N: IsLess<U10>,
    (<N as IsLess<U10>>::Output, N): Digits,
{
    type Out = <(<N as IsLess<U10>>::Output, N) as Digits>::Out;
}

/// One step of the conversion, chosen by `N < 10`.
pub trait Digits {
    /// The digits.
    type Out;
}
impl<N> Digits for (B1, N)
where
    Dec0: Push<N>,
{
    type Out = <Dec0 as Push<N>>::Out;
}
impl<N> Digits for (B0, N)
where
    N: Div<U10> + Rem<U10>,
    <N as Div<U10>>::Output: Decimal,
    <<N as Div<U10>>::Output as Decimal>::Out: Push<<N as Rem<U10>>::Output>,
{
    type Out = <<<N as Div<U10>>::Output as Decimal>::Out as Push<<N as Rem<U10>>::Output>>::Out;
}

#[cfg(test)]
mod tests {
    use super::*;
    use typenum::{U0, U1024, U7};

    fn same<A: 'static, B: 'static>() -> bool {
        core::any::TypeId::of::<A>() == core::any::TypeId::of::<B>()
    }

    #[test]
    fn digits_are_decimal() {
        assert!(same::<<U0 as Decimal>::Out, Dec1<0>>());
        assert!(same::<<U7 as Decimal>::Out, Dec1<7>>());
        assert!(same::<<U1024 as Decimal>::Out, Dec4<1, 0, 2, 4>>());
        type Max = crate::Shape![4294967296];
        assert!(same::<<Max as Decimal>::Out, Dec10<4, 2, 9, 4, 9, 6, 7, 2, 9, 6>>());
    }
}

// ------------------------------------------------------------------------------------------
// Static-only operations given run-time values.
// ------------------------------------------------------------------------------------------

use crate::complement::ComplementOf;
use crate::composition::{Composition, CompositionOp, DivideOp, ProductOp, TilerOp};
use crate::int_tuple::{Cons, Nil};
use crate::layout::Layout;
use typenum::{Bit, UInt, UTerm, Unsigned, U0, U1};

/// `B1` when every leaf is static.
pub trait StaticBit {
    /// The bit.
    type Out: Bit;
}
impl StaticBit for UTerm {
    type Out = B1;
}
impl<U: Unsigned, B: Bit> StaticBit for UInt<U, B> {
    type Out = B1;
}
impl StaticBit for usize {
    type Out = B0;
}
impl StaticBit for Nil {
    type Out = B1;
}
impl<H: StaticBit, T: StaticBit> StaticBit for Cons<H, T>
where
    <H as StaticBit>::Out: core::ops::BitAnd<<T as StaticBit>::Out>,
    <<H as StaticBit>::Out as core::ops::BitAnd<<T as StaticBit>::Out>>::Output: Bit,
{
    type Out = <<H as StaticBit>::Out as core::ops::BitAnd<<T as StaticBit>::Out>>::Output;
}
impl<S, D> StaticBit for Layout<S, D>
where
    Cons<S, Cons<D, Nil>>: StaticBit,
{
    type Out = <Cons<S, Cons<D, Nil>> as StaticBit>::Out;
}

/// A layout with a run-time leaf given to an operation that decides its result's structure at
/// compile time: implemented by nothing, so its message is the error.
#[diagnostic::on_unimplemented(
    message = "static value required: this operation computes its result in the type checker, and the layout has a run-time ({{expr}}) leaf",
    label = "a layout with a run-time leaf",
    note = "use the cute-dyn operation on `.to_dyn()` for run-time values (coalesce and filter take them here)"
)]
pub trait StaticLayoutRequired {}

/// `complement`, as an operation marker.
#[derive(Clone, Copy, Default, Debug)]
pub struct ComplementOp;

/// What an operation marker computes for `(A, B)`.
pub trait Operation<A, B> {
    /// The result type.
    type Output;
}
impl<A: Composition<B>, B> Operation<A, B> for CompositionOp {
    type Output = <A as Composition<B>>::Output;
}
impl<A, B: TilerOp<DivideOp, A>> Operation<A, B> for DivideOp {
    type Output = <B as TilerOp<DivideOp, A>>::Output;
}
impl<A, B: TilerOp<ProductOp, A>> Operation<A, B> for ProductOp {
    type Output = <B as TilerOp<ProductOp, A>>::Output;
}
impl<A, C: ComplementOf<A>> Operation<A, C> for ComplementOp {
    type Output = <C as ComplementOf<A>>::Output;
}

/// The operation when `A` is static; otherwise one error, [`StaticLayoutRequired`], instead of
/// the typenum arithmetic failing on `usize` in many places.
pub trait Gate<Op, A, B> {
    /// The result type.
    type Output;
}
impl<Op: Operation<A, B>, A, B> Gate<Op, A, B> for B1 {
    type Output = <Op as Operation<A, B>>::Output;
}
impl<Op, A: StaticLayoutRequired, B> Gate<Op, A, B> for B0 {
    type Output = Layout<U1, U0>;
}

/// The result type of a static-only operation `Op` on `(A, B)`.
pub type Gated<Op, A, B> = <<A as StaticBit>::Out as Gate<Op, A, B>>::Output;

/// A public static-only operation `name(layout, b)` (or `name(layout)`): its result type is the
/// gate's, so that a run-time leaf is one "static value required" error, and its value the
/// type's default (every leaf is static, every result zero-sized).
macro_rules! static_op {
    ($(#[$doc:meta])* fn $name:ident<$($g:ident),*>($bt:ty) => $op:ty $(, $tr:ident)?) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name<SA, DA, $($g),*>(_: $crate::Layout<SA, DA>, _: $bt) -> $crate::diag::Gated<$op, $crate::Layout<SA, DA>, $bt>
        where
            $crate::Layout<SA, DA>: $crate::diag::StaticBit,
            <$crate::Layout<SA, DA> as $crate::diag::StaticBit>::Out: $crate::diag::Gate<$op, $crate::Layout<SA, DA>, $bt>,
            $crate::diag::Gated<$op, $crate::Layout<SA, DA>, $bt>: Default,
        {
            Default::default()
        }
        $(
        /// The operation as a trait: one bound in generic code.
        impl<SA, DA, X> $crate::ops::$tr<X> for $crate::Layout<SA, DA>
        where
            $crate::Layout<SA, DA>: $crate::diag::StaticBit,
            <$crate::Layout<SA, DA> as $crate::diag::StaticBit>::Out: $crate::diag::Gate<$op, $crate::Layout<SA, DA>, X>,
            $crate::diag::Gated<$op, $crate::Layout<SA, DA>, X>: Default,
        {
            type Output = $crate::diag::Gated<$op, $crate::Layout<SA, DA>, X>;
            #[inline(always)]
            fn $name(self, _: X) -> Self::Output {
                Default::default()
            }
        }
        )?
    };
    ($(#[$doc:meta])* fn $name:ident() => $op:ty $(, $tr:ident)?) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name<SA, DA>(_: $crate::Layout<SA, DA>) -> $crate::diag::Gated<$op, $crate::Layout<SA, DA>, ()>
        where
            $crate::Layout<SA, DA>: $crate::diag::StaticBit,
            <$crate::Layout<SA, DA> as $crate::diag::StaticBit>::Out: $crate::diag::Gate<$op, $crate::Layout<SA, DA>, ()>,
            $crate::diag::Gated<$op, $crate::Layout<SA, DA>, ()>: Default,
        {
            Default::default()
        }
        $(
        /// The operation as a trait: one bound in generic code.
        impl<SA, DA> $crate::ops::$tr for $crate::Layout<SA, DA>
        where
            $crate::Layout<SA, DA>: $crate::diag::StaticBit,
            <$crate::Layout<SA, DA> as $crate::diag::StaticBit>::Out: $crate::diag::Gate<$op, $crate::Layout<SA, DA>, ()>,
            $crate::diag::Gated<$op, $crate::Layout<SA, DA>, ()>: Default,
        {
            type Output = $crate::diag::Gated<$op, $crate::Layout<SA, DA>, ()>;
            #[inline(always)]
            fn $name(self) -> Self::Output {
                Default::default()
            }
        }
        )?
    };
}
pub(crate) use static_op;
