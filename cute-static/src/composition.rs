//! Tilers, the right-hand sides of composition, the divides and the products.

use core::fmt;

use crate::int_tuple::{Cons, IntTuple, Nil};
use crate::layout::Layout;

/// `<t0,t1,...>`: a by-mode tiler; element i applies to mode i.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct ByMode<L>(pub L);

/// `_`: leave the mode as it is.
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Under;

/// A tiler element: a layout, `_`, or a nested by-mode tiler.
pub trait Tiler: Copy {
    /// Write in the notation.
    ///
    /// # Errors
    /// Only the formatter's.
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result;
    /// The `cute-dyn` tiler.
    ///
    /// # Errors
    /// `Overflow` for a value above `i64::MAX`.
    fn to_dyn(&self) -> cute_dyn::Result<cute_dyn::Tiler>;
}

/// The elements of a by-mode tiler.
pub trait TilerList: Copy {
    /// Write the elements, comma separated.
    ///
    /// # Errors
    /// Only the formatter's.
    fn write_elems(&self, f: &mut fmt::Formatter<'_>, first: bool) -> fmt::Result;
    /// Push the `cute-dyn` elements.
    ///
    /// # Errors
    /// As [`Tiler::to_dyn`].
    fn push_dyn(&self, out: &mut alloc::vec::Vec<cute_dyn::Tiler>) -> cute_dyn::Result<()>;
}

impl TilerList for Nil {
    fn write_elems(&self, _: &mut fmt::Formatter<'_>, _: bool) -> fmt::Result {
        Ok(())
    }
    fn push_dyn(&self, _: &mut alloc::vec::Vec<cute_dyn::Tiler>) -> cute_dyn::Result<()> {
        Ok(())
    }
}

impl<H: Tiler, T: TilerList> TilerList for Cons<H, T> {
    fn write_elems(&self, f: &mut fmt::Formatter<'_>, first: bool) -> fmt::Result {
        if !first {
            f.write_str(",")?;
        }
        self.0.write(f)?;
        self.1.write_elems(f, false)
    }
    fn push_dyn(&self, out: &mut alloc::vec::Vec<cute_dyn::Tiler>) -> cute_dyn::Result<()> {
        out.push(self.0.to_dyn()?);
        self.1.push_dyn(out)
    }
}

impl<L: TilerList> Tiler for ByMode<L> {
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<")?;
        self.0.write_elems(f, true)?;
        f.write_str(">")
    }
    fn to_dyn(&self) -> cute_dyn::Result<cute_dyn::Tiler> {
        let mut v = alloc::vec::Vec::new();
        self.0.push_dyn(&mut v)?;
        Ok(cute_dyn::Tiler::ByMode(v))
    }
}

impl Tiler for Under {
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("_")
    }
    fn to_dyn(&self) -> cute_dyn::Result<cute_dyn::Tiler> {
        Ok(cute_dyn::Tiler::Under)
    }
}

impl<S: crate::layout::Congruent<D>, D: IntTuple> Tiler for Layout<S, D> {
    fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
    fn to_dyn(&self) -> cute_dyn::Result<cute_dyn::Tiler> {
        Ok(cute_dyn::Tiler::Layout(Layout::to_dyn(self)?))
    }
}

impl<L: TilerList> fmt::Display for ByMode<L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Tiler::write(self, f)
    }
}

macro_rules! int_tiler {
    ($([$($g:ident: $b:path),*] $ty:ty);*) => {$(
        /// A bare integer `n` in a tiler: the layout `n:1` (printed `n`).
        impl<$($g: $b),*> Tiler for $ty {
            fn write(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                IntTuple::write(self, f)
            }
            fn to_dyn(&self) -> cute_dyn::Result<cute_dyn::Tiler> {
                match IntTuple::to_dyn(self)? {
                    cute_dyn::Tuple::Leaf(n) => Ok(cute_dyn::Tiler::Int(n)),
                    _ => unreachable!("a leaf is a leaf"),
                }
            }
        }
    )*};
}
int_tiler!([] typenum::UTerm; [U: typenum::Unsigned, B: typenum::Bit] typenum::UInt<U, B>; [] usize);
