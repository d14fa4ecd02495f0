//! logical_product at the type level, for static layouts:
//! `make_layout(A, composition(complement(A, size(A) * cosize(B)), B))`, by mode for a tiler.

use core::ops::{Add, Sub};

use typenum::{Bit, UInt, UTerm, Unsigned, B0, B1, U0, U1};

use crate::arith::{IsOne, MulMixed, MulT};
use crate::coalesce::CoalesceModesBound;
use crate::complement::ComplementMixed;
use crate::complement::ComplementPlan;
use crate::composition::{compose_modes_mixed, ComposeB, FixLast};
use crate::error::Error;
use crate::int_tuple::Leaf;
use crate::int_tuple::{Concat, Cons, Nil, RankT, Wrap};
use crate::layout::{AsModes, Compact, Layout, LayoutLeft, MaxIndexT, SizeT};
use crate::layout::{CosizeFold, SizeFold};
use crate::modes::{FlattenModes, ModeValues};
use crate::ops::TileToShapeOp;
use crate::tiler::{Arrange, Mixed, Plain};
use crate::tiler::{CompositionOp, ProductOp, TilerOp};
use crate::verdict::{First, FirstOf};

/// `Multiplied<A, B>`: the type of `logical_product(A, B)`.
pub type Multiplied<A, B> = <<B as TilerOp<ProductOp, A>>::Output as crate::verdict::Pair>::First;

/// A layout tiler: `(A, complement(A, size(A) * cosize(B)) ∘ B)`, with the first of
/// complement's and composition's verdicts. Each intermediate type is a parameter bound by an
/// associated-type equality: normalized once, where a projection named in several clauses is
/// normalized once per clause.
impl<SA, DA, SB, DB, N, M, C, K, VK, RS, RD, V, W> TilerOp<ProductOp, Layout<SA, DA>> for Layout<SB, DB>
where
    SA: SizeT<Output = N>,
    SB: MaxIndexT<DB, Output = M>,
    M: Add<B1>,
    N: MulT<<M as Add<B1>>::Output, Output = C>,
    C: ComplementPlan<Layout<SA, DA>, Out = (K, VK)>,
    Layout<SB, DB>: TilerOp<CompositionOp, K, Output = (Layout<RS, RD>, V)>,
    // Where CuTe's complement breaks its @post, the product is judged by its own definition.
    VK: Defer<NoOverlap<Layout<SA, DA>, Layout<RS, RD>, Layout<SB, DB>>, Output = W>,
    W: First<V>,
{
    type Output = (Layout<Cons<SA, Cons<RS, Nil>>, Cons<DA, Cons<RD, Nil>>>, FirstOf<W, V>);
}

/// A complement's verdict inside a product: a broken complement @post (CuTe's own algorithm
/// truncating a quotient) becomes the product's own condition `Check` ([`NoOverlap`]); every
/// other verdict stays.
#[doc(hidden)]
pub trait Defer<Check> {
    /// The verdict.
    type Output;
}
impl<Check> Defer<Check> for crate::verdict::Holds {
    type Output = crate::verdict::Holds;
}
impl<Check, T> Defer<Check> for crate::complement::complement_reaches::Failed<T> {
    type Output = Check;
}
impl<Check, T> Defer<Check> for crate::complement::complement_covers::Failed<T> {
    type Output = Check;
}
impl<Check, T> Defer<Check> for crate::complement::injective::Failed<T> {
    type Output = Self;
}

/// The verdict of a static product whose complement broke CuTe's @post: its copies of `A` must
/// not overlap, `|image((A, S))| == |image(A)| * |image(B)|` for its second mode `S` (cute-dyn's
/// and the mixed path's check), evaluated by the compiler where the product is instantiated
/// (a constant's panic names the condition). Layouts whose indices or points pass 2^16 are refused there
/// too: the compile-time check is bounded.
pub struct NoOverlap<A, S, B>(core::marker::PhantomData<(A, S, B)>);
impl<A: ConstLeaves, S: ConstLeaves, B: ConstLeaves> crate::verdict::Settle for NoOverlap<A, S, B> {
    const CHECK: () = no_overlap(&A::LEAVES, &S::LEAVES, &B::LEAVES);
}
impl<A, S, B, V> First<V> for NoOverlap<A, S, B> {
    type Output = Self;
}

/// The largest flat rank [`ConstLeaves`] holds (shape and stride leaves of a layout).
#[doc(hidden)]
pub const MAX_LEAVES: usize = 32;

/// A static layout's leaves as constants: `(count, shapes, strides)`, flattened.
#[doc(hidden)]
pub trait ConstLeaves {
    /// `(count, shapes, strides)`.
    const LEAVES: Leaves;
}
/// The leaves of a static tuple, flattened: `(count, values)`.
#[doc(hidden)]
pub trait ConstTuple {
    /// `(count, values)`.
    const VALUES: (usize, [usize; MAX_LEAVES]);
}
impl ConstTuple for typenum::UTerm {
    const VALUES: (usize, [usize; MAX_LEAVES]) = (1, [0; MAX_LEAVES]);
}
impl<U: typenum::Unsigned, B: typenum::Bit> ConstTuple for typenum::UInt<U, B> {
    const VALUES: (usize, [usize; MAX_LEAVES]) = {
        let mut v = [0; MAX_LEAVES];
        v[0] = <Self as typenum::Unsigned>::USIZE;
        (1, v)
    };
}
impl ConstTuple for Nil {
    const VALUES: (usize, [usize; MAX_LEAVES]) = (0, [0; MAX_LEAVES]);
}
impl<H: ConstTuple, T: ConstTuple> ConstTuple for Cons<H, T> {
    const VALUES: (usize, [usize; MAX_LEAVES]) = {
        let ((n, h), (m, t)) = (H::VALUES, T::VALUES);
        assert!(n + m <= MAX_LEAVES, "a static layout of more than 32 leaves in a product's compile-time check");
        let mut v = h;
        let mut i = 0;
        while i < m {
            v[n + i] = t[i];
            i += 1;
        }
        (n + m, v)
    };
}
impl<S: ConstTuple, D: ConstTuple> ConstLeaves for Layout<S, D> {
    const LEAVES: Leaves = (S::VALUES.0, S::VALUES.1, D::VALUES.1);
}

/// A static layout, plain or swizzled (`Sw o offset o L`), as constants the compiler evaluates
/// ([`const_layout_call`]): the inner layout's leaves, the swizzle's `(B, M, S)` (`(0, 0, 0)`:
/// none) and the offset. For the crates whose compile-time checks evaluate a shared tile
/// (cute-atom's `copy_if`).
#[doc(hidden)]
pub trait ConstLayout {
    /// The inner layout's leaves.
    const LEAVES: Leaves;
    /// `(B, M, S)`.
    const SWIZZLE: (usize, usize, i32);
    /// The offset before the swizzle.
    const OFFSET: usize;
}
impl<S, D> ConstLayout for Layout<S, D>
where
    Self: ConstLeaves,
{
    const LEAVES: Leaves = <Self as ConstLeaves>::LEAVES;
    const SWIZZLE: (usize, usize, i32) = (0, 0, 0);
    const OFFSET: usize = 0;
}
impl<B: Unsigned, M: Unsigned, Sh: typenum::Integer, O: Unsigned, L: ConstLeaves> ConstLayout
    for crate::ComposedLayout<crate::Swizzle<B, M, Sh>, O, L>
{
    const LEAVES: Leaves = L::LEAVES;
    const SWIZZLE: (usize, usize, i32) = (B::USIZE, M::USIZE, Sh::I32);
    const OFFSET: usize = O::USIZE;
}

/// `L(i)` of a [`ConstLayout`]: `Sw(offset + L(i))`.
#[doc(hidden)]
pub const fn const_layout_call<L: ConstLayout>(i: usize) -> usize {
    crate::swizzle::swizzle_offset(L::SWIZZLE, L::OFFSET + leaf_call(&L::LEAVES, i))
}

/// The compile-time bound of [`no_overlap`]: indices and points below 2^16.
const CONST_CHECKED: usize = 1 << 16;

/// A static layout's flat leaves as constants: `(count, shapes, strides)` ([`ConstLeaves`]).
#[doc(hidden)]
pub type Leaves = (usize, [usize; MAX_LEAVES], [usize; MAX_LEAVES]);

/// `L(i)` of flat leaves, for any `i` as C++ evaluates an integer: the last mode takes the
/// rest (past the domain too, as a left inverse is read at an index of its layout's image).
/// Public for the crates whose compile-time checks evaluate a static layout (cute-atom).
#[doc(hidden)]
pub const fn leaf_call(l: &Leaves, mut i: usize) -> usize {
    let (mut k, mut x) = (0, 0);
    while k < l.0 {
        let s = if l.1[k] == 0 { 1 } else { l.1[k] };
        let c = if k + 1 == l.0 { i } else { i % s };
        x += c * l.2[k];
        i /= s;
        k += 1;
    }
    x
}

/// `size(L)` of flat leaves, `None` past the bound.
const fn leaf_size(l: &Leaves) -> usize {
    let (mut k, mut n) = (0, 1usize);
    while k < l.0 {
        n = match n.checked_mul(l.1[k]) {
            Some(n) if n <= CONST_CHECKED => n,
            _ => panic!("logical_product: CuTe's complement breaks its @post here, and the product is too large to check for overlap at compile time (2^16 points); give the layout a run-time leaf (the check then runs)"),
        };
        k += 1;
    }
    n
}

/// The number of distinct values of `f` on `0..n`, each below [`CONST_CHECKED`].
const fn distinct(a: &Leaves, s: Option<&Leaves>, n: usize) -> usize {
    let mut seen = [0u64; CONST_CHECKED / 64];
    let (mut i, mut count) = (0, 0);
    let na = leaf_size(a);
    while i < n {
        let x = match s {
            Some(s) => leaf_call(a, i % na) + leaf_call(s, i / na),
            None => leaf_call(a, i),
        };
        if x >= CONST_CHECKED {
            panic!("logical_product: CuTe's complement breaks its @post here, and the product reaches past index 2^16, too far to check for overlap at compile time; give the layout a run-time leaf (the check then runs)");
        }
        if seen[x / 64] & (1 << (x % 64)) == 0 {
            seen[x / 64] |= 1 << (x % 64);
            count += 1;
        }
        i += 1;
    }
    count
}

/// The product `(A, S)` of `A` and `B` does not overlap: `|image((A, S))| == |image(A)| *
/// |image(B)|`.
const fn no_overlap(a: &Leaves, s: &Leaves, b: &Leaves) {
    let (na, ns, nb) = (leaf_size(a), leaf_size(s), leaf_size(b));
    if na * ns > CONST_CHECKED {
        panic!("logical_product: CuTe's complement breaks its @post here, and the product is too large to check for overlap at compile time (2^16 points); give the layout a run-time leaf (the check then runs)");
    }
    let (image_r, image_a, image_b) = (distinct(a, Some(s), na * ns), distinct(a, None, na), distinct(b, None, nb));
    if image_r != image_a * image_b {
        let mut m = ConstMessage::new();
        m.push("logical_product: no overlap fails, |image(R)| == |image(A)| * |image(B)|: |image(R)| is ");
        m.number(image_r);
        m.push(", |image(A)| * |image(B)| is ");
        m.number(image_a);
        m.push(" * ");
        m.number(image_b);
        m.push(" (CuTe's complement breaks its @post here; the product is judged by its own definition)");
        panic!("{}", m.as_str());
    }
}

/// A message with numbers in decimal, built by the compiler (a constant's panic takes a
/// `&str`, not formatting). Public for the crates whose compile-time checks speak as this
/// one's do (cute-atom); not part of the algebra's API.
#[doc(hidden)]
pub struct ConstMessage {
    buf: [u8; 256],
    len: usize,
}
impl ConstMessage {
    #[allow(clippy::new_without_default)] // built in constants, where `Default` cannot be called
    pub const fn new() -> Self {
        ConstMessage { buf: [0; 256], len: 0 }
    }
    pub const fn push(&mut self, s: &str) {
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() && self.len < self.buf.len() {
            self.buf[self.len] = b[i];
            self.len += 1;
            i += 1;
        }
    }
    pub const fn number(&mut self, mut x: usize) {
        let (mut digits, mut n) = ([0u8; 20], 0);
        loop {
            digits[n] = b'0' + (x % 10) as u8;
            x /= 10;
            n += 1;
            if x == 0 {
                break;
            }
        }
        while n > 0 && self.len < self.buf.len() {
            n -= 1;
            self.buf[self.len] = digits[n];
            self.len += 1;
        }
    }
    pub const fn as_str(&self) -> &str {
        match core::str::from_utf8(self.buf.split_at(self.len).0) {
            Ok(s) => s,
            Err(_) => "logical_product: no overlap fails",
        }
    }
}

crate::tiler::mixed_shape_route!(ProductOp, BlockedOp, RakedOp);
// complement sorts and compares values (cute-dyn's rule): the values may decide the structure.
crate::tiler::mixed_answers!(decided ProductOp, [How: crate::tiler::ByValues<ProductOp>, B] B, How, |a, b| How::by_values(&a.to_dyn()?, &crate::tiler::Tiler::to_dyn(&b)?));
crate::tiler::mixed_answers!(decided BlockedOp, [SB: crate::layout::Congruent<DB>, DB: crate::IntTuple] Layout<SB, DB>, Plain, |a, b| cute_dyn::blocked_product(&a.to_dyn()?, &b.to_dyn()?));
crate::tiler::mixed_answers!(decided RakedOp, [SB: crate::layout::Congruent<DB>, DB: crate::IntTuple] Layout<SB, DB>, Plain, |a, b| cute_dyn::raked_product(&a.to_dyn()?, &b.to_dyn()?));

/// Every leaf of `A` and `B` static: the type checker's product.
impl<SA, DA, B, R, V> Arrange<Plain, ProductOp, Layout<SA, DA>, B> for B1
where
    B: TilerOp<ProductOp, Layout<SA, DA>, Output = (R, V)>,
    R: Default,
{
    type Plan = (crate::ops::Static<R>, V);
}

crate::tiler::arranged_op!(
    ProductOp,
    Plain,
    LogicalProduct,
    by both operands,
    /// `logical_product(A, B)`: `B` repeated over copies of `A`,
    /// `(A, complement(A, size(A) * cosize(B)) ∘ B)`, by mode for a by-mode tiler.
    ///
    /// Static layouts: computed by the type checker (zero-sized, every precondition a compile
    /// error). A layout `A` with run-time leaves (any nesting; static strides, or one mode
    /// with a run-time stride, complement's domain) by one layout (static or run-time leaves)
    /// or integer, or by a by-mode tiler of those (mode `i` is `logical_product(A_i, B_i)`, the
    /// modes past the tiler kept): a `Result`, equal to cute-dyn's answer (static flags
    /// included), the conditions on run-time values checked when it runs.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, logical_product};
    /// // CuTe docs
    /// let r = logical_product(layout!((2,2):(4,1)), layout!(6:1));
    /// assert_eq!(r.to_string(), "((2,2),(2,3)):((4,1),(2,8))");
    /// // The same block with a run-time extent n = 2: the copies' layout is run-time
    /// // (cute-dyn's answer, `((2,?),(?,?)):((4,1),(?,?{div=8}))` in the DSL's notation).
    /// let n = 2;
    /// let r = logical_product(layout!((2,{n}):(4,1)), layout!(6:1))?;
    /// assert_eq!(r.to_string(), "((2,{2}),({2},{3})):((4,1),({2},{8}))");
    /// // A static 2x2 block repeated over a grid of 5x3 blocks, 5 known at run time.
    /// let m = 5;
    /// let r = logical_product(layout!((2,2):(1,2)), layout!(({m},3):(1,{m})))?;
    /// assert_eq!(r.to_string(), "((2,2),({5},3)):((1,2),(4,{20}))");
    /// // By mode: mode i is logical_product(A_i, B_i). Mode 0, rows:1 with rows = 6 known at
    /// // run time, repeated twice at stride 6; mode 1, 4:6, three times: its complement
    /// // within 4 * 3 is 6:1, so its copies are at stride 1 (cute-dyn's answer, printed
    /// // `((?,2),(4,3)):((1,?),(6,1))` in the DSL's notation).
    /// use cute_static::tiler;
    /// let rows = 6;
    /// let r = logical_product(layout!(({rows},4):(1,6)), tiler!(<2:1,3:1>))?;
    /// assert_eq!(r.to_string(), "(({6},2),(4,3)):((1,{6}),(6,1))");
    /// # Ok::<(), cute_static::error::Error>(())
    /// ```
    logical_product
);

// ------------------------------------------------------------------------------------------
// logical_product(A, B) of a layout A with run-time leaves by one layout B (static or
// run-time leaves) or integer: cute-dyn's `product_into`, `(A, complement(A, size(A) *
// cosize(B)) ∘ B)`, through complement's and composition's mixed routes (the structure decided
// on static values, the values and their conditions checked when it runs).
// ------------------------------------------------------------------------------------------

/// The two modes `(A, complement(A, size(A) * cosize(B)) ∘ B)` of `logical_product(A, B)` for
/// a layout `A = sa:da` with run-time leaves, implemented by `B` (a layout, or an integer `n`,
/// the layout `make_layout(n)`).
pub trait ProductParts<SA, DA> {
    /// `(A's shape, A's stride, the copies' shape, the copies' stride)`.
    type Output;
    /// The two modes.
    ///
    /// # Errors
    /// Those of [`ComplementMixed`](crate::complement::ComplementMixed) and
    /// [`composition_mixed`](crate::composition::composition_mixed); `Overflow` for a cotarget
    /// past `usize`.
    fn product_parts(&self, sa: SA, da: DA) -> Result<Self::Output, Error>;
}

// Every intermediate type is a parameter bound by an associated-type equality: normalized
// once (a projection named in several bounds is normalized once per bound; through the
// operations' own traits this impl cost rustc 5x their sum).
impl<SA, DA, SB, DB, N, C, K, KS, KD, F, G, M> ProductParts<SA, DA> for Layout<SB, DB>
where
    SA: SizeFold<U1, Output = N> + Copy,
    DA: Copy,
    SB: CosizeFold<DB, U1, Output = C> + Copy,
    DB: Copy,
    N: MulMixed<C, Output = K>,
    K: Leaf,
    Layout<SA, DA>: ComplementMixed<K, Output = Layout<KS, KD>>,
    KS: FlattenModes<KD, Output = F>,
    F: FixLast<Output = G>,
    G: CoalesceModesBound<Output = M>,
    M: ModeValues,
    SB: ComposeB<DB, M>,
    // For the product's own check, where the complement breaks its @post.
    SA: crate::layout::Congruent<DA>,
    DA: crate::int_tuple::IntTuple,
    SB: crate::layout::Congruent<DB>,
    DB: crate::int_tuple::IntTuple,
    <SB as ComposeB<DB, M>>::S: crate::layout::Congruent<<SB as ComposeB<DB, M>>::D>,
    <SB as ComposeB<DB, M>>::D: crate::int_tuple::IntTuple,
{
    type Output = (SA, DA, <SB as ComposeB<DB, M>>::S, <SB as ComposeB<DB, M>>::D);
    #[inline(always)]
    fn product_parts(&self, sa: SA, da: DA) -> Result<Self::Output, Error> {
        let overflow = Error::Overflow { op: "logical_product" };
        let (sb, db) = self.into_parts();
        let cotarget = sa.size_fold(U1::default()).and_then(|n| n.checked_mul(sb.cosize_fold(&db, U1::default())?));
        let (k, post) = Layout::from_parts(sa, da).complement_mixed_unchecked(cotarget.ok_or(overflow)?)?;
        let (ks, kd) = k.into_parts();
        let modes = ks.flatten_modes(&kd).fix_last().coalesce_modes_bound();
        let (rs, rd) = compose_modes_mixed(modes, *self)?.into_parts();
        if let Err(e) = post {
            // CuTe's complement breaks its @post: the product is judged by its own.
            check_no_overlap(&Layout::from_parts(sa, da), &Layout::from_parts(rs, rd), self, e)?;
        }
        Ok((sa, da, rs, rd))
    }
}

/// The largest index [`check_no_overlap`] marks (its three bitmaps live on the stack).
const CHECKED_INDICES: usize = 1 << 16;

/// A product's copies of `A` do not overlap: `|image((A, S))| == |image(A)| * |image(B)|` for
/// its second mode `S = complement o B` (cute-dyn's check; here without a heap, on indices
/// below 2^16); `unchecked` is the complement's error, kept where the product reaches past them.
#[cold]
#[inline(never)]
fn check_no_overlap<SA, DA, SR, DR, SB, DB>(
    a: &Layout<SA, DA>,
    second: &Layout<SR, DR>,
    b: &Layout<SB, DB>,
    unchecked: Error,
) -> Result<(), Error>
where
    SA: crate::layout::Congruent<DA>,
    DA: crate::int_tuple::IntTuple,
    SR: crate::layout::Congruent<DR>,
    DR: crate::int_tuple::IntTuple,
    SB: crate::layout::Congruent<DB>,
    DB: crate::int_tuple::IntTuple,
{
    const WORDS: usize = CHECKED_INDICES / 64;
    let (na, ns, nb) = (a.checked_size(), second.checked_size(), b.checked_size());
    let fits = |c: Option<usize>| c.is_some_and(|c| c <= CHECKED_INDICES);
    let reach = a.checked_cosize().zip(second.checked_cosize()).and_then(|(x, y)| x.checked_add(y));
    let (Some(na), Some(ns), Some(nb)) = (na, ns, nb) else { return Err(unchecked) };
    // Every loop below is bounded: an empty second mode must not let a huge A through.
    let points = na.checked_mul(ns).filter(|&p| p <= CHECKED_INDICES);
    if !fits(reach) || !fits(b.checked_cosize()) || points.is_none() || na > CHECKED_INDICES || nb > CHECKED_INDICES {
        return Err(unchecked);
    }
    // The number of distinct indices `f` reaches on `0..n`.
    let distinct = |n: usize, f: &dyn Fn(usize) -> usize| {
        let mut seen = [0u64; WORDS];
        (0..n).fold(0usize, |count, i| {
            let x = f(i);
            let (word, bit) = (x / 64, 1u64 << (x % 64));
            let new = seen[word] & bit == 0;
            seen[word] |= bit;
            count + new as usize
        })
    };
    let image_r = distinct(na * ns, &|k| a.call(k % na) + second.call(k / na));
    let (image_a, image_b) = (distinct(na, &|i| a.call(i)), distinct(nb, &|j| b.call(j)));
    if image_r != image_a * image_b {
        return Err(Error::Postcondition {
            op: "logical_product",
            condition: "no overlap: |image(R)| == |image(A)| * |image(B)|",
        });
    }
    Ok(())
}

use crate::tiler::rearrangements;

rearrangements!(
    ProductOp, Multiplied, ZippedMultiplied, ZippedProduct, TiledProduct, FlatProduct, [by both operands],
    /// `zipped_product(A, B)`: `((block), (product))`.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, zipped_product};
    /// let r = zipped_product(layout!((2,5):(5,1)), layout!((3,4):(1,3)));
    /// assert_eq!(r.to_string(), "((2,5),(3,4)):((5,1),(10,30))");
    /// ```
    zipped_product,
    /// `tiled_product(A, B)`: `((block), product0, product1, ...)`.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, tiled_product};
    /// let r = tiled_product(layout!((2,5):(5,1)), layout!((3,4):(1,3)));
    /// assert_eq!(r.to_string(), "((2,5),3,4):((5,1),10,30)");
    /// ```
    tiled_product,
    /// `flat_product(A, B)`: `(block0, block1, ..., product0, product1, ...)`.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{flat_product, layout};
    /// let r = flat_product(layout!((2,5):(5,1)), layout!((3,4):(1,3)));
    /// assert_eq!(r.to_string(), "(2,5,3,4):(5,1,10,30)");
    /// ```
    flat_product
);

// ------------------------------------------------------------------ blocked and raked

/// `K` copies of `F`, as a list (implemented by the typenum count `K`).
pub trait Copies<F> {
    /// The list.
    type Output;
    /// Its value (the copies are static).
    fn copies() -> Self::Output;
}
impl<F> Copies<F> for UTerm {
    type Output = Nil;
    #[inline(always)]
    fn copies() -> Nil {
        Nil
    }
}
impl<U: Unsigned, B: Bit, F: Default> Copies<F> for UInt<U, B>
where
    UInt<U, B>: Sub<B1>,
    <UInt<U, B> as Sub<B1>>::Output: Copies<F>,
{
    type Output = Cons<F, <<UInt<U, B> as Sub<B1>>::Output as Copies<F>>::Output>;
    #[inline(always)]
    fn copies() -> Self::Output {
        Cons(F::default(), <<UInt<U, B> as Sub<B1>>::Output as Copies<F>>::copies())
    }
}

/// `append<R>(T, F)`: `T` padded with `F` to rank `R` (a leaf stays a leaf at rank 1, as in
/// C++).
pub trait AppendTo<R, F> {
    /// The padded tuple.
    type Output;
    /// Its value.
    fn append_to(self) -> Self::Output;
}
impl<R, F> AppendTo<R, F> for Nil
where
    R: Copies<F>,
{
    type Output = <R as Copies<F>>::Output;
    #[inline(always)]
    fn append_to(self) -> Self::Output {
        R::copies()
    }
}
/// A tuple: itself at its own rank (the common case of two operands of one rank, without
/// computing an empty padding), else padded.
impl<R, F, H, T, N, E> AppendTo<R, F> for Cons<H, T>
where
    Cons<H, T>: RankT<Output = N>,
    R: crate::arith::EqT<N, Output = E>,
    (E,): PadList<Cons<H, T>, R, N, F>,
{
    type Output = <(E,) as PadList<Cons<H, T>, R, N, F>>::Output;
    #[inline(always)]
    fn append_to(self) -> Self::Output {
        <(E,)>::pad(self)
    }
}

/// A tuple `X` of rank `N` at rank `R`: itself (`B1`, `R == N`) or padded with `R - N` copies
/// of `F`.
pub trait PadList<X, R, N, F> {
    /// The padded tuple.
    type Output;
    /// Its value.
    fn pad(x: X) -> Self::Output;
}
impl<X, R, N, F> PadList<X, R, N, F> for (B1,) {
    type Output = X;
    #[inline(always)]
    fn pad(x: X) -> X {
        x
    }
}
impl<X, R, N, F> PadList<X, R, N, F> for (typenum::B0,)
where
    R: Sub<N>,
    <R as Sub<N>>::Output: Copies<F>,
    X: Concat<<<R as Sub<N>>::Output as Copies<F>>::Output>,
{
    type Output = <X as Concat<<<R as Sub<N>>::Output as Copies<F>>::Output>>::Output;
    #[inline(always)]
    fn pad(x: X) -> Self::Output {
        x.concat(<<R as Sub<N>>::Output as Copies<F>>::copies())
    }
}
macro_rules! leaf_append_to {
    ($([$($g:ident: $b:path),*] $ty:ty);*) => {$(
        /// A leaf: itself at rank 1, else the first of `R` modes.
        impl<R, F, $($g: $b),*> AppendTo<R, F> for $ty
        where
            R: crate::arith::EqT<U1>,
            (IsOne<R>,): PadLeaf<$ty, R, F>,
        {
            type Output = <(IsOne<R>,) as PadLeaf<$ty, R, F>>::Output;
            #[inline(always)]
            fn append_to(self) -> Self::Output {
                <(IsOne<R>,)>::pad(self)
            }
        }
    )*};
}
leaf_append_to!([] UTerm; [U: Unsigned, B: Bit] UInt<U, B>; [] usize);

/// A leaf at rank 1 (`B1`) or padded.
pub trait PadLeaf<X, R, F> {
    /// The padded leaf.
    type Output;
    /// Its value.
    fn pad(x: X) -> Self::Output;
}
impl<X, R, F> PadLeaf<X, R, F> for (B1,) {
    type Output = X;
    #[inline(always)]
    fn pad(x: X) -> X {
        x
    }
}
impl<X, R: Sub<B1>, F> PadLeaf<X, R, F> for (typenum::B0,)
where
    <R as Sub<B1>>::Output: Copies<F>,
{
    type Output = Cons<X, <<R as Sub<B1>>::Output as Copies<F>>::Output>;
    #[inline(always)]
    fn pad(x: X) -> Self::Output {
        Cons(x, <<R as Sub<B1>>::Output as Copies<F>>::copies())
    }
}

/// `zip(X, Y)`: a leaf `X` gives `((X, Y))`; tuples of one rank give `((X0, Y0), (X1, Y1), ...)`
/// (implemented by `X`).
pub trait Zip<Y> {
    /// The zipped tuple.
    type Output;
    /// Its value.
    fn zip(self, y: Y) -> Self::Output;
}
impl Zip<Nil> for Nil {
    type Output = Nil;
    #[inline(always)]
    fn zip(self, _: Nil) -> Nil {
        Nil
    }
}
impl<X0, XT: Zip<YT>, Y0, YT> Zip<Cons<Y0, YT>> for Cons<X0, XT> {
    type Output = Cons<Cons<X0, Cons<Y0, Nil>>, <XT as Zip<YT>>::Output>;
    #[inline(always)]
    fn zip(self, y: Cons<Y0, YT>) -> Self::Output {
        Cons(Cons(self.0, Cons(y.0, Nil)), self.1.zip(y.1))
    }
}
macro_rules! leaf_zip {
    ($([$($g:ident: $b:path),*] $ty:ty);*) => {$(
        impl<Y, $($g: $b),*> Zip<Y> for $ty {
            type Output = Cons<Cons<$ty, Cons<Y, Nil>>, Nil>;
            #[inline(always)]
            fn zip(self, y: Y) -> Self::Output {
                Cons(Cons(self, Cons(y, Nil)), Nil)
            }
        }
    )*};
}
leaf_zip!([] UTerm; [U: Unsigned, B: Bit] UInt<U, B>; [] usize);

pub use crate::ops::{BlockedOp, RakedOp};

/// The order in which a rank product zips `(block, product)`.
pub trait ZipOrder<X, Y> {
    /// The zipped tuple.
    type Output;
    /// Its value.
    fn zip_order(x: X, y: Y) -> Self::Output;
}
impl<X: Zip<Y>, Y> ZipOrder<X, Y> for BlockedOp {
    type Output = <X as Zip<Y>>::Output;
    #[inline(always)]
    fn zip_order(x: X, y: Y) -> Self::Output {
        x.zip(y)
    }
}
impl<X, Y: Zip<X>> ZipOrder<X, Y> for RakedOp {
    type Output = <Y as Zip<X>>::Output;
    #[inline(always)]
    fn zip_order(x: X, y: Y) -> Self::Output {
        y.zip(x)
    }
}

/// `blocked_product` and `raked_product`: `zip` of the two modes of
/// `logical_product(append<R>(A), append<R>(B))`, `R = max(rank(A), rank(B))` (one impl per
/// marker, so that other operations' impls are not candidates). Operands of one rank, the
/// common case, go to the product as they are: padding them anyway, with the layouts taken
/// apart in this impl's header, cost rustc a third more instructions per call than the
/// product itself (`scripts/compile_time.sh --instructions blocked_product`: 128 -> 83 million
/// per call).
macro_rules! rank_product_op {
    ($($op:ty),*) => {$(
impl<A: RankEq<B, Output = E>, B, E, R> crate::gate::Operation<A, B> for $op
where
    (E,): RankProduct<$op, A, B, Output = R>,
{
    type Output = R;
}
    )*};
}
rank_product_op!(BlockedOp, RakedOp);

/// `(append<R>(A), append<R>(B))`, `R = max(rank(A), rank(B))` (implemented by `A`).
pub trait RankPad<B> {
    /// `append<R>(A)`.
    type PA;
    /// `append<R>(B)`.
    type PB;
}
impl<SA, DA, SB, DB, R, PSA, PDA, PSB, PDB> RankPad<Layout<SB, DB>> for Layout<SA, DA>
where
    SA: RankT + AppendTo<R, U1, Output = PSA>,
    SB: RankT + AppendTo<R, U1, Output = PSB>,
    DA: AppendTo<R, U0, Output = PDA>,
    DB: AppendTo<R, U0, Output = PDB>,
    <SA as RankT>::Output: crate::arith::MaxT<<SB as RankT>::Output, Output = R>,
{
    type PA = Layout<PSA, PDA>;
    type PB = Layout<PSB, PDB>;
}

/// `B1` when two layouts have one rank (implemented by the first).
pub trait RankEq<B> {
    /// The bit.
    type Output;
}
impl<SA: RankT, DA, SB: RankT, DB> RankEq<Layout<SB, DB>> for Layout<SA, DA>
where
    <SA as RankT>::Output: crate::arith::EqT<<SB as RankT>::Output>,
{
    type Output = <<SA as RankT>::Output as crate::arith::EqT<<SB as RankT>::Output>>::Output;
}

/// A rank product of `A` and `B` of one rank (`B1`): `zip` of the modes of their
/// `logical_product`; of different ranks (`B0`): the same of both padded to the larger rank.
pub trait RankProduct<Op, A, B> {
    /// The product.
    type Output;
}
impl<Op, A, B, P, V, R> RankProduct<Op, A, B> for (B1,)
where
    B: TilerOp<ProductOp, A, Output = (P, V)>,
    Op: ZipModes<P, Output = R>,
{
    type Output = (R, V);
}
impl<Op, A: RankPad<B>, B> RankProduct<Op, A, B> for (typenum::B0,)
where
    (B1,): RankProduct<Op, <A as RankPad<B>>::PA, <A as RankPad<B>>::PB>,
{
    type Output = <(B1,) as RankProduct<Op, <A as RankPad<B>>::PA, <A as RankPad<B>>::PB>>::Output;
}

/// The two modes of a product zipped in the marker's order (implemented by the marker).
pub trait ZipModes<P> {
    /// The zipped layout.
    type Output;
}
impl<Op, S0, S1, D0, D1, ZS, ZD> ZipModes<Layout<Cons<S0, Cons<S1, Nil>>, Cons<D0, Cons<D1, Nil>>>> for Op
where
    Op: ZipOrder<S0, S1, Output = ZS> + ZipOrder<D0, D1, Output = ZD>,
{
    type Output = Layout<ZS, ZD>;
}

/// Every leaf of `A` and `B` static: the type checker's rank product.
macro_rules! static_rank_product {
    ($($op:ty),*) => {$(
        impl<SA, DA, B, R, V> Arrange<Plain, $op, Layout<SA, DA>, B> for B1
        where
            $op: crate::gate::Operation<Layout<SA, DA>, B, Output = (R, V)>,
            R: Default,
        {
            type Plan = (crate::ops::Static<R>, V);
        }
    )*};
}
static_rank_product!(BlockedOp, RakedOp);

/// `blocked_product` and `raked_product` of layouts with run-time leaves (cute-dyn's
/// `rank_product`): both padded to the larger rank, the two modes of their logical product
/// ([`ProductParts`]) zipped in the marker's order. (The padding is [`RankPad`]'s, written out:
/// through `RankPad`'s two associated types rustc proved its bounds twice more, 541 -> 644
/// million instructions per call.)
macro_rules! mixed_rank_product {
    ($($op:ty),*) => {$(
        impl<SA, DA, SB, DB, R, PSA, PDA, PSB, PDB, RS, RD> Mixed<Plain, Layout<SA, DA>, Layout<SB, DB>> for $op
        where
            SA: RankT + AppendTo<R, U1, Output = PSA>,
            SB: RankT + AppendTo<R, U1, Output = PSB>,
            DA: AppendTo<R, U0, Output = PDA>,
            DB: AppendTo<R, U0, Output = PDB>,
            <SA as RankT>::Output: crate::arith::MaxT<<SB as RankT>::Output, Output = R>,
            Layout<PSB, PDB>: ProductParts<PSA, PDA, Output = (PSA, PDA, RS, RD)>,
            $op: ZipOrder<PSA, RS> + ZipOrder<PDA, RD>,
        {
            type Output = Result<Layout<<$op as ZipOrder<PSA, RS>>::Output, <$op as ZipOrder<PDA, RD>>::Output>, Error>;
            #[inline(always)]
            fn mixed(a: Layout<SA, DA>, b: Layout<SB, DB>) -> Self::Output {
                let ((sa, da), (sb, db)) = (a.into_parts(), b.into_parts());
                let tiler = Layout::from_parts(sb.append_to(), db.append_to());
                let (ts, td, rs, rd) = tiler.product_parts(sa.append_to(), da.append_to())?;
                Ok(Layout::from_parts(<$op>::zip_order(ts, rs), <$op>::zip_order(td, rd)))
            }
        }
    )*};
}
mixed_rank_product!(BlockedOp, RakedOp);

crate::tiler::arranged_op!(
    BlockedOp,
    Plain,
    BlockedProduct,
    by both operands,
    /// `blocked_product(A, B)`: every element of `B` is a block `A`; mode i is `(A_i, B_i)`:
    /// `zip` of the two modes of `logical_product(append<R>(A), append<R>(B))`,
    /// `R = max(rank(A), rank(B))`.
    ///
    /// Static layouts: computed by the type checker. Layouts with run-time leaves (either
    /// operand): a `Result`, as [`logical_product`].
    ///
    /// # Examples
    /// ```
    /// use cute_static::{blocked_product, layout};
    /// // CuTe docs
    /// let r = blocked_product(layout!((2,5):(5,1)), layout!((3,4):(1,3)));
    /// assert_eq!(r.to_string(), "((2,3),(5,4)):((5,10),(1,30))");
    /// // A static 2x5 block over a grid of 3 x n blocks, n = 4 known at run time.
    /// let n = 4;
    /// let r = blocked_product(layout!((2,5):(5,1)), layout!((3,{n}):(1,3)))?;
    /// assert_eq!(r.to_string(), "((2,3),(5,{4})):((5,10),(1,30))");
    /// # Ok::<(), cute_static::error::Error>(())
    /// ```
    blocked_product
);

crate::tiler::arranged_op!(
    RakedOp,
    Plain,
    RakedProduct,
    by both operands,
    /// `raked_product(A, B)`: the blocks of [`blocked_product`] interleaved; mode i is
    /// `(B_i, A_i)`. Static layouts: computed by the type checker; layouts with run-time
    /// leaves: a `Result`, as [`logical_product`].
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, raked_product};
    /// // CuTe docs
    /// let r = raked_product(layout!((2,5):(5,1)), layout!((3,4):(1,3)));
    /// assert_eq!(r.to_string(), "((3,2),(4,5)):((10,5),(30,1))");
    /// ```
    raked_product
);

// ------------------------------------------------------------------------- tile_to_shape

cute_macros::decimal_condition! {
    /// tile_to_shape: each mode of the target shape is a multiple of the block's mode.
    /// Implemented by the condition's bit.
    pub trait TileDivisibility(target, block) {
        message = "shape divisibility condition violated in tile_to_shape: the target mode {target} is not a multiple of the block's mode {block}",
        label = "the block does not tile the shape evenly",
        note = "each mode of the block's shape must divide the same mode of the target shape",
    }
}

cute_macros::decimal_condition! {
    /// tile_to_shape: the block has at most as many modes as the target shape. Implemented by
    /// `rank(block) <= rank(shape)`.
    pub trait BlockRank(block, rank) {
        message = "rank mismatch in tile_to_shape: a block of rank {block} for a shape of rank {rank}",
        label = "the block has at most rank(shape) = {rank} modes",
    }
}

/// The repeat counts `target_i / block_i` per mode, with the divisibility check (implemented
/// by the block's per-mode sizes, against the target's modes).
pub trait Quotients<T> {
    /// The counts, as a shape.
    type Output;
}
impl Quotients<Nil> for Nil {
    type Output = Nil;
}
/// Block modes past the shape's rank: nothing (the [`BlockRank`] verdict reports them).
impl<B, BT> Quotients<Nil> for Cons<B, BT> {
    type Output = Nil;
}
impl<B, BT, T, TT> Quotients<Cons<T, TT>> for Cons<B, BT>
where
    B: SizeT,
    T: SizeT,
    <T as SizeT>::Output: crate::arith::Divides<<B as SizeT>::Output> + crate::arith::DivT<<B as SizeT>::Output>,
    (<<T as SizeT>::Output as crate::arith::Divides<<B as SizeT>::Output>>::Output,):
        QuotientStep<<T as SizeT>::Output, <B as SizeT>::Output, BT, TT>,
{
    type Output = <(<<T as SizeT>::Output as crate::arith::Divides<<B as SizeT>::Output>>::Output,) as QuotientStep<
        <T as SizeT>::Output,
        <B as SizeT>::Output,
        BT,
        TT,
    >>::Output;
}

/// One repeat count, chosen by the divisibility bit: `t / b` before the rest (`B1`), or the
/// list ended with [`TileDivisibility`]'s verdict ([`Terminated`](crate::verdict::Terminated)).
pub trait QuotientStep<T, B, BT, TT> {
    /// The counts from this mode on.
    type Output;
}
impl<T: crate::arith::DivT<B>, B, BT: Quotients<TT>, TT> QuotientStep<T, B, BT, TT> for (B1,) {
    type Output = Cons<<T as crate::arith::DivT<B>>::Output, <BT as Quotients<TT>>::Output>;
}
impl<T, B, BT, TT> QuotientStep<T, B, BT, TT> for (B0,)
where
    B0: TileDivisibility<T, B>,
{
    type Output = <B0 as TileDivisibility<T, B>>::Verdict;
}

/// The repeat counts of `block` (padded to the rank of `shape`) over `shape`, always a tuple
/// (C++'s make_ordered_layout of a leaf count is a rank-1 layout), ending with `Nil` or with a
/// failed verdict ([`Terminated`](crate::verdict::Terminated)).
type RepsOrFailed<SB, Shape> =
    <<<SB as AppendTo<PadRank<SB, Shape>, U1>>::Output as Wrap>::Output as Quotients<<Shape as Wrap>::Output>>::Output;
/// The repeat counts.
type Reps<SB, Shape> = <RepsOrFailed<SB, Shape> as crate::verdict::Terminated>::List;
/// [`TileDivisibility`]'s verdict on them.
type RepsVerdict<SB, Shape> = <RepsOrFailed<SB, Shape> as crate::verdict::Terminated>::Verdict;
/// [`BlockRank`]'s verdict.
type RankVerdict<SB, Shape> =
    <<<SB as RankT>::Output as crate::arith::LeT<<Shape as RankT>::Output>>::Output as BlockRank<
        <SB as RankT>::Output,
        <Shape as RankT>::Output,
    >>::Verdict;
/// The block padded to the rank of `shape`.
type Padded<SB, DB, Shape> =
    Layout<<SB as AppendTo<PadRank<SB, Shape>, U1>>::Output, <DB as AppendTo<PadRank<SB, Shape>, U0>>::Output>;
/// The repeats as a column-major layout.
type RepLayout<SB, Shape> = Layout<Reps<SB, Shape>, <Reps<SB, Shape> as Compact<LayoutLeft, U1>>::Stride>;

/// The padding rank: `rank(shape)`, or the block's rank when that is larger (then the
/// [`BlockRank`] error is the only one: nothing else fails on the way).
type PadRank<SB, Shape> = <<Shape as RankT>::Output as crate::arith::MaxT<<SB as RankT>::Output>>::Output;

impl<SB, DB, Shape, R, V> crate::gate::Operation<Layout<SB, DB>, Shape> for TileToShapeOp
where
    Shape: RankT + Wrap,
    SB: RankT,
    <SB as RankT>::Output: crate::arith::LeT<<Shape as RankT>::Output>,
    <<SB as RankT>::Output as crate::arith::LeT<<Shape as RankT>::Output>>::Output:
        BlockRank<<SB as RankT>::Output, <Shape as RankT>::Output>,
    <Shape as RankT>::Output: crate::arith::MaxT<<SB as RankT>::Output>,
    SB: AppendTo<PadRank<SB, Shape>, U1>,
    DB: AppendTo<PadRank<SB, Shape>, U0>,
    <SB as AppendTo<PadRank<SB, Shape>, U1>>::Output: Wrap,
    <<SB as AppendTo<PadRank<SB, Shape>, U1>>::Output as Wrap>::Output: Quotients<<Shape as Wrap>::Output>,
    RepsOrFailed<SB, Shape>: crate::verdict::Terminated,
    Reps<SB, Shape>: Compact<LayoutLeft, U1>,
    BlockedOp: crate::gate::Operation<Padded<SB, DB, Shape>, RepLayout<SB, Shape>, Output = (R, V)>,
    RankVerdict<SB, Shape>: crate::verdict::First<RepsVerdict<SB, Shape>>,
    crate::verdict::FirstOf<RankVerdict<SB, Shape>, RepsVerdict<SB, Shape>>: crate::verdict::First<V>,
{
    // (result, verdict): a block of higher rank than the shape is reported alone.
    type Output =
        (R, crate::verdict::FirstOf<crate::verdict::FirstOf<RankVerdict<SB, Shape>, RepsVerdict<SB, Shape>>, V>);
}

/// `tile_to_shape` with a run-time leaf in the block or the shape ([`crate::gate::Route`]'s
/// `B0`, by the [`StaticBit`] of both; every leaf static, `B1`, is the type checker's):
/// cute-dyn's `tile_to_shape`, the block padded to the
/// rank of the shape, the repeat counts `size(shape_i) / size(block_i)` (static where both
/// sizes are) checked for divisibility when it runs, laid out column-major, and the mixed
/// [`blocked_product`] of the two. The ranks are types: a block of higher rank than the shape
/// is the compile error [`BlockRank`], as for static layouts.
impl<SA, DA, Shape, RA, RS, P, PSA, PDA, BM, TM, Q, QD, L> crate::gate::Route<TileToShapeOp, Layout<SA, DA>, Shape>
    for typenum::B0
where
    SA: RankT<Output = RA> + AppendTo<P, U1, Output = PSA>,
    DA: AppendTo<P, U0, Output = PDA>,
    Shape: RankT<Output = RS> + AsModes<Modes = TM>,
    RA: crate::arith::LeT<RS>,
    <RA as crate::arith::LeT<RS>>::Output: BlockRank<RA, RS>,
    <<RA as crate::arith::LeT<RS>>::Output as BlockRank<RA, RS>>::Check: block_rank::Report,
    RS: crate::arith::MaxT<RA, Output = P>,
    PSA: AsModes<Modes = BM>,
    BM: RepsMixed<TM, Output = Q>,
    Q: Compact<LayoutLeft, U1, Stride = QD> + crate::Congruent<QD>,
    QD: crate::IntTuple,
    Layout<PSA, PDA>: crate::ops::BlockedProduct<Layout<Q, QD>, Output = Result<crate::Decided<L>, Error>>,
{
    // (result, verdict): the conditions on run-time values are checked when it runs; the
    // structure, as blocked_product's, may be the values'.
    type Output = (Result<crate::Decided<L>, Error>, crate::verdict::Holds);
    #[inline(always)]
    fn route(a: Layout<SA, DA>, shape: Shape) -> Self::Output {
        let (sa, da) = a.into_parts();
        let (psa, pda): (PSA, PDA) = (sa.append_to(), da.append_to());
        let r = psa.as_modes().reps_mixed(shape.as_modes()).and_then(|reps| {
            crate::ops::BlockedProduct::blocked_product(
                Layout::from_parts(psa, pda),
                crate::layout::make_layout_left(reps),
            )
        });
        (r, crate::verdict::Holds)
    }
}

/// The repeat counts of [`crate::gate::Route`]'s run-time route, implemented by the block's modes:
/// `ceil_div(size(target_i), size(block_i))` per mode, static where both sizes are (cute-dyn's
/// `Int` rule), after checking that the block's mode divides the target's.
pub trait RepsMixed<T> {
    /// The counts, as a shape.
    type Output;
    /// Their values.
    ///
    /// # Errors
    /// `ShapeDivisibility` where a block's mode does not divide the target's (or is 0);
    /// `Overflow` for a size past `usize`.
    fn reps_mixed(self, target: T) -> Result<Self::Output, Error>;
}
impl RepsMixed<Nil> for Nil {
    type Output = Nil;
    #[inline(always)]
    fn reps_mixed(self, _: Nil) -> Result<Nil, Error> {
        Ok(Nil)
    }
}
impl<B, BT, T, TT, NB, NT> RepsMixed<Cons<T, TT>> for Cons<B, BT>
where
    B: SizeFold<U1, Output = NB>,
    T: SizeFold<U1, Output = NT>,
    NB: Leaf,
    NT: Leaf + crate::arith::DivMixed<NB>,
    BT: RepsMixed<TT>,
{
    type Output = Cons<<NT as crate::arith::DivMixed<NB>>::Ceil, <BT as RepsMixed<TT>>::Output>;
    #[inline(always)]
    fn reps_mixed(self, target: Cons<T, TT>) -> Result<Self::Output, Error> {
        let overflow = Error::Overflow { op: "tile_to_shape" };
        let nb = self.0.size_fold(U1::default()).ok_or(overflow)?;
        let nt = target.0.size_fold(U1::default()).ok_or(overflow)?;
        // Precondition: each mode of the block divides the target's.
        if nb.value() == 0 || nt.value() % nb.value() != 0 {
            return Err(Error::ShapeDivisibility { op: "tile_to_shape", shape: nt.value(), divisor: nb.value() });
        }
        Ok(Cons(nt.checked_ceil_div(nb)?, self.1.reps_mixed(target.1)?))
    }
}

// The bit and the result are parameters bound once (see the `gate` module).
crate::gate::judged_op!(
    /// `tile_to_shape(block, shape)`: `block` repeated (by a [`blocked_product`]) in column-major
    /// order until it covers `shape`. Static layouts and shapes: computed by the type checker; a
    /// block of higher rank than the shape, or a mode that does not divide, is a compile error. A
    /// run-time leaf in the block or the shape: a `Result`, equal to cute-dyn's answer (static
    /// flags included), a mode that does not divide refused when it runs.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, shape, tile_to_shape};
    /// // A 2x2 column-major block tiled over 4x6: the block, then its 2x3 repeats.
    /// let r = tile_to_shape(layout!((2,2):(1,2)), shape!((4,6)));
    /// assert_eq!(r.to_string(), "((2,2),(2,3)):((1,4),(2,8))");
    /// // The same block over m x 6, m = 8 known at run time: m / 2 repeats down.
    /// let m = 8;
    /// let r = tile_to_shape(layout!((2,2):(1,2)), shape!(({m},6)))?;
    /// assert_eq!(r.to_string(), "((2,{4}),(2,3)):((1,4),(2,{16}))");
    /// assert!(tile_to_shape(layout!((2,2):(1,2)), shape!(({7},6))).is_err());
    /// # Ok::<(), cute_static::error::Error>(())
    /// ```
    fn tile_to_shape(shape: Shape) by Cons<Layout<SA, DA>, Cons<Shape, Nil>> => TileToShapeOp, TileToShape
);

/// `make_fragment_like(L)`: the layout of a register fragment for `L`'s elements, as cute-dyn's
/// (CuTe C++ `layout.hpp`): for a static shape of rank > 1, mode 0 compact column-major (its
/// static-0 strides kept) and the other modes after it, ordered by their strides
/// (`tiled_product(mode 0, make_ordered_layout(rest shape, rest stride))`); otherwise
/// `make_layout_left(shape)`. Static whenever the shape is, so a fragment's storage is sized
/// at compile time ([`make_tensor`](crate::tensor::make_tensor)).
///
/// # Panics
/// When a run-time stride of `make_layout_left` overflows `usize`.
///
/// # Examples
/// ```
/// use cute_static::{layout, make_fragment_like};
/// // A thread's (value, m, n) partition of a row-major tile; CuTe C++ 4.2 gives
/// // ((_2,_2),_2,_4):((_1,_2),_16,_4).
/// assert_eq!(make_fragment_like(layout!(((2,2),2,4):((1,8),64,16))).to_string(), "((2,2),2,4):((1,2),16,4)");
/// // The same partition of an M x N column-major matrix of run-time M: the strides are
/// // ordered as static ones before run-time ones, in order.
/// let m = 1000;
/// assert_eq!(make_fragment_like(layout!(((2,2),2,4):((1,{m}),16,{m}))).to_string(), "((2,2),2,4):((1,2),4,8)");
/// ```
#[inline(always)]
pub fn make_fragment_like<L: FragmentLike<Output = R>, R: crate::gate::Produce>(l: L) -> R {
    R::produce(move || l.fragment_like())
}

/// [`make_fragment_like`] as a trait: one bound in generic code.
pub trait FragmentLike {
    /// The fragment's layout type.
    type Output: crate::gate::Produce + crate::LayoutFn;
    /// `make_fragment_like(self)`.
    fn fragment_like(self) -> Self::Output;
}
impl<S, D, R> FragmentLike for Layout<S, D>
where
    S: crate::layout::Congruent<D> + RankT + crate::int_tuple::StaticBit,
    D: crate::int_tuple::IntTuple,
    U1: crate::arith::LtT<<S as RankT>::Output>,
    <U1 as crate::arith::LtT<<S as RankT>::Output>>::Output:
        core::ops::BitAnd<<S as crate::int_tuple::StaticBit>::Output>,
    (FragmentBit<S>,): FragmentCase<S, D, Output = R>,
    R: crate::gate::Produce + crate::LayoutFn,
{
    type Output = R;
    #[inline(always)]
    fn fragment_like(self) -> R {
        <(FragmentBit<S>,)>::fragment(self)
    }
}

/// `B1` when `make_fragment_like` orders the modes: rank > 1 and a static shape.
type FragmentBit<S> = <<U1 as crate::arith::LtT<<S as RankT>::Output>>::Output as core::ops::BitAnd<
    <S as crate::int_tuple::StaticBit>::Output,
>>::Output;

/// [`make_fragment_like`] by case.
pub trait FragmentCase<S, D> {
    /// The fragment's layout.
    type Output;
    /// The layout.
    fn fragment(l: Layout<S, D>) -> Self::Output;
}
/// A rank-1 layout or a run-time shape: `make_layout_left(shape)`.
impl<S, D> FragmentCase<S, D> for (typenum::B0,)
where
    S: Compact<LayoutLeft, U1> + crate::layout::Congruent<S::Stride> + crate::layout::Congruent<D>,
    D: crate::int_tuple::IntTuple,
{
    type Output = Layout<S, S::Stride>;
    #[inline(always)]
    fn fragment(l: Layout<S, D>) -> Self::Output {
        crate::layout::make_layout_left(*l.shape())
    }
}
/// A static shape of rank > 1: mode 0 compact, the rest ordered after it.
impl<S0, ST, D0, DT, M0, F0, FS0, S0F, R0, MT, RT, Out> FragmentCase<Cons<S0, ST>, Cons<D0, DT>> for (B1,)
where
    S0: crate::modes::FlattenModes<D0, Output = M0> + crate::layout::Refill<FS0, Output = S0F, Rest = Nil>,
    M0: crate::modes::FilterZeros<Output = F0>,
    F0: crate::coalesce::Unzip<Shape = FS0>,
    S0F: Compact<LayoutLeft, U1, Stride = R0>,
    ST: crate::modes::FlattenModes<DT, Output = MT>,
    MT: crate::layout::OrderModes<ST, Output = RT>,
    Layout<S0, R0>: crate::ops::TiledProduct<Layout<ST, RT>, Output = Out>,
    Out: Default,
{
    type Output = Out;
    #[inline(always)]
    fn fragment(_: Layout<Cons<S0, ST>, Cons<D0, DT>>) -> Out {
        Out::default()
    }
}

/// A static integer `n`: the layout [`IntRule`](crate::tiler::IntRule) gives it, as on the
/// static path (`make_layout(n)`, so a static `1` is `_1:_0`, as cute-dyn's).
macro_rules! int_product_parts {
    ($([$($g:ident: $b:path),*] $t:ty);*) => {$(
        impl<SA, DA, $($g: $b),*> ProductParts<SA, DA> for $t
        where
            ProductOp: crate::tiler::IntRule<$t>,
            <ProductOp as crate::tiler::IntRule<$t>>::Output: ProductParts<SA, DA> + Default,
        {
            type Output = <<ProductOp as crate::tiler::IntRule<$t>>::Output as ProductParts<SA, DA>>::Output;
            #[inline(always)]
            fn product_parts(&self, sa: SA, da: DA) -> Result<Self::Output, Error> {
                <<ProductOp as crate::tiler::IntRule<$t>>::Output>::default().product_parts(sa, da)
            }
        }
    )*};
}
int_product_parts!([U: Unsigned, B: Bit] UInt<U, B>; [] UTerm);
/// A run-time integer `n`: the layout `n:1` (`make_layout(n)` of a run-time `n`).
impl<SA, DA> ProductParts<SA, DA> for usize
where
    Layout<usize, U1>: ProductParts<SA, DA>,
{
    type Output = <Layout<usize, U1> as ProductParts<SA, DA>>::Output;
    #[inline(always)]
    fn product_parts(&self, sa: SA, da: DA) -> Result<Self::Output, Error> {
        Layout::new(*self, U1::default()).product_parts(sa, da)
    }
}

crate::tiler::whole_layout_ops!(
    ProductOp, ProductParts::product_parts;
    [SB: Copy, DB: Copy] Layout<SB, DB>; [U: Unsigned, B: Bit] UInt<U, B>; [] UTerm; [] usize
);

// ------------------------------------------------------------------------------------------
// The products of a layout with run-time leaves (either operand) by a by-mode tiler: mode i is
// `logical_product(A_i, B_i)` ([`ProductParts`]), the modes past the tiler kept (cute-dyn's
// `by_mode`).
// ------------------------------------------------------------------------------------------

// An element of a by-mode tiler (a layout or an integer) against one mode of A.
crate::tiler::leaf_mode_parts!(ProductOp, ProductParts::product_parts);

crate::tiler::by_mode_mixed!(ProductOp);
