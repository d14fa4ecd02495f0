//! Refusals on mixed input must be true.
//!
//! The algorithms take a branch on a value only when it is static (the DSL's rule); with a
//! dynamic value they take the general path, which can stop on a condition that the actual
//! values do not violate: `complement((2,{1}):(4,{4}),16)` stops as "non-injective", though a
//! mode of extent 1 reaches only index 0 and `complement((2,1):(4,4),16)` is `(4,2):(1,8)`.
//!
//! So every public operation that can refuse runs through [`truthful`]: when a mixed input
//! is refused, the same values with every leaf static (the *static twin*) are tried. If the
//! twin is refused for the same kind of reason, the refusal stands; if for another, the twin's
//! reason is given (it is about the same values); if the twin goes through, the refusal
//! becomes [`Error::Undecided`], which says that the structure needs static values and which
//! input's dynamic leaves to make static. The twin is computed only on the error path.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::int_tuple::IntTuple;
use crate::layout::Layout;
use crate::print::to_values;
use crate::tiler::Tiler;

/// An operand that has a static twin.
pub(crate) trait Twin {
    /// The same values, every leaf static.
    fn twin(&self) -> Self
    where
        Self: Sized;
    /// Whether some leaf is dynamic.
    fn has_dynamic(&self) -> bool;
    /// The operand in the values notation.
    fn text(&self) -> String;
}

/// A layout and a tuple: `to_static`, `is_static`, and their values text.
macro_rules! twin_of_leaves {
    ($($t:ty),*) => {$(
        impl Twin for $t {
            fn twin(&self) -> $t {
                self.to_static()
            }
            fn has_dynamic(&self) -> bool {
                !self.is_static()
            }
            fn text(&self) -> String {
                to_values(self)
            }
        }
    )*};
}
twin_of_leaves!(Layout, IntTuple);

impl Twin for Tiler {
    fn twin(&self) -> Tiler {
        match self {
            Tiler::Layout(l) => Tiler::Layout(l.to_static()),
            Tiler::Int(n) => Tiler::Int(crate::Int::st(n.value())),
            Tiler::Under => Tiler::Under,
            Tiler::ByMode(v) => Tiler::ByMode(v.iter().map(Twin::twin).collect()),
        }
    }
    fn has_dynamic(&self) -> bool {
        match self {
            Tiler::Layout(l) => !l.is_static(),
            Tiler::Int(n) => !n.is_static(),
            Tiler::Under => false,
            Tiler::ByMode(v) => v.iter().any(Twin::has_dynamic),
        }
    }
    fn text(&self) -> String {
        to_values(self)
    }
}

impl Twin for i64 {
    fn twin(&self) -> i64 {
        *self
    }
    fn has_dynamic(&self) -> bool {
        false
    }
    fn text(&self) -> String {
        alloc::format!("{self}")
    }
}

/// Errors that are facts about the arithmetic or the text, not a condition the algorithm's
/// path decided: they stand as they are.
fn stands(e: &Error) -> bool {
    matches!(e, Error::Overflow { .. } | Error::Parse { .. } | Error::DivisionByZero { .. })
}

/// `mixed`, unless it is a refusal that the static twin (`twin`) does not share: see the
/// module documentation.
pub(crate) fn truthful<T>(
    op: &'static str,
    inputs: &[&dyn Twin],
    mixed: impl FnOnce() -> Result<T>,
    twin: impl FnOnce() -> Result<T>,
) -> Result<T> {
    // Every refusal of an all-static input stands: the answer is `mixed()`'s, returned as a
    // tail call (the callee writes it where the caller wants it; inspecting a returned layout
    // first would copy some 600 bytes on every success).
    if !inputs.iter().any(|x| x.has_dynamic()) {
        return mixed();
    }
    match mixed() {
        Err(e) if !stands(&e) => Err(verdict(op, inputs, e, twin)),
        r => r,
    }
}

/// The error for a refusal `e` of a mixed input, given its static twin (see the module
/// documentation).
fn verdict<T>(op: &'static str, inputs: &[&dyn Twin], e: Error, twin: impl FnOnce() -> Result<T>) -> Error {
    match twin() {
        Err(t) if t.kind() == e.kind() => e,
        Err(t) => t,
        Ok(_) => {
            let reason = match e {
                Error::Undecided { reason, .. } => reason,
                e => e.to_string(),
            };
            let dynamic: Vec<String> = inputs.iter().filter(|x| x.has_dynamic()).map(|x| x.text()).collect();
            Error::Undecided { op, reason, dynamic: dynamic.join(" and ") }
        }
    }
}

/// `truthful(op, [args], f(args), f(twins))` for a function whose operands all have twins.
macro_rules! truthful_call {
    ($op:literal, $f:ident($($a:ident),*)) => {
        $crate::twin::truthful(
            $op,
            &[$($a as &dyn $crate::twin::Twin),*],
            || $f($($a),*),
            || $f($(&$crate::twin::Twin::twin($a)),*),
        )
    };
}
pub(crate) use truthful_call as truthful;
