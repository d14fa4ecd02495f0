//! Preconditions as values. An operation's type-level algorithm does not fail on a violated
//! precondition: it carries a verdict, [`Holds`] or the first condition's `Failed` with its
//! numbers in decimal (each `decimal_condition!` module has its own `Failed`), beside its
//! result. The free function and `Layout`'s own method ask the verdict to [`Pass`] in a bound
//! of their own, so rustc's error for a violation names the condition and its numbers, and no
//! layout in typenum binary: the chain of "required for" notes runs from the verdict, not
//! through the algorithm's impls. The operation's trait asks the same of its plan in a
//! supertrait bound, which generic code gets with the trait's one bound.

/// Every condition holds.
#[derive(Clone, Copy, Default, Debug)]
pub struct Holds;

/// A verdict that lets the operation through: [`Holds`], and a condition's `Failed` only where
/// its `Report` is implemented (never; its error is the condition's message). A verdict the
/// type checker cannot reach (a product's no-overlap, where CuTe's complement breaks its
/// @post: [`crate::product::NoOverlap`]) settles with a `CHECK` evaluated when the operation is
/// instantiated (`cargo build`; `cargo check` does not evaluate it).
pub trait Settle {
    /// `()`, or a compile-time evaluation that fails (a constant's panic) where the condition
    /// does not hold.
    const CHECK: () = ();
}
impl Settle for Holds {}

/// What the free functions and the operation traits ask of a verdict: that it [`Settle`]s.
/// (A trait of its own, implemented for every type that settles: rustc lists no "implemented
/// for" types after a violation's message.) The operations evaluate its `CHECK`.
pub trait Pass {
    /// The verdict's [`Settle::CHECK`].
    const CHECK: ();
}
impl<V: Settle> Pass for V {
    const CHECK: () = V::CHECK;
}

/// A list of verdicts (congruence's, one per mode) settles where each does.
impl Settle for crate::Nil {}
impl<H: Settle, T: Settle> Settle for crate::Cons<H, T> {
    const CHECK: () = {
        let () = H::CHECK;
        T::CHECK
    };
}

/// The first failure of `Self` and `V`: `V` after [`Holds`], `Self` after a failure.
pub trait First<V> {
    /// The verdict.
    type Output;
}
impl<V> First<V> for Holds {
    type Output = V;
}

/// [`First`] of two verdicts.
pub type FirstOf<A, B> = <A as First<B>>::Output;

/// A list whose end is `Nil`, or a verdict where a fold stopped at a violated condition: the
/// list ended with `Nil` and the verdict. (A fold that carries its verdict in its list has one
/// associated type per step: a second one, named in a bound, has rustc prove each step's
/// bounds again.)
pub trait Terminated {
    /// The list, ending with `Nil`.
    type List;
    /// [`Holds`] for a list that ends with `Nil`, else the verdict it ends with.
    type Verdict;
}
impl Terminated for crate::Nil {
    type List = crate::Nil;
    type Verdict = Holds;
}
impl<H, T: Terminated> Terminated for crate::Cons<H, T> {
    type List = crate::Cons<H, T::List>;
    type Verdict = T::Verdict;
}

/// The two parts of a pair type, `(result, verdict)`.
pub trait Pair {
    /// The first.
    type First;
    /// The second.
    type Second;
}
impl<A, B> Pair for (A, B) {
    type First = A;
    type Second = B;
}

/// The first failed verdict among the leaves of a tuple, where a leafwise algorithm put it in
/// place of a leaf (upcast's strides): [`Holds`] where every leaf is a number.
pub trait Leafwise {
    /// The verdict.
    type Verdict;
}
impl Leafwise for typenum::UTerm {
    type Verdict = Holds;
}
impl<U, B> Leafwise for typenum::UInt<U, B> {
    type Verdict = Holds;
}
/// A run-time leaf: its conditions are checked when it runs.
impl Leafwise for usize {
    type Verdict = Holds;
}
impl Leafwise for crate::Nil {
    type Verdict = Holds;
}
impl<H: Leafwise, T: Leafwise> Leafwise for crate::Cons<H, T>
where
    H::Verdict: First<T::Verdict>,
{
    type Verdict = FirstOf<H::Verdict, T::Verdict>;
}
