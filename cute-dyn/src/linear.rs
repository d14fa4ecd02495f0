//! Layouts as linear maps over bits (GF(2)), Triton's "linear layouts" for CuTe: a layout whose
//! extents and strides are powers of two sends each bit of its index to one bit of the offset
//! (or to none, a stride 0), and a swizzle `Sw<B,M,S>` is `x ^ ((x & yyy) >> S)`, linear over
//! bits too. As bit matrices they compose, invert and solve where CuTe's `Swizzle` cannot: the
//! composition of any two swizzles (CUTLASS issue 1531), the swizzle `S` with
//! `S o input = output` (CUTLASS issue 1038).
//!
//! A [`BitMap`] holds the image of each index bit (its columns). One from a layout is defined on
//! the layout's index bits only; one from a swizzle (or an [`inverse`](BitMap::inverse), a
//! [`find_swizzle`]) is an XOR map of the offset's bits, the identity past its columns. The way
//! back, [`BitMap::to_cute`], gives the simplest CuTe form of the map: a layout, a swizzle over
//! a layout, or an XOR map over a layout.
//!
//! The conditions are refused with what was wrong: an extent or stride that is not a power of
//! two, a negative stride, two index bits whose offsets carry into each other (the sum of the
//! strides is not their XOR), a composed layout's non-zero offset (an affine map), an inverse
//! of a map that is not a bijection of its bits.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::error::{Error, Result};
use crate::swizzle::{ComposedLayout, Func};
use crate::{coalesce, Int, Layout, Swizzle};

/// A map over bits: index bit `j` goes to `cols[j]` (a set of offset bits), and an index to the
/// XOR of its bits' images. `xor`: an XOR map of the offset's bits (a swizzle's kind), the
/// identity on bits past its columns; otherwise the map is defined on its columns' bits only
/// (a layout's index).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct BitMap {
    cols: Vec<u64>,
    xor: bool,
}

/// The simplest CuTe form of a map over bits ([`BitMap::to_cute`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum CuteForm {
    /// A layout (its modes of extent 2 coalesced).
    Layout(Layout),
    /// `Sw<B,M,S> o 0 o L`.
    Swizzled(ComposedLayout),
    /// An XOR map that no one `Sw<B,M,S>` is, over a layout: `xor o L`.
    Xor(BitMap, Layout),
    /// An XOR map of offsets that is one swizzle.
    Swizzle(Swizzle),
    /// An XOR map of offsets that is two swizzles composed, `Sw1 o 0 o Sw2` (C++'s
    /// `ComposedLayout<Swizzle, Int, Swizzle>`).
    Swizzles(ComposedLayout),
    /// An XOR map of offsets that no one or two swizzles are.
    XorMap(BitMap),
}

impl core::fmt::Display for CuteForm {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            CuteForm::Layout(l) => write!(f, "{l}"),
            CuteForm::Swizzled(c) => write!(f, "{c}"),
            CuteForm::Xor(x, l) => write!(f, "{x} o {l}"),
            CuteForm::Swizzle(sw) => write!(f, "{sw}"),
            CuteForm::Swizzles(c) => write!(f, "{c}"),
            CuteForm::XorMap(x) => write!(f, "{x}"),
        }
    }
}

/// `2^k` for `k` in 0..64, or the reason `v` is not one.
fn log2_exact(op: &'static str, what: &str, v: i64) -> Result<u32> {
    if v <= 0 || v & (v - 1) != 0 {
        return Err(Error::InvalidArgument { op, reason: format!("{what} {v} is not a power of two") });
    }
    Ok(v.trailing_zeros())
}

/// A single-bit value's bit, or `None`.
fn single_bit(c: u64) -> Option<u32> {
    (c != 0 && c & (c - 1) == 0).then(|| c.trailing_zeros())
}

impl BitMap {
    /// The map of a layout whose flat extents and strides are powers of two (a stride may be 0):
    /// leaf `s:d` of extent `2^k` sends its `k` index bits to `d, 2d, ..., 2^(k-1) d`.
    ///
    /// # Errors
    /// `InvalidArgument` for an extent or a non-zero stride that is not a power of two, a
    /// negative stride, an offset past 2^62, or two index bits sent to the same offset bit (the
    /// strides' sum carries there: the layout is not a map over bits).
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::linear::BitMap;
    /// // (4,2):(2,1): index bits 0, 1 (the 4) go to offsets 2, 4; bit 2 (the 2) to offset 1.
    /// let m = BitMap::from_layout(&"(4,2):(2,1)".parse()?)?;
    /// assert_eq!(m.columns(), &[2, 4, 1]);
    /// assert!(BitMap::from_layout(&"(2,2):(1,1)".parse()?).is_err()); // 1 + 1 carries
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn from_layout(l: &Layout) -> Result<BitMap> {
        const OP: &str = "linear";
        let mut cols = Vec::new();
        for &(s, d) in l.flatten().pairs() {
            let k = log2_exact(OP, "extent", s.value())?;
            let d = d.value();
            if d < 0 {
                return Err(Error::InvalidArgument { op: OP, reason: format!("stride {d} is negative") });
            }
            let b = if d == 0 { None } else { Some(log2_exact(OP, "stride", d)?) };
            for t in 0..k {
                cols.push(match b {
                    None => 0,
                    Some(b) if b + t < 63 => 1u64 << (b + t),
                    Some(_) => return Err(Error::Overflow { op: OP }),
                });
            }
        }
        if cols.len() > 63 {
            return Err(Error::InvalidArgument { op: OP, reason: format!("{} index bits: at most 63", cols.len()) });
        }
        for i in 0..cols.len() {
            for j in i + 1..cols.len() {
                if cols[i] != 0 && cols[i] == cols[j] {
                    return Err(Error::InvalidArgument {
                        op: OP,
                        reason: format!(
                            "index bits {i} and {j} both go to offset {}: their sum carries, so {l} is not a map over bits",
                            cols[i]
                        ),
                    });
                }
            }
        }
        Ok(BitMap { cols, xor: false })
    }

    /// The XOR map of `Sw<B,M,S>` over the offset's bits `0 .. bits` (at least the swizzle's
    /// own span): column `j` is `Sw(2^j)`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::{linear::BitMap, Swizzle};
    /// // Sw<1,0,1>: bit 1 xor-ed into bit 0; the map of 2 is 3.
    /// let m = BitMap::from_swizzle(&Swizzle::new(1, 0, 1)?, 2)?;
    /// assert_eq!(m.columns(), &[1, 3]);
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    ///
    /// # Errors
    /// `Overflow` past 63 bits.
    pub fn from_swizzle(sw: &Swizzle, bits: u32) -> Result<BitMap> {
        let span = 64 - ((sw.yyy_mask() | sw.zzz_mask()) as u64).leading_zeros();
        let n = bits.max(span);
        if n > 63 {
            return Err(Error::Overflow { op: "linear" });
        }
        let cols = (0..n).map(|j| sw.apply(1 << j).map(|v| v as u64)).collect::<Result<_>>()?;
        Ok(BitMap { cols, xor: true })
    }

    /// The map of a composed layout `A o 0 o B` (any nesting of swizzles and layouts).
    ///
    /// # Errors
    /// Those of [`from_layout`](Self::from_layout), and `InvalidArgument` for a non-zero
    /// offset (the map is affine, not linear).
    pub fn from_composed(c: &ComposedLayout) -> Result<BitMap> {
        let mut m = BitMap::from_func(c.inner(), 0)?;
        for (o, f) in c.outer() {
            if o.value() != 0 {
                return Err(Error::InvalidArgument {
                    op: "linear",
                    reason: format!("{c}: the offset {} makes it affine, not a map over bits", o.value()),
                });
            }
            m = BitMap::from_func(f, m.out_bits())?.compose(&m)?;
        }
        Ok(m)
    }

    fn from_func(f: &Func, bits: u32) -> Result<BitMap> {
        match f {
            Func::Swizzle(sw) => BitMap::from_swizzle(sw, bits),
            Func::Layout(l) => BitMap::from_layout(l),
        }
    }

    /// The identity of `bits` bits (an XOR map).
    pub fn identity(bits: u32) -> BitMap {
        BitMap { cols: (0..bits.min(63)).map(|j| 1 << j).collect(), xor: true }
    }

    /// An XOR map from its columns (`cols[j]` the image of bit `j`; the identity past them).
    pub fn xor_map(cols: Vec<u64>) -> BitMap {
        BitMap { cols, xor: true }
    }

    /// A layout's map from its columns (`cols[j]` the offset of index bit `j`: single bits or
    /// 0, no two the same, as [`from_layout`](Self::from_layout) gives).
    ///
    /// # Errors
    /// `InvalidArgument` for a column of several bits or two equal columns (no layout's).
    pub fn from_columns(cols: Vec<u64>) -> Result<BitMap> {
        let m = BitMap { cols, xor: false };
        if !m.is_layout_like() {
            return Err(Error::InvalidArgument {
                op: "bits",
                reason: format!("{m}: a layout sends each index bit to one offset bit or none, each to its own"),
            });
        }
        Ok(m)
    }

    /// The images of the index bits.
    pub fn columns(&self) -> &[u64] {
        &self.cols
    }

    /// An XOR map of the offset's bits (the identity past its columns).
    pub fn is_xor(&self) -> bool {
        self.xor
    }

    /// One past the highest offset bit a column reaches (for an XOR map, at least its columns).
    pub fn out_bits(&self) -> u32 {
        let hi = self.cols.iter().fold(0, |a, &c| a | c);
        let reach = 64 - hi.leading_zeros();
        if self.xor {
            reach.max(self.cols.len() as u32)
        } else {
            reach
        }
    }

    /// The map at `x`.
    ///
    /// # Errors
    /// `InvalidArgument` where `x` has a bit past a layout's index bits (outside its domain).
    pub fn apply(&self, x: u64) -> Result<u64> {
        let (mut out, mut rest) = (0, x);
        while rest != 0 {
            let j = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            out ^= match self.cols.get(j) {
                Some(&c) => c,
                None if self.xor => 1 << j,
                None => {
                    return Err(Error::InvalidArgument {
                        op: "linear",
                        reason: format!("{x} is past the map's {} index bits", self.cols.len()),
                    })
                }
            };
        }
        Ok(out)
    }

    /// `self o inner`: `inner`, then this map.
    ///
    /// # Errors
    /// Where `inner` reaches past this map's index bits (for a map that is not an XOR map).
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::{linear::BitMap, Swizzle};
    /// // CUTLASS issue 1531: Sw<3,0,3> o Sw<1,2,1>, which no Sw<B,M,S> is.
    /// let a = BitMap::from_swizzle(&Swizzle::new(3, 0, 3)?, 0)?;
    /// let b = BitMap::from_swizzle(&Swizzle::new(1, 2, 1)?, 0)?;
    /// let c = a.compose(&b)?;
    /// for x in 0..64 {
    ///     let want = Swizzle::new(3, 0, 3)?.apply(Swizzle::new(1, 2, 1)?.apply(x)?)?;
    ///     assert_eq!(c.apply(x as u64)?, want as u64);
    /// }
    /// assert_eq!(c.as_swizzle(), None);
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn compose(&self, inner: &BitMap) -> Result<BitMap> {
        let mut cols = inner.cols.iter().map(|&c| self.apply(c)).collect::<Result<Vec<_>>>()?;
        if inner.xor && self.xor {
            // Both the identity past their columns: the composition covers the wider one.
            for j in inner.cols.len()..self.cols.len() {
                cols.push(self.cols[j]);
            }
        }
        Ok(BitMap { cols, xor: inner.xor && self.xor })
    }

    /// The inverse of an XOR map that is a bijection of its bits.
    ///
    /// # Errors
    /// `InvalidArgument` for a map that is not an XOR map, or one that is not a bijection (two
    /// offsets it sends to one, named).
    pub fn inverse(&self) -> Result<BitMap> {
        let n = self.out_bits() as usize;
        if !self.xor {
            return Err(Error::InvalidArgument {
                op: "linear_inverse",
                reason: "a layout's map goes from its index to an offset: invert an XOR map (a swizzle's)".into(),
            });
        }
        // Gauss-Jordan on [M | I], over the columns' bits.
        let col = |j: usize| self.cols.get(j).copied().unwrap_or(1 << j);
        let mut rows: Vec<(u64, u64)> = (0..n).map(|j| (col(j), 1u64 << j)).collect();
        let mut inv = alloc::vec![0u64; n];
        for bit in 0..n {
            let Some(p) = (bit..n).find(|&r| rows[r].0 >> bit & 1 == 1) else {
                return Err(Error::InvalidArgument {
                    op: "linear_inverse",
                    reason: format!("{self} is not a bijection: no input reaches offset bit {bit} alone"),
                });
            };
            rows.swap(bit, p);
            for r in 0..n {
                if r != bit && rows[r].0 >> bit & 1 == 1 {
                    rows[r] = (rows[r].0 ^ rows[bit].0, rows[r].1 ^ rows[bit].1);
                }
            }
        }
        // Row `bit` now maps input combination rows[bit].1 to output bit `bit`.
        for (bit, &(_, combo)) in rows.iter().enumerate() {
            inv[bit] = combo;
        }
        Ok(BitMap { cols: inv, xor: true })
    }

    /// Every column one offset bit or none, no two the same: the map of a layout.
    fn is_layout_like(&self) -> bool {
        self.cols.iter().all(|&c| c == 0 || single_bit(c).is_some())
            && self.cols.iter().enumerate().all(|(i, &c)| c == 0 || !self.cols[..i].contains(&c))
    }

    /// The layout of a map whose columns are single bits or none: `(2,2,...):(c0,c1,...)`,
    /// coalesced.
    fn layout(&self) -> Result<Layout> {
        let pairs: Vec<(Int, Int)> = self.cols.iter().map(|&c| (Int::st(2), Int::st(c as i64))).collect();
        if pairs.is_empty() {
            return Ok(Layout::trivial());
        }
        coalesce(&Layout::from_pairs(&pairs))
    }

    /// The `Sw<B,M,S>` this XOR map is on its bits (`Sw<0,0,0>`, the identity, for the
    /// identity), read off the columns: the bits a swizzle moves form one range `[lo, lo + B)`,
    /// each adding the one bit `S` below it (above it for a negative `S`).
    pub fn as_swizzle(&self) -> Option<Swizzle> {
        if !self.xor {
            return None;
        }
        let moved: Vec<(u32, u64)> = (0..self.cols.len() as u32)
            .filter_map(|j| Some((j, self.cols[j as usize] ^ (1 << j))).filter(|x| x.1 != 0))
            .collect();
        let Some(&(lo, d)) = moved.first() else {
            return Swizzle::new(0, 0, 0).ok();
        };
        let shift = i64::from(lo) - i64::from(single_bit(d)?);
        let b = moved.len() as i64;
        let base = if shift > 0 { i64::from(lo) - shift } else { i64::from(lo) };
        let sw = Swizzle::new(b, base, shift).ok()?;
        let n = self.out_bits();
        BitMap::from_swizzle(&sw, n).ok().filter(|m| m.same_map(self, n)).map(|_| sw)
    }

    /// The swizzles this XOR map is: one (`[Sw]`), or the composition of two (`[Sw1, Sw2]`,
    /// `Sw1 o Sw2`, the smallest `Sw1` first), or `None`.
    pub fn as_swizzles(&self) -> Option<Vec<Swizzle>> {
        if let Some(sw) = self.as_swizzle() {
            return Some(alloc::vec![sw]);
        }
        if !self.xor {
            return None;
        }
        // Sw1 is its own inverse: self = Sw1 o Sw2 where Sw2 = Sw1 o self.
        let n = self.out_bits();
        swizzles(n).skip(1).find_map(|sw1| {
            let sw2 = BitMap::from_swizzle(&sw1, n).ok()?.compose(self).ok()?.as_swizzle()?;
            Some(alloc::vec![sw1, sw2])
        })
    }

    /// The two XOR maps agree on bits `0 .. n`.
    fn same_map(&self, other: &BitMap, n: u32) -> bool {
        (0..n).all(|j| self.apply(1 << j).ok() == other.apply(1 << j).ok())
    }

    /// The simplest CuTe form of the map. A layout's map: a layout; else `Sw<B,M,S> o 0 o L`
    /// for the smallest swizzle that leaves a layout; else an XOR map over a layout. An XOR map
    /// of offsets: one swizzle, else two composed (`Sw1 o 0 o Sw2`), else the XOR map.
    ///
    /// # Errors
    /// `InvalidArgument` for a layout's map whose non-zero columns are dependent (two index
    /// sets sent to one offset: no XOR map over a layout is it).
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::{linear::BitMap, ComposedLayout, Swizzle};
    /// // GMMA's K-major 128-byte atom of bytes, Sw<3,4,3> o 0 o (8,128):(128,1), back from bits.
    /// let c = ComposedLayout::new(Swizzle::new(3, 4, 3)?, 0, "(8,128):(128,1)".parse()?);
    /// let m = BitMap::from_composed(&c)?;
    /// assert_eq!(m.to_cute()?.to_string(), "Sw<3,4,3> o 0 o (8,128):(128,1)");
    /// // Over halves' offsets (below 512) only two of its bits move: Sw<2,4,3> is the same map.
    /// let c = ComposedLayout::new(Swizzle::new(3, 4, 3)?, 0, "(8,64):(64,1)".parse()?);
    /// assert_eq!(BitMap::from_composed(&c)?.to_cute()?.to_string(), "Sw<2,4,3> o 0 o (8,64):(64,1)");
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn to_cute(&self) -> Result<CuteForm> {
        if self.xor {
            return Ok(match self.as_swizzles().as_deref() {
                Some([sw]) => CuteForm::Swizzle(*sw),
                Some([a, b]) => CuteForm::Swizzles(ComposedLayout::of(Func::Swizzle(*a), 0, Func::Swizzle(*b))),
                _ => CuteForm::XorMap(self.clone()),
            });
        }
        if self.is_layout_like() {
            return Ok(CuteForm::Layout(self.layout()?));
        }
        let n = self.out_bits();
        for sw in swizzles(n) {
            // A swizzle is its own inverse: self = Sw o L where L = Sw o self.
            let l = BitMap::from_swizzle(&sw, n)?.compose(self)?;
            if l.is_layout_like() {
                return Ok(CuteForm::Swizzled(ComposedLayout::new(sw, 0, l.layout()?)));
            }
        }
        // self = X o P: P sends index bit j to a pivot bit of its column (eliminated against
        // the ones before), X sends that pivot to the column and is the identity elsewhere.
        let mut reduced: Vec<(u64, u32)> = Vec::new();
        let mut pivots = Vec::with_capacity(self.cols.len());
        for (j, &c) in self.cols.iter().enumerate() {
            if c == 0 {
                pivots.push(None);
                continue;
            }
            let mut r = c;
            for &(v, p) in &reduced {
                if r >> p & 1 == 1 {
                    r ^= v;
                }
            }
            if r == 0 {
                return Err(Error::InvalidArgument {
                    op: "to_cute",
                    reason: format!(
                        "index bit {j}'s offset {c} is a sum of the lower bits' offsets: {self} is not injective"
                    ),
                });
            }
            // The highest bit: a swizzle adds lower bits to higher ones, so the layout keeps the
            // offsets the index had (`(8,8):(8,1)` under an XOR map stays `(8,8):(8,1)`).
            let p = 63 - r.leading_zeros();
            reduced.push((r, p));
            pivots.push(Some(p));
        }
        let mut x = BitMap::identity(n);
        let mut p_cols = Vec::with_capacity(self.cols.len());
        for (j, pivot) in pivots.iter().enumerate() {
            match pivot {
                Some(p) => {
                    x.cols[*p as usize] = self.cols[j];
                    p_cols.push(1u64 << p);
                }
                None => p_cols.push(0),
            }
        }
        let p = BitMap { cols: p_cols, xor: false };
        debug_assert!(x.compose(&p).is_ok_and(|m| m.cols == self.cols));
        Ok(CuteForm::Xor(x, p.layout()?))
    }
}

/// The swizzles of at most `n` bits, smallest `B` first, then `M`, then `|S|` (positive `S`
/// first): `Sw<0,0,0>` (the identity), then every `Sw<B,M,S>` with `B >= 1`, `|S| >= B`.
fn swizzles(n: u32) -> impl Iterator<Item = Swizzle> {
    let n = i64::from(n);
    core::iter::once((0, 0, 0))
        .chain((1..=n).flat_map(move |b| (0..=n).flat_map(move |m| (b..=n).flat_map(move |s| [(b, m, s), (b, m, -s)]))))
        .filter(move |&(b, m, s)| m + b + s.abs() <= n)
        .filter_map(|(b, m, s)| Swizzle::new(b, m, s).ok())
}

/// The XOR map `S` with `S o input = output`, both maps of one index: the smallest
/// `Sw<B,M,S>` that is one where any is, else a general XOR map (the identity off the span of
/// `input`'s offsets, a bijection where one exists).
///
/// # Errors
/// `InvalidArgument` where the index domains differ, or no map exists: a set of index bits
/// `input` sends to offsets that cancel (the same offset) while `output` does not, named.
///
/// # Examples
/// ```
/// use cute_dyn::{linear::{find_swizzle, BitMap}, ComposedLayout, Swizzle};
/// // CUTLASS issue 1038: which swizzle makes (8,8):(8,1) into the 128-byte-swizzled tile?
/// let input = BitMap::from_layout(&"(8,8):(8,1)".parse()?)?;
/// let output = BitMap::from_composed(&ComposedLayout::new(Swizzle::new(3, 0, 3)?, 0, "(8,8):(8,1)".parse()?))?;
/// assert_eq!(find_swizzle(&input, &output)?.as_swizzle(), Some(Swizzle::new(3, 0, 3)?));
/// # Ok::<(), cute_dyn::Error>(())
/// ```
pub fn find_swizzle(input: &BitMap, output: &BitMap) -> Result<BitMap> {
    const OP: &str = "find_swizzle";
    if input.cols.len() != output.cols.len() {
        return Err(Error::InvalidArgument {
            op: OP,
            reason: format!(
                "the maps take {} and {} index bits: one index for both",
                input.cols.len(),
                output.cols.len()
            ),
        });
    }
    let n = input.out_bits().max(output.out_bits());
    for sw in swizzles(n) {
        let s = BitMap::from_swizzle(&sw, n)?;
        if s.compose(input)?.cols == output.cols {
            return Ok(s);
        }
    }
    // S on the span of input's columns: each eliminated column (in, out) keeps S(in) = out,
    // fully reduced so that every pivot bit appears in one basis vector only.
    let mut basis: Vec<(u64, u64, u32)> = Vec::new();
    for (j, (&i, &o)) in input.cols.iter().zip(&output.cols).enumerate() {
        let (mut a, mut b) = (i, o);
        for &(v, w, p) in &basis {
            if a >> p & 1 == 1 {
                a ^= v;
                b ^= w;
            }
        }
        if a == 0 {
            if b != 0 {
                return Err(Error::InvalidArgument {
                    op: OP,
                    reason: format!(
                        "index bit {j}: input sends it where the lower bits' offsets cancel it (offset {i}), output to {o}: no S has S o input = output"
                    ),
                });
            }
            continue;
        }
        let p = a.trailing_zeros();
        for e in basis.iter_mut() {
            if e.0 >> p & 1 == 1 {
                e.0 ^= a;
                e.1 ^= b;
            }
        }
        basis.push((a, b, p));
    }
    // e_p = v ^ (v's other bits, none of them a pivot): S(e_p) = S(v) ^ those bits.
    let mut s = BitMap::identity(n);
    for &(v, w, p) in &basis {
        s.cols[p as usize] = w ^ (v & !(1 << p));
    }
    if s.compose(input)?.cols != output.cols {
        return Err(Error::InvalidArgument { op: OP, reason: "no XOR map sends input to output".into() });
    }
    Ok(s)
}

impl core::fmt::Display for BitMap {
    /// An XOR map that is a swizzle as `Sw<B,M,S>`, any other as `xor[c0,c1,...]` (the image of
    /// each offset bit); a layout's map as `bits[c0,c1,...]` (the image of each index bit).
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        if let Some(sw) = self.as_swizzle() {
            return write!(f, "{sw}");
        }
        let cols: Vec<String> = self.cols.iter().map(|c| format!("{c}")).collect();
        write!(f, "{}[{}]", if self.xor { "xor" } else { "bits" }, cols.join(","))
    }
}

/// A swizzle that makes reading a tile's rows and columns free of bank conflicts, and what the
/// reads cost before and after ([`conflict_free_swizzle`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct ConflictFree {
    /// The smallest `Sw<B,M,S>` found (`Sw<0,0,0>` where the tile is already conflict-free).
    pub swizzle: Swizzle,
    /// Reading the rows, then the columns, of the tile.
    pub before: [crate::render::BankConflicts; 2],
    /// The same of `swizzle o tile`.
    pub after: [crate::render::BankConflicts; 2],
}

/// The smallest swizzle (smallest `B`, then `M`, then `|S|`) of the offset bits a rank-2 tile
/// of `elem_bits`-bit elements reaches that makes 32-thread warps reading its rows and its
/// columns free of bank conflicts ([`crate::render::bank_conflicts`]'s model). Permuting
/// offsets within the tile's bits, a swizzle keeps its footprint.
///
/// # Errors
/// `InvalidArgument` for a tile that is not rank 2 or not a map over bits, or where no swizzle
/// of its bits is conflict-free (with the tile's costs).
///
/// # Examples
/// ```
/// use cute_dyn::{linear::conflict_free_swizzle, Swizzle};
/// // A 32x32 row-major tile of floats (a transpose's): its columns are 32-way conflicts;
/// // Sw<5,0,5> (column c ^ row r) makes both reads conflict-free.
/// let f = conflict_free_swizzle(&"(32,32):(32,1)".parse()?, 32)?;
/// assert_eq!(f.swizzle, Swizzle::new(5, 0, 5)?);
/// assert_eq!((f.before[1].worst, f.after[0].extra, f.after[1].extra), (32, 0, 0));
/// # Ok::<(), cute_dyn::Error>(())
/// ```
pub fn conflict_free_swizzle(tile: &Layout, elem_bits: u32) -> Result<ConflictFree> {
    const OP: &str = "conflict_free_swizzle";
    if tile.rank() != 2 {
        return Err(Error::RankMismatch { op: OP, expected: "rank 2 (rows, columns)".into(), found: tile.rank() });
    }
    let bits = BitMap::from_layout(tile)?;
    let (m, n) = (tile.get(0)?.size()?.value(), tile.get(1)?.size()?.value());
    let coords: Vec<i64> = (0..m).flat_map(|i| (0..n).map(move |j| i + m * j)).collect();
    let offsets: Vec<i64> = coords.iter().map(|&i| tile.call(i)).collect::<Result<_>>()?;
    let cost =
        |offsets: &[i64]| [true, false].map(|rows| crate::render::bank_conflicts(m, n, offsets, elem_bits, rows));
    let before = cost(&offsets);
    for sw in swizzles(bits.out_bits()) {
        let moved: Vec<i64> = offsets.iter().map(|&o| sw.apply(o)).collect::<Result<_>>()?;
        let after = cost(&moved);
        if after.iter().all(|c| c.extra == 0) {
            return Ok(ConflictFree { swizzle: sw, before, after });
        }
    }
    Err(Error::InvalidArgument {
        op: OP,
        reason: format!(
            "no swizzle of {tile}'s {} offset bits makes reading its rows and columns conflict-free (now {} and {} extra wavefronts)",
            bits.out_bits(),
            before[0].extra,
            before[1].extra
        ),
    })
}
