//! cute-static's answers on run-time values in the form cute-dyn's are compared in: the
//! layout in cute-dyn's cpp style (static values `_N`, run-time ones plain, so the static
//! flags are compared too), or the kind of refusal. A typed layout and a [`Decided`] one
//! (whose structure the values may choose) alike.

use cute::cute_dyn::{self, Style};
use cute::cute_static::error::Error;
use cute::cute_static::{Congruent, Decided, IntTuple, Layout};

/// A layout answer of cute-static: typed, or [`Decided`].
pub trait AnswerLayout {
    /// cute-dyn's layout of it, static flags included.
    fn dyn_layout(&self) -> cute_dyn::Layout;
}
impl<S: Congruent<D>, D: IntTuple> AnswerLayout for Layout<S, D> {
    fn dyn_layout(&self) -> cute_dyn::Layout {
        self.to_dyn().expect("fits in i64")
    }
}
impl<S: Congruent<D>, D: IntTuple> AnswerLayout for Decided<Layout<S, D>> {
    fn dyn_layout(&self) -> cute_dyn::Layout {
        self.to_dyn().expect("fits in i64")
    }
}

/// cute-static's answer (or refusal) in the form cute-dyn's is compared in.
pub fn ours<L: AnswerLayout>(r: Result<L, Error>) -> Result<String, &'static str> {
    r.map(|l| l.dyn_layout().to_styled(Style::Cpp)).map_err(|e| e.kind())
}

/// cute-dyn's answer (or refusal) in the same form. cute-static's `NonInjective` is cute-dyn's
/// `NonInjective` and `Interleaved` both (a mode starting inside the ones before: cute-dyn
/// enumerates the layout to tell an overlap from an interleaving, cute-static on the kernel
/// path does not), so the two compare as one kind.
pub fn styled(r: cute_dyn::Result<cute_dyn::Layout>) -> Result<String, &'static str> {
    r.map(|l| l.to_styled(Style::Cpp)).map_err(|e| match e.kind() {
        "interleaved" => "non_injective",
        k => k,
    })
}
