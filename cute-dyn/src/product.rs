//! The product family: logical_product, its zipped, tiled and flat rearrangements, and the
//! rank-sensitive blocked_product, raked_product and tile_to_shape.

use crate::complement::Ints;
use crate::complement::{complement_shape, mirror, walks_down, Post};
use crate::composition::compose_coalesced_into;
use crate::divide::{flat, tile_unzip, tiled};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::{self, IntTuple, Tuple};
use crate::layout::{compact_layout, make_ordered_layout, ordered_like, restrided_over_zeros_as_one, Layout};
use crate::modes::compact_strides;
use crate::modes::Nest;
use crate::tiler::{by_mode, Tiler};

/// `logical_product(A, B)`: `B` repeated over copies of `A`:
/// `make_layout(A, composition(complement(A, size(A)*cosize(B)), B))`, by mode for a tiler.
///
/// # Preconditions
/// 1. Those of [`complement`](crate::complement::complement) for `A` and of [`composition`](crate::composition::composition) for the complement with `B`.
/// 2. A by-mode tiler has at most `rank(A)` elements.
///
/// # Postconditions
/// Each multiplied mode is rank 2 (block, product); its first mode is `A`; its second is
/// compatible with `B`; and the copies of `A` do not overlap: `|image(R)| == |image(A)| *
/// |image(B)|` (`tests/cutlass_core.rs`). Where CuTe's complement meets its own @post the
/// product meets these; where it does not (CUTLASS's `((4,6)):((1,6))` by `3:1`: the complement
/// `2:36` falls short of the cotarget 72), the product is judged by them, point by point.
///
/// # Errors
/// As [`composition`](crate::composition::composition) and [`complement`](crate::complement::complement); `RankMismatch` (2);
/// `Postcondition` where copies of `A` overlap (or are too many to check, past 2^22 points).
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe docs
/// let r = logical_product(&"(2,2):(4,1)".parse()?, &"6:1".parse()?)?;
/// assert_eq!(r.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
/// # Ok::<(), Error>(())
/// ```
pub fn logical_product(a: &Layout, b: &Tiler) -> Result<Layout> {
    crate::twin::truthful!("logical_product", logical_product_impl(a, b))
}

fn logical_product_impl(a: &Layout, b: &Tiler) -> Result<Layout> {
    by_mode(a, b, "logical_product", false, &product_into)
}

/// `(A, complement(A, size(A) * cosize(B)) o B)` of (a mode of) A and a layout B, written to
/// `out`.
fn product_into(a: &Nest<'_>, b: &Layout, out: &mut Layout) -> Result<()> {
    // An empty B places no copy of A: cotarget 0, as C++'s cosize (sum of (s-1)*|d|, plus 1)
    // gives for the empty tilers `tile_to_shape` builds (`(0,1):(1,0)`), so that the empty
    // mode keeps C++'s stride.
    let cotarget = if b.size()?.value() == 0 { Int::st(0) } else { a.size()?.checked_mul(b.cosize()?)? };
    let mut rest = Layout::empty();
    // Where CuTe's complement is not the product's (below), the product is judged by its own
    // definition: the complement of `base` taken unchecked, the copies of A checked point by
    // point, `unchecked` the error where they are too many to check.
    let judged = if walks_down(a.pairs) {
        // CuTe's complement computes with negative extents here, and its product is right only
        // where B leaves them no role. Copies of A do not overlap exactly when no difference
        // of two of A's indices is one of the copies' offsets; the differences of A and of its
        // mirror image (strides made positive) are the same set where every stride that moves
        // is negative, so the mirror's complement serves (strides of both signs: the check).
        let unchecked = Error::InvalidArgument {
            op: "logical_product",
            reason: alloc::format!(
                "{} has negative strides and the product is too large to check point by point",
                crate::print::to_values(&a.to_layout())
            ),
        };
        Some((mirror(&a.to_layout())?, unchecked))
    } else {
        match complement_shape(a, &[cotarget], &mut rest, Post::Checked) {
            Ok(()) => None,
            // CuTe's complement breaks its @post: the product is judged by its own.
            Err(e @ Error::Postcondition { .. }) => Some((a.to_layout(), e)),
            Err(e) => return Err(e),
        }
    };
    if let Some((base, unchecked)) = judged {
        rest = Layout::empty();
        complement_shape(&base.nest(), &[cotarget], &mut rest, Post::Unchecked)?;
        check_no_overlap(&a.to_layout(), &crate::composition(&rest, &Tiler::Layout(b.clone()))?, b, unchecked)?;
    }
    out.open().put(*a);
    // The complement is coalesced already.
    compose_coalesced_into(&rest.nest(), Some(rest.pairs()), b, out)?;
    out.close();
    Ok(())
}

/// The largest product whose overlap is checked point by point.
const CHECKED_POINTS: i64 = 1 << 22;

/// A product's copies of `A` do not overlap (`post::check_no_overlap` on `(A, S)`, `S =
/// complement o B`); `unchecked` is the complement's error, kept where the product is too large
/// to check.
fn check_no_overlap(a: &Layout, second: &Layout, b: &Layout, unchecked: Error) -> Result<()> {
    let (na, nb, n) = (a.size()?.value(), second.size()?.value(), b.size()?.value());
    // Each image is built (an empty second mode must not let a huge A through).
    let too_many = |x: i64| x > CHECKED_POINTS;
    if too_many(na) || too_many(nb) || too_many(n) || na.checked_mul(nb).is_none_or(too_many) {
        return Err(unchecked);
    }
    crate::post::check_no_overlap(&crate::layout::make_layout(&[a.clone(), second.clone()]), a, b)
}

/// `zipped_product(A, B)`: `((block), (product))`.
///
/// # Errors
/// As [`logical_product`].
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// let r = zipped_product(&"(2,5):(5,1)".parse()?, &"(3,4):(1,3)".parse()?)?;
/// assert_eq!(r.to_string(), "((2,5),(3,4)):((5,1),(10,30))");
/// # Ok::<(), Error>(())
/// ```
pub fn zipped_product(a: &Layout, b: &Tiler) -> Result<Layout> {
    crate::twin::truthful!("zipped_product", zipped_product_impl(a, b))
}

fn zipped_product_impl(a: &Layout, b: &Tiler) -> Result<Layout> {
    tile_unzip(&logical_product(a, b)?, b)
}

/// `tiled_product(A, B)`: `((block), product0, product1, ...)`.
///
/// # Errors
/// As [`logical_product`].
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// let r = tiled_product(&"(2,5):(5,1)".parse()?, &"(3,4):(1,3)".parse()?)?;
/// assert_eq!(r.to_string(), "((2,5),3,4):((5,1),10,30)");
/// # Ok::<(), Error>(())
/// ```
pub fn tiled_product(a: &Layout, b: &Tiler) -> Result<Layout> {
    crate::twin::truthful!("tiled_product", tiled_product_impl(a, b))
}

fn tiled_product_impl(a: &Layout, b: &Tiler) -> Result<Layout> {
    tiled(&zipped_product(a, b)?)
}

/// `flat_product(A, B)`: `(block0, block1, ..., product0, product1, ...)`.
///
/// # Errors
/// As [`logical_product`].
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// let r = flat_product(&"(2,5):(5,1)".parse()?, &"(3,4):(1,3)".parse()?)?;
/// assert_eq!(r.to_string(), "(2,5,3,4):(5,1,10,30)");
/// # Ok::<(), Error>(())
/// ```
pub fn flat_product(a: &Layout, b: &Tiler) -> Result<Layout> {
    crate::twin::truthful!("flat_product", flat_product_impl(a, b))
}

fn flat_product_impl(a: &Layout, b: &Tiler) -> Result<Layout> {
    flat(&zipped_product(a, b)?)
}

/// `append<r>(l)`, written to `slot` (the caller pads only a layout of another rank: padding
/// changes nothing at rank `r`, and returning a padded copy would copy some 600 bytes).
#[inline(never)]
fn padded<'a>(l: &Layout, r: usize, slot: &'a mut Option<Layout>) -> Result<&'a Layout> {
    Ok(slot.insert(l.append_to(r)?))
}

/// Pad both layouts to the larger rank with `1:0`, take the logical product, and zip the
/// block and product modes in the given order.
fn rank_product(block: &Layout, tiler: &Layout, block_first: bool) -> Result<Layout> {
    let (rb, rt) = (block.rank(), tiler.rank());
    let r = rb.max(rt);
    let (mut block_slot, mut tiler_slot) = (None, None);
    let block = if rb == r { block } else { padded(block, r, &mut block_slot)? };
    let tiler = if rt == r { tiler } else { padded(tiler, r, &mut tiler_slot)? };
    let mut p = Layout::empty();
    product_into(&block.nest(), tiler, &mut p)?;
    let mut modes = p.nest().modes();
    let (Some(first), Some(second)) = (modes.next(), modes.next()) else {
        return Err(Error::IndexOutOfRange { op: "get", index: 1, rank: p.rank() });
    };
    let (x, y) = if block_first { (first, second) } else { (second, first) };
    zip_modes(x, y)
}

/// `zip` of two layouts: `((x0,y0),(x1,y1),...)`; a leaf `x` gives `((x,y))`.
///
/// # Errors
/// `RankMismatch` when `x` is a tuple and `y` not one of the same rank; `InvalidArgument` past
/// [`crate::int_tuple::MAX_DEPTH`] levels, as [`Layout::new`].
fn zip_modes(x: Nest<'_>, y: Nest<'_>) -> Result<Layout> {
    Layout::build(|out| {
        out.open();
        if x.leaf().is_some() {
            out.open().put(x).put(y).close();
        } else {
            let mismatch =
                || Error::RankMismatch { op: "zip", expected: alloc::format!("{}", x.rank()), found: y.rank() };
            if y.leaf().is_some() {
                return Err(mismatch());
            }
            // The ranks are compared as the modes are zipped (counting them first walks
            // both codes twice more).
            let (mut xs, mut ys) = (x.modes(), y.modes());
            loop {
                match (xs.next(), ys.next()) {
                    (Some(a), Some(b)) => {
                        out.open().put(a).put(b).close();
                    }
                    (None, None) => break,
                    _ => return Err(mismatch()),
                }
            }
        }
        out.close();
        if out.deeper_than(crate::int_tuple::MAX_DEPTH) {
            return Err(Error::InvalidArgument {
                op: "make_layout",
                reason: alloc::format!("nesting deeper than {} levels", crate::int_tuple::MAX_DEPTH),
            });
        }
        Ok(())
    })
}

/// `blocked_product(A, B)`: every element of `B` is a block `A`; mode i is `(A_i, B_i)`.
///
/// # Postconditions
/// `rank(R) == max(rank(A), rank(B))`.
///
/// # Errors
/// As [`logical_product`].
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe docs
/// let r = blocked_product(&"(2,5):(5,1)".parse()?, &"(3,4):(1,3)".parse()?)?;
/// assert_eq!(r.to_string(), "((2,3),(5,4)):((5,10),(1,30))");
/// # Ok::<(), Error>(())
/// ```
pub fn blocked_product(a: &Layout, b: &Layout) -> Result<Layout> {
    crate::twin::truthful!("blocked_product", blocked_product_impl(a, b))
}

fn blocked_product_impl(a: &Layout, b: &Layout) -> Result<Layout> {
    rank_product(a, b, true)
}

/// `raked_product(A, B)`: the blocks of [`blocked_product`] interleaved; mode i is `(B_i, A_i)`.
///
/// # Errors
/// As [`logical_product`].
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe docs
/// let r = raked_product(&"(2,5):(5,1)".parse()?, &"(3,4):(1,3)".parse()?)?;
/// assert_eq!(r.to_string(), "((3,2),(4,5)):((10,5),(30,1))");
/// # Ok::<(), Error>(())
/// ```
pub fn raked_product(a: &Layout, b: &Layout) -> Result<Layout> {
    crate::twin::truthful!("raked_product", raked_product_impl(a, b))
}

fn raked_product_impl(a: &Layout, b: &Layout) -> Result<Layout> {
    rank_product(a, b, false)
}

/// `tile_to_shape(block, shape, order)`: repeat `block` (by a [`blocked_product`]) until it
/// covers `shape`, visiting the repeats in `order` (column-major when `None`).
///
/// # Preconditions
/// 1. `rank(block) <= rank(shape)`.
/// 2. Each mode of the block's shape divides the same mode of `shape`.
///
/// # Errors
/// `RankMismatch` (1), `ShapeDivisibility` (2), and those of [`blocked_product`].
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// let r = tile_to_shape(&"(2,2):(1,2)".parse()?, &"(4,6)".parse()?, None)?;
/// assert_eq!(r.to_string(), "((2,2),(2,3)):((1,4),(2,8))");
/// # Ok::<(), Error>(())
/// ```
pub fn tile_to_shape(block: &Layout, shape: &IntTuple, order: Option<&IntTuple>) -> Result<Layout> {
    crate::twin::truthful(
        "tile_to_shape",
        &[block, shape],
        || tile_to_shape_impl(block, shape, order),
        || tile_to_shape_impl(&block.to_static(), &shape.to_static(), order.map(IntTuple::to_static).as_ref()),
    )
}

fn tile_to_shape_impl(block: &Layout, shape: &IntTuple, order: Option<&IntTuple>) -> Result<Layout> {
    crate::layout::check_shape("tile_to_shape", shape)?;
    let r = shape.rank();
    // Precondition 1
    if block.rank() > r {
        return Err(Error::RankMismatch {
            op: "tile_to_shape",
            expected: alloc::format!("at most rank {r}"),
            found: block.rank(),
        });
    }
    // The target's size first: an overflow in what follows is then the tiled layout's.
    int_tuple::product(shape).map_err(|_| Error::InvalidArgument {
        op: "tile_to_shape",
        reason: alloc::format!("the target shape {shape} has more elements than an i64 counts (2^63 - 1)"),
    })?;
    let padded = block.append_to(r)?;
    // product_each of the block and of the shape, flat (one product per mode).
    let (mut block_shape, mut target_shape) = (Ints::new(), Ints::new());
    for m in padded.nest().modes() {
        block_shape.push(m.product()?);
    }
    match shape {
        Tuple::Leaf(x) => target_shape.push(*x),
        Tuple::Node(v) => {
            for m in v {
                target_shape.push(int_tuple::product(m)?);
            }
        }
    }
    // Precondition 2
    for (t, b) in target_shape.iter().zip(block_shape.iter()) {
        if t.value().checked_rem(b.value()) != Some(0) {
            return Err(Error::ShapeDivisibility { op: "tile_to_shape", shape: t.value(), divisor: b.value() });
        }
    }
    let mut product_shape = Ints::new();
    for (t, b) in target_shape.iter().zip(block_shape.iter()) {
        product_shape.push(t.ceil_div(*b)?);
    }
    let overflow = |e: Error| match e {
        Error::Overflow { .. } => Error::InvalidArgument {
            op: "tile_to_shape",
            reason: alloc::format!("{block} tiled to {shape}: the tiled layout's indices overflow an i64"),
        },
        e => e,
    };
    let ordered = match order {
        Some(o) => {
            // The order ranks the target's modes: one integer per mode (C++ orders the shape of
            // tiles, which the caller never wrote; the error names what they did write).
            let flat = matches!(o, Tuple::Node(v) if v.len() == r && v.iter().all(|x| !x.is_tuple()))
                || (r == 1 && !o.is_tuple());
            if !flat {
                return Err(Error::InvalidArgument {
                    op: "tile_to_shape",
                    reason: alloc::format!(
                        "the order {o} does not rank the {r} modes of the target shape {shape}: it takes one integer per mode"
                    ),
                });
            }
            make_ordered_layout(&Tuple::Node(product_shape.iter().map(|&x| Tuple::Leaf(x)).collect()), o)
                .map_err(overflow)?
        }
        // A leaf count is a rank-1 layout, as C++'s make_ordered_layout gives.
        None => compact_layout(true, |out| {
            out.open();
            product_shape.iter().for_each(|&x| {
                out.put_leaf((x, Int::st(0)));
            });
            out.close();
        })
        .map_err(overflow)?,
    };
    blocked_product(&padded, &ordered).map_err(overflow)
}

/// `make_fragment_like(L)` (CuTe C++ `layout.hpp`): a compact layout of `L`'s shape for a
/// register fragment, whose first mode (a vector) keeps `L`'s stride order where `L`'s shape
/// is static and of rank > 1: `tiled_product(get<0>(shape):compact(filter_zeros(mode 0)),
/// make_ordered_layout(rest of the shape, rest of the strides))`; otherwise `make_layout(shape)`.
///
/// # Errors
/// Those of the operations it is built on.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe C++ 4.2's answers: the first mode compact, the rest ordered by the strides.
/// assert_eq!(make_fragment_like(&"((2,2),4):((1,8),16)".parse()?)?.to_string(), "((2,2),(4)):((1,2),(4))");
/// assert_eq!(make_fragment_like(&"(4,8):(8,1)".parse()?)?.to_string(), "(4,(8)):(1,(4))");
/// assert_eq!(make_fragment_like(&"(4,?):(?,1)".parse()?)?.to_styled(Style::Dsl), "(4,?):(1,4)");
/// # Ok::<(), Error>(())
/// ```
pub fn make_fragment_like(l: &Layout) -> Result<Layout> {
    let r = l.rank();
    if r <= 1 || !l.pairs().iter().all(|(s, _)| s.is_static()) {
        // make_layout_left(shape(l)), written from l's own shape.
        return Layout::build(|out| {
            out.copy_from(l);
            compact_strides(&mut out.pairs, Int::st(1), true)
        });
    }
    // Mode 0 compact (over filter_zeros' shape, with its own), the rest ordered by its strides.
    let first = restrided_over_zeros_as_one(&l.get(0)?, |pairs| compact_strides(pairs, Int::st(1), true))?;
    let ordered = ordered_like(&l.take(1, r)?)?;
    tiled_product(&first, &Tiler::Layout(ordered))
}
