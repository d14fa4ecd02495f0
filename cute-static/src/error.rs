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
    /// A stride that neither divides nor is a multiple of what the operation needs (cute-dyn's
    /// `StrideDivisibility`), e.g. `upcast<N>` of a run-time stride `N` does not divide, or a
    /// right operand's stride against a mode of the left one in composition.
    StrideDivisibility {
        /// The operation.
        op: &'static str,
        /// The stride.
        stride: usize,
        /// The factor (`upcast`) or the mode's extent (composition).
        factor: usize,
    },
    /// CuTe's shape divisibility condition in composition (cute-dyn's `ShapeDivisibility`): the
    /// rest of the right operand's extent is not divisible by the part a mode takes.
    ShapeDivisibility {
        /// The operation.
        op: &'static str,
        /// The rest of the extent.
        shape: usize,
        /// The part.
        divisor: usize,
    },
    /// Composition's right-distributivity (cute-dyn's `ModeOverlap`): the right operand's modes
    /// together reach coordinate `reach` of a mode of the left one whose extent is `shape`.
    ModeOverlap {
        /// The operation.
        op: &'static str,
        /// The mode's extent (of its chain of modes).
        shape: usize,
        /// The coordinate reached.
        reach: usize,
    },
    /// A mode starts inside the span of the modes of smaller stride where the operation places
    /// them one after another (complement): they overlap (cute-dyn's `NonInjective`, the
    /// layout maps two coordinates to one index) or interleave (cute-dyn's `Interleaved`, an
    /// injective layout such as `(2,2):(6,4)`); cute-dyn, which enumerates, tells which.
    NonInjective {
        /// The operation.
        op: &'static str,
    },
    /// The answer's structure depends on a run-time value (cute-dyn's `Undecided`): with the
    /// same values static the operation goes through, with a different structure than a
    /// run-time value allows, e.g. `upcast<4>` of a run-time stride 2 (static, 2 divides 4 and
    /// the mode's extent shrinks instead). Also where the result's type follows a choice
    /// assumed of the run-time values (the order of run-time strides in complement and the
    /// inverses, a comparison in `right_inverse`) and the values make another: cute-dyn, which
    /// decides on the values, then answers with another structure or refuses. The operations
    /// whose answer is a [`Decided`](crate::Decided) give cute-dyn's structure there instead;
    /// this error remains where cute-dyn is undecided too, without the `dyn` feature, and
    /// from [`Checked::checked`](crate::Checked::checked) of a run-time structure.
    Undecided {
        /// The operation.
        op: &'static str,
    },
}

impl Error {
    /// Whether composition's admissibility refused (stride or shape divisibility, overlapping
    /// modes): the conditions on which cute-dyn retries with the left operand coalesced by its
    /// values.
    pub fn is_admissibility(&self) -> bool {
        matches!(self, Error::StrideDivisibility { .. } | Error::ShapeDivisibility { .. } | Error::ModeOverlap { .. })
    }

    /// The stable name of the error's kind, the same as `cute_dyn::Error::kind`'s.
    pub fn kind(&self) -> &'static str {
        match self {
            Error::Postcondition { .. } => "postcondition",
            Error::Overflow { .. } => "overflow",
            Error::DivisionByZero { .. } => "division_by_zero",
            Error::StrideDivisibility { .. } => "stride_divisibility",
            Error::ShapeDivisibility { .. } => "shape_divisibility",
            Error::ModeOverlap { .. } => "mode_overlap",
            Error::NonInjective { .. } => "non_injective",
            Error::Undecided { .. } => "undecided",
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Postcondition { op, condition } => write!(f, "{op} would break its postcondition {condition}"),
            Error::Overflow { op } => write!(f, "overflow in {op}"),
            Error::DivisionByZero { op } => write!(f, "division by zero in {op}"),
            Error::StrideDivisibility { op, stride, factor } => {
                write!(f, "stride divisibility condition violated in {op}: stride {stride} vs {factor}")
            }
            Error::ShapeDivisibility { op, shape, divisor } => {
                write!(f, "shape divisibility condition violated in {op}: shape {shape} is not divisible by {divisor}")
            }
            Error::ModeOverlap { op, shape, reach } => write!(
                f,
                "modes overlap in {op}: the right operand's modes reach coordinate {reach} of a mode of shape {shape}"
            ),
            Error::NonInjective { op } => write!(
                f,
                "overlapping or interleaved modes in {op}: a mode starts inside the span of the modes of smaller stride"
            ),
            Error::Undecided { op } => {
                write!(f, "{op} needs static values here: a run-time value decides the result's structure")
            }
        }
    }
}

/// An error of cute-static is a `core::error::Error`, so that `?` takes it into a
/// `Box<dyn Error>` or any error type with a `From` for it.
impl core::error::Error for Error {}

/// cute-static's error as cute-dyn's, so that a function returning `cute_dyn::Result` takes
/// both crates' errors with `?`: the same kind, the same numbers (the @post's witness and the
/// mode of an overlap are not known here, and are said so).
#[cfg(feature = "dyn")]
impl From<Error> for cute_dyn::Error {
    fn from(e: Error) -> cute_dyn::Error {
        use alloc::string::ToString;
        let wide = |x: usize| i64::try_from(x).unwrap_or(i64::MAX);
        match e {
            Error::Postcondition { op, condition } => {
                cute_dyn::Error::Postcondition { op, condition, witness: "checked by cute-static".to_string() }
            }
            Error::Overflow { op } => cute_dyn::Error::Overflow { op },
            Error::DivisionByZero { op } => cute_dyn::Error::DivisionByZero { op },
            Error::StrideDivisibility { op, stride, factor } => {
                cute_dyn::Error::StrideDivisibility { op, stride: wide(stride), shape: wide(factor) }
            }
            Error::ShapeDivisibility { op, shape, divisor } => {
                cute_dyn::Error::ShapeDivisibility { op, shape: wide(shape), divisor: wide(divisor) }
            }
            // The mode's position is not carried by cute-static's error: the text says all it has.
            Error::ModeOverlap { op, .. } => cute_dyn::Error::InvalidArgument { op, reason: e.to_string() },
            Error::NonInjective { op } => cute_dyn::Error::NonInjective {
                op,
                layout: "(computed by cute-static)".to_string(),
                witness: "".to_string(),
            },
            Error::Undecided { op } => cute_dyn::Error::Undecided {
                op,
                reason: "a run-time value decides the result's structure".to_string(),
                dynamic: "(computed by cute-static)".to_string(),
            },
        }
    }
}
