//! Code generation: types (typenum binary integers in cons lists), cute-static values, and
//! cute-dyn values.

use proc_macro2::{Span, TokenStream};
use quote::{quote, quote_spanned};
use syn::Error;

use crate::parse::{AnyLayout, ComposedLit, LayoutLit, Leaf, Node, Stride, TilerLit};

/// A leaf of an expanded stride: a static value, or a run-time product of dynamic leaves.
#[derive(Clone)]
enum Val {
    Static(i128),
    /// `static factor * local0 * local1 ...` (indices of dynamic leaves of the shape).
    Dyn(i128, Vec<usize>),
}

/// A tuple of [`Val`]s with the shape's profile.
enum Tree {
    Leaf(Val, Span),
    Tuple(Vec<Tree>),
}

/// The expansion context: the crate path and the run-time leaves bound to locals.
pub struct Ctx {
    pub krate: TokenStream,
    dyns: Vec<(TokenStream, Span)>,
}

impl Ctx {
    pub fn new(krate: TokenStream) -> Ctx {
        Ctx { krate, dyns: Vec::new() }
    }

    fn local(i: usize) -> syn::Ident {
        syn::Ident::new(&format!("__cute_leaf{i}"), Span::mixed_site())
    }

    /// `{ let __cute_leaf0: TY = expr0; ...; body }`, or `body`.
    pub fn wrap(&self, ty: TokenStream, body: TokenStream) -> TokenStream {
        if self.dyns.is_empty() {
            return body;
        }
        let lets = self.dyns.iter().enumerate().map(|(i, (e, span))| {
            let name = Ctx::local(i);
            quote_spanned! {*span=> let #name: #ty = #e; }
        });
        quote! {{ #(#lets)* #body }}
    }

    fn bind(&mut self, e: &TokenStream, span: Span) -> usize {
        self.dyns.push((e.clone(), span));
        self.dyns.len() - 1
    }
}

/// typenum names `U0` to `U1024`.
const TYPENUM_ALIASES: u64 = 1024;

/// typenum's type for `n`: its alias (`U2`) up to 1024, past that the binary form
/// `UInt<UInt<.., B1>, B0>` (any value, not only the aliases typenum names).
fn typenum(krate: &TokenStream, n: u64) -> TokenStream {
    if n <= TYPENUM_ALIASES {
        // typenum's own alias: one path for the compiler to resolve, where the binary form is
        // one per bit (`compile_time.sh --instructions`: with a static literal's value as its
        // type's default, two layout literals cost 10 -> 3 million instructions).
        let alias = syn::Ident::new(&format!("U{n}"), Span::call_site());
        return quote! { #krate::typenum::#alias };
    }
    let high = typenum(krate, n >> 1);
    let bit = if n & 1 == 1 {
        quote! { #krate::typenum::B1 }
    } else {
        quote! { #krate::typenum::B0 }
    };
    quote! { #krate::typenum::UInt<#high, #bit> }
}

fn leaf_type(krate: &TokenStream, v: &Val) -> TokenStream {
    match v {
        Val::Static(n) => typenum(krate, *n as u64),
        Val::Dyn(..) => quote! { usize },
    }
}

/// The shape (a node) as a tree of values, binding run-time leaves to locals.
fn shape_tree(ctx: &mut Ctx, n: &Node) -> Tree {
    match n {
        Node::Leaf(Leaf::Static(v), s) => Tree::Leaf(Val::Static(*v), *s),
        Node::Leaf(Leaf::Dyn(e), s) => {
            let i = ctx.bind(e, *s);
            Tree::Leaf(Val::Dyn(1, vec![i]), *s)
        }
        Node::Tuple(v, _) => Tree::Tuple(v.iter().map(|m| shape_tree(ctx, m)).collect()),
    }
}

/// Compact strides (LayoutLeft or LayoutRight) for a shape tree: static size-1 modes get `0`
/// (as CuTe C++), a stride after a run-time leaf is a run-time product.
fn compact(shape: &Tree, left: bool) -> Result<Tree, Error> {
    fn go(t: &Tree, cur: &mut Val, left: bool) -> Result<Tree, Error> {
        match t {
            Tree::Leaf(Val::Static(1), s) => Ok(Tree::Leaf(Val::Static(0), *s)),
            Tree::Leaf(v, s) => {
                let d = cur.clone();
                // Every static factor stays within u64 (the leaves' range).
                let mul = |a: i128, b: i128| {
                    a.checked_mul(b)
                        .filter(|p| *p <= i128::from(u64::MAX))
                        .ok_or_else(|| Error::new(*s, "the compact strides overflow u64"))
                };
                *cur = match (cur.clone(), v) {
                    (Val::Static(a), Val::Static(b)) => Val::Static(mul(a, *b)?),
                    (Val::Static(a), Val::Dyn(f, l)) => Val::Dyn(mul(a, *f)?, l.clone()),
                    (Val::Dyn(a, l), Val::Static(f)) => Val::Dyn(mul(a, *f)?, l),
                    (Val::Dyn(a, mut l), Val::Dyn(f, l2)) => {
                        l.extend(l2);
                        Val::Dyn(mul(a, *f)?, l)
                    }
                };
                Ok(Tree::Leaf(d, *s))
            }
            Tree::Tuple(v) => {
                let mut out: Vec<Tree> = Vec::with_capacity(v.len());
                if left {
                    for m in v {
                        out.push(go(m, cur, left)?);
                    }
                } else {
                    for m in v.iter().rev() {
                        out.push(go(m, cur, left)?);
                    }
                    out.reverse();
                }
                Ok(Tree::Tuple(out))
            }
        }
    }
    go(shape, &mut Val::Static(1), left)
}

fn stride_tree(ctx: &mut Ctx, l: &LayoutLit, shape: &Tree) -> Result<Tree, Error> {
    match &l.stride {
        Stride::Explicit(n) => Ok(shape_tree(ctx, n)),
        Stride::Left => compact(shape, true),
        Stride::Right => compact(shape, false),
    }
}

// ----------------------------------------------------------------- cute-static

fn tuple_type(krate: &TokenStream, t: &Tree) -> TokenStream {
    match t {
        Tree::Leaf(v, _) => leaf_type(krate, v),
        Tree::Tuple(v) => v.iter().rev().fold(quote! { #krate::Nil }, |acc, m| {
            let h = tuple_type(krate, m);
            quote! { #krate::Cons<#h, #acc> }
        }),
    }
}

/// Whether every leaf is static.
fn all_static(t: &Tree) -> bool {
    match t {
        Tree::Leaf(v, _) => matches!(v, Val::Static(_)),
        Tree::Tuple(v) => v.iter().all(all_static),
    }
}

/// The run-time leaves of a tuple: each one's field path (`Cons` is `(head, rest)`: mode `i`
/// is `.1` taken `i` times, then `.0`) and its value.
fn run_time_leaves(t: &Tree, path: &mut Vec<usize>, out: &mut Vec<(Vec<usize>, TokenStream)>) {
    match t {
        Tree::Leaf(Val::Static(_), _) => {}
        Tree::Leaf(Val::Dyn(f, locals), _) => {
            // Within u64 by construction; a factor above usize::MAX cannot be a stride here.
            let f = usize::try_from(*f).unwrap_or(usize::MAX);
            let names = locals.iter().map(|&i| Ctx::local(i));
            out.push((path.clone(), quote! { (#f #(* #names)*) }));
        }
        Tree::Tuple(v) => {
            for (i, m) in v.iter().enumerate() {
                let depth = path.len();
                path.extend(core::iter::repeat_n(1, i));
                path.push(0);
                run_time_leaves(m, path, out);
                path.truncate(depth);
            }
        }
    }
}

/// The value of a tuple of type `ty`: its default (the static leaves are zero-sized), the
/// run-time leaves then assigned by field. (One `Default` for the whole type, not a call per
/// leaf: `compile_time.sh --instructions 40`, a layout literal with a run-time leaf 3 -> 2.)
fn tuple_value_static(ty: &TokenStream, t: &Tree) -> TokenStream {
    let mut leaves = Vec::new();
    run_time_leaves(t, &mut Vec::new(), &mut leaves);
    match (t, leaves.as_slice()) {
        (Tree::Leaf(..), [(_, v)]) => v.clone(),
        (_, []) => quote! { <#ty as ::core::default::Default>::default() },
        _ => {
            let sets = leaves.iter().map(|(path, v)| {
                let fields = path.iter().map(|&i| syn::Index::from(i));
                quote! { __cute_value #(.#fields)* = #v; }
            });
            quote! {{
                let mut __cute_value = <#ty as ::core::default::Default>::default();
                #(#sets)*
                __cute_value
            }}
        }
    }
}

/// `Layout<S, D>` and its value.
pub fn layout_static(ctx: &mut Ctx, l: &LayoutLit) -> Result<(TokenStream, TokenStream), Error> {
    let shape = shape_tree(ctx, &l.shape);
    let stride = stride_tree(ctx, l, &shape)?;
    let k = &ctx.krate;
    let (st, dt) = (tuple_type(k, &shape), tuple_type(k, &stride));
    // Congruence was checked here, at expansion; the type checker is not asked again.
    let value = if all_static(&shape) && all_static(&stride) {
        // Every leaf static: the type's value (zero-sized).
        quote! { <#k::Layout<#st, #dt> as ::core::default::Default>::default() }
    } else {
        let (sv, dv) = (tuple_value_static(&st, &shape), tuple_value_static(&dt, &stride));
        quote! { #k::__private::layout_literal::<#st, #dt>(#sv, #dv) }
    };
    Ok((quote! { #k::Layout<#st, #dt> }, value))
}

/// `ComposedLayout<Swizzle<B, M, S>, OFFSET, Layout<..>>` and its value (the parameters and
/// the offset validated: in range, the offset a static leaf).
pub fn composed_static(ctx: &mut Ctx, c: &ComposedLit) -> Result<(TokenStream, TokenStream), Error> {
    let (lt, lv) = layout_static(ctx, &c.inner)?;
    let k = &ctx.krate;
    let [(b, _), (m, _), (s, _)] = c.swizzle.params;
    let (b, m) = (typenum(k, b as u64), typenum(k, m as u64));
    let s = match s {
        0 => quote! { #k::typenum::Z0 },
        s if s > 0 => {
            let u = typenum(k, s as u64);
            quote! { #k::typenum::PInt<#u> }
        }
        s => {
            let u = typenum(k, s.unsigned_abs() as u64);
            quote! { #k::typenum::NInt<#u> }
        }
    };
    let offset = match &c.offset {
        Some(Node::Leaf(Leaf::Static(o), _)) => *o as u64,
        _ => 0,
    };
    let o = typenum(k, offset);
    let sw = quote! { #k::Swizzle<#b, #m, #s> };
    Ok((
        quote! { #k::ComposedLayout<#sw, #o, #lt> },
        quote! { #k::ComposedLayout::new(<#sw>::new(), <#o as ::core::default::Default>::default(), #lv) },
    ))
}

/// A layout or a composed layout: its type and value.
pub fn any_layout_static(ctx: &mut Ctx, l: &AnyLayout) -> Result<(TokenStream, TokenStream), Error> {
    match l {
        AnyLayout::Plain(l) => layout_static(ctx, l),
        AnyLayout::Composed(c) => composed_static(ctx, c),
    }
}

pub fn int_tuple_static(ctx: &mut Ctx, n: &Node) -> (TokenStream, TokenStream) {
    let t = shape_tree(ctx, n);
    let ty = tuple_type(&ctx.krate, &t);
    let value = tuple_value_static(&ty, &t);
    (ty, value)
}

pub fn tiler_static(ctx: &mut Ctx, t: &TilerLit) -> Result<(TokenStream, TokenStream), Error> {
    let k = ctx.krate.clone();
    Ok(match t {
        // A bare integer (a shape leaf with no stride) is printed `n` and means `n:1`.
        TilerLit::Layout(LayoutLit { shape: n @ Node::Leaf(..), stride: Stride::Left }) => int_tuple_static(ctx, n),
        TilerLit::Layout(l) => layout_static(ctx, l)?,
        TilerLit::Under => (quote! { #k::Under }, quote! { #k::Under }),
        TilerLit::ByMode(v) => {
            let parts = v.iter().map(|e| tiler_static(ctx, e)).collect::<Result<Vec<_>, _>>()?;
            let ty = parts.iter().rev().fold(quote! { #k::Nil }, |acc, (t, _)| quote! { #k::Cons<#t, #acc> });
            let val = parts.iter().rev().fold(quote! { #k::Nil }, |acc, (_, v)| quote! { #k::Cons(#v, #acc) });
            (quote! { #k::ByMode<#ty> }, quote! { #k::ByMode(#val) })
        }
    })
}

// ----------------------------------------------------------------- cute-dyn

fn tuple_value_dyn(krate: &TokenStream, t: &Tree) -> TokenStream {
    let d = quote! { #krate::cute_dyn };
    match t {
        Tree::Leaf(Val::Static(n), span) => match i64::try_from(*n) {
            Ok(n) => quote! { #d::Tuple::Leaf(#d::Int::st(#n)) },
            Err(_) => Error::new(*span, format!("{n} does not fit cute-dyn's i64")).into_compile_error(),
        },
        Tree::Leaf(Val::Dyn(f, locals), span) => {
            let Ok(f) = i64::try_from(*f) else {
                return Error::new(*span, format!("the stride factor {f} does not fit cute-dyn's i64"))
                    .into_compile_error();
            };
            let names = locals.iter().map(|&i| Ctx::local(i));
            quote! { #d::Tuple::Leaf(#d::Int::dy(#f #(.checked_mul(#names).ok_or(#d::Error::Overflow { op: "layout_dyn" })?)*)) }
        }
        Tree::Tuple(v) => {
            let modes = v.iter().map(|m| tuple_value_dyn(krate, m));
            quote! { #d::Tuple::Node(::std::vec![#(#modes),*]) }
        }
    }
}

/// Bind the run-time leaves as i64 (an out-of-range value is an `Overflow` error).
fn dyn_body(ctx: &Ctx, body: TokenStream, ret: TokenStream) -> TokenStream {
    let d = {
        let k = &ctx.krate;
        quote! { #k::cute_dyn }
    };
    let lets = ctx.dyns.iter().enumerate().map(|(i, (e, span))| {
        let name = Ctx::local(i);
        // The value's type is the caller's; for i64 or i32 the conversion cannot fail.
        quote_spanned! {*span=>
            #[allow(clippy::unnecessary_fallible_conversions)]
            let #name: i64 = ::core::convert::TryFrom::try_from(#e).map_err(|_| #d::Error::Overflow { op: "layout_dyn" })?;
        }
    });
    quote! {
        (|| -> #d::Result<#ret> { #(#lets)* ::core::result::Result::Ok(#body) })()
    }
}

pub fn layout_dyn(ctx: &mut Ctx, l: &LayoutLit) -> Result<TokenStream, Error> {
    let shape = shape_tree(ctx, &l.shape);
    let stride = stride_tree(ctx, l, &shape)?;
    let k = ctx.krate.clone();
    let (sv, dv) = (tuple_value_dyn(&k, &shape), tuple_value_dyn(&k, &stride));
    let body = quote! { #k::cute_dyn::Layout::new(#sv, #dv)? };
    Ok(dyn_body(ctx, body, quote! { #k::cute_dyn::Layout }))
}

pub fn int_tuple_dyn(ctx: &mut Ctx, n: &Node) -> TokenStream {
    let t = shape_tree(ctx, n);
    let k = ctx.krate.clone();
    let v = tuple_value_dyn(&k, &t);
    dyn_body(ctx, v, quote! { #k::cute_dyn::IntTuple })
}

fn tiler_dyn_value(ctx: &mut Ctx, t: &TilerLit) -> Result<TokenStream, Error> {
    let k = ctx.krate.clone();
    let d = quote! { #k::cute_dyn };
    Ok(match t {
        TilerLit::Layout(LayoutLit { shape: n @ Node::Leaf(..), stride: Stride::Left }) => {
            let v = tuple_value_dyn(&k, &shape_tree(ctx, n));
            quote! { match #v { #d::Tuple::Leaf(n) => #d::Tiler::Int(n), _ => ::core::unreachable!() } }
        }
        TilerLit::Layout(l) => {
            let shape = shape_tree(ctx, &l.shape);
            let stride = stride_tree(ctx, l, &shape)?;
            let (sv, dv) = (tuple_value_dyn(&k, &shape), tuple_value_dyn(&k, &stride));
            quote! { #d::Tiler::Layout(#d::Layout::new(#sv, #dv)?) }
        }
        TilerLit::Under => quote! { #d::Tiler::Under },
        TilerLit::ByMode(v) => {
            let parts = v.iter().map(|e| tiler_dyn_value(ctx, e)).collect::<Result<Vec<_>, _>>()?;
            quote! { #d::Tiler::ByMode(::std::vec![#(#parts),*]) }
        }
    })
}

pub fn tiler_dyn(ctx: &mut Ctx, t: &TilerLit) -> Result<TokenStream, Error> {
    let v = tiler_dyn_value(ctx, t)?;
    let k = ctx.krate.clone();
    Ok(dyn_body(ctx, v, quote! { #k::cute_dyn::Tiler }))
}
