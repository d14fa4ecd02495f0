//! Integers that are static (known when the layout is written, CuTe C++'s `Int<N>`) or dynamic
//! (known only at run time, C++'s `int`; the CuTe DSL prints them `?` or `?{div=N}`).
//!
//! The rule of the whole crate is *static when provable, per value*: a result is static only
//! when it is computed from static values, and every branch of an algorithm that depends on a
//! value is taken only when that value is static. A dynamic value still carries its run-time
//! value (so every precondition can be checked) and what is known about its divisibility.

use crate::error::{Error, Result};

/// An integer leaf: a value, whether it is static, and (for a dynamic one) a known divisor.
///
/// Equality compares all three: `8` and `{8}` are different leaves. The default is the static 0.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Int {
    value: i64,
    /// 0 for a static value (its divisor is the value itself); >= 1 for a dynamic one.
    div: u64,
}

impl Int {
    /// A static integer (`Int<v>` in CuTe C++).
    #[inline]
    pub const fn st(value: i64) -> Int {
        Int { value, div: 0 }
    }

    /// A dynamic integer with nothing known about its divisibility (`?` in the DSL).
    #[inline]
    pub const fn dy(value: i64) -> Int {
        Int { value, div: 1 }
    }

    /// A dynamic integer known to be a multiple of `div` (`?{div=N}` in the DSL).
    ///
    /// # Errors
    /// `InvalidArgument` when `div` is 0, past 2^63 (only 0 has such divisors, and the DSL
    /// notation could not carry it) or does not divide `value`.
    #[inline]
    pub fn dy_div(value: i64, div: u64) -> Result<Int> {
        if div == 0 || div > 1 << 63 || !value.unsigned_abs().is_multiple_of(div) {
            return Err(Error::InvalidArgument {
                op: "dynamic integer",
                reason: alloc::format!("divisor {div} does not divide {value} (or is past 2^63)"),
            });
        }
        Ok(Int { value, div })
    }

    /// The run-time value.
    #[inline]
    pub const fn value(self) -> i64 {
        self.value
    }

    /// Whether the value is static.
    #[inline]
    pub const fn is_static(self) -> bool {
        self.div == 0
    }

    /// The largest known divisor: the value itself (absolute) when static.
    #[inline]
    pub const fn divisor(self) -> u64 {
        if self.div == 0 {
            self.value.unsigned_abs()
        } else {
            self.div
        }
    }

    /// `is_constant<v, T>` of CuTe: static and equal to `v`.
    #[inline]
    pub const fn is_const(self, v: i64) -> bool {
        self.div == 0 && self.value == v
    }

    /// The same value, made dynamic (keeping what is known of its divisibility).
    #[inline]
    pub fn to_dynamic(self) -> Int {
        if self.is_static() {
            Int { value: self.value, div: self.value.unsigned_abs().max(1) }
        } else {
            self
        }
    }

    /// Combine two operands into a result value. One row per operation below says how the
    /// static flag and the divisor of the result follow from those of the operands.
    #[inline]
    fn both(a: Int, b: Int, value: i64, div: impl FnOnce() -> u64) -> Int {
        if a.is_static() && b.is_static() {
            Int::st(value)
        } else {
            Int { value, div: fit_divisor(div()) }
        }
    }

    /// `a * b`. Static×static is static; `_0`×anything is `_0` (CuTe's mixed special case);
    /// otherwise dynamic, with divisor div(a)·div(b).
    #[inline]
    pub fn checked_mul(self, b: Int) -> Result<Int> {
        let value = self.value.checked_mul(b.value).ok_or_else(|| Error::Overflow { op: "multiply" })?;
        // Static operands first: the special case below gives them the same (static) answer.
        if self.is_static() && b.is_static() {
            return Ok(Int::st(value));
        }
        if self.is_const(0) || b.is_const(0) {
            return Ok(Int::st(0));
        }
        Ok(Int::both(self, b, value, || self.divisor().checked_mul(b.divisor()).unwrap_or(1)))
    }

    /// `a + b`: dynamic divisor gcd(div(a), div(b)).
    #[inline]
    pub fn checked_add(self, b: Int) -> Result<Int> {
        let value = self.value.checked_add(b.value).ok_or_else(|| Error::Overflow { op: "add" })?;
        Ok(Int::both(self, b, value, || gcd(self.divisor(), b.divisor())))
    }

    /// `a - b`: dynamic divisor gcd(div(a), div(b)).
    #[inline]
    pub fn checked_sub(self, b: Int) -> Result<Int> {
        let value = self.value.checked_sub(b.value).ok_or_else(|| Error::Overflow { op: "subtract" })?;
        Ok(Int::both(self, b, value, || gcd(self.divisor(), b.divisor())))
    }

    /// `a / b`, truncating like C++. `_0 / x` is `_0`; a dynamic quotient keeps div(a)/|b| when
    /// a static `b` divides div(a).
    #[inline]
    pub fn checked_div(self, b: Int) -> Result<Int> {
        if b.value == 0 {
            return Err(Error::DivisionByZero { op: "divide" });
        }
        let value = self.value.checked_div(b.value).ok_or_else(|| Error::Overflow { op: "divide" })?;
        if self.is_static() && b.is_static() {
            return Ok(Int::st(value));
        }
        if self.is_const(0) {
            return Ok(Int::st(0));
        }
        Ok(Int::both(self, b, value, || quotient_divisor(self, b)))
    }

    /// `a % b`, truncating like C++. `x % _1` and `_0 % x` are `_0`.
    #[inline]
    pub fn checked_rem(self, b: Int) -> Result<Int> {
        if b.value == 0 {
            return Err(Error::DivisionByZero { op: "modulo" });
        }
        let value = self.value.checked_rem(b.value).ok_or_else(|| Error::Overflow { op: "modulo" })?;
        if self.is_static() && b.is_static() {
            return Ok(Int::st(value));
        }
        if self.is_const(0) || b.is_const(1) || b.is_const(-1) {
            return Ok(Int::st(0));
        }
        Ok(Int::both(self, b, value, || gcd(self.divisor(), b.divisor())))
    }

    /// `ceil(a / b)` for positive `b`: C++'s `(a + b - 1) / b` for `a >= 0`, and the truncated
    /// quotient (which is the ceiling) for `a < 0`; exact (keeping div(a)/b) when a static `b`
    /// divides div(a).
    ///
    /// # Errors
    /// `DivisionByZero`; `InvalidArgument` for a negative `b` (C++'s formula is then not a
    /// ceiling: `ceil_div(16, -2)` would be -6).
    #[inline]
    pub fn ceil_div(self, b: Int) -> Result<Int> {
        if b.value == 0 {
            return Err(Error::DivisionByZero { op: "ceil_div" });
        }
        if b.value < 0 {
            return Err(Error::InvalidArgument {
                op: "ceil_div",
                reason: alloc::format!("the divisor {} is negative", b.value),
            });
        }
        let value = if self.value < 0 {
            self.value / b.value
        } else {
            // C++'s a + b - 1 can overflow; this cannot.
            self.value / b.value + i64::from(self.value % b.value != 0)
        };
        // A static b that divides what is known to divide a makes the division exact.
        Ok(Int::both(self, b, value, || quotient_divisor(self, b)))
    }

    /// `min(a, b)`: dynamic divisor gcd(div(a), div(b)) (the result is one of the two).
    #[inline]
    pub fn min(self, b: Int) -> Int {
        Int::both(self, b, self.value.min(b.value), || gcd(self.divisor(), b.divisor()))
    }

    /// `max(a, b)`: dynamic divisor gcd(div(a), div(b)).
    #[inline]
    pub fn max(self, b: Int) -> Int {
        Int::both(self, b, self.value.max(b.value), || gcd(self.divisor(), b.divisor()))
    }

    /// `|a|`, same static flag and divisor.
    #[inline]
    pub fn abs(self) -> Result<Int> {
        let value = self.value.checked_abs().ok_or_else(|| Error::Overflow { op: "abs" })?;
        Ok(Int { value, div: self.div })
    }

    /// `signum(a)`: static only when `a` is.
    #[inline]
    pub fn signum(self) -> Int {
        if self.is_static() {
            Int::st(self.value.signum())
        } else {
            Int::dy(self.value.signum())
        }
    }
}

/// A divisor as the notation can carry it: at least 1 and at most 2^63 (a divisor of a
/// non-zero `i64` is at most 2^63 anyway; a product of divisors of 0 can pass it, and is then
/// forgotten rather than printed as a `?{div=N}` that does not read back).
#[inline]
fn fit_divisor(d: u64) -> u64 {
    if d == 0 || d > 1 << 63 {
        1
    } else {
        d
    }
}

/// What is known to divide `a / b`: div(a)/b when a static `b` divides div(a), else 1.
fn quotient_divisor(a: Int, b: Int) -> u64 {
    let (da, db) = (a.divisor(), b.divisor());
    if b.is_static() && db != 0 && da % db == 0 {
        da / db
    } else {
        1
    }
}

/// Greatest common divisor, gcd(0, x) = x.
pub fn gcd(mut a: u64, mut b: u64) -> u64 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

impl From<i64> for Int {
    fn from(v: i64) -> Int {
        Int::st(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dsl_divisor_rows() {
        // composition((6,2):({8},2), (4,3):(3,1)) multiplies the dynamic 8 by a static 3: ?{div=3}
        let p = Int::st(3).checked_mul(Int::dy(8)).unwrap();
        assert_eq!((p.value(), p.is_static(), p.divisor()), (24, false, 3));
        assert_eq!(Int::st(0).checked_mul(Int::dy(8)).unwrap(), Int::st(0));
        assert_eq!(Int::st(6).checked_mul(Int::st(4)).unwrap(), Int::st(24));
        assert_eq!(Int::dy_div(24, 8).unwrap().checked_div(Int::st(4)).unwrap().divisor(), 2);
        assert!(Int::st(i64::MAX).checked_mul(Int::st(2)).is_err());
        assert!(Int::dy_div(10, 4).is_err());
    }
}
