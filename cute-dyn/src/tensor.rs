//! Tensors over run-time layouts: a layout over a borrowed slice (cute-static's `tensor`
//! module for layouts known at compile time).
//!
//! Construction checks once that every index the layout reaches lies in the storage; then an
//! index `i < size` needs no further check. Tiles and partitions are CuTe's definitions, built
//! from this crate's algebra: `local_tile` is `zipped_divide` then a slice of the rest mode,
//! `local_partition` a slice of the tile mode at the thread's coordinate.
//!
//! The same partitions on layouts alone ([`local_tile`], [`local_partition`],
//! [`inner_partition`], [`outer_partition`], with projections) give what CuTe C++ gives for a
//! tensor: the sliced layout and the offset its data pointer moves by, residue tiles of a
//! non-dividing tiler included (a kernel predicates them). The tensors over slices refuse
//! those and any coordinate past the grid: they cannot reach past their storage.

use alloc::vec;
use alloc::vec::Vec;

use crate::composition::composition;
use crate::divide::zipped_divide;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::{self, Coord, IntTuple, Tuple};
use crate::inverse::right_inverse;
use crate::layout::{make_layout_left, Layout};
use crate::product::raked_product;
use crate::tiler::Tiler;

/// A layout over a slice: `tensor[i] = data[L(i)]`. `S` is `&[T]` or `&mut [T]`.
#[derive(Debug)]
pub struct Tensor<S> {
    data: S,
    layout: Layout,
    // The flattened (shape, stride) leaves: indexing without walking the tuple tree.
    flat: Vec<(i64, i64)>,
    size: i64,
}

/// A layout's flattened leaves, its size, and the lowest and highest index it reaches.
struct Flat {
    flat: Vec<(i64, i64)>,
    size: i64,
    lo: i64,
    hi: i64,
}

fn flatten(layout: &Layout) -> Result<Flat> {
    let flat: Vec<(i64, i64)> = layout.pairs().into_iter().map(|(s, d)| (s.value(), d.value())).collect();
    let size = layout.size()?.value();
    // The lowest and highest index reached (negative strides reach below 0).
    let (mut lo, mut hi) = (0i64, 0i64);
    for &(s, d) in &flat {
        if s < 0 {
            return Err(Error::InvalidArgument {
                op: "make_tensor",
                reason: alloc::format!("negative shape {s} in {layout}"),
            });
        }
        let reach = (s.max(1) - 1).checked_mul(d).ok_or(Error::Overflow { op: "make_tensor" })?;
        if reach < 0 {
            lo = lo.checked_add(reach).ok_or(Error::Overflow { op: "make_tensor" })?;
        } else {
            hi = hi.checked_add(reach).ok_or(Error::Overflow { op: "make_tensor" })?;
        }
    }
    Ok(Flat { flat, size, lo, hi })
}

impl<S> Tensor<S> {
    fn make(data: S, len: usize, layout: Layout) -> Result<Tensor<S>> {
        let Flat { flat, size, lo, hi } = flatten(&layout)?;
        if size > 0 && (lo < 0 || hi as u64 >= len as u64) {
            return Err(Error::InvalidArgument {
                op: "make_tensor",
                reason: alloc::format!(
                    "the layout {layout} reaches indices [{lo}, {hi}], the storage has {len} elements"
                ),
            });
        }
        Ok(Tensor { data, layout, flat, size })
    }

    /// The layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// `size(tensor)`.
    pub fn size(&self) -> usize {
        self.size as usize
    }

    /// `L(i)` for `i < size` (colexicographic split over the flattened leaves).
    #[inline]
    fn offset(&self, i: usize) -> Result<usize> {
        if i as u64 >= self.size as u64 {
            return Err(Error::IndexOutOfRange { op: "tensor", index: i as i64, rank: self.size() });
        }
        let (mut rest, mut o) = (i as i64, 0i64);
        let last = self.flat.len().saturating_sub(1);
        for (k, &(s, d)) in self.flat.iter().enumerate() {
            let c = if k == last { rest } else { rest % s.max(1) };
            rest /= s.max(1);
            o += c * d;
        }
        Ok(o as usize)
    }
}

impl<'a, T> Tensor<&'a [T]> {
    /// `make_tensor(data, layout)`: checks that the layout's indices lie in `data`.
    ///
    /// # Errors
    /// `InvalidArgument` when they do not, `Overflow`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::tensor::Tensor;
    /// let data: Vec<u32> = (0..24).collect();
    /// let t = Tensor::new(&data[..], "(4,6):(6,1)".parse()?)?;
    /// assert_eq!(*t.get(1)?, 6);
    /// assert_eq!(*t.at(&"(1,2)".parse()?)?, 8);
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn new(data: &'a [T], layout: Layout) -> Result<Self> {
        Tensor::make(data, data.len(), layout)
    }

    /// The element at index `i`.
    ///
    /// # Errors
    /// `IndexOutOfRange` for `i >= size`.
    pub fn get(&self, i: usize) -> Result<&'a T> {
        let o = self.offset(i)?;
        let data: &'a [T] = self.data;
        // Construction proved every offset of an index below the size to be in the slice.
        Ok(&data[o])
    }

    /// The element at a hierarchical coordinate.
    ///
    /// # Errors
    /// As `Layout::call_coord`; `IndexOutOfRange` when the offset is outside the storage.
    pub fn at(&self, c: &Coord) -> Result<&'a T> {
        let o = self.layout.call_coord(c)?.value();
        let data: &'a [T] = self.data;
        usize::try_from(o).ok().and_then(|o| data.get(o)).ok_or(Error::IndexOutOfRange {
            op: "tensor",
            index: o,
            rank: data.len(),
        })
    }

    /// `tensor(c)` with `_` in some modes: the sub-tensor of the kept modes at the fixed
    /// coordinates of the others (e.g. `A(_, j)` is column `j`).
    ///
    /// # Errors
    /// Those of `Layout::slice_and_offset`; `InvalidArgument` when the slice leaves the storage.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::tensor::Tensor;
    /// let data: Vec<u32> = (0..24).collect();
    /// let a = Tensor::new(&data[..], "(4,6):(6,1)".parse()?)?; // row-major 4x6
    /// let col = a.slice(&"(_,2)".parse()?)?;
    /// assert_eq!(col.layout().to_string(), "(4):(6)");
    /// assert_eq!((*col.get(0)?, *col.get(3)?), (2, 3 * 6 + 2));
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn slice(&self, c: &Coord) -> Result<Tensor<&'a [T]>> {
        let (layout, off) = self.layout.slice_and_offset(c)?;
        let data: &'a [T] = self.data;
        let off = usize::try_from(off.value()).ok().filter(|&o| o <= data.len()).ok_or_else(|| {
            Error::InvalidArgument { op: "slice", reason: alloc::format!("the slice starts at {}", off.value()) }
        })?;
        Tensor::new(&data[off..], layout)
    }

    /// `local_tile(tensor, tiler, coord)`: the tile at `coord` of the tensor divided by
    /// `tiler` (`zipped_divide`, then the rest mode sliced at `coord`).
    ///
    /// # Errors
    /// Those of `zipped_divide` and of the slice.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::{tensor::Tensor, Tiler};
    /// let data: Vec<u32> = (0..48).collect();
    /// let a = Tensor::new(&data[..], "(6,8):(1,6)".parse()?)?;
    /// let t = a.local_tile(&"<3,4>".parse()?, &"(1,1)".parse()?)?;
    /// assert_eq!(t.layout().to_string(), "(3,4):(1,6)");
    /// assert_eq!(*t.get(0)?, 3 + 4 * 6);
    /// // An (8,8,4) tensor by <4,4> at (1,1): C++ appends `_`, the tile keeps the third mode
    /// // (CuTe C++ 4.2: (_4,_4,_4):(_1,_8,_64)).
    /// let data: Vec<u32> = (0..256).collect();
    /// let b = Tensor::new(&data[..], "(8,8,4):(1,8,64)".parse()?)?;
    /// let t = b.local_tile(&"<4,4>".parse()?, &"(1,1)".parse()?)?;
    /// assert_eq!((t.layout().to_string(), *t.get(0)?), ("(4,4,4):(1,8,64)".to_string(), 36));
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn local_tile(&self, tiler: &Tiler, coord: &Coord) -> Result<Tensor<&'a [T]>> {
        let (layout, off) = tile_slice(&self.layout, tiler, coord, true)?;
        let data: &'a [T] = self.data;
        Tensor::new(data.get(off..).unwrap_or(&[]), layout)
    }

    /// `local_partition(tensor, threads, tid)`: thread `tid`'s elements when the tensor is
    /// spread over the thread layout `threads` (each thread takes one element of every
    /// `shape(threads)` block).
    ///
    /// # Errors
    /// `InvalidArgument` when `tid` is not in the thread layout's image; those of the divide.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::tensor::Tensor;
    /// let data: Vec<u32> = (0..32).collect();
    /// let tile = Tensor::new(&data[..], "(8,4):(1,8)".parse()?)?;
    /// let p = tile.local_partition(&"(4,2):(1,4)".parse()?, 5)?; // thread (1,1)
    /// assert_eq!(p.layout().to_string(), "(2,2):(4,16)");
    /// assert_eq!((*p.get(0)?, *p.get(3)?), (9, 29));
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn local_partition(&self, threads: &Layout, tid: usize) -> Result<Tensor<&'a [T]>> {
        let (tiler, coord) = thread_tiler(threads, Int::dy(tid as i64), None)?;
        let (layout, off) = tile_slice(&self.layout, &tiler, &coord, false)?;
        let data: &'a [T] = self.data;
        Tensor::new(data.get(off..).unwrap_or(&[]), layout)
    }
}

impl<'a, T> Tensor<&'a mut [T]> {
    /// A writable tensor; as [`Tensor::new`].
    ///
    /// # Errors
    /// As [`Tensor::new`].
    pub fn new_mut(data: &'a mut [T], layout: Layout) -> Result<Self> {
        let len = data.len();
        Tensor::make(data, len, layout)
    }

    /// The element at index `i`, writable.
    ///
    /// # Errors
    /// `IndexOutOfRange` for `i >= size`.
    pub fn get_mut(&mut self, i: usize) -> Result<&mut T> {
        let o = self.offset(i)?;
        Ok(&mut self.data[o])
    }

    /// [`Tensor::local_tile`], writable.
    ///
    /// # Errors
    /// As [`Tensor::local_tile`].
    pub fn local_tile_mut(&mut self, tiler: &Tiler, coord: &Coord) -> Result<Tensor<&mut [T]>> {
        let (layout, off) = tile_slice(&self.layout, tiler, coord, true)?;
        let len = self.data.len();
        Tensor::new_mut(&mut self.data[off.min(len)..], layout)
    }

    /// [`Tensor::local_partition`], writable.
    ///
    /// # Errors
    /// As [`Tensor::local_partition`].
    pub fn local_partition_mut(&mut self, threads: &Layout, tid: usize) -> Result<Tensor<&mut [T]>> {
        let (tiler, coord) = thread_tiler(threads, Int::dy(tid as i64), None)?;
        let (layout, off) = tile_slice(&self.layout, &tiler, &coord, false)?;
        let len = self.data.len();
        Tensor::new_mut(&mut self.data[off.min(len)..], layout)
    }
}

/// `zipped_divide(layout, tiler)` sliced at `coord`: in the rest mode (`inner`, a tile) or in
/// the tile mode (a thread's partition); the sliced layout and its offset.
fn tile_slice(layout: &Layout, tiler: &Tiler, coord: &Coord, inner: bool) -> Result<(Layout, usize)> {
    let zipped = zipped_divide(layout, tiler)?;
    // A tiler that does not divide the tensor pads it (CuTe): the tiles would reach past it.
    let (whole, tiled) = (layout.size()?.value(), zipped.size()?.value());
    if tiled != whole {
        return Err(Error::ShapeDivisibility { op: "local_tile", shape: whole, divisor: tiled });
    }
    // CuTe does not check the coordinate: past the last tile it reads another tile's data.
    let mode = zipped.get(if inner { 1 } else { 0 })?;
    let coord = if coord.is_tuple() { coord.append_to(mode.rank(), Tuple::Leaf(None))? } else { coord.clone() };
    if !coord_in_range(&coord, mode.shape())? {
        return Err(Error::InvalidArgument {
            op: if inner { "local_tile" } else { "local_partition" },
            reason: alloc::format!(
                "coordinate {coord} is outside the {} shape {}",
                if inner { "tile grid's" } else { "tile's" },
                mode.shape()
            ),
        });
    }
    let (sliced, off) = partition_zipped(&zipped, &coord, inner)?;
    let off = usize::try_from(off.value()).map_err(|_| Error::InvalidArgument {
        op: "local_tile",
        reason: alloc::format!("the tile starts at {} before the storage", off.value()),
    })?;
    Ok((sliced, off))
}

/// CuTe's `inner_partition` of a layout (the layout of `inner_partition(tensor, tiler,
/// coord)`, and the offset its data pointer moves by): `zipped_divide(layout, tiler)` sliced in
/// its rest mode at `coord`, every tile mode kept (`repeat<R0>(_)`). A tuple coordinate gets
/// `_` appended up to the rest mode's rank; an integer indexes the rest mode flat.
///
/// As C++, a tiler that does not divide the layout gives the whole tile past the edge (the
/// residue tile a kernel predicates), and the coordinate is not checked against the grid.
///
/// # Errors
/// `RankMismatch` for a tuple coordinate longer than the rest mode (C++'s static_assert);
/// those of `zipped_divide` and the slice.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe C++ 4.2: local_tile of an (8,8,4) tensor by <4,4> at (1,1,_)
/// let (t, off) = tensor::inner_partition(&"(8,8,4):(1,8,64)".parse()?, &"<4,4>".parse()?, &"(1,1,_)".parse()?)?;
/// assert_eq!((t.to_string(), off.value()), ("(4,4,4):(1,8,64)".to_string(), 36));
/// # Ok::<(), Error>(())
/// ```
pub fn inner_partition(layout: &Layout, tiler: &Tiler, coord: &Coord) -> Result<(Layout, Int)> {
    partition(layout, tiler, coord, true)
}

/// CuTe's `outer_partition` of a layout: `zipped_divide(layout, tiler)` sliced in its tile
/// mode at `coord` (appended with `_` as [`inner_partition`]), every rest mode kept: the
/// elements at `coord` of every tile.
///
/// # Errors
/// As [`inner_partition`].
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe C++ 4.2: element (1,1) of every 4x2 tile
/// let (t, off) = tensor::outer_partition(&"(8,4):(1,8)".parse()?, &"<4,2>".parse()?, &"(1,1)".parse()?)?;
/// assert_eq!((t.to_string(), off.value()), ("(2,2):(4,16)".to_string(), 9));
/// # Ok::<(), Error>(())
/// ```
pub fn outer_partition(layout: &Layout, tiler: &Tiler, coord: &Coord) -> Result<(Layout, Int)> {
    partition(layout, tiler, coord, false)
}

/// The slice of `zipped_divide(layout, tiler)` that keeps mode 0 (`inner`) or mode 1.
fn partition(layout: &Layout, tiler: &Tiler, coord: &Coord, inner: bool) -> Result<(Layout, Int)> {
    partition_zipped(&zipped_divide(layout, tiler)?, coord, inner)
}

fn partition_zipped(zipped: &Layout, coord: &Coord, inner: bool) -> Result<(Layout, Int)> {
    let (kept, cut) = if inner { (zipped.get(0)?, zipped.get(1)?) } else { (zipped.get(1)?, zipped.get(0)?) };
    let all = int_tuple::repeat_under(kept.rank());
    let c = if coord.is_tuple() { coord.append_to(cut.rank(), Tuple::Leaf(None))? } else { coord.clone() };
    zipped.slice_and_offset(&Tuple::Node(if inner { vec![all, c] } else { vec![c, all] }))
}

/// CuTe's `local_tile(tensor, tiler, coord[, proj])` on the tensor's layout: the tile at
/// `coord` ([`inner_partition`]) and its offset; a projection (`Step<_1,X,_1>`, written
/// `(1,_,1)`) first keeps the tiler's and the coordinate's modes paired with an integer.
///
/// # Errors
/// As [`inner_partition`]; `RankMismatch` for a projection that does not fit.
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe's GEMM: the (M,K) operand A of a (32,64,4) CTA tile at (1,2,_), A's projection
/// // Step<_1,X,_1> (CuTe C++ 4.2's answer)
/// let a: Layout = "(128,16):(1,128)".parse()?;
/// let (t, off) = tensor::local_tile(&a, &"<32,64,4>".parse()?, &"(1,2,_)".parse()?, Some(&"(1,_,1)".parse()?))?;
/// assert_eq!((t.to_string(), off.value()), ("(32,4,4):(1,128,512)".to_string(), 32));
/// # Ok::<(), Error>(())
/// ```
pub fn local_tile(layout: &Layout, tiler: &Tiler, coord: &Coord, proj: Option<&Coord>) -> Result<(Layout, Int)> {
    match proj {
        None => inner_partition(layout, tiler, coord),
        Some(p) => inner_partition(layout, &tiler.dice(p)?, &int_tuple::dice(p, coord)?),
    }
}

/// CuTe's `local_partition(tensor, tile, index[, proj])` on the tensor's layout: the part of
/// thread `index` when the layout is spread over the thread layout `tile`:
/// [`outer_partition`] by `product_each(shape(tile))` at the thread's flat coordinate
/// (`tile.get_flat_coord(index)`); a projection first dices the thread layout.
///
/// # Errors
/// `InvalidArgument` where `index` is not the image of the coordinate C++ computes for it
/// (`(index / stride) % shape` per mode: a thread layout that is not compact; C++ goes on with
/// another thread's part); those of [`outer_partition`].
///
/// # Examples
/// ```
/// use cute_dyn::*;
/// // CuTe's comment in tensor_impl.hpp: a (16,64) tensor over 2x16 threads gives (8,4)
/// // (CuTe C++ 4.2's answer)
/// let (p, off) = tensor::local_partition(&"(16,64):(1,16)".parse()?, &"(2,16):(16,1)".parse()?, Int::dy(17), None)?;
/// assert_eq!((p.to_string(), off.value()), ("(8,4):(2,256)".to_string(), 17));
/// # Ok::<(), Error>(())
/// ```
pub fn local_partition(layout: &Layout, tile: &Layout, index: Int, proj: Option<&Coord>) -> Result<(Layout, Int)> {
    let (tiler, coord) = thread_tiler(tile, index, proj)?;
    outer_partition(layout, &tiler, &coord)
}

/// The by-mode tiler `product_each(shape(tile))` and thread `index`'s flat coordinate in it
/// (C++'s `tile.get_flat_coord(index)`), the thread layout diced by `proj`.
fn thread_tiler(tile: &Layout, index: Int, proj: Option<&Coord>) -> Result<(Tiler, Coord)> {
    // Each mode's coordinate is its own (`(index / stride) % shape`), so a projection keeps
    // the kept modes' coordinates as they are.
    let flat = tile.flat_coord(index)?;
    let (tile, flat) = match proj {
        Some(p) => (tile.dice(p)?, int_tuple::dice(p, &flat)?),
        None => (tile.clone(), flat),
    };
    // `product_each(shape(tile))` as a shape tiler (one integer for a single leaf).
    let extents = if tile.shape().is_tuple() { int_tuple::product_each(tile.shape())? } else { tile.shape().clone() };
    Ok((Tiler::from_shape(&extents), flat.map(&mut |x| Some(*x))))
}

/// Whether every fixed coordinate lies inside its mode (an integer against a tuple counts in
/// the mode's size; `_` always fits).
fn coord_in_range(c: &Coord, shape: &IntTuple) -> Result<bool> {
    Ok(match (c, shape) {
        (Tuple::Leaf(None), _) => true,
        (Tuple::Leaf(Some(x)), _) => (0..int_tuple::product(shape)?.value()).contains(&x.value()),
        (Tuple::Node(cv), Tuple::Node(sv)) if cv.len() == sv.len() => {
            for (x, s) in cv.iter().zip(sv) {
                if !coord_in_range(x, s)? {
                    return Ok(false);
                }
            }
            true
        }
        (Tuple::Node(_), _) => false,
    })
}

/// `make_layout_tv(threads, values)`: the thread-value layout of a tile where each thread
/// holds a `values`-shaped block and the threads are laid out by `threads`: returns the tile
/// shape and the layout `(thread, value) -> index in the tile` (CuTe's definition:
/// `right_inverse(raked_product(threads, values))` with the shape `(size(threads),
/// size(values))`).
///
/// # Errors
/// Those of the algebra.
///
/// # Examples
/// ```
/// use cute_dyn::tensor::make_layout_tv;
/// // 4x2 threads (column-major), each with a 2x2 block of values
/// let (tile, tv) = make_layout_tv(&"(4,2):(1,4)".parse()?, &"(2,2):(1,2)".parse()?)?;
/// assert_eq!(tile.to_string(), "(8,4)");
/// assert_eq!(tv.to_string(), "((4,2),(2,2)):((2,16),(1,8))");
/// # Ok::<(), cute_dyn::Error>(())
/// ```
pub fn make_layout_tv(threads: &Layout, values: &Layout) -> Result<(IntTuple, Layout)> {
    let mn = raked_product(threads, values)?;
    let tv_shape = Tuple::Node(vec![Tuple::Leaf(threads.size()?), Tuple::Leaf(values.size()?)]);
    let tv = composition(&right_inverse(&mn)?, &Tiler::Layout(make_layout_left(&tv_shape)?))?;
    Ok((int_tuple::product_each(mn.shape())?, tv))
}

/// `make_identity_tensor(shape)`: index `i` holds its own natural coordinate.
///
/// # Errors
/// `IndexOutOfRange` for `i >= size(shape)`, and those of `idx2crd`.
///
/// # Examples
/// ```
/// use cute_dyn::tensor::identity_coord;
/// // CuTe docs: 16 is (1,(1,2)) in (3,(2,3)); a run-time index gives run-time coordinates
/// assert_eq!(identity_coord(&"(3,(2,3))".parse()?, 16)?.to_string(), "({1},({1},{2}))");
/// # Ok::<(), cute_dyn::Error>(())
/// ```
pub fn identity_coord(shape: &IntTuple, i: usize) -> Result<IntTuple> {
    let n = int_tuple::product(shape)?.value();
    if i as u64 >= n as u64 {
        return Err(Error::IndexOutOfRange { op: "identity tensor", index: i as i64, rank: n as usize });
    }
    int_tuple::idx2crd(&Tuple::Leaf(Int::dy(i as i64)), shape)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage_must_cover_the_layout() {
        let data = [0u8; 23];
        assert!(Tensor::new(&data[..], "(4,6):(6,1)".parse().unwrap()).is_err());
        assert!(Tensor::new(&data[..], "(4,6):(5,1)".parse().unwrap()).is_ok());
        // A negative stride reaches below the start of the storage.
        assert!(Tensor::new(&data[..], "(4,6):(-1,1)".parse().unwrap()).is_err());
    }

    /// Regression (issue 10): a tile coordinate past the last tile returned another tile's
    /// data.
    #[test]
    fn a_tile_past_the_last_is_refused() {
        let data: Vec<u32> = (0..48).collect();
        let a = Tensor::new(&data[..], "(6,8):(1,6)".parse().unwrap()).unwrap();
        // <3,4> over (6,8): a 2x2 grid of tiles.
        assert!(a.local_tile(&"<3,4>".parse().unwrap(), &"(1,1)".parse().unwrap()).is_ok());
        for c in ["(2,0)", "(0,2)", "(1,-1)", "4"] {
            let e = a.local_tile(&"<3,4>".parse().unwrap(), &c.parse().unwrap()).unwrap_err();
            assert_eq!(e.kind(), "invalid_argument", "{c}: {e}");
        }
        // An integer coordinate counts tiles colexicographically: 3 is (1,1).
        assert_eq!(*a.local_tile(&"<3,4>".parse().unwrap(), &"3".parse().unwrap()).unwrap().get(0).unwrap(), 3 + 4 * 6);
    }

    #[test]
    fn index_agrees_with_the_layout() {
        let data: Vec<i64> = (0..64).collect();
        let l: Layout = "(3,(2,3)):(3,(12,1))".parse().unwrap();
        let t = Tensor::new(&data[..], l.clone()).unwrap();
        for i in 0..t.size() {
            assert_eq!(*t.get(i).unwrap(), l.call(i as i64).unwrap());
        }
        assert!(t.get(18).is_err());
        // CuTe docs: (1,(1,2)) maps to 17.
        assert_eq!(*t.at(&"(1,(1,2))".parse().unwrap()).unwrap(), 17);
    }

    #[test]
    fn tiles_and_partitions_cover_once() {
        let data: Vec<usize> = (0..48).collect();
        let a = Tensor::new(&data[..], "(6,8):(1,6)".parse().unwrap()).unwrap();
        let mut seen = [0; 48];
        for bi in 0..2 {
            for bj in 0..2 {
                let c: Coord = alloc::format!("({bi},{bj})").parse().unwrap();
                let t = a.local_tile(&"<3,4>".parse().unwrap(), &c).unwrap();
                for tid in 0..6 {
                    let p = t.local_partition(&"(3,2):(2,1)".parse().unwrap(), tid).unwrap();
                    for i in 0..p.size() {
                        seen[*p.get(i).unwrap()] += 1;
                    }
                }
            }
        }
        assert!(seen.iter().all(|&c| c == 1));
        // 2x2 threads do not divide a 3x4 tile: the partition would leave the tile (here it
        // would still be inside the storage).
        let t = a.local_tile(&"<3,4>".parse().unwrap(), &"(0,0)".parse().unwrap()).unwrap();
        assert!(matches!(t.local_partition(&"(2,2):(2,1)".parse().unwrap(), 0), Err(Error::ShapeDivisibility { .. })));
        let mut w = data.clone();
        let mut b = Tensor::new_mut(&mut w[..], "(6,8):(1,6)".parse().unwrap()).unwrap();
        let mut t = b.local_tile_mut(&"<3,4>".parse().unwrap(), &"(1,1)".parse().unwrap()).unwrap();
        let mut p = t.local_partition_mut(&"(3,1):(1,0)".parse().unwrap(), 2).unwrap();
        *p.get_mut(0).unwrap() = 1000;
        assert_eq!(w[3 + 2 + 4 * 6], 1000);
    }
}
