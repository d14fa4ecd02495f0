//! `Layout<Shape, Stride>`: a layout whose structure (and static values) are its type.

use core::fmt;

use crate::int_tuple::{Cons, IntTuple, Leaf, List, Nil};

/// Shape and stride have the same nesting profile (CuTe's `congruent`), and the layout
/// function `crd2idx` of an integer index over them.
#[diagnostic::on_unimplemented(
    message = "not congruent: the shape `{Self}` and the stride `{D}` have different profiles",
    label = "shape and stride must have the same nesting",
    note = "a leaf pairs with a leaf, a tuple of rank n with a tuple of rank n"
)]
pub trait Congruent<D: IntTuple>: IntTuple {
    /// `crd2idx(i, shape, stride)` for an integer index: split colexicographically, the last
    /// mode taking the remaining quotient.
    fn crd2idx(&self, stride: &D, i: usize) -> usize;
    /// `cosize - 1`: `sum((s - 1) * d)`.
    fn max_index(&self, stride: &D) -> usize;
}

/// The modes of two congruent tuples.
pub trait CongruentList<D: List>: List {
    /// `crd2idx` over the remaining modes.
    fn crd2idx_modes(&self, stride: &D, i: usize) -> usize;
    /// `sum((s - 1) * d)` over the modes.
    fn max_index_modes(&self, stride: &D) -> usize;
}

impl CongruentList<Nil> for Nil {
    #[inline(always)]
    fn crd2idx_modes(&self, _: &Nil, _: usize) -> usize {
        0
    }
    fn max_index_modes(&self, _: &Nil) -> usize {
        0
    }
}

/// The last mode takes the remaining quotient unwrapped: `(s):(d)` at `i` is `s:d` at `i`.
impl<S: Congruent<D>, D: IntTuple> CongruentList<Cons<D, Nil>> for Cons<S, Nil> {
    #[inline(always)]
    fn crd2idx_modes(&self, stride: &Cons<D, Nil>, i: usize) -> usize {
        self.0.crd2idx(&stride.0, i)
    }
    fn max_index_modes(&self, stride: &Cons<D, Nil>) -> usize {
        self.0.max_index(&stride.0)
    }
}

/// `(s, S...):(d, D...)` at `i` is `s:d` at `i % size(s)` plus `(S...):(D...)` at `i / size(s)`.
impl<S, D, S2, T2, D2, E2> CongruentList<Cons<D, Cons<D2, E2>>> for Cons<S, Cons<S2, T2>>
where
    S: Congruent<D>,
    D: IntTuple,
    Cons<S2, T2>: CongruentList<Cons<D2, E2>>,
    S2: IntTuple,
    T2: List,
    D2: IntTuple,
    E2: List,
{
    #[inline(always)]
    fn crd2idx_modes(&self, stride: &Cons<D, Cons<D2, E2>>, i: usize) -> usize {
        let s = self.0.product();
        self.0.crd2idx(&stride.0, i % s) + self.1.crd2idx_modes(&stride.1, i / s)
    }
    fn max_index_modes(&self, stride: &Cons<D, Cons<D2, E2>>) -> usize {
        self.0.max_index(&stride.0) + self.1.max_index_modes(&stride.1)
    }
}

/// A tuple shape with a congruent tuple stride.
impl<S: IntTuple, T: List, D: IntTuple, E: List> Congruent<Cons<D, E>> for Cons<S, T>
where
    Cons<S, T>: CongruentList<Cons<D, E>>,
{
    #[inline(always)]
    fn crd2idx(&self, stride: &Cons<D, E>, i: usize) -> usize {
        self.crd2idx_modes(stride, i)
    }
    fn max_index(&self, stride: &Cons<D, E>) -> usize {
        self.max_index_modes(stride)
    }
}

/// `():()`.
impl Congruent<Nil> for Nil {
    fn crd2idx(&self, _: &Nil, _: usize) -> usize {
        0
    }
    fn max_index(&self, _: &Nil) -> usize {
        0
    }
}

macro_rules! leaf_pairs {
    ($([$($g:ident: $b:path),*] $s:ty, $d:ty);* $(;)?) => {$(
        /// A leaf shape with a leaf stride: `s:d` at `i` is `i * d`.
        impl<$($g: $b),*> Congruent<$d> for $s {
            #[inline(always)]
            fn crd2idx(&self, stride: &$d, i: usize) -> usize {
                i * Leaf::value(stride)
            }
            fn max_index(&self, stride: &$d) -> usize {
                (Leaf::value(self).saturating_sub(1)) * Leaf::value(stride)
            }
        }
    )*};
}
use typenum::{Bit, UInt, UTerm, Unsigned};
crate::int_tuple::for_each_leaf_pair!(leaf_pairs);

/// A layout `shape:stride`. Zero-sized when every leaf is static; its evaluation compiles to
/// the index arithmetic one would write by hand.
///
/// Written with the `layout!` macro (value) or `Layout!` (type):
///
/// ```
/// use cute_static::{layout, Layout};
/// type Smem = Layout![(8,(4,8)):(32,(1,4))];
/// let l: Smem = layout!((8,(4,8)):(32,(1,4)));
/// assert_eq!(core::mem::size_of::<Smem>(), 0);
/// assert_eq!(l.to_string(), "(8,(4,8)):(32,(1,4))");
/// assert_eq!(l.call(9), 32 + 1);
/// ```
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Debug)]
pub struct Layout<S, D> {
    shape: S,
    stride: D,
}

impl<S: Congruent<D>, D: IntTuple> Layout<S, D> {
    /// `make_layout(shape, stride)`; congruence is a trait bound.
    #[inline(always)]
    pub const fn new(shape: S, stride: D) -> Self {
        Layout { shape, stride }
    }

    /// The shape.
    pub fn shape(&self) -> &S {
        &self.shape
    }

    /// The stride.
    pub fn stride(&self) -> &D {
        &self.stride
    }

    /// `rank`.
    pub const RANK: usize = S::RANK;

    /// `depth`.
    pub const DEPTH: usize = S::DEPTH;

    /// Whether every shape and stride leaf is static.
    pub const IS_STATIC: bool = S::IS_STATIC && D::IS_STATIC;

    /// `size`: the product of the shape.
    #[inline(always)]
    pub fn size(&self) -> usize {
        self.shape.product()
    }

    /// `cosize`: `1 + sum((s - 1) * d)`.
    pub fn cosize(&self) -> usize {
        1 + self.shape.max_index(&self.stride)
    }

    /// Evaluate at an integer index, `L(i)` (colexicographic split; the last mode is unwrapped).
    #[inline(always)]
    pub fn call(&self, i: usize) -> usize {
        self.shape.crd2idx(&self.stride, i)
    }

    /// The text in one of the notation's styles (values, as `Display`; cpp: static as `_N`;
    /// dsl: dynamic as `?`).
    ///
    /// # Errors
    /// `Overflow` for a value above `i64::MAX`.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{cute_dyn::Style, layout};
    /// let n = 6;
    /// let l = layout!((2,(1,{n})):(1,(6,2)));
    /// assert_eq!(l.to_styled(Style::Cpp)?, "(_2,(_1,6)):(_1,(_6,_2))");
    /// assert_eq!(l.to_styled(Style::Dsl)?, "(2,(1,?)):(1,(6,2))");
    /// # Ok::<(), cute_static::cute_dyn::Error>(())
    /// ```
    pub fn to_styled(&self, style: cute_dyn::Style) -> cute_dyn::Result<alloc::string::String> {
        Ok(self.to_dyn()?.to_styled(style))
    }

    /// The `cute-dyn` layout, with the same static flags.
    ///
    /// # Errors
    /// `Overflow` for a value above `i64::MAX`.
    pub fn to_dyn(&self) -> cute_dyn::Result<cute_dyn::Layout> {
        cute_dyn::Layout::new(self.shape.to_dyn()?, self.stride.to_dyn()?)
    }
}

/// A layout that is a type: generic code names it in a signature and gets its value with
/// `Default` (every static layout is zero-sized).
pub trait StaticLayout: Copy + Default + fmt::Display {
    /// `L(i)`.
    fn call(&self, i: usize) -> usize;
    /// `size(L)`.
    fn size(&self) -> usize;
    /// `cosize(L)`.
    fn cosize(&self) -> usize;
}

impl<S: Congruent<D> + Default, D: IntTuple + Default> StaticLayout for Layout<S, D> {
    #[inline(always)]
    fn call(&self, i: usize) -> usize {
        Layout::call(self, i)
    }
    fn size(&self) -> usize {
        Layout::size(self)
    }
    fn cosize(&self) -> usize {
        Layout::cosize(self)
    }
}

/// Prints `shape:stride` in the canonical values notation, identical to `cute-dyn`'s.
impl<S: IntTuple, D: IntTuple> fmt::Display for Layout<S, D> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.shape.write(f)?;
        f.write_str(":")?;
        self.stride.write(f)
    }
}
