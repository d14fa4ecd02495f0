//! Compile errors with numbers in decimal (cute-static's preconditions).
//!
//! rustc prints a type-level number as `UInt<UInt<UTerm, B1>, B0>`, but it prints a const
//! generic argument as its value, and `#[diagnostic::on_unimplemented]` can name const
//! parameters. So a precondition on numbers `x, y` becomes a trait with one `u8` const
//! parameter per decimal digit, one trait per combination of digit counts (a message has a
//! fixed number of slots, and leading zeros would be noise). cute-static turns a typenum number
//! into `DecN<d1, .., dN>` (its decimal digits) and implements `Report` for each pair of digit
//! structs only where the matching trait holds, which it never does: the error is that trait's.
//! The message attribute cannot be built by `macro_rules!` (`concat!` is not accepted there),
//! hence a proc macro.

use proc_macro2::{Ident, Span, TokenStream};
use quote::{format_ident, quote};
use syn::parse::{Parse, ParseStream};
use syn::{Attribute, LitStr, Token};

/// Decimal digits of a `u64`.
pub const MAX_DIGITS: usize = 20;

/// `pub trait Name(x, y) { message = "..{x}..{y}..", label = "..", note = ".." }`.
pub struct Condition {
    attrs: Vec<Attribute>,
    name: Ident,
    numbers: Vec<Ident>,
    message: LitStr,
    label: Option<LitStr>,
    note: Option<LitStr>,
}

impl Parse for Condition {
    fn parse(input: ParseStream) -> syn::Result<Self> {
        let attrs = input.call(Attribute::parse_outer)?;
        input.parse::<Token![pub]>()?;
        input.parse::<Token![trait]>()?;
        let name: Ident = input.parse()?;
        let args;
        syn::parenthesized!(args in input);
        let numbers: Vec<Ident> = args.parse_terminated(Ident::parse, Token![,])?.into_iter().collect();
        if numbers.is_empty() || numbers.len() > 2 {
            return Err(syn::Error::new(name.span(), "a condition names one or two numbers"));
        }
        let body;
        syn::braced!(body in input);
        let (mut message, mut label, mut note) = (None, None, None);
        while !body.is_empty() {
            let key: Ident = body.parse()?;
            body.parse::<Token![=]>()?;
            let value: LitStr = body.parse()?;
            match key.to_string().as_str() {
                "message" => message = Some(value),
                "label" => label = Some(value),
                "note" => note = Some(value),
                _ => return Err(syn::Error::new(key.span(), "expected `message`, `label` or `note`")),
            }
            if !body.is_empty() {
                body.parse::<Token![,]>()?;
            }
        }
        let message = message.ok_or_else(|| syn::Error::new(name.span(), "a condition needs a `message`"))?;
        Ok(Condition { attrs, name, numbers, message, label, note })
    }
}

/// The digit-count combinations of `n` numbers.
fn combinations(n: usize) -> Vec<Vec<usize>> {
    let mut out = vec![vec![]];
    for _ in 0..n {
        out = out.into_iter().flat_map(|c| (1..=MAX_DIGITS).map(move |k| [c.clone(), vec![k]].concat())).collect();
    }
    out
}

/// Replaces `{name}` in `text` by the digit slots of that number.
fn fill(text: &LitStr, numbers: &[Ident], slots: &[Vec<Ident>]) -> LitStr {
    let mut s = text.value();
    for (name, digits) in numbers.iter().zip(slots) {
        let spelled: String = digits.iter().map(|d| format!("{{{d}}}")).collect();
        s = s.replace(&format!("{{{name}}}"), &spelled);
    }
    LitStr::new(&s, text.span())
}

fn snake(name: &Ident) -> Ident {
    let mut s = String::new();
    for (i, c) in name.to_string().chars().enumerate() {
        if c.is_uppercase() && i > 0 {
            s.push('_');
        }
        s.push(c.to_ascii_lowercase());
    }
    Ident::new(&s, name.span())
}

pub fn condition(c: &Condition) -> TokenStream {
    let Condition { attrs, name, numbers, .. } = c;
    let module = snake(name);
    let params: Vec<Ident> = (0..numbers.len()).map(|i| format_ident!("X{}", i)).collect();
    let mut items = TokenStream::new();
    for counts in combinations(numbers.len()) {
        let slots: Vec<Vec<Ident>> = counts
            .iter()
            .enumerate()
            .map(|(i, &k)| (0..k).map(|j| format_ident!("{}{}", ["P", "Q"][i], j)).collect())
            .collect();
        let all: Vec<&Ident> = slots.iter().flatten().collect();
        let trait_name = format_ident!(
            "Violated{}",
            counts.iter().map(usize::to_string).collect::<Vec<_>>().join("x"),
            span = Span::call_site()
        );
        let message = fill(&c.message, numbers, &slots);
        let label = c.label.as_ref().map(|l| fill(l, numbers, &slots)).map(|l| quote!(, label = #l));
        let note = c.note.as_ref().map(|n| fill(n, numbers, &slots)).map(|n| quote!(, note = #n));
        let decs = counts.iter().zip(&slots).map(|(k, s)| {
            let dec = format_ident!("Dec{}", k);
            quote!(crate::digits::#dec<#(#s),*>)
        });
        items.extend(quote! {
            #[diagnostic::on_unimplemented(message = #message #label #note)]
            pub trait #trait_name<#(const #all: u8),*> {}
            impl<#(const #all: u8),*> Report for (#(#decs,)*) where (): #trait_name<#(#all),*> {}
        });
    }
    // A bound names `<Bit as Condition<..>>::Check: condition::Report`, not `Bit: Condition<..>`:
    // the numbers are made decimal by normalizing a projection, not by an impl's where-clause,
    // so that rustc's chain of "required for" notes has no step naming them in typenum.
    quote! {
        #(#attrs)*
        pub trait #name<#(#params),*> {
            /// What a bound checks with `Report`: nothing where the condition holds, its
            /// numbers in decimal where it does not.
            type Check;
            /// The condition as a value ([`crate::verdict`]): `Holds`, or `Failed` with its
            /// numbers in decimal.
            type Verdict;
        }
        impl<#(#params),*> #name<#(#params),*> for typenum::B1 {
            type Check = #module::Holds;
            type Verdict = crate::verdict::Holds;
        }
        impl<#(#params: crate::digits::Decimal),*> #name<#(#params),*> for typenum::B0 {
            type Check = (#(<#params as crate::digits::Decimal>::Output,)*);
            type Verdict = #module::Failed<(#(<#params as crate::digits::Decimal>::Output,)*)>;
        }

        #[doc(hidden)]
        #[allow(non_camel_case_types)]
        pub mod #module {
            /// Implemented where the condition holds, and for its numbers in decimal where it
            /// does not only where its `Violated` trait is implemented: never.
            pub trait Report {}
            /// The condition holds.
            pub struct Holds;
            impl Report for Holds {}
            /// The condition fails for these numbers (in decimal): a verdict that
            /// [`crate::verdict::Pass`] only where `Report` is implemented (never).
            pub struct Failed<T>(core::marker::PhantomData<T>);
            impl<T> Default for Failed<T> {
                fn default() -> Self {
                    Failed(core::marker::PhantomData)
                }
            }
            impl<T: Report> crate::verdict::Settle for Failed<T> {}
            impl<T, V> crate::verdict::First<V> for Failed<T> {
                type Output = Self;
            }
            impl<T> crate::verdict::Leafwise for Failed<T> {
                type Verdict = Self;
            }
            // Where a leafwise algorithm put the verdict in place of a leaf, the (never used)
            // result is a static layout like the others.
            impl<T> crate::int_tuple::StaticBit for Failed<T> {
                type Output = typenum::B1;
            }
            impl<T> Clone for Failed<T> {
                fn clone(&self) -> Self {
                    *self
                }
            }
            impl<T> Copy for Failed<T> {}
            impl<T> crate::verdict::Terminated for Failed<T> {
                type List = crate::Nil;
                type Verdict = Self;
            }
            #items
        }
    }
}

/// `Dec0 .. Dec20` (a number's decimal digits as const parameters) and `Push<digit>`, which
/// appends a digit given as a typenum `U0 ..= U9`.
pub fn digits() -> TokenStream {
    let mut out = TokenStream::new();
    for k in 0..=MAX_DIGITS {
        let dec = format_ident!("Dec{}", k);
        let ps: Vec<Ident> = (0..k).map(|j| format_ident!("P{}", j)).collect();
        let doc = format!("A number of {k} decimal digits.");
        out.extend(quote! {
            #[doc = #doc]
            pub struct #dec<#(const #ps: u8),*>;
        });
        if k < MAX_DIGITS {
            let next = format_ident!("Dec{}", k + 1);
            for d in 0..10u8 {
                let digit = format_ident!("U{}", d);
                out.extend(quote! {
                    impl<#(const #ps: u8),*> Push<typenum::#digit> for #dec<#(#ps),*> {
                        type Output = #next<#(#ps,)* #d>;
                    }
                });
            }
        }
    }
    out
}
