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

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use crate::complement::Ints;
use crate::composition::composition;
use crate::divide::{zipped_divide, zipped_divide_extents};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::{self, Coord, IntTuple, Tuple};
use crate::inverse::right_inverse;
use crate::layout::{crd2idx, crd2idx_modes, lift, lift_modes, make_layout_left, Coords, Layout};
use crate::modes::{Nest, INLINE_LEAVES};
use crate::product::raked_product;
use crate::small::Small;
use crate::tiler::Tiler;

/// A layout over a slice: `tensor[i] = data[L(i)]`. `S` is `&[T]` or `&mut [T]`.
#[derive(Debug)]
pub struct Tensor<S> {
    data: S,
    layout: Layout,
    // The flattened (shape, stride) leaves: indexing without walking the tuple tree (inline
    // as the layout's: a tensor over a slice allocates nothing).
    flat: Leaves,
    size: i64,
}

/// A layout's `(shape, stride)` leaves as values.
type Leaves = Small<(i64, i64), INLINE_LEAVES>;

/// A layout's flattened leaves, its size, and the lowest and highest index it reaches.
struct Flat {
    flat: Leaves,
    size: i64,
    lo: i64,
    hi: i64,
}

fn flatten(layout: &Layout) -> Result<Flat> {
    let flat: Leaves = layout.pairs().iter().map(|(s, d)| (s.value(), d.value())).collect();
    let size = layout.size()?.value();
    // The lowest and highest index reached (negative strides reach below 0).
    let (mut lo, mut hi) = (0i64, 0i64);
    for &(s, d) in flat.iter() {
        if s < 0 {
            return Err(Error::InvalidArgument {
                op: "make_tensor",
                reason: alloc::format!("negative shape {s} in {layout}"),
            });
        }
        let reach = (s.max(1) - 1).checked_mul(d).ok_or_else(|| Error::Overflow { op: "make_tensor" })?;
        if reach < 0 {
            lo = lo.checked_add(reach).ok_or_else(|| Error::Overflow { op: "make_tensor" })?;
        } else {
            hi = hi.checked_add(reach).ok_or_else(|| Error::Overflow { op: "make_tensor" })?;
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
        usize::try_from(o).ok().and_then(|o| data.get(o)).ok_or_else(|| Error::IndexOutOfRange {
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

    /// `domain_offset(coord, tensor)`: the same layout over the storage moved by the layout's
    /// value at `coord` (CuTe C++ `tensor_impl.hpp`: `data() + layout(coord)`): element `c` of
    /// the result is element `coord + c` of this tensor where both are in its domain.
    ///
    /// # Errors
    /// Those of `Layout::call_coord`; `InvalidArgument` when the moved layout leaves the
    /// storage (a negative offset, or one past the end).
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::tensor::Tensor;
    /// // A 4x8 window (ld 8) of a 16x8 column-major matrix, moved down 1 row and right 2 columns
    /// // (the values CuTe C++ 4.2 reads there).
    /// let data: Vec<u32> = (0..128).collect();
    /// let t = Tensor::new(&data[..], "(4,8):(1,8)".parse()?)?;
    /// let u = t.domain_offset(&"(1,2)".parse()?)?;
    /// assert_eq!(*u.at(&"(2,3)".parse()?)?, *t.at(&"(3,5)".parse()?)?);
    /// assert_eq!(*u.get(0)?, 1 + 2 * 8);
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn domain_offset(&self, c: &Coord) -> Result<Tensor<&'a [T]>> {
        let off = self.layout.call_coord(c)?.value();
        let data: &'a [T] = self.data;
        let off = usize::try_from(off).ok().filter(|&o| o <= data.len()).ok_or_else(|| Error::InvalidArgument {
            op: "domain_offset",
            reason: alloc::format!("the moved tensor starts at {off}"),
        })?;
        Tensor::new(&data[off..], self.layout.clone())
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
        let (layout, off) = thread_slice(&self.layout, threads, tid)?;
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
        let (layout, off) = thread_slice(&self.layout, threads, tid)?;
        let len = self.data.len();
        Tensor::new_mut(&mut self.data[off.min(len)..], layout)
    }
}

/// Thread `tid`'s part of a tensor's layout over `threads` and its offset: read flat (as
/// [`local_partition_flat`]), or by the general path, which explains a refusal.
fn thread_slice(layout: &Layout, threads: &Layout, tid: usize) -> Result<(Layout, usize)> {
    let index = Int::dy(tid as i64);
    by_thread(layout, threads, index, |zipped, cut| tile_slice_zipped(layout, zipped, cut, false)).or_else(|_| {
        let (tiler, coord) = thread_tiler(threads, index, None)?;
        tile_slice(layout, &tiler, &coord, false)
    })
}

/// A tensor's storage (cute-static's `Engine`): a borrowed slice, a writable one, or an owned
/// vector. Safe to implement: every access here is bounds-checked.
pub trait Engine {
    /// The element type.
    type Elem;
    /// The elements, in storage order.
    fn as_slice(&self) -> &[Self::Elem];
}
impl<T> Engine for &[T] {
    type Elem = T;
    fn as_slice(&self) -> &[T] {
        self
    }
}
impl<T> Engine for &mut [T] {
    type Elem = T;
    fn as_slice(&self) -> &[T] {
        self
    }
}
impl<T> Engine for Vec<T> {
    type Elem = T;
    fn as_slice(&self) -> &[T] {
        self
    }
}

/// The layout functions of a tensor (CuTe's `flatten(tensor)`, `coalesce(tensor)`,
/// `group_modes<B,E>(tensor)`, `take<B,E>(tensor)`): the same storage under the new layout.
impl<S: Engine> Tensor<S> {
    /// `make_tensor(tensor.data(), layout)`: the storage under another layout, checked again.
    ///
    /// # Errors
    /// As [`Tensor::new`].
    pub fn with_layout(self, layout: Layout) -> Result<Tensor<S>> {
        let len = self.data.as_slice().len();
        Tensor::make(self.data, len, layout)
    }

    /// `flatten(tensor)`: the layout's leaves as one flat tuple.
    ///
    /// # Errors
    /// None in practice (the layout reaches the same indices).
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::tensor::Tensor;
    /// let data: Vec<u32> = (0..24).collect();
    /// let t = Tensor::new(&data[..], "((2,3),4):((1,2),6)".parse()?)?.flatten()?;
    /// assert_eq!(t.layout().to_string(), "(2,3,4):(1,2,6)");
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn flatten(self) -> Result<Tensor<S>> {
        let l = self.layout.flatten();
        self.with_layout(l)
    }

    /// `coalesce(tensor)`: the layout coalesced (the same function, fewer modes).
    ///
    /// # Errors
    /// Those of [`coalesce`](crate::coalesce()).
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::tensor::Tensor;
    /// let data: Vec<u32> = (0..12).collect();
    /// // CuTe docs: coalesce((2,(1,6)):(1,(6,2))) is 12:1
    /// let t = Tensor::new(&data[..], "(2,(1,6)):(1,(6,2))".parse()?)?.coalesce()?;
    /// assert_eq!((t.layout().to_string(), *t.get(11)?), ("12:1".to_string(), 11));
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn coalesce(self) -> Result<Tensor<S>> {
        let l = crate::coalesce(&self.layout)?;
        self.with_layout(l)
    }

    /// `group_modes<B,E>(tensor)`: modes `[b, e)` grouped into one.
    ///
    /// # Errors
    /// `IndexOutOfRange` unless `b <= e <= rank`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::tensor::Tensor;
    /// let data: Vec<u32> = (0..24).collect();
    /// let t = Tensor::new(&data[..], "(2,3,4):(1,2,6)".parse()?)?.group_modes(0, 2)?;
    /// assert_eq!(t.layout().to_string(), "((2,3),4):((1,2),6)");
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn group_modes(self, b: usize, e: usize) -> Result<Tensor<S>> {
        let l = self.layout.group_modes(b, e)?;
        self.with_layout(l)
    }

    /// `take<B,E>(tensor)`: modes `[b, e)` only (the others at coordinate 0).
    ///
    /// # Errors
    /// `IndexOutOfRange` unless `b < e <= rank`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::tensor::Tensor;
    /// let data: Vec<u32> = (0..24).collect();
    /// let t = Tensor::new(&data[..], "(2,3,4):(1,2,6)".parse()?)?.take(1, 3)?;
    /// assert_eq!((t.layout().to_string(), *t.get(1)?), ("(3,4):(2,6)".to_string(), 2));
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn take(self, b: usize, e: usize) -> Result<Tensor<S>> {
        let l = self.layout.take(b, e)?;
        self.with_layout(l)
    }

    /// `make_tensor_like(tensor)`: an owned tensor of the same shape whose layout is
    /// [`make_layout_like`](crate::make_layout_like) of this one's (compact, its modes in the
    /// order of this one's strides), every element `T::default()`.
    ///
    /// # Errors
    /// Those of `make_layout_like`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::tensor::Tensor;
    /// let data: Vec<u32> = (0..64).collect();
    /// // A row-major (4,8) tile of a larger matrix: the copy is row-major and compact (CuTe C++
    /// // 4.2: (_4,_8):(_8,_1)).
    /// let t = Tensor::new(&data[..], "(4,8):(16,1)".parse()?)?;
    /// let r = t.make_tensor_like()?;
    /// assert_eq!(r.layout().to_string(), "(4,8):(8,1)");
    /// assert_eq!(r.data().len(), 32);
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn make_tensor_like(&self) -> Result<Tensor<Vec<S::Elem>>>
    where
        S::Elem: Clone + Default,
    {
        Tensor::owned(crate::make_layout_like(&self.layout)?)
    }

    /// `make_fragment_like(tensor)`: an owned register fragment of the same shape, its layout
    /// [`make_fragment_like`](crate::make_fragment_like) of this one's (mode 0 compact in the
    /// order of its strides, the other modes after it, ordered by their strides), every element
    /// `T::default()`.
    ///
    /// # Errors
    /// Those of `make_fragment_like`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::tensor::Tensor;
    /// let data: Vec<u32> = (0..256).collect();
    /// // A thread's (value, m, n) partition of a row-major tile; CuTe C++ 4.2 gives
    /// // ((_2,_2),_2,_4):((_1,_2),_16,_4).
    /// let t = Tensor::new(&data[..], "((2,2),2,4):((1,8),64,16)".parse()?)?;
    /// let f = t.make_fragment_like()?;
    /// assert_eq!(f.layout().to_string(), "((2,2),2,4):((1,2),16,4)");
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn make_fragment_like(&self) -> Result<Tensor<Vec<S::Elem>>>
    where
        S::Elem: Clone + Default,
    {
        Tensor::owned(crate::make_fragment_like(&self.layout)?)
    }
}

impl<T: Clone + Default> Tensor<Vec<T>> {
    /// `make_tensor<T>(layout)`: an owned tensor of `cosize(layout)` elements, each
    /// `T::default()`.
    ///
    /// # Errors
    /// `InvalidArgument` for a layout that reaches a negative index, or storage that cannot be
    /// allocated; `Overflow`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::tensor::Tensor;
    /// let mut t = Tensor::<Vec<f32>>::owned("(2,3):(3,1)".parse()?)?;
    /// *t.view_mut()?.get_mut(1)? = 1.5; // coordinate (1,0): index 3
    /// assert_eq!(t.data()[3], 1.5);
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn owned(layout: Layout) -> Result<Tensor<Vec<T>>> {
        // A layout reaching below 0 has a cosize below its reach; `make` refuses it.
        let n = layout.cosize()?.value().max(0);
        let len = usize::try_from(n).map_err(|_| Error::Overflow { op: "make_tensor" })?;
        // An allocation that cannot be made is an error, not an abort.
        let mut data = Vec::new();
        data.try_reserve_exact(len).map_err(|_| Error::InvalidArgument {
            op: "make_tensor",
            reason: alloc::format!("cannot allocate {len} elements for {layout}"),
        })?;
        data.resize(len, T::default());
        Tensor::make(data, len, layout)
    }
}

impl<T> Tensor<Vec<T>> {
    /// The storage, in storage order.
    pub fn data(&self) -> &[T] {
        &self.data
    }

    /// A borrowed view (every read operation is on views).
    ///
    /// # Errors
    /// None in practice (the layout was checked against this storage).
    pub fn view(&self) -> Result<Tensor<&[T]>> {
        Tensor::new(&self.data[..], self.layout.clone())
    }

    /// A writable view.
    ///
    /// # Errors
    /// None in practice.
    pub fn view_mut(&mut self) -> Result<Tensor<&mut [T]>> {
        Tensor::new_mut(&mut self.data[..], self.layout.clone())
    }
}

mod sealed {
    pub trait Sealed {}
}

/// A plain numeric element type: no padding and every bit pattern a value, so a slice of one
/// may be read as a slice of another ([`Tensor::recast`]). Sealed: implemented for the
/// primitive integers and floats only.
pub trait Scalar: Copy + sealed::Sealed {}
macro_rules! scalars {
    ($($t:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Scalar for $t {}
    )*};
}
scalars!(u8, i8, u16, i16, u32, i32, u64, i64, u128, i128, f32, f64);

/// `align_to`'s prefix must be empty: the storage starts aligned for `U`.
fn aligned<T, U>(head: &[T]) -> Result<()> {
    if head.is_empty() {
        return Ok(());
    }
    Err(Error::InvalidArgument {
        op: "recast",
        reason: alloc::format!("the storage is not aligned for a {}-byte type", core::mem::size_of::<U>()),
    })
}

/// `recast_layout<T, U>(layout)`: `upcast<N>` when `U` is `N` times wider, `downcast<N>` when
/// `N` times narrower (CuTe's ratio of the two sizes).
fn recast_layout<T, U>(l: &Layout) -> Result<Layout> {
    let (t, u) = (core::mem::size_of::<T>() as i64, core::mem::size_of::<U>() as i64);
    match u.cmp(&t) {
        core::cmp::Ordering::Equal => Ok(l.clone()),
        core::cmp::Ordering::Greater => crate::upcast(l, u / t),
        core::cmp::Ordering::Less => crate::downcast(l, t / u),
    }
}

impl<'a, T: Scalar> Tensor<&'a [T]> {
    /// `recast<U>(tensor)`: the same bytes read as `U`, under `recast_layout<T, U>` of the
    /// layout (upcast when `U` is wider, downcast when narrower).
    ///
    /// # Errors
    /// `InvalidArgument` when the storage does not start at an address aligned for `U`; those
    /// of upcast/downcast (an upcast needs the contiguous mode to hold whole `U`s).
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::tensor::Tensor;
    /// let data: Vec<u32> = (0..8).collect();
    /// let t = Tensor::new(&data[..], "(2,4):(4,1)".parse()?)?;
    /// // Each u32 is two u16s: the contiguous mode doubles (downcast<2>; CuTe C++ 4.2's
    /// // recast_layout<uint32_t, uint16_t> gives (_2,_8):(_8,_1)).
    /// let h = t.recast::<u16>()?;
    /// assert_eq!(h.layout().to_string(), "(2,8):(8,1)");
    /// // The two halves of a u32, in memory order.
    /// let halves = |x: u32| {
    ///     let b = x.to_ne_bytes();
    ///     (u16::from_ne_bytes([b[0], b[1]]), u16::from_ne_bytes([b[2], b[3]]))
    /// };
    /// // Coordinates (0,2) and (0,3) (indices 4 and 6) are the halves of data[1].
    /// assert_eq!((*h.get(4)?, *h.get(6)?), halves(data[1]));
    /// // And back: two u16s are one u32 (upcast<2>).
    /// let w = h.recast::<u32>()?;
    /// assert_eq!((w.layout().to_string(), *w.get(3)?), ("(2,4):(4,1)".to_string(), data[5]));
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn recast<U: Scalar>(&self) -> Result<Tensor<&'a [U]>> {
        let layout = recast_layout::<T, U>(&self.layout)?;
        let data: &'a [T] = self.data;
        // SAFETY: `T` and `U` are `Scalar`: primitive integers or floats, with no padding and
        // every bit pattern a valid value, so the initialized bytes of `data` are valid `U`s;
        // `align_to` returns a middle slice that is aligned for `U` and within `data`'s bytes,
        // and the borrow keeps `data`'s lifetime.
        let (head, mid, _) = unsafe { data.align_to::<U>() };
        aligned::<T, U>(head)?;
        Tensor::new(mid, layout)
    }
}

impl<T: Scalar> Tensor<&mut [T]> {
    /// [`Tensor::recast`], writable: the same bytes written as `U`.
    ///
    /// # Errors
    /// As [`Tensor::recast`].
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::tensor::Tensor;
    /// let mut data = vec![0u16; 8];
    /// let mut t = Tensor::new_mut(&mut data[..], "8:1".parse()?)?;
    /// let mut w = t.recast_mut::<u32>()?; // 4:1 of u32
    /// *w.get_mut(1)? = u32::from_ne_bytes([1, 0, 2, 0]);
    /// assert_eq!(data[2..4], [u16::from_ne_bytes([1, 0]), u16::from_ne_bytes([2, 0])]);
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn recast_mut<U: Scalar>(&mut self) -> Result<Tensor<&mut [U]>> {
        let layout = recast_layout::<T, U>(&self.layout)?;
        // SAFETY: as `recast`: `T` and `U` are `Scalar` (no padding, every bit pattern valid both
        // ways, so writes of `U` leave valid `T`s); `align_to_mut` returns an aligned middle
        // within `self.data`'s bytes, exclusively borrowed for the returned tensor's life.
        let (head, mid, _) = unsafe { self.data.align_to_mut::<U>() };
        aligned::<T, U>(head)?;
        Tensor::new_mut(mid, layout)
    }
}

/// `zipped_divide(layout, tiler)` sliced at `coord`: in the rest mode (`inner`, a tile) or in
/// the tile mode (a thread's partition); the sliced layout and its offset.
fn tile_slice(layout: &Layout, tiler: &Tiler, coord: &Coord, inner: bool) -> Result<(Layout, usize)> {
    let zipped = zipped_divide(layout, tiler)?;
    tile_slice_zipped(layout, &zipped, Cut::of(coord), inner)
}

/// [`tile_slice`] of `zipped = zipped_divide(layout, tiler)`, the coordinate read as [`Cut`].
fn tile_slice_zipped(layout: &Layout, zipped: &Layout, coord: Cut<'_>, inner: bool) -> Result<(Layout, usize)> {
    // A tiler that does not divide the tensor pads it (CuTe): the tiles would reach past it.
    let (whole, tiled) = (layout.size()?.value(), zipped.size()?.value());
    if tiled != whole {
        return Err(Error::ShapeDivisibility { op: "local_tile", shape: whole, divisor: tiled });
    }
    // CuTe does not check the coordinate: past the last tile it reads another tile's data.
    let mode = zipped.get(if inner { 1 } else { 0 })?;
    if let Cut::Modes(_, len) = coord {
        int_tuple::check_append(len, mode.rank())?;
    }
    let fits = match coord {
        Cut::Modes(cv, _) => modes_in_range(cv, mode.rank(), mode.nest())?,
        Cut::One(c) => coord_in_range(c, mode.nest())?,
    };
    if !fits {
        // The coordinate as it was read: appended with `_` up to the mode's rank.
        let coord = match coord {
            Cut::Modes(cv, _) => Tuple::Node((0..mode.rank()).map(|i| cv.with(i, Coord::clone)).collect()),
            Cut::One(c) => c.clone(),
        };
        return Err(Error::InvalidArgument {
            op: if inner { "local_tile" } else { "local_partition" },
            reason: alloc::format!(
                "coordinate {coord} is outside the {} shape {}",
                if inner { "tile grid's" } else { "tile's" },
                mode.shape()
            ),
        });
    }
    let (sliced, off) = partition_cut(zipped, coord, inner)?;
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

/// `zipped.slice_and_offset(c)` for `c = (repeat<R>(_), coord)` (`inner`, R the rank of the
/// tile mode) or `(coord, repeat<R>(_))`, where a tuple `coord` is appended with `_` up to the
/// rank of the mode it slices: the coordinate is read as that, not built.
fn partition_zipped(zipped: &Layout, coord: &Coord, inner: bool) -> Result<(Layout, Int)> {
    partition_cut(zipped, Cut::of(coord), inner)
}

/// The coordinate of the mode a partition slices: one (an integer or `_`), or a tuple's modes
/// and their number.
#[derive(Clone, Copy)]
enum Cut<'a> {
    One(&'a Coord),
    Modes(Coords<'a>, usize),
}

impl<'a> Cut<'a> {
    fn of(coord: &'a Coord) -> Cut<'a> {
        match coord {
            Tuple::Node(cv) => Cut::Modes(Coords::Tree(cv), cv.len()),
            c => Cut::One(c),
        }
    }
}

/// [`partition_zipped`] with the sliced mode's coordinate as [`Cut`].
fn partition_cut(zipped: &Layout, coord: Cut<'_>, inner: bool) -> Result<(Layout, Int)> {
    let (kept, cut) = if inner { (zipped.get(0)?, zipped.get(1)?) } else { (zipped.get(1)?, zipped.get(0)?) };
    let (kept, cut) = (kept.nest(), cut.nest());
    if let Cut::Modes(_, len) = coord {
        int_tuple::check_append(len, cut.rank())?;
    }
    // `repeat<R>(_)` is `_` for one mode, R of them otherwise; `coord` as appended.
    let all = Coords::Tree(&[]);
    let slice_kept = |out: &mut Layout| match kept.rank() {
        1 => lift(&Tuple::Leaf(None), kept, true, out),
        r => lift_modes(all, r, kept, true, out),
    };
    let slice_cut = |out: &mut Layout| match coord {
        Cut::Modes(cv, _) => lift_modes(cv, cut.rank(), cut, true, out),
        Cut::One(c) => lift(c, cut, true, out),
    };
    let sliced = Layout::build(|out| {
        out.open();
        if inner {
            slice_kept(out)?;
            slice_cut(out)?;
        } else {
            slice_cut(out)?;
            slice_kept(out)?;
        }
        out.close();
        Ok(())
    })?;
    let offset_kept = || match kept.rank() {
        1 => crd2idx(&Tuple::Leaf(None), kept),
        r => crd2idx_modes(all, r, kept),
    };
    let offset_cut = || match coord {
        Cut::Modes(cv, _) => crd2idx_modes(cv, cut.rank(), cut),
        Cut::One(c) => crd2idx(c, cut),
    };
    let (first, second) = if inner { (offset_kept()?, offset_cut()?) } else { (offset_cut()?, offset_kept()?) };
    Ok((sliced, Int::st(0).checked_add(first)?.checked_add(second)?))
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
    // Without a projection the thread's tiler and coordinate are read flat (no tuple built);
    // a refusal there is left to the general path, which gives it with its explanation.
    if proj.is_none() {
        if let Ok(r) = local_partition_flat(layout, tile, index) {
            return Ok(r);
        }
    }
    let (tiler, coord) = thread_tiler(tile, index, proj)?;
    outer_partition(layout, &tiler, &coord)
}

/// [`local_partition`] without a projection, the thread layout read flat: its extents
/// (`product_each(shape(tile))`) and thread `index`'s flat coordinate (`get_flat_coord`) as
/// integers, computed by the operations [`thread_tiler`]'s trees compute, in the same order.
/// Where it answers, the answer is the general path's.
fn local_partition_flat(layout: &Layout, tile: &Layout, index: Int) -> Result<(Layout, Int)> {
    by_thread(layout, tile, index, |zipped, cut| partition_cut(zipped, cut, false))
}

/// `slice` of `zipped_divide(layout, product_each(shape(tile)))` at thread `index`'s flat
/// coordinate in `tile`, both read as integers ([`thread_flat`]): `slice(zipped, coordinate)`.
fn by_thread<R>(
    layout: &Layout,
    tile: &Layout,
    index: Int,
    slice: impl FnOnce(&Layout, Cut<'_>) -> Result<R>,
) -> Result<R> {
    let (extents, coord) = thread_flat(tile, index)?;
    // A leaf thread layout is one integer extent and one integer coordinate.
    match tile.nest().leaf() {
        Some(_) => slice(&zipped_divide(layout, &Tiler::Int(extents[0]))?, Cut::One(&Tuple::Leaf(Some(coord[0])))),
        None => slice(&zipped_divide_extents(layout, &extents)?, Cut::Modes(Coords::Ints(&coord), coord.len())),
    }
}

/// Thread `index`'s extents and flat coordinate in the thread layout `tile`, as integers (see
/// [`local_partition_flat`]).
fn thread_flat(tile: &Layout, index: Int) -> Result<(Ints, Ints)> {
    let t = tile.nest();
    // C++'s get_hier_coord: `(index / stride) % shape` at each leaf (`_0` for a static 1).
    let mut hier = Ints::new();
    for &(s, d) in t.pairs {
        hier.push(if s.is_const(1) { Int::st(0) } else { index.checked_div(d)?.checked_rem(s)? });
    }
    if dot(t, &hier)?.value() != index.value() {
        // Never shown: the general path refuses too, and says why.
        return Err(Error::InvalidArgument { op: "get_flat_coord", reason: String::new() });
    }
    // Each mode's extent and its coordinate as a 1-D index in it (colexicographic).
    let (mut extents, mut coord, mut k) = (Ints::new(), Ints::new(), 0);
    for m in t.modes() {
        let c = &hier[k..k + m.pairs.len()];
        k += m.pairs.len();
        extents.push(m.product()?);
        coord.push(match m.leaf() {
            Some(_) => c[0],
            None => {
                let (last, init) = c.split_last().expect("a mode has a leaf");
                init.iter()
                    .zip(m.pairs)
                    .rev()
                    .try_fold(*last, |acc, (&ci, &(s, _))| ci.checked_add(s.checked_mul(acc)?))?
            }
        });
    }
    Ok((extents, coord))
}

/// `crd2idx(c, shape, stride)` of a (sub-)layout with one coordinate per leaf, `c`: the sum
/// over the modes, nested as the layout is.
fn dot(n: Nest<'_>, c: &[Int]) -> Result<Int> {
    if let Some((_, d)) = n.leaf() {
        return c[0].checked_mul(d);
    }
    let mut k = 0;
    n.modes().try_fold(Int::st(0), |acc, m| {
        let x = dot(m, &c[k..k + m.pairs.len()])?;
        k += m.pairs.len();
        acc.checked_add(x)
    })
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
    let extents = if tile.is_tuple() { int_tuple::product_each(&tile.shape())? } else { tile.shape() };
    Ok((Tiler::from_shape(&extents), flat.map(&mut |x| Some(*x))))
}

/// Whether every fixed coordinate lies inside its mode (an integer against a tuple counts in
/// the mode's size; `_` always fits).
fn coord_in_range(c: &Coord, n: Nest<'_>) -> Result<bool> {
    Ok(match c {
        Tuple::Leaf(None) => true,
        Tuple::Leaf(Some(x)) => (0..n.size()?.value()).contains(&x.value()),
        Tuple::Node(cv) => modes_in_range(Coords::Tree(cv), cv.len(), n)?,
    })
}

/// [`coord_in_range`] of the tuple coordinate `cv` followed by `_` up to `len` modes: false
/// unless `n` is a tuple of `len` modes.
fn modes_in_range(cv: Coords<'_>, len: usize, n: Nest<'_>) -> Result<bool> {
    if n.leaf().is_some() || n.rank() != len {
        return Ok(false);
    }
    for (i, m) in n.modes().enumerate() {
        if !cv.with(i, |c| coord_in_range(c, m))? {
            return Ok(false);
        }
    }
    Ok(true)
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
    Ok((int_tuple::product_each(&mn.shape())?, tv))
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

    /// recast's law: element `i` of `recast<U>(t)` is the `U` made of the bytes that
    /// `recast_layout<T,U>(L)(i)` selects in the storage (whole `U`s of it).
    #[test]
    fn recast_reads_the_same_bytes() {
        let data: Vec<u32> = (0..32u32).map(|i| i.wrapping_mul(0x9E37_79B9)).collect();
        let bytes: Vec<u8> = data.iter().flat_map(|x| x.to_ne_bytes()).collect();
        for l in ["(4,8):(8,1)", "(8,4):(1,8)", "((2,2),8):((1,16),2)", "32:1"] {
            let t = Tensor::new(&data[..], l.parse().unwrap()).unwrap();
            let b = t.recast::<u8>().unwrap();
            assert_eq!(b.size(), 4 * t.size(), "{l}");
            for i in 0..b.size() {
                let o = b.layout().call(i as i64).unwrap() as usize;
                assert_eq!(*b.get(i).unwrap(), bytes[o], "{l} at {i}");
            }
            // Narrow then wide again: the same tensor.
            let w = b.recast::<u32>().unwrap();
            assert_eq!(w.layout(), t.layout(), "{l}");
            for i in 0..t.size() {
                assert_eq!(w.get(i).unwrap(), t.get(i).unwrap());
            }
            // Same width, another type: the bit patterns.
            let f = t.recast::<f32>().unwrap();
            for i in 0..t.size() {
                assert_eq!(f.get(i).unwrap().to_bits(), *t.get(i).unwrap());
            }
        }
    }

    #[test]
    fn recast_refusals_are_errors() {
        let data: Vec<u32> = (0..16).collect();
        let t = Tensor::new(&data[..], "16:1".parse().unwrap()).unwrap();
        let b = t.recast::<u8>().unwrap();
        // A view that starts one byte in is not aligned for u16.
        let odd = Tensor::new(&b.data[1..], "8:1".parse().unwrap()).unwrap();
        assert_eq!(odd.recast::<u16>().unwrap_err().kind(), "invalid_argument");
        // Three u8s read as u16s: C++'s upcast rounds the extent up (2:1), and storage of three
        // bytes holds one u16, so the tensor is refused rather than read past its storage.
        let three = Tensor::new(&b.data[..3], "3:1".parse().unwrap()).unwrap();
        assert!(three.recast::<u16>().is_err());
        let four = Tensor::new(&b.data[..4], "3:1".parse().unwrap()).unwrap();
        assert_eq!(alloc::format!("{}", four.recast::<u16>().unwrap().layout()), "2:1");
        // A stride of 3 u32s is not a whole number of u64s, nor divides 2.
        let strided = Tensor::new(&data[..], "5:3".parse().unwrap()).unwrap();
        assert_eq!(strided.recast::<u64>().unwrap_err().kind(), "stride_divisibility");
        // Writable: bytes written through a u8 view are the u32's bytes.
        let mut words = [0u32; 4];
        let mut w = Tensor::new_mut(&mut words[..], "(2,2):(2,1)".parse().unwrap()).unwrap();
        let mut b = w.recast_mut::<u8>().unwrap();
        for i in 0..b.size() {
            *b.get_mut(i).unwrap() = i as u8;
        }
        // (2,8):(8,1) of bytes: index i is (i % 2, i / 2), byte 8 * (i % 2) + i / 2.
        let mut bytes = [0u8; 16];
        for i in 0..16 {
            bytes[8 * (i % 2) + i / 2] = i as u8;
        }
        let expect: Vec<u32> = bytes.chunks(4).map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]])).collect();
        assert_eq!(words[..], expect[..]);
    }

    #[test]
    fn owned_tensors_and_layout_functions() {
        let mut t = Tensor::<Vec<i32>>::owned("(2,3):(3,1)".parse().unwrap()).unwrap();
        for i in 0..6 {
            *t.view_mut().unwrap().get_mut(i).unwrap() = i as i32;
        }
        // Column-major indices 0..6 over a row-major (2,3): storage order transposes.
        assert_eq!(t.data(), &[0, 2, 4, 1, 3, 5]);
        let v = t.view().unwrap();
        assert!(v.group_modes(1, 3).is_err());
        let v = t.view().unwrap();
        assert!(v.take(2, 1).is_err());
        // A layout past the storage is refused on re-layout.
        let v = t.view().unwrap();
        assert!(v.with_layout("7:1".parse().unwrap()).is_err());
        // A negative stride reaches below the storage: refused, as for borrowed storage.
        assert_eq!(Tensor::<Vec<u8>>::owned("4:-1".parse().unwrap()).unwrap_err().kind(), "invalid_argument");
        // More elements than the address space holds: an error, not an abort.
        let huge = "(4611686018427387904,2):(1,4611686018427387904)".parse().unwrap();
        assert!(Tensor::<Vec<u64>>::owned(huge).is_err());
    }

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
