//! The decimal digits of typenum numbers, for compile errors in plain words.
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
    type Output;
}

cute_macros::decimal_digits!();

/// The decimal digits of a typenum number, as `DecN<d1, .., dN>`.
pub trait Decimal {
    /// The digits.
    type Output;
}
impl<N> Decimal for N
where
    N: IsLess<U10>,
    (<N as IsLess<U10>>::Output, N): Digits,
{
    type Output = <(<N as IsLess<U10>>::Output, N) as Digits>::Output;
}

/// One step of the conversion, chosen by `N < 10`.
pub trait Digits {
    /// The digits.
    type Output;
}
impl<N> Digits for (B1, N)
where
    Dec0: Push<N>,
{
    type Output = <Dec0 as Push<N>>::Output;
}
impl<N> Digits for (B0, N)
where
    N: Div<U10> + Rem<U10>,
    <N as Div<U10>>::Output: Decimal,
    <<N as Div<U10>>::Output as Decimal>::Output: Push<<N as Rem<U10>>::Output>,
{
    type Output = <<<N as Div<U10>>::Output as Decimal>::Output as Push<<N as Rem<U10>>::Output>>::Output;
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
        assert!(same::<<U0 as Decimal>::Output, Dec1<0>>());
        assert!(same::<<U7 as Decimal>::Output, Dec1<7>>());
        assert!(same::<<U1024 as Decimal>::Output, Dec4<1, 0, 2, 4>>());
        type Max = crate::Shape![4294967296];
        assert!(same::<<Max as Decimal>::Output, Dec10<4, 2, 9, 4, 9, 6, 7, 2, 9, 6>>());
    }
}
