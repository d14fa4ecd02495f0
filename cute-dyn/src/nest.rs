//! The flat form of a layout: its `(shape, stride)` leaf pairs in order, and the nesting as a
//! code of tokens (`(`, leaf, `)`), both kept inline up to a capacity.
//!
//! `(2,(1,6)):(1,(6,2))` is the pairs `[(2,1), (1,6), (6,2)]` and the code `( L ( L L ) )`; a
//! leaf layout is the code `L`. The algorithms read the pairs directly and walk the nesting
//! through [`Nest`] views (no tree is built); results are written in place (see [`Layout::empty`]).

use crate::int::Int;
use crate::layout::Layout;
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
        self.modes().count()
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

/// Layouts are written in place, token by token (leaves, whole sub-layouts, and parentheses
/// around modes), starting from [`Layout::empty`]: finishing one moves nothing (a copy right
/// after many small writes stalls on store forwarding).
impl Layout {
    /// Nothing written yet (not a layout until one mode is).
    pub(crate) fn empty() -> Layout {
        Layout { code: Code::new(), pairs: Pairs::new() }
    }

    /// Write the code of the flat pairs written so far: one pair is a leaf, more a tuple.
    pub(crate) fn close_flat(&mut self) {
        debug_assert!(self.code.is_empty());
        self.flat_code(self.pairs.len());
    }

    /// The code of `n` flat leaves: one is a leaf, none or more a tuple of them.
    fn flat_code(&mut self, n: usize) {
        if n == 1 {
            self.code.push(LEAF);
        } else {
            self.code.push(OPEN);
            (0..n).for_each(|_| self.code.push(LEAF));
            self.code.push(CLOSE);
        }
    }

    /// Where the writing stands, to [`Layout::rewind`] to.
    pub(crate) fn mark(&self) -> (usize, usize) {
        (self.code.len(), self.pairs.len())
    }

    /// Drop what was written after `mark`.
    pub(crate) fn rewind(&mut self, (code, pairs): (usize, usize)) {
        self.code.truncate(code);
        self.pairs.truncate(pairs);
    }

    pub(crate) fn open(&mut self) -> &mut Layout {
        self.code.push(OPEN);
        self
    }

    pub(crate) fn close(&mut self) -> &mut Layout {
        self.code.push(CLOSE);
        self
    }

    pub(crate) fn put_leaf(&mut self, p: Pair) -> &mut Layout {
        self.code.push(LEAF);
        self.pairs.push(p);
        self
    }

    /// A mode of flat pairs: one pair is a leaf, otherwise a tuple of them.
    pub(crate) fn put_pairs(&mut self, pairs: &[Pair]) -> &mut Layout {
        self.pairs.extend_from_slice(pairs);
        self.flat_code(pairs.len());
        self
    }

    pub(crate) fn put(&mut self, n: Nest<'_>) -> &mut Layout {
        self.code.extend_from_slice(n.code);
        self.pairs.extend_from_slice(n.pairs);
        self
    }
}
