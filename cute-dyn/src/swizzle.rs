//! Swizzle functors `Sw<B,M,S>` and composed layouts `Sw ∘ (offset + L)`.

use crate::error::{Error, Result};
use crate::int_tuple::Coord;
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

    fn yyy_mask(&self) -> i64 {
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

/// `ComposedLayout(Sw, offset, L)`: `c -> Sw(offset + L(c))`.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct ComposedLayout {
    /// The outer swizzle.
    pub swizzle: Swizzle,
    /// Added to the inner layout's index before swizzling.
    pub offset: i64,
    /// The inner layout.
    pub layout: Layout,
}

impl ComposedLayout {
    /// Evaluate at a coordinate.
    ///
    /// # Errors
    /// Those of [`Layout::call_coord`] and [`Swizzle::apply`]; `Overflow`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::*;
    /// let c = ComposedLayout { swizzle: Swizzle::new(1, 0, 1)?, offset: 0, layout: "(2,2):(1,2)".parse()? };
    /// let v: Vec<i64> = (0..4).map(|i| c.call(&Coord::Leaf(Some(Int::st(i)))).unwrap()).collect();
    /// assert_eq!(v, [0, 1, 3, 2]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn call(&self, c: &Coord) -> Result<i64> {
        let inner = self.layout.call_coord(c)?.value();
        self.swizzle.apply(self.offset.checked_add(inner).ok_or(Error::Overflow { op: "composed layout" })?)
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
        (swizzle.params().0 != 0).then(|| ComposedLayout { swizzle, offset: 0, layout: layout.clone() })
    }

    /// `composition(Sw o offset o L, tiler)`: `Sw o offset o composition(L, tiler)` (C++'s
    /// `composition(ComposedLayout, Tiler)` composes the inner layout).
    ///
    /// # Errors
    /// Those of [`crate::composition`].
    pub fn compose_inner(&self, tiler: &crate::Tiler) -> Result<ComposedLayout> {
        Ok(ComposedLayout {
            swizzle: self.swizzle,
            offset: self.offset,
            layout: crate::composition(&self.layout, tiler)?,
        })
    }

    /// `upcast<N>(Sw o offset o L)` (CuTe C++ `layout_composed.hpp`): each part upcast, the
    /// offset divided by `n`.
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
        let swizzle = self.swizzle.upcast(n)?;
        if self.offset.checked_rem(n) != Some(0) {
            return Err(Error::InvalidArgument {
                op: "upcast",
                reason: alloc::format!("the offset {} is not a multiple of {n}", self.offset),
            });
        }
        Ok(ComposedLayout { swizzle, offset: self.offset / n, layout: crate::upcast(&self.layout, n)? })
    }

    /// `downcast<N>(Sw o offset o L)`: each part downcast, the offset multiplied by `n`.
    ///
    /// # Errors
    /// Those of [`Swizzle::downcast`] and [`crate::downcast`]; `Overflow`.
    pub fn downcast(&self, n: i64) -> Result<ComposedLayout> {
        let swizzle = self.swizzle.downcast(n)?;
        let offset = self.offset.checked_mul(n).ok_or(Error::Overflow { op: "downcast" })?;
        Ok(ComposedLayout { swizzle, offset, layout: crate::downcast(&self.layout, n)? })
    }

    /// `max_common_vector(Sw o offset o L, B)` (CuTe C++ `swizzle_layout.hpp`): the inner
    /// layout's, at most `2^M` (the elements the swizzle leaves contiguous; C++ assumes the
    /// offset keeps to the swizzle's YZ domain, and so does this).
    ///
    /// # Errors
    /// As [`crate::max_common_vector`].
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
        Ok(crate::max_common_vector(&self.layout, b)?.min(crate::Int::st(1 << self.swizzle.base)))
    }

    /// `max_common_vector` of two composed layouts: the inner layouts', and at most `2^M0` and
    /// `2^M1` unless the swizzles are the same (C++'s rule).
    ///
    /// # Errors
    /// As [`crate::max_common_vector`].
    pub fn max_common_vector_composed(&self, b: &ComposedLayout) -> Result<crate::Int> {
        let vec = crate::max_common_vector(&self.layout, &b.layout)?;
        if self.swizzle == b.swizzle {
            return Ok(vec);
        }
        Ok(vec.min(crate::Int::st(1 << self.swizzle.base)).min(crate::Int::st(1 << b.swizzle.base)))
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
        let common = crate::max_common_layout(&self.layout, b)?;
        let base = crate::Int::st(1 << self.swizzle.base);
        if base.value() < common.size()?.value() {
            return crate::composition(&common, &crate::Tiler::Int(base));
        }
        Ok(common)
    }

    /// `size`: the inner layout's.
    ///
    /// # Errors
    /// `Overflow`.
    pub fn size(&self) -> Result<crate::Int> {
        self.layout.size()
    }

    /// `Sw(offset + L(i))` for an index `i`.
    ///
    /// # Errors
    /// As [`ComposedLayout::call`].
    pub fn call_index(&self, i: i64) -> Result<i64> {
        self.call(&crate::int_tuple::Tuple::Leaf(Some(crate::Int::dy(i))))
    }
}

/// `Sw<B,M,S> o OFFSET o LAYOUT`, as CuTe C++ prints a composed layout; the offset is static
/// (`_0` in the cpp style).
impl crate::print::Notation for ComposedLayout {
    fn write_styled(&self, style: crate::print::Style, out: &mut alloc::string::String) {
        use core::fmt::Write;
        let _ = write!(out, "{} o ", self.swizzle);
        crate::Int::st(self.offset).write_styled(style, out);
        out.push_str(" o ");
        self.layout.write_styled(style, out);
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
