//! Tilers, the right-hand sides of composition, the divides and the products, and the
//! by-mode rule they share: element i of `<t0,t1,...>` applies to mode i.

use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::{IntTuple, Tuple};
use crate::layout::Layout;
use crate::modes::Nest;

/// The right-hand side of composition, the divides and the products.
///
/// Written `<3:4,(2,4):(1,8)>` for a by-mode tiler; inside `<>` a bare `n` is the layout `n:1`
/// and `_` keeps the mode.
// A layout is kept inline on purpose: boxing it would put every tiler on the heap.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Tiler {
    /// One layout (composition distributes over its top-level modes).
    Layout(Layout),
    /// A bare integer `n`: the layout `n:_1`.
    Int(Int),
    /// `_`: leave the mode as it is.
    Under,
    /// `<t0,t1,...>`: element i applies to mode i.
    ByMode(Vec<Tiler>),
}

impl From<Layout> for Tiler {
    fn from(l: Layout) -> Tiler {
        Tiler::Layout(l)
    }
}

impl Tiler {
    /// A by-mode shape tiler `<s0,s1,...>` from a shape (CuTe's `make_tile(shape)`).
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// assert_eq!(Tiler::from_shape(&"(3,8)".parse()?).to_string(), "<3,8>");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn from_shape(shape: &IntTuple) -> Tiler {
        match shape {
            Tuple::Leaf(s) => Tiler::Int(*s),
            Tuple::Node(v) => Tiler::ByMode(v.iter().map(Tiler::from_shape).collect()),
        }
    }
}

impl Tiler {
    /// `dice(proj, tiler)` (CuTe's projection of a tiler, `Step<_1,X,_1>`): the elements
    /// paired with an integer in `proj` kept, those paired with `_` (C++'s `X`) dropped.
    ///
    /// # Errors
    /// `RankMismatch` where `proj` does not fit the tiler.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// let t: Tiler = "<32,64,4>".parse()?;
    /// assert_eq!(t.dice(&"(1,_,1)".parse()?)?.to_string(), "<32,4>");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn dice(&self, proj: &crate::Coord) -> Result<Tiler> {
        match (self, proj) {
            (_, Tuple::Leaf(Some(_))) => Ok(self.clone()),
            (Tiler::Layout(l), _) => Ok(Tiler::Layout(l.dice(proj)?)),
            (Tiler::ByMode(v), Tuple::Node(p)) if v.len() == p.len() => {
                let kept = v.iter().zip(p).filter(|(_, p)| !matches!(p, Tuple::Leaf(None)));
                Ok(Tiler::ByMode(kept.map(|(t, p)| t.dice(p)).collect::<Result<_>>()?))
            }
            _ => Err(Error::RankMismatch {
                op: "dice",
                expected: alloc::format!("a projection of the tiler {self}"),
                found: proj.rank(),
            }),
        }
    }
}

/// Apply a binary layout operation by mode: element i of a by-mode tiler applies to mode i of
/// `l`; `_` keeps the mode; the modes of `l` past the tiler are kept (`drop_rest == false`,
/// the divides and products) or dropped (`drop_rest == true`, composition in C++ 4.2).
/// An integer element `n` is `n:_1` for composition and `make_layout(n)` for the others.
///
/// # Preconditions
/// 1. A by-mode tiler has at most `rank(l)` elements.
pub(crate) fn by_mode(
    l: &Layout,
    t: &Tiler,
    op: &'static str,
    drop_rest: bool,
    leaf: &impl Fn(&Nest<'_>, &Layout, &mut Layout) -> Result<()>,
) -> Result<Layout> {
    Layout::build(|out| by_mode_into(&l.nest(), t, op, drop_rest, leaf, out))
}

/// [`by_mode`] of a (sub-)layout, written to `out`.
fn by_mode_into(
    l: &Nest<'_>,
    t: &Tiler,
    op: &'static str,
    drop_rest: bool,
    leaf: &impl Fn(&Nest<'_>, &Layout, &mut Layout) -> Result<()>,
    out: &mut Layout,
) -> Result<()> {
    match t {
        Tiler::Layout(b) => leaf(l, b, out),
        // composition reads `n` as `n:_1`; the divides and products as `make_layout(n)`
        // (whose static size-1 mode has stride `_0`).
        Tiler::Int(n) if n.value() < 0 => {
            Err(Error::InvalidArgument { op, reason: alloc::format!("negative tiler {n} (a shape)") })
        }
        Tiler::Int(n) if drop_rest => leaf(l, &Layout::leaf(*n, Int::st(1)), out),
        Tiler::Int(n) => leaf(l, &crate::layout::make_layout_left(&Tuple::Leaf(*n))?, out),
        Tiler::Under => {
            out.put(*l);
            Ok(())
        }
        Tiler::ByMode(v) => {
            by_modes(l, v.len(), op, drop_rest, out, |i, m, out| by_mode_into(&m, &v[i], op, drop_rest, leaf, out))
        }
    }
}

/// The by-mode walk of [`by_mode_into`] for a tiler of `len` elements: `each(i, mode i, out)`
/// for the first `len` modes, the others kept or dropped.
fn by_modes(
    l: &Nest<'_>,
    len: usize,
    op: &'static str,
    drop_rest: bool,
    out: &mut Layout,
    each: impl Fn(usize, Nest<'_>, &mut Layout) -> Result<()>,
) -> Result<()> {
    let rank = l.rank();
    // Precondition 1
    if len > rank {
        return Err(Error::RankMismatch { op, expected: alloc::format!("a tiler of at most rank {rank}"), found: len });
    }
    out.open();
    for (i, m) in l.modes().enumerate() {
        if i < len {
            each(i, m, out)?;
        } else if drop_rest {
            break;
        } else {
            out.put(m);
        }
    }
    out.close();
    Ok(())
}

/// [`by_mode`] by the by-mode tiler of integers `<n0,n1,...>`, read from `extents` (not built).
pub(crate) fn by_mode_extents(
    l: &Layout,
    extents: &[Int],
    op: &'static str,
    drop_rest: bool,
    leaf: &impl Fn(&Nest<'_>, &Layout, &mut Layout) -> Result<()>,
) -> Result<Layout> {
    Layout::build(|out| {
        by_modes(&l.nest(), extents.len(), op, drop_rest, out, |i, m, out| {
            by_mode_into(&m, &Tiler::Int(extents[i]), op, drop_rest, leaf, out)
        })
    })
}
