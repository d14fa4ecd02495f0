//! Masking a tile of accumulators by their coordinates: FlashAttention's causal and
//! sequence-length masks. A value's coordinate in the score tile is the atom's C layout at
//! (thread, value), `MmaCall::c_coord` (CuTe partitions the score tile's identity tensor as
//! the accumulators; the C layout is that partition), plus the tile's origin.

use crate::arch::wgmma::Accumulators;
use crate::atom::mma::MmaCall;

/// Sets to `-inf` each accumulator of thread `t` whose score-tile coordinate, the atom tile at
/// `(row0, col0)`, lies past the key length (`col >= keys`) or, when `causal`, past the
/// diagonal shifted by `diagonal` (`col > row + diagonal`; `diagonal = keys - queries` aligns
/// the last query with the last key, as FlashAttention's bottom-right causal mask). A row left
/// with no value is all `-inf`: the softmax must treat its maximum as 0.
///
/// # Examples
/// ```
/// use cute_atom::algorithm::mask;
/// use cute_atom::atom::MmaCall;
/// use cute_static::mma::SM90_64x64x16_F32F16F16_SS as C;
/// // The diagonal tile of a causal attention (queries = keys): thread 0 holds rows 0 and 8,
/// // columns 0, 1, 8, 9, ...: of its first four values (row 0: cols 0, 1; row 8: cols 0, 1)
/// // only (0, 1) is past the diagonal.
/// let mut acc = C::zeros();
/// mask::<C>(&mut acc, 0, (0, 0), 64, Some(0));
/// assert_eq!(acc[..4], [0.0, f32::NEG_INFINITY, 0.0, 0.0]);
/// ```
#[inline(always)]
pub fn mask<C: MmaCall>(acc: &mut C::Acc, t: usize, (row0, col0): (usize, usize), keys: usize, causal: Option<isize>) {
    let (r0, c0) = C::c_coord(t, 0);
    let (causal, diagonal) = match causal {
        Some(d) => (true, d),
        None => (false, 0),
    };
    acc.for_each_mut(|v, x| {
        let (dr, dc) = C::c_coord(0, v);
        let (row, col) = (row0 + r0 + dr, col0 + c0 + dc);
        // Non-short-circuit `|` and `&`, and a select: no branch a value (a select each).
        let masked = (col >= keys) | (causal & (col as isize > row as isize + diagonal));
        *x = if masked { f32::NEG_INFINITY } else { *x };
    });
}
