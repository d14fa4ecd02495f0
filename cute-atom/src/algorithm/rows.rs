//! The accumulators as rows (FlashAttention-3's `convert_layout_acc_rowcol`): which of a
//! thread's accumulators share a row of the atom's `M x N` tile, and which lanes hold the same
//! rows, both read off the atom's C layout by the compiler (no lane arithmetic written by
//! hand). A softmax reduces a row over a thread's values, then across those lanes.

use core::marker::PhantomData;

use cute_static::gmma::ModeSizes;
use cute_static::product::{leaf_call, ConstLeaves, Leaves};

use crate::arch::warp::shfl_xor_f32;
use crate::arch::wgmma::Accumulators;
use crate::atom::mma::MmaCall;
use crate::check::{fail, Piece::*};

/// The most accumulators a thread holds ([`AccRows::ROW_OF`]'s length).
pub const MAX_VALUES: usize = 128;

/// The rows of atom `C`'s accumulators. Zero-sized; its constants are the compiler's.
///
/// # Examples
/// ```
/// use cute_atom::algorithm::AccRows;
/// use cute_static::mma::SM90_64x128x16_F32F16F16_SS;
/// // The PTX ISA's wgmma D fragment: a thread holds rows r and r + 8 (values alternate in
/// // pairs), shared by the 4 lanes of its quad (lane offsets 1 and 2).
/// type Rows = AccRows<SM90_64x128x16_F32F16F16_SS>;
/// assert_eq!((Rows::ROW_OF.1, &Rows::ROW_OF.0[..8]), (2, &[0, 0, 1, 1, 0, 0, 1, 1][..]));
/// assert_eq!(&Rows::LANE_XORS.0[..Rows::LANE_XORS.1], &[1, 2]);
/// ```
pub struct AccRows<C>(PhantomData<C>);

impl<C: MmaCall> AccRows<C>
where
    C::CLayout: ConstLeaves + ModeSizes,
{
    const LEAVES: Leaves = <C::CLayout as ConstLeaves>::LEAVES;
    const THREADS: usize = <C::CLayout as ModeSizes>::SIZES[0];
    const VALUES: usize = <C::CLayout as ModeSizes>::SIZES[1];

    /// The row, in the atom's tile, of value `v` of thread `t` (the C layout's column-major
    /// index, modulo `M`).
    const fn row(t: usize, v: usize) -> usize {
        leaf_call(&Self::LEAVES, t + Self::THREADS * v) % C::SHAPE_MNK[0]
    }

    /// `ROW_OF[v]`, the thread-local row of value `v` (rows numbered in the order a thread
    /// first holds them), and the number of rows a thread holds. Checked for every thread of a
    /// warp: values of one local row share a tile row, values of two do not, and the pairs
    /// `(v, v + 1)` a packed store or a reduction takes together share one.
    pub const ROW_OF: ([usize; MAX_VALUES], usize) = {
        let mut of = [0; MAX_VALUES];
        let mut first = [0usize; MAX_VALUES];
        let mut rows = 0;
        if Self::VALUES > MAX_VALUES {
            fail(&[
                S("AccRows: "),
                S(C::NAME),
                S(" holds "),
                N(Self::VALUES),
                S(" accumulators a thread; at most "),
                N(MAX_VALUES),
            ]);
        }
        let mut v = 0;
        while v < Self::VALUES {
            let mut r = 0;
            while r < rows && Self::row(0, first[r]) != Self::row(0, v) {
                r += 1;
            }
            if r == rows {
                first[rows] = v;
                rows += 1;
            }
            of[v] = r;
            v += 1;
        }
        let mut t = 0;
        while t < 32 && t < Self::THREADS {
            let mut v = 0;
            while v < Self::VALUES {
                if Self::row(t, v) != Self::row(t, first[of[v]]) || (v % 2 == 1 && of[v] != of[v - 1]) {
                    fail(&[
                        S("AccRows: "),
                        S(C::NAME),
                        S("'s value "),
                        N(v),
                        S(" of thread "),
                        N(t),
                        S(" does not lie in the row its local row holds elsewhere"),
                    ]);
                }
                let mut r = 0;
                while r < rows {
                    if r != of[v] && Self::row(t, first[r]) == Self::row(t, v) {
                        fail(&[
                            S("AccRows: "),
                            S(C::NAME),
                            S(": two local rows of thread "),
                            N(t),
                            S(" are one tile row"),
                        ]);
                    }
                    r += 1;
                }
                v += 1;
            }
            t += 1;
        }
        (of, rows)
    };

    /// The lane XOR offsets of the lanes that hold the same rows as this one: a butterfly over
    /// them combines a row's partial results. Checked complete: the lanes of a warp that hold
    /// lane 0's first row are exactly the combinations of these offsets.
    pub const LANE_XORS: ([u32; 5], usize) = {
        let mut xors = [0u32; 5];
        let mut n = 0;
        let mut b = 0;
        while b < 5 && (1 << b) < Self::THREADS {
            let x = 1usize << b;
            let mut same = true;
            let mut v = 0;
            while v < Self::VALUES {
                if Self::row(x, v) != Self::row(0, v) {
                    same = false;
                }
                v += 1;
            }
            if same {
                xors[n] = x as u32;
                n += 1;
            }
            b += 1;
        }
        let (mut holders, mut t) = (0, 0);
        while t < 32 && t < Self::THREADS {
            if Self::row(t, 0) == Self::row(0, 0) {
                holders += 1;
            }
            t += 1;
        }
        if holders != 1 << n {
            fail(&[
                S("AccRows: "),
                S(C::NAME),
                S(": "),
                N(holders),
                S(" lanes hold a row, not the "),
                N(1 << n),
                S(" a butterfly over lane bits reaches"),
            ]);
        }
        (xors, n)
    };

    /// The row-wise reduction of the accumulators by `op` (max, sum), one result a local row:
    /// over the thread's values ([`reduce_thread`](Self::reduce_thread)), then across the lanes
    /// holding the same rows ([`reduce_lanes`](Self::reduce_lanes)).
    ///
    /// # Safety
    /// Every lane of the warp calls it, together.
    #[inline(always)]
    pub unsafe fn reduce<const R: usize>(acc: &C::Acc, init: f32, op: impl Fn(f32, f32) -> f32) -> [f32; R] {
        // SAFETY: the caller's promise.
        unsafe { Self::reduce_lanes(Self::reduce_thread(acc, init, &op), &op) }
    }

    /// The row-wise reduction of this thread's accumulators alone (CuTe's `thread_reduce`):
    /// a partial result a local row, which [`reduce_lanes`](Self::reduce_lanes) completes. A
    /// softmax's running row sums stay partial until the end (FlashAttention-3 reduces them
    /// across lanes once, not every key block).
    ///
    /// # Examples
    /// ```
    /// use cute_atom::algorithm::AccRows;
    /// use cute_atom::arch::wgmma::Accumulators;
    /// use cute_atom::atom::MmaCall;
    /// use cute_static::mma::SM90_64x128x16_F32F16F16_SS as C;
    /// // The PTX ISA's D fragment: values 4k, 4k+1 are in row r, 4k+2, 4k+3 in row r + 8.
    /// let mut acc = C::zeros();
    /// acc.for_each_mut(|v, x| *x = v as f32);
    /// let rows = AccRows::<C>::reduce_thread::<2>(&acc, 0.0, |a, b| a + b);
    /// assert_eq!(rows, [(0..16).map(|k| 8.0 * k as f32 + 1.0).sum(), (0..16).map(|k| 8.0 * k as f32 + 5.0).sum()]);
    /// ```
    #[inline(always)]
    pub fn reduce_thread<const R: usize>(acc: &C::Acc, init: f32, op: impl Fn(f32, f32) -> f32) -> [f32; R] {
        let () = Rows::<C, R>::CHECKED;
        let mut out = [init; R];
        acc.for_each_pair(|v, lo, hi| {
            let r = Self::ROW_OF.0[v];
            out[r] = op(op(out[r], lo), hi);
        });
        out
    }

    /// Per-row partial results combined across the lanes that hold the same rows (a butterfly
    /// of `shfl.sync.bfly` over [`LANE_XORS`](Self::LANE_XORS), CuTe's quad all-reduce): every
    /// lane gets its rows' whole results.
    ///
    /// # Safety
    /// Every lane of the warp calls it, together.
    #[inline(always)]
    pub unsafe fn reduce_lanes<const R: usize>(mut part: [f32; R], op: impl Fn(f32, f32) -> f32) -> [f32; R] {
        let () = Rows::<C, R>::CHECKED;
        let (xors, n) = Self::LANE_XORS;
        for &x in &xors[..n] {
            for o in part.iter_mut() {
                // SAFETY: the caller's promise: the whole warp.
                *o = op(*o, unsafe { shfl_xor_f32(*o, x) });
            }
        }
        part
    }

    /// Each accumulator times its local row's factor (a softmax's rescale).
    #[inline(always)]
    pub fn scale<const R: usize>(acc: &mut C::Acc, factor: &[f32; R]) {
        let () = Rows::<C, R>::CHECKED;
        acc.for_each_mut(|v, x| *x *= factor[Self::ROW_OF.0[v]]);
    }
}

/// `R` is the number of rows a thread of `C` holds.
struct Rows<C, const R: usize>(PhantomData<C>);
impl<C: MmaCall, const R: usize> Rows<C, R>
where
    C::CLayout: ConstLeaves + ModeSizes,
{
    const CHECKED: () = {
        let rows = AccRows::<C>::ROW_OF.1;
        if rows != R {
            fail(&[S("AccRows: a thread of "), S(C::NAME), S(" holds "), N(rows), S(" rows, not "), N(R)]);
        }
    };
}
