//! Why an operation on run-time values refused: the conditions cute-dyn checks, checked when
//! the values are known (static values are checked by the type checker instead). No
//! allocation, so that kernel code can match on it.

use core::fmt;

/// A condition on run-time values that does not hold.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Error {
    /// An operation's documented @post condition would break (cute-dyn's `Postcondition`).
    Postcondition {
        /// The operation.
        op: &'static str,
        /// The condition, in CuTe's words.
        condition: &'static str,
    },
    /// A value does not fit in `usize` (cute-dyn's `Overflow`).
    Overflow {
        /// The operation.
        op: &'static str,
    },
    /// A division by zero (cute-dyn's `DivisionByZero`), e.g. the rest of a tile of size 0.
    DivisionByZero {
        /// The operation.
        op: &'static str,
    },
}

impl Error {
    /// The stable name of the error's kind, the same as `cute_dyn::Error::kind`'s.
    pub fn kind(&self) -> &'static str {
        match self {
            Error::Postcondition { .. } => "postcondition",
            Error::Overflow { .. } => "overflow",
            Error::DivisionByZero { .. } => "division_by_zero",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Postcondition { op, condition } => write!(f, "{op} would break its postcondition {condition}"),
            Error::Overflow { op } => write!(f, "overflow in {op}"),
            Error::DivisionByZero { op } => write!(f, "division by zero in {op}"),
        }
    }
}
