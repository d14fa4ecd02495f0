//! The divide family: logical_divide and its zipped, tiled and flat rearrangements.

use crate::coalesce::coalesced_pairs;
use crate::complement::{complement_shape, Ints, Post};
use crate::composition::compose_coalesced_into;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::layout::Layout;
use crate::modes::{Nest, Pairs};
use crate::tiler::{by_mode, by_mode_extents, Tiler};

/// `logical_divide(A, B)`: `A` split into (tile, rest) by `B`:
/// `composition(A, make_layout(B, complement(B, shape(coalesce(A)))))`, by mode for a tiler
/// (`_` keeps a mode, `n` is `make_layout(n)`, modes past the tiler are kept).
///
/// # Preconditions
/// 1. Those of [`complement`](crate::complement::complement) for `B` and of [`composition`](crate::composition::composition) for `A` with the result.
/// 2. A by-mode tiler has at most `rank(A)` elements.
///
/// # Postconditions
/// Each divided mode is rank 2 (tile, rest); its first mode is `A ∘ B`.
///
/// # Errors
/// As [`composition`](crate::composition::composition) and [`complement`](crate::complement::complement); `RankMismatch` (2).
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe docs
/// let r = logical_divide(&"(4,2,3):(2,1,8)".parse()?, &"4:2".parse()?)?;
/// assert_eq!(r.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
/// let r = logical_divide(&"(9,(4,8)):(59,(13,1))".parse()?, &"<3:3,(2,4):(1,8)>".parse()?)?;
/// assert_eq!(r.to_string(), "((3,3),((2,4),(2,2))):((177,59),((13,2),(26,1)))");
/// # Ok::<(), Error>(())
/// ```
pub fn logical_divide(a: &Layout, b: &Tiler) -> Result<Layout> {
    crate::twin::truthful!("logical_divide", logical_divide_impl(a, b))
}

fn logical_divide_impl(a: &Layout, b: &Tiler) -> Result<Layout> {
    by_mode(a, b, "logical_divide", false, &divide_into)
}

/// `logical_divide` of (a mode of) A by a layout B, written to `out`.
fn divide_into(a: &Nest<'_>, b: &Layout, out: &mut Layout) -> Result<()> {
    let (mut coalesced, mut shape) = (Pairs::new(), Ints::new());
    coalesced_pairs(a.pairs, &mut coalesced)?;
    coalesced.iter().for_each(|p| shape.push(p.0));
    // make_layout(B, complement(B, shape(coalesce(A)))), written in place.
    let mut tiler = Layout::empty();
    tiler.open().put(b.nest());
    complement_shape(&b.nest(), &shape, &mut tiler, Post::Checked)?;
    tiler.close();
    compose_coalesced_into(a, Some(&coalesced), &tiler, out)
}

/// `zipped_divide(A, <n0,n1,...>)` by the integers `extents` (the tiler read, not built), as
/// `local_partition` divides by a thread layout's extents. Without [`zipped_divide`]'s review
/// of refusals on mixed input: a caller falls back to it on an error.
pub(crate) fn zipped_divide_extents(a: &Layout, extents: &[Int]) -> Result<Layout> {
    let divided = by_mode_extents(a, extents, "logical_divide", false, &divide_into)?;
    let l = divided.nest();
    unzip_modes(l, extents.len(), |i, m| unzip(m, &Tiler::Int(extents[i])))
}

/// CuTe's `zip2_by` on a layout: gather the rank-2 modes found at the terminals of the tiler
/// into `((tiles...), (rests..., untouched modes...))`.
///
/// # Preconditions
/// 1. At each terminal of the tiler the layout's mode has rank 2.
pub(crate) fn tile_unzip(l: &Layout, guide: &Tiler) -> Result<Layout> {
    unzip(l.nest(), guide)
}

fn unzip(l: Nest<'_>, guide: &Tiler) -> Result<Layout> {
    let Tiler::ByMode(v) = guide else {
        // Precondition 1
        if l.leaf().is_some() || l.rank() != 2 {
            return Err(Error::RankMismatch {
                op: "zip2_by",
                expected: "a rank-2 (tile, rest) mode".into(),
                found: l.rank(),
            });
        }
        return Ok(l.to_layout());
    };
    unzip_modes(l, v.len(), |i, m| unzip(m, &v[i]))
}

/// The by-mode part of [`unzip`], for a guide of `len` elements: `split(i, mode i)` gives mode
/// i's (tile, rest).
fn unzip_modes(l: Nest<'_>, len: usize, split: impl Fn(usize, Nest<'_>) -> Result<Layout>) -> Result<Layout> {
    let rank = l.rank();
    if len > rank {
        return Err(Error::RankMismatch { op: "zip2_by", expected: alloc::format!("at most {rank}"), found: len });
    }
    Layout::build(|out| {
        let (mut tiles, mut rests) = (Layout::empty(), Layout::empty());
        tiles.open();
        rests.open();
        for (i, m) in l.modes().enumerate() {
            if i < len {
                let split = split(i, m)?;
                let mut parts = split.nest().modes();
                tiles.put(parts.next().expect("rank 2"));
                rests.put(parts.next().expect("rank 2"));
            } else {
                rests.put(m);
            }
        }
        tiles.close();
        rests.close();
        out.open().put(tiles.nest()).put(rests.nest()).close();
        Ok(())
    })
}

/// The modes that `L(_, repeat<R>(_))` keeps of one mode: a rank-1 mode (leaf or `(s)`) stays
/// one mode, any other is spliced into its sub-modes.
fn unpack_into(out: &mut Layout, m: Nest<'_>) {
    if m.rank() == 1 {
        out.put(m);
    } else {
        m.modes().for_each(|x| {
            out.put(x);
        });
    }
}

/// The two modes of a zipped result.
fn zipped_modes(z: &Layout) -> Result<(Nest<'_>, Nest<'_>)> {
    let mut modes = z.nest().modes();
    match (modes.next(), modes.next()) {
        (Some(a), Some(b)) => Ok((a, b)),
        _ => Err(Error::IndexOutOfRange { op: "get", index: 1, rank: z.rank() }),
    }
}

/// `zipped_divide(A, B)`: `((tile), (rest))` of [`logical_divide`], tiles and rests gathered.
///
/// # Errors
/// As [`logical_divide`]; `RankMismatch` when a tiler terminal does not meet a rank-2 mode.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// let r = zipped_divide(&"(9,(4,8)):(59,(13,1))".parse()?, &"<3:3,(2,4):(1,8)>".parse()?)?;
/// assert_eq!(r.to_string(), "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))");
/// # Ok::<(), Error>(())
/// ```
pub fn zipped_divide(a: &Layout, b: &Tiler) -> Result<Layout> {
    crate::twin::truthful!("zipped_divide", zipped_divide_impl(a, b))
}

fn zipped_divide_impl(a: &Layout, b: &Tiler) -> Result<Layout> {
    tile_unzip(&logical_divide(a, b)?, b)
}

/// `tiled_divide(A, B)`: `((tile), rest0, rest1, ...)`.
///
/// # Errors
/// As [`zipped_divide`].
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// let r = tiled_divide(&"(9,(4,8)):(59,(13,1))".parse()?, &"<3:3,(2,4):(1,8)>".parse()?)?;
/// assert_eq!(r.to_string(), "((3,(2,4)),3,(2,2)):((177,(13,2)),59,(26,1))");
/// # Ok::<(), Error>(())
/// ```
pub fn tiled_divide(a: &Layout, b: &Tiler) -> Result<Layout> {
    crate::twin::truthful!("tiled_divide", tiled_divide_impl(a, b))
}

fn tiled_divide_impl(a: &Layout, b: &Tiler) -> Result<Layout> {
    tiled(&zipped_divide(a, b)?)
}

/// `Z(_, repeat<R1>(_))` of a zipped result `Z`: the second mode unpacked.
pub(crate) fn tiled(z: &Layout) -> Result<Layout> {
    let (tile, rest) = zipped_modes(z)?;
    Layout::build(|out| {
        out.open().put(tile);
        unpack_into(out, rest);
        out.close();
        Ok(())
    })
}

/// `Z(repeat<R0>(_), repeat<R1>(_))` of a zipped result `Z`: both modes unpacked.
pub(crate) fn flat(z: &Layout) -> Result<Layout> {
    let (tile, rest) = zipped_modes(z)?;
    Layout::build(|out| {
        out.open();
        unpack_into(out, tile);
        unpack_into(out, rest);
        out.close();
        Ok(())
    })
}

/// `flat_divide(A, B)`: `(tile0, tile1, ..., rest0, rest1, ...)`.
///
/// # Errors
/// As [`zipped_divide`].
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// let r = flat_divide(&"(9,(4,8)):(59,(13,1))".parse()?, &"<3:3,(2,4):(1,8)>".parse()?)?;
/// assert_eq!(r.to_string(), "(3,(2,4),3,(2,2)):(177,(13,2),59,(26,1))");
/// # Ok::<(), Error>(())
/// ```
pub fn flat_divide(a: &Layout, b: &Tiler) -> Result<Layout> {
    crate::twin::truthful!("flat_divide", flat_divide_impl(a, b))
}

fn flat_divide_impl(a: &Layout, b: &Tiler) -> Result<Layout> {
    flat(&zipped_divide(a, b)?)
}
