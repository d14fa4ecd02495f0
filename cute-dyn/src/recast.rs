//! upcast and downcast: re-express a layout for elements `n` times larger or smaller.

use alloc::string::String;

use crate::error::{Error, Result};
use crate::int::Int;
use crate::layout::Layout;

fn positive(n: i64, op: &'static str) -> Result<Int> {
    if n <= 0 {
        return Err(Error::InvalidArgument { op, reason: alloc::format!("factor {n} is not positive") });
    }
    Ok(Int::st(n))
}

/// `upcast<N>(L)`: for elements `n` times larger. A stride-1 mode's size is divided by `n`;
/// other strides are divided by `n` (stride-0 modes are kept).
///
/// # Preconditions
/// 1. `n > 0`.
/// 2. Divisibility: each non-zero stride `d` has `d % n == 0 or n % d == 0`; a dynamic stride
///    is divisible by `n` (CuTe C++ assumes it; it is checked here).
///
/// # Errors
/// `InvalidArgument` (1), `StrideDivisibility` (2), `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(upcast(&"(4,8):(1,4)".parse()?, 2)?.to_string(), "(2,8):(1,2)");
/// # Ok::<(), Error>(())
/// ```
pub fn upcast(l: &Layout, n: i64) -> Result<Layout> {
    crate::twin::truthful("upcast", &[l], || upcast_impl(l, n), || upcast_impl(&l.to_static(), n))
}

fn upcast_impl(l: &Layout, n: i64) -> Result<Layout> {
    let n = positive(n, "upcast")?;
    // Leaf by leaf, in place: the extent shrinks where the stride is below n, the stride
    // divides by n otherwise.
    l.try_map_pairs(|(s, d)| {
        Ok(if d.is_const(0) {
            (s, d)
        } else if d.is_static() {
            let ad = d.abs()?;
            // Precondition 2
            if ad.value() % n.value() != 0 && n.value() % ad.value().max(1) != 0 {
                return Err(Error::StrideDivisibility { op: "upcast", stride: d.value(), shape: n.value() });
            }
            (s.ceil_div(n.ceil_div(ad)?)?, d.signum().checked_mul(ad.ceil_div(n)?)?)
        } else {
            // Precondition 2 (dynamic)
            if d.value() % n.value() != 0 {
                return Err(Error::StrideDivisibility { op: "upcast", stride: d.value(), shape: n.value() });
            }
            (s, d.checked_div(n)?)
        })
    })
}

/// `downcast<N>(L)`: for elements `n` times smaller. A unit-stride mode's size is multiplied
/// by `n`; other strides are multiplied by `n`.
///
/// A unit stride is a static ±1, as in CuTe C++ (`is_constant<1, Stride>`): which rule a
/// dynamic stride takes would change the result's structure, so it is never chosen on the
/// run-time value. A dynamic stride that is ±1 when it runs is refused as
/// [`Error::Undecided`] (static, its mode's extent would grow instead; C++ multiplies it and
/// loses the elements in between); any other dynamic stride is multiplied.
///
/// # Preconditions
/// 1. `n > 0`.
/// 2. Some stride is a static ±1 (the layout has adjacent elements).
///
/// # Errors
/// `InvalidArgument` (1, 2), `Undecided` (a dynamic unit stride), `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(downcast(&"(2,8):(1,2)".parse()?, 2)?.to_string(), "(4,8):(1,4)");
/// // A run-time leading dimension is multiplied (32-bit elements seen as 16-bit ones).
/// assert_eq!(downcast(&"(8,4):(1,{64:64})".parse()?, 2)?.to_styled(Style::Dsl), "(16,4):(1,?{div=128})");
/// assert!(matches!(downcast(&"(8,4):({1},8)".parse()?, 2), Err(Error::Undecided { .. })));
/// # Ok::<(), Error>(())
/// ```
pub fn downcast(l: &Layout, n: i64) -> Result<Layout> {
    crate::twin::truthful("downcast", &[l], || downcast_impl(l, n), || downcast_impl(&l.to_static(), n))
}

fn downcast_impl(l: &Layout, n: i64) -> Result<Layout> {
    let n = positive(n, "downcast")?;
    let unit = |d: Int| d.is_const(1) || d.is_const(-1);
    let pairs = l.pairs();
    // Precondition 2
    if !pairs.iter().any(|&(_, d)| unit(d)) {
        return Err(Error::InvalidArgument {
            op: "downcast",
            reason: "no stride-1 mode (downcast requires adjacent elements)".into(),
        });
    }
    // A dynamic unit stride: refused here; its static twin goes through, so `truthful` names
    // the dynamic leaves to make static.
    if let Some(&(_, d)) = pairs.iter().find(|&&(_, d)| !d.is_static() && d.value().unsigned_abs() == 1) {
        return Err(Error::Undecided {
            op: "downcast",
            reason: alloc::format!("the dynamic stride {d} is a unit stride, whose mode's extent would grow instead"),
            dynamic: String::new(),
        });
    }
    l.try_map_pairs(|(s, d)| Ok(if unit(d) { (s.checked_mul(n)?, d) } else { (s, d.checked_mul(n)?) }))
}
