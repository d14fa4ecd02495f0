//! Swizzle functors `Sw<B,M,S>` and composed layouts `A o offset o B` (`c -> A(offset + B(c))`,
//! each of `A` and `B` a swizzle or a layout).

use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::{Coord, IntTuple};
use crate::layout::Layout;

/// CuTe's `Swizzle<B,M,S>`: XOR the `B` bits at `M + max(0,S)` into the `B` bits at
/// `M - min(0,S)` (the "YYY" mask shifted right by `S`; a negative `S` shifts left).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Swizzle {
    bits: u32,
    base: u32,
    shift: i32,
}

impl Swizzle {
    /// `Swizzle<bits, base, shift>`.
    ///
    /// # Preconditions
    /// 1. `bits >= 0`, `base >= 0`.
    /// 2. `|shift| >= bits`.
    /// 3. The masks fit in 62 bits.
    ///
    /// # Errors
    /// `InvalidArgument` (1, 2, 3).
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// let sw = Swizzle::new(3, 3, 3)?; // the classic 128-byte swizzle
    /// assert_eq!(sw.apply(0b1_000_000)?, 0b1_001_000);
    /// assert!(Swizzle::new(2, 2, 1).is_err());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn new(bits: i64, base: i64, shift: i64) -> Result<Swizzle> {
        let bad = |reason: alloc::string::String| Err(Error::InvalidArgument { op: "Swizzle", reason });
        // Precondition 1
        if bits < 0 || base < 0 {
            return bad(alloc::format!("bits {bits} and base {base} must be non-negative"));
        }
        // Precondition 2 (unsigned_abs: |i64::MIN| does not fit in i64)
        let abs_shift = shift.unsigned_abs();
        if abs_shift < bits as u64 {
            return bad(alloc::format!("|shift| {abs_shift} must be at least bits {bits}"));
        }
        // Precondition 3, summed in u128 so that no parameters can wrap it
        let total = bits as u128 + base as u128 + abs_shift as u128;
        if total > 62 {
            return bad(alloc::format!("bits {bits} + base {base} + |shift| {abs_shift} = {total} exceeds 62"));
        }
        Ok(Swizzle { bits: bits as u32, base: base as u32, shift: shift as i32 })
    }

    /// The parameters `(B, M, S)`.
    pub fn params(&self) -> (i64, i64, i64) {
        (self.bits as i64, self.base as i64, self.shift as i64)
    }

    /// The mask of the `B` bits that move (C++'s `yyy_msk`): at `M + max(0,S)`.
    pub fn yyy_mask(&self) -> i64 {
        ((1i64 << self.bits) - 1) << (self.base as i32 + self.shift.max(0))
    }

    /// Apply to an offset: `offset ^ shiftr(offset & yyy_mask, S)`.
    ///
    /// # Errors
    /// `InvalidArgument` for a negative offset.
    pub fn apply(&self, offset: i64) -> Result<i64> {
        if offset < 0 {
            return Err(Error::InvalidArgument { op: "Swizzle", reason: alloc::format!("negative offset {offset}") });
        }
        let y = offset & self.yyy_mask();
        let moved = if self.shift >= 0 { y >> self.shift } else { y << (-self.shift) };
        Ok(offset ^ moved)
    }

    /// `upcast<N>(Sw<B,M,S>)` (CuTe C++ `swizzle_layout.hpp`): for elements `n` times larger
    /// the swizzle moves the same bytes, so its base drops by `log2(n)`; below 0 the lowest
    /// bits fall away: `Sw<max(B + M - log2 n, 0), 0, S>`.
    ///
    /// # Errors
    /// `InvalidArgument` unless `n` is a power of two (C++'s static_assert).
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// // Sw<3,4,3> on bytes is Sw<3,3,3> on 16-bit elements and Sw<2,0,3> on 128-bit ones.
    /// let sw = Swizzle::new(3, 4, 3)?;
    /// assert_eq!(sw.upcast(2)?.to_string(), "Sw<3,3,3>");
    /// assert_eq!(sw.upcast(32)?.to_string(), "Sw<2,0,3>");
    /// assert!(sw.upcast(3).is_err());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn upcast(&self, n: i64) -> Result<Swizzle> {
        let log2 = log2_exact(n, "upcast")?;
        let (b, m) = (self.bits as i64, self.base as i64 - log2);
        if m >= 0 {
            Swizzle::new(b, m, self.shift as i64)
        } else {
            Swizzle::new((b + m).max(0), 0, self.shift as i64)
        }
    }

    /// `downcast<N>(Sw<B,M,S>)`: for elements `n` times smaller, `Sw<B, M + log2 n, S>`.
    ///
    /// # Errors
    /// `InvalidArgument` unless `n` is a power of two, or when the masks leave 62 bits.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// assert_eq!(Swizzle::new(3, 3, 3)?.downcast(2)?.to_string(), "Sw<3,4,3>");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn downcast(&self, n: i64) -> Result<Swizzle> {
        let log2 = log2_exact(n, "downcast")?;
        Swizzle::new(self.bits as i64, self.base as i64 + log2, self.shift as i64)
    }

    /// The mask of the `B` bits that are xor-ed (C++'s `zzz_msk`): at `M - min(0,S)`.
    pub fn zzz_mask(&self) -> i64 {
        ((1i64 << self.bits) - 1) << (self.base as i32 + (-self.shift).max(0))
    }

    /// `make_swizzle<Y, Z>()`: the swizzle whose `yyy` mask is `y` and `zzz` mask is `z`.
    ///
    /// # Errors
    /// `InvalidArgument` where no `Sw<B,M,S>` has these masks (C++'s static_asserts: the same
    /// number of bits in both, each a contiguous run), or as [`Swizzle::new`].
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// // CuTe's own examples (swizzle.hpp)
    /// assert_eq!(Swizzle::from_masks(0b1000, 0b0100)?.to_string(), "Sw<1,2,1>");
    /// assert_eq!(Swizzle::from_masks(0b11000000, 0b00000110)?.to_string(), "Sw<2,1,5>");
    /// assert!(Swizzle::from_masks(0b1010, 0b0101).is_err());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn from_masks(y: i64, z: i64) -> Result<Swizzle> {
        let bad = |reason: alloc::string::String| Err(Error::InvalidArgument { op: "make_swizzle", reason });
        if y < 0 || z < 0 || y.count_ones() != z.count_ones() {
            return bad(alloc::format!("masks {y:#b} and {z:#b} must have the same number of bits"));
        }
        if y == 0 {
            return Swizzle::new(0, 0, 0);
        }
        let (ty, tz) = (i64::from(y.trailing_zeros()), i64::from(z.trailing_zeros()));
        let sw = Swizzle::new(i64::from(y.count_ones()), ty.min(tz), ty - tz)?;
        if sw.yyy_mask() | sw.zzz_mask() != y | z {
            return bad(alloc::format!("masks {y:#b} and {z:#b} are not the bit runs of a swizzle"));
        }
        Ok(sw)
    }

    /// The size of the domain pycute reports: `2^(B + M + |S|)`.
    pub fn size(&self) -> i64 {
        1i64 << (self.bits + self.base + self.shift.unsigned_abs())
    }
}

/// `log2(n)` of a power of two.
fn log2_exact(n: i64, op: &'static str) -> Result<i64> {
    if n <= 0 || n & (n - 1) != 0 {
        return Err(Error::InvalidArgument { op, reason: alloc::format!("N = {n} must be a power of two") });
    }
    Ok(n.trailing_zeros() as i64)
}

impl core::fmt::Display for Swizzle {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(f, "Sw<{},{},{}>", self.bits, self.base, self.shift)
    }
}

/// One function of a composition (C++'s `layout_a` or `layout_b` of a `ComposedLayout`): a
/// swizzle or a layout.
// A layout is kept inline on purpose: boxing it would put every composed layout on the heap.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum Func {
    /// `Sw<B,M,S>`.
    Swizzle(Swizzle),
    /// A layout, evaluated at an index.
    Layout(Layout),
}

impl Func {
    /// The function at an index.
    ///
    /// # Errors
    /// Those of [`Swizzle::apply`] and [`Layout::call`].
    pub fn at(&self, x: i64) -> Result<i64> {
        match self {
            Func::Swizzle(sw) => sw.apply(x),
            Func::Layout(l) => l.call(x),
        }
    }

    /// `upcast<N>` of either kind.
    fn upcast(&self, n: i64) -> Result<Func> {
        Ok(match self {
            Func::Swizzle(sw) => Func::Swizzle(sw.upcast(n)?),
            Func::Layout(l) => Func::Layout(crate::upcast(l, n)?),
        })
    }

    /// `downcast<N>` of either kind.
    fn downcast(&self, n: i64) -> Result<Func> {
        Ok(match self {
            Func::Swizzle(sw) => Func::Swizzle(sw.downcast(n)?),
            Func::Layout(l) => Func::Layout(crate::downcast(l, n)?),
        })
    }

    /// The swizzle, if this is one.
    fn swizzle(&self) -> Option<Swizzle> {
        match self {
            Func::Swizzle(sw) => Some(*sw),
            Func::Layout(_) => None,
        }
    }
}

impl crate::print::Notation for Func {
    fn write_styled(&self, style: crate::print::Style, out: &mut alloc::string::String) {
        match self {
            Func::Swizzle(sw) => out.push_str(&alloc::format!("{sw}")),
            Func::Layout(l) => l.write_styled(style, out),
        }
    }
}

/// CuTe's `ComposedLayout<A, O, B>`: `c -> A(O + B(c))`, `A` and `B` swizzles or layouts, and
/// compositions nested to any depth (`Sw1 o O1 o Sw o O o L`, C++'s
/// `ComposedLayout<Sw1, O1, ComposedLayout<Sw, O, L>>`), held as a chain: the innermost
/// function, then each offset and function applied after it.
///
/// The common case is a swizzle over a layout, `Sw o 0 o L`; a layout as the outer function
/// comes from `composition(A, O, B)` and from the inverses (`L' o -O o Sw`, whose innermost
/// function is a swizzle).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ComposedLayout {
    /// The function the coordinates enter.
    inner: Func,
    /// The offsets and functions applied after `inner`, innermost first: `[(O, A)]` is
    /// `A(O + inner(c))`. Never empty. Each offset is an integer as any other here: static,
    /// or known at run time with its divisor (C++'s `int` offset; `?{div=N}` in the DSL).
    outer: Vec<(Int, Func)>,
}

impl ComposedLayout {
    /// `Sw o offset o L` (an `i64` offset is static).
    pub fn new(swizzle: Swizzle, offset: impl Into<Int>, layout: Layout) -> ComposedLayout {
        ComposedLayout::of(Func::Swizzle(swizzle), offset, Func::Layout(layout))
    }

    /// `composition(A, offset, B)` (C++'s three-argument composition): `A o offset o B`, kept as
    /// it is (C++ simplifies nothing here).
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// use cute_dyn::swizzle::Func;
    /// let c = ComposedLayout::of(Func::Layout("(4,4):(4,1)".parse()?), 2, Func::Layout("4:1".parse()?));
    /// assert_eq!(c.to_styled(Style::Cpp), "(_4,_4):(_4,_1) o _2 o _4:_1");
    /// // A(2 + B(i)): the row-major 4x4 read from index 2 on.
    /// let v: Vec<i64> = (0..4).map(|i| c.call_index(i).unwrap()).collect();
    /// assert_eq!(v, [8, 12, 1, 5]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn of(a: Func, offset: impl Into<Int>, b: Func) -> ComposedLayout {
        ComposedLayout { inner: b, outer: alloc::vec![(offset.into(), a)] }
    }

    /// `composition(A, offset, self)`: this composition nested inside `A`.
    pub fn within(mut self, a: Func, offset: impl Into<Int>) -> ComposedLayout {
        self.outer.push((offset.into(), a));
        self
    }

    /// The function the coordinates enter (C++'s innermost `layout_b`).
    pub fn inner(&self) -> &Func {
        &self.inner
    }

    /// The offsets and functions after the innermost one, innermost first.
    pub fn outer(&self) -> &[(Int, Func)] {
        &self.outer
    }

    /// The innermost layout, whose shape is the composed layout's.
    ///
    /// # Errors
    /// `InvalidArgument` where the innermost function is a swizzle (C++ gives it no shape).
    pub fn layout(&self) -> Result<&Layout> {
        match &self.inner {
            Func::Layout(l) => Ok(l),
            Func::Swizzle(_) => Err(Error::InvalidArgument {
                op: "composed layout",
                reason: alloc::format!("the innermost function of {self} is a swizzle, which has no shape"),
            }),
        }
    }

    /// The same functions over another innermost layout (the operations C++ applies to
    /// `layout_b`).
    pub fn with_layout(&self, layout: Layout) -> ComposedLayout {
        ComposedLayout { inner: Func::Layout(layout), outer: self.outer.clone() }
    }

    /// C++'s `composition(Swizzle<0,M,S>, _0, L)`, which is `L`: a lone identity swizzle at
    /// offset 0 elided (the SM90 GMMA INTER atoms come out of an operation as their layouts).
    pub fn decayed(self) -> MaybeComposed {
        match self.swizzle_over_layout() {
            Some((sw, offset, l)) => MaybeComposed::of(sw, offset, l.clone()),
            None => MaybeComposed::Composed(self),
        }
    }

    /// `Sw o offset o L`'s parts, where this is one swizzle over a layout.
    fn swizzle_over_layout(&self) -> Option<(Swizzle, Int, &Layout)> {
        match (&self.inner, &self.outer[..]) {
            (Func::Layout(l), [(offset, Func::Swizzle(sw))]) => Some((*sw, *offset, l)),
            _ => None,
        }
    }

    /// The parts of an operation C++ defines through a swizzle directly over a layout.
    fn single(&self, op: &'static str) -> Result<(Swizzle, Int, &Layout)> {
        self.swizzle_over_layout().ok_or_else(|| Error::InvalidArgument {
            op,
            reason: alloc::format!("{op} takes a swizzle composed with a layout; {self} is not one"),
        })
    }

    /// The innermost layout and the swizzles and offsets after it, innermost first, where
    /// every outer function is a swizzle (C++'s swizzle specializations, nested).
    fn swizzles(&self) -> Option<(&Layout, Vec<(Swizzle, Int)>)> {
        let Func::Layout(l) = &self.inner else { return None };
        let levels = self.outer.iter().map(|(o, f)| Some((f.swizzle()?, *o))).collect::<Option<_>>()?;
        Some((l, levels))
    }

    /// [`ComposedLayout::swizzles`], or an error naming the operation.
    fn swizzles_for(&self, op: &'static str) -> Result<(&Layout, Vec<(Swizzle, Int)>)> {
        self.swizzles().ok_or_else(|| Error::InvalidArgument {
            op,
            reason: alloc::format!("{op} takes swizzles composed with a layout (as C++); {self} has a layout outside"),
        })
    }
}

impl ComposedLayout {
    /// Evaluate at a coordinate.
    ///
    /// # Errors
    /// Those of [`Layout::call_coord`] and [`Swizzle::apply`]; `InvalidArgument` for a
    /// coordinate that is not an integer where the innermost function is a swizzle; `Overflow`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// let c = ComposedLayout::new(Swizzle::new(1, 0, 1)?, 0, "(2,2):(1,2)".parse()?);
    /// let v: Vec<i64> = (0..4).map(|i| c.call(&Coord::Leaf(Some(Int::st(i)))).unwrap()).collect();
    /// assert_eq!(v, [0, 1, 3, 2]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn call(&self, c: &Coord) -> Result<i64> {
        let overflow = Error::Overflow { op: "composed layout" };
        let mut v = match (&self.inner, c) {
            (Func::Layout(l), _) => l.call_coord(c)?.value(),
            (Func::Swizzle(sw), crate::int_tuple::Tuple::Leaf(x)) => sw.apply(x.map_or(0, Int::value))?,
            (Func::Swizzle(_), _) => {
                return Err(Error::InvalidArgument {
                    op: "composed layout",
                    reason: alloc::format!("{self} takes an integer, not the coordinate {c}"),
                })
            }
        };
        for (off, f) in &self.outer {
            v = f.at(off.value().checked_add(v).ok_or(overflow.clone())?)?;
        }
        Ok(v)
    }
}

impl ComposedLayout {
    /// `composition(Swizzle, Layout)`: `Sw o 0 o L`, or `L` itself for an identity swizzle
    /// (`B = 0`), as C++ elides it.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// // CuTe C++: composition(Swizzle<3,3,3>{}, Layout<Shape<_8,_64>,Stride<_64,_1>>{})
    /// let c = ComposedLayout::compose(Swizzle::new(3, 3, 3)?, &"(8,64):(64,1)".parse()?);
    /// let c = c.expect("not the identity");
    /// assert_eq!(c.to_styled(Style::Cpp), "Sw<3,3,3> o _0 o (_8,_64):(_64,_1)");
    /// assert_eq!(c.to_string(), "Sw<3,3,3> o 0 o (8,64):(64,1)");
    /// assert!(ComposedLayout::compose(Swizzle::new(0, 4, 3)?, &"8:1".parse()?).is_none());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn compose(swizzle: Swizzle, layout: &Layout) -> Option<ComposedLayout> {
        (swizzle.params().0 != 0).then(|| ComposedLayout::new(swizzle, 0, layout.clone()))
    }

    /// `composition(A o offset o B, tiler)`: `A o offset o composition(B, tiler)` (C++'s
    /// `composition(ComposedLayout, Tiler)` composes the innermost function; a swizzle there
    /// takes a layout tiler, `Sw o 0 o T`).
    ///
    /// # Errors
    /// Those of [`crate::composition()`]; `InvalidArgument` for a tiler other than a layout after
    /// an innermost swizzle.
    pub fn compose_inner(&self, tiler: &crate::Tiler) -> Result<ComposedLayout> {
        match (&self.inner, tiler) {
            (Func::Layout(l), _) => Ok(self.with_layout(crate::composition(l, tiler)?)),
            (Func::Swizzle(sw), crate::Tiler::Layout(t)) => {
                let mut outer = alloc::vec![(Int::st(0), Func::Swizzle(*sw))];
                outer.extend(self.outer.iter().cloned());
                Ok(ComposedLayout { inner: Func::Layout(t.clone()), outer })
            }
            (Func::Swizzle(_), _) => Err(Error::InvalidArgument {
                op: "composition",
                reason: alloc::format!("the innermost swizzle of {self} composes with a layout only"),
            }),
        }
    }

    /// `upcast<N>(A o offset o B)` (CuTe C++ `layout_composed.hpp`): each function upcast, the
    /// offsets divided by `n`.
    ///
    /// # Errors
    /// Those of [`Swizzle::upcast`] and [`crate::upcast`]; `InvalidArgument` for an offset that
    /// `n` does not divide (C++'s `safe_div`).
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// // A 128-byte swizzled tile of bytes seen as 16-bit elements.
    /// let c: ComposedLayout = "Sw<3,4,3> o 0 o (8,128):(128,1)".parse()?;
    /// assert_eq!(c.upcast(2)?.to_string(), "Sw<3,3,3> o 0 o (8,64):(64,1)");
    /// assert_eq!(c.upcast(2)?.downcast(2)?.to_string(), "Sw<3,4,3> o 0 o (8,128):(128,1)");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn upcast(&self, n: i64) -> Result<ComposedLayout> {
        self.map_parts(
            |f| f.upcast(n),
            |off| {
                if off.value().checked_rem(n) != Some(0) {
                    return Err(Error::InvalidArgument {
                        op: "upcast",
                        reason: alloc::format!("the offset {off} is not a multiple of {n}"),
                    });
                }
                off.checked_div(Int::st(n))
            },
        )
    }

    /// `downcast<N>(A o offset o B)`: each function downcast, the offsets multiplied by `n`.
    ///
    /// # Errors
    /// Those of [`Swizzle::downcast`] and [`crate::downcast`]; `Overflow`.
    pub fn downcast(&self, n: i64) -> Result<ComposedLayout> {
        self.map_parts(|f| f.downcast(n), |off| off.checked_mul(Int::st(n)))
    }

    /// Every function and every offset mapped.
    fn map_parts(
        &self,
        func: impl Fn(&Func) -> Result<Func>,
        offset: impl Fn(Int) -> Result<Int>,
    ) -> Result<ComposedLayout> {
        let outer = self.outer.iter().map(|(o, f)| Ok((offset(*o)?, func(f)?))).collect::<Result<_>>()?;
        Ok(ComposedLayout { inner: func(&self.inner)?, outer })
    }

    /// `max_common_vector(Sw o offset o L, B)` (CuTe C++ `swizzle_layout.hpp`): the inner
    /// layout's, at most `2^M` (the elements the swizzle leaves contiguous; C++ assumes the
    /// offset keeps to the swizzle's YZ domain, and so does this).
    ///
    /// # Errors
    /// As [`crate::max_common_vector`]; `InvalidArgument` where a function outside is a
    /// layout (C++ defines it for swizzles).
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// let c: ComposedLayout = "Sw<3,3,3> o 0 o (8,64):(64,1)".parse()?;
    /// // The row-major tile has 64 contiguous elements; the swizzle keeps 8 of them together.
    /// assert_eq!(c.max_common_vector(&"(8,64):(64,1)".parse()?)?.value(), 8);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn max_common_vector(&self, b: &Layout) -> Result<crate::Int> {
        let (l, levels) = self.swizzles_for("max_common_vector")?;
        Ok(crate::max_common_vector(l, b)?.min(contiguous(&levels)))
    }

    /// `max_common_vector` of two composed layouts: the inner layouts', and at most `2^M0` and
    /// `2^M1` unless the swizzles are the same (C++'s rule).
    ///
    /// # Errors
    /// As [`crate::max_common_vector`].
    pub fn max_common_vector_composed(&self, b: &ComposedLayout) -> Result<crate::Int> {
        let (sa, _, la) = self.single("max_common_vector")?;
        let (sb, _, lb) = b.single("max_common_vector")?;
        let vec = crate::max_common_vector(la, lb)?;
        if sa == sb {
            return Ok(vec);
        }
        Ok(vec.min(crate::Int::st(1 << sa.base)).min(crate::Int::st(1 << sb.base)))
    }

    /// `max_common_layout(Sw o offset o L, B)`: the inner layout's, truncated to its first
    /// `2^M` elements where it is longer (C++'s `common.compose(base)`).
    ///
    /// # Errors
    /// As [`crate::max_common_layout`].
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// let c: ComposedLayout = "Sw<3,3,3> o 0 o (8,64):(64,1)".parse()?;
    /// assert_eq!(c.max_common_layout(&"(8,64):(64,1)".parse()?)?.to_string(), "8:8");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn max_common_layout(&self, b: &Layout) -> Result<Layout> {
        let (l, levels) = self.swizzles_for("max_common_layout")?;
        let common = crate::max_common_layout(l, b)?;
        let base = contiguous(&levels);
        if base.value() < common.size()?.value() {
            return crate::composition(&common, &crate::Tiler::Int(base));
        }
        Ok(common)
    }

    /// `make_fragment_like(Sw o offset o L)` (CuTe C++ `swizzle_layout.hpp`): a register
    /// fragment is unswizzled, the compact layout [`crate::make_fragment_like`] of `L`.
    ///
    /// # Errors
    /// As [`crate::make_fragment_like`]; `InvalidArgument` where a function outside is a
    /// layout (C++ defines it for swizzles).
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// let c: ComposedLayout = "Sw<3,3,3> o 0 o (8,64):(64,1)".parse()?;
    /// // CuTe C++ 4.2's answer: mode 0 compact first, the rest grouped after it.
    /// assert_eq!(c.make_fragment_like()?.to_string(), "(8,(64)):(1,(8))");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn make_fragment_like(&self) -> Result<Layout> {
        crate::make_fragment_like(self.swizzles_for("make_fragment_like")?.0)
    }

    /// `size`: the innermost layout's.
    ///
    /// # Errors
    /// `Overflow`; as [`ComposedLayout::layout`].
    pub fn size(&self) -> Result<crate::Int> {
        self.layout()?.size()
    }

    /// `A(offset + B(i))` for an index `i`.
    ///
    /// # Errors
    /// As [`ComposedLayout::call`].
    pub fn call_index(&self, i: i64) -> Result<i64> {
        self.call(&crate::int_tuple::Tuple::Leaf(Some(crate::Int::dy(i))))
    }
}

/// `2^M` of the swizzles, the fewest of every level: the elements every swizzle leaves
/// together (C++ recurses into `layout_b`).
fn contiguous(levels: &[(Swizzle, Int)]) -> crate::Int {
    crate::Int::st(1 << levels.iter().map(|(sw, _)| sw.base).min().unwrap_or(0))
}
/// What C++ returns where it may elide an identity swizzle: a layout, or a swizzle composed
/// with one.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub enum MaybeComposed {
    /// The swizzle was the identity (`B = 0`), or decayed into the strides.
    Layout(Layout),
    /// `Sw o offset o L`.
    Composed(ComposedLayout),
}

impl MaybeComposed {
    /// The form shared-memory tiles take, `L` or `Sw<B,M,S> o offset o L`: `(swizzle, offset,
    /// L)`; `None` for another chain.
    pub fn swizzled_layout(&self) -> Option<(Option<Swizzle>, Int, &Layout)> {
        match self {
            MaybeComposed::Layout(l) => Some((None, Int::st(0), l)),
            MaybeComposed::Composed(c) => match (c.outer(), c.inner()) {
                ([(off, Func::Swizzle(sw))], Func::Layout(l)) => Some((Some(*sw), *off, l)),
                _ => None,
            },
        }
    }

    /// `composition(Swizzle, offset, Layout)`, the identity swizzle elided (C++).
    fn of(swizzle: Swizzle, offset: Int, layout: Layout) -> MaybeComposed {
        // C++ elides `Swizzle<0,M,S>` at the static offset `_0` only.
        if swizzle.params().0 == 0 && offset.is_const(0) {
            return MaybeComposed::Layout(layout);
        }
        MaybeComposed::Composed(ComposedLayout::new(swizzle, offset, layout))
    }

    /// The function at an index.
    ///
    /// # Errors
    /// As [`ComposedLayout::call_index`].
    pub fn call_index(&self, i: i64) -> Result<i64> {
        match self {
            MaybeComposed::Layout(l) => l.call(i),
            MaybeComposed::Composed(c) => c.call_index(i),
        }
    }

    /// The number of indices it takes (as [`ComposedLayout::domain`]).
    fn domain(&self) -> Result<i64> {
        match self {
            MaybeComposed::Layout(l) => Ok(l.size()?.value()),
            MaybeComposed::Composed(c) => c.domain(),
        }
    }

    /// The domain's size.
    ///
    /// # Errors
    /// `Overflow`.
    pub fn size(&self) -> Result<Int> {
        match self {
            MaybeComposed::Layout(l) => l.size(),
            MaybeComposed::Composed(c) => c.size(),
        }
    }
}

impl crate::print::Notation for MaybeComposed {
    fn write_styled(&self, style: crate::print::Style, out: &mut alloc::string::String) {
        match self {
            MaybeComposed::Layout(l) => l.write_styled(style, out),
            MaybeComposed::Composed(c) => c.write_styled(style, out),
        }
    }
}

impl core::fmt::Display for MaybeComposed {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&crate::print::to_values(self))
    }
}

/// The largest domain an inverse of a composed layout is checked on, element by element.
const CHECKED_DOMAIN: i64 = 1 << 22;

/// `composition(Layout, Swizzle)` (CuTe C++ `swizzle_layout.hpp`): the swizzle moved to the
/// left of `a`, `make_swizzle<a(yyy), a(zzz)>() o a`, where `a` carries the swizzle's bits
/// to other bits. C++ says it "works in simple cases"; the law `R(x) == a(Sw(x))` is checked
/// on `a`'s domain, so where `a` does not carry the bits, this is an error, not C++'s layout.
///
/// # Errors
/// As [`Swizzle::from_masks`]; `Postcondition` where the moved swizzle is not `a o Sw`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // (64,8):(8,1) carries bits 6-8 to bits 0-2 and bits 3-5 to bits 6-8.
/// let r = swizzle::transfer_swizzle(&"(64,8):(8,1)".parse()?, Swizzle::new(3, 3, 3)?)?;
/// assert_eq!(r.to_string(), "Sw<3,0,-6> o 0 o (64,8):(8,1)");
/// # Ok::<(), Error>(())
/// ```
pub fn transfer_swizzle(a: &Layout, sw: Swizzle) -> Result<MaybeComposed> {
    let r = moved_all(a.clone(), core::iter::once((sw, Int::st(0))))?;
    check_law("composition", "R(x) == A(Sw(x))", a.size()?.value(), |x| {
        let (got, want) = (r.call_index(x)?, a.call(sw.apply(x)?)?);
        Ok((got == want).then_some(()).ok_or_else(|| alloc::format!("R = {r} gives {got} at {x}, A(Sw(x)) = {want}")))
    })?;
    Ok(r)
}

/// The swizzle `Sw'` with `a o Sw == Sw' o a` where `a` carries the bits (C++'s
/// `make_swizzle<a(yyy), a(zzz)>()`).
fn moved_swizzle(a: &Layout, sw: Swizzle) -> Result<Swizzle> {
    Swizzle::from_masks(a.call(sw.yyy_mask())?, a.call(sw.zzz_mask())?)
}

/// `a o Sw0 o Sw1 o ... o Swn` with every swizzle moved left past `a` (an inverse of the
/// layout, or the left operand of a composition): `Sw0' o ... o Swn' o a`, identity swizzles
/// dropped (C++ elides them). Unchecked: the operations built on it check their own laws,
/// which ask less of it (they read the swizzles only on their domain).
fn moved_all(a: Layout, levels: impl DoubleEndedIterator<Item = (Swizzle, Int)>) -> Result<MaybeComposed> {
    let mut moved = Vec::new();
    // The original outermost swizzle lands next to the layout.
    for (sw, _) in levels.rev() {
        let m = moved_swizzle(&a, sw)?;
        if m.params().0 != 0 {
            moved.push((m, Int::st(0)));
        }
    }
    if moved.is_empty() {
        return Ok(MaybeComposed::Layout(a));
    }
    let outer = moved.into_iter().map(|(sw, off)| (off, Func::Swizzle(sw))).collect();
    Ok(MaybeComposed::Composed(ComposedLayout { inner: Func::Layout(a), outer }))
}

/// `composition(A, C)` for a composed layout `C` (CuTe C++ `layout_composed.hpp`):
/// `composition(composition(A, C.layout_a), C.layout_b)`, from the outermost function in: a
/// swizzle moved to the left by [`transfer_swizzle`], a layout composed. `@post` checked on
/// every index: `R(i) == A(C(i))`.
///
/// # Errors
/// `InvalidArgument` for a nonzero offset (C++: "Require offset == 0"); those of
/// [`transfer_swizzle`] and composition; `Postcondition` where `R(i) != A(C(i))`.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// let c: ComposedLayout = "Sw<3,3,3> o 0 o (8,64):(64,1)".parse()?;
/// // The codomain read column-major instead: the swizzle moves with it.
/// let r = swizzle::compose_with_composed(&"(64,8):(8,1)".parse()?, &c)?;
/// assert_eq!(r.to_string(), "Sw<3,0,-6> o 0 o (8,64):(1,8)");
/// # Ok::<(), Error>(())
/// ```
pub fn compose_with_composed(a: &Layout, c: &ComposedLayout) -> Result<MaybeComposed> {
    let mut r = MaybeComposed::Layout(a.clone());
    for (offset, f) in c.outer.iter().rev() {
        if offset.value() != 0 {
            return Err(Error::InvalidArgument {
                op: "composition",
                reason: alloc::format!("the offset {offset} of {c} is not 0 (C++: Require offset == 0)"),
            });
        }
        r = compose_func(r, f)?;
    }
    r = compose_func(r, &c.inner)?;
    check_law("composition", "R(i) == A(C(i))", c.size()?.value(), |i| {
        let (got, want) = (r.call_index(i)?, a.call(c.call_index(i)?)?);
        Ok((got == want).then_some(()).ok_or_else(|| alloc::format!("R = {r} gives {got} at {i}, A(C(i)) = {want}")))
    })?;
    Ok(r)
}

/// `composition(R, f)` for the running result of [`compose_with_composed`]: a layout, or
/// swizzles over one (C++ composes the innermost layout, `composition(A, O, composition(B, f))`).
fn compose_func(r: MaybeComposed, f: &Func) -> Result<MaybeComposed> {
    match (r, f) {
        (MaybeComposed::Layout(l), Func::Swizzle(sw)) => moved_all(l, core::iter::once((*sw, Int::st(0)))),
        (MaybeComposed::Layout(l), Func::Layout(m)) => {
            Ok(MaybeComposed::Layout(crate::composition(&l, &crate::Tiler::Layout(m.clone()))?))
        }
        (MaybeComposed::Composed(k), f) => {
            let inner = compose_func(MaybeComposed::Layout(k.layout()?.clone()), f)?;
            Ok(MaybeComposed::Composed(match inner {
                MaybeComposed::Layout(l) => k.with_layout(l),
                MaybeComposed::Composed(mut m) => {
                    m.outer.extend(k.outer);
                    m
                }
            }))
        }
    }
}

/// `logical_product(A, Sw o 0 o L)` (CuTe C++ `swizzle_layout.hpp`, "ComposedLayout as
/// second argument"): `logical_product(A, L)` with a swizzle found for its strides, the
/// swizzle's active Y/Z bits of `L` carried into the product's second mode. `@post` checked on
/// every index: `R(i, j) == A(i) + C(Sw(L(j)))`, `C` the complement of `A` the product uses.
///
/// # Errors
/// `InvalidArgument` for a nonzero offset (C++: "Require Swizzle offset == 0") or a nested
/// composition; as [`Swizzle::from_masks`] and the product; `Postcondition` where the moved
/// swizzle breaks the law.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe C++ 4.2's answer, for a column-major tiler.
/// let t: ComposedLayout = "Sw<1,1,1> o 0 o (2,4):(1,2)".parse()?;
/// let r = swizzle::logical_product_composed(&"2:1".parse()?, &t)?;
/// assert_eq!(r.to_string(), "Sw<1,2,1> o 0 o (2,(2,4)):(1,(2,4))");
/// // A row-major tiler: C++'s answer breaks the product's definition; refused.
/// let t: ComposedLayout = "Sw<1,1,1> o 0 o (2,4):(4,1)".parse()?;
/// assert!(swizzle::logical_product_composed(&"2:1".parse()?, &t).is_err());
/// # Ok::<(), Error>(())
/// ```
pub fn logical_product_composed(a: &Layout, t: &ComposedLayout) -> Result<MaybeComposed> {
    let (sw, _, l) = t.single("logical_product")?;
    t.no_offset("logical_product")?;
    let inner = crate::Tiler::Layout(l.clone());
    let product = crate::logical_product(a, &inner)?;
    let (b, m, s) = sw.params();
    let abs = s.abs();
    let p = |e: i64| Int::st(1i64 << e);
    let only_zy = Layout::new(
        ints(&[p(m), p(b), p(abs - b), p(b), Int::st(1)]),
        ints(&[Int::st(0), p(m), Int::st(0), p(m + abs), Int::st(0)]),
    )?;
    let zy = crate::composition(&only_zy, &inner)?;
    let active = zy.call(zy.size()?.value() - 1)?;
    // The active bits' images in the product's second mode: C++'s `new_layout(_0, L(active))`.
    let second = |bits: i64| -> Result<i64> {
        let x = l.call(bits)?;
        let c = crate::int_tuple::Tuple::Node(alloc::vec![
            crate::int_tuple::Tuple::Leaf(Some(Int::st(0))),
            crate::int_tuple::Tuple::Leaf(Some(Int::dy(x))),
        ]);
        Ok(product.call_coord(&c)?.value())
    };
    let swizzle = Swizzle::from_masks(second(active & sw.yyy_mask())?, second(active & sw.zzz_mask())?)?;
    let r = MaybeComposed::of(swizzle, Int::st(0), product);
    let size_a = a.size()?.value();
    let cotarget = size_a.checked_mul(l.cosize()?.value()).ok_or_else(|| Error::Overflow { op: "logical_product" })?;
    let rest = crate::complement(a, &IntTuple::Leaf(Int::st(cotarget)))?;
    check_law("logical_product", "R(i, j) == A(i) + C(Sw(L(j)))", r.size()?.value(), |k| {
        let (i, j) = (k % size_a, k / size_a);
        let want = a
            .call(i)?
            .checked_add(rest.call(t.call_index(j)?)?)
            .ok_or_else(|| Error::Overflow { op: "logical_product" })?;
        let got = r.call_index(k)?;
        Ok((got == want)
            .then_some(())
            .ok_or_else(|| alloc::format!("R = {r} gives {got} at ({i},{j}), the product {want}")))
    })?;
    Ok(r)
}

/// A law checked on the indices `0..n`: `at(i)` is `Err(witness)` where it fails.
fn check_law(
    op: &'static str,
    condition: &'static str,
    n: i64,
    at: impl Fn(i64) -> Result<core::result::Result<(), alloc::string::String>>,
) -> Result<()> {
    let fail = |witness| Err(Error::Postcondition { op, condition, witness });
    if n > CHECKED_DOMAIN {
        return fail(alloc::format!("{n} indices are too many to check"));
    }
    for i in 0..n {
        if let Err(witness) = at(i)? {
            return fail(witness);
        }
    }
    Ok(())
}

impl ComposedLayout {
    /// `right_inverse(Sw o 0 o L)` (CuTe C++ `swizzle_layout.hpp`):
    /// `composition(right_inverse(L), Sw)`, the swizzle moved to the left of the inverse by
    /// [`transfer_swizzle`]. `@post` checked on every index: `self(R(i)) == i`.
    ///
    /// # Errors
    /// `InvalidArgument` for a nonzero offset (C++'s answer is a layout composed with a
    /// swizzle, which this type does not hold) and where the swizzle cannot be moved;
    /// `Postcondition` where the moved swizzle is not an inverse (or the domain is past 2^22
    /// elements to check); those of [`crate::right_inverse`].
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// let c: ComposedLayout = "Sw<3,3,3> o 0 o (8,64):(64,1)".parse()?;
    /// let r = c.right_inverse()?;
    /// assert_eq!(r.to_string(), "Sw<3,0,-6> o 0 o (64,8):(8,1)"); // CuTe C++ 4.2's answer
    /// for i in 0..512 {
    ///     assert_eq!(c.call_index(r.call_index(i)?)?, i);
    /// }
    /// # Ok::<(), Error>(())
    /// ```
    pub fn right_inverse(&self) -> Result<MaybeComposed> {
        self.inverse(true)
    }

    /// `left_inverse(Sw o 0 o L)`: `composition(left_inverse(L), Sw)`, as
    /// [`ComposedLayout::right_inverse`]; `@post` checked on every index: `R(self(i)) == i`.
    ///
    /// # Errors
    /// As [`ComposedLayout::right_inverse`], with those of [`crate::left_inverse`].
    pub fn left_inverse(&self) -> Result<MaybeComposed> {
        self.inverse(false)
    }

    /// The inverse: for swizzles over a layout without offsets, the layout's inverse with
    /// every swizzle moved left past it; otherwise C++'s `composition(inverse(B), -O,
    /// inverse(A))` (a swizzle is its own inverse). The law checked on every index: for the
    /// right inverse, CuTe's `@post` `self(R(i)) == i` for every `i < size(R)`; with an
    /// offset the image of `self` does not start at 0 and no `R` can meet that, so there on
    /// the indices `i < size(R)` that `self` reaches. For the left, `R(self(i)) == i`.
    fn inverse(&self, right: bool) -> Result<MaybeComposed> {
        let op = if right { "right_inverse" } else { "left_inverse" };
        let inv = |l: &Layout| if right { crate::right_inverse(l) } else { crate::left_inverse(l) };
        let r = match (self.swizzles(), &self.outer[..]) {
            (Some((l, levels)), _) if levels.iter().all(|&(_, o)| o.value() == 0) => {
                moved_all(inv(l)?, levels.into_iter())?
            }
            // C++'s `composition(inverse(B), -O, inverse(A))`.
            (_, [_]) => self.reversed(&inv)?,
            _ => match self.layouts_over_swizzles() {
                // Layouts over swizzles over a layout (C++'s `A o O o (Sw o 0 o L)`): the inner
                // part's inverse by the swizzle rule, then C++'s `composition(inverse(B), -O,
                // inverse(A))` level by level outward.
                Some(m) => {
                    let (Func::Layout(l), swizzles) = (&self.inner, &self.outer[..m]) else { unreachable!() };
                    let levels = swizzles.iter().map(|(o, f)| (f.swizzle().expect("a swizzle level"), *o));
                    let mut q = match moved_all(inv(l)?, levels)? {
                        MaybeComposed::Layout(l) => ComposedLayout { inner: Func::Layout(l), outer: Vec::new() },
                        MaybeComposed::Composed(k) => k,
                    };
                    for (offset, a) in &self.outer[m..] {
                        let Func::Layout(a) = a else { unreachable!() };
                        let mut outer = alloc::vec![(Int::st(0).checked_sub(*offset)?, q.inner)];
                        outer.extend(q.outer);
                        q = ComposedLayout { inner: Func::Layout(inv(a)?), outer };
                    }
                    let cxx = MaybeComposed::Composed(q);
                    // Where the moved swizzle does not commute with the inverse (C++'s answer
                    // breaks the law), the chain reversed, each function inverted in place:
                    // an inverse wherever each level is one.
                    if self.check_inverse(&cxx, right).is_ok() {
                        return Ok(cxx);
                    }
                    self.reversed(&inv)?
                }
                None => {
                    return Err(Error::InvalidArgument {
                        op,
                        reason: alloc::format!(
                            "{self} is a nested composition with an offset or a layout outside: C++ composes the inner inverse with a swizzle, which it does not define"
                        ),
                    })
                }
            },
        };
        self.check_inverse(&r, right)?;
        Ok(r)
    }

    /// The law of an inverse `r` on every index: for the right inverse, CuTe's `@post`
    /// `self(R(i)) == i` for every `i < size(R)` (with an offset, on the indices `self`
    /// reaches); for the left, `R(self(i)) == i`.
    fn check_inverse(&self, r: &MaybeComposed, right: bool) -> Result<()> {
        let op = if right { "right_inverse" } else { "left_inverse" };
        let n = self.domain()?;
        if right {
            let offsets = self.outer.iter().any(|&(o, _)| o.value() != 0);
            let condition = if offsets { "self(R(i)) == i where self reaches i" } else { "self(R(i)) == i" };
            let m = r.domain()?;
            if n.max(m) > CHECKED_DOMAIN {
                let witness = alloc::format!("{} indices are too many to check", n.max(m));
                return Err(Error::Postcondition { op, condition, witness });
            }
            let mut reached = alloc::vec![!offsets; m as usize];
            if offsets {
                for c in 0..n {
                    let x = self.call_index(c)?;
                    if (0..m).contains(&x) {
                        reached[x as usize] = true;
                    }
                }
            }
            check_law(op, condition, m, |i| {
                let got = if reached[i as usize] { self.call_index(r.call_index(i)?)? } else { i };
                Ok((got == i).then_some(()).ok_or_else(|| alloc::format!("R = {r} of {self} gives {got} at {i}")))
            })
        } else {
            check_law(op, "R(self(i)) == i", n, |i| {
                let got = r.call_index(self.call_index(i)?)?;
                Ok((got == i).then_some(()).ok_or_else(|| alloc::format!("R = {r} of {self} gives {got} at {i}")))
            })
        }
    }

    /// The chain reversed, each function inverted in place (a swizzle is its own inverse) and
    /// each offset negated: `F0⁻¹ o -O1 o F1⁻¹ o ... o -On o Fn⁻¹` for `Fn o On o ... o O1 o F0`.
    fn reversed(&self, inv: &dyn Fn(&Layout) -> Result<Layout>) -> Result<MaybeComposed> {
        let f = |x: &Func| -> Result<Func> {
            Ok(match x {
                Func::Swizzle(sw) => Func::Swizzle(*sw),
                Func::Layout(l) => Func::Layout(inv(l)?),
            })
        };
        let n = self.outer.len();
        let mut outer = Vec::with_capacity(n);
        for k in (0..n).rev() {
            let below = if k == 0 { &self.inner } else { &self.outer[k - 1].1 };
            outer.push((Int::st(0).checked_sub(self.outer[k].0)?, f(below)?));
        }
        Ok(MaybeComposed::Composed(ComposedLayout { inner: f(&self.outer[n - 1].1)?, outer }))
    }

    /// Where this is layouts over swizzles (at offset 0) over a layout, with at least one of
    /// each: the number of swizzle levels.
    fn layouts_over_swizzles(&self) -> Option<usize> {
        let Func::Layout(_) = &self.inner else { return None };
        let m = self.outer.iter().take_while(|(o, f)| f.swizzle().is_some() && o.value() == 0).count();
        let rest_layouts = self.outer[m..].iter().all(|(_, f)| matches!(f, Func::Layout(_)));
        (m > 0 && m < self.outer.len() && rest_layouts).then_some(m)
    }

    /// The number of indices the innermost function takes: a layout's size, a swizzle's
    /// `2^(B+M+|S|)`.
    ///
    /// # Errors
    /// `Overflow`.
    pub fn domain(&self) -> Result<i64> {
        match &self.inner {
            Func::Layout(l) => Ok(l.size()?.value()),
            Func::Swizzle(sw) => Ok(sw.size()),
        }
    }

    fn no_offset(&self, op: &'static str) -> Result<()> {
        if let Some((offset, _)) = self.outer.iter().find(|&&(o, _)| o.value() != 0) {
            return Err(Error::InvalidArgument {
                op,
                reason: alloc::format!("the offset {offset} is not 0 (as C++ requires)"),
            });
        }
        Ok(())
    }

    /// `slice_and_offset(c, Sw o offset o L)` (CuTe C++ `swizzle_layout.hpp`): the sub-layout
    /// over the `_` modes of `c` and the offset of its origin. Where the slice keeps no pair
    /// of bits the swizzle xors together, the swizzle decays into strides (negative ones
    /// where a fixed bit flips a sign) and the result is a plain layout with offset
    /// `Sw(offset ^ zy-bits of c) + other bits of c`; otherwise it stays composed, with the
    /// fixed swizzle bits folded into its offset. An all-`_` coordinate slices the inner layout.
    /// With a nonzero offset, C++'s answer is kept where it is the slice (checked on every
    /// index; C++ folds the offset in with an xor); otherwise, and where a layout is the outer
    /// function, C++'s general rule: `(A o (O + B(c)) o slice(B), 0)`.
    ///
    /// # Errors
    /// `RankMismatch` when the coordinate does not fit; `InvalidArgument` where a fixed mode's
    /// `shape * stride` is not a power of two (C++'s static_assert); those of composition.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// let c: ComposedLayout = "Sw<3,3,3> o 0 o (8,64):(64,1)".parse()?;
    /// // Row 3: its 8-element chunks are permuted by the row index, i.e. chunk j is at j ^ 3.
    /// let (row, off) = c.slice_and_offset(&"(3,_)".parse()?)?;
    /// assert_eq!(off.value(), 216); // CuTe C++ 4.2: Sw(3 * 64) = 192 ^ (3 << 3)
    /// for j in 0..64 {
    ///     assert_eq!(off.value() + row.call_index(j)?, c.call(&format!("(3,{j})").parse()?)?);
    /// }
    /// # Ok::<(), Error>(())
    /// ```
    pub fn slice_and_offset(&self, c: &Coord) -> Result<(MaybeComposed, Int)> {
        // C++'s general rule where a layout is the function over the innermost layout.
        if let Some((_, Func::Layout(_))) = self.outer.first() {
            return Ok((MaybeComposed::Composed(self.origin_into_offset(c)?), Int::st(0)));
        }
        // Layouts outside the innermost swizzle: C++'s general rule recurses into it (a swizzle
        // outside a composition is its static_assert, as `single` refuses).
        if self.outer.len() > 1 && self.outer[1..].iter().all(|(_, f)| matches!(f, Func::Layout(_))) {
            return self.slice_nested(c);
        }
        let (swizzle, offset, layout) = self.single("slice_and_offset")?;
        let decayed = slice_swizzled(swizzle, offset, layout, c)?;
        if offset.value() == 0 {
            return Ok(decayed);
        }
        // C++ folds the offset into the fixed bits with an xor (it assumes the offset keeps to
        // the swizzle's YZ domain): where that is not the sum, its answer is not the slice.
        self.kept_if_slice(c, decayed)
    }

    /// `candidate` (C++'s answer) where it is the slice at `c`, checked on every index against
    /// C++'s general rule (always the slice); otherwise the general rule.
    fn kept_if_slice(&self, c: &Coord, candidate: (MaybeComposed, Int)) -> Result<(MaybeComposed, Int)> {
        let general = self.origin_into_offset(c)?;
        let n = general.size()?.value();
        let (r, off) = &candidate;
        let agrees =
            |j: i64| -> Result<bool> { Ok(r.call_index(j)?.checked_add(off.value()) == Some(general.call_index(j)?)) };
        if n <= CHECKED_DOMAIN && (0..n).try_fold(true, |all, j| Ok::<_, Error>(all && agrees(j)?))? {
            return Ok(candidate);
        }
        Ok((MaybeComposed::Composed(general), Int::st(0)))
    }

    /// `slice_and_offset` of a nested chain whose innermost function is a swizzle over a
    /// layout (C++ recurses into `layout_b`): that pair sliced by the swizzle's rule, its offset
    /// moved into the next level's (`(32,4):(4,1) o 0 o Sw<2,0,3> o 0 o (8,8,2):(1,8,64)` at
    /// `(3,_,_)` is C++'s `(32,4):(4,1) o 3 o ((4,2),2):((7,32),64)`). Kept where it is the slice
    /// (checked on every index, as the one-level rule); otherwise the general rule.
    fn slice_nested(&self, c: &Coord) -> Result<(MaybeComposed, Int)> {
        let (Func::Layout(l), (offset, Func::Swizzle(sw))) = (&self.inner, &self.outer[0]) else {
            return Ok((MaybeComposed::Composed(self.origin_into_offset(c)?), Int::st(0)));
        };
        let (inner, off) = ComposedLayout::new(*sw, *offset, l.clone()).slice_and_offset(c)?;
        let mut levels = self.outer[1..].to_vec();
        levels[0].0 = levels[0].0.checked_add(off)?;
        let r = match inner {
            MaybeComposed::Layout(l) => ComposedLayout { inner: Func::Layout(l), outer: levels },
            MaybeComposed::Composed(mut k) => {
                k.outer.extend(levels);
                k
            }
        };
        self.kept_if_slice(c, (MaybeComposed::Composed(r), Int::st(0)))
    }

    /// C++'s general `slice_and_offset` of a composed layout: the innermost layout sliced, the
    /// origin of the slice added to the offset next to it.
    fn origin_into_offset(&self, c: &Coord) -> Result<ComposedLayout> {
        let l = self.layout()?;
        let at = l.call_coord(c)?;
        let mut r = self.with_layout(l.slice(c)?);
        r.outer[0].0 = r.outer[0].0.checked_add(at)?;
        Ok(r)
    }
}

/// `slice_and_offset(c, Sw o offset o L)` by C++'s swizzle specialization: the swizzle's bits
/// that `c` fixes become strides and an offset where the slice keeps no Y/Z pair.
fn slice_swizzled(swizzle: Swizzle, offset: Int, layout: &Layout, c: &Coord) -> Result<(MaybeComposed, Int)> {
    let sliced = layout.slice(c)?;
    let (b, m, s) = swizzle.params();
    if all_under(c) {
        return Ok((MaybeComposed::of(swizzle, offset, sliced), Int::st(0)));
    }
    if b == 0 {
        let off = layout.call_coord(c)?;
        return Ok((MaybeComposed::Layout(sliced), off.checked_add(offset)?));
    }
    let a = s.abs();
    let p = |e: i64| Int::st(1i64 << e);
    let shape = ints(&[p(m), p(b), p(a - b), p(b), Int::st(1)]);
    // The swizzle's bits as modes: the Z and Y runs (`only_zy`) and the others (`anti_zy`).
    let anti_zy = Layout::new(shape.clone(), ints(&[Int::st(1), Int::st(0), p(m + b), Int::st(0), p(m + b + a)]))?;
    let only_zy = Layout::new(shape, ints(&[Int::st(0), p(m), Int::st(0), p(m + a), Int::st(0)]))?;
    let diced = crate::Tiler::Layout(layout.dice(c)?);
    let diced_coord = crate::int_tuple::dice(c, c)?.map(&mut |x| x.unwrap_or(Int::st(0)));
    let (zy_bits, zy_run_time) = mixed_bits(&crate::composition(&only_zy, &diced)?, &diced_coord)?;
    let offset_only_zy = offset.value() ^ zy_bits;
    // The strides (and a kept swizzle's offset) depend on the fixed Y/Z bits only: static
    // where those are, as C++'s (`(_,{7})` of `Sw<1,4,4> o 0 o (16,16):(16,1)` fixes no Y/Z
    // bit, and its slice is `(_16):(_16)`).
    let zy_dynamic = !layout.is_static() || !offset.is_static() || zy_run_time;
    let flagged = |v: i64, run_time: bool| if run_time { Int::dy(v) } else { Int::st(v) };
    let zy_int = |v| flagged(v, zy_dynamic);
    let offset_anti_zy = crate::composition(&anti_zy, &diced)?.call_coord(&diced_coord.map(&mut |x| Some(*x)))?;
    // The bits the rest of the layout reaches: if it reaches a Y bit and its Z partner,
    // the swizzle stays.
    let sliced_zy = crate::composition(&only_zy, &crate::Tiler::Layout(sliced.clone()))?;
    let active = sliced_zy.call(sliced_zy.size()?.value() - 1)?;
    if active & !swizzle.apply(active)? != 0 {
        // The offset outside the swizzle is static where every term of it is (C++: `_80` for a
        // static layout and coordinate whatever the composed offset; a run-time coordinate on
        // a mode the anti-ZY projection gives stride `_0` adds `_0`).
        return Ok((MaybeComposed::of(swizzle, zy_int(offset_only_zy), sliced), offset_anti_zy));
    }
    let (z, y) = (swizzle.zzz_mask(), swizzle.yyy_mask());
    let (z, y) = (z & -z, y & -y);
    let strides = |z_first: bool| -> Vec<Int> {
        (0..b)
            .map(|i| {
                let v = if z_first {
                    if offset_only_zy & (y << i) == 0 {
                        z << i
                    } else {
                        -(z << i)
                    }
                } else if offset_only_zy & (z << i) == 0 {
                    (y + z) << i
                } else {
                    (y - z) << i
                };
                zy_int(v)
            })
            .collect()
    };
    let repeat = |v: Vec<Int>| if v.len() == 1 { IntTuple::Leaf(v[0]) } else { ints(&v) };
    let twos = repeat(alloc::vec![Int::st(2); b as usize]);
    let swizzle_layout = Layout::new(
        ints_t(alloc::vec![
            IntTuple::Leaf(p(m)),
            twos.clone(),
            IntTuple::Leaf(p(a - b)),
            twos,
            IntTuple::Leaf(Int::st(1))
        ]),
        ints_t(alloc::vec![
            IntTuple::Leaf(Int::st(1)),
            repeat(strides(z < y)),
            IntTuple::Leaf(p(m + b)),
            repeat(strides(z > y)),
            IntTuple::Leaf(p(m + b + a)),
        ]),
    )?;
    let r = crate::composition(&swizzle_layout, &crate::Tiler::Layout(sliced))?;
    let off = swizzle.apply(offset_only_zy)?.checked_add(offset_anti_zy.value());
    let off = flagged(
        off.ok_or_else(|| Error::Overflow { op: "slice_and_offset" })?,
        zy_dynamic || !offset_anti_zy.is_static(),
    );
    Ok((MaybeComposed::Layout(r), off))
}

impl ComposedLayout {
    /// `slice(c, Sw o offset o L)`: the first part of [`ComposedLayout::slice_and_offset`].
    ///
    /// # Errors
    /// As [`ComposedLayout::slice_and_offset`].
    pub fn slice(&self, c: &Coord) -> Result<MaybeComposed> {
        Ok(self.slice_and_offset(c)?.0)
    }

    /// `domain_offset(c, Sw o offset o L)` (CuTe C++ `layout_composed.hpp`): the offset
    /// `L(c)` moves into the composed layout, `(Sw o (offset + L(c)) o L, 0)`. In a nested
    /// chain it moves into the innermost offset, the one `L`'s value is added to: `L` is
    /// linear in its coordinate, so `X(c + d) = ... F(O + L(c) + L(d))` and the definition
    /// `R(d) + 0 == X(c + d)` holds.
    ///
    /// # Errors
    /// As [`Layout::call_coord`]; `Overflow`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// let c: ComposedLayout = "Sw<3,3,3> o 0 o (8,64):(64,1)".parse()?;
    /// let (d, off) = c.domain_offset(&"(1,0)".parse()?)?;
    /// assert_eq!((d.to_string(), off.value()), ("Sw<3,3,3> o 64 o (8,64):(64,1)".to_string(), 0));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn domain_offset(&self, c: &Coord) -> Result<(ComposedLayout, Int)> {
        let mut r = self.clone();
        // The innermost offset takes `L(c)`. (Adding the inner chain's value to the outermost
        // offset, as this once did, leaves the inner chain unshifted: wrong for a nested one.)
        let at = r.layout()?.call_coord(c)?;
        let (off, _) = &mut r.outer[0];
        *off = off.checked_add(at)?;
        Ok((r, Int::st(0)))
    }

    /// `max_alignment(Sw o offset o L)` (CuTe C++ `swizzle_layout.hpp`): the gcd of the
    /// swizzle's `2^M`, the offset's alignment (its lowest set bit; none for a static 0; for
    /// a run-time offset, its known divisor's) and the layout's [`crate::max_alignment`].
    ///
    /// # Errors
    /// As [`crate::max_alignment`].
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// let c: ComposedLayout = "Sw<3,3,3> o 0 o (8,64):(64,1)".parse()?;
    /// assert_eq!(c.max_alignment()?.value(), 8);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn max_alignment(&self) -> Result<Int> {
        // C++ does not attempt it where a layout is a function outside (`layout_composed.hpp`).
        let Some((l, levels)) = self.swizzles() else { return Ok(Int::st(1)) };
        // A nested composition: every level's swizzle and offset (C++ recurses into layout_b).
        let mut g = crate::max_alignment(l)?.value().unsigned_abs();
        for (sw, off) in levels {
            g = crate::int::gcd(g, 1 << sw.base);
            // What is known of the offset: a static one's value, a run-time one's divisor
            // (its value is not the kernel's). Its lowest set bit, as `-i64::MIN` overflows.
            let known = if off.is_static() { off.value().unsigned_abs() } else { off.divisor() };
            if known != 0 {
                g = crate::int::gcd(g, 1u64 << known.trailing_zeros());
            }
        }
        Ok(Int::st(g as i64))
    }
}

/// Whether every leaf of `c` is `_`.
fn all_under(c: &Coord) -> bool {
    match c {
        crate::int_tuple::Tuple::Leaf(x) => x.is_none(),
        crate::int_tuple::Tuple::Node(v) => v.iter().all(all_under),
    }
}

fn ints(v: &[Int]) -> IntTuple {
    crate::int_tuple::Tuple::Node(v.iter().map(|x| crate::int_tuple::Tuple::Leaf(*x)).collect())
}

fn ints_t(v: Vec<IntTuple>) -> IntTuple {
    crate::int_tuple::Tuple::Node(v)
}

/// C++'s `to_mixed_bits(layout, coord)`: the xor over the leaves of `c_i * d_i`, the
/// coordinate split over the layout's shape; each `s_i * d_i` a power of two (or 0). With
/// whether a run-time coordinate reaches a nonzero stride (then the bits are run-time).
fn mixed_bits(l: &Layout, coord: &IntTuple) -> Result<(i64, bool)> {
    let crd = crate::idx2crd(coord, &l.shape())?;
    let (mut bits, mut run_time) = (0i64, false);
    for (&(s, d), c) in l.pairs().iter().zip(crd.leaves()) {
        run_time |= !c.is_static() && d.value() != 0;
        let span = s.value().checked_mul(d.value()).ok_or_else(|| Error::Overflow { op: "slice_and_offset" })?;
        if span != 0 && (span < 0 || span & (span - 1) != 0) {
            return Err(Error::InvalidArgument {
                op: "slice_and_offset",
                reason: alloc::format!("a sliced mode {s}:{d} of the swizzled layout spans {span}, not a power of two"),
            });
        }
        bits ^= c.value().checked_mul(d.value()).ok_or_else(|| Error::Overflow { op: "slice_and_offset" })?;
    }
    Ok((bits, run_time))
}

/// `Sw<B,M,S> o OFFSET o LAYOUT`, as CuTe C++ prints a composed layout, outermost function
/// first; each offset as any integer (`_0` static, `256` at run time, in the cpp style).
impl crate::print::Notation for ComposedLayout {
    fn write_styled(&self, style: crate::print::Style, out: &mut alloc::string::String) {
        for (off, f) in self.outer.iter().rev() {
            f.write_styled(style, out);
            out.push_str(" o ");
            off.write_styled(style, out);
            out.push_str(" o ");
        }
        self.inner.write_styled(style, out);
    }
}

impl core::fmt::Display for ComposedLayout {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(&crate::print::to_values(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The definition of upcast: element (r, c) of the upcast layout is the `n` bytes at byte
    /// column `n * c` of the original, so `n * U(r, c) == B(r, n * c)` for row-major tiles whose
    /// swizzle moves whole elements.
    #[test]
    fn upcast_moves_the_same_bytes() {
        for (text, rows, cols, n) in [
            ("Sw<3,4,3> o 0 o (8,128):(128,1)", 8, 128, 2),
            ("Sw<3,4,3> o 0 o (8,128):(128,1)", 8, 128, 4),
            ("Sw<2,4,3> o 0 o (16,64):(64,1)", 16, 64, 16),
            ("Sw<3,3,3> o 0 o (8,64):(64,1)", 8, 64, 8),
        ] {
            let b: ComposedLayout = text.parse().unwrap();
            let u = b.upcast(n).unwrap();
            let (rows, cols) = (rows as i64, cols as i64);
            for r in 0..rows {
                for c in 0..cols / n {
                    let ue = u.call_index(r + rows * c).unwrap();
                    let be = b.call_index(r + rows * (n * c)).unwrap();
                    assert_eq!(n * ue, be, "{text} upcast {n} at ({r},{c})");
                }
            }
            // downcast undoes it
            assert_eq!(u.downcast(n).unwrap(), b, "{text}");
        }
    }

    /// The definition of the common layout: through it, both the swizzled layout and the other
    /// one read consecutive offsets, and the common vector is its size.
    #[test]
    fn the_common_layout_is_contiguous_in_both() {
        for (c, b) in [
            ("Sw<3,3,3> o 0 o (8,64):(64,1)", "(8,64):(64,1)"),
            ("Sw<2,2,3> o 0 o (16,32):(32,1)", "(16,32):(32,1)"),
            ("Sw<3,4,3> o 0 o (8,128):(128,1)", "(8,128):(128,1)"),
            ("Sw<3,3,3> o 0 o (64,8):(1,64)", "(64,8):(1,64)"),
        ] {
            let c: ComposedLayout = c.parse().unwrap();
            let b: Layout = b.parse().unwrap();
            let common = c.max_common_layout(&b).unwrap();
            let n = common.size().unwrap().value();
            assert_eq!(c.max_common_vector(&b).unwrap().value(), n, "{c} and {b}");
            assert!(n > 1, "{c} and {b} share a vector");
            let at = |i: i64| common.call(i).unwrap();
            for i in 0..n {
                assert_eq!(c.call_index(at(i)).unwrap(), c.call_index(at(0)).unwrap() + i, "{c} at {i}");
                assert_eq!(b.call(at(i)).unwrap(), b.call(at(0)).unwrap() + i, "{b} at {i}");
            }
        }
    }
}
