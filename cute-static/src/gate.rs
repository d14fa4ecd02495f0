//! Where the type checker computes an operation: the operation markers' results
//! ([`Operation`]), the static layouts' methods of the operations (`static_method`) and their
//! values ([`Produce`]). Every operation takes run-time leaves too: a layout with one goes to
//! the operation's mixed path (a `Result`) by its [`StaticBit`].

use typenum::B1;

pub use crate::int_tuple::StaticBit;
pub use crate::ops::{Produce, ProduceBy};

/// What an operation marker computes for `(A, B)`.
pub trait Operation<A, B> {
    /// The result type.
    type Output;
}

/// An operation `Op` on `(A, B)` by the operands' [`StaticBit`]: every leaf static (`B1`), the
/// type checker's [`Operation`] (the value is the type's: the result is zero-sized); a run-time
/// leaf (`B0`), the operation's own impl of this trait, computed when it runs (a `Result`).
/// (Each operation's run-time route is an impl of this trait, not of a trait of its own below
/// it: such a level cost rustc 5 to 7 million instructions per call, `scripts/compile_time.sh`.)
pub trait Route<Op, A, B> {
    /// The result type.
    type Output;
    /// The result.
    fn route(a: A, b: B) -> Self::Output;
}
impl<Op: Operation<A, B, Output = R>, A, B, R: Default> Route<Op, A, B> for B1 {
    type Output = R;
    #[inline(always)]
    fn route(_: A, _: B) -> R {
        // Every leaf is static: the value is the type's.
        R::default()
    }
}

/// Every leaf static (`StaticBit` is `B1`): where `Layout`'s own methods of the operations apply
/// (see `static_method`).
pub trait AllStatic {}
impl<L: StaticBit<Output = B1>> AllStatic for L {}

// Result types as parameters: the operations' impls and functions name their result type as a
// parameter `R` bound by `Output = R`, not the projection itself: the type checker infers `R`
// once, and each instance carries it, so code generation does not normalize the type-level
// algorithm a second time (that halved the compile time of the products:
// `scripts/compile_time.sh`).

/// An operation's method on a static [`Layout`](crate::Layout) (every leaf static), beside its
/// trait's: a method call on a static layout finds it first; elsewhere (generic code over
/// `Layout<S, D>`, a layout with run-time leaves) its impl does not apply and the call is the
/// trait's. Its value is the result type's default (a static layout's results are zero-sized),
/// as the free functions'. It exists for compile time: code generation resolves a trait method
/// by selecting the impl, which proves the impl's bounds (the whole type-level algorithm) again
/// in a fresh context, while this method's bound is proved once, where it is called
/// (`scripts/compile_time.sh --instructions`: a call through the trait costs rustc, in millions
/// of instructions, composition 44 against 31, logical_divide 124 against 78, complement 194
/// against 101).
// (The impl's bound is a trait of its own, not `StaticBit<Output = B1>` itself: as an
// assumption that would let the type checker run the algorithm on the impl's generic layout.)
macro_rules! static_method {
    ($name:ident, $tr:ident, ($($x:ident: $g:ident)?)) => {
        $crate::gate::static_method!(@ self, $name, $tr, ($($x: $g)?), [Self: $crate::gate::AllStatic], [R], {
            Self: $crate::$tr<$($g,)? Output = R>,
            R: $crate::gate::Produce,
        } {
            R::produce(move || <Self as $crate::$tr<$($g)?>>::$name(self $(, $x)?))
        });
    };
    // The method on a static layout, its result `R`, with its own parameters and bounds.
    (@ $self:ident, $name:ident, $tr:ident, ($($x:ident: $g:ident)?), [$($on:tt)*], [$($p:ident),*], { $($bounds:tt)* } $body:block) => {
        impl<SA, DA> $crate::Layout<SA, DA>
        where
            $($on)*
        {
            #[doc = concat!("`", stringify!($name), "(self", $(", ", stringify!($x),)? ")`: the [`", stringify!($tr),
                "`](crate::", stringify!($tr), ") trait's result (see [`", stringify!($name), "`](fn@crate::",
                stringify!($name), ")).")]
            #[inline(always)]
            pub fn $name<$($g,)? $($p),*>($self $(, $x: $g)?) -> R
            where
                $($bounds)*
            $body
        }
    };
}
pub(crate) use static_method;

/// An operation routed by [`Route`] (the type checker's [`Operation`] for a static layout, the
/// operation's `B0` route for one with run-time leaves): its free function (the result
/// [`Produce`]d), `Layout`'s own method, and its trait's impl, the route chosen by the layout's
/// [`StaticBit`], or with `by` by another type's (the operands').
macro_rules! routed_op {
    ($(#[$doc:meta])* fn $name:ident() => $op:ty, $tr:ident) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name<L: $crate::$tr<Output = R>, R: $crate::gate::Produce>(l: L) -> R {
            R::produce(move || l.$name())
        }

        $crate::gate::static_method!($name, $tr, ());

        /// The operation as a trait: one bound in generic code. A layout with run-time leaves
        /// gives a `Result` ([`Route`](crate::gate::Route)).
        impl<SA, DA, G, R> $crate::$tr for $crate::Layout<SA, DA>
        where
            $crate::Layout<SA, DA>: Copy + $crate::gate::StaticBit<Output = G>,
            G: $crate::gate::Route<$op, $crate::Layout<SA, DA>, (), Output = R>,
            R: $crate::gate::Produce,
        {
            type Output = R;
            #[inline(always)]
            fn $name(self) -> R {
                G::route(self, ())
            }
        }
    };
    ($(#[$doc:meta])* fn $name:ident($x:ident: $g:ident) by $bits:ty => $op:ty, $tr:ident) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name<L: $crate::$tr<$g, Output = R>, $g, R: $crate::gate::Produce>(l: L, $x: $g) -> R {
            R::produce(move || l.$name($x))
        }

        $crate::gate::static_method!($name, $tr, ($x: $g));

        /// The operation as a trait: one bound in generic code. A run-time leaf gives a
        /// `Result` ([`Route`](crate::gate::Route)).
        impl<SA, DA, $g, G, R> $crate::$tr<$g> for $crate::Layout<SA, DA>
        where
            $bits: $crate::gate::StaticBit<Output = G>,
            G: $crate::gate::Route<$op, $crate::Layout<SA, DA>, $g, Output = R>,
            R: $crate::gate::Produce,
        {
            type Output = R;
            #[inline(always)]
            fn $name(self, $x: $g) -> R {
                G::route(self, $x)
            }
        }
    };
}

/// [`routed_op`] for an operation whose type-level algorithm carries a verdict
/// ([`crate::verdict`]): the free function and `Layout`'s own method bound its [`Plan`](crate::ops::Plan) and
/// the verdict; the trait (in `ops`) is implemented for every plan whose verdict passes.
macro_rules! judged_op {
    ($(#[$doc:meta])* fn $name:ident() => $op:ty, $tr:ident) => {
        $crate::gate::judged_op!(@ $(#[$doc])* $name, (), $crate::Layout<SA, DA>, $op, $tr);
    };
    ($(#[$doc:meta])* fn $name:ident($x:ident: $g:ident) by $bits:ty => $op:ty, $tr:ident) => {
        $crate::gate::judged_op!(@ $(#[$doc])* $name, ($x: $g), $bits, $op, $tr);
    };
    (@ $(#[$doc:meta])* $name:ident, ($($x:ident: $g:ident)?), $bits:ty, $op:ty, $tr:ident) => {
        $(#[$doc])*
        #[inline(always)]
        pub fn $name<L, $($g,)? V, R>(l: L $(, $x: $g)?) -> R
        where
            L: $crate::ops::Plan<$op, $crate::ops::operations!(@ty $($g)?), Out = (R, V)>,
            V: $crate::verdict::Pass,
            R: $crate::gate::Produce,
        {
            // A verdict the type checker cannot reach (left_inverse's law) is a constant of
            // the instance; every other verdict's is `()`.
            #[allow(clippy::let_unit_value)]
            let () = <V as $crate::verdict::Pass>::CHECK;
            R::produce(move || l.plan($crate::ops::operations!(@val $($x)?)).0)
        }

        $crate::gate::judged_method!($name, $op, $tr, ($($x: $g)?));

        /// The operation's plan: the type checker's for a static layout, a `Result` computed
        /// when it runs for one with run-time leaves ([`Route`](crate::gate::Route)).
        impl<SA, DA, $($g,)? G, O> $crate::ops::Plan<$op, $crate::ops::operations!(@ty $($g)?)> for $crate::Layout<SA, DA>
        where
            $bits: $crate::gate::StaticBit<Output = G>,
            G: $crate::gate::Route<$op, $crate::Layout<SA, DA>, $crate::ops::operations!(@ty $($g)?), Output = O>,
        {
            type Out = O;
            #[inline(always)]
            fn plan(self, b: $crate::ops::operations!(@ty $($g)?)) -> O {
                G::route(self, b)
            }
        }
    };
}
pub(crate) use judged_op;

/// The method of an operation with a verdict ([`judged_op`]) on any [`Layout`](crate::Layout)
/// (see [`static_method`]): it bounds the operation's [`Plan`](crate::ops::Plan) and asks the
/// verdict to pass on its own, as the free function does (a method call finds it before the
/// trait's, whose error would name the layout).
macro_rules! judged_method {
    ($name:ident, $op:ty, $tr:ident, ($($x:ident: $g:ident)?)) => {
        $crate::gate::static_method!(@ self, $name, $tr, ($($x: $g)?), [], [V, R], {
            Self: $crate::ops::Plan<$op, $crate::ops::operations!(@ty $($g)?), Out = (R, V)>,
            V: $crate::verdict::Pass,
            R: $crate::gate::Produce,
        } {
            #[allow(clippy::let_unit_value)]
            let () = <V as $crate::verdict::Pass>::CHECK;
            R::produce(move || $crate::ops::Plan::plan(self, $crate::ops::operations!(@val $($x)?)).0)
        });
    };
}
pub(crate) use judged_method;
pub(crate) use routed_op;
