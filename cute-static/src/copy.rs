//! Tiled copies (CuTe's `cute/atom/copy_atom.hpp`) computed by the type checker: a copy atom's
//! thread-value layouts as types (CuTe's `Copy_Traits`, in elements), tiled over static thread
//! and value layouts, and the per-thread source and destination partitions of static layouts
//! (the same algorithm as cute-dyn's `copy` module, which is checked against CuTe C++ 4.2).
//! Only layouts: the atom's instruction is the kernel's.

use core::marker::PhantomData;

use typenum::{U0, U1};

use crate::int_tuple::{Cons, IntTuple, Nil};
use crate::layout::{Congruent, Layout};
use crate::ops::{CoalesceBy, RakedProduct, RightInverse, ZippedDivide};
use crate::scaled::{Gated, Marked, ResolveLayout, StaticExtentsGate, Symbolize};
use crate::tensor::TensorError;
use crate::tiler::{ByMode, Under};
use crate::Composition;

/// A copy atom (CuTe's `Copy_Atom<Op, T>`, its layouts in elements): the threads it takes and
/// values it moves, and the layouts `(thread, value) -> bit index` of its source, destination
/// and reference, upcast to the element.
pub trait CopyAtom: Copy + Default {
    /// The CuTe name of the operation.
    const NAME: &'static str;
    /// `size<0>(ValLayoutRef)`: the atom's threads.
    type NumThr: Default + Copy;
    /// `size<1>(ValLayoutRef)`: the values each thread moves.
    type NumVal: Default + Copy;
    /// `ValLayoutSrc`.
    type Src: Default + Copy;
    /// `ValLayoutDst`.
    type Dst: Default + Copy;
    /// `ValLayoutRef`.
    type Ref: Default + Copy;
}

/// `Copy_Atom<UniversalCopy<uintN_t>, T>` with `N = V * bits(T)`: one thread moving `V`
/// consecutive elements (`(1,V):(0,1)` for source, destination and reference).
#[derive(Debug)]
pub struct UniversalCopy<V>(PhantomData<V>);
crate::marker_impls!(UniversalCopy<V>);
impl<V: typenum::Unsigned + Default + Copy> CopyAtom for UniversalCopy<V> {
    const NAME: &'static str = "UniversalCopy";
    type NumThr = U1;
    type NumVal = V;
    type Src = Layout<Cons<U1, Cons<V, Nil>>, Cons<typenum::U0, Cons<U1, Nil>>>;
    type Dst = Self::Src;
    type Ref = Self::Src;
}

macro_rules! one_thread_atoms {
    ($($(#[$doc:meta])* $name:ident;)*) => {$(
        $(#[$doc])*
        #[allow(non_camel_case_types)]
        #[derive(Debug)]
        pub struct $name<V>(PhantomData<V>);
        crate::marker_impls!($name<V>);
        impl<V: typenum::Unsigned + Default + Copy> CopyAtom for $name<V> {
            const NAME: &'static str = stringify!($name);
            type NumThr = U1;
            type NumVal = V;
            type Src = <UniversalCopy<V> as CopyAtom>::Src;
            type Dst = Self::Src;
            type Ref = Self::Src;
        }
    )*};
}

one_thread_atoms! {
    /// `Copy_Atom<SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<uint128_t>, T>` with `128 = V * bits(T)`:
    /// `cp.async.cg` of 16 bytes from global to shared memory, zero-filled when its predicate
    /// is false; one thread, the layouts of [`UniversalCopy`] (CuTe's `Copy_Traits` of the
    /// `SM80_CP_ASYNC` family are `UniversalCopy`'s).
    SM80_CP_ASYNC_CACHEGLOBAL_ZFILL;
    /// `Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<uintN_t>, T>` with `N = V * bits(T)` (32, 64
    /// or 128): `cp.async.ca` of 4, 8 or 16 bytes, zero-filled when its predicate is false.
    SM80_CP_ASYNC_CACHEALWAYS_ZFILL;
}

/// The ldmatrix atoms and their stmatrix reversals (C++ 4.2's `Copy_Traits<SM90_..._STSM_...>`:
/// the source is the ldmatrix destination, the registers, and the reference that source).
macro_rules! ldsm_atoms {
    ($($(#[$doc:meta])* $name:ident / $stsm:ident: $val:ty, $src:ty, $dst:ty;)*) => {$(
        $(#[$doc])*
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Default, Debug)]
        pub struct $name;
        impl CopyAtom for $name {
            const NAME: &'static str = stringify!($name);
            type NumThr = typenum::U32;
            type NumVal = $val;
            type Src = $src;
            type Dst = $dst;
            type Ref = $dst;
        }
        #[doc = concat!("`Copy_Atom<", stringify!($stsm), ", T>` for 16-bit `T`: `", stringify!($name), "` reversed (`stmatrix`, sm_90).")]
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Default, Debug)]
        pub struct $stsm;
        impl CopyAtom for $stsm {
            const NAME: &'static str = stringify!($stsm);
            type NumThr = typenum::U32;
            type NumVal = $val;
            type Src = $dst;
            type Dst = $src;
            type Ref = $dst;
        }
    )*};
}

ldsm_atoms! {
    /// `Copy_Atom<SM75_U32x1_LDSM_N, T>` for 16-bit `T`: `ldmatrix.x1`, 32 threads, 2 values
    /// each in registers.
    SM75_U32x1_LDSM_N / SM90_U32x1_STSM_N: typenum::U2, crate::Layout![((8,4),8):((8,0),1)], crate::Layout![(32,2):(2,1)];
    /// `Copy_Atom<SM75_U32x2_LDSM_N, T>` for 16-bit `T`: `ldmatrix.x2`.
    SM75_U32x2_LDSM_N / SM90_U32x2_STSM_N: typenum::U4, crate::Layout![((16,2),8):((8,0),1)], crate::Layout![(32,(2,2)):(2,(1,64))];
    /// `Copy_Atom<SM75_U32x4_LDSM_N, T>` for 16-bit `T`: `ldmatrix.x4`.
    SM75_U32x4_LDSM_N / SM90_U32x4_STSM_N: typenum::U8, crate::Layout![(32,8):(8,1)], crate::Layout![(32,(2,4)):(2,(1,64))];
    /// `Copy_Atom<SM75_U16x2_LDSM_T, T>` for 16-bit `T`: `ldmatrix.x1.trans`.
    SM75_U16x2_LDSM_T / SM90_U16x2_STSM_T: typenum::U2, crate::Layout![((8,4),8):((8,0),1)], crate::Layout![((4,8),(1,2)):((16,1),(1,8))];
    /// `Copy_Atom<SM75_U16x4_LDSM_T, T>` for 16-bit `T`: `ldmatrix.x2.trans`.
    SM75_U16x4_LDSM_T / SM90_U16x4_STSM_T: typenum::U4, crate::Layout![((16,2),8):((8,0),1)], crate::Layout![((4,8),(1,2,2)):((16,1),(1,8,64))];
    /// `Copy_Atom<SM75_U16x8_LDSM_T, T>` for 16-bit `T`: `ldmatrix.x4.trans`.
    SM75_U16x8_LDSM_T / SM90_U16x8_STSM_T: typenum::U8, crate::Layout![(32,8):(8,1)], crate::Layout![((4,8),(1,2,4)):((16,1),(1,8,64))];
}

/// The tile of a tiled copy given by its thread-value layout (`make_tiled_copy_impl(atom,
/// layout_tv, tiler)`, what `make_tiled_copy_A/B/C` build): `TiledCopy<Atom, LayoutTv,
/// TilerMn<Shape>>`.
#[derive(Debug)]
pub struct TilerMn<S>(PhantomData<S>);
crate::marker_impls!(TilerMn<S>);

/// CuTe's `TiledCopy` of an atom over static thread and value layouts (`make_tiled_copy(atom,
/// thr, val)`): the tile `raked_product(thr, val)`, its right inverse the thread-value layout.
/// Zero-sized.
///
/// # Examples
/// ```
/// use cute_static::copy::{TiledCopy, UniversalCopy};
/// use cute_static::{typenum::U8, Layout};
/// // 128-bit copies of 16-bit elements: 32x4 threads (row-major), 8 values each in a row;
/// // CuTe C++ 4.2: the tile is (32,32), thread t's values ((_4,_32),_8):((_256,_1),_32).
/// let copy = TiledCopy::<UniversalCopy<U8>, Layout![(32,4):(4,1)], Layout![(1,8):(0,1)]>::new();
/// assert_eq!(copy.layout_tv().to_string(), "((4,32),8):((256,1),32)");
/// ```
pub struct TiledCopy<A, T, V>(PhantomData<(A, T, V)>);
crate::marker_impls!(TiledCopy<A, T, V>);

/// The thread-value layout and the tile of a tiled copy (`TiledLayout_TV`, `Tiler_MN`):
/// implemented by every tiled copy whose plan ([`CopyPlan`]) passes its preconditions
/// ([`crate::verdict`]), so that this one bound gives generic code the copy's methods.
pub trait CopyTiling:
    CopyPlan<Out = ((Self::LayoutTv, Self::Tiler, Self::Tile), <Self as CopyTiling>::Verdict)>
{
    /// `TiledLayout_TV`, `(thread, value) -> index` of the column-major tile.
    type LayoutTv: Default + Copy;
    /// `Tiler_MN`, the tile's extents, as a by-mode tiler.
    type Tiler: Default + Copy;
    /// The tile's extents, as a shape.
    type Tile: Default + Copy;
    /// The verdict on the atom's conditions, which passes.
    type Verdict: crate::verdict::Pass;
}
impl<A, T, V, L, M, S, W> CopyTiling for TiledCopy<A, T, V>
where
    Self: CopyPlan<Out = ((L, M, S), W)>,
    L: Default + Copy,
    M: Default + Copy,
    S: Default + Copy,
    W: crate::verdict::Pass,
{
    type LayoutTv = L;
    type Tiler = M;
    type Tile = S;
    type Verdict = W;
}

#[doc(hidden)]
/// A tiled copy as the type checker plans it: `((LayoutTv, Tiler, Tile), verdict)`, the verdict
/// on the atom's conditions ([`AtomDivides`]) computed, not failing, on a violation. The
/// constructors ask it to pass in a bound of their own (the error then names the condition and
/// no layout); [`CopyTiling`] asks the same in its supertrait. One impl, whatever the tiling:
/// the two kinds of tiling are [`TilingOf`]'s (with two impls here, rustc listed both,
/// where-clauses and all, under every error of a tiled copy).
pub trait CopyPlan {
    /// `((LayoutTv, Tiler, Tile), verdict)`.
    type Out;
}
impl<A, T, V, O> CopyPlan for TiledCopy<A, T, V>
where
    (T, V): TilingOf<A, Out = O>,
{
    type Out = O;
}

#[doc(hidden)]
/// [`CopyPlan`] of copy atom `A` by (thread layout, value layout), or by (thread-value layout,
/// tile).
pub trait TilingOf<A> {
    /// `((LayoutTv, Tiler, Tile), verdict)`.
    type Out;
}

/// [`AtomDivides`]'s verdicts on a tiling of `T` threads and `V` values per thread for an atom
/// of `NT` threads and `NV` values: the threads' first.
type AtomVerdict<T, V, NT, NV> = crate::verdict::FirstOf<
    <<T as crate::arith::Divides<NT>>::Output as AtomDivides<T, NT>>::Verdict,
    <<V as crate::arith::Divides<NV>>::Output as AtomDivides<V, NV>>::Verdict,
>;

/// Threads by values: `right_inverse(raked_product(thr, val))` composed with the compact
/// (threads, values) layout.
impl<A, TS, TD, VS, VD, MS, MD, I, R> TilingOf<A> for (Layout<TS, TD>, Layout<VS, VD>)
where
    A: CopyAtom,
    TS: crate::layout::SizeT,
    VS: crate::layout::SizeT,
    Sz<TS>: crate::arith::Divides<A::NumThr>,
    Sz<VS>: crate::arith::Divides<A::NumVal>,
    <Sz<TS> as crate::arith::Divides<A::NumThr>>::Output: AtomDivides<Sz<TS>, A::NumThr>,
    <Sz<VS> as crate::arith::Divides<A::NumVal>>::Output: AtomDivides<Sz<VS>, A::NumVal>,
    <<Sz<TS> as crate::arith::Divides<A::NumThr>>::Output as AtomDivides<Sz<TS>, A::NumThr>>::Verdict:
        crate::verdict::First<
            <<Sz<VS> as crate::arith::Divides<A::NumVal>>::Output as AtomDivides<Sz<VS>, A::NumVal>>::Verdict,
        >,
    Layout<TS, TD>: RakedProduct<Layout<VS, VD>, Output = Layout<MS, MD>>,
    MS: crate::tensor::ProductEach,
    Layout<MS, MD>: RightInverse<Output = I>,
    Cons<Sz<TS>, Cons<Sz<VS>, Nil>>: crate::layout::Compact<crate::LayoutLeft, U1>,
    I: Composition<
        Layout<
            Cons<Sz<TS>, Cons<Sz<VS>, Nil>>,
            <Cons<Sz<TS>, Cons<Sz<VS>, Nil>> as crate::layout::Compact<crate::LayoutLeft, U1>>::Stride,
        >,
        Output = R,
    >,
{
    type Out = (
        (R, ByMode<<MS as crate::tensor::ProductEach>::Output>, <MS as crate::tensor::ProductEach>::Output),
        AtomVerdict<Sz<TS>, Sz<VS>, A::NumThr, A::NumVal>,
    );
}

cute_macros::decimal_condition! {
    /// A tiled copy's threads, and values per thread, are multiples of its atom's (C++'s
    /// static_asserts in `make_tiled_copy_impl`). Implemented by `atom | tiled`.
    #[doc(hidden)]
    pub trait AtomDivides(tiled, atom) {
        message = "tiled copy: the tiling gives {tiled} threads (or values per thread), not a multiple of the copy atom's {atom}",
        label = "the copy atom needs more threads or values than this tiling gives",
        note = "make_tiled_copy_impl: size<0>(layout_tv) must be a multiple of the atom's threads and size<1>(layout_tv) of its values",
    }
}

/// A tiled copy over a given thread-value layout and tile: the atom's threads and values must
/// divide the layout's (C++'s static_asserts in `make_tiled_copy_impl`).
impl<A, TVS, TVD, S, T0, V0> TilingOf<A> for (Layout<TVS, TVD>, TilerMn<S>)
where
    A: CopyAtom,
    TVS: crate::tensor::ProductEach<Output = Cons<T0, Cons<V0, Nil>>>,
    T0: crate::arith::Divides<A::NumThr>,
    V0: crate::arith::Divides<A::NumVal>,
    <T0 as crate::arith::Divides<A::NumThr>>::Output: AtomDivides<T0, A::NumThr>,
    <V0 as crate::arith::Divides<A::NumVal>>::Output: AtomDivides<V0, A::NumVal>,
    <<T0 as crate::arith::Divides<A::NumThr>>::Output as AtomDivides<T0, A::NumThr>>::Verdict: crate::verdict::First<
        <<V0 as crate::arith::Divides<A::NumVal>>::Output as AtomDivides<V0, A::NumVal>>::Verdict,
    >,
{
    type Out = ((Layout<TVS, TVD>, ByMode<S>, S), AtomVerdict<T0, V0, A::NumThr, A::NumVal>);
}

/// `size(S)` of a static shape.
type Sz<S> = <S as crate::layout::SizeT>::Output;
/// The profile `(1,(1,1))` of `tile2thrfrg`'s coalesce.
type Profile = Cons<U1, Cons<Cons<U1, Cons<U1, Nil>>, Nil>>;

#[doc(hidden)]
/// `zip` of a layout `((a,b),(c,d))`: `((a,c),(b,d))`.
pub trait Zip2 {
    /// The zipped layout.
    type Output: Default + Copy;
}
impl<A, B, C, D, DA, DB, DC, DD> Zip2
    for Layout<
        Cons<Cons<A, Cons<B, Nil>>, Cons<Cons<C, Cons<D, Nil>>, Nil>>,
        Cons<Cons<DA, Cons<DB, Nil>>, Cons<Cons<DC, Cons<DD, Nil>>, Nil>>,
    >
where
    Layout<
        Cons<Cons<A, Cons<C, Nil>>, Cons<Cons<B, Cons<D, Nil>>, Nil>>,
        Cons<Cons<DA, Cons<DC, Nil>>, Cons<Cons<DB, Cons<DD, Nil>>, Nil>>,
    >: Default + Copy,
{
    type Output = Layout<
        Cons<Cons<A, Cons<C, Nil>>, Cons<Cons<B, Cons<D, Nil>>, Nil>>,
        Cons<Cons<DA, Cons<DC, Nil>>, Cons<Cons<DB, Cons<DD, Nil>>, Nil>>,
    >;
}

/// The thread-value layout `TV` of a tiled copy whose atom has `NT` threads and `NV` values,
/// its atom mode mapped to the target's by `R2T` (`right_inverse(ref) ∘ target`):
/// `coalesce(zip2(zipped_divide(TV, (NT,NV)) ∘ (R2T,_)), profile)` (implemented by `TV`).
#[doc(hidden)]
pub trait TvToTarget<NT, NV, R2T> {
    /// The layout.
    type Output: Default + Copy;
}
impl<TV, NT, NV, R2T, ATV, TTV, M> TvToTarget<NT, NV, R2T> for TV
where
    TV: Default + Copy + ZippedDivide<ByMode<Cons<NT, Cons<NV, Nil>>>, Output = ATV>,
    NT: Default + Copy,
    NV: Default + Copy,
    R2T: Default + Copy,
    ATV: Composition<ByMode<Cons<R2T, Cons<Under, Nil>>>, Output = TTV>,
    TTV: Zip2,
    <TTV as Zip2>::Output: CoalesceBy<Profile, Output = M>,
    M: Default + Copy,
{
    type Output = M;
}

/// A tiled copy's thread-value layouts as its source and its destination see them: `(thread,
/// value) -> index` of its column-major tile, value `v` of thread `t` at `t + threads * v`
/// (`tidfrg_S` / `tidfrg_D` of the tile itself). They differ from the reference's where the
/// atom's source and destination do (`ldmatrix`: a thread gives the address of one row and
/// receives values of others). For code that executes a tiled copy (cute-atom's `copy`).
#[doc(hidden)]
pub trait CopyTvs {
    /// The source's.
    type SrcTv: Default + Copy;
    /// The destination's.
    type DstTv: Default + Copy;
}
impl<A: CopyAtom, T, V> CopyTvs for TiledCopy<A, T, V>
where
    Self: CopyTiling,
    A::Ref: RightInverse,
    <A::Ref as RightInverse>::Output: Composition<A::Src> + Composition<A::Dst>,
    <Self as CopyTiling>::LayoutTv:
        TvToTarget<A::NumThr, A::NumVal, RefTo<A, A::Src>> + TvToTarget<A::NumThr, A::NumVal, RefTo<A, A::Dst>>,
{
    type SrcTv = <<Self as CopyTiling>::LayoutTv as TvToTarget<A::NumThr, A::NumVal, RefTo<A, A::Src>>>::Output;
    type DstTv = <<Self as CopyTiling>::LayoutTv as TvToTarget<A::NumThr, A::NumVal, RefTo<A, A::Dst>>>::Output;
}

/// `tidfrg_S` / `tidfrg_D` of a static layout (implemented by it) for a tiled copy of
/// thread-value layout `TV`, tile `T` and an atom of `NT` threads, `NV` values, whose reference
/// maps to the target layout by `R2T`: `(Thr,(FrgV,FrgX),(RestM,...))` flattened to
/// `(Thr, Frg, Rest)`.
#[doc(hidden)]
pub trait TidFrg<TV, T, NT, NV, R2T> {
    /// The thread-fragment layout.
    type Output;
    /// The thread-fragment layout.
    fn tidfrg(self) -> Self::Output;
}
impl<Lo, TV, T, NT, NV, R2T, Z, F, M, TH, FR, RE, THD, FRD, RED> TidFrg<TV, T, NT, NV, R2T> for Lo
where
    T: Default + Copy,
    TV: TvToTarget<NT, NV, R2T, Output = M>,
    M: Default + Copy,
    Lo: ZippedDivide<T, Output = Layout<Z, F>>,
    Layout<Z, F>: Composition<
        ByMode<Cons<M, Cons<Under, Nil>>>,
        Output = Layout<Cons<Cons<TH, Cons<FR, Nil>>, Cons<RE, Nil>>, Cons<Cons<THD, Cons<FRD, Nil>>, Cons<RED, Nil>>>,
    >,
{
    type Output = Layout<Cons<TH, Cons<FR, Cons<RE, Nil>>>, Cons<THD, Cons<FRD, Cons<RED, Nil>>>>;
    #[inline(always)]
    fn tidfrg(self) -> Self::Output {
        let (s, d) = self.zipped_divide(T::default()).composition(ByMode(Default::default())).into_parts();
        Layout::from_parts(
            Cons(s.0 .0, Cons(s.0 .1 .0, Cons(s.1 .0, Nil))),
            Cons(d.0 .0, Cons(d.0 .1 .0, Cons(d.1 .0, Nil))),
        )
    }
}

/// A thread's part of a thread-fragment layout `(Thr, Frg, Rest)` (implemented by it):
/// `frg(thr, _, repeat<R>(_))` and its offset.
#[doc(hidden)]
pub trait ThreadPart {
    /// A thread's part's shape, `(Frg, RestM, RestN, ...)`.
    type PartShape: Congruent<Self::PartStride>;
    /// A thread's part's stride.
    type PartStride: IntTuple;
    /// Thread `thr`'s part and its offset.
    ///
    /// # Errors
    /// [`TensorError::ThreadOutOfRange`] for a thread past the fragment's.
    fn part(self, thr: usize) -> Result<(Layout<Self::PartShape, Self::PartStride>, usize), TensorError>;
}
impl<TH, FR, RE, THD, FRD, RED> ThreadPart
    for Layout<Cons<TH, Cons<FR, Cons<RE, Nil>>>, Cons<THD, Cons<FRD, Cons<RED, Nil>>>>
where
    TH: Congruent<THD>,
    THD: IntTuple,
    FR: IntTuple,
    FRD: IntTuple,
    RE: RestJoin<RED, FR, FRD>,
    RE: Copy,
    RED: Copy,
{
    type PartShape = <RE as RestJoin<RED, FR, FRD>>::Shape;
    type PartStride = <RE as RestJoin<RED, FR, FRD>>::Stride;
    #[inline(always)]
    fn part(self, thr: usize) -> Result<(Layout<Self::PartShape, Self::PartStride>, usize), TensorError> {
        let (s, d) = self.into_parts();
        let (th, thd) = (s.0, d.0);
        let threads = th.checked_product().ok_or(TensorError::Overflow { what: "size" })?;
        if thr >= threads {
            return Err(TensorError::ThreadOutOfRange { thread: thr, threads });
        }
        let offset = crate::layout::CrdIdx::crd2idx(&thr, &th, &thd);
        let (fr, frd, re, red) = (s.1 .0, d.1 .0, s.1 .1 .0, d.1 .1 .0);
        Ok((re.join(red, fr, frd), offset))
    }
}

#[doc(hidden)]
/// The values mode `F` and the rest modes `(RestM,RestN,...)` of a thread's part: the rest's
/// modes joined after the values (C++'s `repeat<R>(_)`); a single rest mode `(Rest)` kept as one
/// mode (`repeat<1>(_)` is `_`). Implemented by the rest's shape.
pub trait RestJoin<D, F, FD> {
    /// The part's shape.
    type Shape: Congruent<Self::Stride>;
    /// The part's stride.
    type Stride: IntTuple;
    /// The part.
    fn join(self, d: D, f: F, fd: FD) -> Layout<Self::Shape, Self::Stride>;
}
impl<R0, R1, RT, D0, D1, DT, F, FD> RestJoin<Cons<D0, Cons<D1, DT>>, F, FD> for Cons<R0, Cons<R1, RT>>
where
    Cons<F, Cons<R0, Cons<R1, RT>>>: Congruent<Cons<FD, Cons<D0, Cons<D1, DT>>>>,
    Cons<FD, Cons<D0, Cons<D1, DT>>>: IntTuple,
{
    type Shape = Cons<F, Cons<R0, Cons<R1, RT>>>;
    type Stride = Cons<FD, Cons<D0, Cons<D1, DT>>>;
    #[inline(always)]
    fn join(self, d: Cons<D0, Cons<D1, DT>>, f: F, fd: FD) -> Layout<Self::Shape, Self::Stride> {
        Layout::new(Cons(f, self), Cons(fd, d))
    }
}
impl<R0, D0, F, FD> RestJoin<Cons<D0, Nil>, F, FD> for Cons<R0, Nil>
where
    Cons<F, Cons<Cons<R0, Nil>, Nil>>: Congruent<Cons<FD, Cons<Cons<D0, Nil>, Nil>>>,
    Cons<FD, Cons<Cons<D0, Nil>, Nil>>: IntTuple,
{
    type Shape = Cons<F, Cons<Cons<R0, Nil>, Nil>>;
    type Stride = Cons<FD, Cons<Cons<D0, Nil>, Nil>>;
    #[inline(always)]
    fn join(self, d: Cons<D0, Nil>, f: F, fd: FD) -> Layout<Self::Shape, Self::Stride> {
        Layout::new(Cons(f, Cons(self, Nil)), Cons(fd, Cons(d, Nil)))
    }
}

/// `right_inverse(ref) ∘ target`: the atom's reference threads and values mapped to the
/// target's (source or destination).
type RefTo<A, T> = <<<A as CopyAtom>::Ref as RightInverse>::Output as Composition<T>>::Output;

macro_rules! side {
    ($(#[$tdoc:meta])* $tidfrg:ident, $(#[$pdoc:meta])* $partition:ident, $tr:ident, $target:ident) => {
        $(#[$tdoc])*
        #[inline(always)]
        pub fn $tidfrg<O>(&self, o: O) -> <O as TidFrg<<Self as CopyTiling>::LayoutTv, <Self as CopyTiling>::Tiler, A::NumThr, A::NumVal, RefTo<A, A::$target>>>::Output
        where
            Self: CopyTiling,
            A::Ref: RightInverse,
            <A::Ref as RightInverse>::Output: Composition<A::$target>,
            O: TidFrg<<Self as CopyTiling>::LayoutTv, <Self as CopyTiling>::Tiler, A::NumThr, A::NumVal, RefTo<A, A::$target>>,
        {
            o.tidfrg()
        }

        $(#[$pdoc])*
        #[inline(always)]
        pub fn $partition<O, R>(&self, o: O, thr: usize) -> Result<(R, usize), TensorError>
        where
            // The part as a parameter, not the projection: a refused layout is one error.
            Self: $tr<O, Output = R>,
        {
            <Self as $tr<O>>::$partition(self, o, thr)
        }
    };
}

impl<A: CopyAtom, T, V> TiledCopy<A, T, V> {
    /// `make_tiled_copy(A{}, T{}, V{})`; an atom that needs more threads or values than `T` and
    /// `V` give is a compile error here.
    pub fn new() -> Self
    where
        Self: CopyPlan,
        // The verdict asked to pass on its own: the error names the condition alone.
        <Self as CopyPlan>::Out: crate::verdict::Pair<Second: crate::verdict::Pass>,
    {
        TiledCopy(PhantomData)
    }

    /// `TiledLayout_TV`: `(thread, value) -> index` of the column-major tile.
    pub fn layout_tv(&self) -> <Self as CopyTiling>::LayoutTv
    where
        Self: CopyTiling,
    {
        Default::default()
    }

    /// `Tiler_MN`: the tile's extents, as a by-mode tiler.
    pub fn tiler_mn(&self) -> <Self as CopyTiling>::Tiler
    where
        Self: CopyTiling,
    {
        Default::default()
    }

    /// `retile_S(frg)` / `retile_D(frg)`: a thread's fragment `(V, RestM, RestN, ...)` (e.g. a
    /// tiled MMA's `partition_fragment_A`) as `((AtomV, RestV), RestM, RestN, ...)`, the values
    /// grouped as the copy's atom moves them.
    ///
    /// # Examples
    /// ```
    /// use cute_static::copy::SM75_U32x1_LDSM_N;
    /// use cute_static::mma::{TiledMma, SM80_16x8x8_F32F16F16F32_TN};
    /// use cute_static::{layout, Layout};
    /// // ldmatrix.x1 feeding 2x4 atoms of mma.sync 16x8x8: CuTe C++ 4.2 retiles the A fragment
    /// // ((_2,_2),_2,_2):((_1,_2),_4,_8) as ((_2,_2),_2,_2):((_1,_2),_4,_8).
    /// let mma = TiledMma::<SM80_16x8x8_F32F16F16F32_TN, Layout![(2,4,1):(4,1,0)]>::new();
    /// let copy = mma.make_tiled_copy_a::<SM75_U32x1_LDSM_N>();
    /// assert_eq!(copy.retile(layout!(((2,2),2,2):((1,2),4,8))).to_string(), "((2,2),2,2):((1,2),4,8)");
    /// ```
    #[inline(always)]
    pub fn retile<F>(
        &self,
        frg: F,
    ) -> <F as Retile<<Self as CopyTiling>::LayoutTv, <Self as CopyTiling>::Tile, A::NumVal>>::Output
    where
        Self: CopyTiling,
        F: Retile<<Self as CopyTiling>::LayoutTv, <Self as CopyTiling>::Tile, A::NumVal>,
    {
        frg.retile()
    }

    side!(
        /// `tidfrg_S`: an `(M,N,...)` source layout as `(Thr, (FrgV,FrgX), (RestM,RestN,...))`.
        tidfrg_s,
        /// `get_slice(thr).partition_S(s)`: thread `thr`'s `((FrgV,FrgX),RestM,RestN,...)` part of
        /// an `(M,N,...)` source, and its offset. The source is static, or has static extents
        /// and run-time strides (a CTA's tile of a global tensor: the strides the run-time ones
        /// reach are computed when it runs).
        ///
        /// # Errors
        /// [`TensorError::ThreadOutOfRange`] for a thread past the tiled copy's;
        /// [`TensorError::Algebra`] for run-time strides whose products overflow.
        ///
        /// # Examples
        /// ```
        /// use cute_static::copy::{TiledCopy, UniversalCopy};
        /// use cute_static::{layout, typenum::U8, Layout};
        /// let copy = TiledCopy::<UniversalCopy<U8>, Layout![(32,4):(4,1)], Layout![(1,8):(0,1)]>::new();
        /// // Thread 109's values of a 64x64 column-major tile (CuTe C++ 4.2:
        /// // ((_8,_1),_2,_2):((_64,_0),_32,_2048) at 539).
        /// let (part, offset) = copy.partition_s(layout!((64,64):(1,64)), 109)?;
        /// assert_eq!((part.to_string(), offset), ("((8,1),2,2):((64,0),32,2048)".to_string(), 539));
        /// // The same tile of a global tensor with a run-time leading dimension 64.
        /// let ld = 64;
        /// let (part, offset) = copy.partition_s(layout!((64,64):(1,{ld})), 109)?;
        /// assert_eq!((part.to_string(), offset), ("((8,1),2,2):(({64},0),32,{2048})".to_string(), 539));
        /// # Ok::<(), cute_static::tensor::TensorError>(())
        /// ```
        partition_s,
        PartitionS,
        Src
    );

    side!(
        /// `tidfrg_D`: an `(M,N,...)` destination layout as `(Thr, (FrgV,FrgX), (RestM,...))`.
        tidfrg_d,
        /// `get_slice(thr).partition_D(d)`: thread `thr`'s part of a destination (as `partition_s`).
        ///
        /// # Errors
        /// As `partition_s`.
        partition_d,
        PartitionD,
        Dst
    );
}

/// The tiled copy's `partition_S` and `partition_D` as traits: one bound each in generic code.
macro_rules! side_traits {
    ($($(#[$doc:meta])* $tr:ident, $partition:ident, $target:ident, [$msg:literal, $label:literal];)*) => {$(
        $(#[$doc])*
        #[diagnostic::on_unimplemented(
            message = $msg,
            label = $label,
            note = "the layout has static extents (its strides may be run-time) and the tiled copy's tile divides them"
        )]
        pub trait $tr<O> {
            /// The thread's part (evaluated, printed and converted with no further bound).
            type Output: crate::LayoutFn;
            /// `get_slice(thr).partition_X(o)`: the part and its offset.
            ///
            /// # Errors
            /// As the tiled copy's method.
            fn $partition(&self, o: O, thr: usize) -> Result<(Self::Output, usize), TensorError>;
        }
        impl<A: CopyAtom, T, V, SO, DO, Go, M, G, F> $tr<Layout<SO, DO>> for TiledCopy<A, T, V>
        where
            Self: CopyTiling,
            A::Ref: RightInverse,
            <A::Ref as RightInverse>::Output: Composition<A::$target>,
            // Static extents, or the one error that they are not: the division waits on it.
            SO: StaticExtentsGate<(), Out = Go> + Congruent<DO>,
            Go: Gated<Layout<SO, Marked<DO>>, Out = M>,
            DO: IntTuple + Symbolize<U0>,
            M: Default + TidFrg<<Self as CopyTiling>::LayoutTv, <Self as CopyTiling>::Tiler, A::NumThr, A::NumVal, RefTo<A, A::$target>, Output = G>,
            G: ResolveLayout<DO, Output = F>,
            F: ThreadPart,
            Layout<F::PartShape, F::PartStride>: crate::LayoutFn,
        {
            type Output = Layout<F::PartShape, F::PartStride>;
            #[inline(always)]
            fn $partition(&self, o: Layout<SO, DO>, thr: usize) -> Result<(Self::Output, usize), TensorError> {
                // The type checker divides the layout with its run-time strides marked (a static
                // layout is its own marked layout); the fragment's strides are computed from them.
                let frg = M::default().tidfrg();
                frg.resolve_layout(o.stride()).map_err(TensorError::Algebra)?.part(thr)
            }
        }
    )*};
}
side_traits! {
    /// `partition_S` as a trait, implemented by the tiled copy.
    PartitionS, partition_s, Src, [
        "`partition_s` of this layout by this tiled copy is not known to be defined",
        "where the tiled copy or the layout is generic, add the bound `PartitionS<Layout>` for it"
    ];
    /// `partition_D` as a trait, implemented by the tiled copy.
    PartitionD, partition_d, Dst, [
        "`partition_d` of this layout by this tiled copy is not known to be defined",
        "where the tiled copy or the layout is generic, add the bound `PartitionD<Layout>` for it"
    ];
}

/// `retile_S` / `retile_D` of a thread's fragment `F` (implemented by the fragment) for a tiled
/// copy of thread-value layout `TV`, tile `T` (as a shape) and atom values `NV`: the fragment
/// `(V, RestM, RestN, ...)` regrouped as `((AtomV, RestV), RestM, RestN, ...)`, the values as
/// the copy's atom moves them (cute-dyn's `TiledCopy::retile`, CuTe's `retile`).
#[doc(hidden)]
pub trait Retile<TV, T, NV> {
    /// The retiled fragment.
    type Output;
    /// It.
    fn retile(self) -> Self::Output;
}
#[allow(clippy::type_complexity)]
impl<FS0, FST, FD, TV, T, NV, V, NT, I, BY, UPS, UPD, UPI, VALS, FV, PE, Z, VT, R> Retile<TV, T, NV>
    for Layout<Cons<FS0, FST>, FD>
where
    FS0: crate::layout::SizeT<Output = V>,
    V: Default + Copy + crate::arith::MulT<NT> + crate::layout::Compact<crate::LayoutLeft, U1>,
    <V as crate::layout::Compact<crate::LayoutLeft, U1>>::Stride: Default,
    TV: RightInverse<Output = I> + ThreadCount<Output = NT>,
    T: crate::layout::Compact<crate::LayoutLeft, U1> + Default + Copy,
    <T as crate::layout::Compact<crate::LayoutLeft, U1>>::Stride: Default,
    I: Composition<Layout<T, <T as crate::layout::Compact<crate::LayoutLeft, U1>>::Stride>, Output = BY>,
    BY: crate::ops::Upcast<<V as crate::arith::MulT<NT>>::Output, Output = Layout<UPS, UPD>>,
    <V as crate::arith::MulT<NT>>::Output: Default,
    UPS: crate::tensor::ProductEach<Output = PE>,
    Layout<UPS, UPD>: RightInverse<Output = UPI>,
    Layout<V, <V as crate::layout::Compact<crate::LayoutLeft, U1>>::Stride>:
        crate::ops::LogicalProduct<UPI, Output = VALS>,
    NV: crate::layout::Compact<crate::LayoutLeft, U1> + Default + Copy,
    <NV as crate::layout::Compact<crate::LayoutLeft, U1>>::Stride: Default,
    VALS: ZippedDivide<Layout<NV, <NV as crate::layout::Compact<crate::LayoutLeft, U1>>::Stride>, Output = FV>,
    Layout<Cons<FS0, FST>, FD>: ZippedDivide<ByMode<Cons<V, PE>>, Output = Z>,
    PE: Default + Copy,
    Z: Composition<ByMode<Cons<FV, Cons<Under, Nil>>>, Output = VT>,
    FV: Default + Copy,
    VT: FirstRestAtZero<Output = R>,
{
    type Output = R;
    #[inline(always)]
    fn retile(self) -> R {
        self.zipped_divide(ByMode(Default::default())).composition(ByMode(Default::default())).first_rest_at_zero()
    }
}

/// `size(tiled_mma)` and `size(tiled_copy)`: the threads a tiled MMA or a tiled copy takes. One
/// bound in generic code.
#[diagnostic::on_unimplemented(
    message = "the thread count of `{Self}` is not known",
    label = "where the tiled MMA or copy is generic, add the bound `Threads` for it"
)]
pub trait Threads {
    /// The number of threads.
    fn threads(&self) -> usize;
}
impl<A: CopyAtom, T, V> Threads for TiledCopy<A, T, V>
where
    Self: CopyTiling,
    <Self as CopyTiling>::LayoutTv: ThreadCount<Output: typenum::Unsigned>,
{
    #[inline(always)]
    fn threads(&self) -> usize {
        <<<Self as CopyTiling>::LayoutTv as ThreadCount>::Output as typenum::Unsigned>::USIZE
    }
}

#[doc(hidden)]
/// `size<0>` of a thread-value layout: its threads.
pub trait ThreadCount {
    /// The count.
    type Output;
}
impl<S0, ST, D> ThreadCount for Layout<Cons<S0, ST>, D>
where
    S0: crate::layout::SizeT,
{
    type Output = <S0 as crate::layout::SizeT>::Output;
}

#[doc(hidden)]
/// `v_tensor(_, (0, _, _, ...))` of a `((AtomV,RestV), (Rest0, Rest1, ...))` layout:
/// `((AtomV,RestV), Rest1, ...)`, the first rest mode (the values' own, of extent 1) dropped.
pub trait FirstRestAtZero {
    /// The layout.
    type Output;
    /// It.
    fn first_rest_at_zero(self) -> Self::Output;
}
impl<V, R0, RT, VD, D0, DT> FirstRestAtZero
    for Layout<Cons<V, Cons<Cons<R0, RT>, Nil>>, Cons<VD, Cons<Cons<D0, DT>, Nil>>>
where
    V: Copy,
    VD: Copy,
    RT: Copy,
    DT: Copy,
{
    type Output = Layout<Cons<V, RT>, Cons<VD, DT>>;
    #[inline(always)]
    fn first_rest_at_zero(self) -> Self::Output {
        let (s, d) = self.into_parts();
        // Coordinate 0 of the first rest mode: no offset.
        Layout::from_parts(Cons(s.0, s.1 .0 .1), Cons(d.0, d.1 .0 .1))
    }
}
