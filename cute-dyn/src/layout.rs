//! `Layout = shape:stride`, its construction, its queries and its evaluation.
//!
//! A layout is kept flat: its `(shape, stride)` leaf pairs and a code of
//! its nesting, both inline up to 16 leaves, so building, cloning and the algebra on the
//! layouts kernels use never touch the heap. [`Layout::shape`] and [`Layout::stride`] build the
//! [`IntTuple`] trees on demand.

use alloc::string::ToString;
use alloc::vec::Vec;
use core::fmt;

use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::{self, Coord, IntTuple, Tuple};
use crate::modes::{compact_strides, Code, Nest, Pair, Pairs, CLOSE, INLINE_LEAVES, LEAF, OPEN};
use crate::small::Small;

/// A layout: a function from coordinates of `shape` to indices, `crd2idx(c, shape, stride)`.
///
/// Invariant: the code is one well-formed mode (a leaf, or `(` modes `)`) with as many leaf
/// tokens as there are pairs; so shape and stride are congruent by construction.
#[derive(PartialEq, Eq, Hash)]
pub struct Layout {
    pub(crate) code: Code,
    pub(crate) pairs: Pairs,
}

/// A copy of the live leaves and code (no heap for a layout within the inline capacity),
/// written in the caller's slot as the operations write their results.
impl Clone for Layout {
    // Not inlined: a clone inlined into its caller is written to a local and copied from it
    // when the caller's slot escapes (measured); called, it writes the caller's slot.
    #[inline(never)]
    fn clone(&self) -> Layout {
        Layout::written(|out| out.copy_from(self))
    }
}

impl fmt::Debug for Layout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Layout({self})")
    }
}

impl Layout {
    /// `make_layout(shape, stride)`.
    ///
    /// # Preconditions
    /// 1. `shape` and `stride` are congruent.
    /// 2. No shape is negative.
    /// 3. At most [`crate::int_tuple::MAX_DEPTH`] levels of nesting (the algorithms recurse).
    ///
    /// # Errors
    /// `NotCongruent` (1), `InvalidArgument` (2, 3).
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// let l = Layout::new("(2,(1,6))".parse()?, "(1,(6,2))".parse()?)?;
    /// assert_eq!(l.to_string(), "(2,(1,6)):(1,(6,2))");
    /// assert!(Layout::new("(2,3)".parse()?, "1".parse()?).is_err());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn new(shape: IntTuple, stride: IntTuple) -> Result<Layout> {
        // Precondition 3, first: the others recurse.
        if shape.deeper_than(crate::int_tuple::MAX_DEPTH) || stride.deeper_than(crate::int_tuple::MAX_DEPTH) {
            return Err(Error::InvalidArgument {
                op: "make_layout",
                reason: alloc::format!("nesting deeper than {} levels", crate::int_tuple::MAX_DEPTH),
            });
        }
        // Precondition 1
        if !shape.congruent(&stride) {
            return Err(Error::NotCongruent { what: "shape and stride", a: shape.to_string(), b: stride.to_string() });
        }
        // Precondition 2
        check_shape("make_layout", &shape)?;
        Ok(Layout::raw(shape, stride))
    }

    /// Layout from trees already known to be congruent (internal constructions).
    pub(crate) fn raw(shape: IntTuple, stride: IntTuple) -> Layout {
        fn go(s: &IntTuple, d: &IntTuple, b: &mut Layout) {
            match (s, d) {
                (Tuple::Leaf(s), Tuple::Leaf(d)) => {
                    b.put_leaf((*s, *d));
                }
                (Tuple::Node(sv), Tuple::Node(dv)) => {
                    b.open();
                    sv.iter().zip(dv).for_each(|(s, d)| go(s, d, b));
                    b.close();
                }
                _ => unreachable!("shape and stride are congruent"),
            }
        }
        debug_assert!(shape.congruent(&stride));
        Layout::written(|out| go(&shape, &stride, out))
    }

    /// The borrowed flat form, for the algorithms.
    pub(crate) fn nest(&self) -> Nest<'_> {
        Nest { code: &self.code, pairs: &self.pairs }
    }

    /// A leaf layout `s:d`.
    pub fn leaf(s: Int, d: Int) -> Layout {
        Layout::written(|out| {
            out.put_leaf((s, d));
        })
    }

    /// The static `1:0`, CuTe's trivial layout.
    pub fn trivial() -> Layout {
        Layout::leaf(Int::st(1), Int::st(0))
    }

    /// The shape, built as a tree (the layout itself is kept flat).
    pub fn shape(&self) -> IntTuple {
        tree(self.nest(), &|p| p.0)
    }

    /// The stride, built as a tree (the layout itself is kept flat).
    pub fn stride(&self) -> IntTuple {
        tree(self.nest(), &|p| p.1)
    }

    /// `rank`: the number of top-level modes (1 for a leaf layout).
    pub fn rank(&self) -> usize {
        self.nest().rank()
    }

    /// Whether the layout is a tuple of modes (not a single leaf).
    pub fn is_tuple(&self) -> bool {
        self.nest().leaf().is_none()
    }

    /// `depth` of the shape.
    pub fn depth(&self) -> usize {
        let mut depth = 0usize;
        self.code.iter().fold(0usize, |d, &t| match t {
            OPEN => {
                depth = depth.max(d + 1);
                d + 1
            }
            CLOSE => d - 1,
            _ => d,
        });
        depth
    }

    /// Whether the nesting is deeper than `limit`. Each level opens and closes a tuple, so a
    /// code of at most `2 * limit` tokens cannot be: only a longer one is walked.
    pub(crate) fn deeper_than(&self, limit: usize) -> bool {
        self.code.len() > 2 * limit && self.depth() > limit
    }

    /// `size`: the size of the domain, `product(shape)`.
    ///
    /// # Errors
    /// `Overflow`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// assert_eq!("(2,(3,4)):(1,(2,6))".parse::<Layout>()?.size()?.value(), 24);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn size(&self) -> Result<Int> {
        size_of(&self.pairs)
    }

    /// `cosize`: the size of the codomain, `1 + sum((s-1)*|d|)` (C++; uses |stride|). An extent
    /// of 0 counts as 1, as cute-static's `cosize` and its type-level one.
    ///
    /// # Errors
    /// `Overflow`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// assert_eq!("(64,4):(-12,6)".parse::<Layout>()?.cosize()?.value(), 775);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn cosize(&self) -> Result<Int> {
        self.pairs.iter().try_fold(Int::st(1), |acc, &(s, d)| {
            let reach = if s.value() == 0 { s } else { s.checked_sub(Int::st(1))? };
            acc.checked_add(reach.checked_mul(d.abs()?)?)
        })
    }

    /// The flattened `(shape, stride)` leaf pairs.
    pub fn pairs(&self) -> &[(Int, Int)] {
        &self.pairs
    }

    /// Layout a flat layout from leaf pairs: one pair is a leaf layout, otherwise a tuple.
    pub fn from_pairs(pairs: &[(Int, Int)]) -> Layout {
        Layout::written(|out| {
            out.put_pairs(pairs);
        })
    }

    /// `make_layout(L0, L1, ...)` from owned modes.
    pub fn from_modes(modes: Vec<Layout>) -> Layout {
        make_layout(&modes)
    }

    /// `make_layout(L0, L1, ...)` of borrowed modes, without collecting them first.
    pub(crate) fn of_modes<'a>(modes: impl IntoIterator<Item = Nest<'a>>) -> Layout {
        Layout::written(|out| {
            out.open();
            modes.into_iter().for_each(|m| {
                out.put(m);
            });
            out.close();
        })
    }

    /// The modes of the layout as layouts (a leaf layout is its own single mode).
    pub fn modes(&self) -> Vec<Layout> {
        self.nest().modes().map(Nest::to_layout).collect()
    }

    /// `get<i>` / `layout<i>`: mode `i`.
    ///
    /// # Errors
    /// `IndexOutOfRange` when `i >= rank`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// let l: Layout = "(2,(2,2)):(4,(2,1))".parse()?;
    /// assert_eq!(l.get(1)?.to_string(), "(2,2):(2,1)");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn get(&self, i: usize) -> Result<Layout> {
        self.nest().modes().nth(i).map(Nest::to_layout).ok_or_else(|| Error::IndexOutOfRange {
            op: "get",
            index: i as i64,
            rank: self.rank(),
        })
    }

    /// Evaluate at an integer index (`L(i)`): the index is split colexicographically.
    ///
    /// # Errors
    /// `Overflow`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// // CuTe docs: (2,(2,2)):(4,(2,1)) in 1-D order is 0 4 2 6 1 5 3 7
    /// let l: Layout = "(2,(2,2)):(4,(2,1))".parse()?;
    /// let v: Vec<i64> = (0..8).map(|i| l.call(i).unwrap()).collect();
    /// assert_eq!(v, [0, 4, 2, 6, 1, 5, 3, 7]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn call(&self, i: i64) -> Result<i64> {
        Ok(eval(self.nest(), Int::dy(i))?.value())
    }

    /// Evaluate at a hierarchical coordinate (`_` counts as 0).
    ///
    /// # Errors
    /// `RankMismatch` when the coordinate does not fit the shape; `Overflow`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// // CuTe docs: (3,(2,3)):(3,(12,1)) maps (1,(1,2)) to 17
    /// let l: Layout = "(3,(2,3)):(3,(12,1))".parse()?;
    /// assert_eq!(l.call_coord(&"(1,(1,2))".parse()?)?.value(), 17);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn call_coord(&self, c: &Coord) -> Result<Int> {
        crd2idx(c, self.nest())
    }

    /// `get_flat_coord(index)`: the coordinate of `index`, `(index / stride) % shape` at each
    /// leaf (C++'s `get_hier_coord`), each top-level mode's coordinate as a 1-D index within the
    /// mode (an integer for a layout of one leaf).
    ///
    /// # Errors
    /// `InvalidArgument` where the layout does not give `index` back at that coordinate (a
    /// layout that is not compact; C++ goes on with another coordinate); `DivisionByZero`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// // Thread 17 of 2x16 threads laid out row-major is at row 1, column 1.
    /// let l: Layout = "(2,16):(16,1)".parse()?;
    /// assert_eq!(l.flat_coord(Int::st(17))?.to_string(), "(1,1)");
    /// assert_eq!("((2,2),4):((1,8),2)".parse::<Layout>()?.flat_coord(Int::st(11))?.to_string(), "(3,1)");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn flat_coord(&self, index: Int) -> Result<IntTuple> {
        let (shape, stride) = (self.shape(), self.stride());
        let hier = match int_tuple::idx2crd_strided(&Tuple::Leaf(index), &shape, &stride) {
            Err(Error::DivisionByZero { .. }) => {
                let reason = alloc::format!(
                    "{self} has a mode of stride 0 (broadcast threads), by which C++'s coordinate of {index} divides"
                );
                return Err(Error::InvalidArgument { op: "get_flat_coord", reason });
            }
            r => r?,
        };
        if self.call_coord(&hier.map(&mut |x| Some(*x)))?.value() != index.value() {
            let cosize = self.cosize()?;
            let reason = if index.value() < 0 || index.value() >= cosize.value() {
                // Past every index the layout reaches (C++ wraps it around the shape).
                alloc::format!("{index} is outside {self}, whose indices are below its cosize {cosize}")
            } else {
                alloc::format!("{self} does not reach {index} at the coordinate {hier} (not compact)")
            };
            return Err(Error::InvalidArgument { op: "get_flat_coord", reason });
        }
        match (&hier, &shape) {
            (Tuple::Node(hv), Tuple::Node(sv)) => Ok(Tuple::Node(
                hv.iter()
                    .zip(sv)
                    .map(|(c, s)| Ok(Tuple::Leaf(int_tuple::crd2idx_colex(c, s)?)))
                    .collect::<Result<_>>()?,
            )),
            (c, s) => Ok(Tuple::Leaf(int_tuple::crd2idx_colex(c, s)?)),
        }
    }

    /// `slice(c, L)`: the sub-layout over the `_` modes of `c`.
    ///
    /// # Errors
    /// `RankMismatch` when the coordinate does not fit the shape.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// let l: Layout = "((2,3),4):((1,2),6)".parse()?;
    /// assert_eq!(l.slice(&"(_,2)".parse()?)?.to_string(), "((2,3)):((1,2))");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn slice(&self, c: &Coord) -> Result<Layout> {
        self.sliced(c, true)
    }

    /// `slice_and_offset(c, L)`: the slice and the offset `L(c)` of its origin.
    ///
    /// # Errors
    /// As [`Layout::slice`].
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// let l: Layout = "(4,2):(2,1)".parse()?;
    /// let (s, off) = l.slice_and_offset(&"(_,1)".parse()?)?;
    /// assert_eq!((s.to_string(), off.value()), ("(4):(2)".to_string(), 1));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn slice_and_offset(&self, c: &Coord) -> Result<(Layout, Int)> {
        Ok((self.slice(c)?, self.call_coord(c)?))
    }

    /// `dice(c, L)`: the sub-layout over the integer modes of `c`.
    ///
    /// # Errors
    /// `RankMismatch`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// let l: Layout = "((2,3),4):((1,2),6)".parse()?;
    /// assert_eq!(l.dice(&"(_,2)".parse()?)?.to_string(), "(4):(6)");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn dice(&self, c: &Coord) -> Result<Layout> {
        self.sliced(c, false)
    }

    /// [`Layout::slice`] (`keep_under`) or [`Layout::dice`], written flat: CuTe's `slice(c, t)`
    /// is `t` for `_`, `()` for an integer, and for a tuple the tuple of what each mode keeps
    /// ([`lift`]); `dice` swaps the roles of `_` and integers.
    fn sliced(&self, c: &Coord, keep_under: bool) -> Result<Layout> {
        Layout::build(|out| {
            match c {
                Tuple::Leaf(x) if x.is_none() == keep_under => {
                    out.put(self.nest());
                }
                Tuple::Leaf(_) => {
                    out.open().close();
                }
                Tuple::Node(cv) => {
                    out.open();
                    lift_modes(Coords::Tree(cv), cv.len(), self.nest(), keep_under, out)?;
                    out.close();
                }
            }
            Ok(())
        })
    }

    /// `select<I...>(L)`.
    ///
    /// # Errors
    /// `IndexOutOfRange`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// assert_eq!("(2,3,4):(1,2,6)".parse::<Layout>()?.select(&[2, 0])?.to_string(), "(4,2):(6,1)");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn select(&self, idx: &[usize]) -> Result<Layout> {
        let rank = self.rank();
        let mode = |i: usize| {
            self.nest().modes().nth(i).ok_or_else(|| Error::IndexOutOfRange { op: "select", index: i as i64, rank })
        };
        Layout::build(|out| {
            out.open();
            for &i in idx {
                out.put(mode(i)?);
            }
            out.close();
            Ok(())
        })
    }

    /// `take<b,e>(L)`.
    ///
    /// # Errors
    /// `IndexOutOfRange`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// assert_eq!("(2,3,4):(1,2,6)".parse::<Layout>()?.take(1, 3)?.to_string(), "(3,4):(2,6)");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn take(&self, b: usize, e: usize) -> Result<Layout> {
        let rank = self.rank();
        if b > e || e > rank {
            return Err(Error::IndexOutOfRange { op: "take", index: e as i64, rank });
        }
        Ok(Layout::of_modes(self.nest().modes().skip(b).take(e - b)))
    }

    /// `append(L, x)`: `x` as a new last mode.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// assert_eq!("4:1".parse::<Layout>()?.append(&"3:4".parse()?).to_string(), "(4,3):(1,4)");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn append(&self, x: &Layout) -> Layout {
        Layout::of_modes(self.nest().modes().chain([x.nest()]))
    }

    /// `prepend(L, x)`: `x` as a new first mode.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// assert_eq!("(4,3):(1,4)".parse::<Layout>()?.prepend(&"2:12".parse()?).to_string(), "(2,4,3):(12,1,4)");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn prepend(&self, x: &Layout) -> Layout {
        Layout::of_modes([x.nest()].into_iter().chain(self.nest().modes()))
    }

    /// `append<N>(L)`: pad with `1:0` modes up to rank `n` (a leaf stays a leaf for `n == 1`).
    ///
    /// # Errors
    /// `RankMismatch` when `rank > n`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// assert_eq!("(4,3):(1,4)".parse::<Layout>()?.append_to(3)?.to_string(), "(4,3,1):(1,4,0)");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn append_to(&self, n: usize) -> Result<Layout> {
        let rank = self.rank();
        if rank > n {
            return Err(Error::RankMismatch { op: "append", expected: alloc::format!("at most {n}"), found: rank });
        }
        if !self.is_tuple() && n == 1 {
            return Ok(self.clone());
        }
        let pad = Layout::trivial();
        Ok(Layout::of_modes(self.nest().modes().chain(core::iter::repeat_n(pad.nest(), n - rank))))
    }

    /// `replace<i>(L, x)`.
    ///
    /// # Errors
    /// `IndexOutOfRange`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// assert_eq!("(4,3):(1,4)".parse::<Layout>()?.replace(0, &"2:2".parse()?)?.to_string(), "(2,3):(2,4)");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn replace(&self, i: usize, x: &Layout) -> Result<Layout> {
        if !self.is_tuple() && i == 0 {
            return Ok(x.clone());
        }
        let rank = self.rank();
        if i >= rank {
            return Err(Error::IndexOutOfRange { op: "replace", index: i as i64, rank });
        }
        Ok(Layout::of_modes(self.nest().modes().enumerate().map(|(k, m)| if k == i { x.nest() } else { m })))
    }

    /// `group<b,e>(L)` (CuTe's `group_modes`).
    ///
    /// # Errors
    /// `IndexOutOfRange`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// assert_eq!("(2,3,4):(1,2,6)".parse::<Layout>()?.group_modes(0, 2)?.to_string(), "((2,3),4):((1,2),6)");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn group_modes(&self, b: usize, e: usize) -> Result<Layout> {
        let rank = self.rank();
        if b > e || e > rank {
            return Err(Error::IndexOutOfRange { op: "group", index: e as i64, rank });
        }
        Layout::build(|out| {
            out.open();
            for (k, m) in self.nest().modes().enumerate() {
                if k == b {
                    out.open();
                }
                if k == e {
                    out.close();
                }
                out.put(m);
            }
            if e == rank {
                if b == rank {
                    out.open();
                }
                out.close();
            }
            out.close();
            Ok(())
        })
    }

    /// `flatten(L)`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// assert_eq!("((2,3),(4,(5))):((1,2),(6,(24)))".parse::<Layout>()?.flatten().to_string(), "(2,3,4,5):(1,2,6,24)");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn flatten(&self) -> Layout {
        if !self.is_tuple() {
            return self.clone();
        }
        Layout::written(|out| {
            out.open();
            self.pairs.iter().for_each(|&p| {
                out.put_leaf(p);
            });
            out.close();
        })
    }

    /// Whether every shape and stride leaf is static.
    pub fn is_static(&self) -> bool {
        self.nest().is_static()
    }

    /// The same values with every leaf dynamic (static values keep themselves as divisor): the
    /// honest flags of a result whose structure was chosen by reading run-time values.
    pub fn to_dynamic(&self) -> Layout {
        self.map_pairs(|(s, d)| (s.to_dynamic(), d.to_dynamic()))
    }

    /// The all-static twin: the same values, every leaf static.
    pub fn to_static(&self) -> Layout {
        self.map_pairs(|(s, d)| (Int::st(s.value()), Int::st(d.value())))
    }

    /// The same nesting with every leaf pair mapped.
    pub(crate) fn map_pairs(&self, f: impl Fn(Pair) -> Pair) -> Layout {
        Layout::written(|out| {
            out.copy_from(self);
            out.pairs.iter_mut().for_each(|p| *p = f(*p));
        })
    }

    /// [`Layout::map_pairs`] with a fallible map.
    pub(crate) fn try_map_pairs(&self, f: impl Fn(Pair) -> Result<Pair>) -> Result<Layout> {
        Layout::build(|out| {
            out.copy_from(self);
            for p in out.pairs.iter_mut() {
                *p = f(*p)?;
            }
            Ok(())
        })
    }
}

impl Nest<'_> {
    /// An owned copy.
    pub(crate) fn to_layout(self) -> Layout {
        Layout::written(|out| {
            out.put(self);
        })
    }

    /// `size` of this mode.
    pub(crate) fn size(self) -> Result<Int> {
        size_of(self.pairs)
    }

    /// `product(shape)` of this mode, multiplied nested as the shape is (a leaf is its extent),
    /// as `int_tuple::product` does on the tree: where a zero extent sits beside an overflowing
    /// sub-tuple the flat [`Nest::size`] is 0 and this an overflow, and the operations that
    /// read a shape tree refuse so.
    pub(crate) fn product(self) -> Result<Int> {
        match self.leaf() {
            Some((s, _)) => Ok(s),
            None => self.modes().try_fold(Int::st(1), |acc, m| acc.checked_mul(m.product()?)),
        }
    }
}

/// The product of the shapes of flat pairs; `()` is 1.
/// The largest domain [`Layout::image`] (and `post`'s queries) enumerate; larger ones are an
/// error.
pub const MAX_IMAGE: i64 = 1 << 24;

impl Layout {
    /// `L(0), L(1), ..., L(size - 1)`.
    ///
    /// # Errors
    /// `InvalidArgument` past [`MAX_IMAGE`] points; `Overflow`.
    pub fn image(&self) -> Result<Vec<i64>> {
        let n = self.size()?.value();
        if n > MAX_IMAGE {
            return Err(Error::InvalidArgument {
                op: "image",
                reason: alloc::format!("{n} points is more than the {MAX_IMAGE} enumerated"),
            });
        }
        (0..n).map(|i| self.call(i)).collect()
    }

    /// Two indices `i < j` with `L(i) == L(j)` and the index they share (the first such pair
    /// by index); `None` for an injective layout.
    ///
    /// # Errors
    /// As [`Layout::image`].
    pub fn collision(&self) -> Result<Option<(i64, i64, i64)>> {
        let mut v: Vec<(i64, i64)> = self.image()?.into_iter().zip(0..).collect();
        v.sort_unstable();
        Ok(v.windows(2).find(|w| w[0].0 == w[1].0).map(|w| (w[0].1, w[1].1, w[0].0)))
    }
}

fn size_of(pairs: &[Pair]) -> Result<Int> {
    pairs.iter().try_fold(Int::st(1), |acc, p| acc.checked_mul(p.0))
}

/// One side of the layout (shapes or strides) as a tree.
fn tree(n: Nest<'_>, side: &dyn Fn(Pair) -> Int) -> IntTuple {
    match n.leaf() {
        Some(p) => Tuple::Leaf(side(p)),
        None => Tuple::Node(n.modes().map(|m| tree(m, side)).collect()),
    }
}

/// CuTe's `slice`/`dice` step on one (sub-)mode: the parts of `n` that coordinate `c` keeps,
/// appended to `out` as modes. A `_` (slice) or an integer (dice) keeps `n` whole, the other
/// drops it, a tuple goes into the modes ([`lift_modes`]).
pub(crate) fn lift(c: &Coord, n: Nest<'_>, keep_under: bool, out: &mut Layout) -> Result<()> {
    match c {
        Tuple::Node(cv) => lift_modes(Coords::Tree(cv), cv.len(), n, keep_under, out),
        Tuple::Leaf(x) if x.is_none() == keep_under => {
            out.put(n);
            Ok(())
        }
        Tuple::Leaf(_) => Ok(()),
    }
}

/// The modes of a tuple coordinate, read without building one: a tuple's own, or integers (a
/// thread's coordinate in `local_partition`). Past the end, `_` (a coordinate appended with
/// `_`, as the partitions read theirs).
#[derive(Clone, Copy)]
pub(crate) enum Coords<'a> {
    Tree(&'a [Coord]),
    Ints(&'a [Int]),
}

impl Coords<'_> {
    /// `f` of mode `i`'s coordinate.
    pub(crate) fn with<R>(self, i: usize, f: impl FnOnce(&Coord) -> R) -> R {
        match self {
            Coords::Tree(cv) => f(cv.get(i).unwrap_or(&Tuple::Leaf(None))),
            Coords::Ints(xs) => f(&Tuple::Leaf(xs.get(i).copied())),
        }
    }
}

/// [`lift`] of the tuple coordinate `cv` followed by `_` up to `len` modes.
///
/// # Errors
/// `RankMismatch` unless `n` is a tuple of `len` modes.
pub(crate) fn lift_modes(cv: Coords<'_>, len: usize, n: Nest<'_>, keep_under: bool, out: &mut Layout) -> Result<()> {
    if n.leaf().is_some() || n.rank() != len {
        return Err(Error::RankMismatch { op: "slice", expected: alloc::format!("rank {}", n.rank()), found: len });
    }
    for (i, m) in n.modes().enumerate() {
        cv.with(i, |c| lift(c, m, keep_under, out))?;
    }
    Ok(())
}

/// `crd2idx(c, shape, stride)` of a (sub-)layout, on its flat form: an integer (`_` is 0) is
/// split colexicographically over the modes ([`eval`]), a tuple sums its modes' indices.
pub(crate) fn crd2idx(c: &Coord, n: Nest<'_>) -> Result<Int> {
    match c {
        Tuple::Leaf(x) => eval(n, x.unwrap_or(Int::st(0))),
        Tuple::Node(cv) => crd2idx_modes(Coords::Tree(cv), cv.len(), n),
    }
}

/// [`crd2idx`] of the tuple coordinate `cv` followed by `_` up to `len` modes.
///
/// # Errors
/// `RankMismatch` unless `n` is a tuple of `len` modes; `Overflow`.
pub(crate) fn crd2idx_modes(cv: Coords<'_>, len: usize, n: Nest<'_>) -> Result<Int> {
    if n.leaf().is_some() || n.rank() != len {
        return Err(Error::RankMismatch {
            op: "crd2idx",
            expected: int_tuple::coord_for(n.leaf().is_some(), n.rank()),
            found: len,
        });
    }
    n.modes().enumerate().try_fold(Int::st(0), |acc, (i, m)| acc.checked_add(cv.with(i, |c| crd2idx(c, m))?))
}

/// `crd2idx(c, shape, stride)` of an integer coordinate: every mode but the last takes
/// `c % size(mode)`, the last the rest (unbounded); `():()` maps everything to 0.
pub(crate) fn eval(n: Nest<'_>, c: Int) -> Result<Int> {
    if let Some((_, d)) = n.leaf() {
        return c.checked_mul(d);
    }
    let (mut c, mut acc) = (c, Int::st(0));
    let mut modes = n.modes().peekable();
    while let Some(m) = modes.next() {
        if modes.peek().is_none() {
            return acc.checked_add(eval(m, c)?);
        }
        let p = m.size()?;
        acc = acc.checked_add(eval(m, c.checked_rem(p)?)?)?;
        c = c.checked_div(p)?;
    }
    Ok(acc)
}

/// `make_layout(shape)`: compact column-major (LayoutLeft) strides; static size-1 modes get
/// stride `_0` as in C++.
///
/// # Errors
/// `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(make_layout_left(&"(2,(1,6))".parse()?)?.to_string(), "(2,(1,6)):(1,(0,2))");
/// # Ok::<(), Error>(())
/// ```
pub fn make_layout_left(shape: &IntTuple) -> Result<Layout> {
    check_shape("make_layout_left", shape)?;
    compact_layout(true, |out| {
        out.put_shape(shape);
    })
}

/// `make_layout(shape, LayoutRight{})`: compact row-major strides at every level.
///
/// # Errors
/// `InvalidArgument` for a negative shape, `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(make_layout_right(&"(2,(3,4))".parse()?)?.to_string(), "(2,(3,4)):(12,(4,1))");
/// # Ok::<(), Error>(())
/// ```
pub fn make_layout_right(shape: &IntTuple) -> Result<Layout> {
    check_shape("make_layout_right", shape)?;
    compact_layout(false, |out| {
        out.put_shape(shape);
    })
}

/// The layout whose shape `put` writes (strides left to be written), with compact strides from
/// 1 (column-major when `left`), written in place: no tree of strides is built.
pub(crate) fn compact_layout(left: bool, put: impl FnOnce(&mut Layout)) -> Result<Layout> {
    Layout::build(|out| {
        put(out);
        compact_strides(&mut out.pairs, Int::st(1), left)
    })
}

/// `make_layout(L0, L1, ...)`: each argument becomes one mode (one argument gives rank 1).
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// let l = make_layout(&["4:1".parse()?, "(2,3):(4,8)".parse()?]);
/// assert_eq!(l.to_string(), "(4,(2,3)):(1,(4,8))");
/// # Ok::<(), Error>(())
/// ```
pub fn make_layout(modes: &[Layout]) -> Layout {
    Layout::of_modes(modes.iter().map(Layout::nest))
}

/// `make_layout_like(L)`: a compact layout of `L`'s shape whose strides follow the order of
/// `L`'s strides; static-0 strides are kept (CuTe C++ `layout.hpp`).
///
/// # Errors
/// As [`make_ordered_layout`].
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe's examples in layout.hpp
/// let l = make_layout_like(&"(2,2,2,2):(0,2,4,1)".parse()?)?;
/// assert_eq!(l.to_styled(Style::Cpp), "(_2,_2,_2,_2):(_0,_2,_4,_1)");
/// let l = make_layout_like(&"({2},{3},{4},{5}):(0,{42},1,0)".parse()?)?;
/// assert_eq!(l.to_styled(Style::Cpp), "(2,3,4,5):(_0,4,_1,_0)");
/// # Ok::<(), Error>(())
/// ```
pub fn make_layout_like(l: &Layout) -> Result<Layout> {
    // make_ordered_layout(shape(filter_zeros(l)), stride(l)), with l's own shape.
    let terminals = leaf_terminals(l.pairs(), |p| crate::modes::zero_stride_as_one(p).0);
    restrided_over_zeros_as_one(l, |pairs| ordered_strides(pairs, &terminals))
}

/// `make_ordered_layout(shape, order)`: compact strides that visit the modes in the order
/// given by `order` (weakly congruent to `shape`; lower orders get smaller strides, equal orders
/// share a start stride; dynamic orders count as larger than every static one, in order).
///
/// # Preconditions
/// 1. `order` is weakly congruent to `shape`.
///
/// # Errors
/// `NotCongruent` (1), `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe: make_ordered_layout(Shape<_2,_2,_2,_2>{}, Step<_0,_2,_3,_1>{}) -> (_2,_2,_2,_2):(_1,_4,_8,_2)
/// let l = make_ordered_layout(&"(2,2,2,2)".parse()?, &"(0,2,3,1)".parse()?)?;
/// assert_eq!(l.to_string(), "(2,2,2,2):(1,4,8,2)");
/// # Ok::<(), Error>(())
/// ```
pub fn make_ordered_layout(shape: &IntTuple, order: &IntTuple) -> Result<Layout> {
    check_shape("make_ordered_layout", shape)?;
    // Precondition 1
    if !order.weakly_congruent(shape) {
        return Err(Error::NotCongruent { what: "order and shape", a: order.to_string(), b: shape.to_string() });
    }
    let mut terminals = Terminals::new();
    terminals_of(shape, order, &mut 0, &mut terminals)?;
    Layout::build(|out| {
        out.put_shape(shape);
        ordered_strides(&mut out.pairs, &terminals)
    })
}

/// The terminals of an order that is the layout's own stride (congruent to its shape): each leaf
/// is one, sized by `size` of its pair.
fn leaf_terminals(pairs: &[Pair], size: impl Fn(Pair) -> Int) -> Terminals {
    let leaf = |(i, &p): (usize, &Pair)| Terminal { leaves: (i, i + 1), size: size(p), order: p.1 };
    pairs.iter().enumerate().map(leaf).collect()
}

/// `make_ordered_layout`'s strides, written over those of `pairs` (the flat leaves the
/// terminals cover): each terminal starts at the product of the sizes of lesser order and is
/// compact from there. Dynamic orders count as larger than every static one, in the order they
/// come.
fn ordered_strides(pairs: &mut [Pair], terminals: &[Terminal]) -> Result<()> {
    let max_static = terminals.iter().filter(|t| t.order.is_static()).map(|t| t.order.value()).fold(0, i64::max);
    let rank = |j: usize, o: Int| if o.is_static() { o.value() } else { max_static.saturating_add(1 + j as i64) };
    for (j, t) in terminals.iter().enumerate() {
        let me = rank(j, t.order);
        // The start stride: the product of all the shapes of lesser order.
        let mut lesser = terminals.iter().enumerate().filter(|&(i, u)| rank(i, u.order) < me);
        let start = lesser.try_fold(Int::st(1), |acc, (_, u)| acc.checked_mul(u.size))?;
        compact_strides(&mut pairs[t.leaves.0..t.leaves.1], start, true)?;
    }
    Ok(())
}

/// `l` with the strides `strides` writes over its leaves read with every static stride-0 mode's
/// shape as `_1` (as `filter_zeros` reads them: such a mode gets stride `_0` and takes no room),
/// its own shapes kept.
pub(crate) fn restrided_over_zeros_as_one(
    l: &Layout,
    strides: impl FnOnce(&mut [Pair]) -> Result<()>,
) -> Result<Layout> {
    Layout::build(|out| {
        out.copy_from(l);
        out.pairs.iter_mut().for_each(|p| *p = crate::modes::zero_stride_as_one(*p));
        strides(&mut out.pairs)?;
        for (p, &(s, _)) in out.pairs.iter_mut().zip(l.pairs()) {
            p.0 = s;
        }
        Ok(())
    })
}

/// `make_ordered_layout(shape(l), stride(l))`: `l`'s shape, compact in the order of its strides.
pub(crate) fn ordered_like(l: &Layout) -> Result<Layout> {
    let terminals = leaf_terminals(l.pairs(), |p| p.0);
    Layout::build(|out| {
        out.copy_from(l);
        ordered_strides(&mut out.pairs, &terminals)
    })
}

type Terminals = Small<Terminal, INLINE_LEAVES>;

/// A terminal of `make_ordered_layout`'s order: the shape's leaves under it (a range of the
/// flat leaves), their product and the order given to them.
#[derive(Clone, Copy)]
struct Terminal {
    leaves: (usize, usize),
    size: Int,
    order: Int,
}

/// The terminals of `order` over `shape` (weakly congruent), in order; `leaf` counts the
/// shape's leaves passed.
fn terminals_of(shape: &IntTuple, order: &IntTuple, leaf: &mut usize, out: &mut Terminals) -> Result<()> {
    match order {
        Tuple::Leaf(o) => {
            let mut n = 0;
            shape.for_each_leaf(&mut |_| n += 1);
            out.push(Terminal { leaves: (*leaf, *leaf + n), size: int_tuple::product(shape)?, order: *o });
            *leaf += n;
        }
        Tuple::Node(ov) => {
            let modes = match shape {
                Tuple::Leaf(_) => core::slice::from_ref(shape),
                Tuple::Node(sv) => sv,
            };
            for (o, s) in ov.iter().zip(modes) {
                terminals_of(s, o, leaf, out)?;
            }
        }
    }
    Ok(())
}

/// A shape has no negative extent (an extent of 0 is allowed: the empty layout). Every
/// operation that reads an integer or a tuple as a shape (a cotarget, a tiler, the target of
/// `tile_to_shape`, `make_layout_left`'s argument) checks it here.
///
/// # Errors
/// `InvalidArgument` naming the operation and the extent.
pub(crate) fn check_shape(op: &'static str, shape: &IntTuple) -> Result<()> {
    // Without collecting the leaves: every operation that reads a shape calls this.
    fn negative(t: &IntTuple) -> Option<Int> {
        match t {
            Tuple::Leaf(s) => (s.value() < 0).then_some(*s),
            Tuple::Node(v) => v.iter().find_map(negative),
        }
    }
    match negative(shape) {
        Some(s) => Err(Error::InvalidArgument { op, reason: alloc::format!("negative shape {s}") }),
        None => Ok(()),
    }
}

/// Layouts are written in place, token by token (leaves, whole sub-layouts, and parentheses
/// around modes), starting from [`Layout::empty`]: finishing one moves nothing (a copy right
/// after many small writes stalls on store forwarding).
impl Layout {
    /// Nothing written yet (not a layout until one mode is).
    pub(crate) fn empty() -> Layout {
        Layout { code: Code::new(), pairs: Pairs::new() }
    }

    /// The layout that `write` writes from [`Layout::empty`], returned without a copy.
    ///
    /// Why: a layout is some 650 bytes (16 leaves inline). Built in a local and returned, it is
    /// copied into the caller's slot right after many small writes to it, and the copy stalls
    /// on store forwarding (measured: 6 ns of coalesce's 14). Written by a call that is not
    /// inlined into storage it was handed uninitialized, the result is one LLVM places
    /// straight in the caller's slot (its call slot optimization), so nothing is copied.
    ///
    /// For that, `write` owns nothing that needs dropping (build temporaries inside it): a
    /// caller's local that must be dropped if `write` unwinds puts the call in its own basic
    /// block, and LLVM then copies again (measured on complement).
    #[inline(always)]
    pub(crate) fn build(write: impl FnOnce(&mut Layout) -> Result<()>) -> Result<Layout> {
        written(
            || Ok(Layout::empty()),
            |result| {
                if let Ok(out) = result {
                    if let Err(e) = write(out) {
                        *result = Err(e);
                    }
                }
            },
        )
    }

    /// [`Layout::build`] for a writer that cannot fail.
    #[inline(always)]
    pub(crate) fn written(write: impl FnOnce(&mut Layout)) -> Layout {
        written(Layout::empty, write)
    }

    /// A copy of `src`'s code and leaves, written to `self` (empty).
    pub(crate) fn copy_from(&mut self, src: &Layout) {
        self.code.copy_from(&src.code);
        self.pairs.copy_from(&src.pairs);
    }

    /// Write the code of the flat pairs written so far: one pair is a leaf, more a tuple.
    pub(crate) fn close_flat(&mut self) {
        debug_assert!(self.code.is_empty());
        self.flat_code(self.pairs.len());
    }

    /// The code of `n` flat leaves: one is a leaf, none or more a tuple of them.
    fn flat_code(&mut self, n: usize) {
        if n == 1 {
            self.code.push(LEAF);
        } else {
            self.code.push(OPEN);
            self.code.extend_repeat::<INLINE_LEAVES>(LEAF, n);
            self.code.push(CLOSE);
        }
    }

    /// Where the writing stands, to [`Layout::rewind`] to.
    pub(crate) fn mark(&self) -> (usize, usize) {
        (self.code.len(), self.pairs.len())
    }

    /// Drop what was written after `mark`.
    pub(crate) fn rewind(&mut self, (code, pairs): (usize, usize)) {
        self.code.truncate(code);
        self.pairs.truncate(pairs);
    }

    pub(crate) fn open(&mut self) -> &mut Layout {
        self.code.push(OPEN);
        self
    }

    pub(crate) fn close(&mut self) -> &mut Layout {
        self.code.push(CLOSE);
        self
    }

    /// `shape`'s nesting and leaves, each with stride `_0` (for a caller to write over).
    pub(crate) fn put_shape(&mut self, shape: &IntTuple) -> &mut Layout {
        match shape {
            Tuple::Leaf(x) => self.put_leaf((*x, Int::st(0))),
            Tuple::Node(v) => {
                self.open();
                v.iter().for_each(|m| {
                    self.put_shape(m);
                });
                self.close()
            }
        }
    }

    pub(crate) fn put_leaf(&mut self, p: Pair) -> &mut Layout {
        self.code.push(LEAF);
        self.pairs.push(p);
        self
    }

    /// A mode of flat pairs: one pair is a leaf, otherwise a tuple of them.
    #[inline]
    pub(crate) fn put_pairs(&mut self, pairs: &[Pair]) -> &mut Layout {
        self.pairs.extend_from_slice(pairs);
        self.flat_code(pairs.len());
        self
    }

    /// A mode of the flat pairs that `write` appends to this layout's pairs, written in place
    /// (no temporary pairs and copy); on an error the layout is left for the caller to rewind
    /// or drop.
    #[inline]
    pub(crate) fn put_flat(&mut self, write: impl FnOnce(&mut Pairs) -> Result<()>) -> Result<()> {
        let start = self.pairs.len();
        write(&mut self.pairs)?;
        self.flat_code(self.pairs.len() - start);
        Ok(())
    }

    pub(crate) fn put(&mut self, n: Nest<'_>) -> &mut Layout {
        self.code.extend_from_slice(n.code);
        self.pairs.extend_from_slice(n.pairs);
        self
    }
}

/// `init()` written to an uninitialized slot, then changed by `write`, and read back: the
/// mechanism of [`Layout::build`] and [`Layout::written`].
#[inline(always)]
fn written<T>(init: impl FnOnce() -> T, write: impl FnOnce(&mut T)) -> T {
    let mut slot = core::mem::MaybeUninit::uninit();
    write_into(&mut slot, init, write);
    // SAFETY: `write_into` writes the slot with `init()` before anything else, and `write`
    // can only change that value through a `&mut T` (a whole value is replaced, never left
    // half written); a panic in either unwinds past this line.
    unsafe { slot.assume_init() }
}

/// [`written`]'s writer, never inlined: the call LLVM redirects to the caller's slot.
#[inline(never)]
fn write_into<T>(slot: &mut core::mem::MaybeUninit<T>, init: impl FnOnce() -> T, write: impl FnOnce(&mut T)) {
    write(slot.write(init()));
}

#[cfg(test)]
mod tests {
    use crate::*;
    use alloc::string::ToString;

    /// `Layout::build`'s one `unsafe` (the slot read back) on each path its writer takes: a
    /// layout, an error after part of one was written, and several nested builds (the divide's
    /// stages). Run under Miri by `scripts/miri.sh`. Expected values: the CuTe docs.
    #[test]
    fn build_returns_what_its_writer_wrote() {
        let l = |s: &str| s.parse::<Layout>().unwrap();
        assert_eq!(coalesce(&l("(2,(1,6)):(1,(6,2))")).unwrap().to_string(), "12:1");
        assert_eq!(complement(&l("4:2"), &IntTuple::int(24)).unwrap().to_string(), "(2,3):(1,8)");
        // CuTe's answer 2:12 reaches 16 of 24 indices: refused after it was written.
        let e = complement(&l("(2,4):(1,3)"), &IntTuple::int(24)).unwrap_err();
        assert!(matches!(e, Error::Postcondition { op: "complement", .. }), "{e}");
        let r = zipped_divide(&l("(9,(4,8)):(59,(13,1))"), &"<3:3,(2,4):(1,8)>".parse().unwrap()).unwrap();
        assert_eq!(r.to_string(), "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))");
    }

    /// `Nest::product` multiplies as `int_tuple::product` does on the shape tree: beside a zero
    /// extent, a sub-tuple whose product passes `i64::MAX` (2^40 * 2^40) is an overflow there,
    /// where the flat size is 0. `tile_to_shape` reads the block's modes so, as it read them
    /// through `product_each`.
    #[test]
    fn products_nest_as_the_shape_tree() {
        let l: Layout = "((0,(1099511627776,1099511627776))):((0,(1,1)))".parse().unwrap();
        let m = l.nest().modes().next().unwrap();
        assert_eq!(m.size().unwrap().value(), 0);
        assert!(matches!(m.product(), Err(Error::Overflow { .. })));
        assert!(matches!(int_tuple::product(&l.get(0).unwrap().shape()), Err(Error::Overflow { .. })));
        let e = tile_to_shape(&l, &"(8)".parse().unwrap(), None).unwrap_err();
        assert!(matches!(e, Error::Overflow { .. }), "{e}");
    }

    /// `Layout::written`, the same slot without a `Result`: clones (inline, in each block size
    /// `Small::copy_from` copies, and past the inline capacity, on the heap) and maps of the
    /// leaves. A clone is equal to its original and independent of it (the definition of a
    /// copy); `filter_zeros` from its doc example.
    #[test]
    fn clones_and_maps_are_written_in_place() {
        let l = |s: &str| s.parse::<Layout>().unwrap();
        let wide = |n: usize| {
            let shape = alloc::vec!["2"; n].join(",");
            let stride = (0..n).map(|i| (1u64 << i).to_string()).collect::<alloc::vec::Vec<_>>().join(",");
            l(&alloc::format!("({shape}):({stride})"))
        };
        for a in [l("(2,(1,6)):(1,(6,2))"), wide(6), wide(12), wide(40)] {
            let mut b = a.clone();
            assert_eq!(a, b);
            assert_eq!(a.to_string(), b.to_string());
            b = b.clone();
            assert_eq!(a, b);
            drop(b);
            assert_eq!(a.clone().size().unwrap(), a.size().unwrap());
        }
        assert_eq!(filter_zeros(&l("(3,(2,4)):(0,(1,2))")).to_string(), "(1,(2,4)):(0,(1,2))");
    }
}
