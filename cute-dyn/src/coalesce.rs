//! coalesce, filter, filter_zeros: simplifications that keep the layout function.

use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::{IntTuple, Tuple};
use crate::layout::Layout;
use crate::modes::{zero_stride_as_one, Pairs};

/// CuTe's `bw_coalesce`, walked front to back. CuTe walks the flat modes from the back,
/// merging each mode `s:d` into the front `s1:d1` of what it has built when `s * d == d1`;
/// whether two neighbours merge does not depend on the direction of the walk (a merged run
/// `s:d` meets its next neighbour exactly as its last mode does: its `size * d` is that mode's
/// `s * d`), so walking forward gives the same modes, already in order. With `s0:d0` the mode
/// being grown (the last one kept):
///
/// | `s0:d0` | next mode `s:d` | action |
/// |---|---|---|
/// | any | `_1:d` (static 1) | skip the mode |
/// | static | static, `d == s0 * d0` | merge: `s0:d0` becomes `s0*s:d0` |
/// | otherwise | | write `s0:d0` out, grow `s:d` |
///
/// At the end, nothing kept is `_1:_0`. With [`Decide::Static`] every decision is
/// taken only on static values (the CuTe DSL's rule: a dynamic shape with a static-0 stride
/// is not merged, although C++ would fold `x * _0` to `_0`), so a dynamic size-1 mode or a
/// dynamic stride match keeps its mode; [`Decide::Values`] decides on the run-time values.
///
/// The modes are taken one at a time ([`Coalescer::push`]) and appended to `out` (after what it
/// holds: a caller writing a layout coalesces into it in place). The mode being grown is kept
/// in the coalescer and each mode is written once: a mode read back or moved right after it was
/// written (as CuTe's reversal of the modes built from the back would) stalls on store
/// forwarding (measured). (Complement's modes fed to it as they are computed, instead of
/// coalesced from a list, measured 3% slower: the list stays.)
struct Coalescer {
    decide: Decide,
    /// Whether a mode is being grown (`s0:d0`); until then they hold `_1:_0`, the answer when
    /// nothing is kept.
    grown: bool,
    s0: Int,
    d0: Int,
}

impl Coalescer {
    #[inline(always)]
    fn new(decide: Decide) -> Coalescer {
        Coalescer { decide, grown: false, s0: Int::st(1), d0: Int::st(0) }
    }

    /// The next mode: skipped, merged into the one being grown, or grown in its place (which
    /// is then written to `out`).
    #[inline(always)]
    fn push(&mut self, (s, d): (Int, Int), out: &mut Pairs) -> Result<()> {
        let decide = self.decide;
        if decide.is(s, 1) {
            return Ok(());
        }
        let (s0, d0) = (self.s0, self.d0);
        // The checks CuTe's walk from the back makes for these two neighbours, in its order
        // (so the same products are computed, and can overflow).
        if self.grown && decide.known(s) && decide.known(s0) && decide.known(d0) && decide.equal(s0.checked_mul(d0)?, d)
        {
            self.s0 = s0.checked_mul(s)?;
            return Ok(());
        }
        if self.grown {
            out.push((s0, d0));
        }
        (self.grown, self.s0, self.d0) = (true, s, d);
        Ok(())
    }

    /// The mode being grown, written to `out` (`_1:_0` if nothing was kept).
    #[inline(always)]
    fn finish(self, out: &mut Pairs) {
        out.push((self.s0, self.d0));
    }
}

/// [`Coalescer`] over the flat modes `init` then `last` (`coalesce_x` reads a trailing `_1` as
/// 2), each read through `view` (`filter` reads its input through `filter_zeros` this way,
/// without a copy of it).
#[inline(always)]
fn bw_coalesce(
    init: &[(Int, Int)],
    last: (Int, Int),
    decide: Decide,
    view: impl Fn((Int, Int)) -> (Int, Int),
    out: &mut Pairs,
) -> Result<()> {
    if init.is_empty() {
        // One mode, the walk below taken once: kept unless it is a size-1 mode (`_1:_0`).
        let (s, d) = view(last);
        out.push(if decide.is(s, 1) { (Int::st(1), Int::st(0)) } else { (s, d) });
        return Ok(());
    }
    let mut c = Coalescer::new(decide);
    for &m in init {
        c.push(view(m), out)?;
    }
    c.push(view(last), out)?;
    c.finish(out);
    Ok(())
}

/// On what a value-dependent decision is taken.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Decide {
    /// Only on static values (CuTe C++ and the CuTe DSL).
    Static,
    /// On the run-time values (a fallback that only the runtime crate can take).
    Values,
}

impl Decide {
    fn known(self, x: Int) -> bool {
        self == Decide::Values || x.is_static()
    }
    fn is(self, x: Int, v: i64) -> bool {
        self.known(x) && x.value() == v
    }
    fn equal(self, a: Int, b: Int) -> bool {
        self.known(a) && self.known(b) && a.value() == b.value()
    }
}

/// `coalesce(L)`: flatten and merge modes that are contiguous, dropping static size-1 modes.
///
/// # Postconditions
/// `size(R) == size(L)`, `depth(R) <= 1`, and `R(i) == L(i)` for `0 <= i < size(L)`.
///
/// # Errors
/// `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe docs
/// assert_eq!(coalesce(&"(2,(1,6)):(1,(6,2))".parse()?)?.to_string(), "12:1");
/// assert_eq!(coalesce(&"((2,(3,4)),(3,2),1):((4,(8,24)),(2,6),12)".parse()?)?.to_string(), "(24,6):(4,2)");
/// // CuTe DSL: the size-1 mode is static, so it is dropped whatever its dynamic stride.
/// assert_eq!(coalesce(&"(2,(1,6)):(1,({6},2))".parse()?)?.to_string(), "12:1");
/// # Ok::<(), Error>(())
/// ```
pub fn coalesce(l: &Layout) -> Result<Layout> {
    coalesce_pairs(l.pairs())
}

/// [`coalesce`] of the flat layout with these `(shape, stride)` modes.
pub(crate) fn coalesce_pairs(flat: &[(Int, Int)]) -> Result<Layout> {
    Layout::build(|out| {
        coalesced_pairs(flat, &mut out.pairs)?;
        out.close_flat();
        Ok(())
    })
}

/// The flat modes of [`coalesce_pairs`]' layout, without building it (one mode: a leaf),
/// appended to `out`.
pub(crate) fn coalesced_pairs(flat: &[(Int, Int)], out: &mut Pairs) -> Result<()> {
    coalesced_view(flat, |m| m, out)
}

/// [`coalesced_pairs`] of the modes as `view` shows them.
fn coalesced_view(flat: &[(Int, Int)], view: impl Fn((Int, Int)) -> (Int, Int), out: &mut Pairs) -> Result<()> {
    match flat.split_last() {
        None => bw_coalesce(&[], (Int::st(1), Int::st(0)), Decide::Static, view, out),
        Some((&last, rest)) => bw_coalesce(rest, last, Decide::Static, view, out),
    }
}

/// `detail::coalesce_x`: like [`coalesce`] but the function is also kept *outside* the
/// domain: a trailing static size-1 mode is treated as size 2, so its stride survives (the
/// left operand of a composition may be read past its size). The flat modes (one mode: the
/// layout is a leaf), as composition reads them.
///
/// Inlined where it is called, each call with its rule a constant: the walk's checks on the rule
/// fold away (composition, the hottest caller, passes one).
#[inline(always)]
pub(crate) fn coalesce_x(flat: &[(Int, Int)], decide: Decide, out: &mut Pairs) -> Result<()> {
    match flat.split_last() {
        None => bw_coalesce(&[], (Int::st(1), Int::st(0)), decide, |m| m, out),
        Some((&(s, d), rest)) if decide.is(s, 1) => bw_coalesce(rest, (Int::st(2), d), decide, |m| m, out),
        Some((&last, rest)) => bw_coalesce(rest, last, decide, |m| m, out),
    }
}

/// Apply `f` at the terminals of a by-mode profile: a tuple profile recurses into the first
/// `rank(profile)` modes (the others are kept as they are, the result is a tuple), any leaf
/// applies `f` to the whole (sub-)layout.
pub(crate) fn by_profile(
    l: &Layout,
    profile: &IntTuple,
    op: &'static str,
    f: &dyn Fn(&Layout) -> Result<Layout>,
) -> Result<Layout> {
    match profile {
        Tuple::Leaf(_) => f(l),
        Tuple::Node(pv) => {
            let rank = l.rank();
            // Precondition: the profile has at most rank(L) modes.
            if pv.len() > rank {
                return Err(Error::RankMismatch {
                    op,
                    expected: alloc::format!("at most rank {rank}"),
                    found: pv.len(),
                });
            }
            Layout::build(|out| {
                out.open();
                for (i, m) in l.nest().modes().enumerate() {
                    match pv.get(i) {
                        Some(p) => out.put(by_profile(&m.to_layout(), p, op, f)?.nest()),
                        None => out.put(m),
                    };
                }
                out.close();
                Ok(())
            })
        }
    }
}

/// `coalesce(L, profile)`: coalesce each mode at the terminals of `profile` separately, keeping
/// the rank (the integer values in the profile are ignored).
///
/// # Preconditions
/// 1. At every tuple level, `rank(profile) <= rank(L)`.
///
/// # Errors
/// `RankMismatch` (1), `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe docs: by-mode coalesce
/// let l: Layout = "(2,(1,6)):(1,(6,2))".parse()?;
/// assert_eq!(coalesce_by(&l, &"(1,1)".parse()?)?.to_string(), "(2,6):(1,2)");
/// assert_eq!(coalesce_by(&l, &"(1,(2,3))".parse()?)?.to_string(), "(2,(1,6)):(1,(0,2))");
/// # Ok::<(), Error>(())
/// ```
pub fn coalesce_by(l: &Layout, profile: &IntTuple) -> Result<Layout> {
    crate::twin::truthful!("coalesce_by", coalesce_by_impl(l, profile))
}

fn coalesce_by_impl(l: &Layout, profile: &IntTuple) -> Result<Layout> {
    by_profile(l, profile, "coalesce", &coalesce)
}

/// `filter_zeros(L)`: replace the shape of every static stride-0 mode by `_1`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(filter_zeros(&"(3,(2,4)):(0,(1,2))".parse()?).to_string(), "(1,(2,4)):(0,(1,2))");
/// # Ok::<(), Error>(())
/// ```
pub fn filter_zeros(l: &Layout) -> Layout {
    l.map_pairs(zero_stride_as_one)
}

/// `filter(L)`: drop every static stride-0 and static size-1 mode and coalesce (`1:0` if nothing
/// is left).
///
/// # Postconditions
/// `depth(R) <= 1`; `R` is injective when `L` is injective on its non-zero-stride modes.
///
/// # Errors
/// `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(filter(&"(3,(2,4)):(0,(1,2))".parse()?)?.to_string(), "8:1");
/// # Ok::<(), Error>(())
/// ```
pub fn filter(l: &Layout) -> Result<Layout> {
    Layout::build(|out| {
        filter_pairs(l.pairs(), &mut out.pairs)?;
        out.close_flat();
        Ok(())
    })
}

/// The flat modes of [`filter`]'s layout, without building it, appended to `out`.
pub(crate) fn filter_pairs(flat: &[(Int, Int)], out: &mut Pairs) -> Result<()> {
    // filter_zeros on the flat modes, as they are read: no tree is rebuilt, nothing copied.
    coalesced_view(flat, zero_stride_as_one, out)
}

/// `filter(L, profile)`: [`filter`] at the terminals of `profile`.
///
/// # Errors
/// `RankMismatch`, `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(filter_by(&"(3,(2,4)):(0,(1,2))".parse()?, &"(1,1)".parse()?)?.to_string(), "(1,8):(0,1)");
/// # Ok::<(), Error>(())
/// ```
pub fn filter_by(l: &Layout, profile: &IntTuple) -> Result<Layout> {
    crate::twin::truthful!("filter_by", filter_by_impl(l, profile))
}

fn filter_by_impl(l: &Layout, profile: &IntTuple) -> Result<Layout> {
    by_profile(l, profile, "filter", &filter)
}
