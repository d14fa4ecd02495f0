//! right_inverse, left_inverse, and what is built on them: max_common_layout,
//! max_common_vector, max_alignment, nullspace.

use crate::coalesce::{coalesce, coalesce_pairs, coalesced_pairs};
use crate::composition::composition;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::Tuple;
use crate::layout::Layout;
use crate::modes::{compact_strides, Pairs, INLINE_LEAVES};
use crate::small::Small;
use crate::tiler::Tiler;

/// The coalesced modes of a layout, their exclusive prefix products, and the order that sorts
/// them by stride.
struct SortedModes {
    pairs: Pairs,
    preprod: Small<Int, { INLINE_LEAVES + 1 }>,
    order: Small<usize, INLINE_LEAVES>,
    /// A dynamic mode of run-time extent 1 was left out of `order`: it reaches only index 0,
    /// but left in, it takes part in the sort (and C++'s tie-breaking) where its static twin,
    /// removed by coalesce, does not. The choice reads a run-time value, so the caller's
    /// result is then all dynamic.
    decided_on_values: bool,
}

/// The flat modes of an inverse: a leading `1:0` and one per mode of the layout.
type InverseModes = Small<(Int, Int), { INLINE_LEAVES + 1 }>;

/// CuTe's exchange sort on the stride key, reproduced so that ties land the same.
fn sorted_modes(l: &Layout) -> Result<SortedModes> {
    let mut pairs = Pairs::new();
    coalesced_pairs(l.pairs(), &mut pairs)?;
    let mut preprod = Small::new();
    preprod.push(Int::st(1));
    for &(s, _) in pairs.iter() {
        let next = preprod.last().expect("non-empty").checked_mul(s)?;
        preprod.push(next);
    }
    let dynamic_one = |i: usize| !pairs[i].0.is_static() && pairs[i].0.value() == 1;
    let mut order: Small<usize, INLINE_LEAVES> = (0..pairs.len()).filter(|&i| !dynamic_one(i)).collect();
    let decided_on_values = order.len() != pairs.len();
    for i in 0..order.len() {
        for j in i + 1..order.len() {
            if pairs[order[j]].1.value() < pairs[order[i]].1.value() {
                order.swap(i, j);
            }
        }
    }
    Ok(SortedModes { pairs, preprod, order, decided_on_values })
}

/// `right_inverse(L)`: the largest compact `R` with `L(R(i)) == i` for `i < size(R)`.
///
/// Walking the modes by increasing stride from `current = 1`: a mode whose stride equals
/// `current` is taken (shape `s`, stride its prefix product) and `current = s*d`; any other
/// mode (stride 0, negative, or a gap) is skipped, as in C++. Dynamic strides are compared by
/// value (C++ drops them; their values are known here).
///
/// # Postconditions
/// `L(R(i)) == i` for `0 <= i < size(R)`.
///
/// # Errors
/// `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(right_inverse(&"(4,2):(2,1)".parse()?)?.to_string(), "(2,4):(4,1)");
/// assert_eq!(right_inverse(&"(6,2,6):(0,6,1)".parse()?)?.to_string(), "(6,2):(12,6)");
/// # Ok::<(), Error>(())
/// ```
pub fn right_inverse(l: &Layout) -> Result<Layout> {
    crate::twin::truthful!("right_inverse", right_inverse_impl(l))
}

fn right_inverse_impl(l: &Layout) -> Result<Layout> {
    let SortedModes { pairs, preprod, order, decided_on_values } = sorted_modes(l)?;
    let mut result = InverseModes::from_slice(&[(Int::st(1), Int::st(0))]);
    let mut current = Int::st(1);
    for &i in order.iter() {
        let (s, d) = pairs[i];
        if d.value() == current.value() {
            result.push((s, preprod[i]));
            current = s.checked_mul(d)?;
        }
    }
    let r = coalesce_pairs(&result)?;
    Ok(if decided_on_values { r.to_dynamic() } else { r })
}

/// `left_inverse(L)`: CuTe's quasi-inverse, a layout `R` with `L(R(L(i))) == L(i)` for
/// `i < size(L)`, so `R(L(i)) == i` when `L` is injective (stride-0 modes are skipped, as in
/// C++; so is a dynamic mode whose value is 1, which C++ mistakes for a real mode).
///
/// # Preconditions
/// 1. Left inverse divisibility: each stride, in increasing order, is divisible by the size
///    of the inverse built so far.
/// 2. The strides that move (of modes of more than one element) have one sign. All negative
///    (CUTLASS's `(4):(-1)`): `L(i) = -M(i)` for `M`, `L` with its strides negated, and `R` is
///    `M`'s left inverse with its strides negated, under C++'s evaluation at negative indices
///    (truncating division, odd: `R(-x) = -R(x)`); C++'s own answer, `(-1,4):(0,1)`, has a
///    negative extent and the same values there. Both signs: refused (CUTLASS keeps those
///    tests commented out; C++'s answers break the @post).
/// 3. CuTe's @post, its law for any layout: `L(R(L(i))) == L(i)`. Where `L` is injective apart
///    from stride-0 modes (in increasing order, each stride at least the span `s*d` of the
///    previous mode) it holds by construction. Elsewhere `L` is not injective, and C++'s answer
///    is checked point by point (up to 2^22 points): kept where the law holds
///    (`(4,3):(12,12)` gives C++'s `(12,3):(0,4)`), refused where it breaks
///    (`((2,4,8,4),4):((4,12,2,12),1)` gives `(2,2,3,4):(256,8,1,2)` in C++, and
///    `L(R(L(17))) = 12 != L(17) = 8`).
///
/// # Postconditions
/// `L(R(L(i))) == L(i)` for `0 <= i < size(L)`.
///
/// # Errors
/// `StrideDivisibility` (1), `InvalidArgument` (2), `Postcondition` (3, with the `i` where the
/// law breaks), `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(left_inverse(&"(4,2):(2,1)".parse()?)?.to_string(), "(2,4):(4,1)");
/// assert_eq!(left_inverse(&"2:8".parse()?)?.to_string(), "(8,2):(0,1)");
/// // not injective, C++ 4.2's answer keeps L(R(L(i))) == L(i)
/// assert_eq!(left_inverse(&"(4,3):(12,12)".parse()?)?.to_string(), "(12,3):(0,4)");
/// // CUTLASS inverse_left.cpp, "BETA: Negative strides": R(L(i)) == i at L(i) = -i
/// let l: Layout = "4:-1".parse()?;
/// let r = left_inverse(&l)?;
/// assert!((0..4).all(|i| r.call(l.call(i).unwrap()).unwrap() == i));
/// # Ok::<(), Error>(())
/// ```
pub fn left_inverse(l: &Layout) -> Result<Layout> {
    crate::twin::truthful!("left_inverse", left_inverse_impl(l))
}

fn left_inverse_impl(l: &Layout) -> Result<Layout> {
    let (r, structurally_lawful) = left_inverse_cxx(l)?;
    if !structurally_lawful {
        check_generalized_law(l, &r)?;
    }
    Ok(r)
}

/// The most points at which the generalized law of a non-injective `left_inverse` is checked.
const LAW_POINTS: i64 = 1 << 22;

/// CuTe's law for a left inverse of any layout, `L(R(L(i))) == L(i)` for `i < size(L)`,
/// checked point by point (C++ states it as its @post; for an injective `L` it is `R(L(i)) ==
/// i`). The error names the first `i` where it fails, or says the layout is too large to check.
fn check_generalized_law(l: &Layout, r: &Layout) -> Result<()> {
    let n = l.size()?.value();
    if n > LAW_POINTS {
        return Err(Error::Postcondition {
            op: "left_inverse",
            condition: "L(R(L(i))) == L(i)",
            witness: alloc::format!(
                "{} is not injective, and its {n} points are more than the {LAW_POINTS} at which the law is checked",
                crate::print::to_values(l)
            ),
        });
    }
    // CuTe's answer for a layout that is not injective, judged by its law (post's check).
    crate::post::left_inverse_law(l, r)
}

/// CuTe's `left_inverse` algorithm, and whether the layout is injective apart from stride-0
/// modes (then the law holds by construction, and is not checked point by point).
fn left_inverse_cxx(l: &Layout) -> Result<(Layout, bool)> {
    // Negative strides (CuTe's "BETA", CUTLASS's `(4):(-1)`): where every stride that moves is
    // negative, L(i) = -M(i) for M = L with its strides negated, and C++'s evaluation is odd
    // (truncating: M(-x) = -M(x)), so M's left inverse with its strides negated is L's:
    // R(L(i)) = -M⁻¹(-M(i)) = i. Strides of both signs are refused below (CUTLASS keeps those
    // tests out: C++'s answers break the law there).
    let moves = |&(s, d): &(Int, Int)| s.value() != 1 && d.value() != 0;
    if l.pairs().iter().any(|p| moves(p) && p.1.value() < 0) && l.pairs().iter().all(|p| !moves(p) || p.1.value() < 0) {
        let negate = |(s, d): (Int, Int)| Ok((s, d.checked_mul(Int::st(-1))?));
        let (r, lawful) = left_inverse_cxx(&l.try_map_pairs(negate)?)?;
        return Ok((r.try_map_pairs(negate)?, lawful));
    }
    let SortedModes { pairs, preprod, order, decided_on_values } = sorted_modes(l)?;
    // The result's modes: each shape is pushed with the next mode's stride (the first stride
    // is 0), the last shape closes the list.
    let mut result = InverseModes::new();
    let mut stride = Int::st(0);
    let mut size = Int::st(1);
    // C++ closes with the shape of the mode of largest stride. With only stride-0 modes, a
    // static coalesce leaves one, of extent size(L); dynamic extents keep several (the DSL's
    // rule), so take size(L) itself.
    let mut last = l.size()?;
    // One past the largest index the modes taken so far reach (precondition 3).
    let mut span = 1i64;
    let mut injective = true;
    for &i in order.iter() {
        let (s, d) = pairs[i];
        if d.value() == 0 {
            continue;
        }
        // Precondition 2
        if d.value() < 0 {
            return Err(Error::InvalidArgument {
                op: "left_inverse",
                reason: alloc::format!(
                    "strides of both signs in {l}: not taken (C++'s answers break L(R(L(i))) == L(i) there; CUTLASS keeps those tests out)"
                ),
            });
        }
        // Precondition 1
        if d.checked_rem(size)?.value() != 0 {
            return Err(Error::StrideDivisibility { op: "left_inverse", stride: d.value(), shape: size.value() });
        }
        // Precondition 3. With 1 holding, d = k * (previous stride) for some k; k below the
        // previous extent means coordinate k of the previous mode meets coordinate 1 of this
        // one. C++ goes on, and its result breaks its own @post.
        injective &= d.value() >= span;
        let q = d.checked_div(size)?;
        result.push((q, stride));
        stride = preprod[i];
        size = size.checked_mul(q)?;
        span = s.value().checked_mul(d.value()).ok_or_else(|| Error::Overflow { op: "left_inverse" })?;
        last = s;
    }
    result.push((last, stride));
    let r = coalesce_pairs(&result)?;
    Ok((if decided_on_values { r.to_dynamic() } else { r }, injective))
}

/// `max_common_layout(A, B)`: the layout of the largest set of contiguous elements that
/// correspond in `A` and `B`: `R` with `A(R(i)) == i` and `B(R(i)) == i`.
///
/// # Errors
/// As [`composition`].
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// let a: Layout = "(4,8):(1,4)".parse()?;
/// assert_eq!(max_common_layout(&a, &a)?.to_string(), "32:1");
/// assert_eq!(max_common_layout(&a, &"(4,8):(8,1)".parse()?)?.to_string(), "1:0");
/// # Ok::<(), Error>(())
/// ```
pub fn max_common_layout(a: &Layout, b: &Layout) -> Result<Layout> {
    crate::twin::truthful!("max_common_layout", max_common_layout_impl(a, b))
}

fn max_common_layout_impl(a: &Layout, b: &Layout) -> Result<Layout> {
    let inv_b = right_inverse(b)?;
    let common = coalesce(&composition(a, &Tiler::Layout(inv_b.clone()))?)?;
    let first = common.get(0)?;
    match (first.shape(), first.stride()) {
        // Keep only the static identity part of the common layout.
        (Tuple::Leaf(s), Tuple::Leaf(d)) if s.is_static() && d.is_const(1) => {
            composition(&inv_b, &Tiler::Layout(first))
        }
        _ => Ok(Layout::trivial()),
    }
}

/// `max_common_vector(A, B)`: the number of contiguous elements that correspond in `A` and `B`.
///
/// # Errors
/// As [`composition`].
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// let a: Layout = "(4,8):(1,4)".parse()?;
/// assert_eq!(max_common_vector(&a, &"(4,(2,4)):(1,(4,8))".parse()?)?.value(), 32);
/// # Ok::<(), Error>(())
/// ```
pub fn max_common_vector(a: &Layout, b: &Layout) -> Result<Int> {
    let common = coalesce(&composition(a, &Tiler::Layout(right_inverse(b)?))?)?;
    let first = common.get(0)?;
    match (first.shape(), first.stride()) {
        (Tuple::Leaf(s), Tuple::Leaf(d)) if s.is_static() && d.is_const(1) => Ok(s),
        _ => Ok(Int::st(1)),
    }
}

/// `nullspace(L)`: the layout of the coordinates that `L` maps to 0 (its static stride-0
/// modes), with compact strides into `L`'s domain.
///
/// # Postconditions
/// `L(R(i)) == 0` for `i < size(R)`; `size(R) == size(L) / size(filter(L))`.
///
/// # Errors
/// `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(nullspace(&"(2,4,3):(0,1,0)".parse()?)?.to_string(), "(2,3):(1,8)");
/// # Ok::<(), Error>(())
/// ```
pub fn nullspace(l: &Layout) -> Result<Layout> {
    crate::twin::truthful!("nullspace", nullspace_impl(l))
}

fn nullspace_impl(l: &Layout) -> Result<Layout> {
    // The compact column-major strides of all of L's leaves; the stride-0 ones are kept.
    let mut compact = Pairs::from_slice(l.pairs());
    compact_strides(&mut compact, Int::st(1), true)?;
    Layout::build(|out| {
        for (&(_, d), &p) in l.pairs().iter().zip(compact.iter()) {
            if d.is_const(0) {
                out.pairs.push(p);
            }
        }
        if out.pairs.is_empty() {
            out.pairs.push((Int::st(1), Int::st(0)));
        }
        out.close_flat();
        Ok(())
    })
}

/// `max_alignment(L)` (CuTe C++ `layout.hpp`): the most elements `L` maps to consecutive
/// indices in some order, counting only what is known statically: of `coalesce(L)` with
/// run-time extents as 1 and run-time strides as 0, `gcd(size<0>(P), stride<1>(P))` for
/// `P = logical_divide(L', right_inverse(L'))` (a tuple `stride<1>` counts each leaf).
///
/// # Errors
/// Those of the operations it is built on.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe C++ 4.2's answers
/// assert_eq!(max_alignment(&"(8,64):(64,1)".parse()?)?.value(), 512);
/// assert_eq!(max_alignment(&"(4,8):(2,16)".parse()?)?.value(), 1);
/// assert_eq!(max_alignment(&"(4,?):(1,?)".parse()?)?.value(), 4);
/// # Ok::<(), Error>(())
/// ```
pub fn max_alignment(l: &Layout) -> Result<Int> {
    // What is known statically: a dynamic extent counts as 1, a dynamic stride as 0.
    let known =
        |(s, d): (Int, Int)| (if s.is_static() { s } else { Int::st(1) }, if d.is_static() { d } else { Int::st(0) });
    let filtered = coalesce(l)?.map_pairs(known);
    let permuted = crate::logical_divide(&filtered, &Tiler::Layout(right_inverse(&filtered)?))?;
    let mut g = permuted.get(0)?.size()?.value().unsigned_abs();
    for &(_, d) in permuted.get(1)?.pairs() {
        g = crate::int::gcd(g, d.value().unsigned_abs());
    }
    Ok(Int::st(g as i64))
}
