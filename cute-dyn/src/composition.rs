//! Composition `A ∘ B`.

use crate::coalesce::{coalesce_x, Decide};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::layout::Layout;
use crate::modes::{Nest, Pairs, CLOSE, INLINE_LEAVES, OPEN};
use crate::small::Small;
use crate::tiler::{by_mode, Tiler};

/// `composition(A, B)`: the layout `R` with `R(c) = A(B(c))`.
///
/// `B` may be a layout (composition distributes over its top-level modes), an integer `n`
/// (`n:1`), `_` (A itself) or a by-mode tiler `<...>` whose element i composes with mode i of
/// `A`; as in CuTe C++ 4.2, modes of `A` not covered by the tiler are dropped.
///
/// # Preconditions
/// 1. Stride divisibility: at each mode of `coalesce(A)` (but the last) the remaining stride
///    `d` of `B` and the mode's shape `s` satisfy `d % s == 0 or d < s`.
/// 2. Shape divisibility: the remaining shape of `B` is divisible by the part each mode takes.
/// 3. A by-mode tiler has at most `rank(A)` elements.
/// 4. Right-distributivity: the modes of `B` together stay inside each mode of `coalesce(A)`
///    (but the last), so that `A(x + y) == A(x) + A(y)` on their images.
/// 5. Negative strides in `B` (CuTe's "BETA: Negative strides", e.g. the SM80 fp64 MMA's NT
///    layouts): `A` is evaluated at the negative indices `B` reaches as C++ evaluates it
///    (truncating division and remainder, so that `A(-x) == -A(x)`). With every moving stride
///    of `B` negative, `B` is a mirrored `B'` and 1, 2 and 4 decide, as for `B'`. With strides
///    of both signs C++'s answer is `A ∘ B` only where `A` stays additive over `B`'s modes: the
///    law is checked point by point (for a `B` of at most 2^20 points) and C++'s answer
///    refused where it fails (`(3,4):(1,8) ∘ (2,2):(3,-2)` gives `(2,2):(8,-2)`, whose
///    `R(1,1) = 6` where `A(B(1,1)) = A(1) = 1`).
///
/// # Postconditions
/// `compatible(B, R)` and `R(c) == A(B(c))` for every coordinate `c` of `B`.
///
/// # Errors
/// `StrideDivisibility` (1), `ShapeDivisibility` (2), `RankMismatch` (3), `ModeOverlap` (4),
/// `Postcondition` (5, both signs; `InvalidArgument` past 2^20 points, and for a negative
/// integer or shape tiler), `Overflow`. Unlike CuTe C++, the conditions are checked on dynamic values too, and 1 is
/// exact: C++ 4.2 accepts any `d < s`, which gives layouts that are not `A ∘ B` (e.g.
/// `(32,4):(4,1) ∘ 6:24`).
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe docs
/// let a: Layout = "(6,2):(8,2)".parse()?;
/// assert_eq!(composition(&a, &"(4,3):(3,1)".parse()?)?.to_string(), "((2,2),3):((24,2),8)");
/// let a: Layout = "(12,(4,8)):(59,(13,1))".parse()?;
/// assert_eq!(composition(&a, &"<3:4,8:2>".parse()?)?.to_string(), "(3,(2,4)):(236,(26,1))");
/// assert_eq!(composition(&a, &"<3,8>".parse()?)?.to_string(), "(3,(4,2)):(59,(13,1))");
/// // CuTe DSL: a dynamic stride stays dynamic, with its known divisor
/// let a: Layout = "(6,2):({8},2)".parse()?;
/// let r = composition(&a, &"(4,3):(3,1)".parse()?)?;
/// assert_eq!(r.to_styled(Style::Dsl), "((2,2),3):((?{div=3},2),?)");
/// assert!(composition(&"(6,2):(1,7)".parse()?, &"4:9".parse()?).is_err());
/// # Ok::<(), Error>(())
/// ```
pub fn composition(a: &Layout, b: &Tiler) -> Result<Layout> {
    crate::twin::truthful!("composition", composition_by_mode(a, b))
}

fn composition_by_mode(a: &Layout, b: &Tiler) -> Result<Layout> {
    by_mode(a, b, "composition", true, &compose_into)
}

/// The composition of (a mode of) A with a layout B, written to `out`, as the divides and
/// products compose (their callers answer for refusals on mixed input, see [`crate::twin`]).
pub(crate) fn compose_into(a: &Nest<'_>, b: &Layout, out: &mut Layout) -> Result<()> {
    compose_coalesced_into(a, None, b, out)
}

/// [`compose_into`], given `coalesce(A)` where the caller has it at hand (a divide, a
/// product): A is then not coalesced a second time.
pub(crate) fn compose_coalesced_into(
    a: &Nest<'_>,
    coalesced: Option<&[(Int, Int)]>,
    b: &Layout,
    out: &mut Layout,
) -> Result<()> {
    let mut pairs = Pairs::new();
    let a_x = match coalesced {
        // `coalesce_x(A)` is `coalesce(A)` unless A ends in a static 1 (read as 2 there).
        Some(c) if !a.pairs.last().is_some_and(|(s, _)| s.is_const(1)) => c,
        _ => {
            coalesce_x(a.pairs, Decide::Static, &mut pairs)?;
            &pairs
        }
    };
    let mark = out.mark();
    match compose(a_x, b, out) {
        // Modes of A that only their run-time values allow to merge can make a valid
        // composition look inadmissible; the runtime crate knows the values, so it retries.
        Err(e) if e.is_admissibility() && !a.is_static() => {
            out.rewind(mark);
            pairs.truncate(0);
            coalesce_x(a.pairs, Decide::Values, &mut pairs)?;
            compose(&pairs, b, out)
        }
        r => r,
    }
}

/// Composition of A, coalesced (`coalesce_x`), with B.
fn compose(a_x: &[(Int, Int)], b: &Layout, out: &mut Layout) -> Result<()> {
    let (init, last) = match a_x {
        [init @ .., last] if !init.is_empty() => (init, *last),
        // One mode (or none: coalesce's `_1:_0`): A(x) = x * d on every integer, negative
        // ones included, so nothing to check.
        _ => return scaled(a_x.first().map_or(Int::st(0), |p| p.1), &b.nest(), out),
    };
    let mut reach: Small<i64, INLINE_LEAVES> = Small::new();
    reach.extend_repeat::<INLINE_LEAVES>(0, a_x.len());
    let mark = out.mark();
    composition_impl((init, last), &b.nest(), &mut reach, out)?;
    // All of B's moving strides negative is B = -B' mirrored: the walk took |d| (the reach
    // too), R = -R' and, C++'s evaluation being odd (A(-x) = -A(x)), R(c) = A(B(c)) exactly
    // where R'(c) = A(B'(c)), which the reach decides. Both signs: no such argument.
    let moving = || b.pairs().iter().filter(|(s, d)| s.value() > 1 && d.value() != 0);
    if moving().any(|(_, d)| d.value() < 0) && moving().any(|(_, d)| d.value() > 0) {
        let r = Nest { code: &out.code[mark.0..], pairs: &out.pairs[mark.1..] };
        return check_mixed_signs(a_x, b, r);
    }
    check_reach(a_x, &reach)
}

/// The law `R(c) == A(B(c))` where B has strides of both signs (precondition 5), A evaluated
/// as C++ evaluates it at a negative index (truncating division and remainder), checked at
/// every point of B: the reach bound (precondition 4) assumes B's terms of one sign.
#[cold]
fn check_mixed_signs(a_x: &[(Int, Int)], b: &Layout, r: Nest<'_>) -> Result<()> {
    const POINTS: i64 = 1 << 20;
    let n = b.size()?.value();
    if n > POINTS {
        return Err(Error::InvalidArgument {
            op: "composition",
            reason: alloc::format!(
                "a right operand with strides of both signs is checked point by point (R(c) == A(B(c))), and {b} has {n} > 2^20 points"
            ),
        });
    }
    let a = Layout::from_pairs(a_x);
    for c in 0..n {
        let (want, got) = (a.call(b.call(c)?)?, crate::layout::eval(r, Int::dy(c))?.value());
        if got != want {
            return Err(Error::Postcondition {
                op: "composition",
                condition: "R(c) == A(B(c))",
                witness: alloc::format!(
                    "with strides of both signs in B = {b}, C++'s answer {} gives R({c}) = {got}, A(B({c})) = {want} for A = {a}",
                    r.to_layout()
                ),
            });
        }
    }
    Ok(())
}

/// `composition(s:d, B)`, A coalesced to one mode (CuTe's integral case): B's strides scaled
/// by `d`, its nesting kept. Nothing to walk (A's one mode is unbounded) and no reach to check.
fn scaled(d: Int, b: &Nest<'_>, out: &mut Layout) -> Result<()> {
    out.code.extend_from_slice(b.code);
    for &(rs, rd) in b.pairs {
        let p = match off_a(rs, rd)? {
            Some(p) => p,
            None => (rs, rd.checked_mul(d)?),
        };
        out.pairs.push(p);
    }
    Ok(())
}

/// The leaves of B that need no walk of A: `Some` where B's stride is 0 (it reads A(0) = 0
/// everywhere).
fn off_a(rs: Int, rd: Int) -> Result<Option<(Int, Int)>> {
    // A static stride-0 B (or, knowing the value, a dynamic one) reads A(0) = 0 everywhere.
    Ok((rd.is_const(0) || rd.value() == 0).then_some((rs, rd)))
}

/// Precondition 4. A carry out of mode k is harmless when the modes chain linearly
/// (`s_k * d_k == d_(k+1)`, which a static coalesce would have merged), so the reach is
/// checked per chain of modes, in units of the chain's first mode; the chain holding A's last
/// (unbounded) mode has no bound.
fn check_reach(pairs: &[(Int, Int)], reach: &[i64]) -> Result<()> {
    let overflow = || Error::Overflow { op: "composition" };
    let mut k = 0;
    while k < pairs.len() {
        let (mut total, mut capacity, start) = (0i64, 1i64, k);
        loop {
            let (s, d) = (pairs[k].0.value(), pairs[k].1.value());
            total = reach[k].checked_mul(capacity).and_then(|r| r.checked_add(total)).ok_or_else(overflow)?;
            capacity = capacity.checked_mul(s).ok_or_else(overflow)?;
            k += 1;
            if k == pairs.len() || s.checked_mul(d) != Some(pairs[k].1.value()) {
                break;
            }
        }
        if k < pairs.len() && total >= capacity {
            return Err(Error::ModeOverlap { op: "composition", mode: start, shape: capacity, reach: total });
        }
    }
    Ok(())
}

/// `composition(A, B)` with `A` flat (coalesced, two modes or more: its modes but the last, and
/// its last) and `B` a (sub-)layout.
///
/// `reach[k]` accumulates, for each mode k of `A`, the largest coordinate the modes of `B`
/// reach in it together; right-distributivity (`A(x + y) = A(x) + A(y)`) holds only while that
/// stays inside the mode, which the caller checks once all of `B` is composed.
fn composition_impl(a: (&[(Int, Int)], (Int, Int)), b: &Nest<'_>, reach: &mut [i64], out: &mut Layout) -> Result<()> {
    // Right-distributivity over the modes of B: B's nesting is written as it is, token by
    // token, and each leaf of B becomes its composition with A.
    let mut leaves = b.pairs.iter();
    for &t in b.code {
        match t {
            OPEN => {
                out.open();
            }
            CLOSE => {
                out.close();
            }
            _ => {
                let &leaf = leaves.next().expect("a leaf token per pair");
                out.put_flat(|pairs| composed_leaf(a, leaf, reach, pairs))?;
            }
        }
    }
    Ok(())
}

/// `composition(A, s:d)` for one leaf of B, A of at least two modes given as its modes but the
/// last, and its last: the flat modes (one: a leaf), appended to `result` (the pairs of the
/// layout being written; the caller writes their code).
fn composed_leaf(
    (init, last): (&[(Int, Int)], (Int, Int)),
    (rs, rd): (Int, Int),
    reach: &mut [i64],
    result: &mut Pairs,
) -> Result<()> {
    if let Some(p) = off_a(rs, rd)? {
        result.push(p);
        return Ok(());
    }
    // General case. Walk A's modes (all but the last), taking from B's shape what each covers.
    //
    // | next_shape or rest_shape is a static 1 | skip the mode (only the stride advances) |
    // | otherwise                               | take min(next_shape, rest_shape) from it |
    let start = result.len();
    let (mut rest_shape, mut rest_stride) = (rs, rd);
    for (k, &(cs, cd)) in init.iter().enumerate() {
        let rsa = rest_stride.abs()?;
        let next_shape = cs.ceil_div(rsa)?;
        let next_stride = rsa.ceil_div(cs)?;
        // Multiplying by the sign: by +1 changes nothing (the quotient's static flag is the
        // stride's, and a dynamic one keeps its divisor).
        let next_stride =
            if rest_stride.value() < 0 { next_stride.checked_mul(rest_stride.signum())? } else { next_stride };
        // Precondition 1. C++ accepts `d % s == 0 or d < s`; a stride that does not divide the
        // mode is exact only if B ends inside the mode (otherwise C++ is silently wrong).
        let (d, s, n) = (rsa.value(), cs.value(), rest_shape.value());
        let divides = |x: i64, y: i64| x.checked_rem(y) == Some(0);
        let exact = divides(d, s) || (d < s && (divides(s, d) || n <= next_shape.value()));
        if n != 1 && !exact {
            return Err(Error::StrideDivisibility { op: "composition", stride: rest_stride.value(), shape: s });
        }
        if next_shape.is_const(1) || rest_shape.is_const(1) {
            rest_stride = next_stride;
            continue;
        }
        let new_shape = next_shape.min(rest_shape);
        // Precondition 2
        if !divides(n, new_shape.value()) {
            return Err(Error::ShapeDivisibility { op: "composition", shape: n, divisor: new_shape.value() });
        }
        let top = new_shape.value().checked_sub(1).and_then(|m| m.checked_mul(d));
        let top = top.ok_or_else(|| Error::Overflow { op: "composition" })?;
        reach[k] = reach[k].checked_add(top).ok_or_else(|| Error::Overflow { op: "composition" })?;
        result.push((new_shape, rest_stride.checked_mul(cd)?));
        rest_shape = rest_shape.checked_div(new_shape)?;
        rest_stride = next_stride;
    }
    if result.len() == start || !rest_shape.is_const(1) {
        result.push((rest_shape, rest_stride.checked_mul(last.1)?));
    }
    Ok(())
}
