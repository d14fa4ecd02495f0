//! A layout's flat modes (cute-static's `modes` at run time): its `(shape, stride)` leaf pairs
//! in order, and the nesting as a code of tokens (`(`, leaf, `)`), both kept inline up to a
//! capacity.
//!
//! `(2,(1,6)):(1,(6,2))` is the pairs `[(2,1), (1,6), (6,2)]` and the code `( L ( L L ) )`; a
//! leaf layout is the code `L`. The algorithms read the pairs directly and walk the nesting
//! through [`Nest`] views (no tree is built); results are written in place (see [`Layout::empty`]).

use crate::error::Result;
use crate::int::Int;
use crate::small::Small;

/// A `(shape, stride)` leaf.
pub(crate) type Pair = (Int, Int);

/// Leaves kept inline (past it, the heap): the layouts of kernels (issue #12: "say up to 16
/// leaves"). Measured: 8 would be 5-10% faster on `benches/algebra.rs` (smaller copies).
pub(crate) const INLINE_LEAVES: usize = 16;
/// Nesting tokens kept inline: 16 leaves in up to 12 tuples.
pub(crate) const INLINE_CODE: usize = 40;

pub(crate) type Pairs = Small<Pair, INLINE_LEAVES>;
pub(crate) type Code = Small<u8, INLINE_CODE>;

/// The compact strides of flat modes, written over their strides: from `current`, each mode
/// takes the product of the shapes before it (`left`, column-major) or after it (row-major); a
/// static size-1 mode gets `_0` and adds nothing (as in C++).
///
/// # Errors
/// `Overflow`.
pub(crate) fn compact_strides(pairs: &mut [Pair], current: Int, left: bool) -> Result<()> {
    let mut cur = current;
    let mut one = |(s, d): &mut Pair| -> Result<()> {
        if s.is_const(1) {
            *d = Int::st(0);
        } else {
            *d = cur;
            cur = cur.checked_mul(*s)?;
        }
        Ok(())
    };
    if left {
        pairs.iter_mut().try_for_each(&mut one)
    } else {
        pairs.iter_mut().rev().try_for_each(&mut one)
    }
}

pub(crate) const LEAF: u8 = 0;
pub(crate) const OPEN: u8 = 1;
pub(crate) const CLOSE: u8 = 2;

/// A borrowed (sub-)layout: one mode's code and its pairs.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Nest<'a> {
    pub(crate) code: &'a [u8],
    pub(crate) pairs: &'a [Pair],
}

impl<'a> Nest<'a> {
    /// The leaf pair, if this is a leaf.
    pub(crate) fn leaf(self) -> Option<Pair> {
        (self.code == [LEAF]).then(|| self.pairs[0])
    }

    /// The top-level modes: a leaf is its own single mode (CuTe's `wrap`).
    pub(crate) fn modes(self) -> Modes<'a> {
        match self.code {
            [LEAF] => Modes { code: self.code, pairs: self.pairs },
            // Inside the outer parentheses.
            c => Modes { code: &c[1..c.len() - 1], pairs: self.pairs },
        }
    }

    pub(crate) fn rank(self) -> usize {
        match self.code {
            [LEAF] => 1,
            // The tokens at depth 1 that start a mode (a leaf or an opening).
            c => {
                let mut depth = 0usize;
                c[1..c.len() - 1].iter().fold(0, |rank, &t| {
                    let starts = depth == 0 && t != CLOSE;
                    match t {
                        OPEN => depth += 1,
                        CLOSE => depth -= 1,
                        _ => {}
                    }
                    rank + usize::from(starts)
                })
            }
        }
    }

    /// Whether every leaf is static.
    pub(crate) fn is_static(self) -> bool {
        self.pairs.iter().all(|(s, d)| s.is_static() && d.is_static())
    }
}

/// The modes of a [`Nest`], in order.
#[derive(Clone)]
pub(crate) struct Modes<'a> {
    code: &'a [u8],
    pairs: &'a [Pair],
}

impl<'a> Iterator for Modes<'a> {
    type Item = Nest<'a>;

    fn next(&mut self) -> Option<Nest<'a>> {
        let (mut depth, mut leaves, mut end) = (0usize, 0usize, 0usize);
        for &t in self.code {
            end += 1;
            match t {
                LEAF => leaves += 1,
                OPEN => depth += 1,
                _ => depth -= 1,
            }
            if depth == 0 {
                break;
            }
        }
        if end == 0 {
            return None;
        }
        let (code, pairs) = (&self.code[..end], &self.pairs[..leaves]);
        (self.code, self.pairs) = (&self.code[end..], &self.pairs[leaves..]);
        Some(Nest { code, pairs })
    }
}

/// `filter_zeros` of one mode: a static-0 stride gets the shape `_1` (a mode that reaches only
/// index 0 counts as size 1), as `filter` and `make_layout_like` read modes.
pub(crate) fn zero_stride_as_one((s, d): Pair) -> Pair {
    if d.is_const(0) {
        (Int::st(1), d)
    } else {
        (s, d)
    }
}
