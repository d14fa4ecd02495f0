//! Static arithmetic for the type-level algorithms: one helper trait per operation, so impl
//! headers name one projection each (typenum's operators, with the bounds they need inside).

use core::ops::{Add, BitAnd, BitOr, Div, Mul, Rem, Sub};

use typenum::{Bit, IsEqual, IsLess, IsLessOrEqual, Max, Min, Unsigned, B1, U0, U1};

/// `ceil(A / B)` as C++ computes it, `(A + B - 1) / B`.
pub trait CeilDiv<B> {
    /// The quotient.
    type Output: Unsigned + Default + Copy;
}
impl<A: StaticValue, B: StaticValue> CeilDiv<B> for A
where
    A: Add<B>,
    <A as Add<B>>::Output: Sub<B1>,
    <<A as Add<B>>::Output as Sub<B1>>::Output: Div<B>,
    <<<A as Add<B>>::Output as Sub<B1>>::Output as Div<B>>::Output: Unsigned + Default + Copy,
{
    type Output = <<<A as Add<B>>::Output as Sub<B1>>::Output as Div<B>>::Output;
}

/// A static value: the type-level algorithms decide a result's structure from static values
/// only, so a run-time `usize` reaching one of them is a compile error in these words.
#[diagnostic::on_unimplemented(
    message = "static value required: this operation decides its result's structure at compile time, and `{Self}` is a run-time value",
    label = "a layout with a run-time ({{expr}}) leaf",
    note = "use the cute-dyn operation on `.to_dyn()` for run-time values (coalesce and filter take them here)"
)]
pub trait StaticValue: Value {}
impl<T: Value> StaticValue for T {}

macro_rules! binary {
    ($(#[$doc:meta] $name:ident, $op:ident, $out:ident, $bound:path, $arg:path);* $(;)?) => {$(
        #[$doc]
        pub trait $name<B> {
            /// The result.
            type Output: $bound;
        }
        impl<A: $arg + $op<B>, B: $arg> $name<B> for A
        where
            <A as $op<B>>::$out: $bound,
        {
            type Output = <A as $op<B>>::$out;
        }
    )*};
}

/// Marker for static values that can be built and copied.
pub trait Value: Unsigned + Default + Copy {}
impl<T: Unsigned + Default + Copy> Value for T {}

binary!(
    /// `A * B`.
    MulT, Mul, Output, Value, StaticValue;
    /// `A / B`.
    DivT, Div, Output, Value, StaticValue;
    /// `A + B`.
    AddT, Add, Output, Value, StaticValue;
    /// `min(A, B)`.
    MinT, Min, Output, Value, StaticValue;
    /// `max(A, B)`.
    MaxT, Max, Output, Value, StaticValue;
    /// `A < B`.
    LtT, IsLess, Output, Bit, StaticValue;
    /// `A <= B`.
    LeT, IsLessOrEqual, Output, Bit, StaticValue;
    /// `A == B`.
    EqT, IsEqual, Output, Bit, StaticValue;
    /// `A | B` on bits.
    OrT, BitOr, Output, Bit, Bit;
    /// `A & B` on bits.
    AndT, BitAnd, Output, Bit, Bit;
);

/// `A % B == 0`.
pub trait Divides<B> {
    /// `B1` when `B` divides `A`.
    type Output: Bit;
}
impl<A: StaticValue + Rem<B>, B: StaticValue> Divides<B> for A
where
    <A as Rem<B>>::Output: IsEqual<U0>,
{
    type Output = <<A as Rem<B>>::Output as IsEqual<U0>>::Output;
}

/// `A == 1`.
pub type IsOne<A> = <A as EqT<U1>>::Output;

/// `A * B` over static and run-time values: static × static stays static (the product's type),
/// `_0` × anything is `_0`, any other product with a `usize` is a `usize` (CuTe C++'s `Int<N>` ×
/// `int`).
pub trait MulMixed<B>: Copy {
    /// The product's type.
    type Output: Copy;
    /// The product.
    ///
    /// # Panics
    /// When a run-time product overflows `usize`.
    fn mul(self, b: B) -> Self::Output;
    /// The product, `None` when a run-time product overflows `usize`.
    fn checked_mul(self, b: B) -> Option<Self::Output>;
}

macro_rules! mul_mixed {
    (static: $([$($g:ident: $bd:path),*] $a:ty, $b:ty);*; dynamic: $([$($h:ident: $hb:path),*] $c:ty, $d:ty);* $(;)?) => {
        $(
            impl<$($g: $bd),*> MulMixed<$b> for $a
            where
                $a: MulT<$b>,
            {
                type Output = <$a as MulT<$b>>::Output;
                #[inline(always)]
                fn mul(self, _: $b) -> Self::Output {
                    Default::default()
                }
                #[inline(always)]
                fn checked_mul(self, _: $b) -> Option<Self::Output> {
                    Some(Default::default())
                }
            }
        )*
        $(
            impl<$($h: $hb),*> MulMixed<$d> for $c {
                type Output = usize;
                #[inline(always)]
                fn mul(self, b: $d) -> usize {
                    MulMixed::<$d>::checked_mul(self, b).expect("a run-time product overflows usize")
                }
                #[inline(always)]
                fn checked_mul(self, b: $d) -> Option<usize> {
                    use crate::int_tuple::Leaf;
                    self.value().checked_mul(b.value())
                }
            }
        )*
    };
}
use typenum::{UInt, UTerm};
mul_mixed!(
    static:
    [] UTerm, UTerm;
    [U: Unsigned, B: Bit] UTerm, UInt<U, B>;
    [U: Unsigned, B: Bit] UInt<U, B>, UTerm;
    [U: Unsigned, B: Bit, V: Unsigned, C: Bit] UInt<U, B>, UInt<V, C>;
    dynamic:
    [U: Unsigned, B: Bit] UInt<U, B>, usize;
    [U: Unsigned, B: Bit] usize, UInt<U, B>;
    [] usize, usize;
);

/// A static 0 times a run-time value is the static 0 (CuTe C++'s mixed special case in
/// `integral_constant.hpp`, and cute-dyn's `Int::checked_mul`).
macro_rules! mul_static_zero {
    ($($a:ty, $b:ty);*) => {$(
        impl MulMixed<$b> for $a {
            type Output = UTerm;
            #[inline(always)]
            fn mul(self, _: $b) -> UTerm {
                UTerm
            }
            #[inline(always)]
            fn checked_mul(self, _: $b) -> Option<UTerm> {
                Some(UTerm)
            }
        }
    )*};
}
mul_static_zero!(UTerm, usize; usize, UTerm);

use crate::int_tuple::{Cons, IntTuple, Leaf, List, Nil};

/// `round_up(a, b)`: `a` rounded up to a multiple of `b`, `((a + b - 1) / b) * b`, by mode for
/// tuples (`b`'s missing modes are 1, as C++), as cute-dyn's: static where both leaves are,
/// else a run-time `usize`. Implemented by `a`.
pub trait RoundUp<B> {
    /// The rounded tuple.
    type Output: IntTuple;
    /// Its value.
    ///
    /// # Panics
    /// When a run-time value overflows `usize` or divides by 0.
    fn round_up(self, b: B) -> Self::Output;
}
macro_rules! round_up_static {
    ($([$($g:ident: $bd:path),*] $a:ty, $b:ty);* $(;)?) => {$(
        impl<$($g: $bd),*> RoundUp<$b> for $a
        where
            $a: CeilDiv<$b>,
            <$a as CeilDiv<$b>>::Output: MulT<$b>,
            <<$a as CeilDiv<$b>>::Output as MulT<$b>>::Output: IntTuple,
        {
            type Output = <<$a as CeilDiv<$b>>::Output as MulT<$b>>::Output;
            #[inline(always)]
            fn round_up(self, _: $b) -> Self::Output {
                Default::default()
            }
        }
    )*};
}
// A static divisor 0 has no impl: a compile error.
round_up_static!(
    [U: Unsigned, B: Bit] UTerm, UInt<U, B>;
    [U: Unsigned, B: Bit, V: Unsigned, C: Bit] UInt<U, B>, UInt<V, C>;
);
macro_rules! round_up_dynamic {
    ($([$($g:ident: $bd:path),*] $a:ty, $b:ty);* $(;)?) => {$(
        impl<$($g: $bd),*> RoundUp<$b> for $a {
            type Output = usize;
            #[inline(always)]
            fn round_up(self, b: $b) -> usize {
                let (a, b) = (self.value(), b.value());
                a.div_ceil(b).checked_mul(b).expect("a run-time round_up overflows usize")
            }
        }
    )*};
}
round_up_dynamic!(
    [] UTerm, usize;
    [U: Unsigned, B: Bit] UInt<U, B>, usize;
    [] usize, UTerm;
    [U: Unsigned, B: Bit] usize, UInt<U, B>;
    [] usize, usize;
);
/// `b` exhausted: the remaining modes are rounded to a multiple of 1, themselves.
impl<H: IntTuple, T: List> RoundUp<Nil> for Cons<H, T> {
    type Output = Self;
    #[inline(always)]
    fn round_up(self, _: Nil) -> Self {
        self
    }
}
impl RoundUp<Nil> for Nil {
    type Output = Nil;
    #[inline(always)]
    fn round_up(self, _: Nil) -> Nil {
        Nil
    }
}
impl<H: RoundUp<BH>, T: RoundUp<BT>, BH, BT> RoundUp<Cons<BH, BT>> for Cons<H, T>
where
    T::Output: List,
{
    type Output = Cons<H::Output, T::Output>;
    #[inline(always)]
    fn round_up(self, b: Cons<BH, BT>) -> Self::Output {
        Cons(self.0.round_up(b.0), self.1.round_up(b.1))
    }
}

/// `round_up(a, b)` (see [`RoundUp`]).
///
/// # Panics
/// When a run-time value overflows `usize` or divides by 0.
///
/// # Examples
/// ```
/// use cute_static::{round_up, shape, Show};
/// // cute-dyn's example, checked against CuTe C++ 4.2: round_up((100,33,7), (64,32)) = (128,64,7)
/// assert_eq!(Show(&round_up(shape!((100,33,7)), shape!((64,32)))).to_string(), "(128,64,7)");
/// let m = 1000;
/// assert_eq!(Show(&round_up(shape!(({m},33)), shape!((128,32)))).to_string(), "({1024},64)");
/// ```
#[inline(always)]
pub fn round_up<A: RoundUp<B>, B>(a: A, b: B) -> A::Output {
    a.round_up(b)
}
