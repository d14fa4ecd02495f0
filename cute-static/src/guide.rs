//! # Writing generic kernels with cute-static
//!
//! A kernel written once for every tile shape is a function generic over its layouts. In CuTe
//! C++ it is an unconstrained template; here it is a function with **one bound per operation it
//! calls**. Every operation of the algebra is a trait named as the CuTe function in
//! UpperCamelCase ([`crate::ops`]), implemented by the left operand, with `type Output` and a
//! method of the CuTe name.
//!
//! ## One bound per call
//!
//! ```
//! use cute_static::{layout, tiler, ZippedDivide};
//!
//! fn tiles<L, T>(l: L, t: T) -> <L as ZippedDivide<T>>::Output
//! where
//!     L: ZippedDivide<T>,
//! {
//!     l.zipped_divide(t)
//! }
//!
//! // CuTe docs: zipped_divide((9,(4,8)):(59,(13,1)), <3:3,(2,4):(1,8)>)
//! let z = tiles(layout!((9,(4,8)):(59,(13,1))), tiler!(<3:3,(2,4):(1,8)>));
//! assert_eq!(z.to_string(), "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))");
//! ```
//!
//! The traits: [`crate::Coalesce`], [`crate::Filter`], [`crate::Flatten`],
//! [`crate::Composition`], [`crate::Complement`], [`crate::RightInverse`],
//! [`crate::LeftInverse`], [`crate::LogicalDivide`], [`crate::ZippedDivide`],
//! [`crate::TiledDivide`], [`crate::FlatDivide`], [`crate::LogicalProduct`],
//! [`crate::ZippedProduct`], [`crate::TiledProduct`], [`crate::FlatProduct`],
//! [`crate::BlockedProduct`], [`crate::RakedProduct`], [`crate::TileToShape`],
//! [`crate::Upcast`], [`crate::Downcast`], [`crate::CoalesceBy`], and the mode accessors
//! [`crate::Get`], [`crate::Take`], [`crate::Append`], [`crate::Prepend`],
//! [`crate::GroupModes`].
//!
//! The free functions take the same one bound (how each operation's result is produced is part
//! of its trait, a bound each implementation carries):
//!
//! ```
//! use cute_static::{coalesce, layout, Coalesce};
//!
//! fn flat<L: Coalesce>(l: L) -> L::Output {
//!     coalesce(l)
//! }
//!
//! // CuTe docs: coalesce((2,(1,6)):(1,(6,2))) = 12:1
//! assert_eq!(flat(layout!((2,(1,6)):(1,(6,2)))).to_string(), "12:1");
//! ```
//!
//! ## Chaining
//!
//! The second operation's bound is on the first one's output:
//!
//! ```
//! use cute_static::{layout, Get, LogicalDivide};
//!
//! /// The tile mode of a divide.
//! fn tile_of<L, T>(l: L, t: T) -> <<L as LogicalDivide<T>>::Output as Get<0>>::Output
//! where
//!     L: LogicalDivide<T>,
//!     <L as LogicalDivide<T>>::Output: Get<0>,
//! {
//!     l.logical_divide(t).get()
//! }
//!
//! // CuTe docs: (4,2,3):(2,1,8) / 4:2 is ((2,2),(2,3)):((4,1),(2,8)); its tile is (2,2):(4,1)
//! assert_eq!(tile_of(layout!((4,2,3):(2,1,8)), layout!(4:2)).to_string(), "(2,2):(4,1)");
//! ```
//!
//! To evaluate a result, bound it by [`crate::LayoutFn`] (`call`, `size`, `cosize`, `to_dyn`;
//! by [`crate::StaticLayout`] where the layout is a type, with no value passed, and whose
//! `dyn_layout` converts to cute-dyn with no `Result`: every value is in the type):
//!
//! ```
//! use cute_static::{layout, tiler, Get, LayoutFn, ZippedDivide};
//!
//! /// Index `v` of tile `k`: `z(v + size(tile) * k)`.
//! fn element<L, T>(l: L, t: T, k: usize, v: usize) -> usize
//! where
//!     L: ZippedDivide<T>,
//!     <L as ZippedDivide<T>>::Output: Get<0> + LayoutFn,
//!     <<L as ZippedDivide<T>>::Output as Get<0>>::Output: LayoutFn,
//! {
//!     let z = l.zipped_divide(t);
//!     z.call(v + Get::<0>::get(&z).size() * k)
//! }
//!
//! // A column-major 6x8 matrix in 3x4 tiles: tile 3 is tile (1,1), rows 3..6, columns 4..8;
//! // its element 1 is row 4, column 4: 4 + 6 * 4.
//! assert_eq!(element(layout!((6,8):(1,6)), tiler!(<3,4>), 3, 1), 4 + 6 * 4);
//! ```
//!
//! A chain through a *nested* tiler (`zipped_divide` by `<4,<2,4>>`, then `get::<0>()`, then
//! `coalesce`) is written the same way, one bound per operation, each result a projection or
//! (shorter to read) a type parameter:
//!
//! ```
//! use cute_static::{layout, tiler, Coalesce, Get, ZippedDivide};
//!
//! fn coalesced_tile<L, T>(l: L, t: T) -> <<<L as ZippedDivide<T>>::Output as Get<0>>::Output as Coalesce>::Output
//! where
//!     L: ZippedDivide<T>,
//!     <L as ZippedDivide<T>>::Output: Get<0>,
//!     <<L as ZippedDivide<T>>::Output as Get<0>>::Output: Coalesce,
//! {
//!     l.zipped_divide(t).get().coalesce()
//! }
//!
//! // The tile of (8,(4,8)):(32,(1,4)) by <4,<2,4>> is (4,(2,4)):(32,(1,4)); coalesced, flat.
//! let r = coalesced_tile(layout!((8,(4,8)):(32,(1,4))), tiler!(<4,<2,4>>));
//! assert_eq!(r.to_string(), "(4,2,4):(32,1,4)");
//! ```
//!
//! To print or evaluate a result whatever the operands' leaves (static, or run-time values
//! checked when the operation runs), one bound is enough: each operation of two operands has
//! a `...Layout` twin ([`crate::ZippedDivideLayout`], [`crate::CompositionLayout`],
//! [`crate::LogicalProductLayout`], ...) that implies the result's `.checked()` and its
//! [`crate::LayoutFn`] and `Display`, where the operation's bound alone needs two more:
//!
//! ```
//! use cute_static::{error::Error, layout, tiler, Checked, LayoutFn, ZippedDivideLayout};
//!
//! fn describe<L: ZippedDivideLayout<T>, T>(l: L, t: T) -> Result<String, Error> {
//!     let z = l.zipped_divide(t).checked()?;
//!     Ok(format!("{z}, {} elements", z.size()))
//! }
//! // CuTe docs: zipped_divide((9,(4,8)):(59,(13,1)), <3:3,(2,4):(1,8)>)
//! let d = describe(layout!((9,(4,8)):(59,(13,1))), tiler!(<3:3,(2,4):(1,8)>))?;
//! // A divide keeps the size: 9 * 4 * 8.
//! assert_eq!(d, "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1))), 288 elements");
//! # Ok::<(), Error>(())
//! ```
//!
//! ## Errors
//!
//! A missing bound is rustc's error, and it names the trait to add. Import
//! [`Methods`](crate::Methods) in generic code: then a method chain whose second bound is
//! missing is an error that names the bound and says where it goes:
//!
//! ```text
//! error[E0277]: the trait bound `<L as LogicalDivide<T>>::Output: Coalesce` is not satisfied
//!   |     let _ = l.logical_divide(t).coalesce();
//! help: consider further restricting the associated type
//!   |     L: LogicalDivide<T>, <L as LogicalDivide<T>>::Output: Coalesce
//! ```
//!
//! Without it, rustc finds no method on the associated type (`E0599`) and suggests nothing
//! but importing `Methods`. On a type parameter with no bound at all, the error names the
//! trait (`the trait bound `L: ZippedDivide<T>` is not satisfied`), as does the function's
//! signature where it names the result type (`ui-tests/generic/`). A violated precondition at the call site with concrete layouts is
//! the compile error that names it, with its numbers in decimal, as for the free functions:
//!
//! ```text
//! error[E0277]: stride divisibility condition violated in composition: stride 3 vs shape 4
//! ```
//!
//! What follows the message names only the condition and its numbers: the type-level
//! algorithm carries a verdict (`cute_static::verdict`) instead of failing inside its impls,
//! and the free function (or the layout's method) asks the verdict to pass. Through a generic
//! function, the last note names the layout that did not implement the function's one bound:
//!
//! ```text
//! error[E0277]: left inverse divisibility condition violated: stride 3 is not divisible by 2
//!   = note: required for `Failed<(Dec1<3>, Dec1<2>)>` to implement `Pass`
//!   = note: required for `Layout<..>` to implement `LeftInverse`
//! ```
//!
//! A layout type whose shape and stride are not congruent is reported the same way, through
//! the bound that asked for a layout (the last notes name the layout type that did not
//! implement it). A mode index out of range and a swizzle's parameters still report the chain
//! of impls they failed in, with their types.
//!
//! ## Static and run-time leaves
//!
//! A layout type with run-time leaves is written as C++ writes its kernel parameters:
//! `Layout![(usize,8):(1,usize)]` (`usize` where a leaf is known only when the kernel runs).
//! A cute-dyn layout read at run time comes back into such a type with `try_from` (the way
//! back of `to_dyn`): the static leaves must match, the run-time ones take the values, and the
//! first leaf that does not fit is named with both values.
//!
//! ```
//! use cute_static::{cute_dyn, layout, Layout};
//! type Gmem = Layout![(usize,8):(1,usize)];
//! let g = Gmem::try_from(&"(100,8):(1,100)".parse::<cute_dyn::Layout>()?)?;
//! assert_eq!(g, layout!(({100usize},8):(1,{100usize})));
//! let e = Gmem::try_from(&"(100,6):(1,100)".parse::<cute_dyn::Layout>()?).unwrap_err();
//! assert!(e.to_string().ends_with("shape<1>: the type has the static 8, the layout 6"));
//! # Ok::<(), cute_dyn::Error>(())
//! ```
//!
//! The type-level algebra computes results whose every leaf is static (zero-sized, evaluated
//! with no run-time cost): the output is the layout itself, and every precondition is a
//! compile error. A layout with run-time (`usize`) leaves goes through `coalesce`, `filter`,
//! `flatten`, `make_layout_left`/`make_layout_right`, evaluation and the tensors, and:
//!
//! - with **static extents and run-time strides** (a CTA's tile of a global tensor,
//!   `(_64,_128):(_1,ldc)`), whatever the nesting: composition by any layout or by-mode tiler,
//!   the four divides, `upcast`, `downcast`, `local_tile`/`local_partition`, and the partitions of tiled
//!   MMAs and tiled copies. The type checker runs the static algorithm on the layout with its run-time
//!   strides marked (CuTe C++'s dynamic-stride path: the structure comes from the extents and
//!   the tiler, a run-time stride only flows into the result's strides), and the result's
//!   run-time strides are computed when it runs, each product checked;
//! - with **run-time extents**: the divide family by a by-mode tiler of layouts or integers
//!   (or of by-mode tilers of those, nested)
//!   (static, or run-time: `tiler!(<{bm},{bn}>)` is `<{bm}:1,{bn}:1>`) or by one layout or
//!   integer, whatever the nesting: the pattern every kernel starts with, a matrix of run-time
//!   extents cut into static tiles, and a vector of run-time length cut into static tiles,
//!   CuTe's `zipped_divide(make_layout(n), Layout<_128>{})` (a nested mode takes cute-dyn's
//!   general path, `composition(A_i, (T, complement(T, shape(coalesce(A_i)))))`); and
//!   composition by any layout (its leaves static or run-time) or by-mode tiler, whatever the
//!   nesting. Where cute-dyn decides the structure on run-time values (a condition fails
//!   on the modes the static rule keeps apart, and cute-dyn retries with them coalesced by
//!   value), the answer is cute-dyn's run-time structure (below: composition and the divides
//!   by one layout or integer answer a [`crate::Decided`]; by mode the structure is static);
//! - **complement** of any layout by a static or run-time integer or shape cotarget (a
//!   shape's leaves, as cute-dyn; a static layout by a shape with run-time leaves too). The
//!   modes are sorted by stride: by the type checker where the strides are static (or there
//!   is one mode); with run-time strides among several modes (CuTe C++ refuses those:
//!   "Dynamic-stride complement only for rank-1 layouts"; cute-dyn sorts the values), the
//!   types assume the run-time strides sort last, in their order (a tile's run-time leading
//!   dimension, `(8,64):(1,{ld})`), checked when it runs. Where a run-time value decides the
//!   structure (a run-time extent that is 1, a run-time stride that is 0, strides that sort
//!   otherwise), cute-dyn's run-time structure;
//! - the **products** (`logical`, `zipped`, `tiled`, `flat`, `blocked` and `raked_product`) by
//!   one layout or integer, with run-time leaves in either operand (any nesting): a static
//!   block repeated over a grid of run-time extent, or a block with run-time extents; and the
//!   four tiler forms by a by-mode tiler of layouts or integers (mode `i` is
//!   `logical_product(A_i, B_i)`, the modes past the tiler kept).
//!   `logical_product(A, B)` is `(A, complement(A, size(A) * cosize(B)) ∘ B)`, so `A` takes
//!   complement's rules above and the
//!   composition is the one of run-time extents above (cute-dyn's run-time structure where
//!   it decides the structure on values).
//!
//! - **upcast** and **downcast** of any layout: the structure comes from the strides alone (a
//!   static stride takes its rule by its value; a run-time one is divided or multiplied when
//!   it runs), so a run-time extent is divided or multiplied when it runs too;
//! - the **inverses** (`right_inverse`, `left_inverse`) of any layout: cute-dyn sorts the modes
//!   by their values and compares strides by value, so the type fixes the choices a run-time
//!   value would make (the run-time strides sort after the static ones, in their order; the
//!   right inverse takes a run-time stride where the running product is run-time too, as in
//!   `({m},{n}):(1,{m})`, and never where one of them is static), and checks them when it
//!   runs: where the values choose otherwise, cute-dyn's run-time structure. left_inverse's
//!   conditions on run-time values are checked then too.
//!
//! - a **static layout by a right operand with run-time leaves**: composition by any layout,
//!   the divides by a layout or a by-mode tiler (tiles of run-time length), the products
//!   (above); computed when it runs, as for run-time leaves in the layout.
//!
//! Those outputs are a `Result<Layout<..>, cute_static::error::Error>`: the structure is still
//! in the type, static exactly where cute-dyn's answer is static, and the conditions that
//! depend on run-time values (complement's @post, overflow) are checked when it runs.
//! Conditions on static values stay compile errors.
//!
//! Where the values can decide the structure (complement, the inverses, the products,
//! composition and the divides by one layout or integer), the `Ok` is a [`crate::Decided`]:
//! [`Decided::Typed`](crate::Decided::Typed), the layout of the type, where the values keep
//! the structure the types assumed, and [`Decided::RunTime`](crate::Decided::RunTime),
//! cute-dyn's layout (static flags included), where they choose another. Both print, and
//! `to_dyn` either. Code that indexes the result and so needs its type takes the typed
//! layout with `.checked()?` ([`crate::Checked`]): `Error::Undecided` for a run-time
//! structure. Generic code that prints or converts the answer keeps the run-time structure
//! with `.decided()?` (the same trait, the same one bound): `right_inverse` of
//! `(4,{64}):({128},1)` is `{64}:4` there as in concrete code and in cute-dyn. `Error::Undecided` is otherwise left only where cute-dyn is undecided too, and
//! without the `dyn` feature (no allocator for a run-time structure). `tests/mixed_sweep.rs`
//! counts it: random run-time values through every operation, 0 calls undecided where
//! cute-dyn answers (15,378 of 75,961 before the run-time structure).
//!
//! ```
//! use cute_static::{layout, tiler, ZippedDivide};
//! let (m, n) = (128usize, 256usize);
//! let z = layout!(({m},{n}):(1,{m})).zipped_divide(tiler!(<32,64>))?;
//! // By hand: mode 0 is 128:1 / 32 = (32, 4):(1, 32), mode 1 is 256:128 / 64 = (64, 4):(128,
//! // 64*128). The DSL's rule: what depends on m or n is run-time.
//! assert_eq!(z.to_string(), "((32,64),({4},{4})):((1,{128}),(32,{8192}))");
//! // Generic code is the same: one bound, `L: ZippedDivide<T>`, whatever the leaves.
//! fn tiles<L: ZippedDivide<T>, T>(l: L, t: T) -> L::Output {
//!     l.zipped_divide(t)
//! }
//! let z = tiles(layout!(({m},{n}):(1,{m})), tiler!(<32,64>))?;
//! assert_eq!(z.to_string(), "((32,64),({4},{4})):((1,{128}),(32,{8192}))");
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```
//!
//! A vector of run-time length by one layout:
//!
//! ```
//! use cute_static::{layout, TiledDivide, ZippedDivide};
//! let n = 1000usize;
//! // complement(128:1, 1000) is {8}:128 (ceil(1000 / 128) tiles; the last one is partial).
//! assert_eq!(layout!({n}:1).zipped_divide(layout!(128:1))?.to_string(), "(128,{8}):(1,128)");
//! // A run-time stride scales every stride; the tiled form unpacks the rest.
//! let s = 3usize;
//! let t = layout!({n}:{s}).tiled_divide(layout!((4,8):(8,1)))?;
//! assert_eq!(t.to_string(), "((4,8),{32}):(({24},{3}),{96})");
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```
//!
//! A run-time stride under a static extent, with static strides elsewhere:
//!
//! ```
//! use cute_static::{layout, Composition};
//! // CuTe docs: (6,2):(8,2) o (4,3):(3,1) is ((2,2),3):((24,2),8); with the stride 2 run-time,
//! // the mode it reaches is run-time.
//! let s = 2;
//! let r = layout!((6,2):(8,{s})).composition(layout!((4,3):(3,1)))?;
//! assert_eq!(r.to_string(), "((2,2),3):((24,{2}),8)");
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```
//!
//! A static block over a grid whose extent is known when the kernel runs:
//!
//! ```
//! use cute_static::{layout, BlockedProduct};
//! // CuTe docs: blocked_product((2,5):(5,1), (3,4):(1,3)) is ((2,3),(5,4)):((5,10),(1,30));
//! // with the grid's 4 run-time, the modes it reaches are run-time.
//! let n = 4;
//! let r = layout!((2,5):(5,1)).blocked_product(layout!((3,{n}):(1,3)))?;
//! assert_eq!(r.to_string(), "((2,3),(5,{4})):((5,10),(1,30))");
//! // Generic code: one bound, whatever the leaves.
//! fn blocks<A: BlockedProduct<B>, B>(a: A, b: B) -> A::Output {
//!     a.blocked_product(b)
//! }
//! assert_eq!(blocks(layout!((2,5):(5,1)), layout!((3,{n}):(1,3)))?.to_string(), "((2,3),(5,{4})):((5,10),(1,30))");
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```
//!
//! The inverses of a tile with a run-time leading dimension:
//!
//! ```
//! use cute_static::{layout, LeftInverse, RightInverse};
//! // C++ CuTe's right_inverse follows static strides only: the 8 contiguous elements. cute-dyn
//! // (comparing values) agrees for every ld other than 8, where it takes the second mode too.
//! let ld = 16usize;
//! assert_eq!(layout!((8,64):(1,{ld})).right_inverse()?.to_string(), "8:1");
//! assert_eq!(layout!((8,64):(1,{ld})).left_inverse()?.to_string(), "({16},64):(1,8)");
//! // With ld = 8 the tile is compact: cute-dyn takes the second mode too, and the inverse of
//! // the whole 512 elements is 512:1, a structure the type (`8:1`) does not hold, so the
//! // answer is cute-dyn's run-time layout.
//! let r = layout!((8,64):(1,{8})).right_inverse()?;
//! assert_eq!(r.to_string(), "512:1");
//! assert!(matches!(r, cute_static::Decided::RunTime { .. }));
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```
//!
//! [`crate::TileToShape`] takes run-time leaves in the block or the shape the same way (a
//! `Result`: the repeat counts are divided when it runs, a mode that does not divide is
//! refused then), and so do [`crate::coalesce_by`] a profile and [`crate::complement_cosize`]
//! (the complement up to the cosize, computed when it runs). No operation of the algebra
//! refuses run-time leaves, and the divides and products take by-mode tilers nested in
//! by-mode tilers too (a mode divided by mode once more, as CuTe's `transform_layout`; e.g.
//! `<(2,8,2):(2,4,1),<4:1,(2,3):(3,1)>,2>` on `({m},({n},6),8):(1,(64,4096),32768)`, equal to
//! cute-dyn's). Where a tiler's form is not one of those, the error names the forms they
//! take, and its note points to the run-time algebra: call the operation on `.to_dyn()` (a
//! `cute_dyn::Layout`), where every condition is checked at run time.
//!
//! ## The kernel layer
//!
//! A kernel tiles its tensors with [`crate::tensor::local_tile`] (a matrix of run-time extents
//! gives a `Result`, a static layout the pair itself) and splits a tile among threads with a
//! tiled MMA ([`crate::mma::TiledMma`]) and tiled copies ([`crate::copy::TiledCopy`]), all
//! computed by the type checker: a thread's part of a static tile is a zero-sized layout and a
//! run-time offset, a thread's part of a tile of a global tensor (static extents, run-time
//! leading dimension) has its run-time strides computed when it runs, and its register
//! fragment is sized at compile time.
//!
//! ```
//! use cute_static::mma::{TiledMma, UniversalFMA};
//! use cute_static::{coord, layout, tensor::local_tile, tiler, Layout, StaticLayout};
//! // CTA (1, 2)'s 64x128 tile of an M x N column-major C with run-time extents (coordinates and
//! // projections as C++ writes them: `coord!(1, 2)` is `make_coord(1, 2)`, `step!(1, X, 1)` is
//! // `Step<_1, X, _1>{}`).
//! let (m, n) = (1000usize, 2000usize);
//! let (tile, offset) = local_tile(layout!(({m},{n}):(1,{m})), tiler!(<64,128>), &coord!(1, 2))?;
//! assert_eq!((tile.to_string(), offset), ("(64,128):(1,{1000})".to_string(), 64 + 2 * 128 * 1000));
//! // 8x16 threads, each an FMA "atom": thread 17 (row 1, column 2) owns rows 1 + 8i and columns
//! // 2 + 16j of a static 64x128 block, an 8x8 register fragment.
//! let mma = TiledMma::<UniversalFMA, Layout![(8,16,1):(1,8,0)]>::new();
//! let (part, at) = mma.partition_c(layout!((64,128):(1,64)), 17)?;
//! assert_eq!((part.to_string(), at), ("(1,8,8):(0,8,1024)".to_string(), 1 + 64 * 2));
//! // The same thread's part of the CTA's tile of C itself: its columns 16 apart are 16 * M
//! // elements apart, a run-time stride.
//! let (part, at) = mma.partition_c(tile, 17)?; // a TensorError, after local_tile's Error
//! assert_eq!((part.to_string(), at), ("(1,8,8):(0,8,{16000})".to_string(), 1 + 1000 * 2));
//! let frg = mma.partition_fragment_c(tile, 17)?;
//! assert_eq!((frg.to_string(), frg.cosize()), ("(1,8,8):(0,1,8)".to_string(), 64));
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```
//!
//! Each operation of the kernel layer is a trait with one bound, as the algebra's are:
//! [`crate::LocalTile`] (whose `try_local_tile` is a `Result` whatever the leaves, so that one
//! function takes static and run-time layouts), [`crate::LocalPartition`],
//! [`crate::PartitionA`], [`crate::PartitionB`], [`crate::PartitionC`] and their
//! `PartitionFragment` twins, [`crate::FragmentLike`]. What they give is a
//! [`crate::LayoutFn`]: evaluated, printed and converted to cute-dyn with no further bound. Their errors are [`crate::tensor::TensorError`]s (the algebra's
//! [`crate::error::Error`] converts into it), so `?` chains them.
//!
//! Where the types decide it, the compiler says it: a tensor over a slice of static extents
//! that its static tile does not divide (`(100,64)` by `(32,16)`) is a compile error at
//! `local_tile` naming both numbers (a slice has no ragged last tile; a pointer tensor's tiles
//! are ragged and predicated, as CuTe's), and a run-time extent given to a partition the type
//! checker computes (`partition_c`, a tiled copy's `partition_s`) is one error in words, the
//! partition's other bounds waiting on it.
//!
//! A kernel generic over its tiling reaches every size of a tile type with one bound,
//! [`crate::layout::Sizes`] (`rank`, `size`, each `size<I>` as constants): the loop bounds and
//! register arrays' lengths of a GEMM written once for every tile shape.
//!
//! ```
//! use cute_static::layout::Sizes;
//! use cute_static::Shape;
//! // C++: `size<0>(CtaTiler{})`, `size<2>(CtaTiler{})` of a (BM, BN, BK) tiler.
//! fn steps<Cta: Sizes>(m: usize, k: usize) -> (usize, usize) {
//!     (m.div_ceil(Cta::MODES[0]), k.div_ceil(Cta::MODES[2]))
//! }
//! assert_eq!(steps::<Shape![(128, 128, 32)]>(1000, 4096), (8, 128));
//! ```
//!
//! The kernels that execute instructions (MMA and TMA atoms, `gemm`, pipelines) are the next
//! crate's, `cute-atom`, on these layouts; its chapter is `docs/guide-hopper-gemm.md`.
//!
//! ## A whole kernel
//!
//! CuTe's tiled copy (its tutorial's first kernel): each CTA takes its tile of the source and
//! of the destination with `local_tile`, each thread its part of both with `local_partition`,
//! and copies element by element. Written once, generic over both layouts (static, or with
//! run-time extents), the CTA tiler and the thread layout: one bound per operation it calls
//! (two `local_tile`s, two `local_partition`s, and `LayoutFn` for the thread count; what
//! the operations give is evaluated with no further bound), and `Copy` for what it reuses.
//!
//! ```
//! use cute_static::tensor::TensorError;
//! use cute_static::{layout, tiler, Cons, LayoutFn, LocalPartition, LocalTile, Nil};
//!
//! type Cta = Cons<usize, Cons<usize, Nil>>;
//!
//! /// `dst(c) = src(c)` for every coordinate `c` of the `grid` of tiles: CTA by CTA, thread by
//! /// thread (on a GPU, the two outer loops are the launch).
//! fn tiled_copy<S, D, T, Thr>(
//!     src: &[f32], s: S, dst: &mut [f32], d: D, tiler: T, threads: Thr, grid: (usize, usize),
//! ) -> Result<(), TensorError>
//! where
//!     S: LocalTile<T, Cta> + Copy,
//!     D: LocalTile<T, Cta> + Copy,
//!     T: Copy,
//!     Thr: LayoutFn,
//!     S::Tile: LocalPartition<Thr>,
//!     D::Tile: LocalPartition<Thr>,
//! {
//!     for cta in (0..grid.0).flat_map(|x| (0..grid.1).map(move |y| Cons(x, Cons(y, Nil)))) {
//!         let (s_tile, s_off) = s.try_local_tile(tiler, &cta)?;
//!         let (d_tile, d_off) = d.try_local_tile(tiler, &cta)?;
//!         for tid in 0..threads.size() {
//!             let (sp, sp_off) = s_tile.local_partition(threads, tid)?;
//!             let (dp, dp_off) = d_tile.local_partition(threads, tid)?;
//!             for v in 0..sp.size() {
//!                 dst[d_off + dp_off + dp.call(v)] = src[s_off + sp_off + sp.call(v)];
//!             }
//!         }
//!     }
//!     Ok(())
//! }
//!
//! // A 64x48 column-major matrix into a row-major one (a transpose of the storage), 16x8
//! // tiles, 4x2 threads: static layouts, computed by the type checker.
//! let src: Vec<f32> = (0..64 * 48).map(|x| x as f32).collect();
//! let mut dst = vec![0.0; 64 * 48];
//! let threads = layout!((4,2):(2,1));
//! tiled_copy(&src, layout!((64,48):(1,64)), &mut dst, layout!((64,48):(48,1)), tiler!(<16,8>), threads, (4, 6))?;
//! assert!((0..64).all(|r| (0..48).all(|c| dst[48 * r + c] == src[r + 64 * c])));
//! // The same function with run-time extents: the divides computed when it runs.
//! let (m, n) = (64usize, 48usize);
//! let mut dst2 = vec![0.0; m * n];
//! tiled_copy(&src, layout!(({m},{n}):(1,{m})), &mut dst2, layout!(({m},{n}):({n},1)), tiler!(<16,8>), threads, (m / 16, n / 8))?;
//! assert_eq!(dst2, dst);
//! # Ok::<(), TensorError>(())
//! ```
//!
//! The same pattern scales to a GEMM: `cute-kernels`' `gemm_tiled` (`kernels/src/gemm.rs`) is
//! one function generic over its tiling (CTA tiles, shared tiles, the tiled copy that packs them,
//! the tiled MMA) and over the operands' layouts, static or run-time extents: 21 bounds for the
//! 21 operations it calls (`LocalTile`, `CoordTile` for the identity tensors' tiles, `Threads`,
//! `PartitionS`/`PartitionD`, `PartitionA`/`B`/`C`, `PartitionFragmentC`, `LayoutFn`).
//!
//! A GPU kernel works on raw pointers, as C++'s: a pointer tensor (`tensor::PtrTensor`) has
//! C++'s semantics (a ragged last tile, an unchecked tile coordinate: no error path in the
//! index arithmetic), and its operations are traits too: [`crate::PtrLocalTile`],
//! [`crate::PtrLocalPartition`], [`crate::PtrAddr`] (an element's address at a coordinate), and
//! [`crate::LayoutAt`] for a layout at a coordinate (a shared tile, a thread-value map). Written
//! over the tensor types, one bound each:
//!
//! ```
//! use cute_static::{layout, shape, tensor::PtrTensor, Cons, LayoutAt, Nil, PtrAddr, PtrLocalTile, Shape};
//!
//! type Crd2 = Cons<usize, Cons<usize, Nil>>;
//!
//! /// Element `v` of thread `t` in block tile `(i, j)`: the block's tile of `A`, then the
//! /// thread-value map's (row, column).
//! fn element<PA, TV>(a: &PA, tv: &TV, i: usize, j: usize, t: usize, v: usize) -> *mut f32
//! where
//!     PA: PtrLocalTile<Shape![(8, 8)]>,
//!     PA::Output: PtrAddr<Crd2, Elem = f32>,
//!     TV: LayoutAt<Crd2>,
//! {
//!     let row = tv.at(&Cons(t, Cons(v, Nil)));
//!     let tile = a.local_tile(shape!((8, 8)), &[i, j]).expect("a rank-2 coordinate");
//!     tile.addr_at(&Cons(row, Cons(t % 4, Nil)))
//! }
//!
//! let mut data = vec![0.0f32; 32 * 16];
//! let (m, n) = (32usize, 16usize);
//! let a = PtrTensor::new(data.as_mut_ptr(), layout!(({m},{n}):({n},1))); // run-time, row-major
//! let s = PtrTensor::new(data.as_mut_ptr(), layout!((32,16):(16,1))); // static
//! let tv = layout!((4,2):(1,4)); // thread t owns rows t and t + 4
//! // Tile (1,1), thread 2, value 1: row 8 + 6, column 8 + 2.
//! let want = data.as_mut_ptr().wrapping_add(14 * 16 + 10);
//! assert_eq!((element(&a, &tv, 1, 1, 2, 1), element(&s, &tv, 1, 1, 2, 1)), (want, want));
//! ```
//!
//! The GPU kernels of `gpu/` are written this way: the SGEMM and the tensor-core HGEMM are each
//! one function over their operands' pointer tensors (run-time or static extents, run-time
//! leading dimensions) and a `Tiling` (block tiles, shared tiles, the thread-value map), with
//! 8 bounds for their 8 operations (3 `PtrLocalTile`, 3 `PtrAddr`, 2 `LayoutAt`), and stay
//! within 2% of their hand-indexed twins' PTX (`scripts/gpu/ptx_guard.py`, `docs/gpu.md`).
//!
//! ## Hopper's operand descriptors
//!
//! A `wgmma` reads its shared-memory operands through a descriptor read off the tile's layout
//! (`gmma`): the shared tile is `tile_to_shape` of a GMMA layout atom, and each MMA's tile of
//! it (a stage's, at a tile coordinate) has a descriptor the compiler computes and checks. One
//! bound, `GmmaTile`, in generic code:
//!
//! ```
//! use cute_static::gmma::{GmmaTile, LayoutAtom, K, Sw128};
//! use cute_static::typenum::U16;
//! use cute_static::{shape, tile_to_shape, tiler, Cons, Nil};
//!
//! type Crd3 = Cons<usize, Cons<usize, Cons<usize, Nil>>>;
//!
//! /// The descriptors of the K-loop's MMA tiles of one row of tiles of a stage.
//! fn descriptors<S: GmmaTile<T, Crd3, K, U16> + Copy, T: Copy>(smem: S, tile: T, row: usize, stage: usize, k_tiles: usize) -> Vec<u64> {
//!     (0..k_tiles).map(|k| smem.gmma_desc_of_tile(tile, &Cons(row, Cons(k, Cons(stage, Nil))), 0)).collect()
//! }
//!
//! // A 128x128 half tile in two stages, K-major, 128-byte swizzle.
//! let smem = tile_to_shape(LayoutAtom::<K, Sw128, U16>::default(), shape!((128,128,2)));
//! let d = descriptors(smem, tiler!(<64,16>), 1, 1, 8);
//! // CuTe C++ 4.2: the (64,16) tile at (1,7) of stage 1 is 0x4000004000010e06. Within one
//! // atom (64 halves of K, a 128-byte row), each K step moves the start by 32 bytes (2 in the
//! // 16-byte field); the next atom starts 8192 halves further.
//! assert_eq!(d[7], 0x4000004000010e06);
//! assert!(d[..4].windows(2).all(|w| w[1] - w[0] == 2));
//! assert_eq!(d[4] - d[0], 8192 * 2 / 16);
//! ```
//!
//! A tile `wgmma` cannot read is a compile error where its descriptor is built, naming the
//! condition and its numbers (`ui-tests/gmma/`): "K-major: the 8 rows of a core matrix are 16 W
//! bytes apart (...), here 16 bytes; this tile puts them this many bytes apart: 32".
