//! Static arithmetic for the type-level algorithms: one helper trait per operation, so impl
//! headers name one projection each (typenum's operators, with the bounds they need inside).

use core::ops::{Add, BitAnd, BitOr, Div, Mul, Rem, Sub};

use typenum::{Bit, IsEqual, IsLess, IsLessOrEqual, Min, Unsigned, B1, U0, U1};

/// `ceil(A / B)` as C++ computes it, `(A + B - 1) / B`.
pub trait CeilDiv<B> {
    /// The quotient.
    type Out: Unsigned + Default + Copy;
}
impl<A, B> CeilDiv<B> for A
where
    A: Add<B>,
    <A as Add<B>>::Output: Sub<B1>,
    <<A as Add<B>>::Output as Sub<B1>>::Output: Div<B>,
    <<<A as Add<B>>::Output as Sub<B1>>::Output as Div<B>>::Output: Unsigned + Default + Copy,
{
    type Out = <<<A as Add<B>>::Output as Sub<B1>>::Output as Div<B>>::Output;
}

macro_rules! binary {
    ($(#[$doc:meta] $name:ident, $op:ident, $out:ident, $bound:path);* $(;)?) => {$(
        #[$doc]
        pub trait $name<B> {
            /// The result.
            type Out: $bound;
        }
        impl<A: $op<B>, B> $name<B> for A
        where
            <A as $op<B>>::$out: $bound,
        {
            type Out = <A as $op<B>>::$out;
        }
    )*};
}

/// Marker for static values that can be built and copied.
pub trait Value: Unsigned + Default + Copy {}
impl<T: Unsigned + Default + Copy> Value for T {}

binary!(
    /// `A * B`.
    MulT, Mul, Output, Value;
    /// `A / B`.
    DivT, Div, Output, Value;
    /// `A + B`.
    AddT, Add, Output, Value;
    /// `min(A, B)`.
    MinT, Min, Output, Value;
    /// `A < B`.
    LtT, IsLess, Output, Bit;
    /// `A <= B`.
    LeT, IsLessOrEqual, Output, Bit;
    /// `A == B`.
    EqT, IsEqual, Output, Bit;
    /// `A | B` on bits.
    OrT, BitOr, Output, Bit;
    /// `A & B` on bits.
    AndT, BitAnd, Output, Bit;
);

/// `A % B == 0`.
pub trait Divides<B> {
    /// `B1` when `B` divides `A`.
    type Out: Bit;
}
impl<A: Rem<B>, B> Divides<B> for A
where
    <A as Rem<B>>::Output: IsEqual<U0>,
{
    type Out = <<A as Rem<B>>::Output as IsEqual<U0>>::Output;
}

/// `A == 1`.
pub type IsOne<A> = <A as EqT<U1>>::Out;
