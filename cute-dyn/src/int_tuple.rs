//! Hierarchical integer tuples (CuTe's IntTuple) and coordinates, and their algebra.
//!
//! `(4)` (a rank-1 tuple) is distinct from the leaf `4`, and `()` is the empty tuple.

use alloc::string::ToString;
use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::int::Int;
use crate::modes::{compact_strides, Pairs};

/// The deepest nesting the parser accepts (deeper input is an error, not a stack overflow).
pub const MAX_DEPTH: usize = 128;

/// A hierarchical tuple: a leaf or a (possibly empty) tuple of sub-tuples.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Tuple<T> {
    /// A single value.
    Leaf(T),
    /// A tuple of sub-tuples; `Node(vec![])` is `()`.
    Node(Vec<Tuple<T>>),
}

/// CuTe's IntTuple: shapes, strides and coordinates without `_`.
pub type IntTuple = Tuple<Int>;

/// A coordinate that may hold `_` (written `None`) for slicing.
pub type Coord = Tuple<Option<Int>>;

impl<T: Clone> Tuple<T> {
    /// `rank`: 1 for a leaf, the number of modes of a tuple.
    pub fn rank(&self) -> usize {
        match self {
            Tuple::Leaf(_) => 1,
            Tuple::Node(v) => v.len(),
        }
    }

    /// `depth`: 0 for a leaf, 1 + the deepest mode for a tuple (`()` has depth 1).
    pub fn depth(&self) -> usize {
        match self {
            Tuple::Leaf(_) => 0,
            Tuple::Node(v) => 1 + v.iter().map(Tuple::depth).max().unwrap_or(0),
        }
    }

    /// Whether the nesting is deeper than `limit`, found without recursion (so that a tuple
    /// built deeper than the stack allows is refused instead of overflowing it).
    pub fn deeper_than(&self, limit: usize) -> bool {
        let mut stack: Vec<(&Tuple<T>, usize)> = alloc::vec![(self, 0)];
        while let Some((t, d)) = stack.pop() {
            if let Tuple::Node(v) = t {
                if d + 1 > limit {
                    return true;
                }
                stack.extend(v.iter().map(|x| (x, d + 1)));
            }
        }
        false
    }

    /// Whether this is a tuple (not a leaf).
    pub fn is_tuple(&self) -> bool {
        matches!(self, Tuple::Node(_))
    }

    /// `get<i>`: mode `i`. A leaf has one mode, itself (as in CuTe).
    ///
    /// # Errors
    /// `IndexOutOfRange` when `i >= rank`.
    pub fn get(&self, i: usize) -> Result<&Tuple<T>> {
        match self {
            Tuple::Leaf(_) if i == 0 => Ok(self),
            Tuple::Node(v) if i < v.len() => Ok(&v[i]),
            _ => Err(Error::IndexOutOfRange { op: "get", index: i as i64, rank: self.rank() }),
        }
    }

    /// The modes of a tuple; a leaf is its own single mode (CuTe's `wrap`).
    pub fn modes(&self) -> Vec<Tuple<T>> {
        match self {
            Tuple::Leaf(_) => alloc::vec![self.clone()],
            Tuple::Node(v) => v.clone(),
        }
    }

    /// The leaves in order (depth-first, left to right).
    pub fn leaves(&self) -> Vec<T> {
        let mut out = Vec::with_capacity(8);
        self.for_each_leaf(&mut |x| out.push(x.clone()));
        out
    }

    pub(crate) fn for_each_leaf(&self, f: &mut impl FnMut(&T)) {
        match self {
            Tuple::Leaf(x) => f(x),
            Tuple::Node(v) => v.iter().for_each(|t| t.for_each_leaf(f)),
        }
    }

    /// `flatten`: a leaf stays a leaf (C++ `flatten(5) == 5`); a tuple becomes the tuple of
    /// its leaves.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// assert_eq!("((2,3),(4,(5)))".parse::<IntTuple>()?.flatten().to_string(), "(2,3,4,5)");
    /// assert_eq!("5".parse::<IntTuple>()?.flatten().to_string(), "5");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn flatten(&self) -> Tuple<T> {
        match self {
            Tuple::Leaf(_) => self.clone(),
            Tuple::Node(_) => Tuple::Node(self.leaves().into_iter().map(Tuple::Leaf).collect()),
        }
    }

    /// Apply `f` to every leaf, keeping the structure.
    pub fn map<U>(&self, f: &mut impl FnMut(&T) -> U) -> Tuple<U> {
        match self {
            Tuple::Leaf(x) => Tuple::Leaf(f(x)),
            Tuple::Node(v) => Tuple::Node(v.iter().map(|t| t.map(f)).collect()),
        }
    }

    /// Fallible [`Tuple::map`].
    pub fn try_map<U>(&self, f: &mut impl FnMut(&T) -> Result<U>) -> Result<Tuple<U>> {
        Ok(match self {
            Tuple::Leaf(x) => Tuple::Leaf(f(x)?),
            Tuple::Node(v) => Tuple::Node(v.iter().map(|t| t.try_map(f)).collect::<Result<_>>()?),
        })
    }

    /// `congruent`: the same nesting profile.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// let a: IntTuple = "(2,(3,4))".parse()?;
    /// assert!(a.congruent(&"(1,(6,12))".parse::<IntTuple>()?));
    /// assert!(!a.congruent(&"(2,12)".parse::<IntTuple>()?));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn congruent<U: Clone>(&self, other: &Tuple<U>) -> bool {
        match (self, other) {
            (Tuple::Leaf(_), Tuple::Leaf(_)) => true,
            (Tuple::Node(a), Tuple::Node(b)) => a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.congruent(y)),
            _ => false,
        }
    }

    /// `weakly_congruent(a, b)`: `a`'s profile is a coarsening of `b`'s (a leaf of `a` may
    /// stand over a sub-tuple of `b`).
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// let a: IntTuple = "(2,4)".parse()?;
    /// assert!(a.weakly_congruent(&"(2,(2,2))".parse::<IntTuple>()?));
    /// assert!(!a.weakly_congruent(&"(2,4,1)".parse::<IntTuple>()?));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn weakly_congruent<U: Clone>(&self, other: &Tuple<U>) -> bool {
        match (self, other) {
            (Tuple::Leaf(_), _) => true,
            (Tuple::Node(_), Tuple::Leaf(_)) => false,
            (Tuple::Node(a), Tuple::Node(b)) => {
                a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.weakly_congruent(y))
            }
        }
    }

    /// Combine two congruent tuples leaf by leaf.
    ///
    /// # Errors
    /// `NotCongruent` (labelled `what`) when the profiles differ.
    pub fn zip_with<U, V>(
        &self,
        other: &Tuple<U>,
        what: &'static str,
        f: &mut impl FnMut(&T, &U) -> Result<V>,
    ) -> Result<Tuple<V>>
    where
        U: Clone,
        Tuple<T>: core::fmt::Display,
        Tuple<U>: core::fmt::Display,
    {
        match (self, other) {
            (Tuple::Leaf(a), Tuple::Leaf(b)) => Ok(Tuple::Leaf(f(a, b)?)),
            (Tuple::Node(a), Tuple::Node(b)) if a.len() == b.len() => {
                Ok(Tuple::Node(a.iter().zip(b).map(|(x, y)| x.zip_with(y, what, f)).collect::<Result<_>>()?))
            }
            _ => Err(Error::NotCongruent { what, a: self.to_string(), b: other.to_string() }),
        }
    }

    /// `take<b, e>`: modes `b..e` as a tuple.
    ///
    /// # Errors
    /// `IndexOutOfRange` unless `b <= e <= rank`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// assert_eq!("(2,3,4,5)".parse::<IntTuple>()?.take(1, 3)?.to_string(), "(3,4)");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn take(&self, b: usize, e: usize) -> Result<Tuple<T>> {
        let m = self.modes();
        if b > e || e > m.len() {
            return Err(Error::IndexOutOfRange { op: "take", index: e as i64, rank: m.len() });
        }
        Ok(Tuple::Node(m[b..e].to_vec()))
    }

    /// `select<I...>`: the listed modes, in order, as a tuple.
    ///
    /// # Errors
    /// `IndexOutOfRange` for an index past the rank.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// assert_eq!("(2,3,4,5)".parse::<IntTuple>()?.select(&[3, 0])?.to_string(), "(5,2)");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn select(&self, idx: &[usize]) -> Result<Tuple<T>> {
        let m = self.modes();
        let picked = idx
            .iter()
            .map(|&i| {
                m.get(i).cloned().ok_or_else(|| Error::IndexOutOfRange { op: "select", index: i as i64, rank: m.len() })
            })
            .collect::<Result<_>>()?;
        Ok(Tuple::Node(picked))
    }

    /// `append(a, x)`: a tuple gets `x` as a new last mode; a leaf becomes `(a, x)`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// assert_eq!("4".parse::<IntTuple>()?.append(IntTuple::int(2)).to_string(), "(4,2)");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn append(&self, x: Tuple<T>) -> Tuple<T> {
        let mut m = self.modes();
        m.push(x);
        Tuple::Node(m)
    }

    /// `prepend(a, x)`: `x` becomes the first mode.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// assert_eq!("(4,8)".parse::<IntTuple>()?.prepend(IntTuple::int(2)).to_string(), "(2,4,8)");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn prepend(&self, x: Tuple<T>) -> Tuple<T> {
        let mut m = self.modes();
        m.insert(0, x);
        Tuple::Node(m)
    }

    /// `append<N>(a, x)`: pad with `x` up to rank `n` (a leaf stays a leaf when `n == 1`).
    ///
    /// # Errors
    /// `RankMismatch` when the rank is already above `n`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// assert_eq!("(4,8)".parse::<IntTuple>()?.append_to(4, IntTuple::int(1))?.to_string(), "(4,8,1,1)");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn append_to(&self, n: usize, x: Tuple<T>) -> Result<Tuple<T>> {
        check_append(self.rank(), n)?;
        if !self.is_tuple() && n == 1 {
            return Ok(self.clone());
        }
        let mut m = self.modes();
        m.resize(n, x);
        Ok(Tuple::Node(m))
    }

    /// `replace<i>(a, x)`: mode `i` replaced by `x`.
    ///
    /// # Errors
    /// `IndexOutOfRange` when `i >= rank`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// assert_eq!("(4,8)".parse::<IntTuple>()?.replace(1, IntTuple::int(2))?.to_string(), "(4,2)");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn replace(&self, i: usize, x: Tuple<T>) -> Result<Tuple<T>> {
        if !self.is_tuple() && i == 0 {
            return Ok(x);
        }
        let mut m = self.modes();
        let rank = m.len();
        *m.get_mut(i).ok_or_else(|| Error::IndexOutOfRange { op: "replace", index: i as i64, rank })? = x;
        Ok(Tuple::Node(m))
    }

    /// `group<b, e>`: modes `b..e` gathered into one mode.
    ///
    /// # Errors
    /// `IndexOutOfRange` unless `b <= e <= rank`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// assert_eq!("(2,3,4,5)".parse::<IntTuple>()?.group(1, 3)?.to_string(), "(2,(3,4),5)");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn group(&self, b: usize, e: usize) -> Result<Tuple<T>> {
        let m = self.modes();
        if b > e || e > m.len() {
            return Err(Error::IndexOutOfRange { op: "group", index: e as i64, rank: m.len() });
        }
        let mut out = m[..b].to_vec();
        out.push(Tuple::Node(m[b..e].to_vec()));
        out.extend_from_slice(&m[e..]);
        Ok(Tuple::Node(out))
    }

    /// `unflatten(flat, profile)`: the leaves of `self` poured into the nesting of `profile`.
    ///
    /// # Errors
    /// `RankMismatch` when the number of leaves differs.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// assert_eq!("(2,3,4)".parse::<IntTuple>()?.unflatten(&"(1,(1,1))".parse::<IntTuple>()?)?.to_string(), "(2,(3,4))");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn unflatten<U: Clone>(&self, profile: &Tuple<U>) -> Result<Tuple<T>> {
        let leaves = self.leaves();
        let mut it = leaves.into_iter();
        let mut count = 0;
        let out = profile.map(&mut |_| {
            count += 1;
            it.next()
        });
        let n = self.leaves().len();
        if count != n {
            return Err(Error::RankMismatch { op: "unflatten", expected: alloc::format!("{count} leaves"), found: n });
        }
        out.try_map(&mut |x: &Option<T>| x.clone().ok_or_else(|| Error::Overflow { op: "unflatten" }))
    }
}

/// C++'s unary `zip(t)`: the transpose of a tuple of tuples, `((a0,a1),(b0,b1))` is
/// `((a0,b0),(a1,b1))`, by the rank of the first mode; a tuple of leaves is wrapped, `(a,b)` is
/// `((a,b))`; a leaf is itself.
///
/// # Errors
/// `IndexOutOfRange` when a later mode is shorter than the first.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(zip1(&"((2,4),(3,5))".parse::<IntTuple>()?)?.to_string(), "((2,3),(4,5))");
/// assert_eq!(zip1(&"(2,3)".parse::<IntTuple>()?)?.to_string(), "((2,3))");
/// # Ok::<(), Error>(())
/// ```
pub fn zip1<T: Clone>(t: &Tuple<T>) -> Result<Tuple<T>> {
    let Tuple::Node(modes) = t else { return Ok(t.clone()) };
    match modes.first() {
        Some(first @ Tuple::Node(_)) => (0..first.rank())
            .map(|i| Ok(Tuple::Node(modes.iter().map(|m| m.get(i).cloned()).collect::<Result<_>>()?)))
            .collect::<Result<_>>()
            .map(Tuple::Node),
        _ => Ok(Tuple::Node(alloc::vec![t.clone()])),
    }
}

/// `zip(a, b)` of CuTe: `((a0,b0),(a1,b1),...)`; a leaf `a` gives `((a,b))`.
///
/// # Errors
/// `RankMismatch` when both are tuples of different ranks.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(zip(&"(2,3)".parse::<IntTuple>()?, &"(4,5)".parse::<IntTuple>()?)?.to_string(), "((2,4),(3,5))");
/// # Ok::<(), Error>(())
/// ```
pub fn zip<T: Clone>(a: &Tuple<T>, b: &Tuple<T>) -> Result<Tuple<T>> {
    match a {
        Tuple::Leaf(_) => Ok(Tuple::Node(alloc::vec![Tuple::Node(alloc::vec![a.clone(), b.clone()])])),
        Tuple::Node(av) => {
            let bv = b.modes();
            if bv.len() != av.len() || !b.is_tuple() {
                return Err(Error::RankMismatch {
                    op: "zip",
                    expected: alloc::format!("{}", av.len()),
                    found: b.rank(),
                });
            }
            Ok(Tuple::Node(av.iter().zip(bv).map(|(x, y)| Tuple::Node(alloc::vec![x.clone(), y])).collect()))
        }
    }
}

impl IntTuple {
    /// A static leaf.
    pub fn int(v: i64) -> IntTuple {
        Tuple::Leaf(Int::st(v))
    }

    /// A tuple of static leaves.
    pub fn ints(v: &[i64]) -> IntTuple {
        Tuple::Node(v.iter().map(|&x| IntTuple::int(x)).collect())
    }

    /// The leaf value, if this is a leaf.
    pub fn as_int(&self) -> Option<Int> {
        match self {
            Tuple::Leaf(x) => Some(*x),
            Tuple::Node(_) => None,
        }
    }

    /// Whether every leaf is static.
    pub fn is_static(&self) -> bool {
        // Without collecting the leaves (the operations ask it of every input).
        match self {
            Tuple::Leaf(x) => x.is_static(),
            Tuple::Node(v) => v.iter().all(IntTuple::is_static),
        }
    }

    /// The all-static twin: the same values, every leaf static.
    pub fn to_static(&self) -> IntTuple {
        self.map(&mut |x| Int::st(x.value()))
    }

    /// This tuple as a coordinate (no `_`).
    pub fn to_coord(&self) -> Coord {
        self.map(&mut |x| Some(*x))
    }
}

/// `append<n>`'s precondition: a tuple of `rank` modes can be appended up to `n`.
///
/// # Errors
/// `RankMismatch` when `rank > n`.
pub(crate) fn check_append(rank: usize, n: usize) -> Result<()> {
    if rank > n {
        return Err(Error::RankMismatch { op: "append", expected: alloc::format!("at most {n}"), found: rank });
    }
    Ok(())
}

/// `product` (alias `size`): the product of all leaves; `()` is 1.
///
/// # Errors
/// `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(product(&"(3,(2,3))".parse()?)?.value(), 18);
/// assert_eq!(product(&"()".parse()?)?.value(), 1);
/// # Ok::<(), Error>(())
/// ```
pub fn product(t: &IntTuple) -> Result<Int> {
    match t {
        Tuple::Leaf(x) => Ok(*x),
        Tuple::Node(v) => v.iter().try_fold(Int::st(1), |acc, m| acc.checked_mul(product(m)?)),
    }
}

/// `product_each`: the product of each mode, as a tuple (`wrap`ped first).
///
/// # Errors
/// `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(product_each(&"(2,(3,4),5)".parse()?)?.to_string(), "(2,12,5)");
/// # Ok::<(), Error>(())
/// ```
pub fn product_each(t: &IntTuple) -> Result<IntTuple> {
    Ok(Tuple::Node(t.modes().iter().map(|m| product(m).map(Tuple::Leaf)).collect::<Result<_>>()?))
}

/// `sum` of all leaves; `()` is 0.
///
/// # Errors
/// `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(sum(&"(2,(3,4))".parse()?)?.value(), 9);
/// # Ok::<(), Error>(())
/// ```
pub fn sum(t: &IntTuple) -> Result<Int> {
    t.leaves().into_iter().try_fold(Int::st(0), Int::checked_add)
}

/// `inner_product(a, b)`: sum of leafwise products of congruent tuples.
///
/// # Preconditions
/// 1. `a` and `b` are congruent.
///
/// # Errors
/// `NotCongruent`, `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// let a: IntTuple = "(2,(3,4))".parse()?;
/// let b: IntTuple = "(1,(2,6))".parse()?;
/// assert_eq!(inner_product(&a, &b)?.value(), 2 + 6 + 24);
/// # Ok::<(), Error>(())
/// ```
pub fn inner_product(a: &IntTuple, b: &IntTuple) -> Result<Int> {
    // Precondition 1
    let prods = a.zip_with(b, "inner_product operands", &mut |x, y| x.checked_mul(*y))?;
    sum(&prods)
}

/// `tuple_max`: the largest leaf (`()` has none).
///
/// # Errors
/// `InvalidArgument` for a tuple with no leaves.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(tuple_max(&"(2,(7,4))".parse()?)?.value(), 7);
/// # Ok::<(), Error>(())
/// ```
pub fn tuple_max(t: &IntTuple) -> Result<Int> {
    t.leaves()
        .into_iter()
        .reduce(Int::max)
        .ok_or_else(|| Error::InvalidArgument { op: "tuple_max", reason: "no leaves".into() })
}

/// `elem_scale(a, b)`: tuple×tuple leafwise; leaf×tuple is `a * product(b)`.
///
/// # Errors
/// `RankMismatch` for tuples of different rank or a tuple `a` with a leaf `b`; `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(elem_scale(&"(2,3)".parse()?, &"(4,(2,5))".parse()?)?.to_string(), "(8,30)");
/// # Ok::<(), Error>(())
/// ```
pub fn elem_scale(a: &IntTuple, b: &IntTuple) -> Result<IntTuple> {
    match (a, b) {
        (Tuple::Leaf(x), _) => Ok(Tuple::Leaf(x.checked_mul(product(b)?)?)),
        (Tuple::Node(av), Tuple::Node(bv)) if av.len() == bv.len() => {
            Ok(Tuple::Node(av.iter().zip(bv).map(|(x, y)| elem_scale(x, y)).collect::<Result<_>>()?))
        }
        _ => Err(Error::RankMismatch {
            op: "elem_scale",
            expected: alloc::format!("rank {}", a.rank()),
            found: b.rank(),
        }),
    }
}

/// Which of CuTe's two tuple-by-integer folds: `shape_div` checks divisibility, `ceil_div`
/// does not (C++ checks both, but `ceil_div` is also the tiler "rest" of a non-dividing tile).
#[derive(Clone, Copy, PartialEq, Eq)]
enum DivKind {
    Shape,
    Ceil,
}

fn div_leaf(a: Int, b: Int, kind: DivKind) -> Result<Int> {
    let op = if kind == DivKind::Shape { "shape_div" } else { "ceil_div" };
    if b.value() == 0 {
        return Err(Error::DivisionByZero { op });
    }
    // Precondition 1 (shape_div): a % b == 0 or b % a == 0
    let divides = |x: i64, y: i64| x.checked_rem(y) == Some(0);
    if kind == DivKind::Shape && a.value() != 0 && !divides(a.value(), b.value()) && !divides(b.value(), a.value()) {
        return Err(Error::StrideDivisibility { op, stride: b.value(), shape: a.value() });
    }
    a.ceil_div(b)
}

fn div_fold(a: &IntTuple, b: &IntTuple, kind: DivKind) -> Result<IntTuple> {
    match (a, b) {
        (Tuple::Node(av), Tuple::Node(bv)) => {
            let ok = if kind == DivKind::Shape { av.len() == bv.len() } else { av.len() >= bv.len() };
            if !ok {
                return Err(Error::RankMismatch {
                    op: "shape_div",
                    expected: alloc::format!("rank {}", av.len()),
                    found: bv.len(),
                });
            }
            let one = IntTuple::int(1);
            let out = av.iter().enumerate().map(|(i, x)| div_fold(x, bv.get(i).unwrap_or(&one), kind));
            Ok(Tuple::Node(out.collect::<Result<_>>()?))
        }
        (Tuple::Node(av), Tuple::Leaf(bi)) => {
            // Divide left to right by a running quotient.
            let mut rest = *bi;
            let mut out = Vec::with_capacity(av.len());
            for x in av {
                out.push(div_fold(x, &Tuple::Leaf(rest), kind)?);
                rest = div_leaf(rest, product(x)?, kind)?;
            }
            Ok(Tuple::Node(out))
        }
        (Tuple::Leaf(ai), _) => Ok(Tuple::Leaf(div_leaf(*ai, product(b)?, kind)?)),
    }
}

/// `shape_div(a, b)`: `a` divided by `b`, leaf by leaf (tuple/tuple), by a running quotient
/// (tuple/int), or by `product(b)` (int/tuple). Each int/int step is `ceil(a/b)`.
///
/// # Preconditions
/// 1. At every int/int step `a % b == 0 or b % a == 0`.
/// 2. Two tuples have equal ranks.
///
/// # Errors
/// `StrideDivisibility` (1), `RankMismatch` (2), `DivisionByZero`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe's documented example: shape_div((4,5,6),40) -> (1,1,3)
/// let r = shape_div(&"(4,5,6)".parse()?, &"40".parse()?)?;
/// assert_eq!(r.to_string(), "(1,1,3)");
/// # Ok::<(), Error>(())
/// ```
pub fn shape_div(a: &IntTuple, b: &IntTuple) -> Result<IntTuple> {
    div_fold(a, b, DivKind::Shape)
}

/// `ceil_div(a, b)`: like [`shape_div`] without the divisibility condition; a shorter tuple
/// `b` is padded with 1s.
///
/// # Errors
/// `RankMismatch` when `b` has more modes than `a`; `DivisionByZero`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe: the tiler "rest" of a 3-tile over (4,4,2,5)
/// assert_eq!(ceil_div(&"(4,4,2,5)".parse()?, &"3".parse()?)?.to_string(), "(2,4,2,5)");
/// # Ok::<(), Error>(())
/// ```
pub fn ceil_div(a: &IntTuple, b: &IntTuple) -> Result<IntTuple> {
    div_fold(a, b, DivKind::Ceil)
}

/// `repeat<R>(_)`: a coordinate of `r` underscores, `_` itself for one mode (as C++'s
/// `repeat<1>(x)` is `x`).
///
/// # Examples
/// ```
/// use cute_dyn::int_tuple::repeat_under;
/// assert_eq!((repeat_under(1).to_string(), repeat_under(3).to_string()), ("_".to_string(), "(_,_,_)".to_string()));
/// ```
pub fn repeat_under(r: usize) -> Coord {
    match r {
        1 => Tuple::Leaf(None),
        r => Tuple::Node(alloc::vec![Tuple::Leaf(None); r]),
    }
}

/// `round_up(a, b)`: `a` rounded up to a multiple of `b`, `((a + b - 1) / b) * b`, by mode for
/// tuples (`b`'s missing modes are 1, as C++).
///
/// # Errors
/// `RankMismatch` when `b` has more modes than `a`, or one is a tuple and the other not;
/// `DivisionByZero`; `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(round_up(&"(100,33,7)".parse()?, &"(64,32)".parse()?)?.to_string(), "(128,64,7)");
/// # Ok::<(), Error>(())
/// ```
pub fn round_up(a: &IntTuple, b: &IntTuple) -> Result<IntTuple> {
    match (a, b) {
        (Tuple::Leaf(x), Tuple::Leaf(y)) => {
            Ok(Tuple::Leaf(x.checked_add(*y)?.checked_sub(Int::st(1))?.checked_div(*y)?.checked_mul(*y)?))
        }
        (Tuple::Node(av), Tuple::Node(_)) if b.rank() <= a.rank() => {
            let bv = b.append_to(a.rank(), Tuple::Leaf(Int::st(1)))?.modes();
            Ok(Tuple::Node(av.iter().zip(&bv).map(|(x, y)| round_up(x, y)).collect::<Result<_>>()?))
        }
        _ => Err(Error::RankMismatch {
            op: "round_up",
            expected: alloc::format!("a divisor of at most rank {} and as much a tuple", a.rank()),
            found: b.rank(),
        }),
    }
}

/// `prefix_product(a, init)`: exclusive prefix product (pycute's definition; an int `init`
/// broadcasts into sub-tuples).
///
/// # Errors
/// `RankMismatch` when `init` is a tuple of another rank or a tuple beside a leaf `a`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(prefix_product(&"(2,(3,4),5)".parse()?, &IntTuple::int(1))?.to_string(), "(1,(2,6),24)");
/// # Ok::<(), Error>(())
/// ```
pub fn prefix_product(a: &IntTuple, init: &IntTuple) -> Result<IntTuple> {
    match (a, init) {
        (Tuple::Node(av), Tuple::Node(iv)) if av.len() == iv.len() => {
            Ok(Tuple::Node(av.iter().zip(iv).map(|(x, i)| prefix_product(x, i)).collect::<Result<_>>()?))
        }
        (Tuple::Node(av), Tuple::Leaf(i)) => {
            let mut cur = *i;
            let mut out = Vec::with_capacity(av.len());
            for x in av {
                out.push(prefix_product(x, &Tuple::Leaf(cur))?);
                cur = cur.checked_mul(product(x)?)?;
            }
            Ok(Tuple::Node(out))
        }
        (Tuple::Leaf(_), Tuple::Leaf(_)) => Ok(init.clone()),
        _ => Err(Error::RankMismatch {
            op: "prefix_product",
            expected: alloc::format!("rank {}", a.rank()),
            found: init.rank(),
        }),
    }
}

/// `compatible(a, b)`: same size, and every coordinate of `a` is a coordinate of `b`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe docs: 24 is compatible with (4,6) and ((2,2),6); (4,6) is not compatible with 24
/// assert!(compatible(&"24".parse()?, &"(4,6)".parse()?));
/// assert!(compatible(&"(4,6)".parse()?, &"((2,2),6)".parse()?));
/// assert!(!compatible(&"(4,6)".parse()?, &"24".parse()?));
/// # Ok::<(), Error>(())
/// ```
pub fn compatible(a: &IntTuple, b: &IntTuple) -> bool {
    match (a, b) {
        (Tuple::Leaf(x), _) => product(b).map(|p| p.value() == x.value()).unwrap_or(false),
        (Tuple::Node(_), Tuple::Leaf(_)) => false,
        (Tuple::Node(av), Tuple::Node(bv)) => av.len() == bv.len() && av.iter().zip(bv).all(|(x, y)| compatible(x, y)),
    }
}

/// `evenly_divides(shape, tiler)`: the tiler (a shape, by mode) divides the shape evenly.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert!(evenly_divides(&"(8,12)".parse()?, &"(4,3)".parse()?));
/// assert!(!evenly_divides(&"(8,12)".parse()?, &"(3,4)".parse()?));
/// # Ok::<(), Error>(())
/// ```
pub fn evenly_divides(a: &IntTuple, b: &IntTuple) -> bool {
    match b {
        Tuple::Node(bv) => {
            let am = a.modes();
            bv.len() <= am.len() && bv.iter().zip(&am).all(|(x, y)| evenly_divides(y, x))
        }
        Tuple::Leaf(_) => (|| -> Result<bool> {
            let sa = product(a)?.value();
            let q = product(&ceil_div(a, b)?)?.value();
            Ok(product(b)?.value().checked_mul(q) == Some(sa))
        })()
        .unwrap_or(false),
    }
}

/// `compact_col_major(shape, current)`: column-major compact strides from `current`
/// ([`compact_major`] left).
///
/// # Errors
/// `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(compact_col_major(&"(2,(3,4))".parse()?, Int::st(2))?.to_string(), "(2,(4,12))");
/// # Ok::<(), Error>(())
/// ```
pub fn compact_col_major(shape: &IntTuple, current: Int) -> Result<IntTuple> {
    compact_major(shape, current, true)
}

/// `compact_row_major(shape, current)`: row-major compact strides from `current`
/// ([`compact_major`] right).
///
/// # Errors
/// `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(compact_row_major(&"(2,(3,4))".parse()?, Int::st(1))?.to_string(), "(12,(4,1))");
/// # Ok::<(), Error>(())
/// ```
pub fn compact_row_major(shape: &IntTuple, current: Int) -> Result<IntTuple> {
    compact_major(shape, current, false)
}

/// `compact_major<LayoutLeft|LayoutRight>(shape, current)`: compact strides starting at
/// `current`; a static size-1 mode gets stride `_0` (as in C++).
///
/// # Errors
/// `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(compact_major(&"(2,(1,6))".parse()?, Int::st(1), true)?.to_string(), "(1,(0,2))");
/// assert_eq!(compact_major(&"(2,(3,4))".parse()?, Int::st(1), false)?.to_string(), "(12,(4,1))");
/// # Ok::<(), Error>(())
/// ```
pub fn compact_major(shape: &IntTuple, current: Int, left: bool) -> Result<IntTuple> {
    let mut pairs = Pairs::new();
    shape.for_each_leaf(&mut |&x| pairs.push((x, Int::st(0))));
    compact_strides(&mut pairs, current, left)?;
    let mut strides = pairs.iter().map(|p| p.1);
    Ok(shape.map(&mut |_| strides.next().expect("a stride per leaf")))
}

/// `crd2idx(coord, shape, stride)`: the index of a (possibly hierarchical) coordinate. An
/// integer coordinate over a tuple is split colexicographically, the last mode taking the
/// remaining quotient unwrapped. `_` counts as 0 (as in `slice_and_offset`).
///
/// # Preconditions
/// 1. A tuple coordinate has the rank of the shape at that level (and never sits over a leaf).
///
/// # Errors
/// `RankMismatch` (1), `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe docs: in (3,(2,3)):(3,(12,1)) the 1-D, 2-D and natural coordinates 16, (1,5) and
/// // (1,(1,2)) all map to index 17.
/// let (s, d): (IntTuple, IntTuple) = ("(3,(2,3))".parse()?, "(3,(12,1))".parse()?);
/// for c in ["16", "(1,5)", "(1,(1,2))"] {
///     assert_eq!(crd2idx(&c.parse()?, &s, &d)?.value(), 17);
/// }
/// # Ok::<(), Error>(())
/// ```
pub fn crd2idx(coord: &Coord, shape: &IntTuple, stride: &IntTuple) -> Result<Int> {
    match (coord, shape, stride) {
        (Tuple::Node(cv), Tuple::Node(sv), Tuple::Node(dv)) => {
            // Precondition 1
            if cv.len() != sv.len() || sv.len() != dv.len() {
                return Err(Error::RankMismatch {
                    op: "crd2idx",
                    expected: alloc::format!("rank {}", sv.len()),
                    found: cv.len(),
                });
            }
            cv.iter().zip(sv).zip(dv).try_fold(Int::st(0), |acc, ((c, s), d)| acc.checked_add(crd2idx(c, s, d)?))
        }
        (Tuple::Leaf(c), Tuple::Node(sv), Tuple::Node(dv)) if sv.len() == dv.len() && !sv.is_empty() => {
            let mut c = c.unwrap_or(Int::st(0));
            let mut acc = Int::st(0);
            for (i, (s, d)) in sv.iter().zip(dv).enumerate() {
                if i + 1 == sv.len() {
                    return acc.checked_add(crd2idx(&Tuple::Leaf(Some(c)), s, d)?);
                }
                let p = product(s)?;
                let r = c.checked_rem(p)?;
                acc = acc.checked_add(crd2idx(&Tuple::Leaf(Some(r)), s, d)?)?;
                c = c.checked_div(p)?;
            }
            Ok(acc)
        }
        (Tuple::Leaf(c), Tuple::Leaf(_), Tuple::Leaf(d)) => c.unwrap_or(Int::st(0)).checked_mul(*d),
        // `():()`: size 1, every index maps to 0 (a sum over no modes, as in C++).
        (Tuple::Leaf(_), Tuple::Node(sv), Tuple::Node(dv)) if sv.is_empty() && dv.is_empty() => Ok(Int::st(0)),
        _ => Err(Error::RankMismatch {
            op: "crd2idx",
            expected: coord_for(!shape.is_tuple(), shape.rank()),
            found: coord.rank(),
        }),
    }
}

/// What a tuple coordinate must be to index a shape: of its rank, or, for an integer shape
/// (whose rank is 1 too: "expected rank 1, found rank 1" would contradict itself), an integer.
pub(crate) fn coord_for(integer_shape: bool, rank: usize) -> alloc::string::String {
    if integer_shape {
        "an integer coordinate for an integer shape".into()
    } else {
        alloc::format!("rank {rank}")
    }
}

/// `crd2idx(coord, shape)` (Horner form, colexicographic): `c0 + s0*(c1 + s1*(...))`.
///
/// # Errors
/// `RankMismatch` when a tuple coordinate does not match the shape; `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(crd2idx_colex(&"(1,(1,2))".parse()?, &"(3,(2,3))".parse()?)?.value(), 16);
/// assert_eq!(crd2idx_colex(&"(1,5)".parse()?, &"(3,(2,3))".parse()?)?.value(), 16);
/// # Ok::<(), Error>(())
/// ```
pub fn crd2idx_colex(coord: &IntTuple, shape: &IntTuple) -> Result<Int> {
    match coord {
        Tuple::Leaf(c) => Ok(*c),
        Tuple::Node(cv) => {
            if !coord.weakly_congruent(shape) {
                return Err(Error::RankMismatch {
                    op: "crd2idx",
                    expected: alloc::format!("rank {}", shape.rank()),
                    found: cv.len(),
                });
            }
            // product_like(shape, coord): the size of the part of shape under each coordinate leaf.
            let sizes = product_like(shape, coord)?;
            let (c, s) = (coord.leaves(), sizes.leaves());
            let mut acc = Int::st(0);
            for i in (0..c.len()).rev() {
                acc = if i + 1 == c.len() { c[i] } else { c[i].checked_add(s[i].checked_mul(acc)?)? };
            }
            Ok(acc)
        }
    }
}

fn product_like(shape: &IntTuple, guide: &IntTuple) -> Result<IntTuple> {
    match (guide, shape) {
        (Tuple::Leaf(_), _) => Ok(Tuple::Leaf(product(shape)?)),
        (Tuple::Node(gv), Tuple::Node(sv)) => {
            Ok(Tuple::Node(gv.iter().zip(sv).map(|(g, s)| product_like(s, g)).collect::<Result<_>>()?))
        }
        _ => Err(Error::RankMismatch { op: "crd2idx", expected: "a tuple shape".into(), found: 1 }),
    }
}

/// `idx2crd(idx, shape)`: the colexicographic coordinate of an index; the last mode is not
/// wrapped (C++: `idx2crd(8, 3) == 8`). A tuple index maps mode by mode.
///
/// # Errors
/// `RankMismatch` for a tuple index over a leaf shape; `DivisionByZero`; `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe docs: index 16 of (3,(2,3)) is the natural coordinate (1,(1,2)).
/// assert_eq!(idx2crd(&"16".parse()?, &"(3,(2,3))".parse()?)?.to_string(), "(1,(1,2))");
/// # Ok::<(), Error>(())
/// ```
pub fn idx2crd(idx: &IntTuple, shape: &IntTuple) -> Result<IntTuple> {
    match (idx, shape) {
        (Tuple::Node(iv), Tuple::Node(sv)) if iv.len() == sv.len() => {
            Ok(Tuple::Node(iv.iter().zip(sv).map(|(i, s)| idx2crd(i, s)).collect::<Result<_>>()?))
        }
        (Tuple::Leaf(i), Tuple::Node(_)) => {
            // crd2idx(idx, shape, basis): split by divmod, the last mode keeps the quotient.
            let mut rest = *i;
            split_colex(&mut rest, shape)
        }
        (Tuple::Leaf(_), Tuple::Leaf(_)) => Ok(idx.clone()),
        _ => Err(Error::RankMismatch {
            op: "idx2crd",
            expected: alloc::format!("rank {}", shape.rank()),
            found: idx.rank(),
        }),
    }
}

/// Split `rest` over `shape` colexicographically: every mode but the last takes
/// `rest % size(mode)` (split further inside it), the last keeps the quotient unwrapped.
fn split_colex(rest: &mut Int, shape: &IntTuple) -> Result<IntTuple> {
    match shape {
        Tuple::Leaf(_) => Ok(Tuple::Leaf(*rest)),
        Tuple::Node(sv) => {
            let mut out = Vec::with_capacity(sv.len());
            for (k, s) in sv.iter().enumerate() {
                if k + 1 == sv.len() {
                    out.push(split_colex(rest, s)?);
                } else {
                    let p = product(s)?;
                    let mut sub = rest.checked_rem(p)?;
                    *rest = rest.checked_div(p)?;
                    out.push(split_colex(&mut sub, s)?);
                }
            }
            Ok(Tuple::Node(out))
        }
    }
}

/// `idx2crd(idx, shape, stride)`: every leaf is `(idx / stride) % shape` (a static size-1
/// mode is `_0` without dividing). An integer stride beside a tuple shape stands for
/// `compact_col_major(shape, stride)`.
///
/// # Errors
/// `RankMismatch`, `DivisionByZero`, `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(idx2crd_strided(&"17".parse()?, &"(3,(2,3))".parse()?, &"(1,(3,6))".parse()?)?.to_string(), "(2,(1,2))");
/// # Ok::<(), Error>(())
/// ```
pub fn idx2crd_strided(idx: &IntTuple, shape: &IntTuple, stride: &IntTuple) -> Result<IntTuple> {
    match (idx, shape, stride) {
        (Tuple::Node(iv), Tuple::Node(sv), Tuple::Node(dv)) if iv.len() == sv.len() && sv.len() == dv.len() => Ok(
            Tuple::Node(iv.iter().zip(sv).zip(dv).map(|((i, s), d)| idx2crd_strided(i, s, d)).collect::<Result<_>>()?),
        ),
        (Tuple::Leaf(_), Tuple::Node(sv), Tuple::Node(dv)) if sv.len() == dv.len() => {
            Ok(Tuple::Node(sv.iter().zip(dv).map(|(s, d)| idx2crd_strided(idx, s, d)).collect::<Result<_>>()?))
        }
        (Tuple::Leaf(_), Tuple::Node(_), Tuple::Leaf(d)) => {
            idx2crd_strided(idx, shape, &compact_major(shape, *d, true)?)
        }
        (Tuple::Leaf(i), Tuple::Leaf(s), Tuple::Leaf(d)) => {
            if s.is_const(1) {
                return Ok(IntTuple::int(0));
            }
            Ok(Tuple::Leaf(i.checked_div(*d)?.checked_rem(*s)?))
        }
        // A tuple index needs a shape and a stride of its rank.
        (Tuple::Node(iv), _, _) if !shape.is_tuple() || iv.len() != shape.rank() => Err(Error::RankMismatch {
            op: "idx2crd",
            expected: alloc::format!("an index congruent to the shape {shape}"),
            found: iv.len(),
        }),
        _ => {
            Err(Error::NotCongruent { what: "idx2crd's shape and stride", a: shape.to_string(), b: stride.to_string() })
        }
    }
}

/// `crd2crd(coord, src_shape, dst_shape)`: re-express a coordinate of `src` in `dst` (mode by
/// mode where all three are tuples, else through the colexicographic index).
///
/// # Errors
/// `RankMismatch`, `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // (1,5) in (3,6) is (1,(1,2)) in (3,(2,3)): both are index 16.
/// assert_eq!(crd2crd(&"(1,5)".parse()?, &"(3,6)".parse()?, &"(3,(2,3))".parse()?)?.to_string(), "(1,(1,2))");
/// # Ok::<(), Error>(())
/// ```
pub fn crd2crd(coord: &IntTuple, src: &IntTuple, dst: &IntTuple) -> Result<IntTuple> {
    match (coord, src, dst) {
        (Tuple::Node(cv), Tuple::Node(sv), Tuple::Node(dv)) => {
            if cv.len() != sv.len() || cv.len() != dv.len() {
                return Err(Error::RankMismatch {
                    op: "crd2crd",
                    expected: alloc::format!("rank {}", sv.len()),
                    found: cv.len(),
                });
            }
            Ok(Tuple::Node(cv.iter().zip(sv).zip(dv).map(|((c, s), d)| crd2crd(c, s, d)).collect::<Result<_>>()?))
        }
        _ => idx2crd(&Tuple::Leaf(crd2idx_colex(coord, src)?), dst),
    }
}

/// `slice(coord, t)`: keep the parts of `t` under `_` (one level of nesting is spliced away per
/// tuple level, as CuTe's `filter_tuple`); `slice(_, t) == t`.
///
/// # Errors
/// `RankMismatch` when the coordinate does not match `t`'s profile.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(slice(&"(_,(2,_))".parse()?, &"(3,(4,5))".parse::<IntTuple>()?)?.to_string(), "(3,5)");
/// assert_eq!(slice(&"_".parse()?, &"4".parse::<IntTuple>()?)?.to_string(), "4");
/// # Ok::<(), Error>(())
/// ```
pub fn slice<T: Clone>(coord: &Coord, t: &Tuple<T>) -> Result<Tuple<T>> {
    match coord {
        Tuple::Leaf(None) => Ok(t.clone()),
        Tuple::Leaf(Some(_)) => Ok(Tuple::Node(Vec::new())),
        Tuple::Node(_) => Ok(Tuple::Node(lift(coord, t, true)?)),
    }
}

/// `dice(coord, t)`: keep the parts of `t` under integers; `dice(i, t) == t`.
///
/// # Errors
/// `RankMismatch` when the coordinate does not match `t`'s profile.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// assert_eq!(dice(&"(_,(2,_))".parse()?, &"(3,(4,5))".parse::<IntTuple>()?)?.to_string(), "(4)");
/// # Ok::<(), Error>(())
/// ```
pub fn dice<T: Clone>(coord: &Coord, t: &Tuple<T>) -> Result<Tuple<T>> {
    match coord {
        Tuple::Leaf(None) => Ok(Tuple::Node(Vec::new())),
        Tuple::Leaf(Some(_)) => Ok(t.clone()),
        Tuple::Node(_) => Ok(Tuple::Node(lift(coord, t, false)?)),
    }
}

fn lift<T: Clone>(coord: &Coord, t: &Tuple<T>, keep_under: bool) -> Result<Vec<Tuple<T>>> {
    match (coord, t) {
        (Tuple::Node(cv), Tuple::Node(tv)) if cv.len() == tv.len() => {
            let mut out = Vec::new();
            for (c, x) in cv.iter().zip(tv) {
                out.extend(lift(c, x, keep_under)?);
            }
            Ok(out)
        }
        (Tuple::Node(cv), _) => {
            Err(Error::RankMismatch { op: "slice", expected: alloc::format!("rank {}", t.rank()), found: cv.len() })
        }
        (Tuple::Leaf(c), _) if c.is_none() == keep_under => Ok(alloc::vec![t.clone()]),
        (Tuple::Leaf(_), _) => Ok(Vec::new()),
    }
}

/// Dropping is iterative: a tuple nested deeper than the stack allows (only the library API
/// can build one; the parser stops at `MAX_DEPTH`) must not overflow it when it goes away.
impl<T> Drop for Tuple<T> {
    fn drop(&mut self) {
        let Tuple::Node(v) = self else { return };
        // The common case, at most two levels below: the default (recursive) drop, which does
        // not allocate.
        let deep = |x: &Tuple<T>| matches!(x, Tuple::Node(w) if w.iter().any(|y| matches!(y, Tuple::Node(_))));
        if !v.iter().any(deep) {
            return;
        }
        let mut stack = core::mem::take(v);
        while let Some(mut t) = stack.pop() {
            if let Tuple::Node(inner) = &mut t {
                stack.append(inner);
            }
        }
    }
}
