//! The algebra as traits: one trait per operation, named as the CuTe function in UpperCamelCase,
//! implemented by the left operand, with `type Output` and a method of the CuTe name. Generic
//! kernel code writes one bound per operation it calls:
//!
//! ```
//! use cute_static::{layout, tiler, Coalesce, LogicalDivide, ZippedDivide};
//!
//! fn tiles<L, T>(l: L, t: T) -> <L as ZippedDivide<T>>::Output
//! where
//!     L: ZippedDivide<T>,
//! {
//!     l.zipped_divide(t)
//! }
//!
//! fn divide_then_coalesce<L, T>(l: L, t: T) -> <<L as LogicalDivide<T>>::Output as Coalesce>::Output
//! where
//!     L: LogicalDivide<T>,
//!     <L as LogicalDivide<T>>::Output: Coalesce,
//! {
//!     l.logical_divide(t).coalesce()
//! }
//!
//! // CuTe docs: zipped_divide((9,(4,8)):(59,(13,1)), <3:3,(2,4):(1,8)>)
//! let z = tiles(layout!((9,(4,8)):(59,(13,1))), tiler!(<3:3,(2,4):(1,8)>));
//! assert_eq!(z.to_string(), "((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1)))");
//! // (4,2,3):(2,1,8) / 4:2 is ((2,2),(2,3)):((4,1),(2,8)) (CuTe docs); coalesce merges the
//! // neighbours 2:1 and 2:2 (2 == 2*1) and no others.
//! let c = divide_then_coalesce(layout!((4,2,3):(2,1,8)), layout!(4:2));
//! assert_eq!(c.to_string(), "(2,4,3):(4,1,8)");
//! ```
//!
//! The implementations carry the machinery's bounds; a caller with concrete layouts never sees
//! them, and a violated precondition is still the compile error that names it. `Coalesce` and
//! `Filter` live beside their algorithms and are exported with these.

/// The result of an operation, produced without asking the operation's trait where it can
/// be: a layout the type checker computed is its type's default (its leaves are static), so
/// `compute` is not called and code generation does not resolve the trait method (which would
/// prove the type-level algorithm again); anything computed when it runs (a `Result`, a layout
/// with run-time leaves, a composed layout) is `compute()`. The free functions of the unary
/// operations, of `complement` and of `tile_to_shape`, and those operations' methods on static
/// layouts produce their results this way (the divides, products, composition and recasts
/// [`Run`] a plan, as their free functions and `Layout`'s own methods); those operation traits'
/// `Output` is `Produce`, so a generic caller of a free function needs no bound beyond the
/// operation's.
pub trait Produce: Sized {
    /// The result.
    fn produce(compute: impl FnOnce() -> Self) -> Self;
}
/// A layout by its [`StaticBit`](crate::int_tuple::StaticBit): every leaf static, the type's
/// default; a run-time leaf, `compute()` (its default would be a wrong value, `{0}`).
impl<S, D, G: ProduceBy<crate::Layout<S, D>>> Produce for crate::Layout<S, D>
where
    crate::Layout<S, D>: crate::int_tuple::StaticBit<Output = G>,
{
    #[inline(always)]
    fn produce(compute: impl FnOnce() -> Self) -> Self {
        G::produce_by(compute)
    }
}
/// How a layout is produced, by its [`StaticBit`](crate::int_tuple::StaticBit) (see [`Produce`]).
pub trait ProduceBy<T> {
    /// The layout.
    fn produce_by(compute: impl FnOnce() -> T) -> T;
}
impl<T: Default> ProduceBy<T> for typenum::B1 {
    #[inline(always)]
    fn produce_by(_: impl FnOnce() -> T) -> T {
        T::default()
    }
}
impl<T> ProduceBy<T> for typenum::B0 {
    #[inline(always)]
    fn produce_by(compute: impl FnOnce() -> T) -> T {
        compute()
    }
}
impl<T> Produce for Result<T, crate::error::Error> {
    #[inline(always)]
    fn produce(compute: impl FnOnce() -> Self) -> Self {
        compute()
    }
}

/// How the free function of a divide, a product, composition or a recast computes its result
/// from the operands: chosen by the type checker with the result (the operation trait's
/// `Plan`, which carries the result's type) and run through an impl whose bounds are light, so
/// that code generation resolves only that impl, not the operation's own (whose bounds are the
/// type-level algorithm, proved once where the operation is called). The plans: a static
/// result's default ([`Static`]), static extents with run-time strides resolving the markers
/// of the type checker's result on marked strides, the route of run-time leaves.
/// `scripts/compile_time.sh --instructions`, against producing the result ([`Produce`]) and
/// calling the trait for a computed one: stride_logical_divide 173 -> 109,
/// stride_composition 163 -> 92, mixed_blocked_product 114 -> 97 million rustc instructions
/// per call, and the static cases as cheap or cheaper (logical_divide 78 -> 76,
/// blocked_product 86 -> 83).
pub trait Run<A, B> {
    /// The result.
    type Output;
    /// Compute it.
    fn run(a: A, b: B) -> Self::Output;
}

/// An operation `Op` on `Self` with operand `B`, as the type checker plans it: `(result,
/// verdict)`, the verdict on its preconditions ([`crate::verdict`]) computed, not failing, on a
/// violation. The free function and `Layout`'s own method bound the plan and ask the verdict
/// to pass in a bound of its own (a violation's error then names no layout); the operation's
/// trait asks the same in a supertrait bound (`Out = (Output, Verdict)`), which generic code
/// gets with the trait. (One associated type, the pair: a second one, named in a bound, has
/// rustc prove the plan's bounds again.) Machinery: its value where the verdict fails is not
/// the operation's answer, so it is reached through the operation's trait or free function.
#[doc(hidden)]
pub trait Plan<Op, B> {
    /// `(result, verdict)`.
    type Out;
    /// The result, and the verdict's (zero-sized) value.
    fn plan(self, b: B) -> Self::Out;
}

/// `complement`, as an operation marker.
#[derive(Clone, Copy, Default, Debug)]
pub struct ComplementOp;

/// `left_inverse`, as an operation marker.
#[derive(Clone, Copy, Default, Debug)]
pub struct LeftInverseOp;

/// `tile_to_shape`, as an operation marker.
#[derive(Clone, Copy, Default, Debug)]
pub struct TileToShapeOp;

/// `upcast<N>` as an operation marker.
#[derive(Clone, Copy, Default, Debug)]
pub struct UpcastOp;

/// `downcast<N>` as an operation marker.
#[derive(Clone, Copy, Default, Debug)]
pub struct DowncastOp;

/// `coalesce(L, profile)`, as an operation marker.
#[derive(Clone, Copy, Default, Debug)]
pub struct CoalesceByOp;

/// `composition`, as an operation a tiler applies.
#[derive(Clone, Copy, Default, Debug)]
pub struct CompositionOp;

/// `logical_divide`, as an operation a tiler applies.
#[derive(Clone, Copy, Default, Debug)]
pub struct DivideOp;

/// `logical_product`, as an operation a tiler applies.
#[derive(Clone, Copy, Default, Debug)]
pub struct ProductOp;

/// `blocked_product`, as an operation marker: mode i is `(A_i, B_i)`.
#[derive(Clone, Copy, Default, Debug)]
pub struct BlockedOp;

/// `raked_product`, as an operation marker: mode i is `(B_i, A_i)`.
#[derive(Clone, Copy, Default, Debug)]
pub struct RakedOp;

/// `logical_divide`'s own arrangement (the divided modes in place).
pub struct Plain;
/// `zipped_*`: `((tiles), (rests))`.
pub struct Zip;
/// `tiled_*`: `((tiles), rest0, rest1, ...)`.
pub struct Tile;
/// `flat_*`: `(tile0, tile1, ..., rest0, rest1, ...)`.
pub struct Flat;

/// An operation `Op` arranged as `How` (composition, a divide, a product, a recast's route) on
/// `Self` with operand `B`, as the type checker plans it: `(plan, verdict)`, how the result is
/// computed ([`Run`], which carries the result's type) and the verdict on the preconditions
/// ([`crate::verdict`]), computed, not failing, on a violation. As [`Plan`]: the free function
/// and `Layout`'s own method ask the verdict to pass in a bound of its own, the operation's
/// trait in a supertrait bound. Machinery, reached through the operation's trait or function.
#[doc(hidden)]
pub trait Arranged<How, Op, B> {
    /// `(plan, verdict)`.
    type Out;
}

/// The plan of a result the type checker computed (every leaf static): its type's default.
pub struct Static<R>(core::marker::PhantomData<R>);
impl<A, B, R: Default> Run<A, B> for Static<R> {
    type Output = R;
    #[inline(always)]
    fn run(_: A, _: B) -> R {
        R::default()
    }
}

/// `complement(L)`: the complement up to `cosize(filter(L))` (CuTe's one-argument form).
pub trait ComplementCosize {
    /// The complement's type.
    type Output: Produce;
    /// `complement(self)`.
    fn complement_cosize(self) -> Self::Output;
}

/// `right_inverse(L)`.
pub trait RightInverse: Copy {
    /// The inverse's type.
    type Output: Produce;
    /// `right_inverse(self)`.
    fn right_inverse(self) -> Self::Output;
}

/// The operations whose type-level algorithm carries a verdict ([`crate::verdict`]), each a
/// trait with a supertrait that names the verdict, so that its one bound gives generic code the
/// method and the free function (the supertrait's `Out` names the trait's results and
/// `Verdict`, and `Verdict: Pass`):
/// - `judged`: the unary operations and those of a shape or number, whose [`Plan`] gives
///   `(result, verdict)`;
/// - `arranged`: composition, the divides and the products, whose [`Arranged`] plan gives
///   `(plan, verdict)`, the plan a [`Run`].
///
/// `operations!(traits)` defines the traits; `operations!(impls [P..] Type)` implements them
/// for an operand type with parameters `P..` wherever its plan's verdict passes (`Layout` here,
/// the composed layouts and swizzles in `swizzle`). Per operand type, not blanket over every
/// type: a generic function that lacks the bound then reads "the trait `ZippedDivide<T>` is
/// not implemented for `L`" and the help to add it, not the machinery's supertrait.
macro_rules! operations {
    (@ [traits]
     judged: [$($(#[$jdoc:meta])* $jtr:ident$(<$jg:ident>)?, $jop:ty, $jmethod:ident($($jarg:ident)?);)*]
     arranged: [$($(#[$adoc:meta])* $atr:ident, $how:ty, $aop:ty, $amethod:ident, $aarg:ident;)*]) => {
        $(
            $(#[$jdoc])*
            ///
            /// Implemented by every layout whose [`Plan`] passes the operation's preconditions
            /// ([`crate::verdict`]): this one bound gives generic code the method and the free
            /// function.
            pub trait $jtr$(<$jg>)?:
                Copy + Plan<$jop, operations!(@ty $($jg)?), Out = (<Self as $jtr$(<$jg>)?>::Output, <Self as $jtr$(<$jg>)?>::Verdict)>
            {
                /// The result's type.
                type Output: Produce;
                /// The verdict on the preconditions, which passes.
                type Verdict: crate::verdict::Pass;
                #[doc = concat!("`", stringify!($jmethod), "(self", $(", ", stringify!($jarg),)? ")`.")]
                fn $jmethod(self $(, $jarg: $jg)?) -> <Self as $jtr$(<$jg>)?>::Output;
            }
        )*
        $(
            $(#[$adoc])*
            ///
            /// Implemented by every operand whose plan ([`Arranged`]) passes the operation's
            /// preconditions ([`crate::verdict`]): this one bound gives generic code the method
            /// and the free function.
            pub trait $atr<T>:
                Copy + Arranged<$how, $aop, T, Out = (<Self as $atr<T>>::Plan, <Self as $atr<T>>::Verdict)>
            {
                /// The result's type.
                type Output;
                /// How the free function computes it ([`Run`]).
                type Plan: Run<Self, T, Output = <Self as $atr<T>>::Output>;
                /// The verdict on the preconditions, which passes.
                type Verdict: crate::verdict::Pass;
                #[doc = concat!("`", stringify!($amethod), "(self, ", stringify!($aarg), ")`.")]
                fn $amethod(self, $aarg: T) -> <Self as $atr<T>>::Output;
            }
        )*

    };
    (@ [methods { $($extra:tt)* }]
     judged: [$($(#[$jdoc:meta])* $jtr:ident$(<$jg:ident>)?, $jop:ty, $jmethod:ident($($jarg:ident)?);)*]
     arranged: [$($(#[$adoc:meta])* $atr:ident, $how:ty, $aop:ty, $amethod:ident, $aarg:ident;)*]) => {
        /// The operations' methods for generic code, each bounded by its operation's trait:
        /// with this trait in scope (`use cute_static::Methods`),
        /// a method chain whose bound is missing, `l.zipped_divide(t).coalesce()`, reads "the
        /// trait bound `<L as ZippedDivide<T>>::Output: Coalesce` is not satisfied" and "help:
        /// consider further restricting the associated type", where without it rustc finds no
        /// method (`E0599`) and suggests nothing.
        ///
        /// Where the bound is there, the operation's own method is the one called (a bound
        /// trait's method is found before this one, which takes `&self`); a concrete layout's
        /// are its own. So these methods only ever add the hint: each calls the operation's.
        /// (The operations' traits are `Copy`, as every layout is, so that a method taking
        /// `&self` can call one taking `self` under the one bound.)
        ///
        /// Not here: `local_tile` and `local_partition`, whose traits are implemented for
        /// every layout the divide accepts (a blanket impl): rustc then reports the divide's
        /// bound inside and the thread layout's type, three errors where E0599 is one.
        ///
        /// The price: where this trait is not imported, rustc's E0599 for an operation's
        /// method on a type parameter without its bound suggests importing it (after which
        /// the error names the operation's trait) rather than the bound itself.
        ///
        /// # Examples
        /// Without the second bound, the chain is an error that names it:
        /// ```compile_fail,E0277
        /// use cute_static::{Methods, ZippedDivide};
        /// fn tiles_coalesced<L: ZippedDivide<T>, T>(l: L, t: T) {
        ///     let _ = l.zipped_divide(t).coalesce(); // add `<L as ZippedDivide<T>>::Output: Coalesce`
        /// }
        /// ```
        /// With it, the operations' own methods run:
        /// ```
        /// use cute_static::{layout, tiler, Coalesce, Methods, ZippedDivide};
        /// fn tiles_coalesced<L: ZippedDivide<T>, T>(l: L, t: T) -> <<L as ZippedDivide<T>>::Output as Coalesce>::Output
        /// where
        ///     <L as ZippedDivide<T>>::Output: Coalesce,
        /// {
        ///     l.zipped_divide(t).coalesce()
        /// }
        /// // CuTe docs: zipped_divide((9,(4,8)):(59,(13,1)), <3:3,(2,4):(1,8)>) is
        /// // ((3,(2,4)),(3,(2,2))):((177,(13,2)),(59,(26,1))); its coalesced form merges nothing
        /// // further but flattens: (3,2,4,3,2,2):(177,13,2,59,26,1).
        /// let c = tiles_coalesced(layout!((9,(4,8)):(59,(13,1))), tiler!(<3:3,(2,4):(1,8)>));
        /// assert_eq!(c.to_string(), "(3,2,4,3,2,2):(177,13,2,59,26,1)");
        /// ```
        pub trait Methods {
            $(
                #[doc = concat!("`", stringify!($jmethod), "(self", $(", ", stringify!($jarg),)? ")`: [`", stringify!($jtr), "`](crate::", stringify!($jtr), ")'s method.")]
                #[inline(always)]
                fn $jmethod$(<$jg>)?(&self $(, $jarg: $jg)?) -> <Self as $crate::ops::$jtr$(<$jg>)?>::Output
                where
                    Self: $crate::ops::$jtr$(<$jg>)?,
                {
                    <Self as $crate::ops::$jtr$(<$jg>)?>::$jmethod(*self $(, $jarg)?)
                }
            )*
            $(
                #[doc = concat!("`", stringify!($amethod), "(self, ", stringify!($aarg), ")`: [`", stringify!($atr), "`](crate::", stringify!($atr), ")'s method.")]
                #[inline(always)]
                fn $amethod<T>(&self, $aarg: T) -> <Self as $crate::ops::$atr<T>>::Output
                where
                    Self: $crate::ops::$atr<T>,
                {
                    <Self as $crate::ops::$atr<T>>::$amethod(*self, $aarg)
                }
            )*
            $($extra)*
        }
        impl<X: ?Sized> Methods for X {}
    };
    (@ [impls $gen:tt $ty:ty]
     judged: [$($(#[$jdoc:meta])* $jtr:ident$(<$jg:ident>)?, $jop:ty, $jmethod:ident($($jarg:ident)?);)*]
     arranged: [$($(#[$adoc:meta])* $atr:ident, $how:ty, $aop:ty, $amethod:ident, $aarg:ident;)*]) => {
        $($crate::ops::operations!(@judged $gen $ty, $jtr$(<$jg>)?, $jop, $jmethod($($jarg)?));)*
        $($crate::ops::operations!(@arranged $gen $ty, $atr, $how, $aop, $amethod, $aarg);)*
    };
    (@judged [$($p:ident),*] $ty:ty, $tr:ident$(<$g:ident>)?, $op:ty, $method:ident($($arg:ident)?)) => {
        impl<$($p,)* $($g,)? R: $crate::ops::Produce, V: $crate::verdict::Pass> $crate::ops::$tr$(<$g>)? for $ty
        where
            $ty: Copy + $crate::ops::Plan<$op, $crate::ops::operations!(@ty $($g)?), Out = (R, V)>,
        {
            type Output = R;
            type Verdict = V;
            #[inline(always)]
            fn $method(self $(, $arg: $g)?) -> R {
                #[allow(clippy::let_unit_value)]
                let () = <V as $crate::verdict::Pass>::CHECK;
                $crate::ops::Plan::plan(self, $crate::ops::operations!(@val $($arg)?)).0
            }
        }
    };
    (@arranged [$($p:ident),*] $ty:ty, $tr:ident, $how:ty, $op:ty, $method:ident, $arg:ident) => {
        impl<$($p,)* T, P: $crate::ops::Run<$ty, T>, V: $crate::verdict::Pass> $crate::ops::$tr<T> for $ty
        where
            $ty: Copy + $crate::ops::Arranged<$how, $op, T, Out = (P, V)>,
        {
            type Output = P::Output;
            type Plan = P;
            type Verdict = V;
            #[inline(always)]
            fn $method(self, $arg: T) -> P::Output {
                #[allow(clippy::let_unit_value)]
                let () = <V as $crate::verdict::Pass>::CHECK;
                P::run(self, $arg)
            }
        }
    };
    // An optional operand as a type and a value: `()` for none (also `gate`'s judged methods').
    (@ty $g:ident) => { $g };
    (@ty) => { () };
    (@val $x:ident) => { $x };
    (@val) => { () };
    ($($mode:tt)*) => {
        $crate::ops::operations! { @ [$($mode)*]
            judged: [
            /// `complement(L, cotarget)`.
            Complement<C>, $crate::ops::ComplementOp, complement(cotarget);
            /// `left_inverse(L)`.
            LeftInverse, $crate::ops::LeftInverseOp, left_inverse();
            /// `tile_to_shape(block, shape)`: the block repeated to fill the shape.
            TileToShape<T>, $crate::ops::TileToShapeOp, tile_to_shape(shape);
            /// `upcast<N>(L)` (`N` a typenum number): for elements `N` times larger.
            Upcast<N>, $crate::ops::UpcastOp, upcast(n);
            /// `downcast<N>(L)` (`N` a typenum number): for elements `N` times smaller.
            Downcast<N>, $crate::ops::DowncastOp, downcast(n);
            /// `coalesce(L, profile)`: coalesce within each mode of the profile.
            CoalesceBy<P>, $crate::ops::CoalesceByOp, coalesce_by(profile);
            ]
            arranged: [
            /// `composition(A, B)`: `R(c) = A(B(c))`.
            Composition, $crate::ops::Plain, $crate::ops::CompositionOp, composition, b;
            /// `logical_divide(A, tiler)`: `A` split into (tile, rest) by the tiler.
            LogicalDivide, $crate::ops::Plain, $crate::ops::DivideOp, logical_divide, tiler;
            /// `zipped_divide(A, tiler)`: `((tiles), (rests))`.
            ZippedDivide, $crate::ops::Zip, $crate::ops::DivideOp, zipped_divide, tiler;
            /// `tiled_divide(A, tiler)`: `((tiles), rest0, rest1, ...)`.
            TiledDivide, $crate::ops::Tile, $crate::ops::DivideOp, tiled_divide, tiler;
            /// `flat_divide(A, tiler)`: `(tile0, tile1, ..., rest0, rest1, ...)`.
            FlatDivide, $crate::ops::Flat, $crate::ops::DivideOp, flat_divide, tiler;
            /// `logical_product(A, B)`: `(A, copies of B)`.
            LogicalProduct, $crate::ops::Plain, $crate::ops::ProductOp, logical_product, b;
            /// `zipped_product(A, B)`.
            ZippedProduct, $crate::ops::Zip, $crate::ops::ProductOp, zipped_product, b;
            /// `tiled_product(A, B)`.
            TiledProduct, $crate::ops::Tile, $crate::ops::ProductOp, tiled_product, b;
            /// `flat_product(A, B)`.
            FlatProduct, $crate::ops::Flat, $crate::ops::ProductOp, flat_product, b;
            /// `blocked_product(A, B)`: `A` as the block, repeated by `B`, modes zipped.
            BlockedProduct, $crate::ops::Plain, $crate::ops::BlockedOp, blocked_product, b;
            /// `raked_product(A, B)`: `A` interleaved by `B`, modes zipped.
            RakedProduct, $crate::ops::Plain, $crate::ops::RakedOp, raked_product, b;
            ]
        }
    };
}
pub(crate) use operations;

operations!(traits);
operations!(impls [SA, DA] crate::Layout<SA, DA>);

/// For each operation `Op<T>` of two operands, `OpLayout<T>`: the operation whose result is a
/// layout, whether the type checker computed it or it is checked when it runs. One bound gives
/// generic code the method, `.checked()` and the layout's evaluation and printing, where the
/// operation's own bound needs two more (`L::Output: Checked`, `<L::Output as
/// Checked>::Layout: LayoutFn`). Implemented for every operand whose operation gives one.
macro_rules! layout_results {
    ($($(#[$doc:meta])* $alias:ident: $op:ident;)*) => {$(
        $(#[$doc])*
        pub trait $alias<T>: $op<T, Output: Checked<Layout: crate::LayoutFn + core::fmt::Display>> {}
        impl<L, T> $alias<T> for L where L: $op<T, Output: Checked<Layout: crate::LayoutFn + core::fmt::Display>> {}
    )*};
}

layout_results! {
    /// `composition(A, B)` to a layout, one bound ([`Composition`]).
    ///
    /// # Examples
    /// ```
    /// use cute_static::{error::Error, layout, Checked, CompositionLayout, LayoutFn};
    /// // Generic code that prints a composition and its size: one bound.
    /// fn show<A: CompositionLayout<B>, B>(a: A, b: B) -> Result<String, Error> {
    ///     let r = a.composition(b).checked()?;
    ///     Ok(format!("{r} size {}", r.size()))
    /// }
    /// // CuTe docs: composition((6,2):(8,2), (4,3):(3,1)) = ((2,2),3):((24,2),8)
    /// assert_eq!(show(layout!((6,2):(8,2)), layout!((4,3):(3,1)))?, "((2,2),3):((24,2),8) size 12");
    /// // The same with a run-time extent: the layout computed when it runs (its run-time
    /// // leaves printed in braces, as cute-dyn's mixed composition gives them).
    /// let n = 6;
    /// assert!(show(layout!(({n},2):(8,2)), layout!((4,3):(3,1)))?.ends_with(" size 12"));
    /// # Ok::<(), Error>(())
    /// ```
    CompositionLayout: Composition;
    /// `logical_divide(A, tiler)` to a layout, one bound ([`LogicalDivide`]).
    LogicalDivideLayout: LogicalDivide;
    /// `zipped_divide(A, tiler)` to a layout, one bound ([`ZippedDivide`]).
    ///
    /// # Examples
    /// ```
    /// use cute_static::{error::Error, layout, tiler, Checked, LayoutFn, ZippedDivideLayout};
    /// fn tile_count<L: ZippedDivideLayout<T>, T>(l: L, t: T) -> Result<usize, Error> {
    ///     Ok(l.zipped_divide(t).checked()?.size() / 12)
    /// }
    /// let m = 8;
    /// assert_eq!(tile_count(layout!((8,12):(1,8)), tiler!(<4,3>))?, 8); // static
    /// assert_eq!(tile_count(layout!(({m},12):(1,{m})), tiler!(<4,3>))?, 8); // run-time extent
    /// # Ok::<(), Error>(())
    /// ```
    ZippedDivideLayout: ZippedDivide;
    /// `tiled_divide(A, tiler)` to a layout, one bound ([`TiledDivide`]).
    TiledDivideLayout: TiledDivide;
    /// `flat_divide(A, tiler)` to a layout, one bound ([`FlatDivide`]).
    FlatDivideLayout: FlatDivide;
    /// `logical_product(A, B)` to a layout, one bound ([`LogicalProduct`]).
    LogicalProductLayout: LogicalProduct;
    /// `zipped_product(A, B)` to a layout, one bound ([`ZippedProduct`]).
    ZippedProductLayout: ZippedProduct;
    /// `tiled_product(A, B)` to a layout, one bound ([`TiledProduct`]).
    TiledProductLayout: TiledProduct;
    /// `flat_product(A, B)` to a layout, one bound ([`FlatProduct`]).
    FlatProductLayout: FlatProduct;
    /// `blocked_product(A, B)` to a layout, one bound ([`BlockedProduct`]).
    BlockedProductLayout: BlockedProduct;
    /// `raked_product(A, B)` to a layout, one bound ([`RakedProduct`]).
    RakedProductLayout: RakedProduct;
}

/// `flatten(L)`.
pub trait Flatten {
    /// The flat layout's type.
    type Output;
    /// `flatten(self)`.
    fn flatten(self) -> Self::Output;
}

/// `get<I>(L)`: mode `I`.
pub trait Get<const I: usize> {
    /// The mode's type.
    type Output;
    /// `get<I>(self)`.
    fn get(&self) -> Self::Output;
}

/// `take<B, E>(L)`: modes `[B, E)`.
pub trait Take<const B: usize, const E: usize> {
    /// The result's type.
    type Output;
    /// `take<B, E>(self)`.
    fn take(&self) -> Self::Output;
}

/// `append(L, X)`: `X` as a last mode.
pub trait Append<X> {
    /// The result's type.
    type Output;
    /// `append(self, x)`.
    fn append(&self, x: X) -> Self::Output;
}

/// `prepend(L, X)`: `X` as a first mode.
pub trait Prepend<X> {
    /// The result's type.
    type Output;
    /// `prepend(self, x)`.
    fn prepend(&self, x: X) -> Self::Output;
}

/// `select<I...>(L)`: modes `I...`, the indices a [`modes!`](crate::modes) list.
pub trait Select<Ix> {
    /// The result's type.
    type Output;
    /// `select<I...>(self)`.
    fn select(&self, ix: Ix) -> Self::Output;
}

/// `group_modes<B, E>(L)`: modes `[B, E)` gathered into one.
pub trait GroupModes<const B: usize, const E: usize> {
    /// The result's type.
    type Output;
    /// `group_modes<B, E>(self)`.
    fn group_modes(&self) -> Self::Output;
}

/// The layout of an operation's result, whether the type checker computed it (a layout) or it
/// was computed when it ran (a `Result`, for layouts with run-time leaves): generic code
/// written once for both writes `l.zipped_divide(t).checked()?`.
///
/// # Examples
/// ```
/// use cute_static::{error::Error, layout, tiler, Checked, LayoutFn, ZippedDivide};
/// fn tile_count<L, T>(l: L, t: T) -> Result<usize, Error>
/// where
///     L: ZippedDivide<T>,
///     L::Output: Checked,
///     <L::Output as Checked>::Layout: LayoutFn,
/// {
///     let z = l.zipped_divide(t).checked()?;
///     Ok(z.size() / 12)
/// }
/// let m = 8;
/// assert_eq!(tile_count(layout!((8,12):(1,8)), tiler!(<4,3>))?, 8); // static
/// assert_eq!(tile_count(layout!(({m},12):(1,{m})), tiler!(<4,3>))?, 8); // run-time extent
/// # Ok::<(), Error>(())
/// ```
pub trait Checked {
    /// The layout.
    type Layout;
    /// The layout, or why the operation refused.
    ///
    /// # Errors
    /// The operation's, for a result computed when it ran.
    fn checked(self) -> Result<Self::Layout, crate::error::Error>;
    /// The answer with its run-time structure kept: the typed layout as
    /// [`Decided::Typed`](crate::Decided::Typed), a layout whose structure the values chose as
    /// [`Decided::RunTime`](crate::Decided::RunTime) (which [`checked`](Self::checked) refuses
    /// as `Undecided`). Generic code that prints or converts an answer keeps what concrete
    /// code gets.
    ///
    /// # Errors
    /// The operation's, for a result computed when it ran.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, Checked, RightInverse};
    /// // One bound: the inverse of any layout whose answer is a printable layout.
    /// fn inverse<L: RightInverse<Output: Checked<Layout: core::fmt::Display>>>(l: L) -> String {
    ///     match l.right_inverse().decided() {
    ///         Ok(r) => r.to_string(),
    ///         Err(e) => e.to_string(),
    ///     }
    /// }
    /// // The padded tile (4,{64}):({128},1): C++ CuTe and cute-dyn give {64}:4 (the rows'
    /// // 64 contiguous elements), a structure its type does not hold.
    /// let (n, ld) = (64usize, 128usize);
    /// assert_eq!(inverse(layout!((4,{n}):({ld},1))), "{64}:4");
    /// assert_eq!(inverse(layout!((4,{n}):({n},1))), "({64},4):(4,1)");
    /// ```
    fn decided(self) -> Result<crate::Decided<Self::Layout>, crate::error::Error>;
    /// `T` for a static result (infallible), `Result<T, Error>` for one computed when it ran:
    /// what a function built on the operation returns (e.g.
    /// [`local_tile`](crate::tensor::local_tile)), so that it takes both kinds of layout and
    /// stays infallible on static ones.
    type Then<T>;
    /// `f` of the layout, carried through the check.
    fn then<T>(self, f: impl FnOnce(Self::Layout) -> T) -> Self::Then<T>;
}
impl<S, D> Checked for crate::Layout<S, D> {
    type Layout = Self;
    #[inline(always)]
    fn checked(self) -> Result<Self, crate::error::Error> {
        Ok(self)
    }
    #[inline(always)]
    fn decided(self) -> Result<crate::Decided<Self>, crate::error::Error> {
        Ok(crate::Decided::Typed(self))
    }
    type Then<T> = T;
    #[inline(always)]
    fn then<T>(self, f: impl FnOnce(Self) -> T) -> T {
        f(self)
    }
}
/// An answer whose structure the values may decide ([`Decided`](crate::Decided)): the typed
/// layout, or `Undecided` where the values chose another structure.
impl<S, D> Checked for Result<crate::Decided<crate::Layout<S, D>>, crate::error::Error> {
    type Layout = crate::Layout<S, D>;
    #[inline(always)]
    fn checked(self) -> Result<crate::Layout<S, D>, crate::error::Error> {
        self.and_then(crate::Decided::typed_or_undecided)
    }
    #[inline(always)]
    fn decided(self) -> Self {
        self
    }
    type Then<T> = Result<T, crate::error::Error>;
    #[inline(always)]
    fn then<T>(self, f: impl FnOnce(crate::Layout<S, D>) -> T) -> Result<T, crate::error::Error> {
        self.checked().map(f)
    }
}
impl<S, D> Checked for Result<crate::Layout<S, D>, crate::error::Error> {
    type Layout = crate::Layout<S, D>;
    #[inline(always)]
    fn checked(self) -> Self {
        self
    }
    #[inline(always)]
    fn decided(self) -> Result<crate::Decided<crate::Layout<S, D>>, crate::error::Error> {
        self.map(crate::Decided::Typed)
    }
    type Then<T> = Result<T, crate::error::Error>;
    #[inline(always)]
    fn then<T>(self, f: impl FnOnce(crate::Layout<S, D>) -> T) -> Result<T, crate::error::Error> {
        self.map(f)
    }
}
