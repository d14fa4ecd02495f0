//! The literal grammar, parsed from token trees.
//!
//! ```text
//! Input   ::= KRATE ";" Literal           (KRATE: the `$crate` path the wrappers pass)
//! Any     ::= Swizzle "o" (Leaf "o")? Layout | Layout      (layout! and Layout! only)
//! Swizzle ::= "Sw" "<" INT "," INT "," "-"? INT ">"
//! Layout  ::= Tuple (":" (Tuple | "LayoutLeft" | "LayoutRight"))?
//! Tuple   ::= Leaf | "(" ")" | "(" Tuple ("," Tuple)* ","? ")"
//! Leaf    ::= INT | "-" INT | "{" EXPR "}"
//! Tiler   ::= "<" Elem ("," Elem)* ">" | Layout   (a tuple shape alone: by-mode, `<..>`)
//! Elem    ::= Layout | "_" | Tiler
//! ```
//! The parser keeps every span so that validation can point at the offending token.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};
use syn::Error;

/// An integer leaf.
/// Whether a run-time leaf is written `usize` (a type's leaf) rather than `{expr}`.
pub fn is_usize(e: &TokenStream) -> bool {
    let mut it = e.clone().into_iter();
    matches!((it.next(), it.next()), (Some(TokenTree::Ident(i)), None) if i == "usize")
}

pub enum Leaf {
    /// A literal (negative literals are parsed so that they can be refused with a span).
    Static(i128),
    /// `{expr}`: a run-time value evaluated in the caller's scope.
    Dyn(TokenStream),
}

/// A hierarchical tuple with spans.
pub enum Node {
    Leaf(Leaf, Span),
    Tuple(Vec<Node>, Span),
}

impl Node {
    pub fn span(&self) -> Span {
        match self {
            Node::Leaf(_, s) | Node::Tuple(_, s) => *s,
        }
    }
}

/// The stride part of a layout literal.
pub enum Stride {
    Explicit(Node),
    /// Compact column-major (also what a shape alone means).
    Left,
    /// Compact row-major.
    Right,
}

pub struct LayoutLit {
    pub shape: Node,
    pub stride: Stride,
}

/// `Sw<B,M,S>`: the three parameters with their spans.
pub struct SwizzleLit {
    pub params: [(i128, Span); 3],
}

/// `Sw<B,M,S> o OFFSET o LAYOUT` (the offset 0 when not written), as CuTe C++ prints it.
pub struct ComposedLit {
    pub swizzle: SwizzleLit,
    pub offset: Option<Node>,
    pub inner: LayoutLit,
}

/// What `layout!` and `Layout!` accept.
pub enum AnyLayout {
    Plain(LayoutLit),
    Composed(ComposedLit),
}

pub enum TilerLit {
    Layout(LayoutLit),
    Under,
    ByMode(Vec<TilerLit>),
}

/// Split `krate ; rest`.
pub fn split_krate(input: TokenStream) -> Result<(TokenStream, Vec<TokenTree>), Error> {
    let mut krate = TokenStream::new();
    let mut it = input.into_iter();
    for t in it.by_ref() {
        if matches!(&t, TokenTree::Punct(p) if p.as_char() == ';') {
            return Ok((krate, it.collect()));
        }
        krate.extend([t]);
    }
    Err(Error::new(Span::call_site(), "internal: expected `$crate;` before the literal"))
}

/// The tokens with invisible groups opened: a `macro_rules!` fragment (`$n:literal`) reaches a
/// proc macro wrapped in a group without delimiters, which reads as its tokens.
fn flatten_invisible(toks: Vec<TokenTree>) -> Vec<TokenTree> {
    let mut out = Vec::with_capacity(toks.len());
    for t in toks {
        match t {
            TokenTree::Group(g) if g.delimiter() == Delimiter::None => {
                out.extend(flatten_invisible(g.stream().into_iter().collect()))
            }
            t => out.push(t),
        }
    }
    out
}

/// A cursor over token trees.
pub struct Cursor {
    toks: Vec<TokenTree>,
    pos: usize,
    /// Where the input ends, for "expected ..., found the end" messages.
    end: Span,
}

impl Cursor {
    pub fn new(toks: Vec<TokenTree>, end: Span) -> Cursor {
        Cursor { toks: flatten_invisible(toks), pos: 0, end }
    }

    fn peek(&self) -> Option<&TokenTree> {
        self.toks.get(self.pos)
    }

    fn peek_punct(&self, c: char) -> bool {
        matches!(self.peek(), Some(TokenTree::Punct(p)) if p.as_char() == c)
    }

    fn here(&self) -> Span {
        self.peek().map_or(self.end, TokenTree::span)
    }

    fn bump(&mut self) -> Option<TokenTree> {
        let t = self.toks.get(self.pos).cloned();
        self.pos += 1;
        t
    }

    /// Require the end of the input.
    pub fn finish(&self, what: &str) -> Result<(), Error> {
        match self.peek() {
            None => Ok(()),
            Some(t) => Err(Error::new(t.span(), format!("unexpected `{t}` after the {what}"))),
        }
    }

    fn found(&self) -> String {
        self.peek().map_or_else(|| "the end of the literal".to_string(), |t| format!("`{t}`"))
    }

    /// `Tuple`.
    pub fn tuple(&mut self) -> Result<Node, Error> {
        let span = self.here();
        match self.bump() {
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis => {
                let mut inner = Cursor::new(g.stream().into_iter().collect(), g.span_close());
                let mut modes = Vec::new();
                while inner.peek().is_some() {
                    modes.push(inner.tuple()?);
                    if inner.peek().is_none() {
                        break;
                    }
                    if !inner.peek_punct(',') {
                        return Err(Error::new(inner.here(), format!("expected `,` or `)`, found {}", inner.found())));
                    }
                    inner.bump();
                }
                Ok(Node::Tuple(modes, g.span()))
            }
            Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Brace => {
                if g.stream().is_empty() {
                    return Err(Error::new(g.span(), "an empty `{}`: write a run-time value inside, e.g. `{n}`"));
                }
                Ok(Node::Leaf(Leaf::Dyn(g.stream()), g.span()))
            }
            // `usize`: a run-time leaf of a layout *type* (`Layout![(usize,8):(1,usize)]`, a
            // kernel parameter's type); in a value, `{expr}` gives the value.
            Some(TokenTree::Ident(i)) if i == "usize" => Ok(Node::Leaf(Leaf::Dyn(TokenTree::Ident(i).into()), span)),
            Some(TokenTree::Literal(l)) => Ok(Node::Leaf(Leaf::Static(int_literal(&l)?), span)),
            Some(TokenTree::Punct(p)) if p.as_char() == '-' => match self.bump() {
                Some(TokenTree::Literal(l)) => {
                    let span = p.span().join(l.span()).unwrap_or(p.span());
                    Ok(Node::Leaf(Leaf::Static(-int_literal(&l)?), span))
                }
                _ => Err(Error::new(p.span(), "expected an integer after `-`")),
            },
            Some(t) => Err(Error::new(t.span(), format!("expected an integer, `{{expr}}` or `(`, found `{t}`"))),
            None => Err(Error::new(self.end, "expected an integer, `{expr}` or `(`, found the end of the literal")),
        }
    }

    fn peek_ident(&self, name: &str) -> bool {
        matches!(self.peek(), Some(TokenTree::Ident(i)) if i == name)
    }

    fn expect_punct(&mut self, c: char, what: &str) -> Result<(), Error> {
        if !self.peek_punct(c) {
            return Err(Error::new(self.here(), format!("expected `{c}` {what}, found {}", self.found())));
        }
        self.bump();
        Ok(())
    }

    /// `Any`: a layout, or a swizzle composed with one.
    pub fn any_layout(&mut self) -> Result<AnyLayout, Error> {
        if !self.peek_ident("Sw") {
            return Ok(AnyLayout::Plain(self.layout()?));
        }
        self.bump();
        self.expect_punct('<', "after `Sw`")?;
        let mut params = [(0, self.end); 3];
        for (i, p) in params.iter_mut().enumerate() {
            let span = self.here();
            let negative = i == 2 && self.peek_punct('-');
            if negative {
                self.bump();
            }
            *p = match self.bump() {
                Some(TokenTree::Literal(l)) => {
                    let v = int_literal(&l)?;
                    (if negative { -v } else { v }, span.join(l.span()).unwrap_or(span))
                }
                _ => return Err(Error::new(span, "expected an integer parameter of `Sw<B,M,S>`")),
            };
            self.expect_punct(if i == 2 { '>' } else { ',' }, "in `Sw<B,M,S>`")?;
        }
        if !self.peek_ident("o") {
            return Err(Error::new(self.here(), format!("expected `o` after the swizzle, found {}", self.found())));
        }
        self.bump();
        // `Sw o OFFSET o L` or `Sw o L`: a leaf followed by `o` is the offset.
        let first = self.tuple()?;
        let (offset, shape) = if self.peek_ident("o") {
            self.bump();
            (Some(first), self.tuple()?)
        } else {
            (None, first)
        };
        let inner = self.layout_of(shape)?;
        Ok(AnyLayout::Composed(ComposedLit { swizzle: SwizzleLit { params }, offset, inner }))
    }

    /// `Layout`.
    pub fn layout(&mut self) -> Result<LayoutLit, Error> {
        let shape = self.tuple()?;
        self.layout_of(shape)
    }

    /// The rest of a `Layout` after its shape.
    fn layout_of(&mut self, shape: Node) -> Result<LayoutLit, Error> {
        if !self.peek_punct(':') {
            return Ok(LayoutLit { shape, stride: Stride::Left });
        }
        self.bump();
        let stride = match self.peek() {
            Some(TokenTree::Ident(i)) if i == "LayoutLeft" => {
                self.bump();
                Stride::Left
            }
            Some(TokenTree::Ident(i)) if i == "LayoutRight" => {
                self.bump();
                Stride::Right
            }
            _ => Stride::Explicit(self.tuple()?),
        };
        Ok(LayoutLit { shape, stride })
    }

    /// `Tiler` (or `Elem` when `elem`).
    pub fn tiler(&mut self, elem: bool) -> Result<TilerLit, Error> {
        if elem {
            if let Some(TokenTree::Ident(i)) = self.peek() {
                if i == "_" {
                    self.bump();
                    return Ok(TilerLit::Under);
                }
            }
        }
        if !self.peek_punct('<') {
            let shape = self.tuple()?;
            if matches!(shape, Node::Tuple(..)) && !self.peek_punct(':') {
                // A shape alone is a by-mode tiler, as C++'s `make_tile(Shape<_2,_2>{}, ..)`
                // and cute-dyn's parser read it; `(2,2):(1,2)` is the layout.
                return Ok(shape_tiler(shape));
            }
            return Ok(TilerLit::Layout(self.layout_of(shape)?));
        }
        let open = self.here();
        self.bump();
        let mut elems = Vec::new();
        loop {
            elems.push(self.tiler(true)?);
            if self.peek_punct('>') {
                self.bump();
                return Ok(TilerLit::ByMode(elems));
            }
            if !self.peek_punct(',') {
                if self.peek().is_none() {
                    return Err(Error::new(open, "unbalanced `<`: this tiler is never closed with `>`"));
                }
                return Err(Error::new(self.here(), format!("expected `,` or `>`, found {}", self.found())));
            }
            self.bump();
        }
    }
}

/// A shape read as a tiler: a tuple is by-mode, a leaf the layout `n:1`.
fn shape_tiler(shape: Node) -> TilerLit {
    match shape {
        Node::Tuple(elems, _) => TilerLit::ByMode(elems.into_iter().map(shape_tiler).collect()),
        leaf => TilerLit::Layout(LayoutLit { shape: leaf, stride: Stride::Left }),
    }
}

/// An unsigned decimal (or `0x`/`0b`/`0o`) literal without a suffix, as i128.
fn int_literal(l: &proc_macro2::Literal) -> Result<i128, Error> {
    let lit: syn::LitInt = syn::parse_str(&l.to_string())
        .map_err(|_| Error::new(l.span(), format!("expected an integer, found `{l}`")))?;
    if !lit.suffix().is_empty() {
        return Err(Error::new(l.span(), format!("an integer literal without a suffix, found `{l}`")));
    }
    let v: u64 = lit.base10_parse().map_err(|_| Error::new(l.span(), format!("`{l}` is larger than u64::MAX")))?;
    Ok(i128::from(v))
}
