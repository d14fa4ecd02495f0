//! The gate of the static-only operations: the operation when every leaf of the layout is
//! static ([`StaticBit`]), otherwise one error, [`StaticLayoutRequired`], instead of the
//! typenum arithmetic failing on `usize` in many places.

use typenum::{B0, B1, U0, U1};

pub use crate::int_tuple::StaticBit;
use crate::layout::Layout;

/// A layout with a run-time leaf given to an operation that decides its result's structure at
/// compile time: implemented by nothing, so its message is the error.
#[diagnostic::on_unimplemented(
    message = "static value required: this operation computes its result in the type checker, and the layout has a run-time ({{expr}}) leaf",
    label = "a layout with a run-time leaf",
    note = "use the cute-dyn operation on `.to_dyn()` for run-time values (coalesce and filter take them here)"
)]
pub trait StaticLayoutRequired {}

/// What an operation marker computes for `(A, B)`.
pub trait Operation<A, B> {
    /// The result type.
    type Output;
}

/// The operation when `A` is static; otherwise one error, [`StaticLayoutRequired`], instead of
/// the typenum arithmetic failing on `usize` in many places.
pub trait Gate<Op, A, B> {
    /// The result type.
    type Output;
}
impl<Op: Operation<A, B>, A, B> Gate<Op, A, B> for B1 {
    type Output = <Op as Operation<A, B>>::Output;
}
impl<Op, A: StaticLayoutRequired, B> Gate<Op, A, B> for B0 {
    type Output = Layout<U1, U0>;
}

/// Every leaf static (`StaticBit` is `B1`): where `Layout`'s own methods of the operations apply
/// (see `static_method`).
pub trait AllStatic {}
impl<L: StaticBit<Output = B1>> AllStatic for L {}

/// The result type of a static-only operation `Op` on `(A, B)`.
pub type Gated<Op, A, B> = <<A as StaticBit>::Output as Gate<Op, A, B>>::Output;

/// A public static-only operation `name(layout, b)` (or `name(layout)`): its result type is the
/// gate's, so that a run-time leaf is one "static value required" error, and its value the
/// type's default (every leaf is static, every result zero-sized).
///
/// The result type is a parameter `R` bound by `Output = R`, not the projection itself: the type
/// checker infers `R` once, and each instance carries it, so code generation does not normalize
/// the type-level algorithm a second time (that halved the compile time of the products:
/// `scripts/compile_time.sh`).
macro_rules! static_op {
    ($(#[$doc:meta])* fn $name:ident<$($g:ident),*>($bt:ty) => $op:ty $(, $tr:ident)?) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name<SA, DA, $($g,)* R>(_: $crate::Layout<SA, DA>, _: $bt) -> R
        where
            $crate::Layout<SA, DA>: $crate::gate::StaticBit,
            <$crate::Layout<SA, DA> as $crate::gate::StaticBit>::Output: $crate::gate::Gate<$op, $crate::Layout<SA, DA>, $bt, Output = R>,
            R: Default,
        {
            Default::default()
        }
        $(
        $crate::gate::static_method!($name, $tr, (x: X));

        /// The operation as a trait: one bound in generic code.
        impl<SA, DA, X, R> $crate::ops::$tr<X> for $crate::Layout<SA, DA>
        where
            $crate::Layout<SA, DA>: $crate::gate::StaticBit,
            <$crate::Layout<SA, DA> as $crate::gate::StaticBit>::Output: $crate::gate::Gate<$op, $crate::Layout<SA, DA>, X, Output = R>,
            R: Default,
        {
            type Output = R;
            #[inline(always)]
            fn $name(self, _: X) -> Self::Output {
                Default::default()
            }
        }
        )?
    };
    ($(#[$doc:meta])* fn $name:ident() => $op:ty $(, $tr:ident)?) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name<SA, DA, R>(_: $crate::Layout<SA, DA>) -> R
        where
            $crate::Layout<SA, DA>: $crate::gate::StaticBit,
            <$crate::Layout<SA, DA> as $crate::gate::StaticBit>::Output: $crate::gate::Gate<$op, $crate::Layout<SA, DA>, (), Output = R>,
            R: Default,
        {
            Default::default()
        }
        $(
        $crate::gate::static_method!($name, $tr, ());

        /// The operation as a trait: one bound in generic code.
        impl<SA, DA, R> $crate::ops::$tr for $crate::Layout<SA, DA>
        where
            $crate::Layout<SA, DA>: $crate::gate::StaticBit,
            <$crate::Layout<SA, DA> as $crate::gate::StaticBit>::Output: $crate::gate::Gate<$op, $crate::Layout<SA, DA>, (), Output = R>,
            R: Default,
        {
            type Output = R;
            #[inline(always)]
            fn $name(self) -> Self::Output {
                Default::default()
            }
        }
        )?
    };
}
pub(crate) use static_op;

/// An operation's method on a static [`Layout`] (every leaf static), beside its trait's: a
/// method call on a static layout finds it first; elsewhere (generic code over `Layout<S, D>`, a
/// layout with run-time leaves) its impl does not apply and the call is the trait's. Its value
/// is the result type's default (a static layout's results are zero-sized), as the free
/// functions'. It exists for compile time: code generation resolves a trait method by selecting
/// the impl, which proves the impl's bounds (the whole type-level algorithm) again in a fresh
/// context, while this method's bound is proved once, where it is called
/// (`scripts/compile_time.sh`: the `method_*` cases against the free functions).
// (The impl's bound is a trait of its own, not `StaticBit<Output = B1>` itself: as an
// assumption that would let the type checker run the algorithm on the impl's generic layout.)
macro_rules! static_method {
    ($name:ident, $tr:ident, ($($x:ident: $g:ident)?)) => {
        impl<SA, DA> $crate::Layout<SA, DA>
        where
            Self: $crate::gate::AllStatic,
        {
            #[doc = concat!("`", stringify!($name), "(self", $(", ", stringify!($x),)? ")` of a static layout: the [`", stringify!($tr),
                "`](crate::", stringify!($tr), ") trait's result (see [`", stringify!($name), "`](fn@crate::",
                stringify!($name), ")).")]
            #[inline(always)]
            pub fn $name<$($g,)? R>(self $(, $x: $g)?) -> R
            where
                Self: $crate::$tr<$($g,)? Output = R>,
                R: $crate::gate::Produce,
            {
                R::produce(move || <Self as $crate::$tr<$($g)?>>::$name(self $(, $x)?))
            }
        }
    };
}
pub(crate) use static_method;

/// The result of an operation on a static layout, produced without asking the operation's
/// trait where it can be: a layout the type checker computed is its type's default (its leaves
/// are static), so `compute` is not called and code generation does not resolve the trait
/// method (which would prove the type-level algorithm again); a `Result` (a static layout by an
/// operand with run-time leaves, computed when it runs) is `compute()`.
pub trait Produce: Sized {
    /// The result.
    fn produce(compute: impl FnOnce() -> Self) -> Self;
}
// Only for a layout whose every leaf is static: a run-time leaf's default would be a wrong
// value (`{0}`), so such a result fails to compile here instead of reading 0.
impl<S, D> Produce for Layout<S, D>
where
    Layout<S, D>: Default + StaticBit<Output = B1>,
{
    #[inline(always)]
    fn produce(_: impl FnOnce() -> Self) -> Self {
        Self::default()
    }
}
impl<T> Produce for Result<T, crate::error::Error> {
    #[inline(always)]
    fn produce(compute: impl FnOnce() -> Self) -> Self {
        compute()
    }
}
