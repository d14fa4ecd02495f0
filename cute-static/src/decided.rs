//! Answers whose structure the run-time values decide.
//!
//! A layout type fixes a structure: its rank, its nesting, which leaves are static. On layouts
//! with run-time leaves, complement and the inverses sort and compare values (cute-dyn's
//! rule, DESIGN §3: "the runtime crate can do better: it knows the values"), so for some
//! values the answer has another structure than any one type can hold: `right_inverse` of a
//! padded tile `(4,{n}):({ld},1)` is `(n,4):(4,1)` where `ld == n` and `n:4` otherwise.
//!
//! Those operations answer with a [`Decided`]: the typed layout where the values keep the
//! structure the types assumed, else cute-dyn's layout, whose structure is a value. Without
//! the `dyn` feature (no allocator: kernel code) there is no run-time structure to answer
//! with, and such values are refused as [`Error::Undecided`].

use core::fmt;

use crate::error::Error;

/// A layout whose structure is a run-time value: cute-dyn's layout with the `dyn` feature
/// (boxed: the typed answer, the common one, stays as small as its layout); without it, a
/// type with no values (there is no such answer without an allocator).
#[cfg(feature = "dyn")]
pub type RunTimeLayout = alloc::boxed::Box<cute_dyn::Layout>;
/// A layout whose structure is a run-time value: cute-dyn's layout with the `dyn` feature;
/// without it, a type with no values (there is no such answer without an allocator).
#[cfg(not(feature = "dyn"))]
pub type RunTimeLayout = core::convert::Infallible;

/// The answer of an operation on layouts with run-time leaves whose structure the values may
/// decide (complement, `right_inverse`, `left_inverse`; see the [module](self)).
///
/// # Examples
/// ```
/// use cute_static::{layout, Decided, RightInverse};
/// // A padded tile (4,n):(ld,1): C++ CuTe and cute-dyn give n:_4 wherever ld != n.
/// let (n, ld) = (6usize, 8usize);
/// let r = layout!((4,{n}):({ld},1)).right_inverse()?;
/// assert_eq!(r.to_string(), "{6}:4");
/// assert!(matches!(r, Decided::RunTime { .. }));
/// // With ld == n the tile is compact and its right inverse is the whole (n,4):(4,1), the
/// // structure the type assumed.
/// let r = layout!((4,{n}):({n},1)).right_inverse()?;
/// assert_eq!(r.to_string(), "({6},4):(4,1)");
/// assert!(r.typed().is_some());
/// # Ok::<(), cute_static::error::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decided<L> {
    /// The values keep the structure of the type `L`.
    Typed(L),
    /// The values choose another structure: cute-dyn's answer, static flags included.
    RunTime {
        /// cute-dyn's answer.
        layout: RunTimeLayout,
        /// The operation (what [`Decided::typed_or_undecided`] names).
        op: &'static str,
    },
}

impl<L> Decided<L> {
    /// The typed layout, if the values kept its structure.
    pub fn typed(self) -> Option<L> {
        match self {
            Decided::Typed(l) => Some(l),
            Decided::RunTime { .. } => None,
        }
    }

    /// The typed layout, or [`Error::Undecided`] where the values chose another structure
    /// (what code that indexes the result, and so needs its type, matches on; it is what
    /// [`Checked`](crate::Checked) gives).
    ///
    /// # Errors
    /// [`Error::Undecided`] for a [`Decided::RunTime`] answer.
    pub fn typed_or_undecided(self) -> Result<L, Error> {
        match self {
            Decided::Typed(l) => Ok(l),
            Decided::RunTime { op, .. } => Err(Error::Undecided { op }),
        }
    }
}

#[cfg(feature = "dyn")]
impl<S: crate::layout::Congruent<D>, D: crate::IntTuple> Decided<crate::Layout<S, D>> {
    /// cute-dyn's layout of either answer, static flags included.
    ///
    /// # Errors
    /// `Overflow` for a typed value above `i64::MAX`.
    pub fn to_dyn(&self) -> cute_dyn::Result<cute_dyn::Layout> {
        match self {
            Decided::Typed(l) => l.to_dyn(),
            Decided::RunTime { layout, .. } => Ok(cute_dyn::Layout::clone(layout)),
        }
    }
}

/// Printed as the layout it holds (a run-time structure in cute-dyn's notation, the same as
/// cute-static's: run-time values as `{v}`).
impl<L: fmt::Display> fmt::Display for Decided<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Decided::Typed(l) => l.fmt(f),
            #[cfg_attr(not(feature = "dyn"), allow(unreachable_patterns))]
            Decided::RunTime { layout, .. } => fmt::Display::fmt(layout, f),
        }
    }
}

/// `result` of a typed route as a [`Decided`]: where it refused as `Undecided`, cute-dyn's
/// answer `by_values` (the operands converted with `to_dyn`), or cute-dyn's refusal (the
/// values break a condition). Only on that error path is cute-dyn called.
#[cfg(feature = "dyn")]
#[inline(always)]
pub(crate) fn or_run_time<R>(
    result: Result<R, Error>,
    by_values: impl FnOnce() -> cute_dyn::Result<cute_dyn::Layout>,
) -> Result<Decided<R>, Error> {
    match result {
        Ok(r) => Ok(Decided::Typed(r)),
        Err(Error::Undecided { op }) => by_values()
            .map(|layout| Decided::RunTime { layout: alloc::boxed::Box::new(layout), op })
            .map_err(|e| same_refusal(e, op)),
        Err(e) => Err(e),
    }
}

/// cute-dyn's refusal of the values as cute-static's (the conditions both check); one
/// cute-static has no kind for stays `Undecided` for `op`.
#[cfg(feature = "dyn")]
fn same_refusal(e: cute_dyn::Error, op: &'static str) -> Error {
    let narrow = |x: i64| usize::try_from(x).ok();
    match e {
        cute_dyn::Error::Postcondition { op, condition, .. } => Error::Postcondition { op, condition },
        cute_dyn::Error::Overflow { op } => Error::Overflow { op },
        cute_dyn::Error::DivisionByZero { op } => Error::DivisionByZero { op },
        cute_dyn::Error::NonInjective { op, .. } | cute_dyn::Error::Interleaved { op, .. } => {
            Error::NonInjective { op }
        }
        cute_dyn::Error::StrideDivisibility { op, stride, shape } => match (narrow(stride), narrow(shape)) {
            (Some(stride), Some(factor)) => Error::StrideDivisibility { op, stride, factor },
            _ => Error::Overflow { op },
        },
        cute_dyn::Error::ShapeDivisibility { op, shape, divisor } => match (narrow(shape), narrow(divisor)) {
            (Some(shape), Some(divisor)) => Error::ShapeDivisibility { op, shape, divisor },
            _ => Error::Overflow { op },
        },
        cute_dyn::Error::ModeOverlap { op, shape, reach, .. } => match (narrow(shape), narrow(reach)) {
            (Some(shape), Some(reach)) => Error::ModeOverlap { op, shape, reach },
            _ => Error::Overflow { op },
        },
        _ => Error::Undecided { op },
    }
}

/// `decide!(result, by_values)`: [`or_run_time`] with the `dyn` feature (`by_values` is only
/// compiled there); without it, the typed result.
macro_rules! decide {
    ($result:expr, $by_values:expr) => {{
        #[cfg(feature = "dyn")]
        let r = $crate::decided::or_run_time($result, $by_values);
        #[cfg(not(feature = "dyn"))]
        let r = $result.map($crate::decided::Decided::Typed);
        r
    }};
}
pub(crate) use decide;
