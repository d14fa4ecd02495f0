//! Parsing the notation (see [`crate::print`] for the styles).
//!
//! ```text
//! Int     ::= -?[0-9]+            static (dynamic in the Cpp style)
//!           | "_" -?[0-9]+        static (C++'s `_8`)
//!           | "{" -?[0-9]+ (":" [0-9]+)? "}"   dynamic, with a known divisor
//!           | "?" ("{div=" [0-9]+ "}")?        dynamic; the value is a representative (the divisor)
//! Coord   ::= Int | "_" | "(" ")" | "(" Coord ("," Coord)* ")"
//! Layout  ::= IntTuple ":" IntTuple           (congruent)
//! Tiler   ::= Layout | Int | "_" | "<" Tiler ("," Tiler)* ">"      (inside <>, n means n:1)
//! ```
//! Spaces are allowed between tokens. Every error carries the byte position where it was found.

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::str::FromStr;

use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::{Coord, IntTuple, Tuple};
use crate::layout::Layout;
use crate::print::{to_values, Style};
use crate::tiler::Tiler;

/// A recursive-descent parser over the notation; public so that expression languages (the
/// `cute` tool) can build on it.
pub struct Parser<'a> {
    text: &'a str,
    pos: usize,
    style: Style,
    depth: usize,
}

pub use crate::int_tuple::MAX_DEPTH;

impl<'a> Parser<'a> {
    /// A parser at the start of `text`; in the `Cpp` style a bare integer is dynamic.
    pub fn new(text: &'a str, style: Style) -> Parser<'a> {
        Parser { text, pos: 0, style, depth: 0 }
    }

    /// The current byte position.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// Enter one level of nesting (a tuple, a tiler, an expression's arguments).
    ///
    /// # Errors
    /// `Parse` past [`MAX_DEPTH`] levels.
    pub fn enter(&mut self) -> Result<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.error(alloc::format!("nesting deeper than {MAX_DEPTH} levels")));
        }
        Ok(())
    }

    /// Leave one level of nesting.
    pub fn leave(&mut self) {
        self.depth = self.depth.saturating_sub(1);
    }

    /// An error at the current position.
    pub fn error(&self, reason: impl Into<String>) -> Error {
        Error::Parse { pos: self.pos, reason: reason.into() }
    }

    fn bytes(&self) -> &[u8] {
        self.text.as_bytes()
    }

    /// The character at the current position, quoted, for messages.
    fn found(&mut self) -> String {
        self.peek();
        match self.text.get(self.pos..).and_then(|t| t.chars().next()) {
            Some(c) => alloc::format!("'{c}'"),
            None => "end of input".to_string(),
        }
    }

    /// Skip spaces, then the next byte without consuming it.
    pub fn peek(&mut self) -> Option<u8> {
        while self.bytes().get(self.pos).is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
        self.bytes().get(self.pos).copied()
    }

    /// Consume `c` if it is next.
    pub fn eat(&mut self, c: u8) -> bool {
        if self.peek() == Some(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Require `c` next.
    ///
    /// # Errors
    /// `Parse` naming what was expected and what was found.
    pub fn expect(&mut self, c: u8) -> Result<()> {
        if self.eat(c) {
            return Ok(());
        }
        let found = self.found();
        Err(self.error(alloc::format!("expected '{}', found {found}", c as char)))
    }

    /// Require the end of the input.
    ///
    /// # Errors
    /// `Parse` at the first unconsumed byte.
    pub fn finish(&mut self) -> Result<()> {
        match self.peek() {
            None => Ok(()),
            Some(_) => {
                let found = self.found();
                Err(self.error(alloc::format!("unexpected {found} after the end")))
            }
        }
    }

    /// Consume an identifier (`[A-Za-z][A-Za-z0-9_]*`), if one is next. A word goes on through
    /// non-ASCII letters, so that an error names all of it (`sizé`, not `siz`); no name has one.
    pub fn ident(&mut self) -> Option<&'a str> {
        self.peek();
        let start = self.pos;
        if !self.bytes().get(start).is_some_and(|c| c.is_ascii_alphabetic()) {
            return None;
        }
        let rest = &self.text[start..];
        let len = rest.char_indices().find(|&(_, c)| !(c.is_alphanumeric() || c == '_')).map_or(rest.len(), |(i, _)| i);
        self.pos = start + len;
        Some(&rest[..len])
    }

    /// An integer literal of type `T` (`signed`: an optional leading `-`).
    fn literal<T: core::str::FromStr>(&mut self, signed: bool, what: &str) -> Result<T> {
        self.peek();
        let (start, b) = (self.pos, self.bytes());
        let mut end = start;
        if signed && b.get(end) == Some(&b'-') {
            end += 1;
        }
        let digits = end;
        while b.get(end).is_some_and(u8::is_ascii_digit) {
            end += 1;
        }
        if end == digits {
            return Err(self.error(alloc::format!("expected {what}")));
        }
        let v = self.text[start..end].parse::<T>().map_err(|_| self.error("integer out of range"))?;
        self.pos = end;
        Ok(v)
    }

    fn number(&mut self) -> Result<i64> {
        self.literal(true, "an integer")
    }

    /// A divisor: up to `u64::MAX` (a divisor of `i64::MIN` is 2^63, past `i64::MAX`).
    fn unsigned(&mut self) -> Result<u64> {
        self.literal(false, "a non-negative integer")
    }

    /// A leaf: an integer in any of its forms, or `_` (`None`).
    ///
    /// # Errors
    /// `Parse`.
    pub fn leaf(&mut self) -> Result<Option<Int>> {
        let at = self.pos;
        match self.peek() {
            Some(b'_') => {
                self.pos += 1;
                match self.bytes().get(self.pos) {
                    Some(c) if c.is_ascii_digit() || *c == b'-' => Ok(Some(Int::st(self.number()?))),
                    _ => Ok(None),
                }
            }
            Some(b'{') => {
                self.pos += 1;
                let v = self.number()?;
                let d = if self.eat(b':') { self.unsigned()? } else { 1 };
                self.expect(b'}')?;
                Int::dy_div(v, d).map(Some).map_err(|e| Error::Parse { pos: at, reason: e.to_string() })
            }
            Some(b'?') => {
                self.pos += 1;
                let mut d = 1;
                if self.eat(b'{') {
                    for c in "div=".bytes() {
                        self.expect(c)?;
                    }
                    d = self.unsigned()?;
                    self.expect(b'}')?;
                }
                // The DSL hides the value: any multiple of d stands for it (2^63 only divides
                // i64::MIN).
                let v = if d == 1 << 63 {
                    i64::MIN
                } else {
                    i64::try_from(d).map_err(|_| self.error("divisor out of range"))?
                };
                Int::dy_div(v, d).map(Some).map_err(|e| Error::Parse { pos: at, reason: e.to_string() })
            }
            Some(c) if c.is_ascii_digit() || c == b'-' => {
                let v = self.number()?;
                Ok(Some(if self.style == Style::Cpp { Int::dy(v) } else { Int::st(v) }))
            }
            _ => {
                let found = self.found();
                Err(self.error(alloc::format!("expected an integer, '_' or '(', found {found}")))
            }
        }
    }

    /// A coordinate or tuple (leaves may be `_`).
    ///
    /// # Errors
    /// `Parse`.
    pub fn coord(&mut self) -> Result<Coord> {
        if !self.eat(b'(') {
            return Ok(Tuple::Leaf(self.leaf()?));
        }
        self.enter()?;
        let mut v = Vec::new();
        if !self.eat(b')') {
            loop {
                v.push(self.coord()?);
                if self.eat(b')') {
                    break;
                }
                self.expect(b',')?;
            }
        }
        self.leave();
        Ok(Tuple::Node(v))
    }

    /// A stride tuple whose leaves are integers `v` (`(v, None)`) or scaled-basis elements
    /// `v@i` (`(v, Some(i))`, CuTe's `E<i>` scaled by `v`; `i < 64`).
    ///
    /// # Errors
    /// `Parse`.
    pub fn basis_strides(&mut self) -> Result<Tuple<(Int, Option<usize>)>> {
        if self.eat(b'(') {
            self.enter()?;
            let mut v = Vec::new();
            if !self.eat(b')') {
                loop {
                    v.push(self.basis_strides()?);
                    if self.eat(b')') {
                        break;
                    }
                    self.expect(b',')?;
                }
            }
            self.leave();
            return Ok(Tuple::Node(v));
        }
        self.peek();
        let at = self.pos;
        let v = self.leaf()?.ok_or_else(|| Error::Parse { pos: at, reason: "'_' in a stride".into() })?;
        if !self.eat(b'@') {
            return Ok(Tuple::Leaf((v, None)));
        }
        self.peek();
        let at = self.pos;
        let i = self.leaf()?.map(|i| i.value()).filter(|i| (0..64).contains(i));
        let i = i.ok_or_else(|| Error::Parse { pos: at, reason: "a basis index 0 to 63 after '@'".into() })?;
        Ok(Tuple::Leaf((v, Some(i as usize))))
    }

    /// An IntTuple (no `_`).
    ///
    /// # Errors
    /// `Parse`, naming the position of a stray `_`.
    pub fn int_tuple(&mut self) -> Result<IntTuple> {
        self.peek();
        let at = self.pos;
        let c = self.coord()?;
        no_underscore(&c, at)
    }

    /// A layout `shape:stride`.
    ///
    /// # Errors
    /// `Parse`, including shape and stride that are not congruent.
    pub fn layout(&mut self) -> Result<Layout> {
        self.peek();
        let shape_at = self.pos;
        let shape = self.int_tuple()?;
        self.expect(b':')?;
        self.peek();
        let at = self.pos;
        let stride = self.int_tuple()?;
        Parser::make_layout(shape, shape_at, stride, at)
    }

    /// `Layout::new` with its error as a parse error: at the stride (`stride_at`) when the two
    /// are not congruent, at the shape (`shape_at`) for a bad shape.
    ///
    /// # Errors
    /// `Parse`.
    pub fn make_layout(shape: IntTuple, shape_at: usize, stride: IntTuple, stride_at: usize) -> Result<Layout> {
        Layout::new(shape, stride).map_err(|e| {
            let pos = if matches!(e, Error::NotCongruent { .. }) { stride_at } else { shape_at };
            Error::Parse { pos, reason: e.to_string() }
        })
    }

    /// A tiler: a layout, an integer, `_`, or `<...>`.
    ///
    /// # Errors
    /// `Parse`.
    pub fn tiler(&mut self) -> Result<Tiler> {
        if self.eat(b'<') {
            self.enter()?;
            let mut v = Vec::new();
            // `<>`: the empty by-mode tiler (the shape tiler of `()`).
            if self.eat(b'>') {
                self.leave();
                return Ok(Tiler::ByMode(v));
            }
            loop {
                v.push(self.tiler()?);
                if self.eat(b'>') {
                    self.leave();
                    return Ok(Tiler::ByMode(v));
                }
                self.expect(b',')?;
            }
        }
        self.peek();
        let at = self.pos;
        let c = self.coord()?;
        if self.eat(b':') {
            let shape = no_underscore(&c, at)?;
            self.peek();
            let stride_at = self.pos;
            let stride = self.int_tuple()?;
            return Parser::make_layout(shape, at, stride, stride_at).map(Tiler::Layout);
        }
        Ok(match c {
            Tuple::Leaf(Some(n)) => Tiler::Int(n),
            Tuple::Leaf(None) => Tiler::Under,
            // A tuple of integers is a by-mode shape tiler (CuTe's Shape as a Tiler).
            Tuple::Node(_) => Tiler::from_shape(&no_underscore(&c, at)?),
        })
    }
}

impl Parser<'_> {
    /// `Sw<B,M,S>`, after its `Sw` was read.
    ///
    /// # Errors
    /// `Parse`; `InvalidArgument` for parameters `Swizzle::new` refuses.
    pub fn swizzle_params(&mut self) -> Result<crate::Swizzle> {
        self.expect(b'<')?;
        let mut a = [0i64; 3];
        for (k, x) in a.iter_mut().enumerate() {
            if k > 0 {
                self.expect(b',')?;
            }
            self.peek();
            let here = self.pos;
            *x = self.leaf()?.ok_or_else(|| Error::Parse { pos: here, reason: "expected an integer".into() })?.value();
        }
        self.expect(b'>')?;
        // Well-formed text with parameters Swizzle refuses: its error, not a syntax error.
        crate::Swizzle::new(a[0], a[1], a[2])
    }

    /// After a function (a swizzle or a layout): ` o OFFSET o F o OFFSET o ... o F` makes a
    /// composed layout, outermost function first (`None` when no `o` follows: the function
    /// alone).
    ///
    /// # Errors
    /// `Parse`.
    pub fn composed_rest(&mut self, first: crate::swizzle::Func) -> Result<Option<crate::ComposedLayout>> {
        let mut funcs = alloc::vec![first];
        let mut offsets = Vec::new();
        loop {
            let save = self.pos;
            if self.ident() != Some("o") {
                self.pos = save;
                break;
            }
            self.peek();
            let at = self.pos;
            let offset = self.leaf()?.ok_or_else(|| Error::Parse { pos: at, reason: "expected an offset".into() })?;
            if self.ident() != Some("o") {
                return Err(self.error("expected 'o' and the inner function"));
            }
            offsets.push(offset);
            funcs.push(self.func()?);
        }
        let inner = funcs.pop().expect("one function more than offsets");
        // Innermost first: `F0 o O0 o F1 o O1 o F2` is F0(O0 + F1(O1 + F2(c))).
        let mut levels = funcs.into_iter().zip(offsets).rev();
        let Some((f, o)) = levels.next() else { return Ok(None) };
        Ok(Some(levels.fold(crate::ComposedLayout::of(f, o, inner), |c, (f, o)| c.within(f, o))))
    }

    /// One function of a composition: `Sw<B,M,S>` or a layout.
    ///
    /// # Errors
    /// `Parse`.
    pub fn func(&mut self) -> Result<crate::swizzle::Func> {
        self.peek();
        let save = self.pos;
        if self.ident() == Some("Sw") {
            return Ok(crate::swizzle::Func::Swizzle(self.swizzle_params()?));
        }
        self.pos = save;
        Ok(crate::swizzle::Func::Layout(self.layout()?))
    }
}

/// `F o OFFSET o F ...`, as CuTe C++ prints a composed layout (`Sw<3,3,3> o 0 o (8,64):(64,1)`).
impl Parse for crate::ComposedLayout {
    fn parse_with(p: &mut Parser<'_>) -> Result<Self> {
        let first = p.func()?;
        p.composed_rest(first)?.ok_or_else(|| p.error("expected ' o OFFSET o ...' after the function"))
    }
}

fn no_underscore(c: &Coord, at: usize) -> Result<IntTuple> {
    c.try_map(&mut |x| {
        // Lazily: building the message per leaf made parsing quadratic.
        x.ok_or_else(|| Error::Parse { pos: at, reason: alloc::format!("'_' is not allowed in {}", to_values(c)) })
    })
}

/// Parse a whole text as one `T` in the given style.
///
/// # Errors
/// `Parse` with the byte position.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// let l: Layout = parse_styled("(_2,(_1,6)):(_1,(6,_2))", Style::Cpp)?;
/// assert_eq!(l.to_styled(Style::Dsl), "(2,(1,?)):(1,(?,2))");
/// let e = "(2,3:(1,2)".parse::<Layout>().unwrap_err();
/// assert_eq!(e, Error::Parse { pos: 4, reason: "expected ',', found ':'".into() });
/// # Ok::<(), Error>(())
/// ```
pub fn parse_styled<T: Parse>(text: &str, style: Style) -> Result<T> {
    let mut p = Parser::new(text, style);
    let v = T::parse_with(&mut p)?;
    p.finish()?;
    Ok(v)
}

/// Types with a grammar rule.
pub trait Parse: Sized {
    /// Parse one value at the parser's position.
    ///
    /// # Errors
    /// `Parse`.
    fn parse_with(p: &mut Parser<'_>) -> Result<Self>;
}

impl Parse for IntTuple {
    fn parse_with(p: &mut Parser<'_>) -> Result<Self> {
        p.int_tuple()
    }
}
impl Parse for Coord {
    fn parse_with(p: &mut Parser<'_>) -> Result<Self> {
        p.coord()
    }
}
impl Parse for Layout {
    fn parse_with(p: &mut Parser<'_>) -> Result<Self> {
        p.layout()
    }
}
impl Parse for Tiler {
    fn parse_with(p: &mut Parser<'_>) -> Result<Self> {
        p.tiler()
    }
}
impl Parse for Int {
    fn parse_with(p: &mut Parser<'_>) -> Result<Self> {
        p.peek();
        let at = p.pos();
        p.leaf()?.ok_or_else(|| Error::Parse { pos: at, reason: "'_' is not an integer".into() })
    }
}

macro_rules! from_str_values {
    ($($t:ty),*) => {$(
        impl FromStr for $t {
            type Err = Error;
            fn from_str(s: &str) -> Result<Self> {
                parse_styled(s, Style::Values)
            }
        }
    )*};
}
from_str_values!(IntTuple, Coord, Layout, Tiler, Int, crate::ComposedLayout);
