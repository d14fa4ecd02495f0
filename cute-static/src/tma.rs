//! Hopper's TMA, from layouts.
//!
//! - On the host (feature `dyn`): the parameters `cuTensorMapEncodeTiled` takes for a load of a
//!   static shared tile (a `tile_to_shape` of a [`gmma`](crate::gmma) atom, or any static layout)
//!   from a global tensor of run-time extents. A tensor map is built on the host before the
//!   launch, so this is cute-dyn's derivation (`cute_dyn::tma`, checked against CuTe C++ 4.2)
//!   over the two layouts, converted.
//! - In the kernel ([`TmaBox`], no `dyn`): the box one TMA copy writes into a static shared tile
//!   and its bytes (what the stage's mbarrier expects), computed by the compiler, with the
//!   conditions a single box puts on the tile as compile errors that name their numbers.

use crate::gmma::{ElementBits, TileParts};
use crate::int_tuple::{Cons, Nil};
use crate::layout::Layout;
#[cfg(feature = "dyn")]
use crate::layout::{Congruent, LayoutFn};
use crate::product::{ConstMessage, ConstTuple, MAX_LEAVES};
#[cfg(feature = "dyn")]
use crate::swizzle::ComposedLayout;
#[cfg(feature = "dyn")]
use crate::swizzle::Swizzle;

/// The box one TMA copy (`cp.async.bulk.tensor.2d`) writes into a static rank-2 shared tile of
/// `Bits`-bit elements, `(rows, columns)` with the columns contiguous in the global tensor
/// (K-major), computed by the compiler: `BOX` is `boxDim` (columns first, as the tensor map
/// takes it), `BYTES` the bytes the copy completes on its mbarrier (`arrive.expect_tx`).
///
/// The tile is a layout, or `Sw<B,M,S> o 0 o layout` (a `tile_to_shape` of a GMMA atom). One box
/// writes it when, as CUDA's `cuTensorMapEncodeTiled` and the copy require:
/// - the layout (without its swizzle) is the row-major `(rows, columns):(columns, 1)`: the box
///   lands row after row;
/// - the swizzle is one TMA has: `Sw<B,4,3>` on bytes, `B` in 1..=3 (32, 64, 128 bytes), and a
///   box row is no wider than its span;
/// - a box row is a multiple of 16 bytes, and each box extent at most 256.
///
/// A tile that breaks one is a compile error where the constant is used, naming the condition
/// and its numbers (`ui-tests/tma/`). CuTe C++ instead splits such a tile into several boxes.
///
/// # Examples
/// ```
/// use cute_static::gmma::{LayoutAtom, K, Sw128};
/// use cute_static::tma::TmaBox;
/// use cute_static::typenum::U16;
/// use cute_static::{shape, tile_to_shape};
/// // CuTe C++ 4.2 (tests/data/tma): a 128x64 half tile of Layout_K_SW128_Atom is a 64x128 box
/// // (128-byte swizzle): 16 KiB a copy.
/// fn box_of<T: TmaBox<U16>>(_: &T) -> ([u32; 2], u32) {
///     (T::BOX, T::BYTES)
/// }
/// let tile = tile_to_shape(LayoutAtom::<K, Sw128, U16>::default(), shape!((128, 64)));
/// assert_eq!(box_of(&tile), ([64, 128], 16384));
/// ```
pub trait TmaBox<Bits> {
    /// `boxDim`, innermost (the columns) first.
    const BOX: [u32; 2];
    /// The box's bytes.
    const BYTES: u32;
}
impl<T, Bits> TmaBox<Bits> for T
where
    T: TileParts,
    T::Layout: Rank2Leaves,
    Bits: ElementBits,
{
    const BOX: [u32; 2] = {
        let (rows, cols) = tma_box(
            Bits::BITS,
            T::SWIZZLE,
            T::OFFSET,
            <T::Layout as Rank2Leaves>::ROWS,
            <T::Layout as Rank2Leaves>::LEAVES,
        );
        [cols as u32, rows as u32]
    };
    const BYTES: u32 = <Self as TmaBox<Bits>>::BOX[0] * <Self as TmaBox<Bits>>::BOX[1] * (Bits::BITS / 8) as u32;
}

/// A static rank-2 layout's row count (the size of mode 0) and flat leaves.
#[doc(hidden)]
pub trait Rank2Leaves {
    /// `size<0>`.
    const ROWS: usize;
    /// `(count, shapes, strides)`.
    const LEAVES: (usize, [usize; MAX_LEAVES], [usize; MAX_LEAVES]);
}
impl<S0: ConstTuple, S1: ConstTuple, D: ConstTuple> Rank2Leaves for Layout<Cons<S0, Cons<S1, Nil>>, D> {
    const ROWS: usize = product(S0::VALUES);
    const LEAVES: (usize, [usize; MAX_LEAVES], [usize; MAX_LEAVES]) = {
        let s = <Cons<S0, Cons<S1, Nil>> as ConstTuple>::VALUES;
        (s.0, s.1, D::VALUES.1)
    };
}

/// The product of a tuple's leaves.
const fn product((n, v): (usize, [usize; MAX_LEAVES])) -> usize {
    let (mut k, mut p) = (0, 1);
    while k < n {
        p *= v[k];
        k += 1;
    }
    p
}

/// A constant's panic: the condition and its numbers (`what`, `x`, `then`, `y`).
const fn box_fail(what: &str, x: usize, then: &str, y: usize) {
    let mut msg = ConstMessage::new();
    msg.push("TMA box: ");
    msg.push(what);
    msg.number(x);
    msg.push(then);
    msg.number(y);
    panic!("{}", msg.as_str());
}

/// The box `(rows, columns)` of a tile, every condition of [`TmaBox`] checked.
const fn tma_box(
    bits: usize,
    (b, m, s): (usize, isize, isize),
    offset: usize,
    rows: usize,
    l: (usize, [usize; MAX_LEAVES], [usize; MAX_LEAVES]),
) -> (usize, usize) {
    let bytes = bits / 8;
    let size = product((l.0, l.1));
    let cols = match size.checked_div(rows) {
        Some(c) => c,
        None => 0,
    };
    if offset != 0 {
        box_fail(
            "the tile starts at its swizzle's period (offset 0); this tile's offset is ",
            offset,
            " elements, of a swizzle base of ",
            1 << m,
        );
    }
    if b > 0 {
        let base_on_bytes = m + bytes.trailing_zeros() as isize;
        if b > 3 || base_on_bytes != 4 || s != 3 {
            box_fail(
                "TMA swizzles are Sw<B,4,3> on bytes, B = 1..3 (32, 64, 128 bytes); this tile's B is ",
                b,
                " and its base on bytes ",
                base_on_bytes as usize,
            );
        }
        let span = 16 << b;
        if cols * bytes > span {
            box_fail(
                "a box row is at most its swizzle's span, ",
                span,
                " bytes; this tile's rows are this many bytes: ",
                cols * bytes,
            );
        }
    }
    if !(cols * bytes).is_multiple_of(16) {
        box_fail("a box row is a multiple of 16 bytes; this tile's rows are ", cols * bytes, " bytes, columns: ", cols);
    }
    if rows > 256 || cols > 256 {
        box_fail("each box extent is at most 256; this tile is rows ", rows, ", columns ", cols);
    }
    // Row-major: element (r, c), index r + rows * c, at offset columns * r + c.
    let mut i = 0;
    while i < size {
        let (r, c) = (i % rows, i / rows);
        let at = crate::product::leaf_call(&l, i);
        if at != cols * r + c {
            box_fail(
                "a box lands row after row, (rows, columns):(columns, 1); this tile puts an element of row ",
                r,
                " at offset ",
                at,
            );
        }
        i += 1;
    }
    (rows, cols)
}

/// A shared tile a TMA writes: a static layout, or `Sw<B,M,S> o 0 o layout`.
#[cfg(feature = "dyn")]
pub trait TmaTile {
    /// The cute-dyn tile.
    ///
    /// # Errors
    /// `Overflow` for a value above `i64::MAX`.
    fn to_dyn_tile(&self) -> cute_dyn::Result<cute_dyn::swizzle::MaybeComposed>;
}
#[cfg(feature = "dyn")]
impl<S: Congruent<D>, D: crate::int_tuple::IntTuple> TmaTile for Layout<S, D> {
    fn to_dyn_tile(&self) -> cute_dyn::Result<cute_dyn::swizzle::MaybeComposed> {
        Ok(cute_dyn::swizzle::MaybeComposed::Layout(self.to_dyn()?))
    }
}
#[cfg(feature = "dyn")]
impl<B, M, SH, O, S, D> TmaTile for ComposedLayout<Swizzle<B, M, SH>, O, Layout<S, D>>
where
    B: typenum::Unsigned,
    M: typenum::Unsigned,
    SH: crate::swizzle::Shift,
    O: typenum::Unsigned + Default,
    S: Congruent<D>,
    D: crate::int_tuple::IntTuple,
    Swizzle<B, M, SH>: crate::swizzle::ValidSwizzle,
{
    fn to_dyn_tile(&self) -> cute_dyn::Result<cute_dyn::swizzle::MaybeComposed> {
        Ok(cute_dyn::swizzle::MaybeComposed::Composed(self.to_dyn()?))
    }
}

/// `make_tma_copy(SM90_TMA_LOAD{}, gtensor, slayout)`'s tensor map: the global tensor's layout
/// `global` (static or run-time leaves), its element type `elem` (a CuTe name) and the shared
/// tile `smem`. See [`cute_dyn::tma::make_tma_copy_desc`] for the derivation and conditions.
///
/// # Errors
/// Those of [`cute_dyn::tma::make_tma_copy_desc`], with the numbers.
///
/// # Examples
/// ```
/// use cute_static::gmma::{LayoutAtom, K, Sw128};
/// use cute_static::tma::make_tma_copy_desc;
/// use cute_static::typenum::U16;
/// use cute_static::{layout, shape, tile_to_shape};
/// // CuTe C++ 4.2 (tests/data/tma): a K-major half A of 1000x512, a 128x64 SW128 tile:
/// // globalDim (512,1000), globalStrides (1024 bytes), boxDim (64,128), swizzle 128B.
/// let (m, k) = (1000usize, 512usize);
/// let smem = tile_to_shape(LayoutAtom::<K, Sw128, U16>::default(), shape!((128,64)));
/// let d = make_tma_copy_desc(layout!(({m},{k}):({k},1)), "half_t", &smem)?;
/// assert_eq!((d.global_dim, d.global_strides, d.box_dim, d.swizzle), (vec![512, 1000], vec![1024], vec![64, 128], 3));
/// # Ok::<(), cute_dyn::Error>(())
/// ```
#[cfg(feature = "dyn")]
pub fn make_tma_copy_desc<G: LayoutFn, T: TmaTile>(
    global: G,
    elem: &str,
    smem: &T,
) -> cute_dyn::Result<cute_dyn::tma::TmaDesc> {
    cute_dyn::tma::make_tma_copy_desc(&global.to_dyn()?, elem, &smem.to_dyn_tile()?)
}

/// [`make_tma_copy_desc`] for a load multicast to `multicast` CTAs of a cluster
/// (`SM90_TMA_LOAD_MULTICAST`): see [`cute_dyn::tma::make_tma_copy_desc_multicast`].
///
/// # Errors
/// Those of [`cute_dyn::tma::make_tma_copy_desc_multicast`].
#[cfg(feature = "dyn")]
pub fn make_tma_copy_desc_multicast<G: LayoutFn, T: TmaTile>(
    global: G,
    elem: &str,
    smem: &T,
    multicast: u32,
) -> cute_dyn::Result<cute_dyn::tma::TmaDesc> {
    cute_dyn::tma::make_tma_copy_desc_multicast(&global.to_dyn()?, elem, &smem.to_dyn_tile()?, multicast)
}
