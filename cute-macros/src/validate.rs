//! Checks on a parsed literal, all collected and reported together.

use syn::Error;

use crate::parse::{AnyLayout, ComposedLit, LayoutLit, Leaf, Node, Stride, TilerLit};

/// Which crate the literal builds: cute-static (unsigned typenum leaves) or cute-dyn (i64).
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Form {
    Static,
    /// cute-static in type position: no `{expr}` leaf (a type cannot hold a run-time value).
    Type,
    Dyn,
}

/// The literal as written, for messages.
pub fn text(n: &Node) -> String {
    match n {
        Node::Leaf(Leaf::Static(v), _) => v.to_string(),
        Node::Leaf(Leaf::Dyn(e), _) => format!("{{{e}}}"),
        Node::Tuple(v, _) => format!("({})", v.iter().map(text).collect::<Vec<_>>().join(",")),
    }
}

fn leaves<'a>(n: &'a Node, out: &mut Vec<(&'a Leaf, proc_macro2::Span)>) {
    match n {
        Node::Leaf(l, s) => out.push((l, *s)),
        Node::Tuple(v, _) => v.iter().for_each(|m| leaves(m, out)),
    }
}

/// The values a leaf may take: no negative shape; no negative at all in cute-static; within i64
/// in cute-dyn.
fn check_leaves(n: &Node, is_shape: bool, form: Form, errs: &mut Vec<Error>) {
    let mut v = Vec::new();
    leaves(n, &mut v);
    for (leaf, span) in v {
        let x = match leaf {
            Leaf::Static(x) => x,
            Leaf::Dyn(e) if form == Form::Type && !crate::parse::is_usize(e) => {
                errs.push(Error::new(
                    span,
                    format!(
                        "run-time leaf {{{e}}} in type position: a type cannot hold a run-time value; \
                         write `usize` for a run-time leaf of the type (`Layout![(usize,8):(1,usize)]`), \
                         or build the value with layout!/shape!/tiler! and let its type be inferred"
                    ),
                ));
                continue;
            }
            Leaf::Dyn(e) if form != Form::Type && crate::parse::is_usize(e) => {
                errs.push(Error::new(
                    span,
                    "`usize` is the type of a run-time leaf (`Layout![(usize,8):(1,usize)]`); a value's run-time leaf is `{expr}`",
                ));
                continue;
            }
            Leaf::Dyn(_) => continue,
        };
        let what = if is_shape { "shape" } else { "stride" };
        if *x < 0 && (is_shape || form != Form::Dyn) {
            let why = if is_shape {
                "a shape is a count of elements".to_string()
            } else {
                "cute-static integers are unsigned (typenum); build a cute-dyn layout with layout_dyn! for negative strides".to_string()
            };
            errs.push(Error::new(span, format!("negative {what} {x} is not allowed: {why}")));
        } else if form == Form::Dyn && (*x > i128::from(i64::MAX) || *x < i128::from(i64::MIN)) {
            errs.push(Error::new(span, format!("{what} {x} does not fit cute-dyn's i64")));
        }
    }
}

/// Shape and stride congruent: the first place where they differ is reported on the stride.
fn check_congruent(shape: &Node, stride: &Node, errs: &mut Vec<Error>) -> bool {
    match (shape, stride) {
        (Node::Leaf(..), Node::Leaf(..)) => true,
        (Node::Tuple(a, _), Node::Tuple(b, _)) if a.len() == b.len() => {
            a.iter().zip(b).all(|(x, y)| check_congruent(x, y, errs))
        }
        _ => {
            errs.push(Error::new(
                stride.span(),
                format!(
                    "not congruent: the stride `{}` pairs with the shape `{}`, which has another profile",
                    text(stride),
                    text(shape)
                ),
            ));
            false
        }
    }
}

pub fn layout(l: &LayoutLit, form: Form, errs: &mut Vec<Error>) {
    check_leaves(&l.shape, true, form, errs);
    if let Stride::Explicit(d) = &l.stride {
        check_leaves(d, false, form, errs);
        check_congruent(&l.shape, d, errs);
    }
}

/// A layout or a composed layout: CuTe's conditions on `Sw<B,M,S>` (`|S| >= B`, and within
/// 62 bits as cute-dyn's `Swizzle::new`), a static non-negative offset, then the layout's own.
pub fn any_layout(l: &AnyLayout, form: Form, errs: &mut Vec<Error>) {
    let c: &ComposedLit = match l {
        AnyLayout::Plain(l) => return layout(l, form, errs),
        AnyLayout::Composed(c) => c,
    };
    let [(b, bs), (m, ms), (s, ss)] = c.swizzle.params;
    for (name, x, span) in [("B", b, bs), ("M", m, ms)] {
        if x < 0 {
            errs.push(Error::new(span, format!("swizzle parameter {name} = {x} must be non-negative")));
        }
    }
    if s.abs() < b {
        errs.push(Error::new(
            ss,
            format!("swizzle parameters violated: |S| = {} is below B = {b} (CuTe: abs(S) >= B)", s.abs()),
        ));
    } else if b + m + s.abs() > 62 {
        errs.push(Error::new(ss, format!("swizzle bits B + M + |S| = {} exceed 62", b + m + s.abs())));
    }
    match &c.offset {
        None => {}
        Some(Node::Leaf(Leaf::Static(x), _)) if *x >= 0 => {}
        Some(n) => errs.push(Error::new(
            n.span(),
            format!(
                "the offset `{}` of a composed layout must be a non-negative integer (it is static in cute-static)",
                text(n)
            ),
        )),
    }
    layout(&c.inner, form, errs);
}

pub fn int_tuple(n: &Node, form: Form, errs: &mut Vec<Error>) {
    // A bare tuple (shape! / stride!) may be either; only the static form refuses negatives.
    check_leaves(n, form != Form::Dyn, form, errs);
}

pub fn tiler(t: &TilerLit, form: Form, errs: &mut Vec<Error>) {
    match t {
        TilerLit::Layout(l) => layout(l, form, errs),
        TilerLit::Under => {}
        TilerLit::ByMode(v) => v.iter().for_each(|e| tiler(e, form, errs)),
    }
}

/// Combine collected errors into one.
pub fn combine(errs: Vec<Error>) -> Result<(), Error> {
    let mut it = errs.into_iter();
    match it.next() {
        None => Ok(()),
        Some(mut first) => {
            for e in it {
                first.combine(e);
            }
            Err(first)
        }
    }
}
