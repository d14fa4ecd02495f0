//! Printing in the three styles of the notation.
//!
//! | style | static `8` | dynamic 8 | dynamic 24, divisor 8 |
//! |---|---|---|---|
//! | `Values` (canonical, `Display`) | `8` | `{8}` | `{24:8}` |
//! | `Cpp` (CuTe C++ `print`) | `_8` | `8` | `24` |
//! | `Dsl` (CuTe DSL trace-time `print`) | `8` | `?` | `?{div=8}` |
//!
//! No spaces anywhere; `(4)` is a rank-1 tuple, `()` the empty tuple, `_` the slicing
//! underscore, `<...>` a by-mode tiler.

use alloc::string::String;
use core::fmt::{self, Write};

use crate::int::Int;
use crate::int_tuple::Tuple;
use crate::layout::Layout;
use crate::modes::{Nest, CLOSE, OPEN};
use crate::tiler::Tiler;

/// How integers are written.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Style {
    /// Canonical: static as the value, dynamic as `{v}` or `{v:div}`.
    #[default]
    Values,
    /// CuTe C++: static as `_N`, dynamic as the value.
    Cpp,
    /// CuTe DSL: static as the value, dynamic as `?` or `?{div=N}`.
    Dsl,
}

/// Anything that prints in the notation.
pub trait Notation {
    /// Append the text in `style` to `out`.
    fn write_styled(&self, style: Style, out: &mut String);

    /// The text in `style`.
    fn to_styled(&self, style: Style) -> String {
        let mut s = String::new();
        self.write_styled(style, &mut s);
        s
    }
}

impl Notation for Int {
    fn write_styled(&self, style: Style, out: &mut String) {
        let (v, d) = (self.value(), self.divisor());
        let _ = match (style, self.is_static()) {
            (Style::Cpp, true) => write!(out, "_{v}"),
            (_, true) | (Style::Cpp, false) => write!(out, "{v}"),
            (Style::Values, false) if d > 1 => write!(out, "{{{v}:{d}}}"),
            (Style::Values, false) => write!(out, "{{{v}}}"),
            (Style::Dsl, false) if d > 1 => write!(out, "?{{div={d}}}"),
            (Style::Dsl, false) => write!(out, "?"),
        };
    }
}

impl Notation for Option<Int> {
    fn write_styled(&self, style: Style, out: &mut String) {
        match self {
            Some(x) => x.write_styled(style, out),
            None => out.push('_'),
        }
    }
}

impl<T: Notation> Notation for Tuple<T> {
    fn write_styled(&self, style: Style, out: &mut String) {
        match self {
            Tuple::Leaf(x) => x.write_styled(style, out),
            Tuple::Node(v) => write_list(v, style, out, '(', ')'),
        }
    }
}

fn write_list<T: Notation>(v: &[T], style: Style, out: &mut String, open: char, close: char) {
    out.push(open);
    for (i, x) in v.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        x.write_styled(style, out);
    }
    out.push(close);
}

impl Notation for Layout {
    fn write_styled(&self, style: Style, out: &mut String) {
        // From the flat form: no tree is built to print one.
        write_side(self.nest(), style, out, |p| p.0);
        out.push(':');
        write_side(self.nest(), style, out, |p| p.1);
    }
}

/// The shapes or the strides of a layout, in the nesting of its code.
fn write_side(n: Nest<'_>, style: Style, out: &mut String, side: fn((Int, Int)) -> Int) {
    let mut leaves = n.pairs.iter();
    // A comma goes before every mode but the first of its tuple.
    let mut first = true;
    for &t in n.code {
        if t != CLOSE && !first {
            out.push(',');
        }
        match t {
            OPEN => out.push('('),
            CLOSE => out.push(')'),
            _ => side(*leaves.next().expect("a pair per leaf")).write_styled(style, out),
        }
        first = t == OPEN;
    }
}

impl Notation for Tiler {
    fn write_styled(&self, style: Style, out: &mut String) {
        match self {
            Tiler::Layout(l) => l.write_styled(style, out),
            Tiler::Int(n) => n.write_styled(style, out),
            Tiler::Under => out.push('_'),
            Tiler::ByMode(v) => write_list(v, style, out, '<', '>'),
        }
    }
}

impl Layout {
    /// The text in `style` (inherent shortcut for [`Notation::to_styled`]).
    pub fn to_styled(&self, style: Style) -> String {
        Notation::to_styled(self, style)
    }
}

/// The canonical (values) text.
pub fn to_values<T: Notation>(x: &T) -> String {
    x.to_styled(Style::Values)
}

macro_rules! display_values {
    ($($t:ty),*) => {$(
        impl fmt::Display for $t {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&to_values(self))
            }
        }
    )*};
}
display_values!(Int, Tuple<Int>, Tuple<Option<Int>>, Layout, Tiler);
