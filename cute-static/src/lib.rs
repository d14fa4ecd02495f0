//! # cute-static: CuTe layouts as type-level integers
//!
//! Shapes and strides are types: typenum unsigned integers for static values (zero-sized,
//! any value up to `u64`) and `usize` for run-time values, in cons lists ([`Cons`], [`Nil`]).
//! A fully static [`Layout`](struct@Layout) is zero-sized and its evaluation compiles to the index arithmetic
//! one would write by hand.
//!
//! Layouts are written with the macros of `cute-macros`, re-exported here:
//!
//! ```
//! use cute_static::{layout, shape, tiler, Layout};
//!
//! // Value position; `{expr}` is a run-time leaf.
//! let n = 6;
//! let l = layout!((2,(1,{n})):(1,(6,2)));
//! assert_eq!(l.to_string(), "(2,(1,{6})):(1,(6,2))");
//!
//! // Type position: name a layout in a signature or an alias.
//! type Tile = Layout![(4,8):(8,1)];
//! fn row_major_offset<L: cute_static::StaticLayout>(i: usize) -> usize {
//!     L::default().call(i)
//! }
//! assert_eq!(row_major_offset::<Tile>(5), 8 + 1); // (1,1) in (4,8):(8,1)
//!
//! // The same literals build cute-dyn values (static flags kept).
//! let d = cute_static::layout_dyn!((2,(1,{n})):(1,(6,2)))?;
//! assert_eq!(d.to_styled(cute_static::cute_dyn::Style::Dsl), "(2,(1,?)):(1,(6,2))");
//! assert_eq!(shape!((2,(3,4))).to_string(), "(2,(3,4))");
//! assert_eq!(tiler!(<3:4,(2,4):(1,8),_,5>).to_string(), "<3:4,(2,4):(1,8),_,5>");
//! # Ok::<(), cute_static::cute_dyn::Error>(())
//! ```
#![no_std]
#![warn(missing_docs)]
// The algebra is computed in types: long types are the computation, named by aliases where
// a reader needs them.
#![allow(clippy::type_complexity)]

#[cfg(any(feature = "dyn", test))]
extern crate alloc;

// The algebra's machinery (the type-level algorithms, one family per module): public because
// the operations' bounds name it, hidden from the documentation, whose surface is the layout
// types, the operation traits and functions (re-exported below), the literals and the tensors.
#[doc(hidden)]
pub mod arith;
#[doc(hidden)]
pub mod coalesce;
#[doc(hidden)]
pub mod complement;
#[doc(hidden)]
pub mod composition;
#[doc(hidden)]
pub mod digits;
#[doc(hidden)]
pub mod divide;
#[doc(hidden)]
pub mod gate;
#[doc(hidden)]
pub mod inverse;
#[doc(hidden)]
pub mod modes;
#[doc(hidden)]
pub mod product;
#[doc(hidden)]
pub mod recast;
#[doc(hidden)]
pub mod scaled;
#[doc(hidden)]
pub mod tiler;
#[doc(hidden)]
pub mod verdict;

/// Tiled copies computed by the type checker.
pub mod copy;
pub mod decided;
pub mod error;
pub mod gmma;
pub mod guide;
pub mod int_tuple;
pub mod layout;
pub mod methods;
/// Tiled MMAs computed by the type checker.
pub mod mma;
pub mod ops;
pub mod swizzle;
pub mod tensor;
pub mod tma;

pub use arith::{round_up, RoundUp};
pub use coalesce::{coalesce, coalesce_by, filter, flatten, Coalesce, Coalesced, Filter, Filtered};
pub use complement::{ceil_div, complement, complement_cosize, Complemented};
// Machinery reached by path (the mixed complement's and the divides' bounds), off the front page.
#[doc(hidden)]
pub use complement::{ComplementDyn, ComplementOf};
pub use composition::{composition, Composed};
pub use decided::Decided;
pub use divide::{flat_divide, logical_divide, tiled_divide, zipped_divide, Divided};
pub use int_tuple::{Cons, IntTuple, Leaf, List, Nil, Show};
pub use inverse::{left_inverse, right_inverse};
pub use layout::{
    compact_col_major, compact_row_major, make_layout_left, make_layout_like, make_layout_right, make_ordered_layout,
    Congruent, Layout, LayoutAt, LayoutFn, LayoutLeft, LayoutRight, StaticLayout,
};
pub use methods::Methods;
pub use ops::{
    Append, BlockedProduct, BlockedProductLayout, Checked, CoalesceBy, Complement, ComplementCosize, Composition,
    CompositionLayout, Downcast, FlatDivide, FlatDivideLayout, FlatProduct, FlatProductLayout, Flatten, Get,
    GroupModes, LeftInverse, LogicalDivide, LogicalDivideLayout, LogicalProduct, LogicalProductLayout, Prepend,
    RakedProduct, RakedProductLayout, RightInverse, Select, Take, TileToShape, TiledDivide, TiledDivideLayout,
    TiledProduct, TiledProductLayout, Upcast, ZippedDivide, ZippedDivideLayout, ZippedProduct, ZippedProductLayout,
};
pub use product::{
    blocked_product, flat_product, logical_product, make_fragment_like, raked_product, tile_to_shape, tiled_product,
    zipped_product, FragmentLike, Multiplied,
};
// The kernel layer's operations as traits, one bound each in generic kernel code.
pub use copy::{PartitionD, PartitionS, Threads};
pub use mma::{PartitionA, PartitionB, PartitionC, PartitionFragmentA, PartitionFragmentB, PartitionFragmentC};
pub use recast::{downcast, upcast};
pub use swizzle::{ComposedLayout, Swizzle};
pub use tensor::{
    local_partition, local_tile, CoordTile, LocalPartition, LocalTile, PtrAddr, PtrLocalPartition, PtrLocalTile,
};
pub use tiler::{ByMode, Tiler, Under};
// The tilers' by-mode dispatch and its operation markers: machinery, off the front page.
#[doc(hidden)]
pub use tiler::{CompositionOp, DivideOp, ProductOp, TilerOp};

#[cfg(feature = "dyn")]
pub use cute_dyn;
pub use typenum;

/// `Clone`, `Copy` and `Default` for a zero-sized marker `Name<P...>(PhantomData<...>)`, whatever
/// its parameters (derives would ask them to be `Clone`, `Copy` and `Default` too).
macro_rules! marker_impls {
    ($name:ident<$($p:ident),+>) => {
        impl<$($p),+> Clone for $name<$($p),+> {
            fn clone(&self) -> Self {
                *self
            }
        }
        impl<$($p),+> Copy for $name<$($p),+> {}
        impl<$($p),+> Default for $name<$($p),+> {
            fn default() -> Self {
                $name(core::marker::PhantomData)
            }
        }
    };
}
pub(crate) use marker_impls;

#[doc(hidden)]
pub mod __private {
    pub use cute_macros::{
        int_tuple_dyn, int_tuple_type, int_tuple_value, layout_dyn, layout_type, layout_value, tiler_dyn, tiler_type,
        tiler_value,
    };

    /// The value of a layout literal with run-time leaves: its shape and stride are congruent
    /// by the macro's check, so the type checker is not asked to prove it again.
    #[inline(always)]
    pub const fn layout_literal<S, D>(shape: S, stride: D) -> crate::Layout<S, D> {
        crate::Layout::from_parts(shape, stride)
    }
}

/// A layout value: `layout!((2,(1,6)):(1,(6,2)))`, `layout!((2,(2,2)))` (LayoutLeft strides),
/// `layout!((2,(2,2)):LayoutRight)`. See `cute_macros` for the grammar.
#[macro_export]
macro_rules! layout {
    ($($t:tt)*) => { $crate::__private::layout_value!{ $crate; $($t)* } };
}

/// A layout type, for signatures and aliases: `type Smem = Layout![(8,(4,8)):(32,(1,4))];`; a
/// run-time leaf is written `usize` (a kernel parameter's type).
///
/// # Examples
/// ```
/// use cute_static::{layout, Layout};
/// // An M x 8 column-major matrix whose M and leading dimension are known when the kernel runs.
/// type Gmem = Layout![(usize,8):(1,usize)];
/// let m = 100usize;
/// let g: Gmem = layout!(({m},8):(1,{m}));
/// assert_eq!(g.to_string(), "({100},8):(1,{100})");
/// ```
#[macro_export]
macro_rules! Layout {
    ($($t:tt)*) => { $crate::__private::layout_type!{ $crate; $($t)* } };
}

/// A shape value (an IntTuple): `shape!((2,(3,{n})))`.
#[macro_export]
macro_rules! shape {
    ($($t:tt)*) => { $crate::__private::int_tuple_value!{ $crate; $($t)* } };
}

/// A shape type: `Shape![(2,(3,4))]`.
#[macro_export]
macro_rules! Shape {
    ($($t:tt)*) => { $crate::__private::int_tuple_type!{ $crate; $($t)* } };
}

/// A stride value (an IntTuple): `stride!((1,(2,6)))`.
#[macro_export]
macro_rules! stride {
    ($($t:tt)*) => { $crate::__private::int_tuple_value!{ $crate; $($t)* } };
}

/// A stride type: `Stride![(1,(2,6))]`.
#[macro_export]
macro_rules! Stride {
    ($($t:tt)*) => { $crate::__private::int_tuple_type!{ $crate; $($t)* } };
}

/// A coordinate as C++'s `make_coord` writes it: `coord!(2, 1, _)` is `(2, 1, _)`, each integer
/// a run-time `usize` (C++'s `int`), `_` keeps a mode ([`Under`]), a parenthesized list a nested
/// coordinate (`coord!((1, 0), _)`), and `{expr}` or a variable any `usize` value.
///
/// # Examples
/// ```
/// use cute_static::{coord, layout, step, tensor::local_tile_projected, tiler, Cons, Nil, Under};
/// assert_eq!(coord!(2, 1, _), Cons(2usize, Cons(1usize, Cons(Under, Nil))));
/// let k = 3usize;
/// assert_eq!(coord!((1, {k + 1}), k), Cons(Cons(1usize, Cons(4usize, Nil)), Cons(3usize, Nil)));
/// // CuTe C++ 4.2: local_tile(A (16,8):(1,16), Shape<_4,_8,_2>, make_coord(1,0,3),
/// // Step<_1,X,_1>{}) is (_4,_2):(_1,_16) at 4 + 6 * 16.
/// let (tile, offset) = local_tile_projected(layout!((16,8):(1,16)), tiler!(<4,8,2>), &coord!(1, 0, 3), step!(1, X, 1));
/// assert_eq!((tile.to_string(), offset), ("(4,2):(1,16)".to_string(), 4 + 6 * 16));
/// ```
#[macro_export]
macro_rules! coord {
    () => { $crate::Nil };
    (_ $(, $($rest:tt)*)?) => { $crate::Cons($crate::Under, $crate::coord!($($($rest)*)?)) };
    (($($inner:tt)*) $(, $($rest:tt)*)?) => { $crate::Cons($crate::coord!($($inner)*), $crate::coord!($($($rest)*)?)) };
    ({$e:expr} $(, $($rest:tt)*)?) => { $crate::Cons::<usize, _>($e, $crate::coord!($($($rest)*)?)) };
    ($x:ident $(, $($rest:tt)*)?) => { $crate::Cons::<usize, _>($x, $crate::coord!($($($rest)*)?)) };
    ($x:literal $(, $($rest:tt)*)?) => { $crate::Cons($x as usize, $crate::coord!($($($rest)*)?)) };
}

/// A projection as C++'s `Step<_1, X, _1>{}` writes it: `step!(1, X, 1)` keeps the modes
/// marked `1` and drops those marked `X` (a list of `B1` and `B0`, as
/// [`tensor::local_tile_projected`] takes it).
///
/// # Examples
/// ```
/// use cute_static::{step, typenum::{B0, B1}, Cons, Nil};
/// assert_eq!(step!(1, X, 1), Cons(B1, Cons(B0, Cons(B1, Nil))));
/// ```
#[macro_export]
macro_rules! step {
    () => { $crate::Nil };
    (1 $(, $($rest:tt)*)?) => { $crate::Cons($crate::typenum::B1, $crate::step!($($($rest)*)?)) };
    (X $(, $($rest:tt)*)?) => { $crate::Cons($crate::typenum::B0, $crate::step!($($($rest)*)?)) };
}

/// The type of [`step!`]: `Step![1, X, 1]` is C++'s `Step<_1, X, _1>`.
#[macro_export]
macro_rules! Step {
    () => { $crate::Nil };
    (1 $(, $($rest:tt)*)?) => { $crate::Cons<$crate::typenum::B1, $crate::Step![$($($rest)*)?]> };
    (X $(, $($rest:tt)*)?) => { $crate::Cons<$crate::typenum::B0, $crate::Step![$($($rest)*)?]> };
}

/// A by-mode tiler value: `tiler!(<3:4,(2,4):(1,8)>)` (a bare `n` is `n:1`, `_` keeps a mode).
#[macro_export]
macro_rules! tiler {
    ($($t:tt)*) => { $crate::__private::tiler_value!{ $crate; $($t)* } };
}

/// A by-mode tiler type: `Tiler![<3:4,_>]`.
#[macro_export]
macro_rules! Tiler {
    ($($t:tt)*) => { $crate::__private::tiler_type!{ $crate; $($t)* } };
}

/// A list of mode indices, for [`Layout::select`]: `l.select(modes![0, 2])` is CuTe's
/// `select<0, 2>(l)`.
#[macro_export]
macro_rules! modes {
    () => { $crate::Nil };
    ($i:expr $(, $rest:expr)* $(,)?) => {
        $crate::Cons($crate::layout::ModeIndex::<{ $i }>, $crate::modes!($($rest),*))
    };
}

/// The type of a [`modes!`] list, for signatures: `Modes![0, 2]`.
#[macro_export]
macro_rules! Modes {
    () => { $crate::Nil };
    ($i:expr $(, $rest:expr)* $(,)?) => {
        $crate::Cons<$crate::layout::ModeIndex<{ $i }>, $crate::Modes!($($rest),*)>
    };
}

/// A `cute_dyn::Layout` from the same literal (static flags for literals, dynamic for `{expr}`).
#[macro_export]
macro_rules! layout_dyn {
    ($($t:tt)*) => { $crate::__private::layout_dyn!{ $crate; $($t)* } };
}

/// A `cute_dyn::IntTuple` from the same literal.
#[macro_export]
macro_rules! int_tuple_dyn {
    ($($t:tt)*) => { $crate::__private::int_tuple_dyn!{ $crate; $($t)* } };
}

/// A `cute_dyn::Tiler` from the same literal.
#[macro_export]
macro_rules! tiler_dyn {
    ($($t:tt)*) => { $crate::__private::tiler_dyn!{ $crate; $($t)* } };
}
