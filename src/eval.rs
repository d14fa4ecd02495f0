//! The expression language of `cute eval`: a literal in the notation, or `op(arg,...)` with
//! CuTe's operation names (nesting allowed).
//!
//! ```text
//! Expr ::= ident "(" (Expr ("," Expr)*)? ")"     an operation
//!        | "Sw<" INT "," INT "," INT ">"         a swizzle
//!        | "<" ... ">"                           a by-mode tiler
//!        | Coord (":" IntTuple)?                 an integer, tuple, coordinate or layout
//! ```
//! Integer results print in decimal, pairs as `[A,B]`, booleans as `true`/`false`.

use std::string::String;
use std::vec::Vec;

use cute_dyn::{
    self as dy, post, ComposedLayout, Coord, Error, Int, IntTuple, Layout, Notation, Parser, Result, Style, Swizzle,
    Tiler, Tuple,
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
            Value::Composed(c) => format!("{}_o_{}_o_{}", c.swizzle, c.offset, c.layout.to_styled(style)),
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
/// use cute::eval::eval;
/// use cute::cute_dyn::Style;
/// assert_eq!(eval("coalesce((2,(1,6)):(1,(6,2)))", Style::Values)?, "12:1");
/// assert_eq!(eval("slice_and_offset((_,1), (4,2):(2,1))", Style::Values)?, "[(4):(2),1]");
/// # Ok::<(), cute::cute_dyn::Error>(())
/// ```
pub fn eval(text: &str, style: Style) -> Result<String> {
    let mut p = Parser::new(text, Style::Values);
    let v = expr(&mut p)?;
    p.finish()?;
    Ok(v.to_styled(style))
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
/// use cute::eval::eval_checked;
/// use cute::cute_dyn::Style;
/// let (answer, violation) = eval_checked("logical_divide((4,2,3):(2,1,8), 4:2)", Style::Values);
/// assert_eq!(answer?, "((2,2),(2,3)):((4,1),(2,8))");
/// assert!(violation.is_none());
/// # Ok::<(), cute::cute_dyn::Error>(())
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
            p.expect(b'<')?;
            let mut a = [0i64; 3];
            for (k, x) in a.iter_mut().enumerate() {
                if k > 0 {
                    p.expect(b',')?;
                }
                *x = int_literal(p)?;
            }
            p.expect(b'>')?;
            return Ok(Value::Swizzle(Swizzle::new(a[0], a[1], a[2])?));
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
        let stride = p.int_tuple()?;
        return Parser::make_layout(shape, start, stride, at).map(Value::Layout);
    }
    Ok(match c {
        Tuple::Leaf(Some(i)) => Value::Int(i),
        c => Value::Tuple(c),
    })
}

fn int_literal(p: &mut Parser<'_>) -> Result<i64> {
    p.peek();
    let at = p.pos();
    match p.leaf()? {
        Some(i) => Ok(i.value()),
        None => Err(Error::Parse { pos: at, reason: "expected an integer".into() }),
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

/// Argument access with the conversions the notation allows (an integer is a leaf tuple, a
/// layout is a tiler, a tuple of integers is a shape tiler, ...).
struct Args<'a> {
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
    fn layout_or_tuple(&self, i: usize) -> Result<std::result::Result<Layout, IntTuple>> {
        match self.get(i)? {
            Value::Layout(l) => Ok(Ok(l.clone())),
            _ => Ok(Err(self.tuple(i)?)),
        }
    }
    fn opt_tuple(&self, i: usize) -> Result<Option<IntTuple>> {
        if i < self.v.len() {
            Ok(Some(self.tuple(i)?))
        } else {
            Ok(None)
        }
    }
    fn swizzle3(&self) -> Result<Swizzle> {
        Swizzle::new(self.int(0)?.value(), self.int(1)?.value(), self.int(2)?.value())
    }
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
pub const OPS: &[(&str, usize, usize)] = &[
    ("flatten", 1, 1),
    ("product", 1, 1),
    ("size", 1, 1),
    ("product_each", 1, 1),
    ("sum", 1, 1),
    ("tuple_max", 1, 1),
    ("inner_product", 2, 2),
    ("elem_scale", 2, 2),
    ("shape_div", 2, 2),
    ("ceil_div", 2, 2),
    ("prefix_product", 1, 2),
    ("congruent", 2, 2),
    ("weakly_congruent", 2, 2),
    ("compatible", 2, 2),
    ("evenly_divides", 2, 2),
    ("unflatten", 2, 2),
    ("idx2crd", 2, 3),
    ("crd2idx", 2, 3),
    ("crd2crd", 2, 3),
    ("slice", 2, 2),
    ("dice", 2, 2),
    ("cosize", 1, 1),
    ("rank", 1, 1),
    ("depth", 1, 1),
    ("shape", 1, 1),
    ("stride", 1, 1),
    ("get", 2, 2),
    ("select", 2, 9),
    ("take", 3, 3),
    ("append", 2, 2),
    ("prepend", 2, 2),
    ("replace", 3, 3),
    ("group", 3, 3),
    ("group_modes", 3, 3),
    ("zip", 2, 2),
    ("call", 2, 2),
    ("slice_layout", 2, 2),
    ("slice_and_offset", 2, 2),
    ("make_layout", 1, 8),
    ("make_layout_left", 1, 1),
    ("make_layout_right", 1, 1),
    ("make_ordered_layout", 2, 2),
    ("coalesce", 1, 2),
    ("filter", 1, 2),
    ("filter_zeros", 1, 1),
    ("composition", 2, 2),
    ("complement", 1, 2),
    ("right_inverse", 1, 1),
    ("left_inverse", 1, 1),
    ("max_common_layout", 2, 2),
    ("max_common_vector", 2, 2),
    ("nullspace", 1, 1),
    ("logical_divide", 2, 2),
    ("zipped_divide", 2, 2),
    ("tiled_divide", 2, 2),
    ("flat_divide", 2, 2),
    ("logical_product", 2, 2),
    ("zipped_product", 2, 2),
    ("tiled_product", 2, 2),
    ("flat_product", 2, 2),
    ("blocked_product", 2, 2),
    ("raked_product", 2, 2),
    ("tile_to_shape", 2, 3),
    ("upcast", 2, 2),
    ("downcast", 2, 2),
    ("swizzle", 4, 4),
    ("swizzle_size", 3, 3),
    ("composed_call", 6, 6),
    ("composed", 3, 3),
    ("values", 1, 1),
    ("image", 1, 1),
    ("is_injective", 1, 1),
    ("is_surjective", 1, 1),
    ("is_bijective", 1, 1),
    ("same_function", 2, 2),
];

/// Apply the operation `name` to evaluated arguments.
///
/// # Errors
/// `Parse` for an unknown name; `InvalidArgument` for a wrong argument count or kind; the
/// operation's own error otherwise.
pub fn apply(name: &str, args: &[Value]) -> Result<Value> {
    let &(op, lo, hi) = OPS
        .iter()
        .find(|(n, ..)| *n == name)
        .ok_or_else(|| Error::Parse { pos: 0, reason: format!("unknown operation '{name}'") })?;
    let a = Args { op, v: args };
    a.count(lo, hi)?;
    match op {
        "flatten" => match a.layout_or_tuple(0)? {
            Ok(l) => lay(l.flatten()),
            Err(t) => tup(t.flatten()),
        },
        "product" | "size" => match a.layout_or_tuple(0)? {
            Ok(l) => int(l.size()?),
            Err(t) => int(dy::product(&t)?),
        },
        "product_each" => tup(dy::product_each(&shape_of(&a, 0)?)?),
        "sum" => int(dy::sum(&a.tuple(0)?)?),
        "tuple_max" => int(dy::tuple_max(&a.tuple(0)?)?),
        "inner_product" => int(dy::inner_product(&a.tuple(0)?, &a.tuple(1)?)?),
        "elem_scale" => tup(dy::elem_scale(&a.tuple(0)?, &a.tuple(1)?)?),
        "shape_div" => tup(dy::shape_div(&a.tuple(0)?, &a.tuple(1)?)?),
        "ceil_div" => tup(dy::ceil_div(&a.tuple(0)?, &a.tuple(1)?)?),
        "prefix_product" => tup(dy::prefix_product(&a.tuple(0)?, &a.opt_tuple(1)?.unwrap_or(IntTuple::int(1)))?),
        "congruent" => Ok(Value::Bool(a.tuple(0)?.congruent(&a.tuple(1)?))),
        "weakly_congruent" => Ok(Value::Bool(a.tuple(0)?.weakly_congruent(&a.tuple(1)?))),
        "compatible" => Ok(Value::Bool(dy::compatible(&a.tuple(0)?, &a.tuple(1)?))),
        "evenly_divides" => Ok(Value::Bool(dy::evenly_divides(&a.tuple(0)?, &a.tuple(1)?))),
        "unflatten" => tup(a.tuple(0)?.unflatten(&a.tuple(1)?)?),
        "idx2crd" => match a.opt_tuple(2)? {
            Some(d) => tup(dy::idx2crd_strided(&a.tuple(0)?, &a.tuple(1)?, &d)?),
            None => tup(dy::idx2crd(&a.tuple(0)?, &a.tuple(1)?)?),
        },
        "crd2idx" => match a.opt_tuple(2)? {
            Some(d) => int(dy::crd2idx(&a.coord(0)?, &a.tuple(1)?, &d)?),
            None => int(dy::crd2idx_colex(&a.tuple(0)?, &a.tuple(1)?)?),
        },
        // pycute's argument order (crd, dst[, src]); the library takes C++'s (crd, src, dst).
        "crd2crd" => {
            let dst = a.tuple(1)?;
            let src = a.opt_tuple(2)?.unwrap_or_else(|| dst.clone());
            tup(dy::crd2crd(&a.tuple(0)?, &src, &dst)?)
        }
        "slice" => match a.layout_or_tuple(1)? {
            Ok(l) => lay(l.slice(&a.coord(0)?)?),
            Err(t) => tup(dy::slice(&a.coord(0)?, &t)?),
        },
        "dice" => match a.layout_or_tuple(1)? {
            Ok(l) => lay(l.dice(&a.coord(0)?)?),
            Err(t) => tup(dy::dice(&a.coord(0)?, &t)?),
        },
        "cosize" => int(a.layout(0)?.cosize()?),
        "rank" => int64(match a.layout_or_tuple(0)? {
            Ok(l) => l.rank(),
            Err(t) => t.rank(),
        } as i64),
        "depth" => int64(match a.layout_or_tuple(0)? {
            Ok(l) => l.depth(),
            Err(t) => t.depth(),
        } as i64),
        "shape" => tup(a.layout(0)?.shape().clone()),
        "stride" => tup(a.layout(0)?.stride().clone()),
        "get" => match a.layout_or_tuple(0)? {
            Ok(l) => lay(l.get(a.index(1)?)?),
            Err(t) => tup(t.get(a.index(1)?)?.clone()),
        },
        "select" => {
            let idx = (1..args.len()).map(|i| a.index(i)).collect::<Result<Vec<_>>>()?;
            lay(a.layout(0)?.select(&idx)?)
        }
        "take" => lay(a.layout(0)?.take(a.index(1)?, a.index(2)?)?),
        "append" => lay(a.layout(0)?.append(&a.layout(1)?)),
        "prepend" => lay(a.layout(0)?.prepend(&a.layout(1)?)),
        "replace" => lay(a.layout(0)?.replace(a.index(1)?, &a.layout(2)?)?),
        "group" | "group_modes" => lay(a.layout(0)?.group_modes(a.index(1)?, a.index(2)?)?),
        "zip" => match (a.layout_or_tuple(0)?, a.layout_or_tuple(1)?) {
            (Ok(x), Ok(y)) => lay(Layout::new(dy::zip(x.shape(), y.shape())?, dy::zip(x.stride(), y.stride())?)?),
            (Err(x), Err(y)) => tup(dy::zip(&x, &y)?),
            _ => Err(bad(op, "arguments must be both layouts or both tuples".into())),
        },
        "call" => match a.get(0)? {
            Value::Composed(c) => int64(c.call(&a.coord(1)?)?),
            _ => int(a.layout(0)?.call_coord(&a.coord(1)?)?),
        },
        "slice_layout" => lay(a.layout(0)?.slice(&a.coord(1)?)?),
        "slice_and_offset" => {
            let (l, off) = a.layout(1)?.slice_and_offset(&a.coord(0)?)?;
            Ok(Value::Pair(Box::new(Value::Layout(l)), Box::new(Value::Int(off))))
        }
        "make_layout" => match (a.get(0)?, args.len()) {
            (Value::Layout(_), _) => {
                lay(dy::make_layout(&(0..args.len()).map(|i| a.layout(i)).collect::<Result<Vec<_>>>()?))
            }
            (_, 1) => lay(dy::make_layout_left(&a.tuple(0)?)?),
            (_, 2) => lay(Layout::new(a.tuple(0)?, a.tuple(1)?)?),
            _ => Err(bad(op, "takes layouts, a shape, or a shape and a stride".into())),
        },
        "make_layout_left" => lay(dy::make_layout_left(&a.tuple(0)?)?),
        "make_layout_right" => lay(dy::make_layout_right(&a.tuple(0)?)?),
        "make_ordered_layout" => lay(dy::make_ordered_layout(&a.tuple(0)?, &a.tuple(1)?)?),
        "coalesce" => match a.opt_tuple(1)? {
            Some(p) => lay(dy::coalesce_by(&a.layout(0)?, &p)?),
            None => lay(dy::coalesce(&a.layout(0)?)?),
        },
        "filter" => match a.opt_tuple(1)? {
            Some(p) => lay(dy::filter_by(&a.layout(0)?, &p)?),
            None => lay(dy::filter(&a.layout(0)?)?),
        },
        "filter_zeros" => lay(dy::filter_zeros(&a.layout(0)?)),
        "composition" => lay(dy::composition(&a.layout(0)?, &a.tiler(1)?)?),
        "complement" => match a.opt_tuple(1)? {
            Some(c) => lay(dy::complement(&a.layout(0)?, &c)?),
            None => lay(dy::complement_cosize(&a.layout(0)?)?),
        },
        "right_inverse" => lay(dy::right_inverse(&a.layout(0)?)?),
        "left_inverse" => lay(dy::left_inverse(&a.layout(0)?)?),
        "max_common_layout" => lay(dy::max_common_layout(&a.layout(0)?, &a.layout(1)?)?),
        "max_common_vector" => int(dy::max_common_vector(&a.layout(0)?, &a.layout(1)?)?),
        "nullspace" => lay(dy::nullspace(&a.layout(0)?)?),
        "logical_divide" => lay(dy::logical_divide(&a.layout(0)?, &a.tiler(1)?)?),
        "zipped_divide" => lay(dy::zipped_divide(&a.layout(0)?, &a.tiler(1)?)?),
        "tiled_divide" => lay(dy::tiled_divide(&a.layout(0)?, &a.tiler(1)?)?),
        "flat_divide" => lay(dy::flat_divide(&a.layout(0)?, &a.tiler(1)?)?),
        "logical_product" => lay(dy::logical_product(&a.layout(0)?, &a.tiler(1)?)?),
        "zipped_product" => lay(dy::zipped_product(&a.layout(0)?, &a.tiler(1)?)?),
        "tiled_product" => lay(dy::tiled_product(&a.layout(0)?, &a.tiler(1)?)?),
        "flat_product" => lay(dy::flat_product(&a.layout(0)?, &a.tiler(1)?)?),
        "blocked_product" => lay(dy::blocked_product(&a.layout(0)?, &a.layout(1)?)?),
        "raked_product" => lay(dy::raked_product(&a.layout(0)?, &a.layout(1)?)?),
        "tile_to_shape" => lay(dy::tile_to_shape(&a.layout(0)?, &a.tuple(1)?, a.opt_tuple(2)?.as_ref())?),
        "upcast" => lay(dy::upcast(&a.layout(0)?, a.int(1)?.value())?),
        "downcast" => lay(dy::downcast(&a.layout(0)?, a.int(1)?.value())?),
        "swizzle" => int64(a.swizzle3()?.apply(a.int(3)?.value())?),
        "swizzle_size" => int64(a.swizzle3()?.size()),
        "composed_call" => {
            let c = ComposedLayout { swizzle: a.swizzle3()?, offset: a.int(3)?.value(), layout: a.layout(4)? };
            int64(c.call(&a.coord(5)?)?)
        }
        "composed" => match a.get(0)? {
            Value::Swizzle(s) => {
                Ok(Value::Composed(ComposedLayout { swizzle: *s, offset: a.int(1)?.value(), layout: a.layout(2)? }))
            }
            _ => Err(a.wrong(0, "a swizzle Sw<B,M,S>")),
        },
        // The run-time values of a result, every leaf shown as a plain number.
        "values" => Ok(to_values(a.get(0)?)),
        // (L(0), L(1), ..., L(size-1)): the layout as a function of the 1-D index.
        "image" => {
            let l = a.layout(0)?;
            let n = l.size()?.value();
            if !(0..=1 << 16).contains(&n) {
                return Err(bad(op, format!("size {n} is out of the printable range")));
            }
            tup(Tuple::Node(post::image(&l)?.into_iter().map(IntTuple::int).collect()))
        }
        "is_injective" => Ok(Value::Bool(post::is_injective(&a.layout(0)?)?)),
        "is_surjective" => Ok(Value::Bool(post::is_surjective(&a.layout(0)?)?)),
        "is_bijective" => Ok(Value::Bool(post::is_bijective(&a.layout(0)?)?)),
        "same_function" => Ok(Value::Bool(post::same_function(&a.layout(0)?, &a.layout(1)?)?)),
        _ => unreachable!("every name in OPS has an arm"),
    }
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
        Ok(l) => l.shape().clone(),
        Err(t) => t,
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
    let a = Args { op: "post", v: args };
    let Value::Layout(r) = result else { return Ok(()) };
    match name {
        "coalesce" if args.len() == 1 => post::check_coalesce(&a.layout(0)?, r),
        "filter" if args.len() == 1 => post::check_filter(&a.layout(0)?, r),
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
    OPS.iter().find(|o| o.0 == name).map_or("operation", |o| o.0)
}
