//! Scaled-basis strides (CuTe's `E<i>`, `ScaledBasis`, in `numeric/arithmetic_tuple.hpp`):
//! layouts whose value is a coordinate. The identity layout `make_identity_layout((M,N))` is
//! `(M,N):(1@0,1@1)`; tiled and partitioned exactly as a data tensor, it gives each element's
//! coordinate, which [`elem_less`] compares with the tensor's shape to predicate the elements
//! of a residue tile.
//!
//! A stride `v@i` is `v` times the `i`-th unit coordinate. A [`BasisLayout`] holds an integer
//! layout whose stride `v@i` is `v * R^i`, for a radix `R = 2^(62/r)` (`r` coordinate modes):
//! the crate's algorithms (composition, the divides, slices, partitions) only scale and compare
//! the strides of the layout they tile, so they run unchanged on this encoding. After every
//! operation each stride is checked to be one digit `v * R^i` and each coordinate mode's reach
//! to stay below `R` (`2^31` for two modes, `2^20` for three, `2^12` for five); past that the operation is an
//! error, never an aliased coordinate.
//!
//! Deviations: basis strides are non-negative (a negative one is refused); a data offset is one
//! coordinate here, static where the whole offset is; C++
//! tracks static-ness per mode of its `ArithmeticTuple` (`ArithTuple(8,_0,_0)` is `(8,0,0)`
//! here, the same values).

use alloc::string::String;
use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::{Coord, IntTuple, Tuple};
use crate::layout::Layout;
use crate::parse::Parser;
use crate::print::{Notation, Style};
use crate::tiler::Tiler;

/// The most coordinate modes a basis layout has (the radix is `2^(62 / modes)`).
pub const MAX_MODES: usize = 5;

/// A layout with scaled-basis strides: `L(c)` is a coordinate of `modes()` modes.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BasisLayout {
    /// The layout with `v@i` encoded as `v * R^i`.
    enc: Layout,
    /// The number of coordinate modes (`r`).
    modes: usize,
}

/// `R^i` for `modes` coordinate modes.
fn unit(modes: usize, i: usize) -> i64 {
    1i64 << (62 / modes as u32 * i as u32)
}

fn range_error(op: &'static str, what: String) -> Error {
    Error::InvalidArgument { op, reason: alloc::format!("{what}: past the range of a basis layout's coordinates") }
}

/// `make_identity_layout(shape)`: `(s0,s1,...):(1@0,1@1,...)` for a flat shape (an integer `n`
/// is `n:1@0`).
///
/// # Errors
/// `InvalidArgument` for a nested shape, more than [`MAX_MODES`] modes, or extents past the
/// coordinate range.
///
/// # Examples
/// ```
/// use cute_dyn::{basis::make_identity_layout, Style};
/// // CuTe C++ 4.2: make_identity_layout(make_shape(_4{}, _6{})) prints (_4,_6):(_1@0,_1@1)
/// let i = make_identity_layout(&"(4,6)".parse()?)?;
/// assert_eq!(i.to_styled(Style::Cpp), "(_4,_6):(_1@0,_1@1)");
/// assert_eq!(i.call(5)?.to_string(), "(1,1)");
/// # Ok::<(), cute_dyn::Error>(())
/// ```
pub fn make_identity_layout(shape: &IntTuple) -> Result<BasisLayout> {
    let leaves: Vec<Int> = match shape {
        Tuple::Leaf(n) => alloc::vec![*n],
        Tuple::Node(v) if v.iter().all(|x| !x.is_tuple()) => shape.leaves(),
        _ => {
            return Err(Error::InvalidArgument {
                op: "make_identity_layout",
                reason: alloc::format!("the shape {shape} is nested; identity layouts take a flat shape"),
            })
        }
    };
    let modes = leaves.len();
    if modes == 0 || modes > MAX_MODES {
        return Err(Error::InvalidArgument {
            op: "make_identity_layout",
            reason: alloc::format!("{modes} modes; a basis layout has 1 to {MAX_MODES}"),
        });
    }
    let mut i = 0;
    let stride = shape.map(&mut |_| {
        i += 1;
        Int::st(unit(modes, i - 1))
    });
    BasisLayout::checked(Layout::new(shape.clone(), stride)?, modes, "make_identity_layout")
}

impl BasisLayout {
    /// Wrap an encoded layout, checking that it decodes.
    fn checked(enc: Layout, modes: usize, op: &'static str) -> Result<BasisLayout> {
        let b = BasisLayout { enc, modes };
        let mut reach = alloc::vec![0i64; modes];
        for &(s, d) in b.enc.pairs() {
            if let Some((v, i)) = b.decode(d, op)? {
                // A negative scale would borrow from the next coordinate's digit when the
                // strides are summed: refused (identity layouts and their tiles have none).
                if v.value() < 0 && s.value() > 1 {
                    return Err(Error::InvalidArgument {
                        op,
                        reason: alloc::format!("the negative basis stride {}@{i}", v.value()),
                    });
                }
                let top = (s.value().max(1) - 1).checked_mul(v.value().abs());
                reach[i] = top.and_then(|t| t.checked_add(reach[i])).ok_or_else(|| Error::Overflow { op })?;
            }
        }
        if let Some(i) = (0..modes).find(|&i| reach[i] >= unit(modes, 1)) {
            return Err(range_error(op, alloc::format!("coordinate mode {i} reaches {}", reach[i])));
        }
        Ok(b)
    }

    /// A stride as `(v, i)` (`v@i`), `None` for 0.
    fn decode(&self, d: Int, op: &'static str) -> Result<Option<(Int, usize)>> {
        let x = d.value().unsigned_abs();
        if x == 0 {
            return Ok(None);
        }
        let i = (0..self.modes).rev().find(|&i| x >= unit(self.modes, i) as u64).unwrap_or(0);
        let u = unit(self.modes, i) as u64;
        if !x.is_multiple_of(u) || x / u >= unit(self.modes, 1) as u64 {
            return Err(range_error(op, alloc::format!("a stride of {} modes", self.modes)));
        }
        Ok(Some((d.checked_div(Int::st(u as i64))?, i)))
    }

    /// An index of the encoded codomain as a coordinate (every mode's digit).
    fn coordinate(&self, x: Int, op: &'static str) -> Result<IntTuple> {
        if x.value() < 0 {
            return Err(range_error(op, alloc::format!("the negative offset {}", x.value())));
        }
        let r = unit(self.modes, 1);
        let digits = (0..self.modes).map(|i| {
            let v = (x.value() / unit(self.modes, i)) % r;
            Tuple::Leaf(if x.is_static() { Int::st(v) } else { Int::dy(v) })
        });
        let c: Vec<IntTuple> = digits.collect();
        if x.value() / unit(self.modes, self.modes - 1) >= r {
            return Err(range_error(op, alloc::format!("the offset {}", x.value())));
        }
        Ok(if self.modes == 1 { c.into_iter().next().expect("one mode") } else { Tuple::Node(c) })
    }

    /// The shape.
    pub fn shape(&self) -> IntTuple {
        self.enc.shape()
    }

    /// The number of coordinate modes of its values.
    pub fn modes(&self) -> usize {
        self.modes
    }

    /// `size(L)`.
    ///
    /// # Errors
    /// `Overflow`.
    pub fn size(&self) -> Result<Int> {
        self.enc.size()
    }

    /// `L(i)`: the coordinate at index `i` (colexicographic).
    ///
    /// # Errors
    /// `IndexOutOfRange` for `i` outside `[0, size)`.
    pub fn call(&self, i: i64) -> Result<IntTuple> {
        let x = self.enc.call(i)?;
        self.coordinate(Int::st(x), "basis layout")
    }

    /// The layout with each decoded stride `v@i` given to `f` (`None` for a zero stride).
    fn strides(&self) -> Result<Tuple<Option<(Int, usize)>>> {
        self.enc.stride().try_map(&mut |d| self.decode(*d, "basis layout"))
    }

    /// A result of the integer algebra on the encoding, checked.
    fn wrap(&self, enc: Layout, op: &'static str) -> Result<BasisLayout> {
        BasisLayout::checked(enc, self.modes, op)
    }

    /// The layout with `v@i` encoded as `v * R^i` (the algebra runs on it).
    pub(crate) fn encoded(&self) -> &Layout {
        &self.enc
    }

    /// An encoded stride as `(v, i)` (`v@i`), `None` for 0.
    pub(crate) fn decode_stride(&self, d: Int, op: &'static str) -> Result<Option<(Int, usize)>> {
        self.decode(d, op)
    }

    /// The same coordinate modes over another encoded layout.
    pub(crate) fn with_encoded(&self, enc: Layout, op: &'static str) -> Result<BasisLayout> {
        self.wrap(enc, op)
    }

    /// `composition(L, tiler)`.
    ///
    /// # Errors
    /// Those of [`composition`](crate::composition()); `InvalidArgument` past the coordinate range.
    pub fn composition(&self, tiler: &Tiler) -> Result<BasisLayout> {
        self.wrap(crate::composition(&self.enc, tiler)?, "composition")
    }

    /// `logical_divide(L, tiler)`.
    ///
    /// # Errors
    /// Those of [`logical_divide`](crate::logical_divide); `InvalidArgument` past the range.
    pub fn logical_divide(&self, tiler: &Tiler) -> Result<BasisLayout> {
        self.wrap(crate::logical_divide(&self.enc, tiler)?, "logical_divide")
    }

    /// `zipped_divide(L, tiler)`.
    ///
    /// # Errors
    /// Those of [`zipped_divide`](crate::zipped_divide); `InvalidArgument` past the range.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::{basis::make_identity_layout, Style};
    /// // CuTe C++ 4.2: ((_2,_3),(_2,_2)):((_1@0,_1@1),(_2@0,_3@1))
    /// let i = make_identity_layout(&"(4,6)".parse()?)?;
    /// let z = i.zipped_divide(&"<2,3>".parse()?)?;
    /// assert_eq!(z.to_styled(Style::Cpp), "((_2,_3),(_2,_2)):((_1@0,_1@1),(_2@0,_3@1))");
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn zipped_divide(&self, tiler: &Tiler) -> Result<BasisLayout> {
        self.wrap(crate::zipped_divide(&self.enc, tiler)?, "zipped_divide")
    }

    /// `slice_and_offset(coord, L)`: the sub-layout under `_` and the coordinate the fixed
    /// modes add.
    ///
    /// # Errors
    /// Those of [`Layout::slice_and_offset`].
    pub fn slice_and_offset(&self, c: &Coord) -> Result<(BasisLayout, IntTuple)> {
        let (l, off) = self.enc.slice_and_offset(c)?;
        Ok((self.wrap(l, "slice_and_offset")?, self.coordinate(off, "slice_and_offset")?))
    }

    /// [`crate::tensor::local_tile`] of the basis layout: the tile and its origin.
    ///
    /// # Errors
    /// Those of `local_tile`; `InvalidArgument` past the range.
    pub fn local_tile(&self, tiler: &Tiler, coord: &Coord, proj: Option<&Coord>) -> Result<(BasisLayout, IntTuple)> {
        let (l, off) = crate::tensor::local_tile(&self.enc, tiler, coord, proj)?;
        Ok((self.wrap(l, "local_tile")?, self.coordinate(off, "local_tile")?))
    }

    /// [`crate::tensor::local_partition`] of the basis layout: a thread's part and its origin.
    ///
    /// # Errors
    /// Those of `local_partition`; `InvalidArgument` past the range.
    pub fn local_partition(
        &self,
        threads: &Layout,
        index: Int,
        proj: Option<&Coord>,
    ) -> Result<(BasisLayout, IntTuple)> {
        let (l, off) = crate::tensor::local_partition(&self.enc, threads, index, proj)?;
        Ok((self.wrap(l, "local_partition")?, self.coordinate(off, "local_partition")?))
    }
}

impl Notation for BasisLayout {
    fn write_styled(&self, style: Style, out: &mut String) {
        self.enc.shape().write_styled(style, out);
        out.push(':');
        // Every stride decodes (checked at construction).
        let strides = self.strides().expect("a basis layout's strides decode");
        write_strides(&strides, style, out);
    }
}

pub(crate) fn write_strides(t: &Tuple<Option<(Int, usize)>>, style: Style, out: &mut String) {
    match t {
        Tuple::Leaf(None) => Int::st(0).write_styled(style, out),
        Tuple::Leaf(Some((v, i))) => {
            v.write_styled(style, out);
            out.push_str(&alloc::format!("@{i}"));
        }
        Tuple::Node(v) => {
            out.push('(');
            for (k, x) in v.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                write_strides(x, style, out);
            }
            out.push(')');
        }
    }
}

impl BasisLayout {
    /// The text in `style`: strides as C++ prints them, `_1@0` in the cpp style.
    pub fn to_styled(&self, style: Style) -> String {
        Notation::to_styled(self, style)
    }

    /// Parse `shape:stride` with strides `v@i` (and `0`) in `style`, e.g. `(4,8):(1@0,1@1)`.
    ///
    /// # Errors
    /// `Parse` with a position; `NotCongruent`; `InvalidArgument` past the coordinate range.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::{basis::BasisLayout, Style};
    /// let l = BasisLayout::parse("(5,3):(_2@0,_4@1)", Style::Cpp)?;
    /// assert_eq!(l.call(6)?.to_string(), "(2,4)"); // index 6 is (1,1): 2@0 + 4@1
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn parse(text: &str, style: Style) -> Result<BasisLayout> {
        let mut p = Parser::new(text, style);
        p.peek();
        let shape_at = p.pos();
        let shape = p.int_tuple()?;
        p.expect(b':')?;
        p.peek();
        let stride_at = p.pos();
        let strides = p.basis_strides()?;
        p.finish()?;
        BasisLayout::from_strides(shape, shape_at, &strides, stride_at)
    }

    /// The layout `shape:strides` from a parsed stride tuple ([`Parser::basis_strides`]):
    /// every nonzero stride a basis element.
    ///
    /// # Errors
    /// `Parse` at `stride_at` for a nonzero integer stride or a basis past `@4`;
    /// `NotCongruent`; `InvalidArgument` past the coordinate range.
    pub fn from_strides(
        shape: IntTuple,
        shape_at: usize,
        strides: &Tuple<(Int, Option<usize>)>,
        stride_at: usize,
    ) -> Result<BasisLayout> {
        let leaves = strides.leaves();
        if leaves.iter().any(|(v, i)| i.is_none() && v.value() != 0) {
            return Err(Error::Parse { pos: stride_at, reason: "an integer stride among basis strides v@i".into() });
        }
        let modes = leaves.iter().filter_map(|(_, i)| *i).max().map_or(1, |m| m + 1);
        if modes > MAX_MODES {
            return Err(Error::Parse { pos: stride_at, reason: alloc::format!("a basis past @{}", MAX_MODES - 1) });
        }
        let enc = strides.try_map(&mut |(v, i)| match i {
            None => Ok(Int::st(0)),
            Some(i) => v.checked_mul(Int::st(unit(modes, *i))),
        })?;
        BasisLayout::checked(Parser::make_layout(shape, shape_at, enc, stride_at)?, modes, "basis layout")
    }
}

/// `elem_less(a, b)`: every leaf of `a` below the same leaf of `b` (CuTe's predicate for the
/// elements of a residue tile: the coordinate inside the tensor's shape).
///
/// # Errors
/// `NotCongruent` when the two have different profiles.
///
/// # Examples
/// ```
/// use cute_dyn::basis::elem_less;
/// // CuTe C++ 4.2: (11,15) of a (10,12) tensor is outside
/// assert!(!elem_less(&"(11,15)".parse()?, &"(10,12)".parse()?)?);
/// assert!(elem_less(&"(9,11)".parse()?, &"(10,12)".parse()?)?);
/// # Ok::<(), cute_dyn::Error>(())
/// ```
pub fn elem_less(a: &IntTuple, b: &IntTuple) -> Result<bool> {
    match (a, b) {
        (Tuple::Leaf(x), Tuple::Leaf(y)) => Ok(x.value() < y.value()),
        // A rank-1 shape's coordinate is a leaf (as the basis layout of `(n)` gives).
        (Tuple::Leaf(_), Tuple::Node(y)) if y.len() == 1 => elem_less(a, &y[0]),
        (Tuple::Node(x), Tuple::Node(y)) if x.len() == y.len() => {
            for (p, q) in x.iter().zip(y) {
                if !elem_less(p, q)? {
                    return Ok(false);
                }
            }
            Ok(true)
        }
        _ => {
            Err(Error::NotCongruent { what: "elem_less", a: crate::print::to_values(a), b: crate::print::to_values(b) })
        }
    }
}

/// `make_identity_tensor(shape)`: its coordinate origin (CuTe's `ArithTuple`) and its basis
/// layout; tiled and partitioned as a data tensor, each element is its coordinate.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct IdentityTensor {
    origin: IntTuple,
    layout: BasisLayout,
}

impl IdentityTensor {
    /// `make_identity_tensor(shape)` (a flat shape).
    ///
    /// # Errors
    /// As [`make_identity_layout`].
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::{basis::{elem_less, IdentityTensor}, Notation, Style};
    /// // CuTe C++ 4.2, make_identity_tensor(make_shape(10, 12)) by <_4,_8> at (2,1):
    /// // ArithTuple(8,8) o (_4,_8):(_1@0,_1@1), and its (3,7) is (11,15), outside (10,12)
    /// let shape = "({10},{12})".parse()?;
    /// let t = IdentityTensor::new(&shape)?.local_tile(&"<4,8>".parse()?, &"({2},{1})".parse()?, None)?;
    /// assert_eq!(t.to_styled(Style::Cpp), "ArithTuple(8,8) o (_4,_8):(_1@0,_1@1)");
    /// let c = t.get(3 + 4 * 7)?;
    /// assert_eq!(c.to_styled(Style::Cpp), "(11,15)");
    /// assert!(!elem_less(&c, &shape)?);
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn new(shape: &IntTuple) -> Result<IdentityTensor> {
        let layout = make_identity_layout(shape)?;
        let origin = if layout.modes == 1 { Tuple::Leaf(Int::st(0)) } else { shape.map(&mut |_| Int::st(0)) };
        Ok(IdentityTensor { origin, layout })
    }

    /// The coordinate of its first element.
    pub fn origin(&self) -> &IntTuple {
        &self.origin
    }

    /// The basis layout.
    pub fn layout(&self) -> &BasisLayout {
        &self.layout
    }

    /// `size(tensor)`.
    ///
    /// # Errors
    /// `Overflow`.
    pub fn size(&self) -> Result<Int> {
        self.layout.size()
    }

    /// The coordinate at index `i`: the origin plus `L(i)`.
    ///
    /// # Errors
    /// `IndexOutOfRange`; `Overflow`.
    pub fn get(&self, i: i64) -> Result<IntTuple> {
        add(&self.origin, &self.layout.call(i)?)
    }

    fn moved(&self, (layout, off): (BasisLayout, IntTuple)) -> Result<IdentityTensor> {
        Ok(IdentityTensor { origin: add(&self.origin, &off)?, layout })
    }

    /// `local_tile(tensor, tiler, coord[, proj])`, as a data tensor's.
    ///
    /// # Errors
    /// As [`BasisLayout::local_tile`].
    pub fn local_tile(&self, tiler: &Tiler, coord: &Coord, proj: Option<&Coord>) -> Result<IdentityTensor> {
        self.moved(self.layout.local_tile(tiler, coord, proj)?)
    }

    /// `local_partition(tensor, threads, index[, proj])`, as a data tensor's.
    ///
    /// # Errors
    /// As [`BasisLayout::local_partition`].
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::{basis::IdentityTensor, Int, Style};
    /// // CuTe C++ 4.2: local_partition(make_identity_tensor(make_shape(10, 12)),
    /// // make_layout(make_shape(_2{},_4{})), 5) prints ArithTuple(1,2) o (5,3):(_2@0,_4@1)
    /// let t = IdentityTensor::new(&"({10},{12})".parse()?)?;
    /// let p = t.local_partition(&"(2,4):(1,2)".parse()?, Int::dy(5), None)?;
    /// assert_eq!(p.to_styled(Style::Cpp), "ArithTuple(1,2) o (5,3):(_2@0,_4@1)");
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn local_partition(&self, threads: &Layout, index: Int, proj: Option<&Coord>) -> Result<IdentityTensor> {
        self.moved(self.layout.local_partition(threads, index, proj)?)
    }

    /// The text as C++ prints the tensor: `ArithTuple(origin) o layout`.
    pub fn to_styled(&self, style: Style) -> String {
        alloc::format!("ArithTuple{} o {}", paren(&self.origin.to_styled(style)), self.layout.to_styled(style))
    }
}

/// `(x)` for a leaf's text, a tuple's as it is (C++ prints `ArithTuple(_0)` and
/// `ArithTuple(_0,_0)`).
fn paren(s: &str) -> String {
    if s.starts_with('(') {
        s.into()
    } else {
        alloc::format!("({s})")
    }
}

/// Two coordinates of one profile, added mode by mode (static where both are).
fn add(a: &IntTuple, b: &IntTuple) -> Result<IntTuple> {
    match (a, b) {
        (Tuple::Leaf(x), Tuple::Leaf(y)) => Ok(Tuple::Leaf(x.checked_add(*y)?)),
        (Tuple::Node(x), Tuple::Node(y)) if x.len() == y.len() => {
            Ok(Tuple::Node(x.iter().zip(y).map(|(p, q)| add(p, q)).collect::<Result<Vec<_>>>()?))
        }
        _ => Err(Error::NotCongruent {
            what: "coordinate",
            a: crate::print::to_values(a),
            b: crate::print::to_values(b),
        }),
    }
}
