//! Hierarchical integer tuples at the type level: typenum unsigned integers (static, zero-sized)
//! and `usize` (dynamic) leaves, in cons lists.
//!
//! | CuTe | here | size |
//! |---|---|---|
//! | `Int<6>` | `typenum::U6` (any value: `UInt<UInt<UInt<UTerm,B1>,B1>,B0>`) | 0 |
//! | `int` | `usize` | 8 |
//! | `(a,b,c)` | `Cons<A, Cons<B, Cons<C, Nil>>>` | the sum |
//! | `()` | `Nil` | 0 |
//!
//! The `shape!`/`stride!` macros write these types; users never spell them.

use core::fmt;

use typenum::{Bit, UInt, UTerm, Unsigned, B0, B1};

/// A tuple: a head and the rest of the tuple (CuTe's `tuple<H, T...>`).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Cons<H, T>(pub H, pub T);

/// The end of a tuple; alone, the empty tuple `()`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Nil;

/// A hierarchical integer tuple whose structure is its type.
pub trait IntTuple: Copy {
    /// `rank`: 1 for a leaf, the number of modes of a tuple.
    const RANK: usize;
    /// `depth`: 0 for a leaf, 1 + the deepest mode for a tuple.
    const DEPTH: usize;
    /// Whether every leaf is static (then the value is zero-sized).
    const IS_STATIC: bool;
    /// The largest static leaf (0 where there is none; a run-time leaf's value is not in the
    /// type): what a static layout's conversion to cute-dyn's `i64`s checks at compile time.
    const MAX_STATIC: u64;
    /// `product` of the leaves. Wraps (release) or panics (debug) on overflow: for a tuple
    /// with run-time leaves, prefer [`IntTuple::checked_product`].
    fn product(&self) -> usize;
    /// `product` of the leaves, `None` on overflow.
    fn checked_product(&self) -> Option<usize>;
    /// Write in the canonical values notation (`{v}` for a dynamic leaf).
    ///
    /// # Errors
    /// Only the formatter's.
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
    /// The `cute-dyn` tuple, with the same static flags.
    ///
    /// # Errors
    /// `Overflow` for a value above `i64::MAX` (cute-dyn's integers are `i64`).
    #[cfg(feature = "dyn")]
    fn to_dyn(&self) -> cute_dyn::Result<cute_dyn::IntTuple>;
    /// The tuple of this type holding `t`'s values: a static leaf must have `t`'s value, a
    /// run-time leaf takes it (non-negative), a tuple has `t`'s rank. `at` is the position
    /// of `self` in the whole (`shape`, `stride<1,0>`), for the error.
    ///
    /// # Errors
    /// `InvalidArgument` naming the first leaf that does not fit and why.
    #[cfg(feature = "dyn")]
    fn from_dyn(t: &cute_dyn::IntTuple, at: &str) -> cute_dyn::Result<Self>;
}

/// The error of [`IntTuple::from_dyn`]: the leaf at `at` does not fit.
#[cfg(feature = "dyn")]
fn misfit(at: &str, why: alloc::string::String) -> cute_dyn::Error {
    cute_dyn::Error::InvalidArgument { op: "Layout::try_from", reason: alloc::format!("{at}: {why}") }
}

/// `at<i>`: the position of mode `i` below `at` (`shape` then `shape<1>`, `shape<1,0>`).
#[cfg(feature = "dyn")]
fn below(at: &str, i: usize) -> alloc::string::String {
    match at.strip_suffix('>') {
        Some(open) => alloc::format!("{open},{i}>"),
        None => alloc::format!("{at}<{i}>"),
    }
}

/// A `u64` leaf value as cute-dyn's `i64`.
#[cfg(feature = "dyn")]
fn to_i64(v: u64) -> cute_dyn::Result<i64> {
    i64::try_from(v).map_err(|_| cute_dyn::Error::Overflow { op: "to_dyn" })
}

/// The modes of a tuple, as a list (the tail of a [`Cons`]).
pub trait List: Copy {
    /// The number of modes.
    const LEN: usize;
    /// The deepest mode.
    const MAX_DEPTH: usize;
    /// Every leaf static.
    const IS_STATIC: bool;
    /// The largest static leaf ([`IntTuple::MAX_STATIC`]).
    const MAX_STATIC: u64;
    /// The product of the modes' products.
    fn product(&self) -> usize;
    /// The product of the modes' products, `None` on overflow.
    fn checked_product(&self) -> Option<usize>;
    /// Write the modes, comma separated.
    ///
    /// # Errors
    /// Only the formatter's.
    fn write_modes(&self, f: &mut fmt::Formatter<'_>, first: bool) -> fmt::Result;
    /// The modes from `v[i..]`, the `i`-th mode at `at<i>` ([`IntTuple::from_dyn`]).
    ///
    /// # Errors
    /// As [`IntTuple::from_dyn`].
    #[cfg(feature = "dyn")]
    fn from_dyn_modes(v: &[cute_dyn::IntTuple], i: usize, at: &str) -> cute_dyn::Result<Self>;
    /// Push the modes' `cute-dyn` tuples.
    ///
    /// # Errors
    /// As [`IntTuple::to_dyn`].
    #[cfg(feature = "dyn")]
    fn push_dyn(&self, out: &mut alloc::vec::Vec<cute_dyn::IntTuple>) -> cute_dyn::Result<()>;
}

impl List for Nil {
    const LEN: usize = 0;
    const MAX_DEPTH: usize = 0;
    const IS_STATIC: bool = true;
    const MAX_STATIC: u64 = 0;
    fn product(&self) -> usize {
        1
    }
    fn checked_product(&self) -> Option<usize> {
        Some(1)
    }
    fn write_modes(&self, _: &mut fmt::Formatter<'_>, _: bool) -> fmt::Result {
        Ok(())
    }
    #[cfg(feature = "dyn")]
    fn push_dyn(&self, _: &mut alloc::vec::Vec<cute_dyn::IntTuple>) -> cute_dyn::Result<()> {
        Ok(())
    }
    #[cfg(feature = "dyn")]
    fn from_dyn_modes(_: &[cute_dyn::IntTuple], _: usize, _: &str) -> cute_dyn::Result<Self> {
        Ok(Nil)
    }
}

impl<H: IntTuple, T: List> List for Cons<H, T> {
    const LEN: usize = 1 + T::LEN;
    const MAX_DEPTH: usize = if H::DEPTH > T::MAX_DEPTH { H::DEPTH } else { T::MAX_DEPTH };
    const IS_STATIC: bool = H::IS_STATIC && T::IS_STATIC;
    const MAX_STATIC: u64 = if H::MAX_STATIC > T::MAX_STATIC { H::MAX_STATIC } else { T::MAX_STATIC };
    #[inline(always)]
    fn product(&self) -> usize {
        self.0.product() * self.1.product()
    }
    fn checked_product(&self) -> Option<usize> {
        self.0.checked_product()?.checked_mul(self.1.checked_product()?)
    }
    fn write_modes(&self, f: &mut fmt::Formatter<'_>, first: bool) -> fmt::Result {
        if !first {
            f.write_str(",")?;
        }
        self.0.write(f)?;
        self.1.write_modes(f, false)
    }
    #[cfg(feature = "dyn")]
    fn push_dyn(&self, out: &mut alloc::vec::Vec<cute_dyn::IntTuple>) -> cute_dyn::Result<()> {
        out.push(self.0.to_dyn()?);
        self.1.push_dyn(out)
    }
    #[cfg(feature = "dyn")]
    fn from_dyn_modes(v: &[cute_dyn::IntTuple], i: usize, at: &str) -> cute_dyn::Result<Self> {
        Ok(Cons(H::from_dyn(&v[i], &below(at, i))?, T::from_dyn_modes(v, i + 1, at)?))
    }
}

/// `(a, b, ...)`: a tuple is the list of its modes.
impl<H: IntTuple, T: List> IntTuple for Cons<H, T> {
    const RANK: usize = <Self as List>::LEN;
    const DEPTH: usize = 1 + <Self as List>::MAX_DEPTH;
    const IS_STATIC: bool = <Self as List>::IS_STATIC;
    const MAX_STATIC: u64 = <Self as List>::MAX_STATIC;
    #[inline(always)]
    fn product(&self) -> usize {
        List::product(self)
    }
    fn checked_product(&self) -> Option<usize> {
        List::checked_product(self)
    }
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("(")?;
        self.write_modes(f, true)?;
        f.write_str(")")
    }
    #[cfg(feature = "dyn")]
    fn to_dyn(&self) -> cute_dyn::Result<cute_dyn::IntTuple> {
        let mut v = alloc::vec::Vec::with_capacity(<Self as List>::LEN);
        self.push_dyn(&mut v)?;
        Ok(cute_dyn::Tuple::Node(v))
    }
    #[cfg(feature = "dyn")]
    fn from_dyn(t: &cute_dyn::IntTuple, at: &str) -> cute_dyn::Result<Self> {
        match t {
            cute_dyn::Tuple::Node(v) if v.len() == <Self as List>::LEN => Self::from_dyn_modes(v, 0, at),
            t => {
                Err(misfit(at, alloc::format!("the type has a tuple of rank {}, the layout {t}", <Self as List>::LEN)))
            }
        }
    }
}

/// `()`: the empty tuple.
impl IntTuple for Nil {
    const RANK: usize = 0;
    const DEPTH: usize = 1;
    const IS_STATIC: bool = true;
    const MAX_STATIC: u64 = 0;
    fn product(&self) -> usize {
        1
    }
    fn checked_product(&self) -> Option<usize> {
        Some(1)
    }
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("()")
    }
    #[cfg(feature = "dyn")]
    fn to_dyn(&self) -> cute_dyn::Result<cute_dyn::IntTuple> {
        Ok(cute_dyn::Tuple::Node(alloc::vec::Vec::new()))
    }
    #[cfg(feature = "dyn")]
    fn from_dyn(t: &cute_dyn::IntTuple, at: &str) -> cute_dyn::Result<Self> {
        match t {
            cute_dyn::Tuple::Node(v) if v.is_empty() => Ok(Nil),
            t => Err(misfit(at, alloc::format!("the type has (), the layout {t}"))),
        }
    }
}

/// A leaf: an integer, static or dynamic.
pub trait Leaf: IntTuple {
    /// The value where the type is it (a static leaf), `None` for a `usize`.
    const STATIC: Option<usize>;
    /// The value.
    fn value(&self) -> usize;
}

macro_rules! static_leaf {
    ($($ty:ty => $($g:ident: $b:ident),*);* $(;)?) => {$(
        /// A static leaf: a typenum unsigned integer (zero-sized).
        impl<$($g: $b),*> IntTuple for $ty {
            const RANK: usize = 1;
            const DEPTH: usize = 0;
            const IS_STATIC: bool = true;
            const MAX_STATIC: u64 = <$ty as Unsigned>::U64;
            #[inline(always)]
            fn product(&self) -> usize {
                <$ty as Unsigned>::USIZE
            }
            fn checked_product(&self) -> Option<usize> {
                usize::try_from(<$ty as Unsigned>::U64).ok()
            }
            fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "{}", <$ty as Unsigned>::U64)
            }
            #[cfg(feature = "dyn")]
            fn to_dyn(&self) -> cute_dyn::Result<cute_dyn::IntTuple> {
                Ok(cute_dyn::Tuple::Leaf(cute_dyn::Int::st(to_i64(<$ty as Unsigned>::U64)?)))
            }
            #[cfg(feature = "dyn")]
            fn from_dyn(t: &cute_dyn::IntTuple, at: &str) -> cute_dyn::Result<Self> {
                let want = <$ty as Unsigned>::U64;
                match t {
                    cute_dyn::Tuple::Leaf(x) if u64::try_from(x.value()) == Ok(want) => Ok(Self::default()),
                    t => Err(misfit(at, alloc::format!("the type has the static {want}, the layout {t}"))),
                }
            }
        }
        impl<$($g: $b),*> Leaf for $ty {
            const STATIC: Option<usize> = Some(<$ty as Unsigned>::USIZE);
            #[inline(always)]
            fn value(&self) -> usize {
                <$ty as Unsigned>::USIZE
            }
        }
    )*};
}
static_leaf!(UTerm => ; UInt<U, B> => U: Unsigned, B: Bit);

/// A dynamic leaf: a run-time `usize` (CuTe C++'s `int`).
impl IntTuple for usize {
    const RANK: usize = 1;
    const DEPTH: usize = 0;
    const IS_STATIC: bool = false;
    const MAX_STATIC: u64 = 0;
    #[inline(always)]
    fn product(&self) -> usize {
        *self
    }
    fn checked_product(&self) -> Option<usize> {
        Some(*self)
    }
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{self}}}")
    }
    #[cfg(feature = "dyn")]
    fn to_dyn(&self) -> cute_dyn::Result<cute_dyn::IntTuple> {
        Ok(cute_dyn::Tuple::Leaf(cute_dyn::Int::dy(to_i64(*self as u64)?)))
    }
    #[cfg(feature = "dyn")]
    fn from_dyn(t: &cute_dyn::IntTuple, at: &str) -> cute_dyn::Result<Self> {
        match t {
            cute_dyn::Tuple::Leaf(x) => usize::try_from(x.value())
                .map_err(|_| misfit(at, alloc::format!("a run-time leaf is a usize, the layout has {}", x.value()))),
            t => Err(misfit(at, alloc::format!("the type has a leaf, the layout {t}"))),
        }
    }
}

impl Leaf for usize {
    const STATIC: Option<usize> = None;
    #[inline(always)]
    fn value(&self) -> usize {
        *self
    }
}

/// Call `$m!` with the nine (shape leaf, stride leaf) type pairs: typenum `UTerm` and
/// `UInt<U, B>`, and `usize`, each with each (every trait on a leaf pair is implemented for them).
macro_rules! for_each_leaf_pair {
    ($m:ident) => {
        $m!(
            [] UTerm, UTerm;
            [U: Unsigned, B: Bit] UTerm, UInt<U, B>;
            [] UTerm, usize;
            [U: Unsigned, B: Bit] UInt<U, B>, UTerm;
            [U: Unsigned, B: Bit, V: Unsigned, C: Bit] UInt<U, B>, UInt<V, C>;
            [U: Unsigned, B: Bit] UInt<U, B>, usize;
            [] usize, UTerm;
            [U: Unsigned, B: Bit] usize, UInt<U, B>;
            [] usize, usize;
        );
    };
}
pub(crate) use for_each_leaf_pair;

/// Display of a tuple in the canonical values notation (identical to `cute-dyn`'s).
pub struct Show<'a, T>(pub &'a T);

impl<T: IntTuple> fmt::Display for Show<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.write(f)
    }
}

macro_rules! display_list {
    ($($ty:ty => $($g:ident),*);*) => {$(
        impl<$($g),*> fmt::Display for $ty where $ty: IntTuple {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                IntTuple::write(self, f)
            }
        }
    )*};
}
display_list!(Cons<H, T> => H, T; Nil => );

/// `rank` as a typenum number (for compile-time checks on ranks): 1 for a leaf, the number
/// of elements of a list.
pub trait RankT {
    /// The rank.
    type Output: Unsigned;
}
impl RankT for Nil {
    type Output = typenum::U0;
}
impl<H, T: RankT> RankT for Cons<H, T>
where
    <T as RankT>::Output: core::ops::Add<B1>,
    typenum::Add1<<T as RankT>::Output>: Unsigned,
{
    type Output = typenum::Add1<<T as RankT>::Output>;
}

/// The modes of a shape or stride as a list (a leaf is its own single mode, as in CuTe's
/// `wrap`).
pub trait Wrap {
    /// The list of modes.
    type Output;
}
impl<H, T> Wrap for Cons<H, T> {
    type Output = Cons<H, T>;
}
impl Wrap for Nil {
    type Output = Nil;
}

/// Whether a list is empty, as a bit.
pub trait IsNil {
    /// `B1` for `Nil`.
    type Output: Bit;
}
impl IsNil for Nil {
    type Output = B1;
}
impl<H, T> IsNil for Cons<H, T> {
    type Output = B0;
}

/// Concatenation of two lists.
pub trait Concat<B> {
    /// `self ++ B`.
    type Output: Copy;
    /// The concatenated values.
    fn concat(self, b: B) -> Self::Output;
}
impl<B: Copy> Concat<B> for Nil {
    type Output = B;
    fn concat(self, b: B) -> B {
        b
    }
}
impl<H: Copy, T: Concat<B>, B> Concat<B> for Cons<H, T> {
    type Output = Cons<H, T::Output>;
    fn concat(self, b: B) -> Self::Output {
        Cons(self.0, self.1.concat(b))
    }
}

/// `B1` when every leaf is static (the DSL's rule: an operation is computed by the type
/// checker exactly where this holds).
pub trait StaticBit {
    /// The bit.
    type Output: Bit;
}
impl StaticBit for Nil {
    type Output = B1;
}
impl<H: StaticBit, T: StaticBit> StaticBit for Cons<H, T>
where
    <H as StaticBit>::Output: core::ops::BitAnd<<T as StaticBit>::Output>,
    <<H as StaticBit>::Output as core::ops::BitAnd<<T as StaticBit>::Output>>::Output: Bit,
{
    type Output = <<H as StaticBit>::Output as core::ops::BitAnd<<T as StaticBit>::Output>>::Output;
}

/// The per-leaf impls: a leaf has rank 1, is its own single mode, and is static unless it is a
/// `usize`. A marked run-time stride ([`Scaled`](crate::scaled::Scaled)) is static in structure:
/// the type checker's algorithms run on a marked layout as on a static one (its values are
/// resolved afterwards), while coalesce decides on values through `Known::Static`.
macro_rules! leaf_concepts {
    ($([$($g:ident: $b:path),*] $ty:ty => $static:ty);*) => {$(
        impl<$($g: $b),*> $crate::int_tuple::RankT for $ty {
            type Output = typenum::U1;
        }
        impl<$($g: $b),*> $crate::int_tuple::Wrap for $ty {
            type Output = $crate::int_tuple::Cons<$ty, $crate::int_tuple::Nil>;
        }
        impl<$($g: $b),*> $crate::int_tuple::StaticBit for $ty {
            type Output = $static;
        }
    )*};
}
pub(crate) use leaf_concepts;
leaf_concepts!(
    [] UTerm => B1;
    [U: Unsigned, B: Bit] UInt<U, B> => B1;
    [] usize => B0
);
