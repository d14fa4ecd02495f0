//! The `@post` conditions CuTe C++ documents for each operation (`cute/layout.hpp`), and the
//! laws that define the operations, stated as code.
//!
//! Two uses: the property checks (`image`, `is_injective`, `is_surjective`, `is_bijective`,
//! `same_function`) are public queries on layouts (and in `cute eval`); the `check_*` functions
//! take an operation's inputs and its result and say whether the result is what the operation
//! promises. The test suite runs every result it computes (corpus, proptests, fuzz) through
//! them. They enumerate the domain, so results past [`MAX_POINTS`] points are not checked
//! (`Ok`), and the queries refuse domains past [`MAX_IMAGE`].
//!
//! A failed check is `Error::Postcondition`, naming the operation, the condition and a witness
//! (the first point where it fails).

use alloc::string::String;
use alloc::vec::Vec;

use crate::coalesce::filter;
use crate::complement::complement;
use crate::error::{Error, Result};
use crate::int_tuple::{compatible, product, IntTuple, Tuple};
use crate::layout::{make_layout_left, Layout};
use crate::tiler::Tiler;

/// The largest domain a `check_*` function enumerates; larger results pass unchecked.
pub const MAX_POINTS: i64 = 1 << 16;

pub use crate::layout::MAX_IMAGE;

fn size_of(l: &Layout) -> Result<i64> {
    Ok(l.size()?.value())
}

/// `L(0), L(1), ..., L(size - 1)`.
///
/// # Errors
/// `InvalidArgument` past [`MAX_IMAGE`] points; `Overflow`.
///
/// # Examples
/// ```
/// use cute_dyn::post::image;
/// // CuTe docs: (2,(2,2)):(4,(2,1)) in 1-D order
/// assert_eq!(image(&"(2,(2,2)):(4,(2,1))".parse()?)?, [0, 4, 2, 6, 1, 5, 3, 7]);
/// # Ok::<(), cute_dyn::Error>(())
/// ```
pub fn image(l: &Layout) -> Result<Vec<i64>> {
    l.image()
}

fn sorted_image(l: &Layout) -> Result<Vec<i64>> {
    let mut v = image(l)?;
    v.sort_unstable();
    Ok(v)
}

/// Whether no two coordinates map to one index.
///
/// # Errors
/// As [`image`].
///
/// # Examples
/// ```
/// use cute_dyn::post::is_injective;
/// assert!(is_injective(&"(2,2):(1,2)".parse()?)?);
/// assert!(!is_injective(&"(2,2):(1,1)".parse()?)?);
/// assert!(is_injective(&"(2,{1}):(4,{4})".parse()?)?); // a size-1 mode reaches only 0
/// # Ok::<(), cute_dyn::Error>(())
/// ```
pub fn is_injective(l: &Layout) -> Result<bool> {
    Ok(l.collision()?.is_none())
}

/// Whether every index of `[0, cosize)` is reached.
///
/// # Errors
/// As [`image`].
///
/// # Examples
/// ```
/// use cute_dyn::post::is_surjective;
/// assert!(is_surjective(&"(2,2):(1,1)".parse()?)?); // onto [0, 3)
/// assert!(!is_surjective(&"2:2".parse()?)?);
/// # Ok::<(), cute_dyn::Error>(())
/// ```
pub fn is_surjective(l: &Layout) -> Result<bool> {
    let mut v = sorted_image(l)?;
    v.dedup();
    let cosize = l.cosize()?.value();
    Ok(size_of(l)? == 0 || v.len() as i64 == cosize && v.first() == Some(&0) && v.last() == Some(&(cosize - 1)))
}

/// Two indices `i < j` with `L(i) == L(j)`, and the index they share; `None` for an injective
/// layout ([`Layout::collision`]).
///
/// # Errors
/// As [`image`].
///
/// # Examples
/// ```
/// use cute_dyn::post::collision;
/// assert_eq!(collision(&"(2,2):(1,1)".parse()?)?, Some((1, 2, 1)));
/// assert_eq!(collision(&"(2,2):(6,4)".parse()?)?, None);
/// # Ok::<(), cute_dyn::Error>(())
/// ```
pub fn collision(l: &Layout) -> Result<Option<(i64, i64, i64)>> {
    l.collision()
}

/// Whether `L` is a bijection of `[0, size)` onto `[0, cosize)` (then `size == cosize`).
///
/// # Errors
/// As [`image`].
///
/// # Examples
/// ```
/// use cute_dyn::post::is_bijective;
/// assert!(is_bijective(&"(4,(2,3)):(2,(1,8))".parse()?)?);
/// assert!(!is_bijective(&"(4,2):(2,2)".parse()?)?);
/// # Ok::<(), cute_dyn::Error>(())
/// ```
pub fn is_bijective(l: &Layout) -> Result<bool> {
    Ok(is_injective(l)? && is_surjective(l)?)
}

/// Whether `A` and `B` are the same function: equal sizes and `A(i) == B(i)` for every `i`.
///
/// # Errors
/// As [`image`].
///
/// # Examples
/// ```
/// use cute_dyn::post::same_function;
/// // CuTe docs: coalesce((2,(1,6)):(1,(6,2))) is 12:1
/// assert!(same_function(&"(2,(1,6)):(1,(6,2))".parse()?, &"12:1".parse()?)?);
/// assert!(!same_function(&"(2,2):(1,2)".parse()?, &"(2,2):(2,1)".parse()?)?);
/// # Ok::<(), cute_dyn::Error>(())
/// ```
pub fn same_function(a: &Layout, b: &Layout) -> Result<bool> {
    Ok(size_of(a)? == size_of(b)? && image(a)? == image(b)?)
}

// ------------------------------------------------------------------ checks of results

fn violated(op: &'static str, condition: &'static str, witness: String) -> Error {
    Error::Postcondition { op, condition, witness }
}

/// Too large to enumerate: the check passes unchecked.
fn too_large(l: &Layout) -> Result<bool> {
    Ok(size_of(l)? > MAX_POINTS)
}

/// A layout with an extent 0 has an empty domain: it cannot be evaluated at all (CuTe's
/// `crd2idx` divides by the extents), so laws that evaluate it hold vacuously; nor can one
/// whose indices do not fit in `i64`.
fn empty(l: &Layout) -> bool {
    l.shape().leaves().iter().any(|s| s.value() == 0) || l.cosize().is_err()
}

/// `x + y` of two indices; `Overflow` (a point `pointwise` leaves unchecked) past `i64`.
fn add(x: i64, y: i64) -> Result<i64> {
    x.checked_add(y).ok_or_else(|| Error::Overflow { op: "post" })
}

/// `R(i) == f(i)` for `i < n`, else the first `i` where it fails.
fn pointwise(
    op: &'static str,
    condition: &'static str,
    n: i64,
    r: &Layout,
    f: impl Fn(i64) -> Result<i64>,
) -> Result<()> {
    for i in 0..n {
        // A reference value past i64 (an operand whose indices do not fit) is not checked.
        let want = match f(i) {
            Err(Error::Overflow { .. }) => continue,
            w => w?,
        };
        let got = r.call(i)?;
        if got != want {
            return Err(violated(op, condition, alloc::format!("R({i}) = {got}, expected {want}, for R = {r}")));
        }
    }
    Ok(())
}

/// `coalesce`: `@post size(R) == size(L)`, `depth(R) <= 1`, `L(i) == R(i)`.
///
/// # Errors
/// `Postcondition` naming the condition that fails.
pub fn check_coalesce(l: &Layout, r: &Layout) -> Result<()> {
    if size_of(r)? != size_of(l)? || r.depth() > 1 {
        return Err(violated("coalesce", "size(R) == size(L) and depth(R) <= 1", alloc::format!("{l} -> {r}")));
    }
    if too_large(l)? || empty(l) {
        return Ok(());
    }
    pointwise("coalesce", "R(i) == L(i)", size_of(l)?, r, |i| l.call(i))
}

/// `filter`: `depth(R) <= 1` and the same set of indices as `L` (the stride-0 and size-1
/// modes removed change how often an index is reached, not which).
///
/// # Errors
/// `Postcondition`.
pub fn check_filter(l: &Layout, r: &Layout) -> Result<()> {
    if r.depth() > 1 {
        return Err(violated("filter", "depth(R) <= 1", alloc::format!("{r}")));
    }
    if too_large(l)? || too_large(r)? || empty(l) {
        return Ok(());
    }
    let (mut a, mut b) = (sorted_image(l)?, sorted_image(r)?);
    a.dedup();
    b.dedup();
    if a != b {
        return Err(violated("filter", "image(R) == image(L)", alloc::format!("{l} -> {r}")));
    }
    Ok(())
}

/// The layout an integer tiler element stands for (`n:1`, the same function as
/// `make_layout(n)`).
fn tiler_layout(t: &Tiler) -> Result<Option<Layout>> {
    Ok(match t {
        Tiler::Layout(b) => Some(b.clone()),
        Tiler::Int(n) => Some(make_layout_left(&Tuple::Leaf(*n))?),
        Tiler::Under | Tiler::ByMode(_) => None,
    })
}

/// Apply `leaf` to each (mode of `a`, tiler element, mode of `r`) as the by-mode operations
/// do; `drop_rest` for composition (modes of `a` past the tiler are dropped), else they are
/// kept unchanged.
fn by_mode(
    op: &'static str,
    a: &Layout,
    t: &Tiler,
    r: &Layout,
    drop_rest: bool,
    leaf: &dyn Fn(&Layout, &Layout, &Layout) -> Result<()>,
) -> Result<()> {
    match t {
        Tiler::Under => {
            if too_large(a)? || empty(a) {
                return Ok(());
            }
            if !same_function(a, r)? {
                return Err(violated(op, "a mode under _ is kept", alloc::format!("{a} -> {r}")));
            }
            Ok(())
        }
        Tiler::ByMode(v) => {
            let (am, rm) = (a.modes(), r.modes());
            let expected = if drop_rest { v.len() } else { am.len() };
            if rm.len() != expected {
                return Err(violated(op, "one result mode per mode", alloc::format!("{a} by {t} -> {r}")));
            }
            for (i, (m, rmode)) in am.iter().zip(&rm).enumerate() {
                match v.get(i) {
                    Some(ti) => by_mode(op, m, ti, rmode, drop_rest, leaf)?,
                    None => by_mode(op, m, &Tiler::Under, rmode, drop_rest, leaf)?,
                }
            }
            Ok(())
        }
        _ => leaf(a, &tiler_layout(t)?.expect("a layout or an integer"), r),
    }
}

/// `composition`: `@post compatible(B, R)` and `R(c) == A(B(c))`.
///
/// # Errors
/// `Postcondition`.
pub fn check_composition(a: &Layout, b: &Tiler, r: &Layout) -> Result<()> {
    by_mode("composition", a, b, r, true, &|a, b, r| {
        if !compatible(&b.shape(), &r.shape()) {
            return Err(violated("composition", "compatible(B, R)", alloc::format!("B = {b}, R = {r}")));
        }
        if too_large(b)? || empty(a) {
            return Ok(());
        }
        pointwise("composition", "R(c) == A(B(c))", size_of(b)?, r, |i| a.call(b.call(i)?))
    })
}

/// `complement`: CuTe's @post, the conditions CUTLASS's `test/unit/cute/core/complement.cpp`
/// asserts: `cosize(make_layout(L, R)) >= size(cotarget)` (1), `R` ordered (`R(i-1) < R(i)`,
/// 3), disjoint from `L` (`R(i) != L(j)` for `i >= 1`, 4), and `size(R) >= size(cotarget) /
/// size(filter(L))` in integer division (also `cute/layout.hpp`'s). Not its (2), `cosize(R) <=
/// round_up(size(cotarget), cosize(L))`, which CuTe's right answers break
/// (docs/deviations.md).
///
/// # Errors
/// `Postcondition`.
pub fn check_complement(l: &Layout, cotarget: &IntTuple, r: &Layout) -> Result<()> {
    const OP: &str = "complement";
    let target = product(cotarget)?.value();
    let both = Layout::from_modes(alloc::vec![l.clone(), r.clone()]);
    if both.cosize()?.value() < target {
        return Err(violated(OP, "cosize(make_layout(L, R)) >= size(cotarget)", alloc::format!("{both} for {target}")));
    }
    let fl = size_of(&filter(l)?)?;
    let n = size_of(r)?;
    if fl > 0 && n < target / fl {
        return Err(violated(
            OP,
            "size(R) >= size(cotarget) / size(filter(L))",
            alloc::format!("{l}, {target} -> {r}: {n} < {target} / {fl}"),
        ));
    }
    if too_large(r)? || too_large(l)? || empty(l) || empty(r) {
        return Ok(());
    }
    let img = image(r)?;
    if let Some(i) = (1..img.len()).find(|&i| img[i - 1] >= img[i]) {
        return Err(violated(
            OP,
            "R(i-1) < R(i)",
            alloc::format!("R({}) = {}, R({i}) = {} for R = {r}", i - 1, img[i - 1], img[i]),
        ));
    }
    let li = sorted_image(l)?;
    if let Some(i) = (1..img.len()).find(|&i| li.binary_search(&img[i]).is_ok()) {
        return Err(violated(OP, "R(i) != L(j) for i >= 1", alloc::format!("R({i}) = {} is reached by {l}", img[i])));
    }
    Ok(())
}

/// `right_inverse`: `L(R(i)) == i` for `i < size(R)`.
///
/// # Errors
/// `Postcondition`.
pub fn check_right_inverse(l: &Layout, r: &Layout) -> Result<()> {
    if too_large(r)? || empty(l) {
        return Ok(());
    }
    for i in 0..size_of(r)? {
        let got = l.call(r.call(i)?)?;
        if got != i {
            return Err(violated(
                "right_inverse",
                "L(R(i)) == i",
                alloc::format!("L(R({i})) = {got} for L = {l}, R = {r}"),
            ));
        }
    }
    Ok(())
}

/// `left_inverse` (CuTe's quasi-inverse): `L(R(L(i))) == L(i)` for `i < size(L)`, hence
/// `R(L(i)) == i` when `L` is injective.
///
/// # Errors
/// `Postcondition`.
pub fn check_left_inverse(l: &Layout, r: &Layout) -> Result<()> {
    if too_large(l)? || empty(l) || empty(r) {
        return Ok(());
    }
    left_inverse_law(l, r)
}

/// CuTe's law for a left inverse, `L(R(L(i))) == L(i)` for every `i < size(L)`, on every point
/// (the caller bounds the size): the first `i` where it fails. `left_inverse` itself checks
/// C++'s answer for a layout whose modes overlap with it.
pub(crate) fn left_inverse_law(l: &Layout, r: &Layout) -> Result<()> {
    for i in 0..size_of(l)? {
        let li = l.call(i)?;
        let ri = r.call(li)?;
        let got = l.call(ri)?;
        if got != li {
            return Err(violated(
                "left_inverse",
                "L(R(L(i))) == L(i)",
                alloc::format!("at i = {i}: L({i}) = {li}, R({li}) = {ri}, L(R({li})) = {got}, for L = {l}, R = {r}"),
            ));
        }
    }
    Ok(())
}

/// `logical_divide`: each divided mode is `(tile, rest)` with `R(j, k) == A(B(j) + C(k))`,
/// `C = complement(B, shape(coalesce(A)))` (the definition: `A ∘ make_layout(B, C)`); so the
/// tile mode is `A ∘ B`.
///
/// # Errors
/// `Postcondition`.
pub fn check_logical_divide(a: &Layout, b: &Tiler, r: &Layout) -> Result<()> {
    by_mode("logical_divide", a, b, r, false, &|a, b, r| {
        let c = complement(b, &crate::coalesce::coalesce(a)?.shape())?;
        let nb = size_of(b)?;
        if r.rank() != 2 || Some(size_of(r)?) != nb.checked_mul(size_of(&c)?) {
            return Err(violated(
                "logical_divide",
                "rank(R) == 2, size(R) == size(B) * size(C)",
                alloc::format!("{r}"),
            ));
        }
        if too_large(r)? || empty(a) || empty(b) || empty(&c) {
            return Ok(());
        }
        pointwise("logical_divide", "R(j, k) == A(B(j) + C(k))", size_of(r)?, r, |i| {
            a.call(add(b.call(i % nb.max(1))?, c.call(i / nb.max(1))?)?)
        })
    })
}

/// `logical_product`: each multiplied mode is `(A, C ∘ B)`, `C = complement(A, size(A) *
/// cosize(B))` (CuTe's algorithm, whose own @post the product does not need):
/// `R(i, j) == A(i) + C(B(j))`, and the copies of `A` do not overlap, `|image(R)| ==
/// |image(A)| * |image(B)|`.
///
/// # Errors
/// `Postcondition`.
pub fn check_logical_product(a: &Layout, b: &Tiler, r: &Layout) -> Result<()> {
    by_mode("logical_product", a, b, r, false, &|a, b, r| {
        let na = size_of(a)?;
        // The product's own complement: of A's mirror where A walks down, cotarget 0 for an
        // empty B (as `crate::product` takes it).
        let cotarget = if empty(b) { crate::Int::st(0) } else { a.size()?.checked_mul(b.cosize()?)? };
        let c = if crate::complement::walks_down(a.pairs()) {
            crate::complement::complement_unchecked(&crate::complement::mirror(a)?, &Tuple::Leaf(cotarget))?
        } else {
            crate::complement::complement_unchecked(a, &Tuple::Leaf(cotarget))?
        };
        if r.rank() != 2 || Some(size_of(r)?) != na.checked_mul(size_of(b)?) {
            return Err(violated(
                "logical_product",
                "rank(R) == 2, size(R) == size(A) * size(B)",
                alloc::format!("{r}"),
            ));
        }
        if too_large(r)? || empty(a) || empty(b) || empty(&c) {
            return Ok(());
        }
        pointwise("logical_product", "R(i, j) == A(i) + C(B(j))", size_of(r)?, r, |k| {
            add(a.call(k % na.max(1))?, c.call(b.call(k / na.max(1))?)?)
        })?;
        check_no_overlap(r, a, b)
    })
}

/// A product's condition beside `R(i, j) == A(i) + C(B(j))`: the copies of `A` do not
/// overlap.
pub(crate) const NO_OVERLAP: &str = "no overlap: |image(R)| == |image(A)| * |image(B)|";

/// [`NO_OVERLAP`] for a multiplied mode `r = (A, C o B)`, on its images (as [`image`] bounds
/// them).
///
/// # Errors
/// `Postcondition` where copies of `A` overlap; as [`image`].
pub(crate) fn check_no_overlap(r: &Layout, a: &Layout, b: &Layout) -> Result<()> {
    let distinct = |l: &Layout| -> Result<usize> {
        let mut v = sorted_image(l)?;
        v.dedup();
        Ok(v.len())
    };
    let (got, want) = (distinct(r)?, distinct(a)? * distinct(b)?);
    if got != want {
        let witness = alloc::format!("{r} reaches {got} indices, |image(A)| * |image(B)| = {want} (B = {b})");
        return Err(violated("logical_product", NO_OVERLAP, witness));
    }
    Ok(())
}

/// The zipped, tiled and flat rearrangements (and blocked/raked products): the same indices,
/// as often, as the logical operation's result `logical`.
///
/// # Errors
/// `Postcondition`.
pub fn check_rearrangement(op: &'static str, logical: &Layout, r: &Layout) -> Result<()> {
    if size_of(r)? != size_of(logical)? {
        return Err(violated(op, "size(R) == size(logical result)", alloc::format!("{logical} vs {r}")));
    }
    if too_large(r)? || empty(r) || empty(logical) {
        return Ok(());
    }
    if sorted_image(r)? != sorted_image(logical)? {
        return Err(violated(op, "R rearranges the logical result", alloc::format!("{logical} vs {r}")));
    }
    Ok(())
}
