//! A layout's flat modes: each shape leaf paired with its stride leaf ([`Mode`]), what the
//! type checker knows of a leaf ([`Known`]), and `filter_zeros` on a mode list. The layout
//! constructors and every algorithm that walks flat modes (coalesce, composition, complement,
//! the inverses) read layouts through this module.

use core::ops::BitAnd;

use typenum::{Bit, IsEqual, UInt, UTerm, Unsigned, B0, B1, U0, U1};

use crate::int_tuple::{Concat, Cons, IntTuple, Nil, StaticBit};

/// A flat mode: a shape leaf with its stride leaf.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Mode<S, D>(pub S, pub D);

/// What the type checker knows of a leaf: whether it is static ([`StaticBit`]), and its
/// value if so.
pub trait Known: IntTuple + StaticBit {
    /// `B1` when the value is known to the type checker (a marked run-time stride,
    /// [`Scaled`](crate::scaled::Scaled), is static in its structure only: this bit is `B0`).
    type Static: Bit;
    /// The value when static (`U0` stands in for a `usize`).
    type Val: Unsigned;
    /// `B1` exactly for the static 1.
    type IsOne: Bit;
}

impl Known for UTerm {
    type Static = B1;
    type Val = UTerm;
    type IsOne = B0;
}

/// `1` is `UInt<UTerm, B1>`; every other `UInt` is not 1.
impl Known for UInt<UTerm, B1> {
    type Static = B1;
    type Val = Self;
    type IsOne = B1;
}

impl<U: Unsigned, B: Bit, C: Bit> Known for UInt<UInt<U, B>, C> {
    type Static = B1;
    type Val = Self;
    type IsOne = B0;
}

impl Known for usize {
    type Static = B0;
    type Val = U0;
    type IsOne = B0;
}

/// A marked run-time stride ([`Scaled`](crate::scaled::Scaled)) is a run-time leaf.
impl<K: Copy, I: Copy> Known for crate::scaled::Scaled<K, I> {
    type Static = B0;
    type Val = U0;
    type IsOne = B0;
}

/// Flatten a congruent shape and stride into a list of [`Mode`]s.
///
/// Implemented for congruent pairs only (leaf with leaf, tuple with tuple of the same rank), so
/// the bound `S: FlattenModes<D>` says `S: Congruent<D>` too: the algebra's impls ask for it
/// alone, one proof per layout instead of two (measured: a million rustc instructions per call
/// off coalesce, composition and the inverses with run-time leaves).
pub trait FlattenModes<D> {
    /// The flat list of modes.
    type Output: Copy;
    /// The modes, with their run-time leaves.
    fn flatten_modes(&self, d: &D) -> Self::Output;
}

macro_rules! leaf_modes {
    ($([$($g:ident: $b:path),*] $s:ty, $d:ty);* $(;)?) => {$(
        /// A leaf shape with a leaf stride: one mode.
        impl<$($g: $b),*> FlattenModes<$d> for $s {
            type Output = Cons<Mode<$s, $d>, Nil>;
            #[inline(always)]
            fn flatten_modes(&self, d: &$d) -> Self::Output {
                Cons(Mode(*self, *d), Nil)
            }
        }
    )*};
}
crate::int_tuple::for_each_leaf_pair!(leaf_modes);
crate::scaled::for_each_scaled_pair!(leaf_modes);

/// `()` has no modes.
impl FlattenModes<Nil> for Nil {
    type Output = Nil;
    fn flatten_modes(&self, _: &Nil) -> Nil {
        Nil
    }
}

/// A tuple: the modes of its first mode, then those of the rest.
impl<S, ST, D, DT> FlattenModes<Cons<D, DT>> for Cons<S, ST>
where
    S: FlattenModes<D>,
    ST: FlattenModes<DT>,
    S::Output: Concat<ST::Output>,
{
    type Output = <S::Output as Concat<ST::Output>>::Output;
    #[inline(always)]
    fn flatten_modes(&self, d: &Cons<D, DT>) -> Self::Output {
        self.0.flatten_modes(&d.0).concat(self.1.flatten_modes(&d.1))
    }
}

/// `filter_zeros` on a flat mode list: a mode with a static-0 stride gets the shape `_1`.
pub trait FilterZeros {
    /// The filtered list.
    type Output: Copy;
    /// Its values.
    fn filter_zeros(self) -> Self::Output;
}

impl FilterZeros for Nil {
    type Output = Nil;
    fn filter_zeros(self) -> Nil {
        Nil
    }
}

impl<S, D, T> FilterZeros for Cons<Mode<S, D>, T>
where
    D: Known,
    T: FilterZeros,
    <D as Known>::Static: BitAnd<<<D as Known>::Val as IsEqual<U0>>::Output>,
    <D as Known>::Val: IsEqual<U0>,
    (StaticZero<D>,): ZeroShape<S, D>,
{
    type Output = Cons<<(StaticZero<D>,) as ZeroShape<S, D>>::Output, T::Output>;
    #[inline(always)]
    fn filter_zeros(self) -> Self::Output {
        Cons(<(StaticZero<D>,) as ZeroShape<S, D>>::zero_shape(self.0), self.1.filter_zeros())
    }
}

/// `B1` for a static-0 stride.
type StaticZero<D> = <<D as Known>::Static as BitAnd<<<D as Known>::Val as IsEqual<U0>>::Output>>::Output;

/// The mode after `filter_zeros`: `_1:d` for a static-0 stride, else unchanged.
pub trait ZeroShape<S, D> {
    /// The mode.
    type Output: Copy;
    /// Its value.
    fn zero_shape(m: Mode<S, D>) -> Self::Output;
}

impl<S, D: Copy> ZeroShape<S, D> for (B1,) {
    type Output = Mode<U1, D>;
    #[inline(always)]
    fn zero_shape(m: Mode<S, D>) -> Self::Output {
        Mode(U1::default(), m.1)
    }
}

impl<S: Copy, D: Copy> ZeroShape<S, D> for (B0,) {
    type Output = Mode<S, D>;
    #[inline(always)]
    fn zero_shape(m: Mode<S, D>) -> Self::Output {
        m
    }
}

/// The run-time values of a list of modes, in order (what the algorithms on layouts with
/// run-time leaves read when they run).
pub trait ModeValues {
    /// The number of modes.
    const LEN: usize;
    /// `f(s, d, s is static, d is static)` for each mode.
    fn each_mode(&self, f: &mut impl FnMut(usize, usize, bool, bool));
}
impl ModeValues for Nil {
    const LEN: usize = 0;
    #[inline(always)]
    fn each_mode(&self, _: &mut impl FnMut(usize, usize, bool, bool)) {}
}
impl<S: crate::int_tuple::Leaf, D: crate::int_tuple::Leaf, T: ModeValues> ModeValues for Cons<Mode<S, D>, T> {
    const LEN: usize = 1 + T::LEN;
    #[inline(always)]
    fn each_mode(&self, f: &mut impl FnMut(usize, usize, bool, bool)) {
        let Mode(s, d) = &self.0;
        f(s.value(), d.value(), S::IS_STATIC, D::IS_STATIC);
        self.1.each_mode(f);
    }
}

/// Whether the run-time strides of these modes increase, each above every static stride. Then
/// sorting the modes by stride (C++'s exchange sort, or complement's first-of-equal selection)
/// gives the static ones in the order they sort in alone, then the run-time ones in theirs: the
/// order the types assume where a run-time stride keeps them from sorting ([`SplitByStride`]),
/// checked with this when it runs.
pub fn run_time_strides_last(modes: &impl ModeValues) -> bool {
    let (mut increasing, mut max_static, mut first, mut last) = (true, None, None, None);
    modes.each_mode(&mut |_, d, _, d_static| {
        if d_static {
            max_static = max_static.max(Some(d));
        } else {
            increasing &= last < Some(d);
            first = first.or(Some(d));
            last = Some(d);
        }
    });
    increasing && (first.is_none() || first > max_static)
}

/// The modes of static stride (`Static`) and those of run-time stride (`RunTime`), each in
/// their order, with their values. (One impl per kind of stride: no bit to dispatch on.)
pub trait SplitByStride {
    /// The modes of static stride.
    type Static;
    /// The modes of run-time stride.
    type RunTime;
    /// Both.
    fn split_by_stride(self) -> (Self::Static, Self::RunTime);
}
impl SplitByStride for Nil {
    type Static = Nil;
    type RunTime = Nil;
    #[inline(always)]
    fn split_by_stride(self) -> (Nil, Nil) {
        (Nil, Nil)
    }
}
macro_rules! split_static_stride {
    ($([$($g:ident: $b:path),*] $d:ty);*) => {$(
        impl<S, T: SplitByStride, $($g: $b),*> SplitByStride for Cons<Mode<S, $d>, T> {
            type Static = Cons<Mode<S, $d>, T::Static>;
            type RunTime = T::RunTime;
            #[inline(always)]
            fn split_by_stride(self) -> (Self::Static, Self::RunTime) {
                let (st, rt) = self.1.split_by_stride();
                (Cons(self.0, st), rt)
            }
        }
    )*};
}
split_static_stride!([] typenum::UTerm; [U: typenum::Unsigned, B: typenum::Bit] typenum::UInt<U, B>);
impl<S, T: SplitByStride> SplitByStride for Cons<Mode<S, usize>, T> {
    type Static = T::Static;
    type RunTime = Cons<Mode<S, usize>, T::RunTime>;
    #[inline(always)]
    fn split_by_stride(self) -> (Self::Static, Self::RunTime) {
        let (st, rt) = self.1.split_by_stride();
        (st, Cons(self.0, rt))
    }
}

/// The extents of a list of modes, as a flat shape.
pub trait ModeShapes {
    /// The shape.
    type Output;
    /// Its values.
    fn mode_shapes(&self) -> Self::Output;
}
impl ModeShapes for Nil {
    type Output = Nil;
    #[inline(always)]
    fn mode_shapes(&self) -> Nil {
        Nil
    }
}
impl<S: Copy, D, T: ModeShapes> ModeShapes for Cons<Mode<S, D>, T> {
    type Output = Cons<S, T::Output>;
    #[inline(always)]
    fn mode_shapes(&self) -> Self::Output {
        Cons(self.0 .0, self.1.mode_shapes())
    }
}
