//! Static arithmetic for the type-level algorithms: one helper trait per operation, so impl
//! headers name one projection each (typenum's operators, with the bounds they need inside;
//! division is a long division of our own, [`DivRem`]).

use core::ops::{Add, BitAnd, BitOr, Mul, Sub};

use typenum::{Bit, IsEqual, IsLess, IsLessOrEqual, Max, Min, UInt, Unsigned, B1, U1};

/// The operations read off a [`Divisor`]: `$name<B>`, implemented by `A`, is the divisor's
/// `$assoc`.
macro_rules! by_divisor {
    ($(#[$doc:meta] $name:ident, $assoc:ident, $bound:path);* $(;)?) => {$(
        #[$doc]
        pub trait $name<B> {
            /// The result.
            type Output: $bound;
        }
        impl<A: StaticValue, B: StaticValue + Divisor<A>> $name<B> for A
        where
            B::$assoc: $bound,
        {
            type Output = B::$assoc;
        }
    )*};
}

by_divisor!(
    /// `ceil(A / B)` as C++ computes it, `(A + B - 1) / B`.
    CeilDiv, Ceil, Value;
    /// `A / B`.
    DivT, Quot, Value;
    /// `A % B == 0`: `B1` when `B` divides `A`.
    Divides, Divides, Bit;
);

/// A static divisor `B` of `A` (implemented by `B`): the quotient, its ceiling and whether `B`
/// divides `A`, all from one [`DivRem`]. typenum's own `Div` and `Rem` walk bit indices and
/// cost rustc about twice the instructions; the algorithms divide a lot (composition, up to
/// six divisions per mode), and by 1 often (then no division at all).
#[diagnostic::on_unimplemented(
    message = "division by a static 0",
    label = "a static 0 is not a divisor",
    note = "the layout algebra divides by extents and strides; a 0 one here has no quotient"
)]
pub trait Divisor<A> {
    /// `A / B`.
    type Quot;
    /// `ceil(A / B)`.
    type Ceil;
    /// `B1` when `A % B == 0`.
    type Divides;
}
impl<A> Divisor<A> for U1 {
    type Quot = A;
    type Ceil = A;
    type Divides = B1;
}
impl<A, U: Unsigned, X: Bit, Y: Bit> Divisor<A> for UInt<UInt<U, X>, Y>
where
    A: DivRem<Self>,
    <A as DivRem<Self>>::R: NonZeroBit,
    <A as DivRem<Self>>::Q: Bump<<<A as DivRem<Self>>::R as NonZeroBit>::Output>,
{
    type Quot = <A as DivRem<Self>>::Q;
    type Ceil = <<A as DivRem<Self>>::Q as Bump<<<A as DivRem<Self>>::R as NonZeroBit>::Output>>::Output;
    type Divides = <<<A as DivRem<Self>>::R as NonZeroBit>::Output as core::ops::Not>::Output;
}

/// `(A / D, A % D)` for `D >= 1`, by long division from the most significant bit of `A`
/// (implemented by `A`): each bit of `A` is shifted into the remainder, which is compared with
/// `D` once and reduced by it when not less.
pub trait DivRem<D> {
    /// The quotient.
    type Q;
    /// The remainder.
    type R;
}
impl<D> DivRem<D> for typenum::UTerm {
    type Q = typenum::UTerm;
    type R = typenum::UTerm;
}
impl<U: DivRem<D>, B, D> DivRem<D> for UInt<U, B>
where
    U::R: PushBit<B>,
    <U::R as PushBit<B>>::Output: typenum::Cmp<D>,
    <<U::R as PushBit<B>>::Output as typenum::Cmp<D>>::Output: DivStep<<U::R as PushBit<B>>::Output, D, U::Q>,
{
    type Q = <<<U::R as PushBit<B>>::Output as typenum::Cmp<D>>::Output as DivStep<
        <U::R as PushBit<B>>::Output,
        D,
        U::Q,
    >>::Q;
    type R = <<<U::R as PushBit<B>>::Output as typenum::Cmp<D>>::Output as DivStep<
        <U::R as PushBit<B>>::Output,
        D,
        U::Q,
    >>::R;
}

/// `2x + b`, as a typenum number (no leading zero: `2 * 0 + 0` is `UTerm`).
pub trait PushBit<B> {
    /// The number.
    type Output;
}
impl PushBit<typenum::B0> for typenum::UTerm {
    type Output = typenum::UTerm;
}
impl PushBit<B1> for typenum::UTerm {
    type Output = U1;
}
impl<U, X, B> PushBit<B> for UInt<U, X> {
    type Output = UInt<UInt<U, X>, B>;
}

/// One bit of [`DivRem`], chosen by the comparison of the remainder `R` with `D`: a quotient
/// bit and the new remainder.
pub trait DivStep<R, D, Q> {
    /// The quotient so far.
    type Q;
    /// The remainder.
    type R;
}
impl<R, D, Q: PushBit<typenum::B0>> DivStep<R, D, Q> for typenum::Less {
    type Q = <Q as PushBit<typenum::B0>>::Output;
    type R = R;
}
impl<R, D, Q: PushBit<B1>> DivStep<R, D, Q> for typenum::Equal {
    type Q = <Q as PushBit<B1>>::Output;
    type R = typenum::UTerm;
}
impl<R: Sub<D>, D, Q: PushBit<B1>> DivStep<R, D, Q> for typenum::Greater {
    type Q = <Q as PushBit<B1>>::Output;
    type R = <R as Sub<D>>::Output;
}

/// `B1` for a non-zero number.
pub trait NonZeroBit {
    /// The bit.
    type Output: Bit + core::ops::Not;
}
impl NonZeroBit for typenum::UTerm {
    type Output = typenum::B0;
}
impl<U, X> NonZeroBit for UInt<U, X> {
    type Output = B1;
}

/// `Q + b` for a bit `b` (a ceiling from a quotient and whether a remainder is left).
pub trait Bump<B> {
    /// The sum.
    type Output;
}
impl<Q> Bump<typenum::B0> for Q {
    type Output = Q;
}
impl<Q: Add<B1>> Bump<B1> for Q {
    type Output = <Q as Add<B1>>::Output;
}

/// A static value: the type-level algorithms decide a result's structure from static values
/// only, so a run-time `usize` reaching one of them is a compile error in these words.
#[diagnostic::on_unimplemented(
    message = "static value required: this operation decides its result's structure at compile time, and `{Self}` is a run-time value",
    label = "a layout with a run-time ({{expr}}) leaf",
    note = "use the cute-dyn operation on `.to_dyn()` for run-time values"
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
    /// The product, a run-time one wrapping (the address arithmetic of a pointer tensor, as
    /// C++'s).
    fn wrapping_mul(self, b: B) -> Self::Output;
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
                #[inline(always)]
                fn wrapping_mul(self, _: $b) -> Self::Output {
                    Default::default()
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
                #[inline(always)]
                fn wrapping_mul(self, b: $d) -> usize {
                    use crate::int_tuple::Leaf;
                    self.value().wrapping_mul(b.value())
                }
            }
        )*
    };
}
use typenum::UTerm;
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
            #[inline(always)]
            fn wrapping_mul(self, _: $b) -> UTerm {
                UTerm
            }
        }
    )*};
}
mul_static_zero!(UTerm, usize; usize, UTerm);

use crate::int_tuple::{Cons, IntTuple, Leaf, List, Nil};

/// `A / B` (truncating) and `ceil(A / B)` over static and run-time values, as cute-dyn's `Int`:
/// static where both are (the type checker's quotient; a static 0 divisor is a compile error),
/// a run-time `usize` otherwise, and `_0 / x` is `_0`.
pub trait DivMixed<B>: Copy {
    /// The quotient's type.
    type Quot: Copy;
    /// The ceiling's type.
    type Ceil: Copy;
    /// `A / B`.
    ///
    /// # Errors
    /// `DivisionByZero` for a run-time divisor of 0.
    fn checked_div(self, b: B) -> Result<Self::Quot, crate::error::Error>;
    /// `ceil(A / B)`.
    ///
    /// # Errors
    /// `DivisionByZero` for a run-time divisor of 0.
    fn checked_ceil_div(self, b: B) -> Result<Self::Ceil, crate::error::Error>;
}

macro_rules! div_mixed {
    (static: $([$($g:ident: $bd:path),*] $a:ty, $b:ty);*; dynamic: $([$($h:ident: $hb:path),*] $c:ty, $d:ty => $q:ty);* $(;)?) => {
        $(
            impl<$($g: $bd),*> DivMixed<$b> for $a
            where
                $a: DivT<$b> + CeilDiv<$b>,
            {
                type Quot = <$a as DivT<$b>>::Output;
                type Ceil = <$a as CeilDiv<$b>>::Output;
                #[inline(always)]
                fn checked_div(self, _: $b) -> Result<Self::Quot, crate::error::Error> {
                    Ok(Default::default())
                }
                #[inline(always)]
                fn checked_ceil_div(self, _: $b) -> Result<Self::Ceil, crate::error::Error> {
                    Ok(Default::default())
                }
            }
        )*
        $(
            impl<$($h: $hb),*> DivMixed<$d> for $c {
                type Quot = $q;
                type Ceil = usize;
                #[inline(always)]
                fn checked_div(self, b: $d) -> Result<$q, crate::error::Error> {
                    let q = self.value().checked_div(b.value()).ok_or(crate::error::Error::DivisionByZero { op: "divide" })?;
                    Ok(<$q as FromQuotient>::from_quotient(q))
                }
                #[inline(always)]
                fn checked_ceil_div(self, b: $d) -> Result<usize, crate::error::Error> {
                    let (a, b) = (self.value(), b.value());
                    if b == 0 {
                        return Err(crate::error::Error::DivisionByZero { op: "ceil_div" });
                    }
                    Ok(a.div_ceil(b))
                }
            }
        )*
    };
}

/// `min(A, B)` over static and run-time values, as cute-dyn's `Int::min`: static where both
/// are, a run-time `usize` otherwise.
pub trait MinMixed<B>: Copy {
    /// The minimum's type.
    type Output: Copy;
    /// The minimum.
    fn min(self, b: B) -> Self::Output;
}

/// `A + B` over static and run-time values, as cute-dyn's `Int::checked_add`: static where both
/// are, a run-time `usize` otherwise.
pub trait AddMixed<B>: Copy {
    /// The sum's type.
    type Output: Copy;
    /// The sum, `None` when a run-time sum overflows `usize`.
    fn checked_add(self, b: B) -> Option<Self::Output>;
}

/// The impls of a mixed operation `$tr::$method` whose static result is `$st`'s and whose
/// run-time one is `$dynamic` of the two values, returned through `$wrap` (`Some` for a
/// checked operation).
macro_rules! mixed_binary {
    ($tr:ident::$method:ident -> $ret:ty, $st:ident, $wrap:path, |$x:ident, $y:ident| $dynamic:expr) => {
        mixed_binary!(@impls $tr, $method, $ret, $st, $wrap, |$x, $y| $dynamic;
            static:
            [] UTerm, UTerm;
            [U: Unsigned, B: Bit] UTerm, UInt<U, B>;
            [U: Unsigned, B: Bit] UInt<U, B>, UTerm;
            [U: Unsigned, B: Bit, V: Unsigned, C: Bit] UInt<U, B>, UInt<V, C>;
            dynamic:
            [] UTerm, usize;
            [U: Unsigned, B: Bit] UInt<U, B>, usize;
            [] usize, UTerm;
            [U: Unsigned, B: Bit] usize, UInt<U, B>;
            [] usize, usize;
        );
    };
    (@impls $tr:ident, $method:ident, $ret:ty, $st:ident, $wrap:path, |$x:ident, $y:ident| $dynamic:expr;
     static: $([$($g:ident: $bd:path),*] $a:ty, $b:ty);*; dynamic: $([$($h:ident: $hb:path),*] $c:ty, $d:ty);* $(;)?) => {
        $(
            impl<$($g: $bd),*> $tr<$b> for $a
            where
                $a: $st<$b>,
            {
                type Output = <$a as $st<$b>>::Output;
                #[inline(always)]
                fn $method(self, _: $b) -> $ret {
                    $wrap(Default::default())
                }
            }
        )*
        $(
            impl<$($h: $hb),*> $tr<$d> for $c {
                type Output = usize;
                #[inline(always)]
                fn $method(self, b: $d) -> $ret {
                    let ($x, $y) = (self.value(), b.value());
                    $dynamic
                }
            }
        )*
    };
}
mixed_binary!(MinMixed::min -> Self::Output, MinT, core::convert::identity, |a, b| Ord::min(a, b));
mixed_binary!(AddMixed::checked_add -> Option<Self::Output>, AddT, Some, |a, b| a.checked_add(b));

/// The quotient's value in its type: a `usize`, or the static 0 (`_0 / x`).
trait FromQuotient {
    fn from_quotient(q: usize) -> Self;
}
impl FromQuotient for usize {
    #[inline(always)]
    fn from_quotient(q: usize) -> usize {
        q
    }
}
impl FromQuotient for typenum::UTerm {
    #[inline(always)]
    fn from_quotient(_: usize) -> typenum::UTerm {
        typenum::UTerm
    }
}

div_mixed!(
    // (a static 0 divisor has no impl: the division is a compile error)
    static:
    [U: Unsigned, B: Bit] UTerm, UInt<U, B>;
    [U: Unsigned, B: Bit, V: Unsigned, C: Bit] UInt<U, B>, UInt<V, C>;
    dynamic:
    [] UTerm, usize => UTerm;
    [U: Unsigned, B: Bit] UInt<U, B>, usize => usize;
    [] usize, UTerm => usize;
    [U: Unsigned, B: Bit] usize, UInt<U, B> => usize;
    [] usize, usize => usize;
);

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

#[cfg(test)]
mod tests {
    use super::*;
    use typenum::consts::*;

    /// The division traits against Rust's own integer division, for `A` by `D`.
    fn check<A, D>(a: usize, d: usize)
    where
        A: DivT<D> + CeilDiv<D> + Divides<D>,
    {
        assert_eq!(<<A as DivT<D>>::Output as Unsigned>::USIZE, a / d, "{a} / {d}");
        assert_eq!(<<A as CeilDiv<D>>::Output as Unsigned>::USIZE, a.div_ceil(d), "ceil({a} / {d})");
        assert_eq!(<<A as Divides<D>>::Output as Bit>::BOOL, a.is_multiple_of(d), "{d} divides {a}");
    }

    macro_rules! row {
        ($a:ident = $av:literal) => {
            row!(@ $a $av; U1 1, U2 2, U3 3, U4 4, U5 5, U6 6, U7 7, U8 8, U12 12, U16 16, U17 17, U64 64);
        };
        (@ $a:ident $av:literal; $($d:ident $dv:literal),*) => {
            $(check::<$a, $d>($av, $dv);)*
        };
    }

    #[test]
    fn division_agrees_with_integer_division() {
        // Quotients of 0, 1 and more, remainders of 0 and more, numerators below, at and past
        // the divisor, and divisors of 1 (no division) and of several bits.
        row!(U0 = 0);
        row!(U1 = 1);
        row!(U2 = 2);
        row!(U3 = 3);
        row!(U5 = 5);
        row!(U6 = 6);
        row!(U7 = 7);
        row!(U8 = 8);
        row!(U13 = 13);
        row!(U16 = 16);
        row!(U17 = 17);
        row!(U24 = 24);
        row!(U63 = 63);
        row!(U64 = 64);
        row!(U100 = 100);
        row!(U255 = 255);
        row!(U1000 = 1000);
        row!(U1024 = 1024);
    }
}
