//! The expression language of `cute eval`: a literal in the notation, or `op(arg,...)` with
//! CuTe's operation names (nesting allowed).
//!
//! ```text
//! Expr ::= ident "(" (Expr ("," Expr)*)? ")"     an operation
//!        | "Sw<" INT "," INT "," INT ">"         a swizzle
//!        | ATOM                                  an MMA atom by its CuTe name, as a tiled MMA
//!                                                (`make_tiled_mma(atom)`), e.g. `UniversalFMA`
//!        | COPY ("<" ident ">")?                 a copy atom by its CuTe name, e.g.
//!                                                `UniversalCopy<uint128_t>`, `SM75_U32x4_LDSM_N`
//!        | "<" ... ">"                           a by-mode tiler
//!        | Coord (":" IntTuple)?                 an integer, tuple, coordinate or layout
//! ```
//! Integer results print in decimal, pairs as `[A,B]`, booleans as `true`/`false`.

use std::string::String;
use std::vec::Vec;

use cute_dyn::basis::{BasisLayout, IdentityTensor};
use cute_dyn::copy::{CopyAtom, TiledCopy};
use cute_dyn::linear::{BitMap, CuteForm};
use cute_dyn::mma::{MmaAtom, TiledMma};
use cute_dyn::{
    self as dy, post, swizzle::Func, ComposedLayout, Coord, Error, Int, IntTuple, Layout, Notation, Parser, Result,
    Style, Swizzle, Tiler, Tuple,
};

/// A value of the expression language.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// An integer.
    Int(Int),
    /// A truth value (congruent, compatible, ...).
    Bool(bool),
    /// An IntTuple or a coordinate (which may hold `_`).
    Tuple(Coord),
    /// A layout.
    Layout(Layout),
    /// A by-mode tiler.
    Tiler(Tiler),
    /// Two results, e.g. slice_and_offset's (layout, offset).
    Pair(Box<Value>, Box<Value>),
    /// A swizzle functor.
    Swizzle(Swizzle),
    /// A swizzled layout.
    Composed(ComposedLayout),
    /// A tiled MMA (an atom by its name is `make_tiled_mma(atom)`).
    Mma(Box<TiledMma>),
    /// A layout with scaled-basis strides (`(4,8):(1@0,1@1)`): its values are coordinates.
    Basis(BasisLayout),
    /// An identity tensor: a coordinate origin and a basis layout.
    Identity(Box<IdentityTensor>),
    /// A copy atom by its CuTe name (`UniversalCopy<uint128_t>`, `SM75_U32x4_LDSM_N`), its
    /// element width given where it is tiled.
    CopyAtom(String),
    /// A tiled copy.
    Copy(Box<TiledCopy>),
    /// A bare name an operation takes: a GMMA major (`K`, `MN`) or an element type (`half_t`).
    Name(String),
    /// A `wgmma` shared-memory descriptor.
    GmmaDesc(dy::gmma::GmmaDesc),
    /// A TMA tensor map's parameters.
    TmaDesc(Box<dy::tma::TmaDesc>),
    /// A map over bits (`bits(...)`): a layout's, or an XOR map of offsets.
    Bits(dy::linear::BitMap),
}

impl Value {
    /// The text of the value in `style`.
    pub fn to_styled(&self, style: Style) -> String {
        match self {
            Value::Int(i) => i.to_styled(style),
            Value::Bool(b) => b.to_string(),
            Value::Tuple(t) => t.to_styled(style),
            Value::Layout(l) => l.to_styled(style),
            Value::Tiler(t) => t.to_styled(style),
            Value::Pair(a, b) => format!("[{},{}]", a.to_styled(style), b.to_styled(style)),
            Value::Swizzle(s) => s.to_string(),
            Value::Composed(c) => c.to_styled(style),
            Value::Mma(m) => format!(
                "TiledMMA({}, ThrLayoutVMNK {}, PermutationMNK {})",
                m.atom().name,
                m.thr_layout_vmnk().to_styled(style),
                m.permutation_mnk().iter().map(|t| t.to_styled(style)).collect::<Vec<_>>().join(" ")
            ),
            Value::Basis(b) => b.to_styled(style),
            Value::Identity(t) => t.to_styled(style),
            Value::CopyAtom(name) => name.clone(),
            Value::Copy(c) => format!(
                "TiledCopy({}, Tiler_MN {}, TiledLayout_TV {})",
                c.atom().name,
                c.tiler_mn().to_styled(style),
                c.layout_tv().to_styled(style)
            ),
            Value::Name(n) => n.clone(),
            Value::GmmaDesc(d) => d.to_string(),
            Value::TmaDesc(d) => d.to_string(),
            Value::Bits(b) => b.to_string(),
        }
    }

    /// The kind's name in `--format json`: `int`, `bool`, `tuple`, `layout`, `tiler`, `pair`,
    /// `swizzle`, `composed`, `mma`, `basis`, `identity`, `copy_atom`, `copy`, `name`, `gmma_desc`,
    /// `tma_desc`, `bits`.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Value::Int(_) => "int",
            Value::Bool(_) => "bool",
            Value::Tuple(_) => "tuple",
            Value::Layout(_) => "layout",
            Value::Tiler(_) => "tiler",
            Value::Pair(..) => "pair",
            Value::Swizzle(_) => "swizzle",
            Value::Composed(_) => "composed",
            Value::Mma(_) => "mma",
            Value::Basis(_) => "basis",
            Value::Identity(_) => "identity",
            Value::CopyAtom(_) => "copy_atom",
            Value::Copy(_) => "copy",
            Value::Name(_) => "name",
            Value::GmmaDesc(_) => "gmma_desc",
            Value::TmaDesc(_) => "tma_desc",
            Value::Bits(_) => "bits",
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            Value::Int(_) => "an integer",
            Value::Bool(_) => "a boolean",
            Value::Tuple(_) => "a tuple",
            Value::Layout(_) => "a layout",
            Value::Tiler(_) => "a tiler",
            Value::Pair(..) => "a pair",
            Value::Swizzle(_) => "a swizzle",
            Value::Composed(_) => "a composed layout",
            Value::Mma(_) => "a tiled MMA",
            Value::Basis(_) => "a basis layout",
            Value::Identity(_) => "an identity tensor",
            Value::CopyAtom(_) => "a copy atom",
            Value::Copy(_) => "a tiled copy",
            Value::Name(_) => "a name",
            Value::GmmaDesc(_) => "a GMMA descriptor",
            Value::TmaDesc(_) => "a TMA tensor map",
            Value::Bits(_) => "a map over bits",
        }
    }
}

/// Evaluate one expression given as text, in the canonical notation (a bare integer is static;
/// `_N`, `{v}`, `{v:d}` and `?{div=d}` are accepted too), and print the result in `style`.
///
/// # Errors
/// `Parse` with a byte position for malformed text or an unknown operation; the operation's
/// own error otherwise.
///
/// # Examples
/// ```
/// use cute_cli::eval::eval;
/// use cute_dyn::Style;
/// assert_eq!(eval("coalesce((2,(1,6)):(1,(6,2)))", Style::Values)?, "12:1");
/// assert_eq!(eval("slice_and_offset((_,1), (4,2):(2,1))", Style::Values)?, "[(4):(2),1]");
/// # Ok::<(), cute_dyn::Error>(())
/// ```
pub fn eval(text: &str, style: Style) -> Result<String> {
    Ok(eval_value(text)?.to_styled(style))
}

/// Evaluate one expression given as text to its value.
///
/// # Errors
/// As [`eval`].
pub fn eval_value(text: &str) -> Result<Value> {
    let mut p = Parser::new(text, Style::Values);
    let v = expr(&mut p)?;
    p.finish()?;
    Ok(v)
}

/// Parse and evaluate one expression at the parser's position.
///
/// # Errors
/// As [`eval`].
pub fn expr(p: &mut Parser<'_>) -> Result<Value> {
    expr_with(p, &mut None)
}

/// Evaluate one expression and run every operation's result through its `@post` check
/// ([`post_check`]): the answer (as [`eval`]), and the first violated postcondition, if any
/// (a bug in the library: the tests and the fuzzer require `None`).
///
/// # Examples
/// ```
/// use cute_cli::eval::eval_checked;
/// use cute_dyn::Style;
/// let (answer, violation) = eval_checked("logical_divide((4,2,3):(2,1,8), 4:2)", Style::Values);
/// assert_eq!(answer?, "((2,2),(2,3)):((4,1),(2,8))");
/// assert!(violation.is_none());
/// # Ok::<(), cute_dyn::Error>(())
/// ```
pub fn eval_checked(text: &str, style: Style) -> (Result<String>, Option<Error>) {
    let mut post = Some(None);
    let mut p = Parser::new(text, Style::Values);
    let answer = expr_with(&mut p, &mut post).and_then(|v| {
        p.finish()?;
        Ok(v.to_styled(style))
    });
    (answer, post.flatten())
}

/// [`expr`], checking results when `post` is `Some` (keeping the first violation in it).
fn expr_with(p: &mut Parser<'_>, post: &mut Option<Option<Error>>) -> Result<Value> {
    p.peek();
    let start = p.pos();
    if let Some(name) = p.ident() {
        if name == "Sw" {
            // A swizzle, or a composed layout `Sw<B,M,S> o OFFSET o LAYOUT` as C++ prints it.
            let sw = p.swizzle_params()?;
            return Ok(match p.composed_rest(dy::swizzle::Func::Swizzle(sw))? {
                Some(c) => Value::Composed(c),
                None => Value::Swizzle(sw),
            });
        }
        if matches!(name, "xor" | "bits") && p.peek() == Some(b'[') {
            // A map over bits as it prints: `xor[1,2,12]` (an XOR map of offsets) or
            // `bits[8,1]` (a layout's map of its index bits), the image of each bit.
            p.expect(b'[')?;
            let mut cols = Vec::new();
            while !p.eat(b']') {
                if !cols.is_empty() {
                    p.expect(b',')?;
                }
                let at = p.pos();
                match p.leaf()? {
                    Some(c) if c.value() >= 0 && cols.len() < 63 => cols.push(c.value() as u64),
                    _ => {
                        return Err(Error::Parse {
                            pos: at,
                            reason: "a column: a non-negative integer, at most 63 of them".into(),
                        })
                    }
                }
            }
            return Ok(Value::Bits(if name == "xor" { BitMap::xor_map(cols) } else { BitMap::from_columns(cols)? }));
        }
        if p.peek() == Some(b'<') {
            // A copy atom with its template argument, `UniversalCopy<uint128_t>`.
            p.expect(b'<')?;
            let arg = p
                .ident()
                .ok_or_else(|| Error::Parse { pos: p.pos(), reason: "a template argument (uint128_t)".into() })?;
            p.expect(b'>')?;
            if let Some(atom) = gmma_atom(name, arg) {
                return atom.map(maybe_composed);
            }
            return copy_atom(format!("{name}<{arg}>"), start);
        }
        if p.peek() != Some(b'(')
            && (matches!(name, "K" | "MN")
                || dy::gmma::element_bits(name).is_some()
                || dy::tma::tma_data_type(name).is_some())
        {
            // A GMMA major or an element type, as `gmma_desc` takes them.
            return Ok(Value::Name(name.into()));
        }
        if p.peek() != Some(b'(') {
            // An MMA atom (as a tiled MMA of one atom) or a copy atom by its CuTe name.
            return match MmaAtom::named(name) {
                Ok(atom) => Ok(Value::Mma(Box::new(TiledMma::new(atom, &Layout::leaf(Int::st(1), Int::st(0)), &[])?))),
                Err(_) => copy_atom(name.into(), start),
            };
        }
        p.expect(b'(')?;
        p.enter()?;
        let mut args = Vec::new();
        if !p.eat(b')') {
            loop {
                args.push(expr_with(p, post)?);
                if p.eat(b')') {
                    break;
                }
                p.expect(b',')?;
            }
        }
        p.leave();
        let v = apply(name, &args).map_err(|e| match e {
            Error::Parse { reason, .. } => Error::Parse { pos: start, reason },
            e => e,
        })?;
        if let Some(slot @ None) = post {
            *slot = post_check(name, &args, &v).err();
        }
        return Ok(v);
    }
    if p.peek() == Some(b'<') {
        return Ok(Value::Tiler(p.tiler()?));
    }
    let c = p.coord()?;
    if p.eat(b':') {
        p.peek();
        let at = p.pos();
        let shape = no_underscore(&c).map_err(|_| Error::Parse { pos: start, reason: "'_' in a shape".into() })?;
        let strides = p.basis_strides()?;
        if strides.leaves().iter().any(|(_, i)| i.is_some()) {
            // Scaled-basis strides `v@i`: a basis layout.
            return Ok(Value::Basis(BasisLayout::from_strides(shape, start, &strides, at)?));
        }
        let stride = strides.map(&mut |(v, _)| *v);
        let l = Parser::make_layout(shape, start, stride, at)?;
        // A layout as the outer function of a composition: `A o OFFSET o B`.
        return Ok(match p.composed_rest(dy::swizzle::Func::Layout(l.clone()))? {
            Some(c) => Value::Composed(c),
            None => Value::Layout(l),
        });
    }
    Ok(match c {
        Tuple::Leaf(Some(i)) => Value::Int(i),
        c => Value::Tuple(c),
    })
}

/// `GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>`, where `name<arg>` is one.
fn gmma_atom(name: &str, arg: &str) -> Option<Result<dy::MaybeComposed>> {
    let rest = name.strip_prefix("Layout_")?.strip_suffix("_Atom")?;
    let (major, kind) = rest.split_once('_')?;
    let major = match major {
        "K" => dy::gmma::Major::K,
        "MN" => dy::gmma::Major::MN,
        _ => return None,
    };
    let t = dy::gmma::LayoutType::of_atom_name(kind)?;
    Some(match dy::gmma::element_bits(arg) {
        Some(bits) => dy::gmma::gmma_layout_atom(major, t, bits),
        None => Err(bad(
            "gmma atom",
            format!("'{arg}' is not an element type wgmma reads (half_t, bfloat16_t, tfloat32_t, float_e4m3_t, ...)"),
        )),
    })
}

/// A copy atom's name, checked against the atoms cute-dyn knows.
fn copy_atom(name: String, pos: usize) -> Result<Value> {
    // The element width is given where the atom is tiled; 8 bits divide every atom.
    match CopyAtom::new(&name, 8) {
        Ok(_) => Ok(Value::CopyAtom(name)),
        Err(_) => Err(Error::Parse {
            pos,
            reason: format!(
                "'{name}' is neither an operation call nor an MMA or copy atom's name, nor an element type ({})",
                dy::tma::DATA_TYPES.join(", ")
            ),
        }),
    }
}

fn no_underscore(c: &Coord) -> Result<IntTuple> {
    c.try_map(&mut |x| {
        x.ok_or_else(|| Error::InvalidArgument { op: "eval", reason: "'_' where an IntTuple is needed".into() })
    })
}

fn bad(op: &'static str, reason: String) -> Error {
    Error::InvalidArgument { op, reason }
}

/// An argument that may be a layout or an IntTuple (`size`, `flatten`, `get`, ...).
// cute-dyn keeps a layout inline (no heap); boxing it here would undo that.
#[allow(clippy::large_enum_variant)]
enum Shaped {
    Layout(Layout),
    Tuple(IntTuple),
}

/// One operation of the language.
pub struct Op {
    /// CuTe's name.
    pub name: &'static str,
    /// The least and the most arguments it takes.
    pub args: (usize, usize),
    /// Its arguments' kinds and its result's: `composition(layout, tiler) -> layout`.
    pub signature: &'static str,
    /// One line, with the CuTe reference.
    pub doc: &'static str,
    /// An expression that uses it (`cute ops NAME` evaluates it).
    pub example: &'static str,
    /// Its evaluation.
    pub eval: fn(&Args<'_>) -> Result<Value>,
}

/// An operation's evaluated arguments, with the conversions the notation allows (an integer
/// is a leaf tuple, a layout is a tiler, a tuple of integers is a shape tiler, ...).
pub struct Args<'a> {
    op: &'static str,
    v: &'a [Value],
}

impl Args<'_> {
    fn count(&self, lo: usize, hi: usize) -> Result<()> {
        if self.v.len() < lo || self.v.len() > hi {
            let want = if lo == hi { format!("{lo}") } else { format!("{lo} to {hi}") };
            return Err(bad(self.op, format!("takes {want} arguments, got {}", self.v.len())));
        }
        Ok(())
    }
    fn get(&self, i: usize) -> Result<&Value> {
        self.v.get(i).ok_or_else(|| bad(self.op, format!("missing argument {}", i + 1)))
    }
    fn wrong(&self, i: usize, want: &str) -> Error {
        let got = self.v.get(i).map_or("nothing", Value::kind);
        bad(self.op, format!("argument {} must be {want}, got {got}", i + 1))
    }
    fn layout(&self, i: usize) -> Result<Layout> {
        match self.get(i)? {
            Value::Layout(l) => Ok(l.clone()),
            _ => Err(self.wrong(i, "a layout")),
        }
    }
    /// The map over bits of argument `i`: a layout's, a swizzle's, a composed layout's, or one.
    fn bits(&self, i: usize) -> Result<BitMap> {
        match self.get(i)? {
            Value::Layout(l) => BitMap::from_layout(l),
            Value::Swizzle(sw) => BitMap::from_swizzle(sw, 0),
            Value::Composed(c) => BitMap::from_composed(c),
            Value::Bits(b) => Ok(b.clone()),
            _ => Err(self.wrong(i, "a layout, a swizzle, a composed layout or a map over bits")),
        }
    }
    fn coord(&self, i: usize) -> Result<Coord> {
        match self.get(i)? {
            Value::Tuple(t) => Ok(t.clone()),
            Value::Int(n) => Ok(Tuple::Leaf(Some(*n))),
            _ => Err(self.wrong(i, "a coordinate")),
        }
    }
    fn tuple(&self, i: usize) -> Result<IntTuple> {
        no_underscore(&self.coord(i)?).map_err(|_| self.wrong(i, "an IntTuple (no '_')"))
    }
    fn int(&self, i: usize) -> Result<Int> {
        match self.get(i)? {
            Value::Int(n) => Ok(*n),
            _ => Err(self.wrong(i, "an integer")),
        }
    }
    fn index(&self, i: usize) -> Result<usize> {
        let n = self.int(i)?.value();
        usize::try_from(n)
            .map_err(|_| bad(self.op, format!("argument {} must be a non-negative index, got {n}", i + 1)))
    }
    /// An optional projection (`(1,_,1)` for C++'s `Step<_1,X,_1>`) at argument `i`.
    fn proj(&self, i: usize) -> Result<Option<Coord>> {
        self.v.get(i).map(|_| self.coord(i)).transpose()
    }

    fn tiler(&self, i: usize) -> Result<Tiler> {
        match self.get(i)? {
            Value::Tiler(t) => Ok(t.clone()),
            Value::Layout(l) => Ok(Tiler::Layout(l.clone())),
            Value::Int(n) => Ok(Tiler::Int(*n)),
            Value::Tuple(Tuple::Leaf(None)) => Ok(Tiler::Under),
            Value::Tuple(t) => Ok(Tiler::from_shape(&no_underscore(t).map_err(|_| self.wrong(i, "a tiler"))?)),
            _ => Err(self.wrong(i, "a tiler")),
        }
    }
    /// A layout, or a tuple standing for its shape (for ops defined on both).
    /// A layout or a swizzled layout (a shared-memory tile).
    fn maybe_composed(&self, i: usize) -> Result<dy::MaybeComposed> {
        match self.get(i)? {
            Value::Layout(l) => Ok(dy::MaybeComposed::Layout(l.clone())),
            Value::Composed(c) => Ok(dy::MaybeComposed::Composed(c.clone())),
            _ => Err(self.wrong(i, "a layout or a swizzled layout")),
        }
    }
    fn layout_or_tuple(&self, i: usize) -> Result<Shaped> {
        match self.get(i)? {
            Value::Layout(l) => Ok(Shaped::Layout(l.clone())),
            _ => Ok(Shaped::Tuple(self.tuple(i)?)),
        }
    }
    fn opt_tuple(&self, i: usize) -> Result<Option<IntTuple>> {
        if i < self.v.len() {
            Ok(Some(self.tuple(i)?))
        } else {
            Ok(None)
        }
    }
    /// The copy atom of argument `i` for elements of the width (bits) in argument `i + 1`.
    fn copy_atom(&self, i: usize) -> Result<CopyAtom> {
        match self.get(i)? {
            Value::CopyAtom(name) => CopyAtom::new(name, self.int(i + 1)?.value()),
            _ => Err(self.wrong(i, "a copy atom (UniversalCopy<uint128_t>, SM75_U32x4_LDSM_N, ...)")),
        }
    }
    fn copy(&self, i: usize) -> Result<&TiledCopy> {
        match self.get(i)? {
            Value::Copy(c) => Ok(c),
            _ => Err(self.wrong(i, "a tiled copy (tiled_copy(...))")),
        }
    }
    fn mma(&self, i: usize) -> Result<&TiledMma> {
        match self.get(i)? {
            Value::Mma(m) => Ok(m),
            _ => Err(self.wrong(i, "a tiled MMA (an atom's name or tiled_mma(...))")),
        }
    }
    /// The thread index of argument `i` (run-time, as a thread's index is).
    fn thread(&self, i: usize) -> Result<Int> {
        Ok(Int::dy(self.int(i)?.value()))
    }
    fn swizzle3(&self) -> Result<Swizzle> {
        Swizzle::new(self.int(0)?.value(), self.int(1)?.value(), self.int(2)?.value())
    }
}

/// `size` / `product`: of a layout or of a tuple.
fn size(a: &Args<'_>) -> Result<Value> {
    match a.layout_or_tuple(0)? {
        Shaped::Layout(l) => int(l.size()?),
        Shaped::Tuple(t) => int(dy::product(&t)?),
    }
}

/// An XOR map as the swizzle it is, where it is one.
fn xor_value(b: BitMap) -> Result<Value> {
    Ok(match b.as_swizzle() {
        Some(sw) => Value::Swizzle(sw),
        None => Value::Bits(b),
    })
}

fn lay(l: Layout) -> Result<Value> {
    Ok(Value::Layout(l))
}
fn tup(t: IntTuple) -> Result<Value> {
    Ok(Value::Tuple(t.to_coord()))
}
fn int(i: Int) -> Result<Value> {
    Ok(Value::Int(i))
}
fn int64(i: i64) -> Result<Value> {
    Ok(Value::Int(Int::st(i)))
}

/// Every operation of the language, with its arity: `(name, min args, max args)`.
/// Every operation of the language: one entry each, from which arity and kind errors,
/// `cute ops` and the evaluation all come.
pub const OPS: &[Op] = &[
    Op {
        name: "flatten",
        args: (1, 1),
        signature: "flatten(layout | tuple) -> layout | tuple",
        doc: "the leaves as one flat tuple (CuTe `flatten`, int_tuple.hpp / layout.hpp)",
        example: "flatten((2,(3,4)):(1,(2,6)))",
        eval: |a| match a.layout_or_tuple(0)? {
            Shaped::Layout(l) => lay(l.flatten()),
            Shaped::Tuple(t) => tup(t.flatten()),
        },
    },
    Op {
        name: "product",
        args: (1, 1),
        signature: "product(layout | tuple) -> int",
        doc: "the product of the leaves (CuTe `product`, int_tuple.hpp)",
        example: "product((2,(3,4)))",
        eval: size,
    },
    Op {
        name: "size",
        args: (1, 1),
        signature: "size(layout | tuple) -> int",
        doc: "the size of the domain (CuTe `size`)",
        example: "size((2,(3,4)):(1,(2,6)))",
        eval: size,
    },
    Op {
        name: "product_each",
        args: (1, 1),
        signature: "product_each(layout | tuple) -> tuple",
        doc: "the product of each top-level mode (CuTe `product_each`)",
        example: "product_each((2,(3,4)))",
        eval: |a| tup(dy::product_each(&shape_of(a, 0)?)?),
    },
    Op {
        name: "sum",
        args: (1, 1),
        signature: "sum(tuple) -> int",
        doc: "the sum of the leaves (CuTe `sum`)",
        example: "sum((2,(3,4)))",
        eval: |a| int(dy::sum(&a.tuple(0)?)?),
    },
    Op {
        name: "tuple_max",
        args: (1, 1),
        signature: "tuple_max(tuple) -> int",
        doc: "the largest leaf (CuTe `max` over an IntTuple)",
        example: "tuple_max((2,(3,4)))",
        eval: |a| int(dy::tuple_max(&a.tuple(0)?)?),
    },
    Op {
        name: "inner_product",
        args: (2, 2),
        signature: "inner_product(tuple, tuple) -> int",
        doc: "the sum of the products of matching leaves (CuTe `inner_product`)",
        example: "inner_product((2,3),(4,5))",
        eval: |a| int(dy::inner_product(&a.tuple(0)?, &a.tuple(1)?)?),
    },
    Op {
        name: "elem_scale",
        args: (2, 2),
        signature: "elem_scale(tuple, tuple) -> tuple",
        doc: "leaf-by-leaf scaling (CuTe `elem_scale`)",
        example: "elem_scale((2,3),(4,5))",
        eval: |a| tup(dy::elem_scale(&a.tuple(0)?, &a.tuple(1)?)?),
    },
    Op {
        name: "shape_div",
        args: (2, 2),
        signature: "shape_div(tuple, tuple) -> tuple",
        doc: "a shape divided by a shape or an integer, with the divisibility condition (CuTe `shape_div`)",
        example: "shape_div((4,5,6),40)",
        eval: |a| tup(dy::shape_div(&a.tuple(0)?, &a.tuple(1)?)?),
    },
    Op {
        name: "ceil_div",
        args: (2, 2),
        signature: "ceil_div(tuple, tuple | layout) -> tuple",
        doc: "the ceiling quotient, by mode or by a running quotient; by a layout, the shape of the tiles that cover the shape, shape(complement(layout, shape)) (CuTe `ceil_div`)",
        example: "ceil_div((4,4,2,5),3)",
        eval: |a| match a.get(1)? {
            Value::Layout(l) => tup(dy::complement(l, &a.tuple(0)?)?.shape().clone()),
            _ => tup(dy::ceil_div(&a.tuple(0)?, &a.tuple(1)?)?),
        },
    },
    Op {
        name: "round_up",
        args: (2, 2),
        signature: "round_up(tuple, tuple) -> tuple",
        doc: "rounded up to a multiple, by mode (CuTe `round_up`)",
        example: "round_up((100,33,7),(64,32))",
        eval: |a| tup(dy::round_up(&a.tuple(0)?, &a.tuple(1)?)?),
    },
    Op {
        name: "compact_col_major",
        args: (1, 2),
        signature: "compact_col_major(tuple[, int]) -> tuple",
        doc: "column-major compact strides of a shape, from current (default 1) (CuTe `compact_col_major`)",
        example: "compact_col_major((2,(3,4)),2)",
        eval: |a| tup(dy::compact_col_major(&a.tuple(0)?, current(a)?)?),
    },
    Op {
        name: "compact_row_major",
        args: (1, 2),
        signature: "compact_row_major(tuple[, int]) -> tuple",
        doc: "row-major compact strides of a shape, from current (default 1) (CuTe `compact_row_major`)",
        example: "compact_row_major((2,(3,4)))",
        eval: |a| tup(dy::compact_row_major(&a.tuple(0)?, current(a)?)?),
    },
    Op {
        name: "prefix_product",
        args: (1, 2),
        signature: "prefix_product(tuple[, tuple]) -> tuple",
        doc: "the exclusive prefix product (CuTe `prefix_product`)",
        example: "prefix_product((2,(3,4),5))",
        eval: |a| tup(dy::prefix_product(&a.tuple(0)?, &a.opt_tuple(1)?.unwrap_or(IntTuple::int(1)))?),
    },
    Op {
        name: "congruent",
        args: (2, 2),
        signature: "congruent(tuple, tuple) -> bool",
        doc: "the same profile (CuTe `congruent`)",
        example: "congruent((2,(3,4)),(1,(6,12)))",
        eval: |a| Ok(Value::Bool(a.tuple(0)?.congruent(&a.tuple(1)?))),
    },
    Op {
        name: "weakly_congruent",
        args: (2, 2),
        signature: "weakly_congruent(tuple, tuple) -> bool",
        doc: "a coarsening of the other's profile (CuTe `weakly_congruent`)",
        example: "weakly_congruent((2,4),(2,(2,2)))",
        eval: |a| Ok(Value::Bool(a.tuple(0)?.weakly_congruent(&a.tuple(1)?))),
    },
    Op {
        name: "compatible",
        args: (2, 2),
        signature: "compatible(tuple, tuple) -> bool",
        doc: "every coordinate of the first is one of the second (CuTe `compatible`)",
        example: "compatible(24,(4,6))",
        eval: |a| Ok(Value::Bool(dy::compatible(&a.tuple(0)?, &a.tuple(1)?))),
    },
    Op {
        name: "evenly_divides",
        args: (2, 2),
        signature: "evenly_divides(tuple, tuple) -> bool",
        doc: "the tiler divides the shape evenly (CuTe `evenly_divides`)",
        example: "evenly_divides((8,12),(4,3))",
        eval: |a| Ok(Value::Bool(dy::evenly_divides(&a.tuple(0)?, &a.tuple(1)?))),
    },
    Op {
        name: "unflatten",
        args: (2, 2),
        signature: "unflatten(tuple, tuple) -> tuple",
        doc: "a flat tuple given the profile of the second (CuTe `unflatten`)",
        example: "unflatten((2,3,4),(1,(1,1)))",
        eval: |a| tup(a.tuple(0)?.unflatten(&a.tuple(1)?)?),
    },
    Op {
        name: "idx2crd",
        args: (2, 3),
        signature: "idx2crd(tuple, tuple[, tuple]) -> tuple",
        doc: "the natural coordinate of an index in a shape, optionally with strides (CuTe `idx2crd`)",
        example: "idx2crd(16,(3,(2,3)))",
        eval: |a| match a.opt_tuple(2)? {
            Some(d) => tup(dy::idx2crd_strided(&a.tuple(0)?, &a.tuple(1)?, &d)?),
            None => tup(dy::idx2crd(&a.tuple(0)?, &a.tuple(1)?)?),
        },
    },
    Op {
        name: "crd2idx",
        args: (2, 3),
        signature: "crd2idx(coord, tuple[, tuple]) -> int",
        doc: "the index of a coordinate: colexicographic, or with strides (CuTe `crd2idx`)",
        example: "crd2idx((1,(1,2)),(3,(2,3)),(3,(12,1)))",
        eval: |a| match a.opt_tuple(2)? {
            Some(d) => int(dy::crd2idx(&a.coord(0)?, &a.tuple(1)?, &d)?),
            None => int(dy::crd2idx_colex(&a.tuple(0)?, &a.tuple(1)?)?),
        },
    },
    Op {
        name: "crd2crd",
        args: (2, 3),
        signature: "crd2crd(tuple, tuple[, tuple]) -> tuple",
        doc: "a coordinate re-expressed in another shape (pycute's argument order: crd, dst, src)",
        example: "crd2crd((1,5),(3,(2,3)),(3,6))",
        eval: |a| {
            let dst = a.tuple(1)?;
            let src = a.opt_tuple(2)?.unwrap_or_else(|| dst.clone());
            tup(dy::crd2crd(&a.tuple(0)?, &src, &dst)?)
        },
    },
    Op {
        name: "slice",
        args: (2, 2),
        signature: "slice(coord, layout | tuple) -> layout | tuple",
        doc: "the modes under `_` (CuTe `slice`)",
        example: "slice((_,2),((2,3),4):((1,2),6))",
        eval: |a| match a.layout_or_tuple(1)? {
            Shaped::Layout(l) => lay(l.slice(&a.coord(0)?)?),
            Shaped::Tuple(t) => tup(dy::slice(&a.coord(0)?, &t)?),
        },
    },
    Op {
        name: "dice",
        args: (2, 2),
        signature: "dice(coord, layout | tuple) -> layout | tuple",
        doc: "the modes not under `_` (CuTe `dice`)",
        example: "dice((_,2),((2,3),4):((1,2),6))",
        eval: |a| match a.layout_or_tuple(1)? {
            Shaped::Layout(l) => lay(l.dice(&a.coord(0)?)?),
            Shaped::Tuple(t) => tup(dy::dice(&a.coord(0)?, &t)?),
        },
    },
    Op {
        name: "coshape",
        args: (1, 1),
        signature: "coshape(layout) -> int",
        doc: "the extent of the codomain, 1 + sum((s-1)*|d|); for integer strides the cosize (CuTe `coshape`)",
        example: "coshape((64,4):(-12,6))",
        eval: |a| int(a.layout(0)?.cosize()?),
    },
    Op {
        name: "make_layout_like",
        args: (1, 1),
        signature: "make_layout_like(layout) -> layout",
        doc: "a compact layout of the shape, strides in the order of the layout's, static-0 strides kept (CuTe `make_layout_like`)",
        example: "make_layout_like((2,2,2,2):(0,2,4,1))",
        eval: |a| lay(dy::make_layout_like(&a.layout(0)?)?),
    },
    Op {
        name: "cosize",
        args: (1, 1),
        signature: "cosize(layout) -> int",
        doc: "the size of the codomain (CuTe `cosize`)",
        example: "cosize((64,4):(-12,6))",
        eval: |a| int(a.layout(0)?.cosize()?),
    },
    Op {
        name: "rank",
        args: (1, 1),
        signature: "rank(layout | tuple) -> int",
        doc: "the number of top-level modes (CuTe `rank`)",
        example: "rank((2,(3,4)):(1,(2,6)))",
        eval: |a| {
            int64(match a.layout_or_tuple(0)? {
                Shaped::Layout(l) => l.rank(),
                Shaped::Tuple(t) => t.rank(),
            } as i64)
        },
    },
    Op {
        name: "depth",
        args: (1, 1),
        signature: "depth(layout | tuple) -> int",
        doc: "the nesting depth (CuTe `depth`)",
        example: "depth((2,(3,4)):(1,(2,6)))",
        eval: |a| {
            int64(match a.layout_or_tuple(0)? {
                Shaped::Layout(l) => l.depth(),
                Shaped::Tuple(t) => t.depth(),
            } as i64)
        },
    },
    Op {
        name: "shape",
        args: (1, 1),
        signature: "shape(layout) -> tuple",
        doc: "the shape (CuTe `shape`)",
        example: "shape((2,(3,4)):(1,(2,6)))",
        eval: |a| tup(a.layout(0)?.shape().clone()),
    },
    Op {
        name: "stride",
        args: (1, 1),
        signature: "stride(layout) -> tuple",
        doc: "the stride (CuTe `stride`)",
        example: "stride((2,(3,4)):(1,(2,6)))",
        eval: |a| tup(a.layout(0)?.stride().clone()),
    },
    Op {
        name: "get",
        args: (2, 2),
        signature: "get(layout | tuple, int) -> layout | tuple",
        doc: "mode i (CuTe `get<I>`)",
        example: "get((2,(2,2)):(4,(2,1)),1)",
        eval: |a| match a.layout_or_tuple(0)? {
            Shaped::Layout(l) => lay(l.get(a.index(1)?)?),
            Shaped::Tuple(t) => tup(t.get(a.index(1)?)?.clone()),
        },
    },
    Op {
        name: "select",
        args: (2, 9),
        signature: "select(layout, int, ...) -> layout",
        doc: "the modes at the given indices (CuTe `select<I...>`)",
        example: "select((2,3,4):(1,2,6),2,0)",
        eval: |a| {
            let idx = (1..a.v.len()).map(|i| a.index(i)).collect::<Result<Vec<_>>>()?;
            lay(a.layout(0)?.select(&idx)?)
        },
    },
    Op {
        name: "take",
        args: (3, 3),
        signature: "take(layout, int, int) -> layout",
        doc: "modes [b, e) (CuTe `take<B,E>`)",
        example: "take((2,3,4,5):(1,2,6,24),1,3)",
        eval: |a| lay(a.layout(0)?.take(a.index(1)?, a.index(2)?)?),
    },
    Op {
        name: "append",
        args: (2, 2),
        signature: "append(layout, layout) -> layout",
        doc: "a last mode (CuTe `append`)",
        example: "append((2,3):(1,2),4:6)",
        eval: |a| lay(a.layout(0)?.append(&a.layout(1)?)),
    },
    Op {
        name: "prepend",
        args: (2, 2),
        signature: "prepend(layout, layout) -> layout",
        doc: "a first mode (CuTe `prepend`)",
        example: "prepend((2,3):(1,2),4:6)",
        eval: |a| lay(a.layout(0)?.prepend(&a.layout(1)?)),
    },
    Op {
        name: "replace",
        args: (3, 3),
        signature: "replace(layout, int, layout) -> layout",
        doc: "mode i replaced (CuTe `replace<I>`)",
        example: "replace((2,3):(1,2),1,4:6)",
        eval: |a| lay(a.layout(0)?.replace(a.index(1)?, &a.layout(2)?)?),
    },
    Op {
        name: "group",
        args: (3, 3),
        signature: "group(layout, int, int) -> layout",
        doc: "modes [b, e) gathered into one (alias of group_modes)",
        example: "group((2,3,4,5):(1,2,6,24),1,3)",
        eval: |a| lay(a.layout(0)?.group_modes(a.index(1)?, a.index(2)?)?),
    },
    Op {
        name: "group_modes",
        args: (3, 3),
        signature: "group_modes(layout, int, int) -> layout",
        doc: "modes [b, e) gathered into one (CuTe `group_modes<B,E>`)",
        example: "group_modes((2,3,4,5):(1,2,6,24),1,3)",
        eval: |a| lay(a.layout(0)?.group_modes(a.index(1)?, a.index(2)?)?),
    },
    Op {
        name: "zip",
        args: (1, 2),
        signature: "zip(layout | tuple[, layout | tuple]) -> layout | tuple",
        doc: "the i-th modes paired; with one argument, its modes transposed (CuTe `zip`)",
        example: "zip((2,3):(1,2),(4,5):(6,24))",
        eval: |a| match (a.layout_or_tuple(0)?, a.v.len()) {
            (Shaped::Layout(x), 1) => lay(Layout::new(dy::zip1(&x.shape())?, dy::zip1(&x.stride())?)?),
            (Shaped::Tuple(x), 1) => tup(dy::zip1(&x)?),
            (x, _) => zip2(a, x),
        },
    },
    Op {
        name: "call",
        args: (2, 2),
        signature: "call(layout | composed, coord) -> int",
        doc: "the layout at a coordinate or an index (CuTe `layout(c)`)",
        example: "call((3,(2,3)):(3,(12,1)),(1,(1,2)))",
        eval: |a| match a.get(0)? {
            Value::Composed(c) => int64(c.call(&a.coord(1)?)?),
            _ => int(a.layout(0)?.call_coord(&a.coord(1)?)?),
        },
    },
    Op {
        name: "slice_layout",
        args: (2, 2),
        signature: "slice_layout(layout, coord) -> layout",
        doc: "the sub-layout under `_` (CuTe `slice(c, layout)`)",
        example: "slice_layout(((2,3),4):((1,2),6),(_,2))",
        eval: |a| lay(a.layout(0)?.slice(&a.coord(1)?)?),
    },
    Op {
        name: "slice_and_offset",
        args: (2, 2),
        signature: "slice_and_offset(coord, layout) -> [layout, int]",
        doc: "the sub-layout under `_` and the offset of the fixed coordinates (CuTe `slice_and_offset`)",
        example: "slice_and_offset((_,1),(4,2):(2,1))",
        eval: |a| with_offset(a.layout(1)?.slice_and_offset(&a.coord(0)?)?),
    },
    Op {
        name: "local_tile",
        args: (3, 4),
        signature: "local_tile(layout, tiler, coord[, proj]) -> [layout, int]",
        doc: "the tile at coord of the layout divided by tiler, and its offset; proj (1 keeps, _ drops a mode) projects tiler and coord (CuTe `local_tile`)",
        example: "local_tile((8,8,4):(1,8,64),<4,4>,(1,1,_))",
        eval: |a| with_offset(dy::tensor::local_tile(&a.layout(0)?, &a.tiler(1)?, &a.coord(2)?, a.proj(3)?.as_ref())?),
    },
    Op {
        name: "local_partition",
        args: (3, 4),
        signature: "local_partition(layout, layout, int[, proj]) -> [layout, int]",
        doc: "thread index's part of the layout spread over the thread layout, and its offset; proj dices the thread layout (CuTe `local_partition`)",
        example: "local_partition((16,64):(1,16),(2,16):(16,1),17)",
        eval: |a| with_offset(dy::tensor::local_partition(&a.layout(0)?, &a.layout(1)?, a.int(2)?, a.proj(3)?.as_ref())?),
    },
    Op {
        name: "inner_partition",
        args: (3, 3),
        signature: "inner_partition(layout, tiler, coord) -> [layout, int]",
        doc: "zipped_divide sliced at coord in the rest mode, the tile modes kept (CuTe `inner_partition`)",
        example: "inner_partition((8,4):(1,8),<4,2>,(1,1))",
        eval: |a| with_offset(dy::tensor::inner_partition(&a.layout(0)?, &a.tiler(1)?, &a.coord(2)?)?),
    },
    Op {
        name: "outer_partition",
        args: (3, 3),
        signature: "outer_partition(layout, tiler, coord) -> [layout, int]",
        doc: "zipped_divide sliced at coord in the tile mode, the rest modes kept (CuTe `outer_partition`)",
        example: "outer_partition((8,4):(1,8),<4,2>,(1,1))",
        eval: |a| with_offset(dy::tensor::outer_partition(&a.layout(0)?, &a.tiler(1)?, &a.coord(2)?)?),
    },
    Op {
        name: "make_layout",
        args: (1, 8),
        signature: "make_layout(layout, ... | tuple[, tuple]) -> layout",
        doc: "modes into one layout, or a shape with its compact or given stride (CuTe `make_layout`)",
        example: "make_layout(4:1,(2,3):(4,8))",
        eval: |a| match (a.get(0)?, a.v.len()) {
            (Value::Layout(_), _) => {
                lay(dy::make_layout(&(0..a.v.len()).map(|i| a.layout(i)).collect::<Result<Vec<_>>>()?))
            }
            (_, 1) => lay(dy::make_layout_left(&a.tuple(0)?)?),
            (_, 2) => lay(Layout::new(a.tuple(0)?, a.tuple(1)?)?),
            _ => Err(bad(a.op, "takes layouts, a shape, or a shape and a stride".into())),
        },
    },
    Op {
        name: "make_layout_left",
        args: (1, 1),
        signature: "make_layout_left(tuple) -> layout",
        doc: "compact column-major strides (CuTe `make_layout(shape, LayoutLeft{})`)",
        example: "make_layout_left((2,(1,6)))",
        eval: |a| lay(dy::make_layout_left(&a.tuple(0)?)?),
    },
    Op {
        name: "make_layout_right",
        args: (1, 1),
        signature: "make_layout_right(tuple) -> layout",
        doc: "compact row-major strides (CuTe `make_layout(shape, LayoutRight{})`)",
        example: "make_layout_right((2,(3,4)))",
        eval: |a| lay(dy::make_layout_right(&a.tuple(0)?)?),
    },
    Op {
        name: "make_ordered_layout",
        args: (2, 2),
        signature: "make_ordered_layout(tuple, tuple) -> layout",
        doc: "compact strides visiting the modes in the given order (CuTe `make_ordered_layout`)",
        example: "make_ordered_layout((2,2,2,2),(0,2,3,1))",
        eval: |a| lay(dy::make_ordered_layout(&a.tuple(0)?, &a.tuple(1)?)?),
    },
    Op {
        name: "coalesce",
        args: (1, 2),
        signature: "coalesce(layout[, tuple]) -> layout",
        doc: "the same function with the fewest modes, optionally within a profile (CuTe `coalesce`)",
        example: "coalesce((2,(1,6)):(1,(6,2)))",
        eval: |a| match a.opt_tuple(1)? {
            Some(p) => lay(dy::coalesce_by(&a.layout(0)?, &p)?),
            None => lay(dy::coalesce(&a.layout(0)?)?),
        },
    },
    Op {
        name: "filter",
        args: (1, 2),
        signature: "filter(layout[, tuple]) -> layout",
        doc: "coalesce without stride-0 and size-1 modes (CuTe `filter`)",
        example: "filter((2,(1,6)):(0,(6,2)))",
        eval: |a| match a.opt_tuple(1)? {
            Some(p) => lay(dy::filter_by(&a.layout(0)?, &p)?),
            None => lay(dy::filter(&a.layout(0)?)?),
        },
    },
    Op {
        name: "filter_zeros",
        args: (1, 1),
        signature: "filter_zeros(layout) -> layout",
        doc: "stride-0 modes given the shape 1 (CuTe `filter_zeros`)",
        example: "filter_zeros((2,(1,6)):(0,(6,2)))",
        eval: |a| lay(dy::filter_zeros(&a.layout(0)?)),
    },
    Op {
        name: "composition",
        args: (2, 2),
        signature: "composition(layout | swizzle | composed, tiler) -> layout | composed",
        doc: "R(c) = A(B(c)); B a layout, an integer, `_` or a by-mode tiler (CuTe `composition`)",
        example: "composition((6,2):(8,2),(4,3):(3,1))",
        eval: |a| match a.get(0)? {
            // CuTe's composition(Swizzle, Layout) (an identity swizzle elided) and
            // composition(ComposedLayout, Tiler) (the inner layout composed).
            Value::Swizzle(s) => Ok(match ComposedLayout::compose(*s, &a.layout(1)?) {
                Some(c) => Value::Composed(c),
                None => Value::Layout(a.layout(1)?),
            }),
            Value::Composed(c) => Ok(Value::Composed(c.compose_inner(&a.tiler(1)?)?)),
            _ => lay(dy::composition(&a.layout(0)?, &a.tiler(1)?)?),
        },
    },
    Op {
        name: "complement",
        args: (1, 2),
        signature: "complement(layout[, tuple]) -> layout",
        doc: "the ordered layout of the indices L does not reach, up to the cotarget (CuTe `complement`)",
        example: "complement(4:2,24)",
        eval: |a| match a.opt_tuple(1)? {
            Some(c) => lay(dy::complement(&a.layout(0)?, &c)?),
            None => lay(dy::complement_cosize(&a.layout(0)?)?),
        },
    },
    Op {
        name: "right_inverse",
        args: (1, 1),
        signature: "right_inverse(layout) -> layout",
        doc: "the largest R with L(R(i)) = i (CuTe `right_inverse`)",
        example: "right_inverse((4,2):(2,1))",
        eval: |a| lay(dy::right_inverse(&a.layout(0)?)?),
    },
    Op {
        name: "bits",
        args: (1, 1),
        signature: "bits(layout | swizzle | composed) -> bits",
        doc: "the map over bits (GF(2)): the image of each index bit (Triton's linear layouts; powers of two only)",
        example: "bits(Sw<3,4,3> o 0 o (8,64):(64,1))",
        eval: |a| Ok(Value::Bits(a.bits(0)?)),
    },
    Op {
        name: "from_bits",
        args: (1, 1),
        signature: "from_bits(bits | layout | swizzle | composed) -> layout | swizzle | composed | [xor, layout]",
        doc: "the simplest CuTe form of a map over bits: a layout, Sw o 0 o a layout, or an XOR map over a layout; of offsets: Sw, Sw1 o 0 o Sw2, or the XOR map",
        example: "from_bits(bits(Sw<3,4,3> o 0 o (8,64):(64,1)))",
        eval: |a| {
            Ok(match a.bits(0)?.to_cute()? {
                CuteForm::Layout(l) => Value::Layout(l),
                CuteForm::Swizzled(c) => Value::Composed(c),
                CuteForm::Xor(x, l) => pair(Value::Bits(x), Value::Layout(l)),
                CuteForm::Swizzle(sw) => Value::Swizzle(sw),
                CuteForm::Swizzles(c) => Value::Composed(c),
                CuteForm::XorMap(x) => Value::Bits(x),
            })
        },
    },
    Op {
        name: "compose_bits",
        args: (2, 2),
        signature: "compose_bits(a, b) -> swizzle | bits",
        doc: "a o b as maps over bits: any two swizzles (CuTe's Swizzle cannot hold most), a swizzle over a layout, ...",
        example: "compose_bits(Sw<3,0,3>,Sw<1,2,1>)",
        eval: |a| {
            let c = a.bits(0)?.compose(&a.bits(1)?)?;
            if c.is_xor() {
                xor_value(c)
            } else {
                Ok(Value::Bits(c))
            }
        },
    },
    Op {
        name: "inverse_bits",
        args: (1, 1),
        signature: "inverse_bits(swizzle | bits) -> swizzle | bits",
        doc: "the inverse of an XOR map of offsets (a swizzle, a composition of swizzles)",
        example: "inverse_bits(compose_bits(Sw<3,0,3>,Sw<1,2,1>))",
        eval: |a| xor_value(a.bits(0)?.inverse()?),
    },
    Op {
        name: "find_swizzle",
        args: (2, 2),
        signature: "find_swizzle(input, output) -> swizzle | bits",
        doc: "S with composition(S, input) = output (the smallest Sw<B,M,S> where one is, else an XOR map), or why none exists",
        example: "find_swizzle((8,8):(8,1),Sw<3,0,3> o 0 o (8,8):(8,1))",
        eval: |a| xor_value(dy::linear::find_swizzle(&a.bits(0)?, &a.bits(1)?)?),
    },
    Op {
        name: "left_inverse",
        args: (1, 1),
        signature: "left_inverse(layout) -> layout",
        doc: "R with L(R(L(i))) = L(i) (CuTe `left_inverse`)",
        example: "left_inverse(2:8)",
        eval: |a| lay(dy::left_inverse(&a.layout(0)?)?),
    },
    Op {
        name: "max_common_layout",
        args: (2, 2),
        signature: "max_common_layout(layout, layout) -> layout",
        doc: "the largest common contiguous part (CuTe `max_common_layout`)",
        example: "max_common_layout((4,8):(1,4),(4,8):(1,4))",
        eval: |a| lay(dy::max_common_layout(&a.layout(0)?, &a.layout(1)?)?),
    },
    Op {
        name: "max_common_vector",
        args: (2, 2),
        signature: "max_common_vector(layout, layout) -> int",
        doc: "the size of the largest common contiguous part (CuTe `max_common_vector`)",
        example: "max_common_vector((4,8):(1,4),(4,8):(1,4))",
        eval: |a| int(dy::max_common_vector(&a.layout(0)?, &a.layout(1)?)?),
    },
    Op {
        name: "nullspace",
        args: (1, 1),
        signature: "nullspace(layout) -> layout",
        doc: "the coordinates mapped to 0 (CuTe `nullspace`)",
        example: "nullspace((4,2):(0,1))",
        eval: |a| lay(dy::nullspace(&a.layout(0)?)?),
    },
    Op {
        name: "max_alignment",
        args: (1, 1),
        signature: "max_alignment(layout | composed) -> int",
        doc: "the most elements known statically to be consecutive in the codomain (CuTe `max_alignment`)",
        example: "max_alignment((8,64):(64,1))",
        eval: |a| Ok(Value::Int(dy::max_alignment(&a.layout(0)?)?)),
    },
    Op {
        name: "make_fragment_like",
        args: (1, 1),
        signature: "make_fragment_like(layout | composed) -> layout",
        doc: "a compact layout of the same shape whose first mode keeps the stride order (CuTe `make_fragment_like`)",
        example: "make_fragment_like(((2,2),4):((1,8),16))",
        eval: |a| lay(dy::make_fragment_like(&a.layout(0)?)?),
    },
    Op {
        name: "domain_offset",
        args: (2, 2),
        signature: "domain_offset(coord, layout | composed) -> [layout, int]",
        doc: "the layout moved to start at the coordinate, and the offset to add to the pointer (CuTe `domain_offset`)",
        example: "domain_offset((1,2),(4,8):(1,4))",
        eval: |a| {
            let l = a.layout(1)?;
            let off = l.call_coord(&a.coord(0)?)?;
            Ok(Value::Pair(Box::new(Value::Layout(l)), Box::new(Value::Int(off))))
        },
    },
    Op {
        name: "logical_divide",
        args: (2, 2),
        signature: "logical_divide(layout, tiler) -> layout",
        doc: "(tile, rest): A o (B, complement(B, shape(A))) (CuTe `logical_divide`)",
        example: "logical_divide((4,2,3):(2,1,8),4:2)",
        eval: |a| lay(dy::logical_divide(&a.layout(0)?, &a.tiler(1)?)?),
    },
    Op {
        name: "zipped_divide",
        args: (2, 2),
        signature: "zipped_divide(layout, tiler) -> layout",
        doc: "((tiles), (rests)) (CuTe `zipped_divide`)",
        example: "zipped_divide((9,(4,8)):(59,(13,1)),<3:3,(2,4):(1,8)>)",
        eval: |a| lay(dy::zipped_divide(&a.layout(0)?, &a.tiler(1)?)?),
    },
    Op {
        name: "tiled_divide",
        args: (2, 2),
        signature: "tiled_divide(layout, tiler) -> layout",
        doc: "((tiles), rest0, rest1, ...) (CuTe `tiled_divide`)",
        example: "tiled_divide((9,(4,8)):(59,(13,1)),<3:3,(2,4):(1,8)>)",
        eval: |a| lay(dy::tiled_divide(&a.layout(0)?, &a.tiler(1)?)?),
    },
    Op {
        name: "flat_divide",
        args: (2, 2),
        signature: "flat_divide(layout, tiler) -> layout",
        doc: "(tile0, ..., rest0, ...) (CuTe `flat_divide`)",
        example: "flat_divide((9,(4,8)):(59,(13,1)),<3:3,(2,4):(1,8)>)",
        eval: |a| lay(dy::flat_divide(&a.layout(0)?, &a.tiler(1)?)?),
    },
    Op {
        name: "logical_product",
        args: (2, 2),
        signature: "logical_product(layout, tiler) -> layout",
        doc: "(A, complement(A, size(A)*cosize(B)) o B) (CuTe `logical_product`)",
        example: "logical_product((2,2):(4,1),6:1)",
        eval: |a| lay(dy::logical_product(&a.layout(0)?, &a.tiler(1)?)?),
    },
    Op {
        name: "zipped_product",
        args: (2, 2),
        signature: "zipped_product(layout, tiler) -> layout",
        doc: "((block), (products)) (CuTe `zipped_product`)",
        example: "zipped_product((2,5):(5,1),(3,4):(1,3))",
        eval: |a| lay(dy::zipped_product(&a.layout(0)?, &a.tiler(1)?)?),
    },
    Op {
        name: "tiled_product",
        args: (2, 2),
        signature: "tiled_product(layout, tiler) -> layout",
        doc: "((block), product0, ...) (CuTe `tiled_product`)",
        example: "tiled_product((2,5):(5,1),(3,4):(1,3))",
        eval: |a| lay(dy::tiled_product(&a.layout(0)?, &a.tiler(1)?)?),
    },
    Op {
        name: "flat_product",
        args: (2, 2),
        signature: "flat_product(layout, tiler) -> layout",
        doc: "(block0, ..., product0, ...) (CuTe `flat_product`)",
        example: "flat_product((2,5):(5,1),(3,4):(1,3))",
        eval: |a| lay(dy::flat_product(&a.layout(0)?, &a.tiler(1)?)?),
    },
    Op {
        name: "blocked_product",
        args: (2, 2),
        signature: "blocked_product(layout, layout) -> layout",
        doc: "A as a block repeated by B, modes zipped (CuTe `blocked_product`)",
        example: "blocked_product((2,5):(5,1),(3,4):(1,3))",
        eval: |a| lay(dy::blocked_product(&a.layout(0)?, &a.layout(1)?)?),
    },
    Op {
        name: "raked_product",
        args: (2, 2),
        signature: "raked_product(layout, layout) -> layout",
        doc: "A interleaved by B, modes zipped (CuTe `raked_product`)",
        example: "raked_product((2,5):(5,1),(3,4):(1,3))",
        eval: |a| lay(dy::raked_product(&a.layout(0)?, &a.layout(1)?)?),
    },
    Op {
        name: "tile_to_shape",
        args: (2, 3),
        signature: "tile_to_shape(layout, tuple[, tuple]) -> layout",
        doc: "the block repeated to fill the shape, in an optional order (CuTe `tile_to_shape`)",
        example: "tile_to_shape((2,2):(1,2),(4,6))",
        eval: |a| lay(dy::tile_to_shape(&a.layout(0)?, &a.tuple(1)?, a.opt_tuple(2)?.as_ref())?),
    },
    Op {
        name: "upcast",
        args: (2, 2),
        signature: "upcast(layout, int) -> layout",
        doc: "for elements n times larger (CuTe `upcast<N>`)",
        example: "upcast((4,8):(1,4),2)",
        eval: |a| lay(dy::upcast(&a.layout(0)?, a.int(1)?.value())?),
    },
    Op {
        name: "downcast",
        args: (2, 2),
        signature: "downcast(layout, int) -> layout",
        doc: "for elements n times smaller (CuTe `downcast<N>`)",
        example: "downcast((2,8):(1,2),2)",
        eval: |a| lay(dy::downcast(&a.layout(0)?, a.int(1)?.value())?),
    },
    Op {
        name: "recast_layout",
        args: (3, 3),
        signature: "recast_layout(layout | composed, old_bits, new_bits) -> layout",
        doc: "the layout for elements of new_bits where it held old_bits: upcast by the reduced ratio's numerator, downcast by its denominator (CuTe `recast_layout<Old,New>`)",
        example: "recast_layout((4,8):(1,4),16,32)",
        eval: |a| {
            let (num, den) = recast_ratio(a)?;
            lay(dy::downcast(&dy::upcast(&a.layout(0)?, num)?, den)?)
        },
    },
    Op {
        name: "swizzle",
        args: (4, 4),
        signature: "swizzle(int, int, int, int) -> int",
        doc: "Sw<B,M,S> applied to an offset (CuTe `Swizzle<B,M,S>{}(offset)`)",
        example: "swizzle(3,3,3,64)",
        eval: |a| int64(a.swizzle3()?.apply(a.int(3)?.value())?),
    },
    Op {
        name: "swizzle_size",
        args: (3, 3),
        signature: "swizzle_size(int, int, int) -> int",
        doc: "the domain size of Sw<B,M,S>, 2^(B+M+|S|) (pycute `Swizzle.size`)",
        example: "swizzle_size(3,3,3)",
        eval: |a| int64(a.swizzle3()?.size()),
    },
    Op {
        name: "composed_call",
        args: (6, 6),
        signature: "composed_call(int, int, int, int, layout, coord) -> int",
        doc: "Sw<B,M,S>(offset + L(c)) (CuTe `ComposedLayout` evaluation)",
        example: "composed_call(1,0,1,0,(2,2):(1,2),3)",
        eval: |a| {
            let c = ComposedLayout::new(a.swizzle3()?, a.int(3)?, a.layout(4)?);
            int64(c.call(&a.coord(5)?)?)
        },
    },
    Op {
        name: "composed",
        args: (3, 3),
        signature: "composed(swizzle | layout, int, swizzle | layout) -> composed",
        doc: "the composed layout A o offset o B, c -> A(offset + B(c)) (CuTe's three-argument `composition(A, offset, B)`)",
        example: "composed(Sw<1,0,1>,0,(2,2):(1,2))",
        eval: |a| {
            let func = |i: usize| match a.get(i)? {
                Value::Swizzle(s) => Ok(Func::Swizzle(*s)),
                Value::Layout(l) => Ok(Func::Layout(l.clone())),
                _ => Err(a.wrong(i, "a swizzle Sw<B,M,S> or a layout")),
            };
            Ok(Value::Composed(ComposedLayout::of(func(0)?, a.int(1)?, func(2)?)))
        },
    },
    Op {
        name: "gmma_desc",
        args: (3, 6),
        signature: "gmma_desc(K | MN, type | bits, layout[, tile, coord[, start]]) -> gmma_desc",
        doc: "the wgmma shared-memory descriptor of an (MN,K) tile, or of the tile at coord (stage last) of a shared-memory layout, starting at byte start (CuTe `GMMA::make_gmma_desc`)",
        example: "gmma_desc(K,half_t,tile_to_shape(Layout_K_SW128_Atom<half_t>,(64,64)),(64,16),(1,0))",
        eval: |a| {
            let major = match a.get(0)? {
                Value::Name(n) if n == "K" => dy::gmma::Major::K,
                Value::Name(n) if n == "MN" => dy::gmma::Major::MN,
                _ => return Err(a.wrong(0, "a GMMA major, K or MN")),
            };
            let bits = match a.get(1)? {
                Value::Name(n) => dy::gmma::element_bits(n).ok_or_else(|| {
                    bad(
                        "gmma_desc",
                        format!("argument 2: wgmma does not read {n} from shared memory; it reads {}", dy::gmma::ELEMENT_TYPES.join(", ")),
                    )
                })?,
                Value::Int(n) => n.value(),
                _ => {
                    return Err(a.wrong(
                        1,
                        &format!("an element type ({}) or its width in bits", dy::gmma::ELEMENT_TYPES.join(", ")),
                    ))
                }
            };
            let layout = a.maybe_composed(2)?;
            let start = if a.v.len() == 6 { a.int(5)?.value() } else { 0 };
            let d = match a.v.len() {
                3 => dy::gmma::make_gmma_desc(major, bits, &layout, 0)?,
                4 => return Err(bad("gmma_desc", "a tile is given with its coordinate".into())),
                _ => {
                    let t = a.tuple(3)?;
                    let e = t.leaves();
                    let [m, k] = e.as_slice() else { return Err(a.wrong(3, "a tile (MN,K)")) };
                    dy::gmma::gmma_desc_of_tile(major, bits, &layout, (m.value(), k.value()), &a.coord(4)?, start)?
                }
            };
            Ok(Value::GmmaDesc(d))
        },
    },
    Op {
        name: "tma_desc",
        args: (3, 4),
        signature: "tma_desc(type, global layout, shared layout[, multicast]) -> tma_desc",
        doc: "the tensor map of a TMA load of the shared tile from the global tensor, optionally multicast to a cluster's CTAs: cuTensorMapEncodeTiled's parameters (CuTe `make_tma_copy(SM90_TMA_LOAD{}, gtensor, slayout)`, `SM90_TMA_LOAD_MULTICAST`)",
        example: "tma_desc(half_t,({1000},{512}):({512},1),tile_to_shape(Layout_K_SW128_Atom<half_t>,(128,64)))",
        eval: |a| {
            let Value::Name(elem) = a.get(0)? else { return Err(a.wrong(0, "an element type (half_t)")) };
            let smem = a.maybe_composed(2)?;
            let multicast = if a.v.len() == 4 {
                let n = a.int(3)?.value();
                u32::try_from(n).map_err(|_| {
                    bad("tma_desc", format!("argument 4 is the number of CTAs the load is multicast to; {n} is not a count"))
                })?
            } else {
                1
            };
            Ok(Value::TmaDesc(Box::new(dy::tma::make_tma_copy_desc_multicast(&a.layout(1)?, elem, &smem, multicast)?)))
        },
    },
    Op {
        name: "tiled_mma",
        args: (2, 5),
        signature: "tiled_mma(atom, layout[, perm_m, perm_n, perm_k]) -> mma",
        doc: "the atom tiled over the (M,N,K) atom layout, each of M, N, K permuted by a tiler (`_` none) (CuTe `make_tiled_mma`)",
        example: "tiled_mma(SM80_16x8x16_F32F16F16F32_TN,(2,2,1):(1,2,0))",
        eval: |a| {
            let perms = (2..a.v.len()).map(|i| a.tiler(i)).collect::<Result<Vec<_>>>()?;
            Ok(Value::Mma(Box::new(TiledMma::new(a.mma(0)?.atom().clone(), &a.layout(1)?, &perms)?)))
        },
    },
    Op {
        name: "thr_layout_vmnk",
        args: (1, 1),
        signature: "thr_layout_vmnk(mma) -> layout",
        doc: "(ThrV,ThrM,ThrN,ThrK) -> thread index of a tiled MMA (CuTe `get_thr_layout_vmnk`)",
        example: "thr_layout_vmnk(tiled_mma(SM80_16x8x16_F32F16F16F32_TN,(2,2,1):(1,2,0)))",
        eval: |a| lay(a.mma(0)?.thr_layout_vmnk().clone()),
    },
    Op {
        name: "tile_size_mnk",
        args: (1, 1),
        signature: "tile_size_mnk(mma) -> tuple",
        doc: "the (M,N,K) extents of a tiled MMA's tile (CuTe `tile_size_mnk<0..2>`)",
        example: "tile_size_mnk(tiled_mma(SM80_16x8x16_F32F16F16F32_TN,(2,2,1):(1,2,0)))",
        eval: |a| {
            let m = a.mma(0)?;
            let e = (0..3).map(|i| Ok(Tuple::Leaf(Int::st(m.tile_size_mnk(i)?)))).collect::<Result<Vec<_>>>()?;
            tup(Tuple::Node(e))
        },
    },
    Op {
        name: "layout_a_tv",
        args: (1, 1),
        signature: "layout_a_tv(mma) -> layout",
        doc: "(thread, value) -> index of the column-major (M,K) tile of A (CuTe `get_layoutA_TV`)",
        example: "layout_a_tv(SM80_16x8x8_F32F16F16F32_TN)",
        eval: |a| lay(a.mma(0)?.layout_a_tv()?),
    },
    Op {
        name: "layout_b_tv",
        args: (1, 1),
        signature: "layout_b_tv(mma) -> layout",
        doc: "(thread, value) -> index of the column-major (N,K) tile of B (CuTe `get_layoutB_TV`)",
        example: "layout_b_tv(SM80_16x8x8_F32F16F16F32_TN)",
        eval: |a| lay(a.mma(0)?.layout_b_tv()?),
    },
    Op {
        name: "layout_c_tv",
        args: (1, 1),
        signature: "layout_c_tv(mma) -> layout",
        doc: "(thread, value) -> index of the column-major (M,N) tile of C (CuTe `get_layoutC_TV`)",
        example: "layout_c_tv(SM80_16x8x8_F32F16F16F32_TN)",
        eval: |a| lay(a.mma(0)?.layout_c_tv()?),
    },
    Op {
        name: "thrfrg_a",
        args: (2, 2),
        signature: "thrfrg_a(mma, layout) -> layout",
        doc: "an (M,K,...) layout as ((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK,...))) (CuTe `thrfrg_A`)",
        example: "thrfrg_a(UniversalFMA,(4,2):(1,4))",
        eval: |a| lay(a.mma(0)?.thrfrg_a(&a.layout(1)?)?),
    },
    Op {
        name: "thrfrg_b",
        args: (2, 2),
        signature: "thrfrg_b(mma, layout) -> layout",
        doc: "an (N,K,...) layout as ((ThrV,(ThrN,ThrK)),(FrgV,(RestN,RestK,...))) (CuTe `thrfrg_B`)",
        example: "thrfrg_b(UniversalFMA,(4,2):(1,4))",
        eval: |a| lay(a.mma(0)?.thrfrg_b(&a.layout(1)?)?),
    },
    Op {
        name: "thrfrg_c",
        args: (2, 2),
        signature: "thrfrg_c(mma, layout) -> layout",
        doc: "an (M,N,...) layout as ((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN,...))) (CuTe `thrfrg_C`)",
        example: "thrfrg_c(UniversalFMA,(4,2):(1,4))",
        eval: |a| lay(a.mma(0)?.thrfrg_c(&a.layout(1)?)?),
    },
    Op {
        name: "partition_a",
        args: (3, 3),
        signature: "partition_a(mma, layout, thread) -> [layout, int]",
        doc: "the thread's (FrgV,RestM,RestK,...) part of an (M,K,...) A and its offset (CuTe `get_slice(thr).partition_A`)",
        example: "partition_a(tiled_mma(UniversalFMA,(16,16,1):(1,16,0)),(32,2):(1,32),237)",
        eval: |a| with_offset(a.mma(0)?.partition_a(&a.layout(1)?, a.thread(2)?)?),
    },
    Op {
        name: "partition_b",
        args: (3, 3),
        signature: "partition_b(mma, layout, thread) -> [layout, int]",
        doc: "the thread's (FrgV,RestN,RestK,...) part of an (N,K,...) B and its offset (CuTe `get_slice(thr).partition_B`)",
        example: "partition_b(tiled_mma(UniversalFMA,(16,16,1):(1,16,0)),(32,2):(1,32),165)",
        eval: |a| with_offset(a.mma(0)?.partition_b(&a.layout(1)?, a.thread(2)?)?),
    },
    Op {
        name: "partition_c",
        args: (3, 3),
        signature: "partition_c(mma, layout, thread) -> [layout, int]",
        doc: "the thread's (FrgV,RestM,RestN,...) part of an (M,N,...) C and its offset (CuTe `get_slice(thr).partition_C`)",
        example: "partition_c(tiled_mma(UniversalFMA,(16,16,1):(1,16,0)),(32,32):(1,32),184)",
        eval: |a| with_offset(a.mma(0)?.partition_c(&a.layout(1)?, a.thread(2)?)?),
    },
    Op {
        name: "partition_fragment_a",
        args: (3, 3),
        signature: "partition_fragment_a(mma, layout, thread) -> layout",
        doc: "the thread's register fragment for its part of A (CuTe `partition_fragment_A`)",
        example: "partition_fragment_a(tiled_mma(UniversalFMA,(16,16,1):(1,16,0)),(32,2):(1,32),46)",
        eval: |a| lay(a.mma(0)?.partition_fragment_a(&a.layout(1)?, a.thread(2)?)?),
    },
    Op {
        name: "partition_fragment_b",
        args: (3, 3),
        signature: "partition_fragment_b(mma, layout, thread) -> layout",
        doc: "the thread's register fragment for its part of B (CuTe `partition_fragment_B`)",
        example: "partition_fragment_b(tiled_mma(UniversalFMA,(16,16,1):(1,16,0)),(32,2):(1,32),38)",
        eval: |a| lay(a.mma(0)?.partition_fragment_b(&a.layout(1)?, a.thread(2)?)?),
    },
    Op {
        name: "partition_fragment_c",
        args: (3, 3),
        signature: "partition_fragment_c(mma, layout, thread) -> layout",
        doc: "the thread's register fragment for its part of C (CuTe `partition_fragment_C`)",
        example: "partition_fragment_c(tiled_mma(UniversalFMA,(16,16,1):(1,16,0)),(32,32):(1,32),113)",
        eval: |a| lay(a.mma(0)?.partition_fragment_c(&a.layout(1)?, a.thread(2)?)?),
    },
    Op {
        name: "tiled_copy",
        args: (4, 4),
        signature: "tiled_copy(atom, bits, thr_layout, val_layout) -> copy",
        doc: "the copy atom for elements of `bits` bits over threads and values, the tile raked_product(thr, val) (CuTe `make_tiled_copy`)",
        example: "tiled_copy(UniversalCopy<uint128_t>,16,(32,4):(4,1),(1,8):(0,1))",
        eval: |a| Ok(Value::Copy(Box::new(TiledCopy::new(a.copy_atom(0)?, &a.layout(2)?, &a.layout(3)?)?))),
    },
    Op {
        name: "tiled_copy_a",
        args: (3, 3),
        signature: "tiled_copy_a(atom, bits, mma) -> copy",
        doc: "the copy atom over the threads and values of a tiled MMA's A (CuTe `make_tiled_copy_A`)",
        example: "tiled_copy_a(SM75_U32x4_LDSM_N,16,tiled_mma(SM80_16x8x16_F32F16F16F32_TN,(2,2,1):(1,2,0)))",
        eval: |a| Ok(Value::Copy(Box::new(TiledCopy::for_mma_a(a.copy_atom(0)?, a.mma(2)?)?))),
    },
    Op {
        name: "tiled_copy_b",
        args: (3, 3),
        signature: "tiled_copy_b(atom, bits, mma) -> copy",
        doc: "the copy atom over the threads and values of a tiled MMA's B (CuTe `make_tiled_copy_B`)",
        example: "tiled_copy_b(SM75_U32x2_LDSM_N,16,tiled_mma(SM80_16x8x16_F32F16F16F32_TN,(2,2,1):(1,2,0)))",
        eval: |a| Ok(Value::Copy(Box::new(TiledCopy::for_mma_b(a.copy_atom(0)?, a.mma(2)?)?))),
    },
    Op {
        name: "tiled_copy_c",
        args: (3, 3),
        signature: "tiled_copy_c(atom, bits, mma) -> copy",
        doc: "the copy atom over the threads and values of a tiled MMA's C (CuTe `make_tiled_copy_C`)",
        example: "tiled_copy_c(UniversalCopy<uint32_t>,32,tiled_mma(SM80_16x8x8_F32TF32TF32F32_TN,(2,2,1):(1,2,0)))",
        eval: |a| Ok(Value::Copy(Box::new(TiledCopy::for_mma_c(a.copy_atom(0)?, a.mma(2)?)?))),
    },
    Op {
        name: "layout_tv",
        args: (1, 1),
        signature: "layout_tv(copy) -> layout",
        doc: "(thread, value) -> index of the column-major tile of a tiled copy (CuTe `TiledLayout_TV`)",
        example: "layout_tv(tiled_copy(UniversalCopy<uint128_t>,16,(32,4):(4,1),(1,8):(0,1)))",
        eval: |a| lay(a.copy(0)?.layout_tv().clone()),
    },
    Op {
        name: "tiler_mn",
        args: (1, 1),
        signature: "tiler_mn(copy) -> tuple",
        doc: "the (M,N) extents of a tiled copy's tile (CuTe `Tiler_MN`)",
        example: "tiler_mn(tiled_copy(UniversalCopy<uint128_t>,16,(32,4):(4,1),(1,8):(0,1)))",
        eval: |a| tup(a.copy(0)?.tiler_mn().clone()),
    },
    Op {
        name: "layout_s_tv",
        args: (1, 1),
        signature: "layout_s_tv(copy) -> layout",
        doc: "(thread, value) -> index of the tile, for the source (CuTe `get_layoutS_TV`)",
        example: "layout_s_tv(tiled_copy(UniversalCopy<uint128_t>,16,(32,4):(4,1),(1,8):(0,1)))",
        eval: |a| lay(a.copy(0)?.layout_s_tv()?),
    },
    Op {
        name: "layout_d_tv",
        args: (1, 1),
        signature: "layout_d_tv(copy) -> layout",
        doc: "(thread, value) -> index of the tile, for the destination (CuTe `get_layoutD_TV`)",
        example: "layout_d_tv(tiled_copy(UniversalCopy<uint128_t>,16,(32,4):(4,1),(1,8):(0,1)))",
        eval: |a| lay(a.copy(0)?.layout_d_tv()?),
    },
    Op {
        name: "tidfrg_s",
        args: (2, 2),
        signature: "tidfrg_s(copy, layout) -> layout",
        doc: "a source layout as (thread, (values, rest...)) (CuTe `tidfrg_S`)",
        example: "tidfrg_s(tiled_copy(UniversalCopy<uint128_t>,16,(32,4):(4,1),(1,8):(0,1)),(64,64):(1,64))",
        eval: |a| lay(a.copy(0)?.tidfrg_s(&a.layout(1)?)?),
    },
    Op {
        name: "tidfrg_d",
        args: (2, 2),
        signature: "tidfrg_d(copy, layout) -> layout",
        doc: "a destination layout as (thread, (values, rest...)) (CuTe `tidfrg_D`)",
        example: "tidfrg_d(tiled_copy(UniversalCopy<uint128_t>,16,(32,4):(4,1),(1,8):(0,1)),(64,64):(1,64))",
        eval: |a| lay(a.copy(0)?.tidfrg_d(&a.layout(1)?)?),
    },
    Op {
        name: "partition_s",
        args: (3, 3),
        signature: "partition_s(copy, layout, thread) -> [layout, int]",
        doc: "the thread's (CopyV,RestM,RestN,...) part of a source and its offset (CuTe `get_slice(thr).partition_S`)",
        example: "partition_s(tiled_copy(UniversalCopy<uint128_t>,16,(32,4):(4,1),(1,8):(0,1)),(64,64):(1,64),109)",
        eval: |a| with_offset(a.copy(0)?.partition_s(&a.layout(1)?, a.thread(2)?)?),
    },
    Op {
        name: "partition_d",
        args: (3, 3),
        signature: "partition_d(copy, layout, thread) -> [layout, int]",
        doc: "the thread's (CopyV,RestM,RestN,...) part of a destination and its offset (CuTe `get_slice(thr).partition_D`)",
        example: "partition_d(tiled_copy(UniversalCopy<uint128_t>,16,(32,4):(4,1),(1,8):(0,1)),(64,64):(64,1),11)",
        eval: |a| with_offset(a.copy(0)?.partition_d(&a.layout(1)?, a.thread(2)?)?),
    },
    Op {
        name: "retile",
        args: (2, 2),
        signature: "retile(copy, layout) -> layout",
        doc: "a thread's fragment (e.g. an MMA's) regrouped by the copy's values (CuTe `retile_S`/`retile_D`)",
        example: "retile(tiled_copy_a(SM75_U32x4_LDSM_N,16,tiled_mma(SM80_16x8x16_F32F16F16F32_TN,(2,2,1):(1,2,0))),((2,2,2),1,2):((1,2,4),0,8))",
        eval: |a| lay(a.copy(0)?.retile(&a.layout(1)?)?),
    },
    Op {
        name: "make_identity_layout",
        args: (1, 1),
        signature: "make_identity_layout(shape) -> basis",
        doc: "(s0,s1,...):(1@0,1@1,...), whose values are coordinates (CuTe `make_identity_layout`; a flat shape)",
        example: "make_identity_layout((4,6))",
        eval: |a| Ok(Value::Basis(dy::basis::make_identity_layout(&a.tuple(0)?)?)),
    },
    Op {
        name: "make_identity_tensor",
        args: (1, 1),
        signature: "make_identity_tensor(shape) -> identity",
        doc: "the tensor of coordinates, ArithTuple(0,...) o identity layout; local_tile and local_partition take it (CuTe `make_identity_tensor`)",
        example: "make_identity_tensor(({10},{12}))",
        eval: |a| Ok(Value::Identity(Box::new(IdentityTensor::new(&a.tuple(0)?)?))),
    },
    Op {
        name: "elem_less",
        args: (2, 2),
        signature: "elem_less(coord, shape) -> bool",
        doc: "every coordinate below its mode's extent: the predicate of a residue tile's elements (CuTe `elem_less`)",
        example: "elem_less((11,15),(10,12))",
        eval: |a| Ok(Value::Bool(dy::basis::elem_less(&a.tuple(0)?, &a.tuple(1)?)?)),
    },
    Op {
        name: "values",
        args: (1, 1),
        signature: "values(any) -> any",
        doc: "the run-time values of a result, every leaf printed as a plain number",
        example: "values(composition((6,2):({8},2),(4,3):(3,1)))",
        eval: |a| Ok(to_values(a.get(0)?)),
    },
    Op {
        name: "image",
        args: (1, 1),
        signature: "image(layout | composed) -> tuple",
        doc: "(L(0), L(1), ..., L(size-1)): the layout as a function of the 1-D index",
        example: "image((2,(2,2)):(4,(2,1)))",
        eval: |a| {
            // A composed layout's image is Sw(offset + L(i)).
            let (n, composed) = match a.get(0)? {
                Value::Composed(c) => (c.size()?.value(), Some(c)),
                _ => (a.layout(0)?.size()?.value(), None),
            };
            if !(0..=1 << 16).contains(&n) {
                return Err(bad(a.op, format!("size {n} is out of the printable range")));
            }
            let image = match composed {
                Some(c) => (0..n).map(|i| c.call_index(i)).collect::<Result<Vec<_>>>()?,
                None => post::image(&a.layout(0)?)?,
            };
            tup(Tuple::Node(image.into_iter().map(IntTuple::int).collect()))
        },
    },
    Op {
        name: "is_injective",
        args: (1, 1),
        signature: "is_injective(layout) -> bool",
        doc: "no two coordinates map to one index",
        example: "is_injective((2,{1}):(4,{4}))",
        eval: |a| Ok(Value::Bool(post::is_injective(&a.layout(0)?)?)),
    },
    Op {
        name: "is_surjective",
        args: (1, 1),
        signature: "is_surjective(layout) -> bool",
        doc: "every index of [0, cosize) is reached",
        example: "is_surjective((2,2):(1,1))",
        eval: |a| Ok(Value::Bool(post::is_surjective(&a.layout(0)?)?)),
    },
    Op {
        name: "is_bijective",
        args: (1, 1),
        signature: "is_bijective(layout) -> bool",
        doc: "a bijection of [0, size) onto [0, cosize)",
        example: "is_bijective((4,(2,3)):(2,(1,8)))",
        eval: |a| Ok(Value::Bool(post::is_bijective(&a.layout(0)?)?)),
    },
    Op {
        name: "same_function",
        args: (2, 2),
        signature: "same_function(layout, layout) -> bool",
        doc: "equal sizes and L(i) equal for every i",
        example: "same_function((2,(1,6)):(1,(6,2)),12:1)",
        eval: |a| Ok(Value::Bool(post::same_function(&a.layout(0)?, &a.layout(1)?)?)),
    },
];

/// Apply the operation `name` to evaluated arguments.
///
/// # Errors
/// `Parse` for an unknown name; `InvalidArgument` for a wrong argument count or kind; the
/// operation's own error otherwise.
pub fn apply(name: &str, args: &[Value]) -> Result<Value> {
    let op = find(name).ok_or_else(|| Error::Parse { pos: 0, reason: format!("unknown operation '{name}'") })?;
    let a = Args { op: op.name, v: args };
    a.count(op.args.0, op.args.1)?;
    if let Some(Value::Composed(c)) = args.first() {
        return apply_composed(op, c, args);
    }
    if let Some(Value::Basis(_) | Value::Identity(_)) = args.first() {
        return apply_basis(op, &a);
    }
    if let ("slice_and_offset", [_, Value::Basis(b)]) = (op.name, args) {
        let (l, off) = b.slice_and_offset(&a.coord(0)?)?;
        return Ok(pair(Value::Basis(l), Value::Tuple(off.to_coord())));
    }
    // The coordinate operations take the (composed) layout second.
    if let ("slice" | "slice_and_offset" | "domain_offset", [_, Value::Composed(c)]) = (op.name, args) {
        let coord = a.coord(0)?;
        return Ok(match op.name {
            "slice" => maybe_composed(c.slice(&coord)?),
            "slice_and_offset" => {
                let (l, off) = c.slice_and_offset(&coord)?;
                pair(maybe_composed(l), Value::Int(off))
            }
            _ => {
                let (l, off) = c.domain_offset(&coord)?;
                pair(Value::Composed(l), Value::Int(off))
            }
        });
    }
    // composition(Layout, Sw o 0 o L) = composition(composition(Layout, Sw), L): the swizzle
    // moved to the left, then the inner layouts composed (C++ `layout_composed.hpp`).
    if let ("composition", [Value::Layout(l), Value::Composed(c)]) = (op.name, args) {
        return Ok(maybe_composed(dy::swizzle::compose_with_composed(l, c)?));
    }
    // logical_product(Layout, Sw o 0 o L): a swizzle found for the product (C++).
    if let ("logical_product", [Value::Layout(l), Value::Composed(c)]) = (op.name, args) {
        return Ok(maybe_composed(dy::swizzle::logical_product_composed(l, c)?));
    }
    // composition(Layout, Swizzle): the swizzle moved to the left (C++ `swizzle_layout.hpp`).
    if let ("composition", [Value::Layout(l), Value::Swizzle(sw)]) = (op.name, args) {
        return Ok(maybe_composed(dy::swizzle::transfer_swizzle(l, *sw)?));
    }
    // C++ answers max_common_*(layout, composed) as max_common_*(composed, layout).
    if let ("max_common_vector" | "max_common_layout", [l @ Value::Layout(_), Value::Composed(c)]) = (op.name, args) {
        return apply_composed(op, c, &[Value::Composed(c.clone()), l.clone()]);
    }
    (op.eval)(&a)
}

/// `new_bits / old_bits` in lowest terms, as C++'s `trait_ratio` (an upcast by the numerator,
/// then a downcast by the denominator; 1 skips a step).
fn recast_ratio(a: &Args<'_>) -> Result<(i64, i64)> {
    let (old, new) = (a.int(1)?.value(), a.int(2)?.value());
    if old <= 0 || new <= 0 {
        return Err(bad(a.op, format!("element sizes {old} and {new} bits must be positive")));
    }
    let g = dy::int::gcd(old.unsigned_abs(), new.unsigned_abs()) as i64;
    Ok((new / g, old / g))
}

/// A layout and the offset its data moves by, as `[layout, offset]`.
fn with_offset((l, off): (Layout, Int)) -> Result<Value> {
    Ok(pair(Value::Layout(l), Value::Int(off)))
}

/// The optional second argument `current` of `compact_*_major` (1 by default, static).
fn current(a: &Args<'_>) -> Result<Int> {
    if a.v.len() > 1 {
        return a.int(1);
    }
    Ok(Int::st(1))
}

/// The binary `zip(a, b)`: the i-th modes paired.
fn zip2(a: &Args<'_>, x: Shaped) -> Result<Value> {
    match (x, a.layout_or_tuple(1)?) {
        (Shaped::Layout(x), Shaped::Layout(y)) => {
            lay(Layout::new(dy::zip(&x.shape(), &y.shape())?, dy::zip(&x.stride(), &y.stride())?)?)
        }
        (Shaped::Tuple(x), Shaped::Tuple(y)) => tup(dy::zip(&x, &y)?),
        _ => Err(bad(a.op, "arguments must be both layouts or both tuples".into())),
    }
}

/// A layout, or a composed layout where the swizzle stays.
fn maybe_composed(m: dy::MaybeComposed) -> Value {
    match m {
        dy::MaybeComposed::Layout(l) => Value::Layout(l),
        dy::MaybeComposed::Composed(c) => Value::Composed(c),
    }
}

fn pair(a: Value, b: Value) -> Value {
    Value::Pair(Box::new(a), Box::new(b))
}

/// The operations on a basis layout or an identity tensor: the tiles and partitions (a basis
/// layout's with its origin coordinate, `[layout, coord]`), the divides and composition, its
/// value at an index, size and shape.
fn apply_basis(op: &Op, a: &Args<'_>) -> Result<Value> {
    let basis = |b: BasisLayout| Ok(Value::Basis(b));
    let with_origin = |(b, c): (BasisLayout, IntTuple)| Ok(pair(Value::Basis(b), Value::Tuple(c.to_coord())));
    match (a.get(0)?, op.name) {
        (Value::Basis(b), "local_tile") => {
            with_origin(b.local_tile(&a.tiler(1)?, &a.coord(2)?, a.proj(3)?.as_ref())?)
        }
        (Value::Basis(b), "local_partition") => {
            with_origin(b.local_partition(&a.layout(1)?, a.int(2)?, a.proj(3)?.as_ref())?)
        }
        (Value::Basis(b), "zipped_divide") => basis(b.zipped_divide(&a.tiler(1)?)?),
        (Value::Basis(b), "logical_divide") => basis(b.logical_divide(&a.tiler(1)?)?),
        (Value::Basis(b), "composition") => basis(b.composition(&a.tiler(1)?)?),
        (Value::Basis(b), "call") => tup(b.call(a.int(1)?.value())?),
        (Value::Basis(b), "size") => int(b.size()?),
        (Value::Basis(b), "shape") => tup(b.shape().clone()),
        (Value::Identity(t), "local_tile") => {
            Ok(Value::Identity(Box::new(t.local_tile(&a.tiler(1)?, &a.coord(2)?, a.proj(3)?.as_ref())?)))
        }
        (Value::Identity(t), "local_partition") => {
            Ok(Value::Identity(Box::new(t.local_partition(&a.layout(1)?, a.int(2)?, a.proj(3)?.as_ref())?)))
        }
        (Value::Identity(t), "call") => tup(t.get(a.int(1)?.value())?),
        (Value::Identity(t), "size") => int(t.size()?),
        (Value::Identity(t), "shape") => tup(t.layout().shape().clone()),
        (v, name) => Err(bad(name, format!("does not take {}", v.kind()))),
    }
}

/// The operations CuTe C++ defines on a composed layout `Sw o offset o L`
/// (`cute/layout_composed.hpp`) by applying them to `L`: those that give a layout keep the
/// swizzle and the offset, the queries answer for `L`.
const ON_THE_INNER_LAYOUT: &[&str] = &[
    "filter",
    "zip",
    "get",
    "take",
    "flatten",
    "append",
    "group",
    "group_modes",
    "coalesce",
    "logical_divide",
    "zipped_divide",
    "tiled_divide",
    "flat_divide",
    "logical_product",
    "zipped_product",
    "tiled_product",
    "flat_product",
    "blocked_product",
    "raked_product",
    "tile_to_shape",
];
const QUERIES_OF_THE_INNER_LAYOUT: &[&str] = &["shape", "size", "rank", "depth", "cosize", "complement"];

/// `op` with a composed layout first: C++'s definition, or (where C++ has none) `op`'s own
/// argument error.
fn apply_composed(op: &Op, c: &ComposedLayout, args: &[Value]) -> Result<Value> {
    // The common vector of swizzled layouts is bounded by the swizzles (`swizzle_layout.hpp`).
    match (op.name, args) {
        ("max_common_vector", [_, Value::Layout(b)]) => return Ok(Value::Int(c.max_common_vector(b)?)),
        ("max_common_vector", [_, Value::Composed(b)]) => return Ok(Value::Int(c.max_common_vector_composed(b)?)),
        ("max_common_layout", [_, Value::Layout(b)]) => return Ok(Value::Layout(c.max_common_layout(b)?)),
        _ => {}
    }
    // The inverses move the swizzle to the left; max_alignment bounds by it; a fragment is
    // compact and unswizzled; C++ does not attempt the nullspace (`layout_composed.hpp`: 1:0).
    match op.name {
        "right_inverse" => return Ok(maybe_composed(c.right_inverse()?)),
        "left_inverse" => return Ok(maybe_composed(c.left_inverse()?)),
        "max_alignment" => return Ok(Value::Int(c.max_alignment()?)),
        "make_fragment_like" => return Ok(Value::Layout(c.make_fragment_like()?)),
        "nullspace" => return Ok(Value::Layout(Layout::trivial())),
        _ => {}
    }
    if op.name == "recast_layout" {
        let (num, den) = recast_ratio(&Args { op: op.name, v: args })?;
        return Ok(Value::Composed(c.upcast(num)?.downcast(den)?));
    }
    // Recasting changes the swizzle too (C++ `layout_composed.hpp`, `swizzle_layout.hpp`).
    if let ("upcast" | "downcast", [_, Value::Int(n)]) = (op.name, args) {
        let r = if op.name == "upcast" { c.upcast(n.value()) } else { c.downcast(n.value()) };
        return Ok(Value::Composed(r?));
    }
    let keeps = ON_THE_INNER_LAYOUT.contains(&op.name);
    if !keeps && !QUERIES_OF_THE_INNER_LAYOUT.contains(&op.name) {
        return (op.eval)(&Args { op: op.name, v: args });
    }
    let mut inner = args.to_vec();
    inner[0] = Value::Layout(c.layout()?.clone());
    match (op.eval)(&Args { op: op.name, v: &inner })? {
        Value::Layout(l) if keeps => Ok(match c.with_layout(l).decayed() {
            dy::swizzle::MaybeComposed::Layout(l) => Value::Layout(l),
            dy::swizzle::MaybeComposed::Composed(c) => Value::Composed(c),
        }),
        v => Ok(v),
    }
}

/// The table's entry for `name`.
pub fn find(name: &str) -> Option<&'static Op> {
    OPS.iter().find(|o| o.name == name)
}

fn to_values(v: &Value) -> Value {
    match v {
        Value::Int(i) => Value::Int(Int::st(i.value())),
        Value::Tuple(t) => Value::Tuple(t.map(&mut |x| x.map(|i| Int::st(i.value())))),
        Value::Layout(l) => Value::Layout(l.to_static()),
        Value::Pair(a, b) => Value::Pair(Box::new(to_values(a)), Box::new(to_values(b))),
        v => v.clone(),
    }
}

/// The shape of a layout argument, or the tuple itself.
fn shape_of(a: &Args<'_>, i: usize) -> Result<IntTuple> {
    Ok(match a.layout_or_tuple(i)? {
        Shaped::Layout(l) => l.shape().clone(),
        Shaped::Tuple(t) => t,
    })
}

/// The `@post` check of operation `name` on its arguments and its result ([`cute_dyn::post`]);
/// operations without one pass.
///
/// # Errors
/// `Postcondition` naming the violated condition (a bug in the library).
pub fn post_check(name: &str, args: &[Value], result: &Value) -> Result<()> {
    match post_check_unguarded(name, args, result) {
        // The check's own arithmetic left i64 (an operand of size past 2^63): not checkable.
        Err(Error::Overflow { .. }) => Ok(()),
        r => r,
    }
}

fn post_check_unguarded(name: &str, args: &[Value], result: &Value) -> Result<()> {
    // On a composed layout the operation is its inner layout's, checked as such.
    if matches!(args.first(), Some(Value::Composed(_))) {
        return Ok(());
    }
    let a = Args { op: "post", v: args };
    let Value::Layout(r) = result else { return Ok(()) };
    match name {
        "coalesce" if args.len() == 1 => post::check_coalesce(&a.layout(0)?, r),
        "filter" if args.len() == 1 => post::check_filter(&a.layout(0)?, r),
        // composition(Swizzle, L) is L or Sw o 0 o L by construction; a swizzle or a composed
        // layout on the right is checked by its own law (`R(i) == A(C(i))`).
        "composition"
            if !matches!(a.get(0)?, Value::Layout(_))
                || matches!(a.get(1)?, Value::Swizzle(_) | Value::Composed(_)) =>
        {
            Ok(())
        }
        "composition" => post::check_composition(&a.layout(0)?, &a.tiler(1)?, r),
        "complement" => {
            let l = a.layout(0)?;
            let cotarget = match a.opt_tuple(1)? {
                Some(c) => c,
                None => Tuple::Leaf(dy::filter(&l)?.cosize()?),
            };
            post::check_complement(&l, &cotarget, r)
        }
        "right_inverse" => post::check_right_inverse(&a.layout(0)?, r),
        "left_inverse" => post::check_left_inverse(&a.layout(0)?, r),
        "logical_divide" => post::check_logical_divide(&a.layout(0)?, &a.tiler(1)?, r),
        "zipped_divide" | "tiled_divide" | "flat_divide" => {
            post::check_rearrangement(op_name(name), &dy::logical_divide(&a.layout(0)?, &a.tiler(1)?)?, r)
        }
        "logical_product" => post::check_logical_product(&a.layout(0)?, &a.tiler(1)?, r),
        "zipped_product" | "tiled_product" | "flat_product" | "blocked_product" | "raked_product" => {
            post::check_rearrangement(op_name(name), &dy::logical_product(&a.layout(0)?, &a.tiler(1)?)?, r)
        }
        _ => Ok(()),
    }
}

/// The operation's name as a `&'static str` (from the table).
fn op_name(name: &str) -> &'static str {
    find(name).map_or("operation", |o| o.name)
}
