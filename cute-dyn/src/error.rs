//! The one error type of the runtime algebra.
//!
//! Each variant names a CuTe precondition; the same names (and wording) are used by the marker
//! traits of `cute-static`, so a reader meets one vocabulary in both crates.

use alloc::string::String;
use core::fmt;

/// Everything that can go wrong in `cute-dyn`. No input makes the library panic: every violated
/// precondition comes back as one of these, carrying the values involved.
// The fields are the values each Display message names.
#[allow(missing_docs)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// Shape and stride (or two operands) do not have the same nesting profile.
    NotCongruent { what: &'static str, a: String, b: String },
    /// A tuple operand had the wrong rank.
    RankMismatch { op: &'static str, expected: String, found: usize },
    /// CuTe's stride divisibility condition: `rest_stride % shape == 0 or rest_stride < shape`
    /// (composition), or `a % b == 0 or b % a == 0` (shape_div, upcast).
    StrideDivisibility { op: &'static str, stride: i64, shape: i64 },
    /// CuTe's shape divisibility condition: `rest_shape % new_shape == 0`.
    ShapeDivisibility { op: &'static str, shape: i64, divisor: i64 },
    /// Composition's right-distributivity: the modes of B together reach coordinate `reach` in
    /// mode `mode` of A, whose shape is `shape` (so `A(x + y) != A(x) + A(y)`).
    ModeOverlap { op: &'static str, mode: usize, shape: i64, reach: i64 },
    /// The layout maps two coordinates to one index where an injective layout is required;
    /// `witness` names two of them (empty where none was computed).
    NonInjective { op: &'static str, layout: String, witness: String },
    /// CuTe's complement (and the divides and products built on it) places the modes of an
    /// injective layout by increasing stride, each after the end of the previous ones; here the
    /// mode of stride `stride` starts inside the span `span` of the modes of smaller stride
    /// (`(2,2):(6,4)`: C++ says "Non-injective Layout detected", which it is not).
    Interleaved { op: &'static str, layout: String, stride: i64, span: i64 },
    /// The operation needs a static value and was given a dynamic one.
    StaticRequired { op: &'static str, what: String },
    /// Checked arithmetic overflowed `i64`.
    Overflow { op: &'static str },
    /// Division (or modulo) by zero.
    DivisionByZero { op: &'static str },
    /// An index into a tuple past its rank.
    IndexOutOfRange { op: &'static str, index: i64, rank: usize },
    /// A value outside the domain an operation accepts (negative shape, bad swizzle, ...).
    InvalidArgument { op: &'static str, reason: String },
    /// Malformed text, at byte `pos` of the input.
    Parse { pos: usize, reason: String },
    /// CuTe's algorithm would return a layout that breaks the operation's own documented
    /// `@post` condition (CuTe C++ returns it silently); `witness` says why for this input.
    Postcondition { op: &'static str, condition: &'static str, witness: String },
    /// A mixed input refused on its run-time values, where the all-static twin (same values,
    /// every leaf static) is not refused for this reason: the structure of the answer cannot
    /// be chosen without static values for the named dynamic leaves.
    Undecided { op: &'static str, reason: String, dynamic: String },
}

impl Error {
    /// Whether this error says that a composition (or a divide or product built on one) is
    /// not admissible: stride or shape divisibility, or overlapping modes.
    pub fn is_admissibility(&self) -> bool {
        matches!(self, Error::StrideDivisibility { .. } | Error::ShapeDivisibility { .. } | Error::ModeOverlap { .. })
    }

    /// A stable name for the kind of error (the condition violated), for scripts and tests.
    pub fn kind(&self) -> &'static str {
        match self {
            Error::NotCongruent { .. } => "not_congruent",
            Error::RankMismatch { .. } => "rank_mismatch",
            Error::StrideDivisibility { .. } => "stride_divisibility",
            Error::ShapeDivisibility { .. } => "shape_divisibility",
            Error::ModeOverlap { .. } => "mode_overlap",
            Error::NonInjective { .. } => "non_injective",
            Error::Interleaved { .. } => "interleaved",
            Error::StaticRequired { .. } => "static_required",
            Error::Overflow { .. } => "overflow",
            Error::DivisionByZero { .. } => "division_by_zero",
            Error::IndexOutOfRange { .. } => "index_out_of_range",
            Error::InvalidArgument { .. } => "invalid_argument",
            Error::Parse { .. } => "parse",
            Error::Postcondition { .. } => "postcondition",
            Error::Undecided { .. } => "undecided",
        }
    }
}

/// Result alias of the crate.
pub type Result<T> = core::result::Result<T, Error>;

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::NotCongruent { what, a, b } => {
                write!(f, "not congruent: {what} {a} and {b} have different profiles")
            }
            Error::RankMismatch { op, expected, found } => {
                write!(f, "rank mismatch in {op}: expected {expected}, found rank {found}")
            }
            Error::StrideDivisibility { op, stride, shape } => write!(
                f,
                "stride divisibility condition violated in {op}: stride {stride} vs shape {shape} (neither divides the other)"
            ),
            Error::ShapeDivisibility { op, shape, divisor } => write!(
                f,
                "shape divisibility condition violated in {op}: shape {shape} is not divisible by {divisor}"
            ),
            Error::ModeOverlap { op, mode, shape, reach } => write!(
                f,
                "modes overlap in {op}: the right operand reaches coordinate {reach} of mode {mode} of the left, whose shape is {shape}"
            ),
            Error::NonInjective { op, layout, witness } => {
                write!(f, "non-injective layout in {op}: {layout} maps two coordinates to one index")?;
                if !witness.is_empty() {
                    write!(f, " ({witness})")?;
                }
                Ok(())
            }
            Error::Interleaved { op, layout, stride, span } => write!(
                f,
                "modes interleave in {op}: {layout} is injective, but sorted by stride its mode of stride {stride} starts inside the span {span} of the modes of smaller stride; {op} needs each mode to start at or after the end of the previous ones"
            ),
            Error::StaticRequired { op, what } => {
                write!(f, "static value required in {op}: {what} is dynamic")
            }
            Error::Overflow { op } => write!(f, "arithmetic overflow in {op}"),
            Error::DivisionByZero { op } => write!(f, "division by zero in {op}"),
            Error::IndexOutOfRange { op, index, rank } => {
                write!(f, "index out of range in {op}: index {index} for rank {rank}")
            }
            Error::InvalidArgument { op, reason } => write!(f, "invalid argument to {op}: {reason}"),
            Error::Parse { pos, reason } => write!(f, "parse error at byte {pos}: {reason}"),
            Error::Postcondition { op, condition, witness } => {
                write!(f, "{op} would break its postcondition ({condition}): {witness}")
            }
            Error::Undecided { op, reason, dynamic } => write!(
                f,
                "{op} needs static values here: on the path dynamic values take it stopped with \"{reason}\", which the same values all static do not meet; make the dynamic leaves of {dynamic} static"
            ),
        }
    }
}

impl core::error::Error for Error {}
