//! # cute-macros: layout literals
//!
//! The macros are used through `cute_static` (which passes its own path to them, so they work
//! from any crate): `layout!`/`Layout!` (a value / a type), `shape!`/`Shape!`,
//! `stride!`/`Stride!`, `tiler!`/`Tiler!`, and `layout_dyn!`, `int_tuple_dyn!`, `tiler_dyn!`
//! for `cute_dyn` values.
//!
//! ## Grammar
//!
//! ```text
//! Layout  ::= Tuple                          compact column-major strides (LayoutLeft)
//!           | Tuple ":" Tuple                shape:stride, congruent
//!           | Tuple ":" LayoutLeft | Tuple ":" LayoutRight
//! Tuple   ::= Leaf | "(" ")" | "(" Tuple ("," Tuple)* ")"       (4) is rank 1, () is empty
//! Leaf    ::= INT                            a static integer, 0 ..= u64::MAX (any value)
//!           | "{" EXPR "}"                   a run-time value of the caller's scope
//! Tiler   ::= "<" Elem ("," Elem)* ">" | Layout
//! Elem    ::= Layout | INT (meaning INT:1) | "_" (keep the mode) | Tiler
//! Any     ::= "Sw" "<" B "," M "," S ">" "o" (INT "o")? Layout    (layout! and Layout!)
//! ```
//!
//! `layout!(Sw<3,3,3> o (8,64):(64,1))` is the composed layout `Sw<3,3,3> o 0 o (8,64):(64,1)`
//! (cute-static's `ComposedLayout`), written as CuTe C++ prints it, the offset optional (0);
//! `S` may be negative. CuTe's `abs(S) >= B` and a non-negative static offset are checked at
//! the literal.
//!
//! In cute-static an integer is a typenum type (static, zero-sized) and `{expr}` a `usize`
//! (dynamic). The cute-dyn forms make literals static and `{expr}` dynamic, and also accept
//! negative strides (`-3`); they return `cute_dyn::Result` (a run-time value may not fit `i64`).
//! Static size-1 modes of compact layouts get stride 0, as in CuTe C++.
//!
//! **rustfmt**: `(4)` (a rank-1 tuple) and `((4))` (a tuple holding one) differ here, but
//! rustfmt's default `remove_nested_parens = true` rewrites `shape!(((4)))` into `shape!((4))`
//! (it reads the arguments as an expression). Set `remove_nested_parens = false` in
//! `rustfmt.toml` (this workspace does), or write such literals with brackets, `shape![((4))]`.
//!
//! Malformed literals (a shape and a stride that are not congruent, a negative where none is
//! allowed, a stray token, an unclosed `<`) are refused at expansion, with the span on the
//! offending token.
//!
//! ## Examples
//!
//! ```
//! use cute_static::{layout, shape, stride, tiler, Layout, Shape};
//!
//! let l = layout!((2,(1,6)):(1,(6,2)));
//! assert_eq!(l.to_string(), "(2,(1,6)):(1,(6,2))");
//! assert_eq!(layout!((2,(2,2))).to_string(), "(2,(2,2)):(1,(2,4))");
//! assert_eq!(layout!((2,(1,6)):LayoutRight).to_string(), "(2,(1,6)):(6,(0,1))");
//! let big = layout!(18446744073709551615:1);
//! assert_eq!(big.to_string(), "18446744073709551615:1");
//!
//! // Run-time leaves: {expr} in the caller's scope.
//! let (m, n) = (4, 6);
//! let d = layout!(({m},{n}));
//! assert_eq!(d.to_string(), "({4},{6}):(1,{4})");
//!
//! // Type position.
//! type Smem = Layout![(8,(4,8)):(32,(1,4))];
//! fn offset<L: cute_static::StaticLayout>(i: usize) -> usize { L::default().call(i) }
//! assert_eq!(offset::<Smem>(8), 1);
//! let _: Shape![(2,(3,4))] = shape!((2,(3,4)));
//! assert_eq!(stride!((1,(2,6))).to_string(), "(1,(2,6))");
//!
//! // A swizzled shared-memory layout, as CuTe C++ prints
//! // composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{}).
//! let smem = layout!(Sw<3,3,3> o (8,64):(64,1));
//! assert_eq!(smem.to_string(), "Sw<3,3,3> o 0 o (8,64):(64,1)");
//! assert_eq!(smem.call(1), 64 + 8); // (1,0): row 1's first 8-element chunk moves to chunk 1
//! type Swizzled = cute_static::Layout![Sw<3,3,3> o (8,64):(64,1)];
//! assert_eq!(Swizzled::default().call(65), 64);
//!
//! // Tilers: a bare n is n:1, _ keeps a mode.
//! assert_eq!(tiler!(<3:4,(2,4):(1,8)>).to_string(), "<3:4,(2,4):(1,8)>");
//!
//! // cute-dyn values from the same literals.
//! let x = cute_static::layout_dyn!((6,2):({m * 2},-2))?;
//! assert_eq!(x.to_string(), "(6,2):({8},-2)");
//! # Ok::<(), cute_static::cute_dyn::Error>(())
//! ```

use proc_macro::TokenStream;
use proc_macro2::Span;

mod diagnostic;
mod expand;
mod parse;
mod validate;

use validate::Form;

/// Parse `krate ; literal` with `rule`, then validate and expand; errors become
/// `compile_error!`s at their spans.
/// In type position only one error can be emitted (a second `compile_error!` after the first
/// is not a type, and rustc reports the tokens instead): the first one found.
fn type_position(errs: &mut Vec<syn::Error>, check: impl FnOnce(&mut Vec<syn::Error>)) {
    check(errs);
    errs.truncate(1);
}

fn run<T>(
    input: TokenStream,
    rule: impl FnOnce(&mut parse::Cursor) -> syn::Result<T>,
    check: impl FnOnce(&T, &mut Vec<syn::Error>),
    gen: impl FnOnce(&mut expand::Ctx, &T) -> syn::Result<proc_macro2::TokenStream>,
) -> TokenStream {
    let result = (|| {
        let (krate, toks) = parse::split_krate(input.into())?;
        if toks.is_empty() {
            return Err(syn::Error::new(Span::call_site(), "an empty literal: write e.g. `(2,3):(1,2)`"));
        }
        // "Found the end" errors point at the last token of the literal.
        let end = toks.last().map_or(Span::call_site(), proc_macro2::TokenTree::span);
        let mut cur = parse::Cursor::new(toks, end);
        let lit = rule(&mut cur)?;
        cur.finish("literal")?;
        let mut errs = Vec::new();
        check(&lit, &mut errs);
        validate::combine(errs)?;
        gen(&mut expand::Ctx::new(krate), &lit)
    })();
    result.unwrap_or_else(syn::Error::into_compile_error).into()
}

#[doc(hidden)]
#[proc_macro]
pub fn layout_value(input: TokenStream) -> TokenStream {
    run(
        input,
        |c| c.any_layout(),
        |l, e| validate::any_layout(l, Form::Static, e),
        |ctx, l| {
            let (_, v) = expand::any_layout_static(ctx, l)?;
            Ok(ctx.wrap(quote::quote!(usize), v))
        },
    )
}

#[doc(hidden)]
#[proc_macro]
pub fn layout_type(input: TokenStream) -> TokenStream {
    run(
        input,
        |c| c.any_layout(),
        |l, e| type_position(e, |e| validate::any_layout(l, Form::Type, e)),
        |ctx, l| Ok(expand::any_layout_static(ctx, l)?.0),
    )
}

#[doc(hidden)]
#[proc_macro]
pub fn int_tuple_value(input: TokenStream) -> TokenStream {
    run(
        input,
        |c| c.tuple(),
        |n, e| validate::int_tuple(n, Form::Static, e),
        |ctx, n| {
            let (_, v) = expand::int_tuple_static(ctx, n);
            Ok(ctx.wrap(quote::quote!(usize), v))
        },
    )
}

#[doc(hidden)]
#[proc_macro]
pub fn int_tuple_type(input: TokenStream) -> TokenStream {
    run(
        input,
        |c| c.tuple(),
        |n, e| type_position(e, |e| validate::int_tuple(n, Form::Type, e)),
        |ctx, n| Ok(expand::int_tuple_static(ctx, n).0),
    )
}

#[doc(hidden)]
#[proc_macro]
pub fn tiler_value(input: TokenStream) -> TokenStream {
    run(
        input,
        |c| c.tiler(false),
        |t, e| validate::tiler(t, Form::Static, e),
        |ctx, t| {
            let (_, v) = expand::tiler_static(ctx, t)?;
            Ok(ctx.wrap(quote::quote!(usize), v))
        },
    )
}

#[doc(hidden)]
#[proc_macro]
pub fn tiler_type(input: TokenStream) -> TokenStream {
    run(
        input,
        |c| c.tiler(false),
        |t, e| type_position(e, |e| validate::tiler(t, Form::Type, e)),
        |ctx, t| Ok(expand::tiler_static(ctx, t)?.0),
    )
}

#[doc(hidden)]
#[proc_macro]
pub fn layout_dyn(input: TokenStream) -> TokenStream {
    run(input, |c| c.layout(), |l, e| validate::layout(l, Form::Dyn, e), expand::layout_dyn)
}

#[doc(hidden)]
#[proc_macro]
pub fn int_tuple_dyn(input: TokenStream) -> TokenStream {
    run(input, |c| c.tuple(), |n, e| validate::int_tuple(n, Form::Dyn, e), |ctx, n| Ok(expand::int_tuple_dyn(ctx, n)))
}

#[doc(hidden)]
#[proc_macro]
pub fn tiler_dyn(input: TokenStream) -> TokenStream {
    run(input, |c| c.tiler(false), |t, e| validate::tiler(t, Form::Dyn, e), expand::tiler_dyn)
}

/// cute-static's decimal diagnostics: one precondition on one or two numbers (see
/// `diagnostic.rs`). Internal to cute-static.
#[doc(hidden)]
#[proc_macro]
pub fn decimal_condition(input: TokenStream) -> TokenStream {
    match syn::parse::<diagnostic::Condition>(input) {
        Ok(c) => diagnostic::condition(&c).into(),
        Err(e) => e.into_compile_error().into(),
    }
}

/// cute-static's digit structs `Dec0 ..= Dec20`. Internal to cute-static.
#[doc(hidden)]
#[proc_macro]
pub fn decimal_digits(_: TokenStream) -> TokenStream {
    diagnostic::digits().into()
}
