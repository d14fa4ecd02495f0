//! complement: the layout of the indices a layout does not reach, up to a cotarget.

use crate::coalesce::{coalesced_pairs, filter_pairs};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::{IntTuple, Tuple};
use crate::layout::Layout;
use crate::modes::{compact_strides, Nest, Pairs, INLINE_LEAVES};
use crate::small::Small;

/// `coalesce(shape)` of CuTe: merge neighbouring leaves that are both static or both dynamic
/// (a single result is a leaf).
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// let s: IntTuple = "(2,{3},{4},5,6)".parse()?;
/// assert_eq!(coalesce_shape(&s)?.to_string(), "(2,{12},30)");
/// # Ok::<(), Error>(())
/// ```
pub fn coalesce_shape(shape: &IntTuple) -> Result<IntTuple> {
    if !shape.is_tuple() {
        return Ok(shape.clone());
    }
    let mut merged = Ints::new();
    coalesce_leaves(&shape.leaves(), &mut merged)?;
    Ok(match *merged {
        [x] => Tuple::Leaf(x),
        _ => Tuple::Node(merged.iter().map(|&x| Tuple::Leaf(x)).collect()),
    })
}

/// The leaves of [`coalesce_shape`], written to `out` (results are written in place, see
/// [`Layout::empty`]).
fn coalesce_leaves(leaves: &[Int], out: &mut Ints) -> Result<()> {
    out.truncate(0);
    let Some((&first, rest)) = leaves.split_first() else { return Ok(()) };
    // The run being merged is kept in a local and written once it ends.
    let mut run = first;
    for &x in rest {
        if run.is_static() == x.is_static() {
            run = run.checked_mul(x)?;
        } else {
            out.push(run);
            run = x;
        }
    }
    out.push(run);
    Ok(())
}

/// The leaves of a shape, in order (inline for the shapes kernels use).
pub(crate) type Ints = Small<Int, INLINE_LEAVES>;

/// `complement(L, cotarget)`: the layout `R`, ordered and disjoint from `L`, such that
/// `(L, R)` covers `[0, cotarget)` (`cotarget` may be a shape, as in `logical_divide`).
///
/// Decision table (on the filtered modes sorted by stride, smallest first): each mode
/// `s:d` contributes `d / current` elements of stride `current`, then `current = s*d`; the rest
/// of the cotarget, `ceil_div(cotarget, current)`, follows with compact strides.
///
/// # Preconditions
/// 1. No mode starts before the previous ones end (`d / current != 0`): `L` is injective and
///    its modes do not interleave.
/// 2. Strides are non-negative, `cotarget` is not.
/// 3. CuTe's answer meets CuTe's @post: `cosize(make_layout(L, R)) >= size(cotarget)`
///    (CUTLASS's `complement.cpp`) and `size(R) >= size(cotarget) / size(filter(L))`
///    (`cute/layout.hpp`). Where a stride is not a
///    multiple of the span of the modes of smaller stride, CuTe C++ and pycute truncate
///    `d / current` and can fall short: `complement((2,4):(1,3), 24)` is `2:12` there (its
///    `make_layout(L, R)` reaches 23 < 24); an error here.
///
/// # Postconditions
/// Those of 3, `R(i-1) < R(i)` (ordered) and `R(i) != L(j)` for `i >= 1` (disjoint).
///
/// # Errors
/// `NonInjective` (1, with two coordinates that meet), `Interleaved` (1 for an injective
/// layout whose modes interleave: `(2,2):(6,4)`, which C++ calls non-injective),
/// `InvalidArgument` (2), `Postcondition` (3), `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe docs
/// let c = |l: &str| complement(&l.parse().unwrap(), &IntTuple::int(24)).unwrap().to_string();
/// assert_eq!(c("4:1"), "6:4");
/// assert_eq!(c("6:4"), "4:1");
/// assert_eq!(c("(4,6):(1,4)"), "1:0");
/// assert_eq!(c("4:2"), "(2,3):(1,8)");
/// assert_eq!(c("(2,4):(1,6)"), "3:2");
/// assert_eq!(c("(2,2):(1,6)"), "(3,2):(2,12)");
/// ```
pub fn complement(l: &Layout, cotarget: &IntTuple) -> Result<Layout> {
    crate::twin::truthful!("complement", complement_impl(l, cotarget))
}

fn complement_impl(l: &Layout, cotarget: &IntTuple) -> Result<Layout> {
    complement_checked(l, cotarget, Post::Checked)
}

/// [`complement`] where the caller judges the answer by its own definition (a product): CuTe's
/// algorithm without its @post check.
pub(crate) fn complement_unchecked(l: &Layout, cotarget: &IntTuple) -> Result<Layout> {
    complement_checked(l, cotarget, Post::Unchecked)
}

fn complement_checked(l: &Layout, cotarget: &IntTuple, post: Post) -> Result<Layout> {
    crate::layout::check_shape("complement", cotarget)?;
    Layout::build(|out| {
        let mut leaves = Ints::new();
        cotarget.for_each_leaf(&mut |&x| leaves.push(x));
        complement_to(&l.nest(), &leaves, out, post)
    })
}

/// Whether a complement checks CuTe's @post (the operation itself, the divides), or leaves
/// its answer to the caller's own definition (a product: `tests/cutlass_core.rs`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Post {
    Checked,
    Unchecked,
}

/// `complement(L, cotarget)` for a cotarget given by its leaves (an integer is one leaf; the
/// nesting of a shape does not change the answer).
fn complement_to(l: &Nest<'_>, cotarget: &[Int], out: &mut Layout, post: Post) -> Result<()> {
    let mut rest = Pairs::new();
    filter_pairs(l.pairs, &mut rest)?;
    complement_filtered(&mut rest, cotarget, l, out, post)
}

/// [`complement`] with a flat shape as the cotarget (one leaf: an integer), as the divides call
/// it, appended to `out` as one mode: without building the shape unless there is an error to
/// explain.
pub(crate) fn complement_shape(l: &Nest<'_>, shape: &[Int], out: &mut Layout, post: Post) -> Result<()> {
    let mark = out.mark();
    complement_to(l, shape, out, post).or_else(|_| {
        out.rewind(mark);
        let tree = match shape {
            [x] => Tuple::Leaf(*x),
            _ => Tuple::Node(shape.iter().map(|&x| Tuple::Leaf(x)).collect()),
        };
        let (l, tree) = (&l.to_layout(), &tree);
        let r = match post {
            Post::Checked => complement(l, tree),
            Post::Unchecked => crate::twin::truthful!("complement", complement_unchecked(l, tree)),
        };
        r.map(|r| {
            out.put(r.nest());
        })
    })
}

/// `complement(L)`: the complement with cotarget `cosize(filter(L))`.
///
/// # Errors
/// As [`complement`].
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(complement_cosize(&"(2,2):(1,6)".parse()?)?.to_string(), "3:2");
/// # Ok::<(), Error>(())
/// ```
pub fn complement_cosize(l: &Layout) -> Result<Layout> {
    crate::twin::truthful!("complement_cosize", complement_cosize_impl(l))
}

fn complement_cosize_impl(l: &Layout) -> Result<Layout> {
    Layout::build(|out| {
        let mut f = Pairs::new();
        filter_pairs(l.pairs(), &mut f)?;
        let cosize = Layout::from_pairs(&f).cosize()?;
        complement_filtered(&mut f, &[cosize], &l.nest(), out, Post::Checked)
    })
}

/// The complement of the flat modes of `filter(orig)`, appended to `out` as one mode.
fn complement_filtered(
    rest: &mut Pairs,
    cotarget: &[Int],
    orig: &Nest<'_>,
    out: &mut Layout,
    post: Post,
) -> Result<()> {
    // Precondition 2
    if let Some(&(_, d)) = rest.iter().find(|(_, d)| d.value() < 0) {
        return Err(Error::InvalidArgument {
            op: "complement",
            reason: alloc::format!("negative stride {}", d.value()),
        });
    }
    // A dynamic mode whose run-time extent is 1 reaches only index 0; the general path would
    // place it like a real mode (and refuse `(2,{1}):(4,{4})` as non-injective). It is skipped;
    // that choice reads a run-time value, so the result is then all dynamic.
    let before = rest.len();
    rest.retain(|(s, _)| s.is_static() || s.value() != 1);
    let decided_on_values = rest.len() != before;
    if rest.len() == 1 && rest[0].1.is_const(0) {
        // The irreducible rank-1 stride-0 layout: all of the cotarget is the complement.
        let (mut shape, mut pairs) = (Ints::new(), Pairs::new());
        coalesce_leaves(cotarget, &mut shape)?;
        compact_pairs(&shape, Int::st(1), &mut pairs)?;
        out.put_pairs(&pairs);
        return Ok(());
    }
    let filtered = span(rest)?;
    let mut result = Pairs::new();
    let mut current = Int::st(1);
    while !rest.is_empty() {
        let (s, min_stride) = match **rest {
            // The last mode is its own minimum (as `Int::min` folds it: unchanged).
            [last] => {
                rest.truncate(0);
                last
            }
            _ => {
                let min_stride = rest.iter().map(|p| p.1).reduce(Int::min).expect("non-empty");
                let idx = rest.iter().position(|p| p.1.value() == min_stride.value()).expect("present");
                (rest.remove(idx).0, min_stride)
            }
        };
        let new_shape = min_stride.checked_div(current)?;
        // Precondition 1
        if new_shape.value() == 0 {
            return Err(interleaved(orig, min_stride, current));
        }
        result.push((new_shape, current));
        current = min_stride.checked_mul(s)?;
    }
    // The size of the cotarget, computed once (the @post check below compares with it).
    let target = if let [c] = cotarget {
        // The common case, an integer cotarget.
        let rest = c.ceil_div(current)?;
        result.push((rest, if rest.is_const(1) { Int::st(0) } else { current }));
        c.value()
    } else {
        // ceil_div(cotarget, current), a running quotient over the leaves, coalesced.
        let mut quotient = current;
        let mut divided = Ints::new();
        for &x in cotarget {
            divided.push(x.ceil_div(quotient)?);
            quotient = quotient.ceil_div(x)?;
        }
        let mut rest_shape = Ints::new();
        coalesce_leaves(&divided, &mut rest_shape)?;
        // Mode by mode, ceil_div falls short of the cotarget where `current` does not
        // divide into its modes (a dynamic A keeps modes that a static one would have
        // coalesced: `(3,4,3,...)` against 128). CuTe then loses part of the cotarget
        // (a divide loses tiles); one mode of the whole rest is what the @post asks.
        let total = size_of_leaves(cotarget)?;
        let need = total.ceil_div(current)?;
        if size_of_leaves(&rest_shape)?.value() < need.value() {
            rest_shape.truncate(0);
            rest_shape.push(need);
        }
        compact_pairs(&rest_shape, current, &mut result)?;
        total.value()
    };
    let covered = span(&result)?;
    // Coalesced straight into the layout being written (a caller rewinds it on an error).
    out.put_flat(|pairs| {
        let start = pairs.len();
        coalesced_pairs(&result, pairs)?;
        let r = &mut pairs[start..];
        if post == Post::Checked {
            check_cheap_post(*orig, filtered, target, covered, r)?;
        }
        if decided_on_values {
            r.iter_mut().for_each(|(s, d)| (*s, *d) = (s.to_dynamic(), d.to_dynamic()));
        }
        Ok(())
    })
}

/// Whether a layout has a negative stride on a mode of more than one element (a product then
/// takes the complement of its [`mirror`]: `crate::product`).
pub(crate) fn walks_down(a: &[(Int, Int)]) -> bool {
    a.iter().any(|&(s, d)| s.value() > 1 && d.value() < 0)
}

/// The layout with its negative strides made positive: its differences `A(i) - A(j)` are the
/// same set as `A`'s where every stride that moves is negative.
pub(crate) fn mirror(a: &Layout) -> Result<Layout> {
    a.try_map_pairs(|(s, d)| Ok((s, if d.value() < 0 { d.checked_mul(Int::st(-1))? } else { d })))
}

/// The product of a shape's leaves; `()` is 1.
fn size_of_leaves(leaves: &[Int]) -> Result<Int> {
    leaves.iter().try_fold(Int::st(1), |acc, &x| acc.checked_mul(x))
}

/// `compact_col_major` of a flat shape from `current` (a static 1 gets stride `_0`), appended
/// to `out`.
fn compact_pairs(shape: &[Int], current: Int, out: &mut Pairs) -> Result<()> {
    let start = out.len();
    shape.iter().for_each(|&x| out.push((x, Int::st(0))));
    compact_strides(&mut out[start..], current, true)
}

/// `(size, cosize - 1)` of flat modes, in checked `i64` (an extent of 0 reaches nothing, as in
/// `Layout::cosize`).
fn span(pairs: &[(Int, Int)]) -> Result<(i64, i64)> {
    let overflow = || Error::Overflow { op: "complement" };
    pairs.iter().try_fold((1i64, 0i64), |(size, top), &(s, d)| {
        let reach = (s.value() - 1).max(0).checked_mul(d.value().checked_abs().ok_or_else(overflow)?);
        Ok((
            size.checked_mul(s.value()).ok_or_else(overflow)?,
            top.checked_add(reach.ok_or_else(overflow)?).ok_or_else(overflow)?,
        ))
    })
}

/// CuTe's @post conditions of complement that need no enumeration, on the filtered `L`'s
/// `(size, cosize - 1)` and `R`'s: `cosize(make_layout(L, R)) >= size(cotarget)` (CUTLASS's
/// `test/unit/cute/core/complement.cpp`, its (1)) and `size(R) >= size(cotarget) /
/// size(filter(L))` in integer division (`cute/layout.hpp`). Not its (2), `cosize(R) <=
/// round_up(size(cotarget), cosize(L))`: a bound its inputs meet that CuTe's own answers
/// break where they are right (`complement(2:8, 17)` is `(8,2):(1,16)`, cosize 24 > 18;
/// docs/deviations.md). Where a stride is not a multiple of the span of the modes of smaller
/// stride, CuTe's `d / current` truncates and the result can fall short of the cotarget
/// (`complement((2,4):(1,3), 24)` is `2:12`, whose `make_layout(L, R)` reaches 23 < 24).
fn check_cheap_post(
    orig: Nest<'_>,
    (f_size, f_top): (i64, i64),
    target: i64,
    (r_size, r_top): (i64, i64),
    r: &[(Int, Int)],
) -> Result<()> {
    let overflow = || Error::Overflow { op: "complement" };
    // cosize(make_layout(L, R)) = 1 + (cosize(L) - 1) + (cosize(R) - 1).
    let both = f_top.checked_add(r_top).and_then(|x| x.checked_add(1)).ok_or_else(overflow)?;
    if both < target {
        return Err(shortfall("cosize(make_layout(L, R)) >= size(cotarget)", (both, "<", target), r, orig));
    }
    // An extent of 0 in L ends its modes before this (ceil_div by 0).
    if f_size > 0 && r_size < target / f_size {
        return Err(shortfall("size(R) >= size(cotarget) / size(filter(L))", (r_size, "<", target / f_size), r, orig));
    }
    Ok(())
}

/// The error of [`check_cheap_post`]: CuTe's answer `r` and the two sides of the condition it
/// breaks. A function of its own, taking the pairs by value: a closure holding a reference to
/// them would let LLVM think the layout being written escapes, which keeps [`Layout::build`]'s
/// result from being written in the caller's slot.
#[cold]
#[inline(never)]
fn shortfall(condition: &'static str, (got, rel, bound): (i64, &str, i64), r: &[(Int, Int)], orig: Nest<'_>) -> Error {
    Error::Postcondition {
        op: "complement",
        condition,
        witness: alloc::format!(
            "CuTe's answer {} for {} gives {got} {rel} {bound}",
            Layout::from_pairs(r),
            crate::print::to_values(&orig.to_layout())
        ),
    }
}

/// The error of a mode of stride `d` that starts inside the span `current` of the modes of
/// smaller stride (C++: "Non-injective Layout detected in complement"). Where the filtered
/// layout does map two coordinates to one index, that is the error, with the two; where it is
/// injective (`(2,2):(6,4)`), its modes interleave, which CuTe's complement cannot place
/// (`Interleaved`).
#[cold]
#[inline(never)]
fn interleaved(orig: &Nest<'_>, d: Int, current: Int) -> Error {
    let l = orig.to_layout();
    let text = crate::print::to_values(&l);
    // Stride-0 modes are filtered out first, as complement does.
    let filtered = crate::coalesce::filter(&l);
    match filtered.as_ref().map_err(Clone::clone).and_then(Layout::collision) {
        Ok(Some((i, j, x))) => Error::NonInjective {
            op: "complement",
            layout: text,
            witness: match &filtered {
                Ok(f) if f != &l => alloc::format!("its stride-0 modes filtered out, {f} maps {i} and {j} to {x}"),
                _ => alloc::format!("it maps {i} and {j} to {x}"),
            },
        },
        Ok(None) => Error::Interleaved { op: "complement", layout: text, stride: d.value(), span: current.value() },
        Err(_) => Error::NonInjective {
            op: "complement",
            layout: text,
            witness: alloc::format!(
                "a mode of stride {} starts inside the span {} of the modes of smaller stride; too large to look for two coordinates",
                d.value(),
                current.value()
            ),
        },
    }
}
