//! Tiled MMAs (CuTe's `cute/atom/mma_atom.hpp`) computed by the type checker: an MMA atom's
//! thread-value layouts as types (CuTe's `MMA_Traits`), tiled over a static layout of atoms,
//! and the per-thread partitions of static layouts a CuTe GEMM is written with (the same
//! algorithm as cute-dyn's `mma` module, which is checked against CuTe C++ 4.2). Only layouts:
//! the atoms' instructions are the kernel's.
//!
//! A partition is computed once per thread: the layout by the type checker (zero-sized), the
//! offset of the thread's first element at run time.

use core::marker::PhantomData;

use typenum::{U0, U1};

use crate::int_tuple::{Cons, IntTuple, Nil};
use crate::layout::{Congruent, Layout};
use crate::ops::{LogicalDivide, TiledProduct, ZippedDivide};
use crate::scaled::{Gated, Marked, ResolveLayout, StaticExtentsGate, Symbolize};
use crate::tensor::{SliceModes, TensorError};
use crate::tiler::{ByMode, Under};
use crate::Composition;

/// An MMA atom (CuTe's `MMA_Traits<Op>`): one instruction's `(M,N,K)` extents, the threads it
/// takes (`ThrID`) and the thread-value layouts `(thread, value) -> index` of its operands in
/// the column-major `(M,K)`, `(N,K)` and `(M,N)` tiles.
pub trait MmaAtom: Copy + Default {
    /// The CuTe name of the operation.
    const NAME: &'static str;
    /// `size<0>(Shape_MNK)`.
    type M: Default + Copy;
    /// `size<1>(Shape_MNK)`.
    type N: Default + Copy;
    /// `size<2>(Shape_MNK)`.
    type K: Default + Copy;
    /// `ThrID`.
    type ThrId: Default + Copy;
    /// `ALayout`: `(thread, value) -> (m, k)`.
    type ALayout: Default + Copy;
    /// `BLayout`: `(thread, value) -> (n, k)`.
    type BLayout: Default + Copy;
    /// `CLayout`: `(thread, value) -> (m, n)`.
    type CLayout: Default + Copy;
    /// Where the instruction reads A: [`Registers`] or a shared-memory [`Descriptor`].
    type ASource: Default + Copy;
    /// Where it reads B.
    type BSource: Default + Copy;
}

/// An operand an MMA instruction reads from registers: a thread's fragment.
#[derive(Clone, Copy, Default, Debug)]
pub struct Registers;
/// An operand an MMA instruction reads from shared memory through a matrix descriptor
/// (`wgmma`'s B, and A of its `SS` form): C++'s `partition_fragment_A/B` makes a descriptor
/// iterator there, not a register array.
#[derive(Clone, Copy, Default, Debug)]
pub struct Descriptor;

/// Where an operand comes from, when `partition_fragment_A/B` asks for a register fragment of it.
#[diagnostic::on_unimplemented(
    message = "this MMA atom reads the operand from shared memory through a descriptor, not a register fragment",
    label = "no register fragment of this operand",
    note = "an `_SS` atom's A and every SM90 atom's B: partition the shared tile (`partition_a`, `partition_b`); `gemm` reads the descriptors off it"
)]
pub trait RegisterOperand {}
impl RegisterOperand for Registers {}

/// Where atom `Self` reads operand `W` ([`OpA`], [`OpB`], [`OpC`]).
pub trait OperandSource<W> {
    /// [`Registers`] or [`Descriptor`].
    type Source;
}
impl<A: MmaAtom> OperandSource<OpA> for A {
    type Source = A::ASource;
}
impl<A: MmaAtom> OperandSource<OpB> for A {
    type Source = A::BSource;
}
impl<A: MmaAtom> OperandSource<OpC> for A {
    type Source = Registers;
}

macro_rules! mma_atoms {
    ($($(#[$doc:meta])* $name:ident: ($m:literal, $n:literal, $k:literal), $thr:ty, $a:ty, $b:ty, $c:ty $(, from $asrc:ty, $bsrc:ty)?;)*) => {$(
        $(#[$doc])*
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Default, Debug)]
        pub struct $name;
        impl MmaAtom for $name {
            const NAME: &'static str = stringify!($name);
            type M = typenum::U<$m>;
            type N = typenum::U<$n>;
            type K = typenum::U<$k>;
            type ThrId = $thr;
            type ALayout = $a;
            type BLayout = $b;
            type CLayout = $c;
            type ASource = mma_atoms!(@src $($asrc)?);
            type BSource = mma_atoms!(@src $($bsrc)?);
        }
    )*};
    // Registers unless the atom says otherwise.
    (@src) => { Registers };
    (@src $src:ty) => { $src };
}

mma_atoms! {
    /// One thread's `c += a * b` (CuTe's `UniversalFMA`).
    UniversalFMA: (1, 1, 1), crate::Layout![1:0], crate::Layout![(1,1):(0,0)], crate::Layout![(1,1):(0,0)], crate::Layout![(1,1):(0,0)];
    /// SM80 `mma.sync.m16n8k8` F32 += F16 * F16.
    SM80_16x8x8_F32F16F16F32_TN: (16, 8, 8), crate::Layout![32:1],
        crate::Layout![((4,8),(2,2)):((32,1),(16,8))], crate::Layout![((4,8),2):((16,1),8)], crate::Layout![((4,8),(2,2)):((32,1),(16,8))];
    /// SM80 `mma.sync.m16n8k16` F32 += F16 * F16.
    SM80_16x8x16_F32F16F16F32_TN: (16, 8, 16), crate::Layout![32:1],
        crate::Layout![((4,8),(2,2,2)):((32,1),(16,8,128))], crate::Layout![((4,8),(2,2)):((16,1),(8,64))],
        crate::Layout![((4,8),(2,2)):((32,1),(16,8))];
    /// SM80 `mma.sync.m16n8k16` F32 += BF16 * BF16 (C++'s traits are the f16 atom's).
    SM80_16x8x16_F32BF16BF16F32_TN: (16, 8, 16), crate::Layout![32:1],
        crate::Layout![((4,8),(2,2,2)):((32,1),(16,8,128))], crate::Layout![((4,8),(2,2)):((16,1),(8,64))],
        crate::Layout![((4,8),(2,2)):((32,1),(16,8))];
    /// SM80 `mma.sync.m8n8k4` F64 += F64 * F64 (the atom of the SM80 fp64 GEMMs).
    SM80_8x8x4_F64F64F64F64_TN: (8, 8, 4), crate::Layout![32:1],
        crate::Layout![((4,8),1):((8,1),0)], crate::Layout![((4,8),1):((8,1),0)], crate::Layout![((4,8),2):((16,1),8)];
    /// SM80 `mma.sync.m16n8k32` S32 += S8 * S8.
    SM80_16x8x32_S32S8S8S32_TN: (16, 8, 32), crate::Layout![32:1],
        crate::Layout![((4,8),(4,2,2)):((64,1),(16,8,256))], crate::Layout![((4,8),(4,2)):((32,1),(8,128))],
        crate::Layout![((4,8),(2,2)):((32,1),(16,8))];
    /// SM80 `mma.sync.m8n8k32` S32 += S4 * S4.
    SM80_8x8x32_S32S4S4S32_TN: (8, 8, 32), crate::Layout![32:1],
        crate::Layout![((4,8),(8)):((64,1),(8))], crate::Layout![((4,8),(8)):((64,1),(8))], crate::Layout![((4,8),2):((16,1),8)];
    /// SM80 `mma.sync.m16n8k64` S32 += S4 * S4.
    SM80_16x8x64_S32S4S4S32_TN: (16, 8, 64), crate::Layout![32:1],
        crate::Layout![((4,8),(8,2,2)):((128,1),(16,8,512))], crate::Layout![((4,8),(8,2)):((64,1),(8,256))],
        crate::Layout![((4,8),(2,2)):((32,1),(16,8))];
    /// SM80 `mma.sync.m16n8k256` S32 += popc(B1 ^ B1).
    SM80_16x8x256_S32U1U1S32_TN_XORPOPC: (16, 8, 256), crate::Layout![32:1],
        crate::Layout![((4,8),(32,2,2)):((512,1),(16,8,2048))], crate::Layout![((4,8),(32,2)):((256,1),(8,1024))],
        crate::Layout![((4,8),(2,2)):((32,1),(16,8))];
    /// SM80 `mma.sync.m16n8k8` F32 += TF32 * TF32.
    SM80_16x8x8_F32TF32TF32F32_TN: (16, 8, 8), crate::Layout![32:1],
        crate::Layout![((4,8),(2,2)):((16,1),(8,64))], crate::Layout![((4,8),2):((8,1),32)], crate::Layout![((4,8),(2,2)):((32,1),(16,8))];
}

/// One SM90 `wgmma` atom `$name`, `m64n$n k$k` of `$a` by `$b` elements: 128 threads, A's
/// layout `$al` (from `$asrc`), B a descriptor's `(128,(N,K)):(0,(1,N))`, C
/// `GMMA::CLayout_64xN` (`$n8 = N / 8` its value repeats); `$note` ends its doc line.
macro_rules! sm90_gmma_atom {
    ($name:ident, $a:ident, $b:ident, $n:literal, $k:literal, $n8:literal, $al:ty, $asrc:ty, $note:literal) => {
        mma_atoms! {
            #[doc = concat!("SM90 `wgmma.mma_async.sync.aligned.m64n", stringify!($n), "k", stringify!($k), ".f32.", stringify!($a), ".", stringify!($b), "`: F32 += ", stringify!($a), " * ", stringify!($b), ", a warpgroup", $note, ".")]
            $name: (64, $n, $k), crate::Layout![128:1], $al,
                crate::Layout![(128,($n,$k)):(0,(1,$n))],
                crate::Layout![((4,8,4),(2,2,$n8)):((128,1,16),(64,8,512))], from $asrc, Descriptor;
        }
    };
}

/// The SM90 warpgroup MMAs `wgmma.mma_async.sync.aligned.m64nNk16.f32.{f16,bf16}`, named as
/// CuTe names them (`SM90_64x{N}x16_F32{T}{T}_{SS,RS}`, `mma_sm90_gmma.hpp`), with CuTe's
/// layouts (`mma_traits_sm90_gmma.hpp`): 128 threads; `SS` reads A and B from shared memory
/// through descriptors, every thread seeing the whole tile (`GMMA::ABLayout`, thread stride
/// 0); `RS` takes A from registers (`GMMA::ALayout_64x16`); C is `GMMA::CLayout_64xN`. One
/// macro (with `paste`) writes the family: for each `N` (and `N / 8`, the C layout's value
/// repeats), the f16 and bf16 atoms, `SS` and `RS`.
macro_rules! sm90_gmma_atoms {
    ($(($n:literal, $n8:literal)),* $(,)?) => {paste::paste! {$(
        sm90_gmma_atom!([<SM90_64x $n x16_F32F16F16_SS>], f16, f16, $n, 16, $n8, crate::Layout![(128,(64,16)):(0,(1,64))], Descriptor, "");
        sm90_gmma_atom!([<SM90_64x $n x16_F32F16F16_RS>], f16, f16, $n, 16, $n8,
            crate::Layout![((4,8,4),(2,2,2)):((128,1,16),(64,8,512))], Registers, "");
        sm90_gmma_atom!([<SM90_64x $n x16_F32BF16BF16_SS>], bf16, bf16, $n, 16, $n8, crate::Layout![(128,(64,16)):(0,(1,64))], Descriptor, "");
        sm90_gmma_atom!([<SM90_64x $n x16_F32BF16BF16_RS>], bf16, bf16, $n, 16, $n8,
            crate::Layout![((4,8,4),(2,2,2)):((128,1,16),(64,8,512))], Registers, "");
    )*}};
}

sm90_gmma_atoms!((8, 1), (16, 2), (32, 4), (64, 8), (80, 10), (96, 12), (128, 16), (176, 22), (192, 24), (256, 32));

/// The SM90 8-bit float warpgroup MMAs `wgmma.mma_async.sync.aligned.m64nNk32.f32.{e4m3,e5m2}.
/// {e4m3,e5m2}`, named as CuTe names them (`SM90_64x{N}x32_F32{A}{B}_{SS,RS}_TN`): K-major A
/// and B only (`_TN`; `wgmma` transposes only 16-bit operands), 32 elements of K an
/// instruction. `SS`: A from a descriptor, `(128,(64,32)):(0,(1,64))`; `RS`: A from registers,
/// `GMMA::ALayout_64x32`, four bytes a register; B from a descriptor; C `GMMA::CLayout_64xN`.
/// One macro (with `paste`) writes the family for each `N`: the four type pairs, `SS` and `RS`.
macro_rules! sm90_gmma_fp8_atoms {
    ($(($n:literal, $n8:literal)),* $(,)?) => {paste::paste! {$(
        sm90_gmma_fp8_atoms!(@types $n, $n8, [E4M3E4M3, e4m3, e4m3], [E4M3E5M2, e4m3, e5m2], [E5M2E4M3, e5m2, e4m3], [E5M2E5M2, e5m2, e5m2]);
    )*}};
    (@types $n:literal, $n8:literal, $([$ab:ident, $a:ident, $b:ident]),*) => {paste::paste! {$(
        sm90_gmma_atom!([<SM90_64x $n x32_F32 $ab _SS_TN>], $a, $b, $n, 32, $n8, crate::Layout![(128,(64,32)):(0,(1,64))], Descriptor,
            ", A and B K-major");
        sm90_gmma_atom!([<SM90_64x $n x32_F32 $ab _RS_TN>], $a, $b, $n, 32, $n8,
            crate::Layout![((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))], Registers, ", A and B K-major");
    )*}};
}

sm90_gmma_fp8_atoms!((8, 1), (16, 2), (32, 4), (64, 8), (96, 12), (128, 16), (192, 24), (256, 32));

/// CuTe's `TiledMMA` of an atom `A` over a static `(M,N,K)` layout of atoms `L` (no
/// permutation): `thr_layout_vmnk = tiled_product(ThrID, L)`. Zero-sized.
///
/// # Examples
/// ```
/// use cute_static::mma::{TiledMma, SM80_16x8x16_F32F16F16F32_TN};
/// use cute_static::Layout;
/// // 2x2 atoms of SM80 16x8x16: 128 threads (CuTe C++ 4.2's thr_layout_vmnk)
/// let mma = TiledMma::<SM80_16x8x16_F32F16F16F32_TN, Layout![(2,2,1):(1,2,0)]>::new();
/// assert_eq!(mma.thr_layout_vmnk().to_string(), "(32,2,2,1):(1,32,64,0)");
/// ```
pub struct TiledMma<A, L, P = NoPermutation>(PhantomData<(A, L, P)>);
crate::marker_impls!(TiledMma<A, L, P>);

/// No permutation of M, N, K (`Tile<_,_,_>`): each mode's extent is the atom's times the
/// threads'.
pub type NoPermutation = ByMode<Cons<Under, Cons<Under, Cons<Under, Nil>>>>;

/// `permutation_mnk<i>`, implemented by the permutation's element: `_` is the atom's extent `X`
/// times the threads' `T`; an integer or a layout is itself.
#[doc(hidden)]
pub trait PermOf<X, T> {
    /// The tiler element.
    type Output: Default + Copy;
}
impl<X: crate::arith::MulT<T>, T> PermOf<X, T> for Under {
    type Output = <X as crate::arith::MulT<T>>::Output;
}
impl<X, T, U: typenum::Unsigned + Default + Copy, B: typenum::Bit + Default + Copy> PermOf<X, T>
    for typenum::UInt<U, B>
{
    type Output = Self;
}
impl<X, T, S: Default + Copy, D: Default + Copy> PermOf<X, T> for Layout<S, D> {
    type Output = Self;
}

/// `tile_size<i>`: the extent a permutation element spans (an integer's value, a layout's size).
#[doc(hidden)]
pub trait TileSize {
    /// The extent.
    type Output: Default + Copy;
}
impl<U: typenum::Unsigned + Default + Copy, B: typenum::Bit + Default + Copy> TileSize for typenum::UInt<U, B> {
    type Output = Self;
}
impl<S: crate::layout::SizeT, D> TileSize for Layout<S, D>
where
    <S as crate::layout::SizeT>::Output: Default + Copy,
{
    type Output = <S as crate::layout::SizeT>::Output;
}

/// `size(S)` of a static shape.
type Sz<S> = <S as crate::layout::SizeT>::Output;
/// `permutation_mnk<i>` of the permutation element `P`, atom extent `X`, threads' shape `S`.
type Perm<P, X, S> = <P as PermOf<X, Sz<S>>>::Output;
/// `tile_size<i>`.
type Tsz<P, X, S> = <Perm<P, X, S> as TileSize>::Output;
/// C++'s `make_layout(n)`: `n:1`, `_1:_0` for a static 1.
type Lay<N> = Layout<N, <N as crate::layout::Compact<crate::LayoutLeft, U1>>::Stride>;

#[doc(hidden)]
/// `thrfrg_X` of an operand layout (implemented by it): permuted by `<PX, PY>`, tiled by the
/// atom's `(AX, AY)` extents, its atom mode seen through the atom's thread-value layout `TV`,
/// and the thread mode tiled by the threads' `(TX, TY)` extents:
/// `((ThrV,(ThrX,ThrY)),(FrgV,(RestX,RestY,...)))`.
pub trait ThrFrg<PX, PY, AX, AY, TV, TX, TY> {
    /// The thread-fragment layout.
    type Output;
    /// It.
    fn thrfrg(self) -> Self::Output;
}
impl<Lo, PX, PY, AX, AY, TV, TX, TY, P, T, V, R> ThrFrg<PX, PY, AX, AY, TV, TX, TY> for Lo
where
    PX: Default + Copy,
    PY: Default + Copy,
    AX: Default + Copy + crate::layout::Compact<crate::LayoutLeft, U1>,
    <AX as crate::layout::Compact<crate::LayoutLeft, U1>>::Stride: Default,
    AY: Default + Copy + crate::layout::Compact<crate::LayoutLeft, U1>,
    <AY as crate::layout::Compact<crate::LayoutLeft, U1>>::Stride: Default,
    TV: Default + Copy,
    TX: Default + Copy + crate::layout::Compact<crate::LayoutLeft, U1>,
    <TX as crate::layout::Compact<crate::LayoutLeft, U1>>::Stride: Default,
    TY: Default + Copy + crate::layout::Compact<crate::LayoutLeft, U1>,
    <TY as crate::layout::Compact<crate::LayoutLeft, U1>>::Stride: Default,
    Lo: LogicalDivide<ByMode<Cons<PX, Cons<PY, Nil>>>, Output = P>,
    P: ZippedDivide<ByMode<Cons<Lay<AX>, Cons<Lay<AY>, Nil>>>, Output = T>,
    T: Composition<ByMode<Cons<TV, Cons<Under, Nil>>>, Output = V>,
    V: ZippedDivide<ByMode<Cons<Under, Cons<ByMode<Cons<Lay<TX>, Cons<Lay<TY>, Nil>>>, Nil>>>, Output = R>,
{
    type Output = R;
    #[inline(always)]
    fn thrfrg(self) -> R {
        let permuted = self.logical_divide(ByMode(Default::default()));
        let tiled = permuted.zipped_divide(ByMode(Default::default()));
        let tv = tiled.composition(ByMode(Default::default()));
        tv.zipped_divide(ByMode(Default::default()))
    }
}

#[doc(hidden)]
/// `_` over the rest modes of a thread fragment (C++'s `repeat<R>(_)`: `_` for one mode).
pub trait Unders {
    /// The coordinate.
    type Output: Default + Copy;
}
impl<H> Unders for Cons<H, Nil> {
    type Output = Under;
}
impl<H, H2, T: Unders2> Unders for Cons<H, Cons<H2, T>> {
    type Output = Cons<Under, Cons<Under, T::Output>>;
}
#[doc(hidden)]
/// `_` for each mode of a list.
pub trait Unders2 {
    /// The list of `_`.
    type Output: Default + Copy;
}
impl Unders2 for Nil {
    type Output = Nil;
}
impl<H, T: Unders2> Unders2 for Cons<H, T> {
    type Output = Cons<Under, T::Output>;
}

#[doc(hidden)]
/// The slicing coordinate of a thread in a thread fragment `((ThrV,(ThrX,ThrY)),(FrgV,Rest))`:
/// `((v,(x,y)),(_,repeat<R>(_)))`.
pub type ThreadCoord<RS> = Cons<
    Cons<usize, Cons<Cons<usize, Cons<usize, Nil>>, Nil>>,
    Cons<Cons<Under, Cons<<RS as Unders>::Output, Nil>>, Nil>,
>;

#[doc(hidden)]
/// A thread's slice of a thread fragment: `(FrgV,RestX,RestY,...)` and its offset.
pub trait ThreadSlice {
    /// The part's shape.
    type Shape: Congruent<Self::Stride>;
    /// The part's stride.
    type Stride: IntTuple;
    /// The part of the thread at `(v, (x, y))` and its offset.
    ///
    /// # Errors
    /// [`TensorError::TileOutOfRange`] for a coordinate outside the fragment's thread modes.
    fn thread_slice(
        self,
        v: usize,
        x: usize,
        y: usize,
    ) -> Result<(Layout<Self::Shape, Self::Stride>, usize), TensorError>;
}
impl<T0, TXY, VS, RS, FD, KS, KD> ThreadSlice
    for Layout<Cons<Cons<T0, Cons<TXY, Nil>>, Cons<Cons<VS, Cons<RS, Nil>>, Nil>>, FD>
where
    Cons<Cons<T0, Cons<TXY, Nil>>, Cons<Cons<VS, Cons<RS, Nil>>, Nil>>: Congruent<FD>,
    FD: IntTuple,
    RS: Unders,
    ThreadCoord<RS>:
        SliceModes<Cons<Cons<T0, Cons<TXY, Nil>>, Cons<Cons<VS, Cons<RS, Nil>>, Nil>>, FD, Shape = KS, Stride = KD>,
    KS: Congruent<KD>,
    KD: IntTuple,
{
    type Shape = KS;
    type Stride = KD;
    #[inline(always)]
    fn thread_slice(self, v: usize, x: usize, y: usize) -> Result<(Layout<KS, KD>, usize), TensorError> {
        let c: ThreadCoord<RS> = Cons(Cons(v, Cons(Cons(x, Cons(y, Nil)), Nil)), Default::default());
        crate::tensor::slice_of(&self, &c)
    }
}

/// The thread fragment of an operand layout `O` as operand `W` ([`OpA`], [`OpB`], [`OpC`]) of
/// a tiled MMA (implemented by the tiled MMA): `thrfrg_X(o)` and which modes of
/// `thr_layout_vmnk` index its thread mode.
#[doc(hidden)]
pub trait OperandFrg<W, O> {
    /// `((ThrV,(ThrX,ThrY)),(FrgV,(RestX,RestY,...)))`.
    type Frg;
    /// The modes of `(ThrV,ThrM,ThrN,ThrK)` that are the operand's `(ThrX, ThrY)`.
    const MODES: [usize; 2];
    /// `thrfrg_X(o)`.
    fn thrfrg(o: O) -> Self::Frg;
}

macro_rules! operand_frg {
    ($w:ty, $x:ident, $y:ident, $sx:ident, $sy:ident, $px:ident, $py:ident, $tv:ident, $cx:literal, $cy:literal) => {
        impl<A: MmaAtom, SM, SN, SK, D, PM, PN, PK, O, F> OperandFrg<$w, O>
            for TiledMma<A, Layout<Cons<SM, Cons<SN, Cons<SK, Nil>>>, D>, ByMode<Cons<PM, Cons<PN, Cons<PK, Nil>>>>>
        where
            SM: crate::layout::SizeT,
            SN: crate::layout::SizeT,
            SK: crate::layout::SizeT,
            $px: PermOf<A::$x, Sz<$sx>>,
            $py: PermOf<A::$y, Sz<$sy>>,
            O: ThrFrg<Perm<$px, A::$x, $sx>, Perm<$py, A::$y, $sy>, A::$x, A::$y, A::$tv, Sz<$sx>, Sz<$sy>, Output = F>,
        {
            type Frg = F;
            const MODES: [usize; 2] = [$cx, $cy];
            #[inline(always)]
            fn thrfrg(o: O) -> F {
                o.thrfrg()
            }
        }
    };
}
operand_frg!(OpC, M, N, SM, SN, PM, PN, CLayout, 1, 2);
operand_frg!(OpA, M, K, SM, SK, PM, PK, ALayout, 1, 3);
operand_frg!(OpB, N, K, SN, SK, PN, PK, BLayout, 2, 3);

macro_rules! operand {
    ($(#[$thrdoc:meta])* $thrfrg:ident, $(#[$pdoc:meta])* $partition:ident: $ptrait:ident,
     $(#[$fdoc:meta])* $fragment:ident: $ftrait:ident, $w:ty) => {
        $(#[$thrdoc])*
        #[inline(always)]
        pub fn $thrfrg<O>(&self, o: O) -> <Self as OperandFrg<$w, O>>::Frg
        where
            Self: OperandFrg<$w, O>,
        {
            <Self as OperandFrg<$w, O>>::thrfrg(o)
        }

        $(#[$pdoc])*
        #[inline(always)]
        pub fn $partition<O, R>(&self, o: O, thr: usize) -> Result<(R, usize), TensorError>
        where
            // The part as a parameter, not the projection: a refused operand is one error.
            Self: $ptrait<O, Output = R>,
        {
            <Self as $ptrait<O>>::$partition(self, o, thr)
        }

        $(#[$fdoc])*
        #[inline(always)]
        pub fn $fragment<O, R>(&self, o: O, thr: usize) -> Result<R, TensorError>
        where
            // Said here too, so that a descriptor operand is refused at the call, in words.
            A: OperandSource<$w, Source: RegisterOperand>,
            Self: $ftrait<O, Output = R>,
        {
            <Self as $ftrait<O>>::$fragment(self, o, thr)
        }
    };
}

/// The partition traits of a tiled MMA's operand: one bound each in generic code
/// (`M: PartitionC<L>`), the machinery behind them hidden.
/// What a shape is as a tiled MMA's operand ([`MatrixOperand`]): a [`Matrix`] (rank 2 or
/// more), a [`Vector`] (rank 1: an integer or one mode, as CuTe's `rank`) or [`Empty`] (`()`).
#[doc(hidden)]
pub trait OperandKind {
    /// `Matrix`, `Vector` or `Empty`.
    type Kind;
}
/// An operand of rank 2 or more.
#[doc(hidden)]
pub struct Matrix;
/// An operand of rank 1.
#[doc(hidden)]
pub struct Vector;
/// An operand of rank 0, `()`.
#[doc(hidden)]
pub struct Empty;
impl<X, Y, T> OperandKind for Cons<X, Cons<Y, T>> {
    type Kind = Matrix;
}
impl<X> OperandKind for Cons<X, Nil> {
    type Kind = Vector;
}
impl OperandKind for Nil {
    type Kind = Empty;
}
impl OperandKind for usize {
    type Kind = Vector;
}
impl OperandKind for typenum::UTerm {
    type Kind = Vector;
}
impl<U: typenum::Unsigned, B: typenum::Bit> OperandKind for typenum::UInt<U, B> {
    type Kind = Vector;
}

/// A tiled MMA partitions matrices: implemented by [`Matrix`] alone, whose `Gate<X>` is `X`. A
/// partition of a vector fails here, with this one error (the operand's layout
/// after it is `Gate`'s, which does not exist, so no error follows from it).
#[diagnostic::on_unimplemented(
    message = "a tiled MMA partitions a matrix: its operand is an `(M,K,...)`, `(N,K,...)` or `(M,N,...)` layout of rank 2 or more, not a `{Self}`",
    label = "this operand's shape is a `{Self}`",
    note = "e.g. `layout!((128,32):(32,1))` for a 128x32 tile of A"
)]
#[doc(hidden)]
pub trait MatrixOperand {
    /// `X` for a matrix.
    type Gate<X>;
}
impl MatrixOperand for Matrix {
    type Gate<X> = X;
}

macro_rules! operand_traits {
    ($(#[$pdoc:meta])* $ptrait:ident, $partition:ident, [$pmsg:literal, $plabel:literal],
     $(#[$fdoc:meta])* $ftrait:ident, $fragment:ident, [$fmsg:literal, $flabel:literal], $w:ty) => {
        $(#[$pdoc])*
        #[diagnostic::on_unimplemented(
            message = $pmsg,
            label = $plabel,
            note = "the operand's layout has static extents the tiled MMA's tile divides"
        )]
        pub trait $ptrait<O> {
            /// The thread's part of the operand.
            type Output: crate::LayoutFn;
            /// `get_slice(thr).partition_X(o)`: the part and its offset.
            ///
            /// # Errors
            /// As the tiled MMA's method.
            fn $partition(&self, o: O, thr: usize) -> Result<(Self::Output, usize), TensorError>;
        }
        impl<A: MmaAtom, L, P, SO, DO, K, M, Go, X, G, F> $ptrait<Layout<SO, DO>> for TiledMma<A, L, P>
        where
            // The operand as a matrix, or the one error that it is not ([`MatrixOperand`]).
            SO: OperandKind<Kind = K>,
            K: MatrixOperand<Gate<Layout<SO, Marked<DO>>> = M>,
            // Static extents, or the one error that they are not: the bounds below wait on it.
            SO: StaticExtentsGate<(), Out = Go>,
            Go: Gated<M, Out = X>,
            X: Default,
            Self: OperandFrg<$w, X, Frg = G> + ThrLayout,
            SO: Congruent<DO>,
            DO: IntTuple + Symbolize<U0>,
            Marked<DO>: Default,
            G: ResolveLayout<DO, Output = F>,
            F: ThreadSlice,
        {
            type Output = Layout<F::Shape, F::Stride>;
            #[inline(always)]
            fn $partition(&self, o: Layout<SO, DO>, thr: usize) -> Result<(Self::Output, usize), TensorError> {
                // The type checker divides the layout with its run-time strides marked (a
                // static layout is its own marked layout); the fragment's strides are computed
                // from them.
                let frg = <Self as OperandFrg<$w, X>>::thrfrg(X::default());
                let frg = frg.resolve_layout(o.stride()).map_err(TensorError::Algebra)?;
                let c = crate::tensor::thread_coord(&<Self as ThrLayout>::vmnk(), thr)?;
                let [x, y] = <Self as OperandFrg<$w, X>>::MODES;
                frg.thread_slice(c[0], c[x], c[y])
            }
        }

        $(#[$fdoc])*
        #[diagnostic::on_unimplemented(
            message = $fmsg,
            label = $flabel,
            note = "the operand's layout has static extents the tiled MMA's tile divides"
        )]
        pub trait $ftrait<O> {
            /// The fragment's layout.
            type Output: crate::LayoutFn;
            /// `get_slice(thr).partition_fragment_X(o)`.
            ///
            /// # Errors
            /// As the tiled MMA's method.
            fn $fragment(&self, o: O, thr: usize) -> Result<Self::Output, TensorError>;
        }
        impl<A: MmaAtom, L, P, O, Part> $ftrait<O> for TiledMma<A, L, P>
        where
            // A register fragment only of an operand the atom reads from registers.
            A: OperandSource<$w, Source: RegisterOperand>,
            Self: $ptrait<O, Output = Part>,
            Part: crate::product::FragmentLike,
        {
            type Output = <Part as crate::product::FragmentLike>::Output;
            #[inline(always)]
            fn $fragment(&self, o: O, thr: usize) -> Result<Self::Output, TensorError> {
                Ok(crate::product::FragmentLike::fragment_like(<Self as $ptrait<O>>::$partition(self, o, thr)?.0))
            }
        }
    };
}
operand_traits!(
    /// `partition_A` as a trait, implemented by the tiled MMA.
    PartitionA, partition_a,
    [
        "`partition_a` of this layout by this tiled MMA is not known to be defined",
        "where the tiled MMA is generic, add the bound `PartitionA<Layout>` for it"
    ],
    /// `partition_fragment_A` as a trait, implemented by the tiled MMA.
    PartitionFragmentA, partition_fragment_a,
    [
        "`partition_fragment_a` of this layout by this tiled MMA is not known to be defined",
        "where the tiled MMA is generic, add the bound `PartitionFragmentA<Layout>` for it"
    ],
    OpA
);
operand_traits!(
    /// `partition_B` as a trait, implemented by the tiled MMA.
    PartitionB, partition_b,
    [
        "`partition_b` of this layout by this tiled MMA is not known to be defined",
        "where the tiled MMA is generic, add the bound `PartitionB<Layout>` for it"
    ],
    /// `partition_fragment_B` as a trait, implemented by the tiled MMA.
    PartitionFragmentB, partition_fragment_b,
    [
        "`partition_fragment_b` of this layout by this tiled MMA is not known to be defined",
        "where the tiled MMA is generic, add the bound `PartitionFragmentB<Layout>` for it"
    ],
    OpB
);
operand_traits!(
    /// `partition_C` as a trait, implemented by the tiled MMA.
    PartitionC, partition_c,
    [
        "`partition_c` of this layout by this tiled MMA is not known to be defined",
        "where the tiled MMA is generic, add the bound `PartitionC<Layout>` for it"
    ],
    /// `partition_fragment_C` as a trait, implemented by the tiled MMA.
    PartitionFragmentC, partition_fragment_c,
    [
        "`partition_fragment_c` of this layout by this tiled MMA is not known to be defined",
        "where the tiled MMA is generic, add the bound `PartitionFragmentC<Layout>` for it"
    ],
    OpC
);

#[doc(hidden)]
/// The thread layout of a tiled MMA, for the partitions' thread coordinates.
pub trait ThrLayout {
    /// `thr_layout_vmnk`'s shape (flat, `(V,M,N,K)`).
    type Shape: Congruent<Self::Stride> + crate::tensor::FlatCoord;
    /// Its stride.
    type Stride: IntTuple;
    /// `thr_layout_vmnk`.
    fn vmnk() -> Layout<Self::Shape, Self::Stride>;
}
impl<A: MmaAtom, L, P, VS, VD> ThrLayout for TiledMma<A, L, P>
where
    A::ThrId: TiledProduct<L, Output = Layout<VS, VD>>,
    L: Default,
    VS: Congruent<VD> + crate::tensor::FlatCoord + Default,
    VD: IntTuple + Default,
{
    type Shape = VS;
    type Stride = VD;
    #[inline(always)]
    fn vmnk() -> Layout<VS, VD> {
        Layout::default()
    }
}

#[doc(hidden)]
/// The operand's thread-fragment of its reference tile, its thread mode widened by `Widen` and
/// indexed by thread through `Thr` (implemented by the thread-fragment layout).
pub trait OperandTv<Widen, Thr> {
    /// `(thread, value) -> index` of the operand's column-major tile.
    type Output: Default + Copy;
}
impl<F, Widen, Thr, W, R> OperandTv<Widen, Thr> for F
where
    F: Composition<ByMode<Cons<Widen, Cons<Under, Nil>>>, Output = W>,
    W: Composition<ByMode<Cons<Thr, Cons<Under, Nil>>>, Output = R>,
    Widen: Default,
    Thr: Default,
    R: Default + Copy,
{
    type Output = R;
}

/// The compact `(X, Y)` reference tile of an operand.
type TileRef<X, Y> =
    Layout<Cons<X, Cons<Y, Nil>>, <Cons<X, Cons<Y, Nil>> as crate::layout::Compact<crate::LayoutLeft, U1>>::Stride>;
/// A tiled MMA's `thr_layout_vmnk` type.
type VmnkOf<T> = Layout<<T as ThrLayout>::Shape, <T as ThrLayout>::Stride>;
/// A tiled MMA's `thridx_to_thrid` type.
type ThrOf<T> = <VmnkOf<T> as ThrIdxToThrId>::Output;
/// The widening of an A or B thread mode: `(_, <(ThrM,ThrN):(sm,sn), _>)`.
type Widen<TM, TN, DM, DN> = ByMode<
    Cons<Under, Cons<ByMode<Cons<Layout<Cons<TM, Cons<TN, Nil>>, Cons<DM, Cons<DN, Nil>>>, Cons<Under, Nil>>>, Nil>>,
>;

/// Which operand of a tiled MMA: A.
#[derive(Clone, Copy, Default, Debug)]
pub struct OpA;
/// Which operand of a tiled MMA: B.
#[derive(Clone, Copy, Default, Debug)]
pub struct OpB;
/// Which operand of a tiled MMA: C.
#[derive(Clone, Copy, Default, Debug)]
pub struct OpC;

/// The thread-value layout and the tile of operand `W` ([`OpA`], [`OpB`], [`OpC`]) of a tiled
/// MMA (implemented by the tiled MMA): `get_layoutX_TV` and `(tile_size<x>, tile_size<y>)`.
pub trait OperandLayout<W> {
    /// `(thread, value) -> index` of the operand's column-major tile.
    type Tv: Default + Copy;
    /// The operand's tile `(X, Y)`.
    type Tile: Default + Copy;
}

macro_rules! operand_layout {
    ($w:ty, $x:ident, $y:ident, $sx:ident, $sy:ident, $px:ident, $py:ident, $tv:ident, $widen:ty) => {
        impl<A: MmaAtom, SM, SN, SK, D, PM, PN, PK, R> OperandLayout<$w>
            for TiledMma<A, Layout<Cons<SM, Cons<SN, Cons<SK, Nil>>>, D>, ByMode<Cons<PM, Cons<PN, Cons<PK, Nil>>>>>
        where
            SM: crate::layout::SizeT,
            SN: crate::layout::SizeT,
            SK: crate::layout::SizeT,
            Self: ThrLayout,
            $px: PermOf<A::$x, Sz<$sx>>,
            $py: PermOf<A::$y, Sz<$sy>>,
            Perm<$px, A::$x, $sx>: TileSize,
            Perm<$py, A::$y, $sy>: TileSize,
            Cons<Tsz<$px, A::$x, $sx>, Cons<Tsz<$py, A::$y, $sy>, Nil>>:
                crate::layout::Compact<crate::LayoutLeft, U1> + Default + Copy,
            TileRef<Tsz<$px, A::$x, $sx>, Tsz<$py, A::$y, $sy>>:
                ThrFrg<Perm<$px, A::$x, $sx>, Perm<$py, A::$y, $sy>, A::$x, A::$y, A::$tv, Sz<$sx>, Sz<$sy>>,
            VmnkOf<Self>: ThrIdxToThrId,
            <TileRef<Tsz<$px, A::$x, $sx>, Tsz<$py, A::$y, $sy>> as ThrFrg<
                Perm<$px, A::$x, $sx>,
                Perm<$py, A::$y, $sy>,
                A::$x,
                A::$y,
                A::$tv,
                Sz<$sx>,
                Sz<$sy>,
            >>::Output: OperandTv<$widen, ThrOf<Self>, Output = R>,
            R: Default + Copy,
        {
            type Tv = R;
            type Tile = Cons<Tsz<$px, A::$x, $sx>, Cons<Tsz<$py, A::$y, $sy>, Nil>>;
        }
    };
}
operand_layout!(OpC, M, N, SM, SN, PM, PN, CLayout, Under);
operand_layout!(OpA, M, K, SM, SK, PM, PK, ALayout, Widen<Sz<SM>, Sz<SN>, U1, typenum::U0>);
operand_layout!(OpB, N, K, SN, SK, PN, PK, BLayout, Widen<Sz<SM>, Sz<SN>, typenum::U0, U1>);

macro_rules! operand_tv {
    ($(#[$doc:meta])* $name:ident, $(#[$cdoc:meta])* $copy:ident, $w:ty) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name(&self) -> <Self as OperandLayout<$w>>::Tv
        where
            Self: OperandLayout<$w>,
        {
            Default::default()
        }

        $(#[$cdoc])*
        #[inline(always)]
        pub fn $copy<C: crate::copy::CopyAtom>(
            &self,
        ) -> crate::copy::TiledCopy<C, <Self as OperandLayout<$w>>::Tv, crate::copy::TilerMn<<Self as OperandLayout<$w>>::Tile>>
        where
            Self: OperandLayout<$w>,
            // Checked here, where the copy is made: the atom must fit the thread-value layout
            // (its verdict asked to pass on its own: the error names the condition alone).
            crate::copy::TiledCopy<C, <Self as OperandLayout<$w>>::Tv, crate::copy::TilerMn<<Self as OperandLayout<$w>>::Tile>>: crate::copy::CopyPlan,
            <crate::copy::TiledCopy<C, <Self as OperandLayout<$w>>::Tv, crate::copy::TilerMn<<Self as OperandLayout<$w>>::Tile>> as crate::copy::CopyPlan>::Out:
                crate::verdict::Pair<Second: crate::verdict::Pass>,
        {
            crate::copy::TiledCopy::default()
        }
    };
}

impl<A: MmaAtom, L> TiledMma<A, L> {
    /// `make_tiled_mma(A{}, L{})`: no permutation. (With one, `make_tiled_mma(A{}, L{},
    /// Tile<...>{})`: `TiledMma::<A, L, Tiler![<32,32,16>]>::default()`, `_` for a mode left
    /// as it is.)
    pub fn new() -> Self {
        TiledMma(PhantomData)
    }
}

impl<A: MmaAtom, L, P> crate::copy::Threads for TiledMma<A, L, P>
where
    Self: ThrLayout,
{
    #[inline(always)]
    fn threads(&self) -> usize {
        <Self as ThrLayout>::vmnk().size()
    }
}

impl<A: MmaAtom, L, P> TiledMma<A, L, P> {
    /// `thr_layout_vmnk`: `(ThrV,ThrM,ThrN,ThrK) -> thread`, `tiled_product(ThrID, L)`.
    pub fn thr_layout_vmnk(&self) -> Layout<<Self as ThrLayout>::Shape, <Self as ThrLayout>::Stride>
    where
        Self: ThrLayout,
    {
        <Self as ThrLayout>::vmnk()
    }

    operand!(
        /// `thrfrg_C`: an `(M,N,...)` layout as `((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN,...)))`.
        thrfrg_c,
        /// `get_slice(thr).partition_C(c)`: thread `thr`'s `(FrgV,RestM,RestN,...)` part of an
        /// `(M,N,...)` layout, and its offset. The layout is static, or has static extents and
        /// run-time strides (a CTA's tile of a global tensor: the strides the run-time ones reach
        /// are computed when it runs).
        ///
        /// # Errors
        /// [`TensorError::ThreadOutOfRange`] for a thread past the tiled MMA's;
        /// [`TensorError::Algebra`] for run-time strides whose products overflow.
        ///
        /// # Examples
        /// ```
        /// use cute_static::mma::{TiledMma, SM80_16x8x16_F32F16F16F32_TN};
        /// use cute_static::{layout, Layout};
        /// let mma = TiledMma::<SM80_16x8x16_F32F16F16F32_TN, Layout![(2,2,1):(1,2,0)]>::new();
        /// // A 64x32 column-major C, thread 120 (CuTe C++ 4.2: ((_2,_2),_2,_2):((_64,_8),_32,_1024) at 534)
        /// let (part, offset) = mma.partition_c(layout!((64,32):(1,64)), 120)?;
        /// assert_eq!((part.to_string(), offset), ("((2,2),2,2):((64,8),32,1024)".to_string(), 534));
        /// // The same tile of a global C with a run-time leading dimension 64.
        /// let ldc = 64;
        /// // The strides ldc reaches (64 = ldc, 1024 = 16 ldc) are run-time.
        /// let (part, offset) = mma.partition_c(layout!((64,32):(1,{ldc})), 120)?;
        /// assert_eq!((part.to_string(), offset), ("((2,2),2,2):(({64},8),32,{1024})".to_string(), 534));
        /// # Ok::<(), cute_static::tensor::TensorError>(())
        /// ```
        partition_c: PartitionC,
        /// `get_slice(thr).partition_fragment_C(c)`: the register fragment for thread `thr`'s part
        /// of `c` (`make_fragment_like` of it).
        ///
        /// # Errors
        /// As `partition_c`.
        partition_fragment_c: PartitionFragmentC,
        OpC
    );

    operand!(
        /// `thrfrg_A`: an `(M,K,...)` layout as `((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK,...)))`.
        thrfrg_a,
        /// `get_slice(thr).partition_A(a)`: thread `thr`'s part of an `(M,K,...)` layout (as `partition_c`).
        ///
        /// # Errors
        /// As `partition_c`.
        partition_a: PartitionA,
        /// `get_slice(thr).partition_fragment_A(a)`: a register fragment, only of an operand
        /// the atom reads from registers (a compile error for a descriptor operand: an `_SS`
        /// atom's A, an SM90 atom's B, where CuTe makes a descriptor and cute-dyn refuses).
        ///
        /// # Errors
        /// As `partition_c`.
        partition_fragment_a: PartitionFragmentA,
        OpA
    );

    operand!(
        /// `thrfrg_B`: an `(N,K,...)` layout as `((ThrV,(ThrN,ThrK)),(FrgV,(RestN,RestK,...)))`.
        thrfrg_b,
        /// `get_slice(thr).partition_B(b)`: thread `thr`'s part of an `(N,K,...)` layout (as `partition_c`).
        ///
        /// # Errors
        /// As `partition_c`.
        partition_b: PartitionB,
        /// `get_slice(thr).partition_fragment_B(b)`: a register fragment, only of an operand
        /// the atom reads from registers (a compile error for a descriptor operand: an `_SS`
        /// atom's A, an SM90 atom's B, where CuTe makes a descriptor and cute-dyn refuses).
        ///
        /// # Errors
        /// As `partition_c`.
        partition_fragment_b: PartitionFragmentB,
        OpB
    );

    operand_tv!(
        /// `get_layoutC_TV`: `(thread, value) -> (m, n)` index of the column-major `(M,N)` tile.
        ///
        /// # Examples
        /// ```
        /// use cute_static::mma::{TiledMma, SM80_16x8x16_F32F16F16F32_TN};
        /// use cute_static::{Layout, StaticLayout};
        /// let mma = TiledMma::<SM80_16x8x16_F32F16F16F32_TN, Layout![(2,2,1):(1,2,0)]>::new();
        /// // The type is CuTe C++ 4.2's print of get_layoutC_TV().
        /// let tv: Layout![((4,8,2,2),((2,2),(1,1))):((64,1,16,256),((32,8),(0,0)))] = mma.layout_c_tv();
        /// assert_eq!(tv.size(), 128 * 4);
        /// ```
        layout_c_tv,
        /// `make_tiled_copy_C(atom, mma)`: the copy atom `C` over the C thread-value layout and
        /// the `(M,N)` tile, so that a copy's source partition is a thread's C fragment.
        make_tiled_copy_c,
        OpC
    );
    operand_tv!(
        /// `get_layoutA_TV`: `(thread, value) -> (m, k)` index of the column-major `(M,K)` tile;
        /// the threads that tile N read the same A (stride 0).
        layout_a_tv,
        /// `make_tiled_copy_A(atom, mma)`: the copy atom `C` over the A thread-value layout and
        /// the `(M,K)` tile, so that a copy's destination partition is a thread's A fragment.
        make_tiled_copy_a,
        OpA
    );
    operand_tv!(
        /// `get_layoutB_TV`: `(thread, value) -> (n, k)` index of the column-major `(N,K)` tile;
        /// the threads that tile M read the same B (stride 0).
        layout_b_tv,
        /// `make_tiled_copy_B(atom, mma)`: the copy atom `C` over the B thread-value layout and
        /// the `(N,K)` tile.
        make_tiled_copy_b,
        OpB
    );
}

#[doc(hidden)]
/// `thridx_to_thrid` of a thread layout `(ThrV,ThrM,ThrN,ThrK) -> thread` (implemented by it):
/// `(size, 1):(1, 0)` composed with the right inverse of `(vmnk, complement(vmnk, cosize))`,
/// `thread -> (v, m, n, k)` index.
pub trait ThrIdxToThrId {
    /// The layout.
    type Output: Default + Copy;
}
impl<VS, VD, N, C, RS, RD, I, R> ThrIdxToThrId for Layout<VS, VD>
where
    VS: crate::layout::SizeT<Output = N> + crate::layout::MaxIndexT<VD>,
    <VS as crate::layout::MaxIndexT<VD>>::Output: core::ops::Add<typenum::B1, Output = C>,
    C: crate::complement::ComplementOf<Layout<VS, VD>, Output = Layout<RS, RD>>,
    Layout<Cons<VS, Cons<RS, Nil>>, Cons<VD, Cons<RD, Nil>>>: crate::ops::RightInverse<Output = I>,
    Layout<Cons<N, Cons<U1, Nil>>, Cons<U1, Cons<typenum::U0, Nil>>>: Composition<I, Output = R>,
    I: Default,
    R: Default + Copy,
{
    type Output = R;
}
