//! TMA copy atoms (CuTe's `SM90_TMA_LOAD` and `SM90_TMA_LOAD_MULTICAST` with their
//! `Copy_Traits`): a load into a stage's shared tile, whose box, bytes and coordinates are the
//! tile's, computed by the compiler from its layout ([`TmaBox`]), never typed in.

use core::marker::PhantomData;

use cute_static::gmma::ElementBits;
use cute_static::tma::TmaBox;

use crate::arch::thread::cluster_ctarank;
use crate::arch::tma;
use crate::check::{fail, Piece::*};
use crate::tensor::SmemTensor;

/// The storage of an element width: `u8`, `u16`, `u32`.
pub trait Storage: ElementBits {
    /// The unsigned integer of the width.
    type T;
}
impl Storage for cute_static::typenum::U8 {
    type T = u8;
}
impl Storage for cute_static::typenum::U16 {
    type T = u16;
}
impl Storage for cute_static::typenum::U32 {
    type T = u32;
}

/// A TMA coordinate of 2 to 5 dimensions, in elements, innermost first (the tensor map's
/// order): `[i32; D]`. A tile's box is its first two; the tensor's outer modes (a batch, a
/// head) are the rest, their box extent 1. The instruction is the dimension count's.
pub trait TmaCoord: Copy {
    /// `cp.async.bulk.tensor.Dd` load ([`tma::load_2d`] and its siblings).
    ///
    /// # Safety
    /// As [`tma::load_2d`], the map of this rank.
    unsafe fn load(self, dst: u32, map: *const u8, bar: u32);
    /// The multicast load ([`tma::load_2d_multicast`]).
    ///
    /// # Safety
    /// As [`tma::load_2d_multicast`], the map of this rank.
    unsafe fn load_multicast(self, dst: u32, map: *const u8, bar: u32, mask: u16);
    /// The store ([`tma::store_2d`]).
    ///
    /// # Safety
    /// As [`tma::store_2d`], the map of this rank.
    unsafe fn store(self, map: *const u8, src: u32);
}

macro_rules! tma_coords {
    ($($d:literal: $load:ident, $multicast:ident, $store:ident;)*) => {$(
        impl TmaCoord for [i32; $d] {
            #[inline(always)]
            unsafe fn load(self, dst: u32, map: *const u8, bar: u32) {
                // SAFETY: the caller's promise.
                unsafe { tma::$load(dst, map, bar, self) }
            }
            #[inline(always)]
            unsafe fn load_multicast(self, dst: u32, map: *const u8, bar: u32, mask: u16) {
                // SAFETY: the caller's promise.
                unsafe { tma::$multicast(dst, map, bar, self, mask) }
            }
            #[inline(always)]
            unsafe fn store(self, map: *const u8, src: u32) {
                // SAFETY: the caller's promise.
                unsafe { tma::$store(map, src, self) }
            }
        }
    )*};
}
tma_coords! {
    2: load_2d, load_2d_multicast, store_2d;
    3: load_3d, load_3d_multicast, store_3d;
    4: load_4d, load_4d_multicast, store_4d;
    5: load_5d, load_5d_multicast, store_5d;
}

/// A TMA copy into a stage of a ring: what a pipeline needs to know of it.
pub trait TmaCopy {
    /// The shared tile a stage holds.
    type Tile: Default + Copy;
    /// Its element storage (`u16` for 16-bit elements).
    type Elem;
    /// The bytes the stage's tile holds.
    const TILE_BYTES: u32;
    /// The bytes the copies of one stage bring into each block (the expect-tx of the stage's
    /// barrier): the box's, times the blocks that each multicast one part.
    const DELIVERED: u32;
    /// The blocks of the cluster this copy writes to (bit `i` for rank `i`); 1 (this block)
    /// for a load that is not multicast.
    const MASK: u16;
    /// This block's copy of tile `(row_tile, col_tile)` of the global tensor into `dst`,
    /// completing `bar`'s transaction bytes (in every block of the mask).
    ///
    /// # Safety
    /// As [`tma::load_2d`]: `map` is the tensor map of the global tensor with this copy's box,
    /// `dst` a stage tile of this block's shared memory aligned as its swizzle needs, and `bar`
    /// (at the same shared address in every block of the mask) expects the tile's bytes.
    unsafe fn copy(&self, map: *const u8, dst: &SmemTensor<Self::Elem, Self::Tile>, tile: (usize, usize), bar: u32);
    /// The same copy of the tile whose first element is `(row, col)` of the global tensor (a
    /// tile that does not start at a multiple of the box: a sequence's rows inside a batch of
    /// them); a multicast block's part starts its rank's part rows further down.
    ///
    /// # Safety
    /// As [`copy`](Self::copy).
    unsafe fn copy_at(&self, map: *const u8, dst: &SmemTensor<Self::Elem, Self::Tile>, at: (usize, usize), bar: u32);
}

/// A load of the shared tile `Tile` of `Bits`-bit elements, one box that is the whole tile
/// (CuTe's `SM90_TMA_LOAD`). Zero-sized.
///
/// # Examples
/// ```
/// use cute_atom::atom::{Multicast, TmaCopy, TmaLoad};
/// use cute_static::gmma::{LayoutAtom, Sw128, K};
/// use cute_static::typenum::U16;
/// use cute_static::{Shape, TileToShape};
/// type Atom = LayoutAtom<K, Sw128, U16>;
/// type Tile = <Atom as TileToShape<Shape![(256, 64)]>>::Output;
/// type Half = <Atom as TileToShape<Shape![(128, 64)]>>::Output;
/// // A 256x64 tile of halves: 32 KiB, one box; or two 16 KiB halves multicast to 2 blocks.
/// assert_eq!(<TmaLoad<U16, Tile> as TmaCopy>::DELIVERED, 32768);
/// assert_eq!(<TmaLoad<U16, Tile, Multicast<Half, 0b11>> as TmaCopy>::DELIVERED, 32768);
/// ```
pub struct TmaLoad<Bits, Tile, Mc = Unicast>(PhantomData<(Bits, Tile, Mc)>);

/// Each block of the cluster loads its own box.
pub struct Unicast;

/// Each block of `MASK`'s blocks loads one part of the tile, the box `Part` (the tile cut
/// along its rows), and multicasts it to every block of the mask (CuTe's
/// `SM90_TMA_LOAD_MULTICAST`); the block of rank `r` loads part `r`.
pub struct Multicast<Part, const MASK: u16>(PhantomData<Part>);

impl<Bits, Tile, Mc> Default for TmaLoad<Bits, Tile, Mc> {
    fn default() -> Self {
        TmaLoad(PhantomData)
    }
}
impl<Bits, Tile, Mc> Clone for TmaLoad<Bits, Tile, Mc> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<Bits, Tile, Mc> Copy for TmaLoad<Bits, Tile, Mc> {}

impl<Bits: Storage, Tile: TmaBox<Bits> + Default + Copy> TmaCopy for TmaLoad<Bits, Tile, Unicast> {
    type Tile = Tile;
    type Elem = Bits::T;
    const TILE_BYTES: u32 = Tile::BYTES;
    const DELIVERED: u32 = Tile::BYTES;
    const MASK: u16 = 1;
    /// The load of the tile's one box at the tile's TMA coordinate: its box extents times the
    /// tile coordinate, innermost first.
    #[inline(always)]
    unsafe fn copy(&self, map: *const u8, dst: &SmemTensor<Bits::T, Tile>, tile: (usize, usize), bar: u32) {
        let [cols, rows] = Tile::BOX;
        // SAFETY: the caller's promise.
        unsafe { self.copy_at(map, dst, (tile.0 * rows as usize, tile.1 * cols as usize), bar) }
    }
    #[inline(always)]
    unsafe fn copy_at(&self, map: *const u8, dst: &SmemTensor<Bits::T, Tile>, (row, col): (usize, usize), bar: u32) {
        // SAFETY: the caller's promise.
        unsafe { [col as i32, row as i32].load(dst.base(), map, bar) }
    }
}

impl<Bits: Storage, Tile: TmaBox<Bits> + Default + Copy> TmaLoad<Bits, Tile, Unicast> {
    /// The load of the tile's box at TMA coordinate `coord` of a tensor map of 2 to 5
    /// dimensions: the box's first element's, innermost first (a `(d, seq, head, batch)` tensor's
    /// `[col, row, head, batch]`, CuTe's `get_tma_tensor` coordinate). The map's box is the
    /// tile's, then 1 in each outer dimension.
    ///
    /// # Safety
    /// As [`TmaCopy::copy`], `map` of `coord`'s rank.
    ///
    /// # Examples
    /// ```no_run
    /// use cute_atom::atom::TmaLoad;
    /// use cute_atom::SmemTensor;
    /// use cute_static::gmma::{LayoutAtom, Sw128, K};
    /// use cute_static::typenum::U16;
    /// use cute_static::{Shape, TileToShape};
    /// type Tile = <LayoutAtom<K, Sw128, U16> as TileToShape<Shape![(128, 64)]>>::Output;
    /// # fn kernel(map: *const u8, dst: &SmemTensor<u16, Tile>, bar: u32, (row, head, batch): (i32, i32, i32)) {
    /// // Rows `row..row + 128` of head `head` of batch `batch` of a (64, seq, heads, batch) map.
    /// unsafe { TmaLoad::<U16, Tile>::default().copy_at_nd(map, dst, [0, row, head, batch], bar) };
    /// # }
    /// ```
    #[inline(always)]
    pub unsafe fn copy_at_nd<C: TmaCoord>(&self, map: *const u8, dst: &SmemTensor<Bits::T, Tile>, coord: C, bar: u32) {
        // SAFETY: the caller's promise.
        unsafe { coord.load(dst.base(), map, bar) }
    }
}

impl<Bits: Storage, Tile: TmaBox<Bits> + Default + Copy, Part: TmaBox<Bits>, const MASK: u16> TmaCopy
    for TmaLoad<Bits, Tile, Multicast<Part, MASK>>
{
    type Tile = Tile;
    type Elem = Bits::T;
    const TILE_BYTES: u32 = Tile::BYTES;
    const DELIVERED: u32 = Part::BYTES * MASK.count_ones();
    const MASK: u16 = MASK;
    /// Block `rank`'s part (its rank in the cluster) of the tile, into its rows of `dst` in
    /// every block of the mask.
    #[inline(always)]
    unsafe fn copy(&self, map: *const u8, dst: &SmemTensor<Bits::T, Tile>, tile: (usize, usize), bar: u32) {
        let [cols, rows] = Tile::BOX;
        // SAFETY: the caller's promise.
        unsafe { self.copy_at(map, dst, (tile.0 * rows as usize, tile.1 * cols as usize), bar) }
    }
    #[inline(always)]
    unsafe fn copy_at(&self, map: *const u8, dst: &SmemTensor<Bits::T, Tile>, (row, col): (usize, usize), bar: u32) {
        let [_, part_rows] = Part::BOX;
        let () = Self::PARTS;
        let rank = cluster_ctarank();
        // The tile is one dense box: its parts along the rows are consecutive boxes.
        let at = dst.base() + rank as u32 * Part::BYTES;
        // SAFETY: the caller's promise.
        unsafe { [col as i32, (row + rank * part_rows as usize) as i32].load_multicast(at, map, bar, MASK) }
    }
}

impl<Bits: ElementBits, Tile: TmaBox<Bits>, Part: TmaBox<Bits>, const MASK: u16>
    TmaLoad<Bits, Tile, Multicast<Part, MASK>>
{
    /// The tile cut along its rows into one part a block of the mask (checked by the compiler).
    /// The parts: the tile's rows over the part's, the part as wide as the tile (checked by
    /// the compiler).
    const PARTS: () = {
        let ([tc, tr], [pc, pr]) = (Tile::BOX, Part::BOX);
        if tc != pc || tr % pr != 0 || tr / pr != MASK.count_ones() {
            fail(&[
                S("TmaLoad multicast: the tile is cut along its rows into one part a block of the mask; the tile is "),
                N(tc as usize),
                S(" x "),
                N(tr as usize),
                S(" (columns x rows), the part "),
                N(pc as usize),
                S(" x "),
                N(pr as usize),
                S(", the mask has "),
                N(MASK.count_ones() as usize),
                S(" blocks"),
            ]);
        }
    };
}

/// A store of the shared tile `Tile` of `Bits`-bit elements to a tile of the global tensor, one
/// box that is the whole tile (CuTe's `SM90_TMA_STORE`): the epilogue's copy out, its box and
/// coordinates the tile's, computed by the compiler. Zero-sized.
///
/// The protocol is the PTX ISA's (§9.7.9.25.5.2): the threads that wrote the tile each fence
/// ([`tma::fence_proxy_async`]), the block synchronizes, one thread issues the store and
/// commits it ([`tma::store_commit`]); before the tile is written again, that thread waits
/// for the store's reads ([`tma::store_wait_read`]) and the block synchronizes.
///
/// # Examples
/// ```
/// use cute_atom::atom::TmaStore;
/// use cute_static::gmma::{LayoutAtom, Sw128, K};
/// use cute_static::typenum::U16;
/// use cute_static::{Shape, TileToShape};
/// // A 128x64 tile of a row-major C (halves), rows of 128 bytes swizzled by Sw128 (CUTLASS's
/// // SM90 epilogue's shared tile for 16-bit C): 16 KiB, one box of 64 columns by 128 rows
/// // (the tensor map's boxDim, innermost first).
/// type Tile = <LayoutAtom<K, Sw128, U16> as TileToShape<Shape![(128, 64)]>>::Output;
/// assert_eq!((TmaStore::<U16, Tile>::BOX, TmaStore::<U16, Tile>::BYTES), ([64, 128], 16384));
/// ```
pub struct TmaStore<Bits, Tile>(PhantomData<(Bits, Tile)>);

impl<Bits, Tile> Default for TmaStore<Bits, Tile> {
    fn default() -> Self {
        TmaStore(PhantomData)
    }
}
impl<Bits, Tile> Clone for TmaStore<Bits, Tile> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<Bits, Tile> Copy for TmaStore<Bits, Tile> {}

impl<Bits: Storage, Tile: TmaBox<Bits> + Default + Copy> TmaStore<Bits, Tile> {
    /// The box, `boxDim` (innermost first): the tensor map's.
    pub const BOX: [u32; 2] = Tile::BOX;
    /// The bytes one store reads.
    pub const BYTES: u32 = Tile::BYTES;

    /// The store of `src` to tile `(row_tile, col_tile)` of the global tensor (its box extents
    /// times the tile coordinate, innermost first), in this thread's bulk group.
    ///
    /// # Safety
    /// As [`tma::store_2d`]: `map` is the tensor map of the global tensor with this store's
    /// box; `src`'s tile was written and fenced as the protocol above says, and is not written
    /// again until the group's reads complete.
    #[inline(always)]
    pub unsafe fn copy(&self, map: *const u8, src: &SmemTensor<Bits::T, Tile>, tile: (usize, usize)) {
        let [cols, rows] = Tile::BOX;
        // SAFETY: the caller's promise.
        unsafe { [(tile.1 * cols as usize) as i32, (tile.0 * rows as usize) as i32].store(map, src.base()) }
    }

    /// The store of `src` to TMA coordinate `coord` of a tensor map of 2 to 5 dimensions (as
    /// [`TmaLoad::copy_at_nd`]).
    ///
    /// # Safety
    /// As [`copy`](Self::copy), `map` of `coord`'s rank.
    #[inline(always)]
    pub unsafe fn copy_at_nd<C: TmaCoord>(&self, map: *const u8, src: &SmemTensor<Bits::T, Tile>, coord: C) {
        // SAFETY: the caller's promise.
        unsafe { coord.store(map, src.base()) }
    }
}
