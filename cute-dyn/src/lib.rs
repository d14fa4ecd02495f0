//! # cute-dyn: NVIDIA CuTe's layout algebra over runtime integers
//!
//! A [`Layout`] maps coordinates to indices, written `shape:stride` over nested integer tuples,
//! e.g. `(2,(1,6)):(1,(6,2))`. Every integer ([`Int`]) is *static* (known when the layout was
//! written, like CuTe C++'s `Int<N>`) or *dynamic* (a run-time value with a known divisor, the
//! CuTe DSL's `?{div=N}`). The algebra follows CuTe C++ 4.2 for static values and the CuTe DSL
//! for dynamic ones: a value is static when it is computed from static values, and a branch
//! that depends on a value is taken only when that value is static.
//!
//! Unlike CuTe, every precondition is checked, for dynamic values too, and reported as an
//! [`Error`]: never a silently wrong layout, never a panic on user input.
//!
//! ```
//! use cute_dyn::*;
//! let a: Layout = "(6,2):(8,2)".parse()?;
//! let b: Layout = "(4,3):(3,1)".parse()?;
//! let r = composition(&a, &Tiler::Layout(b))?;
//! assert_eq!(r.to_string(), "((2,2),3):((24,2),8)");
//! for i in 0..12 {
//!     assert_eq!(r.call(i)?, a.call("(4,3):(3,1)".parse::<Layout>()?.call(i)?)?);
//! }
//! # Ok::<(), Error>(())
//! ```
#![no_std]
#![warn(missing_docs)]
// `ok_or_else(|| Error::..)` on purpose: an eager `ok_or(Error::..)` builds and drops an `Error`
// on the success path of every checked step (drop_in_place<Error> was 6% of a divide).
#![allow(clippy::unnecessary_lazy_evaluations)]

extern crate alloc;

pub mod basis;
pub mod coalesce;
pub mod complement;
pub mod composition;
pub mod copy;
pub mod divide;
pub mod error;
pub mod gmma;
pub mod int;
pub mod int_tuple;
pub mod inverse;
pub mod layout;
pub mod linear;
pub mod mma;
mod modes;
pub mod parse;
pub mod post;
pub mod print;
pub mod product;
pub mod recast;
pub mod render;
mod small;
pub mod swizzle;
pub mod tensor;
pub mod tiler;
pub mod tma;
mod twin;

pub use coalesce::{coalesce, coalesce_by, filter, filter_by, filter_zeros};
pub use complement::{coalesce_shape, complement, complement_cosize};
pub use composition::composition;
pub use divide::{flat_divide, logical_divide, tiled_divide, zipped_divide};
pub use error::{Error, Result};
pub use int::Int;
pub use int_tuple::{
    ceil_div, compact_col_major, compact_major, compact_row_major, compatible, crd2crd, crd2idx, crd2idx_colex, dice,
    elem_scale, evenly_divides, idx2crd, idx2crd_strided, inner_product, prefix_product, product, product_each,
    round_up, shape_div, slice, sum, tuple_max, zip, zip1, Coord, IntTuple, Tuple,
};
pub use inverse::{left_inverse, max_alignment, max_common_layout, max_common_vector, nullspace, right_inverse};
pub use layout::{make_layout, make_layout_left, make_layout_like, make_layout_right, make_ordered_layout, Layout};
pub use parse::{parse_styled, Parse, Parser};
pub use print::{Notation, Style};
pub use product::{
    blocked_product, flat_product, logical_product, make_fragment_like, raked_product, tile_to_shape, tiled_product,
    zipped_product,
};
pub use recast::{downcast, upcast};
pub use swizzle::{ComposedLayout, MaybeComposed, Swizzle};
pub use tiler::Tiler;
