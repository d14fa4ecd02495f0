//! Swizzle functors `Sw<B,M,S>` and composed layouts `Sw ∘ offset ∘ L`, static: the
//! parameters are types, so evaluation compiles to the shifts, masks and xor one would write
//! by hand (the same functions as `cute_dyn::Swizzle` / `cute_dyn::ComposedLayout`):
//! `tests/zero_cost.rs` holds their release assembly to the hand-written index math
//! (`scripts/compare_asm.sh` prints both).

use core::fmt;
use core::marker::PhantomData;

use typenum::{Bit, Integer, NInt, NonZero, PInt, Unsigned, U0, Z0};

use crate::arith::{EqT, LeT};
use crate::int_tuple::IntTuple;
use crate::layout::{Congruent, Layout};

cute_macros::decimal_condition! {
    /// CuTe's `Swizzle<B,M,S>` condition `abs(S) >= B`: the `B` bits moved and the `B` bits
    /// they are xor-ed into do not overlap. Implemented by `B <= |S|`.
    pub trait SwizzleShift(bits, shift) {
        message = "swizzle parameters violated: |S| = {shift} is below B = {bits}",
        label = "Sw<B,M,S> xors B bits into the bits |S| below them; |S| < B makes the two ranges overlap",
        note = "CuTe's Swizzle: static_assert(abs(S) >= B)",
    }
}

/// The shift `S` of a swizzle: a typenum integer (`P3`, `N2`, `Z0`) and its magnitude.
pub trait Shift: Integer + Copy + Default {
    /// `|S|`.
    type Abs: Unsigned;
}
impl Shift for Z0 {
    type Abs = U0;
}
impl<U: Unsigned + NonZero + Copy + Default> Shift for PInt<U> {
    type Abs = U;
}
impl<U: Unsigned + NonZero + Copy + Default> Shift for NInt<U> {
    type Abs = U;
}

/// CuTe's `Swizzle<B,M,S>`: xor the `B` bits at `M + max(0,S)` into the `B` bits at
/// `M - min(0,S)`. Zero-sized; `|S| < B` is a compile error.
///
/// # Examples
/// ```
/// use cute_static::{swizzle::Swizzle, typenum::{P3, U3}};
/// let sw = Swizzle::<U3, U3, P3>::new(); // the classic 128-byte swizzle, Sw<3,3,3>
/// assert_eq!(sw.apply(0b1_000_000), 0b1_001_000);
/// assert_eq!(sw.to_string(), "Sw<3,3,3>");
/// assert_eq!(core::mem::size_of_val(&sw), 0);
/// ```
pub struct Swizzle<B, M, S>(PhantomData<(B, M, S)>);

impl<B, M, S> Clone for Swizzle<B, M, S> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<B, M, S> Copy for Swizzle<B, M, S> {}
impl<B, M, S> fmt::Debug for Swizzle<B, M, S>
where
    Self: fmt::Display,
{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// CuTe's condition on a swizzle's parameters, `abs(S) >= B` ([`SwizzleShift`]): the one bound
/// wherever a swizzle is built or used.
pub trait ValidSwizzle {}
impl<B: LeT<S::Abs>, M, S: Shift> ValidSwizzle for Swizzle<B, M, S>
where
    <B as LeT<S::Abs>>::Output: SwizzleShift<B, S::Abs>,
    <<B as LeT<S::Abs>>::Output as SwizzleShift<B, S::Abs>>::Check: swizzle_shift::Report,
{
}

// The condition sits on `new` (and `Default`), the only ways to build one: a violated bound
// on a function is reported with the condition's own message, one on an impl block is not.
/// `Sw<B,M,S>(offset)` of parameters given as values: `offset ^ shiftr(offset & yyy_mask, S)`,
/// the `B` bits at `M + max(S, 0)` moved by `S`. [`Swizzle::apply`] is this of its type's
/// parameters; compile-time checks that evaluate a swizzled layout call it directly.
#[doc(hidden)]
#[inline(always)]
pub const fn swizzle_offset((b, m, s): (usize, usize, i32), offset: usize) -> usize {
    let yyy = ((1usize << b) - 1) << (m + if s > 0 { s as usize } else { 0 });
    let y = offset & yyy;
    offset ^ if s >= 0 { y >> s } else { y << -s }
}

impl<B: Unsigned, M: Unsigned, S: Shift> Swizzle<B, M, S> {
    /// `Sw<B,M,S>`; `|S| < B` is a compile error.
    #[inline(always)]
    pub fn new() -> Self
    where
        Self: ValidSwizzle,
    {
        Swizzle(PhantomData)
    }

    /// `offset ^ shiftr(offset & yyy_mask, S)`.
    #[inline(always)]
    pub fn apply(&self, offset: usize) -> usize {
        swizzle_offset((B::USIZE, M::USIZE, S::I32), offset)
    }

    /// The `cute-dyn` swizzle.
    ///
    /// # Errors
    /// As `cute_dyn::Swizzle::new` (parameters past 62 bits).
    #[cfg(feature = "dyn")]
    pub fn to_dyn(&self) -> cute_dyn::Result<cute_dyn::Swizzle> {
        cute_dyn::Swizzle::new(B::I64, M::I64, S::I64)
    }
}

impl<B: Unsigned, M: Unsigned, S: Shift> Default for Swizzle<B, M, S>
where
    Self: ValidSwizzle,
{
    fn default() -> Self {
        Self::new()
    }
}

/// `Sw<B,M,S>`, as CuTe C++ prints it.
impl<B: Unsigned, M: Unsigned, S: Integer> fmt::Display for Swizzle<B, M, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Sw<{},{},{}>", B::U64, M::U64, S::I64)
    }
}

/// `Sw ∘ offset ∘ L`: index `i` goes to `Sw(offset + L(i))`. The offset is static.
///
/// # Examples
/// ```
/// use cute_static::{layout, swizzle::Swizzle, typenum::{P3, U3}, Composition};
/// // CuTe C++: composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})
/// let smem = Swizzle::<U3, U3, P3>::new().composition(layout!((8,64):(64,1)));
/// assert_eq!(smem.to_string(), "Sw<3,3,3> o 0 o (8,64):(64,1)");
/// // Index 1 is (1,0), offset 64: row 1's 8-element chunks are permuted by its row index.
/// assert_eq!(smem.call(1), 64 + 8); // chunk 0 of row 1 lands on chunk 1
/// assert_eq!(smem.call(65), 64); // (1,8): chunk 1 of row 1 lands on chunk 0
/// ```
#[derive(Clone, Copy, Default)]
pub struct ComposedLayout<F, O, L> {
    outer: F,
    offset: O,
    inner: L,
}

/// A swizzled layout at a coordinate: `Sw(offset + L(c))`.
impl<B, M, S, O, SL, DL, C, V> crate::layout::LayoutAt<C> for ComposedLayout<Swizzle<B, M, S>, O, Layout<SL, DL>>
where
    B: Unsigned,
    M: Unsigned,
    S: Shift,
    O: Unsigned + Default,
    SL: Congruent<DL>,
    DL: IntTuple,
    Swizzle<B, M, S>: ValidSwizzle,
    C: crate::layout::CrdIdx<SL, DL, Verdict = V>,
    V: crate::verdict::Pass,
{
    #[inline(always)]
    fn at(&self, c: &C) -> usize {
        self.call_coord(c)
    }
}

impl<B: Unsigned, M: Unsigned, S: Shift, O: Unsigned + Default, SL: Congruent<DL>, DL: IntTuple>
    ComposedLayout<Swizzle<B, M, S>, O, Layout<SL, DL>>
where
    Swizzle<B, M, S>: ValidSwizzle,
{
    /// `Sw ∘ offset ∘ L`.
    pub fn new(outer: Swizzle<B, M, S>, offset: O, inner: Layout<SL, DL>) -> Self {
        ComposedLayout { outer, offset, inner }
    }

    /// The inner layout.
    pub fn inner(&self) -> &Layout<SL, DL> {
        &self.inner
    }

    /// The outer swizzle.
    pub fn outer(&self) -> &Swizzle<B, M, S> {
        &self.outer
    }

    /// `Sw(offset + L(i))` for an index `i`.
    #[inline(always)]
    pub fn call(&self, i: usize) -> usize {
        self.outer.apply(O::USIZE + self.inner.call(i))
    }

    /// `Sw(offset + L(c))` for a coordinate `c`.
    #[inline(always)]
    pub fn call_coord<C: crate::layout::CrdIdx<SL, DL, Verdict = V>, V: crate::verdict::Pass>(&self, c: &C) -> usize {
        self.outer.apply(O::USIZE + self.inner.call_coord(c))
    }

    /// `size`: the inner layout's.
    pub fn size(&self) -> usize {
        self.inner.size()
    }

    /// The `cute-dyn` composed layout.
    ///
    /// # Errors
    /// `Overflow` for a value above `i64::MAX`.
    #[cfg(feature = "dyn")]
    pub fn to_dyn(&self) -> cute_dyn::Result<cute_dyn::ComposedLayout> {
        Ok(cute_dyn::ComposedLayout::new(self.outer.to_dyn()?, O::I64, self.inner.to_dyn()?))
    }
}

/// `Sw<B,M,S> o OFFSET o LAYOUT`, as CuTe C++ prints a composed layout.
impl<F: fmt::Display, O: Unsigned, L: fmt::Display> fmt::Display for ComposedLayout<F, O, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} o {} o {}", self.outer, O::U64, self.inner)
    }
}

/// The result of `composition(Swizzle, Layout)` chosen by `B == 0`: CuTe C++ elides an
/// identity swizzle (`B1`: the layout itself).
#[doc(hidden)]
pub trait ElideIdentity<Sw, L> {
    /// The layout, or the composed layout.
    type Output;
    /// Build it.
    fn build(sw: Sw, l: L) -> Self::Output;
}
impl<Sw, L> ElideIdentity<Sw, L> for typenum::B1 {
    type Output = L;
    fn build(_: Sw, l: L) -> L {
        l
    }
}
impl<Sw, L> ElideIdentity<Sw, L> for typenum::B0 {
    type Output = ComposedLayout<Sw, U0, L>;
    fn build(sw: Sw, l: L) -> Self::Output {
        ComposedLayout { outer: sw, offset: U0::default(), inner: l }
    }
}

/// `composition(Swizzle, Layout)`: `Sw ∘ 0 ∘ L`, or `L` itself for `B = 0` ([`Elide`]).
impl<B: Unsigned, M: Unsigned, S: Shift, SL: Congruent<DL>, DL: IntTuple>
    crate::ops::Arranged<crate::tiler::Plain, crate::tiler::CompositionOp, Layout<SL, DL>> for Swizzle<B, M, S>
where
    B: EqT<U0>,
    Self: ValidSwizzle,
    <B as EqT<U0>>::Output: Bit,
{
    type Out = (Elide<<B as EqT<U0>>::Output>, crate::verdict::Holds);
}

/// The plan of `composition(Swizzle, Layout)`: elide an identity swizzle, by `B == 0`
/// ([`ElideIdentity`]).
pub struct Elide<E>(core::marker::PhantomData<E>);
impl<E: ElideIdentity<Sw, L>, Sw, L> crate::ops::Run<Sw, L> for Elide<E> {
    type Output = E::Output;
    #[inline(always)]
    fn run(sw: Sw, l: L) -> E::Output {
        E::build(sw, l)
    }
}

/// A composed layout is computed (see [`Produce`](crate::gate::Produce)): its swizzle and
/// offset are values.
impl<F, O, L> crate::gate::Produce for ComposedLayout<F, O, L> {
    #[inline(always)]
    fn produce(compute: impl FnOnce() -> Self) -> Self {
        compute()
    }
}

/// The plan of an operation on the inner layout of `Sw o offset o L`: the inner layout's
/// plan, its result put back under the swizzle and offset ([`Rewrap`]).
pub struct Rewrapped<P>(core::marker::PhantomData<P>);
impl<F, O, L, T, P: crate::ops::Run<L, T>> crate::ops::Run<ComposedLayout<F, O, L>, T> for Rewrapped<P>
where
    P::Output: Rewrap<F, O>,
{
    type Output = <P::Output as Rewrap<F, O>>::Output;
    #[inline(always)]
    fn run(c: ComposedLayout<F, O, L>, x: T) -> Self::Output {
        P::run(c.inner, x).rewrap(c.outer, c.offset)
    }
}

/// The inner layout of an operation's result put back under the swizzle and offset, whether
/// the type checker computed it (a layout) or it was computed when it ran (a `Result`).
#[doc(hidden)]
pub trait Rewrap<F, O> {
    /// The composed result.
    type Output;
    /// `Sw o offset o self`.
    fn rewrap(self, outer: F, offset: O) -> Self::Output;
}
impl<F, O, S, D> Rewrap<F, O> for Layout<S, D> {
    type Output = ComposedLayout<F, O, Layout<S, D>>;
    #[inline(always)]
    fn rewrap(self, outer: F, offset: O) -> Self::Output {
        ComposedLayout { outer, offset, inner: self }
    }
}
impl<F, O, S, D> Rewrap<F, O> for Result<Layout<S, D>, crate::error::Error> {
    type Output = Result<ComposedLayout<F, O, Layout<S, D>>, crate::error::Error>;
    #[inline(always)]
    fn rewrap(self, outer: F, offset: O) -> Self::Output {
        self.map(|inner| ComposedLayout { outer, offset, inner })
    }
}

// The operations CuTe C++ applies to the inner layout of `Sw o offset o L`
// (`layout_composed.hpp`): the result is `Sw o offset o op(L, x)`.

/// An arranged operation (composition, a divide, a product) of `Sw o offset o L` is
/// `Sw o offset o` that of `L` (CuTe C++): `L`'s plan and verdict, its result put back under
/// the swizzle and offset ([`Rewrapped`]).
impl<F, O, L, How, Op, T, P, V> crate::ops::Arranged<How, Op, T> for ComposedLayout<F, O, L>
where
    L: crate::ops::Arranged<How, Op, T, Out = (P, V)>,
    P: crate::ops::Run<L, T>,
    P::Output: Rewrap<F, O>,
{
    type Out = (Rewrapped<P>, V);
}

// The operations' traits, wherever the plans above pass (`Composition` alone for a swizzle).
crate::ops::operations!(impls [F, O, I] ComposedLayout<F, O, I>);
crate::ops::operations!(impls [B, M, S] Swizzle<B, M, S>);

/// `tile_to_shape(Sw o offset o L, shape)` is `Sw o offset o tile_to_shape(L, shape)` (CuTe C++).
impl<F, O, L, T, R, V> crate::ops::Plan<crate::ops::TileToShapeOp, T> for ComposedLayout<F, O, L>
where
    L: crate::ops::Plan<crate::ops::TileToShapeOp, T, Out = (R, V)>,
    R: Rewrap<F, O>,
{
    type Out = (R::Output, V);
    #[inline(always)]
    fn plan(self, x: T) -> Self::Out {
        let (r, v) = self.inner.plan(x);
        (r.rewrap(self.outer, self.offset), v)
    }
}

/// `coalesce(Sw o offset o L)` is `Sw o offset o coalesce(L)` (CuTe C++).
impl<F: Copy, O: Copy, L: crate::coalesce::Coalesce> crate::coalesce::Coalesce for ComposedLayout<F, O, L> {
    type Output = ComposedLayout<F, O, L::Output>;
    #[inline(always)]
    fn coalesce(self) -> Self::Output {
        ComposedLayout { outer: self.outer, offset: self.offset, inner: self.inner.coalesce() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{layout, tiler, Composition};
    use alloc::string::ToString;
    use typenum::{N2, P1, P3, P5, U1, U2, U3, U4, U5};

    /// Every offset below 2^12 through the static and the cute-dyn swizzle.
    fn agrees<B, M: Unsigned, S: Shift>()
    where
        B: Unsigned,
        Swizzle<B, M, S>: ValidSwizzle,
    {
        let (s, d) = (Swizzle::<B, M, S>::new(), Swizzle::<B, M, S>::new().to_dyn().unwrap());
        for o in 0..4096usize {
            assert_eq!(s.apply(o) as i64, d.apply(o as i64).unwrap(), "{s} at {o}");
        }
    }

    #[test]
    fn static_swizzles_agree_with_cute_dyn() {
        agrees::<U3, U3, P3>();
        agrees::<U5, U0, P5>();
        agrees::<U2, U4, P3>();
        agrees::<U1, U2, N2>();
        agrees::<U2, U1, N2>();
        agrees::<U1, U5, P1>();
    }

    #[test]
    fn swizzle_is_an_involution_on_its_domain() {
        // Law: Sw(Sw(x)) = x (the moved bits are untouched, so xor-ing again undoes it).
        let s = Swizzle::<U3, U3, P3>::new();
        for o in 0..1024 {
            assert_eq!(s.apply(s.apply(o)), o);
        }
    }

    #[test]
    fn composed_layouts_agree_with_cute_dyn() {
        let c = Swizzle::<U3, U3, P3>::new().composition(layout!((8,64):(64,1)));
        let d = c.to_dyn().unwrap();
        assert_eq!(c.to_string(), d.to_string());
        for i in 0..512 {
            assert_eq!(c.call(i) as i64, d.call_index(i as i64).unwrap());
        }
        // composition with a tiler composes the inner layout (C++ and cute-dyn alike).
        let t = c.composition(tiler!(<4,16>));
        let dt = d.compose_inner(&"<4,16>".parse().unwrap()).unwrap();
        assert_eq!(t.to_string(), dt.to_string());
        for i in 0..64 {
            assert_eq!(t.call(i) as i64, dt.call_index(i as i64).unwrap());
        }
    }

    #[test]
    fn an_identity_swizzle_is_elided() {
        // CuTe C++ (and cute-dyn's ComposedLayout::compose): B = 0 gives the layout itself.
        let l: Layout<_, _> = Swizzle::<U0, U4, P3>::new().composition(layout!(8:1));
        assert_eq!(l.to_string(), "8:1");
    }

    #[test]
    fn swizzled_layout_literals() {
        // `layout!(Sw<B,M,S> o [OFFSET o] L)` is `ComposedLayout::new(Swizzle, OFFSET, L)`: the
        // printed form is CuTe C++'s (`Sw<3,3,3> o _0 o (_8,_64):(_64,_1)` for
        // composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})), and every index
        // evaluates as cute-dyn's parse of the same text.
        let c = layout!(Sw<3,3,3> o (8,64):(64,1));
        let by_hand = Swizzle::<U3, U3, P3>::new().composition(layout!((8,64):(64,1)));
        assert_eq!(c.to_string(), "Sw<3,3,3> o 0 o (8,64):(64,1)");
        for i in 0..512 {
            assert_eq!(c.call(i), by_hand.call(i));
        }
        let cases = [
            (layout!(Sw<2,0,-3> o 4 o (4,8):(8,1)).to_dyn().unwrap(), "Sw<2,0,-3> o 4 o (4,8):(8,1)"),
            (layout!(Sw<1,2,2> o 0 o (2,(4,2)):(1,(2,8))).to_dyn().unwrap(), "Sw<1,2,2> o 0 o (2,(4,2)):(1,(2,8))"),
        ];
        for (ours, text) in cases {
            let theirs: cute_dyn::ComposedLayout = text.parse().unwrap();
            assert_eq!(ours.to_string(), theirs.to_string());
            for i in 0..32 {
                assert_eq!(ours.call_index(i).unwrap(), theirs.call_index(i).unwrap(), "{text} at {i}");
            }
        }
        // Type position: the same type, zero-sized.
        type Smem = crate::Layout![Sw<3,3,3> o (8,64):(64,1)];
        let s = Smem::default();
        assert_eq!(core::mem::size_of::<Smem>(), 0);
        assert_eq!(s.call(65), c.call(65));
        // A run-time extent in the inner layout (value position).
        let n = 64;
        let r = layout!(Sw<3,3,3> o (8,{n}):({n},1));
        assert_eq!(r.call(65), c.call(65));
    }

    #[test]
    fn the_algebra_on_static_swizzled_layouts_is_cxx() {
        use crate::{shape, BlockedProduct, Coalesce, LogicalDivide, TileToShape, ZippedDivide};
        use cute_dyn::{Notation, Style};
        let cpp = |c: &dyn Fn() -> cute_dyn::ComposedLayout| c().to_styled(Style::Cpp);
        // CuTe C++ 4.2's answers (tests/data/composed/cxx_composed.tsv).
        let c = layout!(Sw<2,2,3> o (128,8):(8,1));
        assert_eq!(
            cpp(&|| c.logical_divide(tiler!(<8,8>)).to_dyn().unwrap()),
            "Sw<2,2,3> o _0 o ((_8,_16),(_8,_1)):((_8,_64),(_1,_0))"
        );
        assert_eq!(
            cpp(&|| c.zipped_divide(tiler!(<8,8>)).to_dyn().unwrap()),
            "Sw<2,2,3> o _0 o ((_8,_8),(_16,_1)):((_8,_1),(_64,_0))"
        );
        assert_eq!(
            cpp(&|| c.blocked_product(layout!((2,2):(1,2))).to_dyn().unwrap()),
            "Sw<2,2,3> o _0 o ((_128,_2),(_8,_2)):((_8,_1024),(_1,_2048))"
        );
        assert_eq!(
            cpp(&|| c.tile_to_shape(shape!((256, 16))).to_dyn().unwrap()),
            "Sw<2,2,3> o _0 o ((_128,_2),(_8,_2)):((_8,_1024),(_1,_2048))"
        );
        assert_eq!(cpp(&|| c.coalesce().to_dyn().unwrap()), "Sw<2,2,3> o _0 o (_128,_8):(_8,_1)");
        // The result is still zero-sized, and a run-time extent gives a checked Result.
        assert_eq!(core::mem::size_of_val(&c.zipped_divide(tiler!(<8,8>))), 0);
        let m = 128;
        let r = layout!(Sw<2,2,3> o ({m},8):(8,1)).zipped_divide(tiler!(<8,8>)).unwrap();
        assert_eq!(r.call(9), c.zipped_divide(tiler!(<8,8>)).call(9));
        // Composition too: `Sw o off o composition(L, B)` (C++), checked when it runs, the
        // whole composed layout in the `Result`; cute-dyn's compose_inner on the same values.
        let w = layout!(Sw<2,2,3> o ({m},8):(8,1));
        let composed: Result<ComposedLayout<_, _, _>, crate::error::Error> = w.composition(tiler!(<16,4>));
        let theirs = w.to_dyn().unwrap().compose_inner(&"<16,4>".parse().unwrap()).unwrap();
        assert_eq!(composed.unwrap().to_dyn().unwrap().to_string(), theirs.to_string());
    }
}
