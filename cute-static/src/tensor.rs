//! Tensors: a layout over storage, the way a kernel addresses global memory, a shared-memory
//! tile or a register fragment.
//!
//! Storage is an [`Engine`]: a borrowed slice (`&[T]`, `&mut [T]`) or owned storage sized by a
//! static layout's cosize at compile time ([`Owned`], a `GenericArray`). Construction checks
//! once that the storage covers the layout's cosize (at compile time for owned storage); then
//! an index `i < size` needs no further bounds check: `L(i) <= cosize - 1 < len`. Hierarchical
//! coordinates are bounds-checked on the offset (a wrong coordinate can be a valid offset, as
//! in CuTe; it can never leave the storage).

use core::fmt;
use core::ops::{Index, IndexMut};

use generic_array::{ArrayLength, GenericArray};
use typenum::Unsigned;

use crate::arith::{DivT, MulMixed};
use crate::complement::CosizeT;
use crate::int_tuple::{Cons, IntTuple, Leaf, Nil};
use crate::layout::{Congruent, Coord, CrdIdx, Idx2Crd, Layout};
use crate::ops::Checked;
use crate::tiler::Splice;

/// Storage of a tensor: contiguous elements.
///
/// # Safety
/// `as_slice` (and `as_mut_slice`) view the same elements every time, so that an offset
/// checked against `len()` at construction stays in bounds.
pub unsafe trait Engine {
    /// The element type.
    type Elem;
    /// The elements.
    fn as_slice(&self) -> &[Self::Elem];
}

/// Storage a tensor can write.
///
/// # Safety
/// As [`Engine`].
pub unsafe trait EngineMut: Engine {
    /// The elements, writable.
    fn as_mut_slice(&mut self) -> &mut [Self::Elem];
}

unsafe impl<T> Engine for &[T] {
    type Elem = T;
    #[inline(always)]
    fn as_slice(&self) -> &[T] {
        self
    }
}
unsafe impl<T> Engine for &mut [T] {
    type Elem = T;
    #[inline(always)]
    fn as_slice(&self) -> &[T] {
        self
    }
}
unsafe impl<T> EngineMut for &mut [T] {
    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [T] {
        self
    }
}

/// Owned storage of `N` elements (a shared-memory tile, a register fragment).
pub type Owned<T, N> = GenericArray<T, N>;

unsafe impl<T, N: ArrayLength> Engine for GenericArray<T, N> {
    type Elem = T;
    #[inline(always)]
    fn as_slice(&self) -> &[T] {
        self
    }
}
unsafe impl<T, N: ArrayLength> EngineMut for GenericArray<T, N> {
    #[inline(always)]
    fn as_mut_slice(&mut self) -> &mut [T] {
        self
    }
}

/// A tensor's storage does not cover its layout, or a tile or partition lies outside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TensorError {
    /// The layout reaches index `cosize - 1`, the storage has `len` elements.
    StorageTooSmall {
        /// `cosize(layout)`.
        cosize: usize,
        /// The storage's length.
        len: usize,
    },
    /// Mode `mode` of extent `extent` is not a multiple of the tile's `tile`.
    TileDivisibility {
        /// The mode.
        mode: usize,
        /// The tensor's extent in that mode.
        extent: usize,
        /// The tile's extent.
        tile: usize,
    },
    /// Tile coordinate `coord` in mode `mode`, which has `tiles` tiles.
    TileOutOfRange {
        /// The mode.
        mode: usize,
        /// The coordinate asked for.
        coord: usize,
        /// The number of tiles.
        tiles: usize,
    },
    /// A thread index past every index of the thread layout.
    ThreadOutOfRange {
        /// The index.
        thread: usize,
        /// `cosize(thread layout)` (its size, for a compact one).
        threads: usize,
    },
    /// The coordinate C++ computes for a thread (`(tid / d) % s` at each leaf) maps to
    /// another index: the thread layout is not compact.
    ThreadNotReached {
        /// The index.
        thread: usize,
        /// The thread layout's value at that coordinate.
        image: usize,
    },
    /// The thread layout has a stride 0 under an extent above 1 (broadcast threads), by which
    /// C++'s coordinate of a thread divides.
    BroadcastThreads {
        /// The index.
        thread: usize,
        /// The extent of the stride-0 mode.
        extent: usize,
    },
    /// The layout's size or cosize (or a tile's offset, or a partition's stride) does not fit
    /// in `usize`.
    Overflow {
        /// What overflowed: "size", "cosize", "offset" or "stride".
        what: &'static str,
    },
    /// A tile or partition coordinate with `given` modes for a tensor of `rank` modes.
    CoordRank {
        /// The number of coordinates given.
        given: usize,
        /// The tensor's rank.
        rank: usize,
    },
    /// An operation of the algebra refused the layout's run-time values (a layout with
    /// run-time leaves).
    Algebra(crate::error::Error),
    /// `recast`: the storage does not start at an address aligned for the new element type.
    Misaligned {
        /// The new element type's alignment.
        align: usize,
    },
}

/// An algebra error of a tensor's layout is a tensor error: `local_tile(..)?` (the algebra's
/// [`Error`](crate::error::Error)) and `tensor.local_partition(..)?` in one function returning
/// `Result<_, TensorError>`.
impl From<crate::error::Error> for TensorError {
    fn from(e: crate::error::Error) -> Self {
        TensorError::Algebra(e)
    }
}

/// A tensor error as cute-dyn's: the algebra's error as its own kind, an overflow as one, any
/// other as an invalid argument that says what was wrong (its text).
#[cfg(feature = "dyn")]
impl From<TensorError> for cute_dyn::Error {
    fn from(e: TensorError) -> cute_dyn::Error {
        use alloc::string::ToString;
        match e {
            TensorError::Algebra(e) => e.into(),
            TensorError::Overflow { .. } => cute_dyn::Error::Overflow { op: "tensor" },
            e => cute_dyn::Error::InvalidArgument { op: "tensor", reason: e.to_string() },
        }
    }
}

/// A `core::error::Error`, whose source is the algebra's error where there is one.
impl core::error::Error for TensorError {
    fn source(&self) -> Option<&(dyn core::error::Error + 'static)> {
        match self {
            TensorError::Algebra(e) => Some(e),
            _ => None,
        }
    }
}

impl fmt::Display for TensorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TensorError::StorageTooSmall { cosize, len } => {
                write!(f, "storage too small: the layout's cosize is {cosize}, the storage has {len} elements")
            }
            TensorError::TileDivisibility { mode, extent, tile } => {
                write!(f, "tile divisibility: mode {mode} has extent {extent}, not a multiple of the tile's {tile}")
            }
            TensorError::TileOutOfRange { mode, coord, tiles } => {
                write!(f, "tile coordinate out of range: {coord} in mode {mode}, which has {tiles} tiles")
            }
            TensorError::ThreadOutOfRange { thread, threads } => {
                write!(f, "thread {thread} is outside the thread layout, whose indices are below {threads}")
            }
            TensorError::ThreadNotReached { thread, image } => write!(
                f,
                "thread {thread} is not reached: the thread layout maps the coordinate C++ computes for it \
                 ((thread / stride) % extent in each mode) to {image} (a thread layout that is not compact)"
            ),
            TensorError::BroadcastThreads { thread, extent } => write!(
                f,
                "thread {thread} has no coordinate: the thread layout has a mode of extent {extent} and stride 0 \
                 (broadcast threads), by which C++'s coordinate of a thread divides"
            ),
            TensorError::Overflow { what } => write!(f, "overflow: the layout's {what} does not fit in usize"),
            TensorError::CoordRank { given, rank } => {
                write!(f, "coordinate rank mismatch: {given} coordinates for a tensor of rank {rank}")
            }
            TensorError::Algebra(e) => write!(f, "{e}"),
            TensorError::Misaligned { align } => {
                write!(f, "recast: the storage is not aligned to {align} bytes for the new element type")
            }
        }
    }
}

/// A layout over storage: `tensor[i] = storage[L(i)]`.
#[derive(Clone, Copy, Debug)]
pub struct Tensor<E, L> {
    engine: E,
    layout: L,
}

/// The offset of a checked accessor: inside `len`, or a panic that says where it fell.
#[inline(always)]
fn checked_offset(o: Option<usize>, len: usize) -> usize {
    match o {
        Some(o) if o < len => o,
        Some(o) => panic!("index out of bounds: the coordinate's offset {o} is outside the storage of {len}"),
        None => panic!("index out of bounds: the coordinate's offset overflows usize"),
    }
}

impl<E: Engine, S: Congruent<D>, D: IntTuple> Tensor<E, Layout<S, D>> {
    /// `make_tensor(storage, layout)`: checks once that the storage covers `cosize(layout)`.
    ///
    /// # Errors
    /// [`TensorError::StorageTooSmall`]; [`TensorError::Overflow`] when the size or the cosize
    /// of a layout with run-time leaves does not fit in `usize` (so that every index below
    /// `size` provably stays inside the storage).
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, tensor::Tensor};
    /// let data: Vec<f32> = (0..24).map(|x| x as f32).collect();
    /// let t = Tensor::new(&data[..], layout!((4,6):(6,1)))?; // row-major 4x6
    /// assert_eq!(t[1], 6.0); // index 1 is (1,0)
    /// assert_eq!(*t.at(&cute_static::shape!((1,2))), 8.0);
    /// # Ok::<(), cute_static::tensor::TensorError>(())
    /// ```
    pub fn new(engine: E, layout: Layout<S, D>) -> Result<Self, TensorError> {
        let size = layout.checked_size().ok_or(TensorError::Overflow { what: "size" })?;
        let cosize = layout.checked_cosize().ok_or(TensorError::Overflow { what: "cosize" })?;
        let len = engine.as_slice().len();
        if size > 0 && cosize > len {
            return Err(TensorError::StorageTooSmall { cosize, len });
        }
        Ok(Tensor { engine, layout })
    }

    /// The layout.
    #[inline(always)]
    pub fn layout(&self) -> &Layout<S, D> {
        &self.layout
    }

    /// `size(tensor)`.
    #[inline(always)]
    pub fn size(&self) -> usize {
        // `new` proved the product does not overflow.
        self.layout.shape().product()
    }

    /// The storage.
    pub fn engine(&self) -> &E {
        &self.engine
    }

    /// The element at a coordinate (an integer or a hierarchical coordinate, run-time or
    /// static; a static coordinate out of range is a compile error).
    ///
    /// # Panics
    /// When the coordinate's offset is outside the storage (or past `usize`: the offset is
    /// computed checked here, once, so that a wrapped one never lands on an element).
    #[inline(always)]
    pub fn at<C: CrdIdx<S, D, Verdict = V>, V: crate::verdict::Pass>(&self, c: &C) -> &E::Elem {
        let data = self.engine.as_slice();
        &data[checked_offset(self.layout.checked_call_coord(c), data.len())]
    }

    /// The element at a coordinate, writable.
    ///
    /// # Panics
    /// When the coordinate's offset is outside the storage.
    #[inline(always)]
    pub fn at_mut<C: CrdIdx<S, D, Verdict = V>, V: crate::verdict::Pass>(&mut self, c: &C) -> &mut E::Elem
    where
        E: EngineMut,
    {
        let o = self.layout.checked_call_coord(c);
        let data = self.engine.as_mut_slice();
        let len = data.len();
        &mut data[checked_offset(o, len)]
    }

    /// A read-only view of the same elements.
    pub fn view(&self) -> Tensor<&[E::Elem], Layout<S, D>> {
        Tensor { engine: self.engine.as_slice(), layout: self.layout }
    }

    /// A writable view of the same elements.
    pub fn view_mut(&mut self) -> Tensor<&mut [E::Elem], Layout<S, D>>
    where
        E: EngineMut,
    {
        Tensor { engine: self.engine.as_mut_slice(), layout: self.layout }
    }

    /// The same storage under another layout: a divide or a product of this one, as CuTe's
    /// `zipped_divide(tensor, tiler)` / `tiled_divide(tensor, tiler)` of a tensor.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, tensor::Tensor, tiler, zipped_divide};
    /// let data: Vec<u32> = (0..48).collect();
    /// let t = Tensor::new(&data[..], layout!((6,8):(1,6)))?;
    /// // ((tile), (rest)): index i of tile j is i + size(tile) * j
    /// let z = t.with_layout(zipped_divide(*t.layout(), tiler!(<3,4>)))?;
    /// assert_eq!(z.layout().to_string(), "((3,4),(2,2)):((1,6),(3,24))");
    /// assert_eq!(z[1 + 12 * 3], 1 + 3 + 24); // element 1 of tile (1,1)
    /// # Ok::<(), cute_static::tensor::TensorError>(())
    /// ```
    ///
    /// # Errors
    /// [`TensorError::StorageTooSmall`] when the new layout reaches past the storage.
    pub fn with_layout<S2: Congruent<D2>, D2: IntTuple>(
        self,
        layout: Layout<S2, D2>,
    ) -> Result<Tensor<E, Layout<S2, D2>>, TensorError> {
        Tensor::new(self.engine, layout)
    }
}

impl<E: Engine, S: Congruent<D>, D: IntTuple> Tensor<E, Layout<S, D>>
where
    E::Elem: Default,
{
    /// `make_tensor_like(tensor)`: owned storage for a tensor of the same shape, its layout
    /// [`make_layout_like`](crate::make_layout_like) of this one's (compact, in the order of its
    /// strides), sized at compile time, every element `Default`.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, tensor::Tensor};
    /// let data = [0u32; 64];
    /// // CuTe's example in layout.hpp: (2,2,2,2):(0,2,4,1) is its own make_layout_like.
    /// let t = Tensor::new(&data[..], layout!((2,2,2,2):(0,16,32,1)))?.make_tensor_like();
    /// assert_eq!(t.layout().to_string(), "(2,2,2,2):(0,2,4,1)");
    /// assert_eq!(core::mem::size_of_val(&t), 8 * 4); // cosize 8, nothing else
    /// # Ok::<(), cute_static::tensor::TensorError>(())
    /// ```
    pub fn make_tensor_like<M, F, R>(&self) -> Tensor<Owned<E::Elem, CosizeT<S, R>>, Layout<S, R>>
    where
        S: crate::modes::FlattenModes<D, Output = M> + Congruent<R> + crate::layout::MaxIndexT<R>,
        M: crate::modes::FilterZeros<Output = F>,
        F: crate::layout::OrderModes<S, Output = R>,
        R: IntTuple,
        <S as crate::layout::MaxIndexT<R>>::Output: core::ops::Add<typenum::B1>,
        CosizeT<S, R>: ArrayLength,
    {
        make_tensor(crate::make_layout_like(self.layout))
    }

    /// `make_fragment_like(tensor)`: an owned register fragment of the same shape, its layout
    /// [`make_fragment_like`](crate::make_fragment_like) of this one's (mode 0 compact, the other
    /// modes after it in the order of their strides), sized at compile time, every element
    /// `Default`. The shape must be static (a fragment lives in registers).
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, tensor::Tensor};
    /// let data = [0f32; 256];
    /// // A thread's (value, m, n) partition of a row-major tile; CuTe C++ 4.2 gives
    /// // ((_2,_2),_2,_4):((_1,_2),_16,_4).
    /// let part = Tensor::new(&data[..], layout!(((2,2),2,4):((1,8),64,16)))?;
    /// let frg = part.make_fragment_like();
    /// assert_eq!(frg.layout().to_string(), "((2,2),2,4):((1,2),16,4)");
    /// assert_eq!(core::mem::size_of_val(&frg), 32 * 4);
    /// # Ok::<(), cute_static::tensor::TensorError>(())
    /// ```
    pub fn make_fragment_like<FS, FD>(&self) -> Tensor<Owned<E::Elem, CosizeT<FS, FD>>, Layout<FS, FD>>
    where
        Layout<S, D>: crate::product::FragmentLike<Output = Layout<FS, FD>>,
        FS: Congruent<FD> + crate::layout::MaxIndexT<FD>,
        FD: IntTuple,
        <FS as crate::layout::MaxIndexT<FD>>::Output: core::ops::Add<typenum::B1>,
        CosizeT<FS, FD>: ArrayLength,
    {
        make_tensor(crate::product::FragmentLike::fragment_like(self.layout))
    }
}

impl<'a, T, S: Congruent<D>, D: IntTuple> Tensor<&'a [T], Layout<S, D>> {
    /// `domain_offset(coord, tensor)`: the same layout over the storage moved by the layout's
    /// value at `coord` (CuTe C++ `tensor_impl.hpp`: `data() + layout(coord)`): element `c` of
    /// the result is element `coord + c` of this tensor where both are in its domain.
    ///
    /// # Errors
    /// [`TensorError::StorageTooSmall`] when the layout reaches past the storage from there.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, shape, tensor::Tensor};
    /// // A 4x8 window (ld 8) of a 16x8 column-major matrix, moved down 1 row and right 2 columns.
    /// let data: Vec<u32> = (0..128).collect();
    /// let t = Tensor::new(&data[..], layout!((4,8):(1,8)))?;
    /// let u = t.domain_offset(&shape!((1,2)))?;
    /// assert_eq!(*u.at(&shape!((2,3))), *t.at(&shape!((3,5))));
    /// assert_eq!(u[0], 1 + 2 * 8);
    /// # Ok::<(), cute_static::tensor::TensorError>(())
    /// ```
    pub fn domain_offset<C: CrdIdx<S, D, Verdict = V>, V: crate::verdict::Pass>(
        &self,
        coord: &C,
    ) -> Result<Self, TensorError> {
        let off = self.layout.call_coord(coord);
        let engine: &'a [T] = self.engine;
        Tensor::new(&engine[off.min(engine.len())..], self.layout)
    }
}

/// The layout functions of a tensor (CuTe's `flatten(tensor)`, `coalesce(tensor)`,
/// `group_modes<B,E>(tensor)`, `take<B,E>(tensor)`): the same storage under the new layout,
/// checked again as [`Tensor::new`] checks (they reach no new index).
impl<E: Engine, S: Congruent<D>, D: IntTuple> Tensor<E, Layout<S, D>> {
    /// `flatten(tensor)`.
    ///
    /// # Errors
    /// As [`Tensor::new`].
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, tensor::Tensor};
    /// let data: Vec<u32> = (0..24).collect();
    /// let t = Tensor::new(&data[..], layout!(((2,3),4):((1,2),6)))?.flatten()?;
    /// assert_eq!(t.layout().to_string(), "(2,3,4):(1,2,6)");
    /// # Ok::<(), cute_static::tensor::TensorError>(())
    /// ```
    pub fn flatten<S2: Congruent<D2>, D2: IntTuple>(self) -> Result<Tensor<E, Layout<S2, D2>>, TensorError>
    where
        Layout<S, D>: crate::ops::Flatten<Output = Layout<S2, D2>>,
    {
        let l = crate::ops::Flatten::flatten(self.layout);
        Tensor::new(self.engine, l)
    }

    /// `coalesce(tensor)`.
    ///
    /// # Errors
    /// As [`Tensor::new`].
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, tensor::Tensor};
    /// let data: Vec<u32> = (0..12).collect();
    /// // CuTe docs: coalesce((2,(1,6)):(1,(6,2))) is 12:1
    /// let t = Tensor::new(&data[..], layout!((2,(1,6)):(1,(6,2))))?.coalesce()?;
    /// assert_eq!((t.layout().to_string(), t[11]), ("12:1".to_string(), 11));
    /// # Ok::<(), cute_static::tensor::TensorError>(())
    /// ```
    pub fn coalesce<S2: Congruent<D2>, D2: IntTuple>(self) -> Result<Tensor<E, Layout<S2, D2>>, TensorError>
    where
        Layout<S, D>: crate::Coalesce<Output = Layout<S2, D2>>,
    {
        let l = crate::Coalesce::coalesce(self.layout);
        Tensor::new(self.engine, l)
    }

    /// `group_modes<B, E>(tensor)`.
    ///
    /// # Errors
    /// As [`Tensor::new`].
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, tensor::Tensor};
    /// let data: Vec<u32> = (0..24).collect();
    /// let t = Tensor::new(&data[..], layout!((2,3,4):(1,2,6)))?.group_modes::<0, 2, _, _>()?;
    /// assert_eq!(t.layout().to_string(), "((2,3),4):((1,2),6)");
    /// # Ok::<(), cute_static::tensor::TensorError>(())
    /// ```
    pub fn group_modes<const B: usize, const F: usize, S2: Congruent<D2>, D2: IntTuple>(
        self,
    ) -> Result<Tensor<E, Layout<S2, D2>>, TensorError>
    where
        Layout<S, D>: crate::layout::GroupModesOf<B, F, Output = Layout<S2, D2>>,
    {
        let l = crate::layout::GroupModesOf::<B, F>::group_modes_of(&self.layout);
        Tensor::new(self.engine, l)
    }

    /// `take<B, E>(tensor)`: modes `[B, E)` only (the others at coordinate 0).
    ///
    /// # Errors
    /// As [`Tensor::new`].
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, tensor::Tensor};
    /// let data: Vec<u32> = (0..24).collect();
    /// let t = Tensor::new(&data[..], layout!((2,3,4):(1,2,6)))?.take::<1, 3, _, _>()?;
    /// assert_eq!((t.layout().to_string(), t[1]), ("(3,4):(2,6)".to_string(), 2));
    /// # Ok::<(), cute_static::tensor::TensorError>(())
    /// ```
    #[allow(clippy::type_complexity)]
    pub fn take<const B: usize, const F: usize, S2: Congruent<D2>, D2: IntTuple>(
        self,
    ) -> Result<Tensor<E, Layout<S2, D2>>, TensorError>
    where
        S: crate::layout::AsModes,
        D: crate::layout::AsModes,
        crate::layout::ModesS<S>: crate::layout::SplitAt<F, F>,
        crate::layout::ModesS<D>: crate::layout::SplitAt<F, F>,
        <crate::layout::ModesS<S> as crate::layout::SplitAt<F, F>>::Front: crate::layout::SplitAt<B, B, Back = S2>,
        <crate::layout::ModesS<D> as crate::layout::SplitAt<F, F>>::Front: crate::layout::SplitAt<B, B, Back = D2>,
    {
        let l = self.layout.take::<B, F>();
        Tensor::new(self.engine, l)
    }
}

mod sealed {
    pub trait Sealed {}
}

/// A plain numeric element type (cute-dyn's `tensor::Scalar`): no padding and every bit
/// pattern a value, so a slice of one may be read as a slice of another
/// ([`Tensor::recast`]); `Bytes` is its size as a typenum number. Sealed: the primitive
/// integers and floats.
pub trait Scalar: Copy + sealed::Sealed {
    /// `size_of::<Self>()`.
    type Bytes: Unsigned;
}
macro_rules! scalars {
    ($($t:ty => $n:ty),*) => {$(
        impl sealed::Sealed for $t {}
        impl Scalar for $t {
            type Bytes = $n;
        }
    )*};
}
scalars!(u8 => typenum::U1, i8 => typenum::U1, u16 => typenum::U2, i16 => typenum::U2, u32 => typenum::U4,
    i32 => typenum::U4, f32 => typenum::U4, u64 => typenum::U8, i64 => typenum::U8, f64 => typenum::U8,
    u128 => typenum::U16, i128 => typenum::U16);

/// `recast_layout<T, U>(L)` (implemented by the layout): `upcast<N>` when `U` is `N` times wider,
/// `downcast<N>` when `N` times narrower, `L` itself for the same size.
#[doc(hidden)]
pub trait RecastLayout<T, U> {
    /// The recast layout.
    type Output;
    /// Its value.
    fn recast_layout(self) -> Self::Output;
}
impl<L, T: Scalar, U: Scalar> RecastLayout<T, U> for L
where
    T::Bytes: typenum::Cmp<U::Bytes>,
    typenum::Compare<T::Bytes, U::Bytes>: RecastBy<L, T::Bytes, U::Bytes>,
{
    type Output = <typenum::Compare<T::Bytes, U::Bytes> as RecastBy<L, T::Bytes, U::Bytes>>::Output;
    #[inline(always)]
    fn recast_layout(self) -> Self::Output {
        <typenum::Compare<T::Bytes, U::Bytes> as RecastBy<L, T::Bytes, U::Bytes>>::recast_by(self)
    }
}

/// [`RecastLayout`]'s three cases, chosen by `Cmp` of the two sizes `T` and `U`.
#[doc(hidden)]
pub trait RecastBy<L, T, U> {
    /// The recast layout.
    type Output;
    /// Its value.
    fn recast_by(l: L) -> Self::Output;
}
impl<L, T, U> RecastBy<L, T, U> for typenum::Equal {
    type Output = L;
    #[inline(always)]
    fn recast_by(l: L) -> L {
        l
    }
}
impl<L: crate::ops::Upcast<Q>, T, U: DivT<T, Output = Q>, Q: Default> RecastBy<L, T, U> for typenum::Less {
    type Output = L::Output;
    #[inline(always)]
    fn recast_by(l: L) -> L::Output {
        l.upcast(Q::default())
    }
}
impl<L: crate::ops::Downcast<Q>, T: DivT<U, Output = Q>, U, Q: Default> RecastBy<L, T, U> for typenum::Greater {
    type Output = L::Output;
    #[inline(always)]
    fn recast_by(l: L) -> L::Output {
        l.downcast(Q::default())
    }
}

/// `align_to`'s prefix must be empty: the storage starts aligned for `U`.
fn aligned<T, U>(head: &[T]) -> Result<(), TensorError> {
    if head.is_empty() {
        Ok(())
    } else {
        Err(TensorError::Misaligned { align: core::mem::align_of::<U>() })
    }
}

impl<'a, T: Scalar, S: Congruent<D>, D: IntTuple> Tensor<&'a [T], Layout<S, D>> {
    /// `recast<U>(tensor)`: the same bytes read as `U`, under `recast_layout<T, U>` of the
    /// layout: upcast when `U` is wider, downcast when narrower, computed by the type checker (a
    /// static stride that does not divide is a compile error, as for `upcast`). Static extents
    /// may have run-time strides (a tile of a global tensor): those are divided or multiplied
    /// when it runs, as [`upcast`](crate::upcast) and [`downcast`](crate::downcast) do.
    ///
    /// # Errors
    /// [`TensorError::Misaligned`] when the storage does not start at an address aligned for
    /// `U`; [`TensorError::StorageTooSmall`] when the recast layout reaches past it;
    /// [`TensorError::Algebra`] when a run-time stride refuses the recast (`upcast`'s and
    /// `downcast`'s errors).
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, tensor::Tensor};
    /// let data: Vec<u32> = (0..8).collect();
    /// let t = Tensor::new(&data[..], layout!((2,4):(4,1)))?;
    /// // CuTe C++ 4.2's recast_layout<uint32_t, uint16_t>: (_2,_8):(_8,_1).
    /// let h = t.recast::<u16, _, _>()?;
    /// assert_eq!(h.layout().to_string(), "(2,8):(8,1)");
    /// let b = data[1].to_ne_bytes();
    /// assert_eq!((h[4], h[6]), (u16::from_ne_bytes([b[0], b[1]]), u16::from_ne_bytes([b[2], b[3]])));
    /// // And back: two u16s are one u32 (C++: (_2,_4):(_4,_1)).
    /// let w = h.recast::<u32, _, _>()?;
    /// assert_eq!((w.layout().to_string(), w[3]), ("(2,4):(4,1)".to_string(), data[5]));
    /// // A row-major tile of u16 with a run-time leading dimension, read as u32 pairs: the
    /// // leading dimension counts u32s then; one of odd length has rows that split a pair.
    /// let ld = 32;
    /// let halves: Vec<u16> = (0..8 * ld as u16).collect();
    /// let t = Tensor::new(&halves[..], cute_static::layout!((8,16):({ld},1)))?;
    /// let w = t.recast::<u32, _, _>()?;
    /// assert_eq!(w.layout().to_string(), "(8,8):({16},1)");
    /// let b = [halves[2 * 32 + 6].to_ne_bytes(), halves[2 * 32 + 7].to_ne_bytes()];
    /// assert_eq!(w[2 + 8 * 3], u32::from_ne_bytes([b[0][0], b[0][1], b[1][0], b[1][1]]));
    /// let ld = 33;
    /// let t = Tensor::new(&halves[..], cute_static::layout!((8,16):({ld},1)))?;
    /// assert!(t.recast::<u32, _, _>().is_err());
    /// # Ok::<(), cute_static::tensor::TensorError>(())
    /// ```
    pub fn recast<U: Scalar, S2: Congruent<D2>, D2: IntTuple>(
        &self,
    ) -> Result<Tensor<&'a [U], Layout<S2, D2>>, TensorError>
    where
        Layout<S, D>: RecastLayout<T, U>,
        <Layout<S, D> as RecastLayout<T, U>>::Output: Checked<Layout = Layout<S2, D2>>,
    {
        let layout = RecastLayout::<T, U>::recast_layout(self.layout).checked().map_err(TensorError::Algebra)?;
        let data: &'a [T] = self.engine;
        // SAFETY: `T` and `U` are `Scalar`: primitive integers or floats, with no padding and
        // every bit pattern a valid value, so the initialized bytes of `data` are valid `U`s;
        // `align_to` returns a middle slice aligned for `U` within `data`'s bytes, borrowed for
        // `data`'s lifetime.
        let (head, mid, _) = unsafe { data.align_to::<U>() };
        aligned::<T, U>(head)?;
        Tensor::new(mid, layout)
    }
}

impl<T: Scalar, S: Congruent<D>, D: IntTuple> Tensor<&mut [T], Layout<S, D>> {
    /// [`Tensor::recast`], writable: the same bytes written as `U`.
    ///
    /// # Errors
    /// As [`Tensor::recast`].
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, tensor::Tensor};
    /// let mut data = vec![0u16; 8];
    /// let mut t = Tensor::new(&mut data[..], layout!(8:1))?;
    /// let mut w = t.recast_mut::<u32, _, _>()?; // 4:1 of u32
    /// w[1] = u32::from_ne_bytes([1, 0, 2, 0]);
    /// assert_eq!(data[2..4], [u16::from_ne_bytes([1, 0]), u16::from_ne_bytes([2, 0])]);
    /// # Ok::<(), cute_static::tensor::TensorError>(())
    /// ```
    pub fn recast_mut<U: Scalar, S2: Congruent<D2>, D2: IntTuple>(
        &mut self,
    ) -> Result<Tensor<&mut [U], Layout<S2, D2>>, TensorError>
    where
        Layout<S, D>: RecastLayout<T, U>,
        <Layout<S, D> as RecastLayout<T, U>>::Output: Checked<Layout = Layout<S2, D2>>,
    {
        let layout = RecastLayout::<T, U>::recast_layout(self.layout).checked().map_err(TensorError::Algebra)?;
        // SAFETY: as `recast`: `T` and `U` are `Scalar` (no padding, every bit pattern valid both
        // ways, so writes of `U` leave valid `T`s); `align_to_mut` returns an aligned middle
        // within the storage's bytes, exclusively borrowed for the returned tensor's life.
        let (head, mid, _) = unsafe { self.engine.align_to_mut::<U>() };
        aligned::<T, U>(head)?;
        Tensor::new(mid, layout)
    }
}

/// `local_tile(layout, tiler, coord)` (cute-dyn's `tensor::local_tile` without projections):
/// `zipped_divide(layout, tiler)`, its rest mode sliced at the run-time tile coordinate `coord`
/// (an index or a coordinate of the grid of tiles, where `_` keeps a mode, as C++'s
/// `make_coord(bx, by, _)`); the tile's layout (followed by the kept modes) and its offset. As
/// C++, the coordinate is not checked against the grid (a tensor checks the tile against its
/// storage: [`Tensor::with_layout`]).
///
/// A static layout of any nesting is divided by the type checker and the result is the pair
/// itself. A layout with run-time leaves (a matrix of run-time extents, its tiled modes leaves)
/// is divided when it runs, as [`ZippedDivide`](crate::ZippedDivide) does, and the result is a
/// `Result` ([`Checked::Then`]).
///
/// # Examples
/// ```
/// use cute_static::{layout, tensor::local_tile, tiler, Cons, Nil};
/// // A hierarchical (6,(2,4)):(8,(1,2)) layout by <3,(2,2):(1,2)>, tile (1,1): CuTe C++ 4.2's
/// // local_tile gives (_3,(_2,_2)):(_8,(_1,_2)), its data 28 elements in.
/// let (tile, offset) = local_tile(layout!((6,(2,4)):(8,(1,2))), tiler!(<3,(2,2):(1,2)>), &Cons(1usize, Cons(1usize, Nil)));
/// assert_eq!((tile.to_string(), offset), ("(3,(2,2)):(8,(1,2))".to_string(), 28));
///
/// // A CTA's <32,64> tile of an M x N column-major matrix of run-time extents, at CTA (1,2):
/// // the tile is (32,64):(1,M) with static extents, its data 32 + 2 * 64 * M elements in.
/// let (m, n) = (128, 256);
/// let (tile, offset) = local_tile(layout!(({m},{n}):(1,{m})), tiler!(<32,64>), &Cons(1usize, Cons(2usize, Nil)))?;
/// assert_eq!((tile.to_string(), offset), ("(32,64):(1,{128})".to_string(), 32 + 2 * 64 * 128));
///
/// // C++'s `_` keeps a mode of the grid (`make_coord(bx, _)`): the (32,4) tiles of rows 96..128,
/// // every k tile, as one (32,4,4) layout (a k loop indexes its last mode).
/// use cute_static::Under;
/// let (tile, offset) = local_tile(layout!((128,16):(1,128)), tiler!(<32,4>), &Cons(3usize, Cons(Under, Nil)));
/// assert_eq!((tile.to_string(), offset), ("(32,4,4):(1,128,512)".to_string(), 96));
/// # Ok::<(), cute_static::error::Error>(())
/// ```
pub fn local_tile<L: LocalTile<T, C, Output = R>, T, C, R>(layout: L, tiler: T, coord: &C) -> R {
    // (The result a parameter, not the projection: a refused tile is reported once.)
    layout.local_tile(tiler, coord)
}

/// [`local_tile`] as a trait, implemented by the layout: one bound in generic code
/// (`L: LocalTile<T, C>`), whatever the tiler and the layout's static and run-time leaves.
#[diagnostic::on_unimplemented(
    message = "`local_tile` of this layout by this tiler is not known to be defined",
    label = "where the layout is generic, add the bound `LocalTile<Tiler, Coord>` for it",
    note = "local_tile needs a layout the tiler divides (`ZippedDivide`) and a coordinate of the grid of tiles"
)]
pub trait LocalTile<T, C>: Copy {
    /// The tile's layout and its offset: `(Layout, usize)` where the type checker divided, a
    /// `Result` of it where the divide runs ([`Checked::Then`]).
    type Output;
    /// The tile's layout (evaluated, printed and converted with no further bound).
    type Tile: crate::LayoutFn;
    /// `local_tile(self, tiler, coord)`.
    fn local_tile(self, tiler: T, coord: &C) -> Self::Output;
    /// `local_tile(self, tiler, coord)` as a `Result` whatever the leaves: generic code written
    /// once for static and run-time layouts writes `l.try_local_tile(t, &c)?` (for a static
    /// layout it is always `Ok`, and costs nothing).
    ///
    /// # Errors
    /// Where the divide runs, its error.
    fn try_local_tile(self, tiler: T, coord: &C) -> Result<(Self::Tile, usize), crate::error::Error>;
}

// The divide's plan and verdict, bound directly (not through `ZippedDivide`): a tiler that
// does not divide is reported as `local_tile`'s, one "required for" step shorter.
#[allow(clippy::type_complexity)]
impl<L, T, C, P, V, Z, TS, TD, RS, RD, KS, KD> LocalTile<T, C> for L
where
    L: crate::ops::Arranged<crate::ops::Zip, crate::ops::DivideOp, T, Out = (P, V)>,
    V: crate::verdict::Pass,
    P: crate::ops::Run<L, T, Output = Z>,
    Z: Checked<Layout = Layout<Cons<TS, Cons<RS, Nil>>, Cons<TD, Cons<RD, Nil>>>>,
    TS: Congruent<TD> + Splice,
    TD: IntTuple + Splice,
    <TS as Splice>::Output: crate::int_tuple::Concat<KS>,
    <TD as Splice>::Output: crate::int_tuple::Concat<KD>,
    Joined<TS, KS>: Congruent<Joined<TD, KD>>,
    Joined<TD, KD>: IntTuple,
    RS: Congruent<RD> + Copy,
    RD: IntTuple + Copy,
    C: TileCoord<RS, RD, Shape = KS, Stride = KD>,
    L: Copy,
{
    type Output = <Z as Checked>::Then<(Self::Tile, usize)>;
    type Tile = Layout<Joined<TS, KS>, Joined<TD, KD>>;
    #[inline(always)]
    fn local_tile(self, tiler: T, coord: &C) -> Self::Output {
        #[allow(clippy::let_unit_value)]
        let () = <V as crate::verdict::Pass>::CHECK;
        P::run(self, tiler).then(|z| tile_at(z, coord))
    }
    #[inline(always)]
    fn try_local_tile(self, tiler: T, coord: &C) -> Result<(Self::Tile, usize), crate::error::Error> {
        #[allow(clippy::let_unit_value)]
        let () = <V as crate::verdict::Pass>::CHECK;
        P::run(self, tiler).checked().map(|z| tile_at(z, coord))
    }
}

/// A tile's modes (spliced) followed by the kept modes `K` of the grid.
type Joined<X, K> = <<X as Splice>::Output as crate::int_tuple::Concat<K>>::Output;

/// The tile mode of a zipped divide, followed by the rest modes `coord` keeps (its `_`), and
/// the offset of the tile at `coord`'s integers: C++'s `tensor_tiled(repeat<R0>(_), coord)`.
#[inline(always)]
#[allow(clippy::type_complexity)]
fn tile_at<TS, TD, RS, RD, C, KS, KD>(
    z: Layout<Cons<TS, Cons<RS, Nil>>, Cons<TD, Cons<RD, Nil>>>,
    coord: &C,
) -> (Layout<Joined<TS, KS>, Joined<TD, KD>>, usize)
where
    TS: Congruent<TD> + Splice,
    TD: IntTuple + Splice,
    <TS as Splice>::Output: crate::int_tuple::Concat<KS>,
    <TD as Splice>::Output: crate::int_tuple::Concat<KD>,
    Joined<TS, KS>: Congruent<Joined<TD, KD>>,
    Joined<TD, KD>: IntTuple,
    RS: Congruent<RD> + Copy,
    RD: IntTuple + Copy,
    C: TileCoord<RS, RD, Shape = KS, Stride = KD>,
{
    let (s, d) = (z.shape(), z.stride());
    let (ks, kd, offset) = coord.tile_coord(&s.1 .0, &d.1 .0);
    use crate::int_tuple::Concat;
    (Layout::new(s.0.splice().concat(ks), d.0.splice().concat(kd)), offset)
}

/// A coordinate of the grid of tiles in [`local_tile`]: an index or a coordinate per rest
/// mode, where C++'s `_` keeps the mode (`(bx, by, _)`: the tiles of a CTA's row along `k`);
/// implemented by the coordinate. An integer coordinate is not checked against the grid, as
/// C++'s (a tensor checks the tile against its storage); a static one is, at compile time.
#[doc(hidden)]
pub trait TileCoord<RS, RD> {
    /// The kept modes' shapes.
    type Shape;
    /// The kept modes' strides.
    type Stride;
    /// The kept modes and the offset of the fixed ones (saturating: an offset past `usize` is
    /// never a valid one, and a caller may trust it).
    fn tile_coord(&self, rs: &RS, rd: &RD) -> (Self::Shape, Self::Stride, usize);
}
/// An index into the whole grid: nothing kept.
impl<RS: Congruent<RD>, RD: IntTuple> TileCoord<RS, RD> for usize {
    type Shape = Nil;
    type Stride = Nil;
    #[inline(always)]
    fn tile_coord(&self, rs: &RS, rd: &RD) -> (Nil, Nil, usize) {
        (Nil, Nil, self.offset::<Option<usize>>(rs, rd).unwrap_or(usize::MAX))
    }
}
/// No more modes.
impl TileCoord<Nil, Nil> for Nil {
    type Shape = Nil;
    type Stride = Nil;
    #[inline(always)]
    fn tile_coord(&self, _: &Nil, _: &Nil) -> (Nil, Nil, usize) {
        (Nil, Nil, 0)
    }
}
/// `_`: the mode is kept.
impl<CT: TileCoord<ST, DT>, S: Copy, ST, D: Copy, DT> TileCoord<Cons<S, ST>, Cons<D, DT>> for Cons<crate::Under, CT> {
    type Shape = Cons<S, CT::Shape>;
    type Stride = Cons<D, CT::Stride>;
    #[inline(always)]
    fn tile_coord(&self, rs: &Cons<S, ST>, rd: &Cons<D, DT>) -> (Self::Shape, Self::Stride, usize) {
        let (ks, kd, off) = self.1.tile_coord(&rs.1, &rd.1);
        (Cons(rs.0, ks), Cons(rd.0, kd), off)
    }
}
/// A coordinate of the mode (an index, a static index checked against it, or a tuple): fixed.
macro_rules! fixed_tile_coord {
    ($([$($g:ident: $b:path),*] $ty:ty);*) => {$(
        impl<CT: TileCoord<ST, DT>, S, ST, D, DT, $($g: $b),*> TileCoord<Cons<S, ST>, Cons<D, DT>> for Cons<$ty, CT>
        where
            $ty: Coord<S, D>,
        {
            type Shape = CT::Shape;
            type Stride = CT::Stride;
            #[inline(always)]
            fn tile_coord(&self, rs: &Cons<S, ST>, rd: &Cons<D, DT>) -> (Self::Shape, Self::Stride, usize) {
                let (ks, kd, off) = self.1.tile_coord(&rs.1, &rd.1);
                let here = self.0.offset::<Option<usize>>(&rs.0, &rd.0).and_then(|x| x.checked_add(off));
                (ks, kd, here.unwrap_or(usize::MAX))
            }
        }
    )*};
}
fixed_tile_coord!(
    [] usize;
    [] typenum::UTerm;
    [U: Unsigned, B: typenum::Bit] typenum::UInt<U, B>;
    [H: Copy, T: Copy] Cons<H, T>
);

/// `dice(proj, x)`: the modes of a list kept by a projection (C++'s `Step<_1,X,_1>`, written
/// here as a list of `B1`, keep, and `B0`, C++'s `X`: `Cons<B1, Cons<B0, Cons<B1, Nil>>>`),
/// implemented by the list (a tiler's elements or a coordinate).
#[doc(hidden)]
pub trait Dice<P> {
    /// The kept modes.
    type Output;
    /// Their value.
    fn dice(self) -> Self::Output;
}
impl Dice<Nil> for Nil {
    type Output = Nil;
    #[inline(always)]
    fn dice(self) -> Nil {
        Nil
    }
}
impl<H, T: Dice<PT>, PT> Dice<Cons<typenum::B1, PT>> for Cons<H, T> {
    type Output = Cons<H, T::Output>;
    #[inline(always)]
    fn dice(self) -> Self::Output {
        Cons(self.0, self.1.dice())
    }
}
impl<H, T: Dice<PT>, PT> Dice<Cons<typenum::B0, PT>> for Cons<H, T> {
    type Output = T::Output;
    #[inline(always)]
    fn dice(self) -> Self::Output {
        self.1.dice()
    }
}

/// `local_tile(layout, tiler, coord, proj)`: [`local_tile`] of the tiler's and the
/// coordinate's modes that the projection keeps (C++'s `local_tile(tensor, tiler, coord,
/// Step<_1,X,_1>{})`: a CTA's `(BM,BN,BK)` tile projected onto `A`, `B` or `C`).
///
/// # Examples
/// ```
/// use cute_static::{layout, tensor::local_tile_projected, tiler, Cons, Nil, typenum::{B0, B1}};
/// // A's (M,K) tile of a CTA tiler <4,8,2> at CTA coordinate (1,0,3), projected by
/// // Step<_1,X,_1>: the (4,2) tile at (1,3); CuTe C++ 4.2: (_4,_2):(_1,_16) at 4 + 6 * 16.
/// let a = layout!((16,8):(1,16));
/// let step = Cons(B1, Cons(B0, Cons(B1, Nil))); // Step<_1,X,_1>
/// let coord = Cons(1usize, Cons(0usize, Cons(3usize, Nil)));
/// let (tile, offset) = local_tile_projected(a, tiler!(<4,8,2>), &coord, step);
/// assert_eq!((tile.to_string(), offset), ("(4,2):(1,16)".to_string(), 4 + 6 * 16));
/// ```
pub fn local_tile_projected<L, T, C, P, TT, CC>(
    layout: L,
    tiler: crate::ByMode<T>,
    coord: &C,
    _proj: P,
) -> <L as LocalTile<crate::ByMode<TT>, CC>>::Output
where
    T: Dice<P, Output = TT>,
    C: Dice<P, Output = CC> + Copy,
    L: LocalTile<crate::ByMode<TT>, CC>,
{
    layout.local_tile(crate::ByMode(tiler.0.dice()), &coord.dice())
}

/// `local_partition(layout, threads, index)` (cute-dyn's `tensor::local_partition` without
/// projections): `zipped_divide(layout, product_each(shape(threads)))` (by the type checker for
/// a static layout of any nesting; when it runs for a layout with run-time leaves, as
/// [`local_tile`]), its tile mode sliced at the coordinate of
/// thread `index` in `threads` (C++'s `get_flat_coord`: `(index / stride) % extent` in each
/// mode); the thread's part of the layout and its offset. `threads` is a static layout of
/// tuple shape (`(4):(1)` for four threads in a row).
///
/// # Errors
/// [`TensorError::ThreadOutOfRange`] for an `index` past `cosize(threads)`,
/// [`TensorError::ThreadNotReached`] where `threads` maps C++'s coordinate of `index` to
/// another index (C++ goes on with that thread's part), [`TensorError::BroadcastThreads`] for
/// a stride 0 (by which C++ divides); [`TensorError::Algebra`] when the divide refuses
/// run-time values.
///
/// # Examples
/// ```
/// use cute_static::{layout, tensor::local_partition};
/// // CuTe's comment in tensor_impl.hpp: a (16,64) tensor over 2x16 threads gives (8,4);
/// // thread 17 there: C++ 4.2 prints (_8,_4):(_2,_256), its data 17 elements in.
/// let (part, offset) = local_partition(layout!((16,64):(1,16)), layout!((2,16):(16,1)), 17)?;
/// assert_eq!((part.to_string(), offset), ("(8,4):(2,256)".to_string(), 1 + 16));
/// # Ok::<(), cute_static::tensor::TensorError>(())
/// ```
pub fn local_partition<L: LocalPartition<Thr>, Thr>(
    layout: L,
    threads: Thr,
    index: usize,
) -> Result<(L::Output, usize), TensorError> {
    layout.local_partition(threads, index)
}

/// [`local_partition`] as a trait, implemented by the layout: one bound in generic code
/// (`L: LocalPartition<Thr>`).
#[diagnostic::on_unimplemented(
    message = "`local_partition` of this layout over this thread layout is not known to be defined",
    label = "where the layout is generic, add the bound `LocalPartition<ThreadLayout>` for it",
    note = "local_partition needs a layout the thread layout's extents divide (`ZippedDivide`)"
)]
pub trait LocalPartition<Thr>: Copy {
    /// The thread's part of the layout (evaluated, printed and converted with no further
    /// bound).
    type Output: crate::LayoutFn;
    /// `local_partition(self, threads, index)`: the part and its offset.
    ///
    /// # Errors
    /// As [`local_partition`].
    fn local_partition(self, threads: Thr, index: usize) -> Result<(Self::Output, usize), TensorError>;
}

#[allow(clippy::type_complexity)]
impl<L, TS, TD, Z, PS, PD, RS, RD> LocalPartition<Layout<TS, TD>> for L
where
    TS: Congruent<TD> + ProductEach,
    TD: IntTuple,
    L: crate::ops::ZippedDivide<crate::ByMode<<TS as ProductEach>::Output>, Output = Z>,
    Z: Checked<Layout = Layout<Cons<PS, Cons<RS, Nil>>, Cons<PD, Cons<RD, Nil>>>>,
    PS: Congruent<PD> + Copy,
    PD: IntTuple + Copy,
    RS: Congruent<RD> + Splice,
    RD: IntTuple + Splice,
    <RS as Splice>::Output: Congruent<<RD as Splice>::Output>,
    <RD as Splice>::Output: IntTuple,
{
    type Output = Layout<<RS as Splice>::Output, <RD as Splice>::Output>;
    fn local_partition(self, threads: Layout<TS, TD>, index: usize) -> Result<(Self::Output, usize), TensorError> {
        // The thread's colexicographic index j in its shape, the index of the same coordinate
        // in the tile mode (whose shape is the threads' per-mode sizes).
        let j = thread_index(&threads, index)?;
        let z = self.zipped_divide(crate::ByMode(Default::default())).checked().map_err(TensorError::Algebra)?;
        let (s, d) = (z.shape(), z.stride());
        Ok((Layout::new(s.1 .0.splice(), d.1 .0.splice()), Layout::new(s.0, d.0).call(j)))
    }
}

/// `local_partition(layout, threads, index, proj)`: [`local_partition`] over the modes of a flat
/// thread layout that the projection keeps (C++: the thread's coordinate in `threads`, then
/// `outer_partition` by the kept modes' extents at the kept coordinates: an `(M,N,K)` thread
/// layout projected onto `A`, `B` or `C`).
///
/// # Errors
/// As [`local_partition`].
///
/// # Examples
/// ```
/// use cute_static::{layout, tensor::local_partition_projected, Cons, Nil, typenum::{B0, B1}};
/// // Threads (2,4,1):(4,1,0) over (M,N,K), projected onto C (M,N) by Step<_1,_1,X>: thread 5
/// // is (1,1) of (2,4):(4,1); its part of a (8,8):(1,8) C (CuTe C++ 4.2: (_4,_2):(_2,_32) at
/// // 9).
/// let step = Cons(B1, Cons(B1, Cons(B0, Nil)));
/// let (part, offset) = local_partition_projected(layout!((8,8):(1,8)), layout!((2,4,1):(4,1,0)), 5, step)?;
/// assert_eq!((part.to_string(), offset), ("(4,2):(2,32)".to_string(), 9));
/// # Ok::<(), cute_static::tensor::TensorError>(())
/// ```
#[allow(clippy::type_complexity)]
pub fn local_partition_projected<L, TS, TD, P, US, Z, PS, PD, RS, RD>(
    layout: L,
    threads: Layout<TS, TD>,
    index: usize,
    _proj: P,
) -> Result<(Layout<<RS as Splice>::Output, <RD as Splice>::Output>, usize), TensorError>
where
    TS: Congruent<TD> + FlatCoord + Dice<P, Output = US>,
    TD: IntTuple,
    P: Keeps,
    US: ProductEach,
    L: crate::ops::ZippedDivide<crate::ByMode<<US as ProductEach>::Output>, Output = Z>,
    Z: Checked<Layout = Layout<Cons<PS, Cons<RS, Nil>>, Cons<PD, Cons<RD, Nil>>>>,
    PS: Congruent<PD> + Copy,
    PD: IntTuple + Copy,
    RS: Congruent<RD> + Splice,
    RD: IntTuple + Splice,
    <RS as Splice>::Output: Congruent<<RD as Splice>::Output>,
    <RD as Splice>::Output: IntTuple,
{
    // C++: the thread's coordinate in the whole thread layout, then the kept modes of it (the
    // threads that differ only in a dropped mode share a part).
    let c = thread_coord(&threads, index)?;
    let (mut e, mut keep) = ([0; MAX_MODES], [false; MAX_MODES]);
    threads.shape().extents(&mut e, 0);
    P::keeps(&mut keep, 0);
    let (mut idx, mut scale) = (0, 1);
    for m in (0..MAX_MODES).filter(|&m| keep[m]) {
        idx += c[m] * scale;
        scale *= e[m];
    }
    let z = layout.zipped_divide(crate::ByMode(Default::default())).checked().map_err(TensorError::Algebra)?;
    let (s, d) = (z.shape(), z.stride());
    Ok((Layout::new(s.1 .0.splice(), d.1 .0.splice()), Layout::new(s.0, d.0).call(idx)))
}

/// The modes a projection (a list of `B1` and `B0`) keeps, at run time.
#[doc(hidden)]
pub trait Keeps {
    /// Write `true` for each kept mode from `mode` on.
    fn keeps(out: &mut [bool; MAX_MODES], mode: usize);
}
impl Keeps for Nil {
    fn keeps(_: &mut [bool; MAX_MODES], _: usize) {}
}
impl<B: typenum::Bit, T: Keeps> Keeps for Cons<B, T> {
    fn keeps(out: &mut [bool; MAX_MODES], mode: usize) {
        if mode < MAX_MODES {
            out[mode] = B::BOOL;
        }
        T::keeps(out, mode + 1);
    }
}

/// The cosize of a static layout type as a constant, e.g. the size of a shared-memory
/// declaration: `<Layout![(32,32):(33,1)] as CosizeConst>::COSIZE == 32 * 33 - 32`.
///
/// # Examples
/// ```
/// use cute_static::{tensor::CosizeConst, Layout};
/// assert_eq!(<Layout![(32,32):(33,1)] as CosizeConst>::COSIZE, 31 * 33 + 31 + 1);
/// ```
pub trait CosizeConst {
    /// `cosize(L)`.
    const COSIZE: usize;
}
impl<S, D> CosizeConst for Layout<S, D>
where
    S: Congruent<D> + crate::layout::MaxIndexT<D>,
    D: IntTuple,
    <S as crate::layout::MaxIndexT<D>>::Output: core::ops::Add<typenum::B1>,
    CosizeT<S, D>: Unsigned,
{
    const COSIZE: usize = <CosizeT<S, D> as Unsigned>::USIZE;
}

/// `make_tensor<T>(layout)`: owned storage of exactly `cosize(layout)` elements, sized at
/// compile time (no check needed), default-initialized: a shared-memory tile or a register
/// fragment.
///
/// # Examples
/// ```
/// use cute_static::{layout, shape, tensor::make_tensor};
/// let mut smem = make_tensor::<f32, _, _>(layout!((8,4):(1,8)));
/// assert_eq!(core::mem::size_of_val(&smem), 32 * 4); // the elements, nothing else
/// smem[9] = 2.5; // (1,1)
/// assert_eq!(*smem.at(&shape!((1,1))), 2.5);
/// ```
pub fn make_tensor<T: Default, S, D>(layout: Layout<S, D>) -> Tensor<Owned<T, CosizeT<S, D>>, Layout<S, D>>
where
    S: Congruent<D> + crate::layout::MaxIndexT<D>,
    D: IntTuple,
    <S as crate::layout::MaxIndexT<D>>::Output: core::ops::Add<typenum::B1>,
    CosizeT<S, D>: ArrayLength,
{
    Tensor { engine: GenericArray::default(), layout }
}

/// `tensor[i]`: the element at index `i < size` (colexicographic), without a bounds check on
/// the offset (construction proved `L(i) < len`).
impl<E: Engine, S: Congruent<D>, D: IntTuple> Index<usize> for Tensor<E, Layout<S, D>> {
    type Output = E::Elem;
    #[inline(always)]
    fn index(&self, i: usize) -> &E::Elem {
        assert!(i < self.size(), "index {i} out of range for a tensor of size {}", self.size());
        let o = self.layout.call(i);
        // SAFETY: `new` checked that size and cosize = 1 + sum((s-1)*d) fit in usize and that
        // cosize <= len (or the storage is sized by the static cosize). For i < size each
        // coordinate c_k < s_k, so every term c_k*d_k <= (s_k-1)*d_k and the sum L(i) cannot
        // wrap: o = L(i) <= cosize - 1 < len. The layout is private and never changes after
        // `new`, and `Engine` promises the same slice every time.
        unsafe { self.engine.as_slice().get_unchecked(o) }
    }
}

impl<E: EngineMut, S: Congruent<D>, D: IntTuple> IndexMut<usize> for Tensor<E, Layout<S, D>> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut E::Elem {
        assert!(i < self.size(), "index {i} out of range for a tensor of size {}", self.size());
        let o = self.layout.call(i);
        // SAFETY: as in `index`.
        unsafe { self.engine.as_mut_slice().get_unchecked_mut(o) }
    }
}

// ------------------------------------------------------------------------------------------
// Tiles and partitions of flat (rank-n, leaf-mode) tensors.
// ------------------------------------------------------------------------------------------

/// A static tile shape over the modes of a flat layout (implemented by the tile's shape list,
/// against the tensor's shape and stride lists).
#[doc(hidden)]
pub trait TileOver<S, D> {
    /// Check the tile coordinate `c` (one per mode) and give the tile's offset. With `residue`
    /// (pointer tensors, as CuTe C++), the tile need not divide the extent (the last tile of a
    /// ragged mode reaches past it, and a kernel predicates it), the coordinate is not checked,
    /// and the offset wraps as the pointer arithmetic it becomes does.
    ///
    /// # Errors
    /// [`TensorError::TileDivisibility`], [`TensorError::TileOutOfRange`] (without `residue`).
    fn tile_offset(s: &S, d: &D, c: &[usize], mode: usize, residue: bool) -> Result<usize, TensorError>;
}
impl TileOver<Nil, Nil> for Nil {
    #[inline(always)]
    fn tile_offset(_: &Nil, _: &Nil, _: &[usize], _: usize, _: bool) -> Result<usize, TensorError> {
        Ok(0)
    }
}
impl<T: Unsigned, TT: TileOver<ST, DT>, S: Leaf, ST, D: Leaf, DT> TileOver<Cons<S, ST>, Cons<D, DT>> for Cons<T, TT> {
    #[inline(always)]
    fn tile_offset(
        s: &Cons<S, ST>,
        d: &Cons<D, DT>,
        c: &[usize],
        mode: usize,
        residue: bool,
    ) -> Result<usize, TensorError> {
        let (extent, tile) = (s.0.value(), T::USIZE);
        if tile == 0 || (!residue && extent % tile != 0) {
            return Err(TensorError::TileDivisibility { mode, extent, tile });
        }
        let k = c[mode];
        if !residue && k >= extent / tile {
            return Err(TensorError::TileOutOfRange { mode, coord: k, tiles: extent / tile });
        }
        let rest = TT::tile_offset(&s.1, &d.1, c, mode + 1, residue)?;
        if residue {
            // A pointer tensor's offsets are pointer arithmetic (`wrapping_add`, never a memory
            // access): wrapping here is what the pointer would do, and costs no branch in a
            // kernel's loop.
            return Ok((k * tile).wrapping_mul(d.0.value()).wrapping_add(rest));
        }
        // k * tile < extent, so this is at most the layout's cosize, which `new` checked.
        let here = (k * tile).checked_mul(d.0.value()).ok_or(TensorError::Overflow { what: "offset" })?;
        here.checked_add(rest).ok_or(TensorError::Overflow { what: "offset" })
    }
}

cute_macros::decimal_condition! {
    /// A static extent of a tensor over a slice is a whole number of tiles (a ragged last tile
    /// would reach past the slice). Implemented by `tile | extent`.
    #[doc(hidden)]
    pub trait TileDividesExtent(extent, tile) {
        message = "local_tile: a mode of {extent} elements is not a whole number of {tile}-element tiles",
        label = "the tile does not divide this tensor's static extent",
        note = "a tensor over a slice has no ragged last tile (it would reach past the slice): pad the tensor, tile a pointer tensor and predicate (CuTe's ragged tile), or take a tile that divides",
    }
}

/// The verdict of a static tile shape over a tensor's shape (implemented by the tile's shape
/// list): each static extent a multiple of its tile ([`TileDividesExtent`]); a run-time extent
/// is checked when it runs ([`TensorError::TileDivisibility`]).
#[doc(hidden)]
pub trait TileVerdict<S> {
    /// [`crate::verdict::Holds`], or the first mode's failure.
    type Verdict;
}
impl TileVerdict<Nil> for Nil {
    type Verdict = crate::verdict::Holds;
}
impl<T, TT: TileVerdict<ST>, S: LeafTileVerdict<T>, ST> TileVerdict<Cons<S, ST>> for Cons<T, TT>
where
    S::Verdict: crate::verdict::First<TT::Verdict>,
{
    type Verdict = crate::verdict::FirstOf<S::Verdict, TT::Verdict>;
}
/// A leaf extent's verdict for a tile extent `T`.
#[doc(hidden)]
pub trait LeafTileVerdict<T> {
    /// The verdict.
    type Verdict;
}
impl<T> LeafTileVerdict<T> for usize {
    type Verdict = crate::verdict::Holds;
}
/// An extent of 0 is a whole number (none) of tiles.
impl<T> LeafTileVerdict<T> for typenum::UTerm {
    type Verdict = crate::verdict::Holds;
}
impl<U: Unsigned, B: typenum::Bit, T> LeafTileVerdict<T> for typenum::UInt<U, B>
where
    Self: crate::arith::Divides<T>,
    <Self as crate::arith::Divides<T>>::Output: TileDividesExtent<Self, T>,
{
    type Verdict = <<Self as crate::arith::Divides<T>>::Output as TileDividesExtent<Self, T>>::Verdict;
}

/// The per-thread modes of `local_partition`: a static tile shape divided by a static thread
/// shape, strides scaled by the thread shape.
#[doc(hidden)]
pub trait PartitionOver<TS, D> {
    /// `shape / thread_shape`.
    type Shape: IntTuple;
    /// `thread_shape * stride`.
    type Stride: IntTuple;
    /// The strides, and the offset of the thread at coordinate `t` (one per mode); `None`
    /// where a run-time stride times the thread shape overflows, unless `wrap` (a pointer
    /// tensor's address arithmetic, as C++'s: no branch in a kernel).
    fn partition(d: &D, t: &[usize], mode: usize, wrap: bool) -> Option<(Self::Stride, usize)>;
}
impl PartitionOver<Nil, Nil> for Nil {
    type Shape = Nil;
    type Stride = Nil;
    #[inline(always)]
    fn partition(_: &Nil, _: &[usize], _: usize, _: bool) -> Option<(Nil, usize)> {
        Some((Nil, 0))
    }
}
impl<S, ST, TS, TT, D, DT> PartitionOver<Cons<TS, TT>, Cons<D, DT>> for Cons<S, ST>
where
    S: DivT<TS> + crate::arith::Divides<TS>,
    <S as crate::arith::Divides<TS>>::Output: crate::composition::ShapeDivisibility<S, TS>,
    <<S as crate::arith::Divides<TS>>::Output as crate::composition::ShapeDivisibility<S, TS>>::Check:
        crate::composition::shape_divisibility::Report,
    TS: Unsigned + MulMixed<D>,
    D: Leaf,
    <TS as MulMixed<D>>::Output: IntTuple,
    <S as DivT<TS>>::Output: ModeStride<<TS as MulMixed<D>>::Output>,
    ST: PartitionOver<TT, DT>,
    crate::int_tuple::Cons<ModeStrideOf<S, TS, D>, <ST as PartitionOver<TT, DT>>::Stride>: IntTuple,
    crate::int_tuple::Cons<<S as DivT<TS>>::Output, <ST as PartitionOver<TT, DT>>::Shape>: IntTuple,
{
    type Shape = Cons<<S as DivT<TS>>::Output, ST::Shape>;
    type Stride = Cons<ModeStrideOf<S, TS, D>, ST::Stride>;
    #[inline(always)]
    fn partition(d: &Cons<D, DT>, t: &[usize], mode: usize, wrap: bool) -> Option<(Self::Stride, usize)> {
        let (rest, off) = ST::partition(&d.1, t, mode + 1, wrap)?;
        // k < the thread shape: the offset is at most the tile's cosize (checked by a tensor's
        // `new`; a pointer tensor's wraps as its pointer would).
        let k = t.get(mode).copied().unwrap_or(0);
        let stride = <S as DivT<TS>>::Output::stride(|| match wrap {
            true => Some(TS::default().wrapping_mul(d.0)),
            false => TS::default().checked_mul(d.0),
        })?;
        Some((Cons(stride, rest), k.wrapping_mul(d.0.value()).wrapping_add(off)))
    }
}

/// The stride of a partition's mode whose extent is `S / TS`.
type ModeStrideOf<S, TS, D> = <<S as DivT<TS>>::Output as ModeStride<<TS as MulMixed<D>>::Output>>::Output;

/// A partition mode's stride, by its extent (`Self`): `thread_extent * stride` (`P`), or a
/// static 0 where the mode keeps one element, as C++'s divide (and [`local_partition`]) gives
/// an extent-1 mode.
#[doc(hidden)]
pub trait ModeStride<P> {
    /// `P`, or `U0` for the extent 1.
    type Output: IntTuple;
    /// The stride, from `P`'s (`None`: its overflow).
    fn stride(p: impl FnOnce() -> Option<P>) -> Option<Self::Output>;
}
impl<P> ModeStride<P> for typenum::U1 {
    type Output = typenum::U0;
    #[inline(always)]
    fn stride(_: impl FnOnce() -> Option<P>) -> Option<typenum::U0> {
        Some(typenum::U0::default())
    }
}
impl<P: IntTuple> ModeStride<P> for typenum::U0 {
    type Output = P;
    #[inline(always)]
    fn stride(p: impl FnOnce() -> Option<P>) -> Option<P> {
        p()
    }
}
impl<P: IntTuple, U: Unsigned, B: typenum::Bit, B2: typenum::Bit> ModeStride<P>
    for typenum::UInt<typenum::UInt<U, B>, B2>
{
    type Output = P;
    #[inline(always)]
    fn stride(p: impl FnOnce() -> Option<P>) -> Option<P> {
        p()
    }
}

/// The number of modes of a flat shape, at most 8 (the tiles and partitions of kernels).
pub const MAX_MODES: usize = 8;

/// A tile coordinate has one entry per mode of the tensor (no silent 0 for a missing one).
fn check_coord_rank<S: IntTuple>(coord: &[usize]) -> Result<(), TensorError> {
    if coord.len() != S::RANK {
        return Err(TensorError::CoordRank { given: coord.len(), rank: S::RANK });
    }
    Ok(())
}

impl<'a, T, S: Congruent<D>, D: IntTuple> Tensor<&'a [T], Layout<S, D>> {
    /// `local_tile(tensor, tile, coord)` (CuTe's `inner_partition`): the tile at tile
    /// coordinate `coord` (one per mode) of
    /// a flat tensor cut into static `tile`-shaped blocks, with the tensor's strides (CuTe's
    /// `local_tile` = `zipped_divide` then slicing the rest mode).
    ///
    /// A static extent the tile does not divide is a compile error that names both numbers
    /// (a slice has no ragged last tile: a pointer tensor's tiles may be ragged, predicated
    /// as CuTe's are); a run-time extent is checked when it runs.
    ///
    /// # Errors
    /// [`TensorError::CoordRank`] unless `coord` has one entry per mode;
    /// [`TensorError::TileDivisibility`], [`TensorError::TileOutOfRange`].
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, shape, tensor::Tensor};
    /// let m = 6;
    /// let data: Vec<u32> = (0..48).collect();
    /// let a = Tensor::new(&data[..], layout!(({m},8):(1,{m})))?; // column-major 6x8
    /// let tile = a.local_tile(shape!((3,4)), &[1, 1])?; // rows 3..6, columns 4..8
    /// assert_eq!(tile.layout().to_string(), "(3,4):(1,{6})");
    /// assert_eq!(tile[0], 3 + 4 * 6);
    /// # Ok::<(), cute_static::tensor::TensorError>(())
    /// ```
    #[doc(alias = "inner_partition")]
    pub fn local_tile<
        TS: TileOver<S, D> + Congruent<D> + Default + TileVerdict<S, Verdict = V>,
        V: crate::verdict::Pass,
    >(
        &self,
        _: TS,
        coord: &[usize],
    ) -> Result<Tensor<&'a [T], Layout<TS, D>>, TensorError>
    where
        D: Copy,
    {
        #[allow(clippy::let_unit_value)]
        let () = V::CHECK;
        let (layout, off) = tile_of(&self.layout, coord, false)?;
        let engine: &'a [T] = self.engine;
        Tensor::new(&engine[off.min(engine.len())..], layout)
    }

    /// `local_partition(tile, threads, tid)` (CuTe's `outer_partition` at the thread's
    /// coordinate): the elements of thread `tid` when a flat tile
    /// with a static shape is spread over a static thread layout: every thread owns one
    /// element of each `threads`-shaped block (CuTe's `outer_partition` by the thread's
    /// coordinate). The tile's extents must be multiples of the thread shape (a compile error
    /// otherwise).
    ///
    /// # Errors
    /// [`TensorError::ThreadOutOfRange`] for a `tid` past the thread layout's cosize,
    /// [`TensorError::ThreadNotReached`] and [`TensorError::BroadcastThreads`] as
    /// [`local_partition`];
    /// [`TensorError::Overflow`] where a run-time stride times the thread shape does not fit in
    /// `usize` (a pointer tensor's wraps instead, as its addresses do).
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, tensor::Tensor};
    /// let data: Vec<u32> = (0..32).collect();
    /// let tile = Tensor::new(&data[..], layout!((8,4):(1,8)))?;
    /// // 4x2 threads, column-major: thread 5 is (1,1) and owns rows 1,5 of columns 1,3
    /// let p = tile.local_partition(layout!((4,2):(1,4)), 5)?;
    /// assert_eq!(p.layout().to_string(), "(2,2):(4,16)");
    /// assert_eq!((p[0], p[1], p[2], p[3]), (9, 13, 25, 29));
    /// # Ok::<(), cute_static::tensor::TensorError>(())
    /// ```
    #[doc(alias = "outer_partition")]
    pub fn local_partition<TS, TD>(
        &self,
        threads: Layout<TS, TD>,
        tid: usize,
    ) -> Result<
        Tensor<&'a [T], Layout<<S as PartitionOver<TS, D>>::Shape, <S as PartitionOver<TS, D>>::Stride>>,
        TensorError,
    >
    where
        TS: Congruent<TD> + FlatCoord,
        TD: IntTuple,
        S: PartitionOver<TS, D>,
        <S as PartitionOver<TS, D>>::Shape: Congruent<<S as PartitionOver<TS, D>>::Stride> + Default,
    {
        let (layout, off) = partition_of(&self.layout, &threads, tid, false)?;
        let engine: &'a [T] = self.engine;
        Tensor::new(&engine[off.min(engine.len())..], layout)
    }
}

/// A slicing coordinate (CuTe's `slice(c, layout)` and the offset of `c` with `_` as 0): per mode
/// `_` ([`crate::Under`], keep the mode), a run-time `usize` (fix it; an index into a nested
/// mode), or a nested coordinate list for a nested mode; implemented by the coordinate list. The
/// kept modes are the result's modes, in order (nested ones joined, as C++'s `filter_tuple`).
#[doc(hidden)]
pub trait SliceModes<S, D> {
    /// The kept shapes.
    type Shape: IntTuple;
    /// The kept strides.
    type Stride: IntTuple;
    /// The kept modes and the offset of the fixed coordinates (modes numbered from `mode`).
    ///
    /// # Errors
    /// [`TensorError::TileOutOfRange`] for a fixed coordinate outside its mode.
    fn slice(&self, s: &S, d: &D, mode: usize) -> Result<(Self::Shape, Self::Stride, usize), TensorError>;
}
impl SliceModes<Nil, Nil> for Nil {
    type Shape = Nil;
    type Stride = Nil;
    #[inline(always)]
    fn slice(&self, _: &Nil, _: &Nil, _: usize) -> Result<(Nil, Nil, usize), TensorError> {
        Ok((Nil, Nil, 0))
    }
}
/// `_`: the mode is kept.
impl<CT: SliceModes<ST, DT>, S: IntTuple, ST, D: IntTuple, DT> SliceModes<Cons<S, ST>, Cons<D, DT>>
    for Cons<crate::Under, CT>
where
    CT::Shape: crate::int_tuple::List,
    CT::Stride: crate::int_tuple::List,
{
    type Shape = Cons<S, CT::Shape>;
    type Stride = Cons<D, CT::Stride>;
    #[inline(always)]
    fn slice(
        &self,
        s: &Cons<S, ST>,
        d: &Cons<D, DT>,
        mode: usize,
    ) -> Result<(Self::Shape, Self::Stride, usize), TensorError> {
        let (ks, kd, o) = self.1.slice(&s.1, &d.1, mode + 1)?;
        Ok((Cons(s.0, ks), Cons(d.0, kd), o))
    }
}
/// A run-time coordinate: the mode (a leaf, or a nested mode indexed colexicographically) is
/// fixed, its offset added.
impl<CT: SliceModes<ST, DT>, S: Congruent<D>, ST, D: IntTuple, DT> SliceModes<Cons<S, ST>, Cons<D, DT>>
    for Cons<usize, CT>
{
    type Shape = CT::Shape;
    type Stride = CT::Stride;
    #[inline(always)]
    fn slice(
        &self,
        s: &Cons<S, ST>,
        d: &Cons<D, DT>,
        mode: usize,
    ) -> Result<(Self::Shape, Self::Stride, usize), TensorError> {
        let extent = s.0.checked_product().ok_or(TensorError::Overflow { what: "size" })?;
        if self.0 >= extent {
            return Err(TensorError::TileOutOfRange { mode, coord: self.0, tiles: extent });
        }
        let (ks, kd, o) = self.1.slice(&s.1, &d.1, mode + 1)?;
        let at = crate::layout::CrdIdx::crd2idx(&self.0, &s.0, &d.0);
        Ok((ks, kd, o.checked_add(at).ok_or(TensorError::Overflow { what: "offset" })?))
    }
}
/// A coordinate of a nested mode, itself with `_` in some modes: its kept modes join the kept
/// modes of the whole slice (C++'s `slice((_,(1,_)), (2,(3,4)))` is `(2,4)`), numbered from
/// `mode` on.
impl<CH, CHT, CT, S, ST, D, DT> SliceModes<Cons<S, ST>, Cons<D, DT>> for Cons<Cons<CH, CHT>, CT>
where
    Cons<CH, CHT>: SliceModes<S, D>,
    CT: SliceModes<ST, DT>,
    <Cons<CH, CHT> as SliceModes<S, D>>::Shape: crate::int_tuple::Concat<CT::Shape>,
    <Cons<CH, CHT> as SliceModes<S, D>>::Stride: crate::int_tuple::Concat<CT::Stride>,
    <<Cons<CH, CHT> as SliceModes<S, D>>::Shape as crate::int_tuple::Concat<CT::Shape>>::Output: IntTuple,
    <<Cons<CH, CHT> as SliceModes<S, D>>::Stride as crate::int_tuple::Concat<CT::Stride>>::Output: IntTuple,
{
    type Shape = <<Cons<CH, CHT> as SliceModes<S, D>>::Shape as crate::int_tuple::Concat<CT::Shape>>::Output;
    type Stride = <<Cons<CH, CHT> as SliceModes<S, D>>::Stride as crate::int_tuple::Concat<CT::Stride>>::Output;
    #[inline(always)]
    fn slice(
        &self,
        s: &Cons<S, ST>,
        d: &Cons<D, DT>,
        mode: usize,
    ) -> Result<(Self::Shape, Self::Stride, usize), TensorError> {
        use crate::int_tuple::Concat;
        let (hs, hd, ho) = self.0.slice(&s.0, &d.0, mode)?;
        let (ks, kd, o) = self.1.slice(&s.1, &d.1, mode + 1)?;
        Ok((hs.concat(ks), hd.concat(kd), o.checked_add(ho).ok_or(TensorError::Overflow { what: "offset" })?))
    }
}

impl<'a, T, S: Congruent<D>, D: IntTuple> Tensor<&'a [T], Layout<S, D>> {
    /// `tensor(c)` with `_` in some modes: the sub-tensor of the kept modes at the fixed
    /// coordinates of the others (CuTe's slicing, e.g. `A(_, j)` is column `j`; [`SliceModes`]
    /// for nested coordinates).
    ///
    /// # Errors
    /// [`TensorError::TileOutOfRange`] for a fixed coordinate outside its mode (`tiles` is then
    /// the mode's extent).
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, tensor::Tensor, Cons, Nil, Under};
    /// let data: Vec<u32> = (0..24).collect();
    /// let a = Tensor::new(&data[..], layout!((4,6):(6,1)))?; // row-major 4x6
    /// let col = a.slice(&Cons(Under, Cons(2usize, Nil))); // A(_, 2)
    /// let col = col?;
    /// assert_eq!(col.layout().to_string(), "(4):(6)");
    /// assert_eq!((col[0], col[3]), (2, 3 * 6 + 2));
    /// assert!(a.slice(&Cons(Under, Cons(6usize, Nil))).is_err()); // column 6 of 6
    ///
    /// // CuTe C++ 4.2: (2,(3,4)):(12,(1,3)) sliced at (_,(1,_)) is (_2,_4):(_12,_3), at offset 1.
    /// let data: Vec<u32> = (0..24).collect();
    /// let t = Tensor::new(&data[..], layout!((2,(3,4)):(12,(1,3))))?;
    /// let s = t.slice(&Cons(Under, Cons(Cons(1usize, Cons(Under, Nil)), Nil)))?;
    /// assert_eq!((s.layout().to_string(), s[0]), ("(2,4):(12,3)".to_string(), 1));
    /// // ... and at (_,5), 5 an index into (3,4): (_2):(_12) at offset 5.
    /// let s = t.slice(&Cons(Under, Cons(5usize, Nil)))?;
    /// assert_eq!((s.layout().to_string(), s[0]), ("(2):(12)".to_string(), 5));
    /// # Ok::<(), cute_static::tensor::TensorError>(())
    /// ```
    pub fn slice<C: SliceModes<S, D>>(&self, c: &C) -> Result<Tensor<&'a [T], Layout<C::Shape, C::Stride>>, TensorError>
    where
        C::Shape: Congruent<C::Stride>,
    {
        let (layout, off) = slice_of(&self.layout, c)?;
        let engine: &'a [T] = self.engine;
        Tensor::new(&engine[off.min(engine.len())..], layout)
    }
}

/// A flat shape's colexicographic split of an index, as per-mode coordinates.
#[doc(hidden)]
pub trait FlatCoord: IntTuple {
    /// Write the coordinates of `i` from `mode` on.
    fn split(&self, i: usize, out: &mut [usize; MAX_MODES], mode: usize);
    /// Write the extents from `mode` on.
    fn extents(&self, out: &mut [usize; MAX_MODES], mode: usize);
}
impl FlatCoord for Nil {
    fn split(&self, _: usize, _: &mut [usize; MAX_MODES], _: usize) {}
    fn extents(&self, _: &mut [usize; MAX_MODES], _: usize) {}
}
impl<H: Leaf, T: FlatCoord + crate::int_tuple::List> FlatCoord for Cons<H, T> {
    fn split(&self, i: usize, out: &mut [usize; MAX_MODES], mode: usize) {
        let s = self.0.value().max(1);
        if mode < MAX_MODES {
            out[mode] = i % s;
        }
        self.1.split(i / s, out, mode + 1);
    }
    fn extents(&self, out: &mut [usize; MAX_MODES], mode: usize) {
        if mode < MAX_MODES {
            out[mode] = self.0.value();
        }
        self.1.extents(out, mode + 1);
    }
}

/// The layout of the tile at `coord` (one entry per mode) and its offset in the tensor.
fn tile_of<S, D, TS>(l: &Layout<S, D>, coord: &[usize], residue: bool) -> Result<(Layout<TS, D>, usize), TensorError>
where
    S: Congruent<D>,
    D: IntTuple + Copy,
    TS: TileOver<S, D> + Congruent<D> + Default,
{
    check_coord_rank::<S>(coord)?;
    let off = TS::tile_offset(l.shape(), l.stride(), coord, 0, residue)?;
    Ok((Layout::new(TS::default(), *l.stride()), off))
}

/// The layout of thread `tid`'s partition and its offset in the tile (`wrap`: a pointer
/// tensor's, whose run-time strides wrap as its addresses do).
fn partition_of<S, D, TS, TD>(
    l: &Layout<S, D>,
    threads: &Layout<TS, TD>,
    tid: usize,
    wrap: bool,
) -> Result<(Layout<S::Shape, S::Stride>, usize), TensorError>
where
    S: Congruent<D> + PartitionOver<TS, D>,
    D: IntTuple,
    TS: Congruent<TD> + FlatCoord,
    TD: IntTuple,
    S::Shape: Congruent<S::Stride> + Default,
{
    // A pointer tensor's thread index wraps around the thread layout's cosize (its size for
    // a compact one), as C++'s `idx2crd` of a compact thread layout does: no error path left
    // in a kernel.
    let tid = match (wrap, threads.checked_cosize()) {
        (true, Some(n)) => tid.checked_rem(n).unwrap_or(tid),
        _ => tid,
    };
    let t = thread_coord(threads, tid)?;
    let (stride, off) = S::partition(l.stride(), &t, 0, wrap).ok_or(TensorError::Overflow { what: "stride" })?;
    Ok((Layout::new(Default::default(), stride), off))
}

/// The layout of the kept modes of a slice and the offset of its fixed coordinates.
pub(crate) fn slice_of<S, D, C>(l: &Layout<S, D>, c: &C) -> Result<(Layout<C::Shape, C::Stride>, usize), TensorError>
where
    S: Congruent<D>,
    D: IntTuple,
    C: SliceModes<S, D>,
    C::Shape: Congruent<C::Stride>,
{
    let (s, d, off) = c.slice(l.shape(), l.stride(), 0)?;
    Ok((Layout::new(s, d), off))
}

/// The coordinate (in the thread layout's shape) of the thread whose index is `tid`: the
/// `c` with `threads(c) == tid`.
pub(crate) fn thread_coord<TS: Congruent<TD> + FlatCoord, TD: IntTuple>(
    threads: &Layout<TS, TD>,
    tid: usize,
) -> Result<[usize; MAX_MODES], TensorError> {
    let j = thread_index(threads, tid)?;
    let mut t = [0; MAX_MODES];
    threads.shape().split(j, &mut t, 0);
    Ok(t)
}

/// The colexicographic index in the thread layout's shape of the coordinate C++ gives thread
/// `tid` (`get_hier_coord`: `(tid / d) % s` at each leaf), where the layout maps that
/// coordinate back to `tid`. C++ goes on where it does not (another thread's part, or a
/// division by a stride 0); cute-dyn refuses there too, for the same reason.
fn thread_index<TS: Congruent<TD>, TD: IntTuple>(threads: &Layout<TS, TD>, tid: usize) -> Result<usize, TensorError> {
    match threads.shape().hier_coord(threads.stride(), tid) {
        Ok(h) if h.image == tid => Ok(h.index),
        Ok(h) => {
            // Past every index the layout reaches (C++ wraps it around the shape), or a gap.
            let cosize = threads.checked_cosize().unwrap_or(usize::MAX);
            Err(match tid >= cosize {
                true => TensorError::ThreadOutOfRange { thread: tid, threads: cosize },
                false => TensorError::ThreadNotReached { thread: tid, image: h.image },
            })
        }
        Err(crate::layout::HierFail::ZeroStride(extent)) => Err(TensorError::BroadcastThreads { thread: tid, extent }),
        Err(crate::layout::HierFail::Overflow) => Err(TensorError::Overflow { what: "thread coordinate" }),
    }
}

impl<T, S: Congruent<D>, D: IntTuple> Tensor<&mut [T], Layout<S, D>> {
    /// [`Tensor::local_tile`] of a writable tensor: the tile borrows the tensor mutably.
    ///
    /// # Errors
    /// As [`Tensor::local_tile`].
    pub fn local_tile_mut<
        TS: TileOver<S, D> + Congruent<D> + Default + TileVerdict<S, Verdict = V>,
        V: crate::verdict::Pass,
    >(
        &mut self,
        _: TS,
        coord: &[usize],
    ) -> Result<Tensor<&mut [T], Layout<TS, D>>, TensorError>
    where
        D: Copy,
    {
        #[allow(clippy::let_unit_value)]
        let () = V::CHECK;
        let (layout, off) = tile_of(&self.layout, coord, false)?;
        let len = self.engine.len();
        Tensor::new(&mut self.engine[off.min(len)..], layout)
    }

    /// [`Tensor::local_partition`] of a writable tensor.
    ///
    /// # Errors
    /// As [`Tensor::local_partition`].
    pub fn local_partition_mut<TS, TD>(
        &mut self,
        threads: Layout<TS, TD>,
        tid: usize,
    ) -> Result<
        Tensor<&mut [T], Layout<<S as PartitionOver<TS, D>>::Shape, <S as PartitionOver<TS, D>>::Stride>>,
        TensorError,
    >
    where
        TS: Congruent<TD> + FlatCoord,
        TD: IntTuple,
        S: PartitionOver<TS, D>,
        <S as PartitionOver<TS, D>>::Shape: Congruent<<S as PartitionOver<TS, D>>::Stride> + Default,
    {
        let (layout, off) = partition_of(&self.layout, &threads, tid, false)?;
        let len = self.engine.len();
        Tensor::new(&mut self.engine[off.min(len)..], layout)
    }
}

/// A tensor over a raw pointer (CuTe's `make_tensor(make_gmem_ptr(p), layout)`): what a GPU
/// kernel holds for global or shared memory, where every thread of a block sees the same
/// buffer and no Rust reference to it may be unique. Building, tiling, partitioning and
/// slicing are safe (pointer arithmetic is `wrapping_add`); reading and writing are `unsafe`,
/// with the caller's promise that the pointer covers the layout.
///
/// # Examples
/// ```
/// use cute_static::{layout, shape, tensor::PtrTensor};
/// let mut data: Vec<u32> = (0..48).collect();
/// let a = PtrTensor::new(data.as_mut_ptr(), layout!((6,8):(1,6))); // column-major 6x8
/// let tile = a.local_tile(shape!((3,4)), &[1, 1])?; // rows 3..6, columns 4..8
/// let p = tile.local_partition(layout!((3,2):(1,3)), 4)?; // thread 4 = (1,1) of 3x2
/// // (3,4)/(3,2) with strides (1,6)*(3,2); the mode of one element has the stride 0, as C++ gives it
/// assert_eq!(p.layout().to_string(), "(1,2):(0,12)");
/// // SAFETY: `data` holds 48 elements, the layout's cosize.
/// unsafe {
///     assert_eq!(p.read(1), (3 + 1) + (4 + 1 + 2) * 6);
///     p.write(0, 7);
/// }
/// assert_eq!(data[4 + 5 * 6], 7);
/// # Ok::<(), cute_static::tensor::TensorError>(())
/// ```
#[derive(Debug)]
pub struct PtrTensor<T, L> {
    ptr: *mut T,
    layout: L,
}

impl<T, L: Copy> Clone for PtrTensor<T, L> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T, L: Copy> Copy for PtrTensor<T, L> {}

impl<T, S: Congruent<D>, D: IntTuple> PtrTensor<T, Layout<S, D>> {
    /// A layout over the elements at `ptr`.
    #[inline(always)]
    pub fn new(ptr: *mut T, layout: Layout<S, D>) -> Self {
        PtrTensor { ptr, layout }
    }

    /// The layout.
    #[inline(always)]
    pub fn layout(&self) -> &Layout<S, D> {
        &self.layout
    }

    /// The pointer to the element at offset 0.
    #[inline(always)]
    pub fn ptr(&self) -> *mut T {
        self.ptr
    }

    /// The address of the element at index `i` (colexicographic).
    #[inline(always)]
    pub fn addr(&self, i: usize) -> *mut T {
        self.ptr.wrapping_add(self.layout.call(i))
    }

    /// The address of the element at a coordinate (an integer or a hierarchical coordinate).
    #[inline(always)]
    pub fn addr_at<C: CrdIdx<S, D, Verdict = V>, V: crate::verdict::Pass>(&self, c: &C) -> *mut T {
        self.ptr.wrapping_add(self.layout.call_coord(c))
    }

    /// The element at index `i`.
    ///
    /// # Safety
    /// `ptr + L(i)` is valid for reads of a `T` (in bounds of one allocation, aligned,
    /// initialized) and no other thread writes it concurrently.
    #[inline(always)]
    pub unsafe fn read(&self, i: usize) -> T {
        // SAFETY: the caller's promise.
        unsafe { self.addr(i).read() }
    }

    /// Write the element at index `i`.
    ///
    /// # Safety
    /// `ptr + L(i)` is valid for writes of a `T` and no other thread accesses it concurrently.
    #[inline(always)]
    pub unsafe fn write(&self, i: usize, v: T) {
        // SAFETY: the caller's promise.
        unsafe { self.addr(i).write(v) }
    }

    /// The same pointer under another layout (a divide or a product of this one).
    #[inline(always)]
    pub fn with_layout<S2: Congruent<D2>, D2: IntTuple>(self, layout: Layout<S2, D2>) -> PtrTensor<T, Layout<S2, D2>> {
        PtrTensor { ptr: self.ptr, layout }
    }

    /// `local_tile` of a pointer tensor, as CuTe C++: the tile need not divide the tensor (the
    /// last tile of a ragged mode reaches past its extent; a kernel predicates its accesses),
    /// and the tile coordinate is not checked against the grid of tiles: building a tile only
    /// computes addresses (wrapping, never touching memory), and every access is the caller's
    /// `unsafe` promise anyway. (The check costs a kernel's loop 10%: measured, docs/gpu.md.)
    ///
    /// # Errors
    /// [`TensorError::CoordRank`] unless `coord` has one entry per mode.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, shape, tensor::PtrTensor};
    /// let mut data = [0u32; 50];
    /// let a = PtrTensor::new(data.as_mut_ptr(), layout!((5,10):(1,5))); // column-major 5x10
    /// let t = a.local_tile(shape!((4,4)), &[1, 2])?; // rows 4..8, columns 8..12: only (4,8), (4,9) exist
    /// assert_eq!(t.addr(0), a.addr_at(&shape!((4,8))));
    /// assert_eq!(t.layout().to_string(), "(4,4):(1,5)");
    /// # Ok::<(), cute_static::tensor::TensorError>(())
    /// ```
    #[inline(always)]
    pub fn local_tile<TS: TileOver<S, D> + Congruent<D> + Default>(
        &self,
        _: TS,
        coord: &[usize],
    ) -> Result<PtrTensor<T, Layout<TS, D>>, TensorError>
    where
        D: Copy,
    {
        let (layout, off) = tile_of(&self.layout, coord, true)?;
        Ok(PtrTensor { ptr: self.ptr.wrapping_add(off), layout })
    }

    /// [`Tensor::local_partition`] of a pointer tensor, as CuTe C++'s: a thread index past the
    /// thread layout's cosize wraps around it (C++'s `idx2crd` of a compact thread layout does
    /// the same), and a run-time stride times the thread shape wraps as the addresses do, so
    /// that a kernel keeps no error path for them.
    ///
    /// # Errors
    /// [`TensorError::ThreadNotReached`] for a thread whose C++ coordinate the thread layout
    /// maps elsewhere (one that is not compact); [`TensorError::BroadcastThreads`] for a
    /// thread layout with a stride 0.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{layout, tensor::PtrTensor};
    /// let mut data = [0u32; 32];
    /// let tile = PtrTensor::new(data.as_mut_ptr(), layout!((8,4):(1,8)));
    /// let p = tile.local_partition(layout!((4,2):(1,4)), 5)?; // thread (1,1): rows 1,5 of columns 1,3
    /// assert_eq!((p.layout().to_string(), p.addr(0)), ("(2,2):(4,16)".to_string(), tile.addr(9)));
    /// assert_eq!(tile.local_partition(layout!((4,2):(1,4)), 5 + 8)?.addr(0), p.addr(0));
    /// # Ok::<(), cute_static::tensor::TensorError>(())
    /// ```
    #[inline(always)]
    pub fn local_partition<TS, TD>(
        &self,
        threads: Layout<TS, TD>,
        tid: usize,
    ) -> Result<PtrTensor<T, Layout<S::Shape, S::Stride>>, TensorError>
    where
        TS: Congruent<TD> + FlatCoord,
        TD: IntTuple,
        S: PartitionOver<TS, D>,
        S::Shape: Congruent<S::Stride> + Default,
    {
        let (layout, off) = partition_of(&self.layout, &threads, tid, true)?;
        Ok(PtrTensor { ptr: self.ptr.wrapping_add(off), layout })
    }

    /// [`Tensor::slice`] of a pointer tensor.
    ///
    /// # Errors
    /// As [`Tensor::slice`].
    #[inline(always)]
    pub fn slice<C: SliceModes<S, D>>(&self, c: &C) -> Result<PtrTensor<T, Layout<C::Shape, C::Stride>>, TensorError>
    where
        C::Shape: Congruent<C::Stride>,
    {
        let (layout, off) = slice_of(&self.layout, c)?;
        Ok(PtrTensor { ptr: self.ptr.wrapping_add(off), layout })
    }
}

/// [`PtrTensor::local_tile`] as one bound in generic kernel code: the tile of a pointer tensor
/// at a tile coordinate, C++'s semantics (a ragged last tile, the coordinate not checked),
/// whatever the layout's static and run-time leaves. Generic code written over the tensor type
/// (`PA: PtrLocalTile<Tile>`) calls it as `a.local_tile(tile, &[i, j])`.
///
/// # Examples
/// ```
/// use cute_static::{layout, shape, tensor::PtrTensor, PtrAddr, PtrLocalTile, Cons, Nil, Shape};
/// // Element (r, c) of tile (i, j) of any matrix, static or run-time extents.
/// fn elem<P: PtrLocalTile<Shape![(4, 4)]>>(a: &P, i: usize, j: usize, r: usize, c: usize) -> *mut u32
/// where
///     P::Output: PtrAddr<Cons<usize, Cons<usize, Nil>>, Elem = u32>,
/// {
///     a.local_tile(shape!((4, 4)), &[i, j]).unwrap().addr_at(&Cons(r, Cons(c, Nil)))
/// }
/// let mut data = [0u32; 50];
/// let (rows, cols) = (5, 10);
/// let a = PtrTensor::new(data.as_mut_ptr(), layout!(({ rows }, { cols }):(1, { rows })));
/// let s = PtrTensor::new(data.as_mut_ptr(), layout!((5, 10):(1, 5)));
/// // Tile (1,2), element (0,1): row 4, column 9, offset 4 + 5 * 9.
/// assert_eq!(elem(&a, 1, 2, 0, 1), data.as_mut_ptr().wrapping_add(49));
/// assert_eq!(elem(&s, 1, 2, 0, 1), data.as_mut_ptr().wrapping_add(49));
/// ```
#[diagnostic::on_unimplemented(
    message = "`local_tile` of this pointer tensor by this tile shape is not known to be defined",
    label = "where the tensor is generic, add the bound `PtrLocalTile<TileShape>` for it",
    note = "a pointer tensor's local_tile needs a static tile shape with one extent per mode of the tensor's (flat) layout"
)]
pub trait PtrLocalTile<TS> {
    /// The tile: a pointer tensor with the tile's shape and the tensor's strides.
    type Output: Copy;
    /// `local_tile(self, tile, coord)`.
    ///
    /// # Errors
    /// [`TensorError::CoordRank`] unless `coord` has one entry per mode.
    fn local_tile(&self, tile: TS, coord: &[usize]) -> Result<Self::Output, TensorError>;
}
impl<T, S, D, TS> PtrLocalTile<TS> for PtrTensor<T, Layout<S, D>>
where
    S: Congruent<D>,
    D: IntTuple + Copy,
    TS: TileOver<S, D> + Congruent<D> + Default + Copy,
{
    type Output = PtrTensor<T, Layout<TS, D>>;
    #[inline(always)]
    fn local_tile(&self, tile: TS, coord: &[usize]) -> Result<Self::Output, TensorError> {
        PtrTensor::local_tile(self, tile, coord)
    }
}

/// [`PtrTensor::local_partition`] as one bound in generic kernel code: thread `tid`'s part of a
/// pointer tensor under a thread layout, C++'s semantics.
#[diagnostic::on_unimplemented(
    message = "`local_partition` of this pointer tensor by this thread layout is not known to be defined",
    label = "where the tensor is generic, add the bound `PtrLocalPartition<ThreadLayout>` for it",
    note = "a pointer tensor's local_partition needs a static thread layout whose shape divides the tensor's static shape mode by mode"
)]
pub trait PtrLocalPartition<Thr> {
    /// The thread's part: a pointer tensor.
    type Output: Copy;
    /// `local_partition(self, threads, tid)`.
    ///
    /// # Errors
    /// As [`PtrTensor::local_partition`].
    fn local_partition(&self, threads: Thr, tid: usize) -> Result<Self::Output, TensorError>;
}
impl<T, S, D, TS, TD> PtrLocalPartition<Layout<TS, TD>> for PtrTensor<T, Layout<S, D>>
where
    S: Congruent<D> + PartitionOver<TS, D>,
    D: IntTuple,
    TS: Congruent<TD> + FlatCoord,
    TD: IntTuple,
    S::Shape: Congruent<S::Stride> + Default + Copy,
    S::Stride: Copy,
{
    type Output = PtrTensor<T, Layout<S::Shape, S::Stride>>;
    #[inline(always)]
    fn local_partition(&self, threads: Layout<TS, TD>, tid: usize) -> Result<Self::Output, TensorError> {
        PtrTensor::local_partition(self, threads, tid)
    }
}

/// [`PtrTensor::addr_at`] as one bound in generic kernel code: the address of the element at a
/// coordinate `C` (an index, or a coordinate of the layout's profile).
#[diagnostic::on_unimplemented(
    message = "`addr_at` of this pointer tensor at a coordinate of type `{C}` is not known to be defined",
    label = "where the tensor is generic, add the bound `PtrAddr<Coord>` for it",
    note = "a coordinate is an index or has the layout's profile, its static leaves inside their modes"
)]
pub trait PtrAddr<C> {
    /// The element type.
    type Elem;
    /// The element's address (wrapping pointer arithmetic, no access).
    fn addr_at(&self, c: &C) -> *mut Self::Elem;
}
impl<T, S, D, C, V> PtrAddr<C> for PtrTensor<T, Layout<S, D>>
where
    S: Congruent<D>,
    D: IntTuple,
    C: CrdIdx<S, D, Verdict = V>,
    V: crate::verdict::Pass,
{
    type Elem = T;
    #[inline(always)]
    fn addr_at(&self, c: &C) -> *mut T {
        PtrTensor::addr_at(self, c)
    }
}

/// `make_identity_tensor(shape)`: the tensor whose element at index `i` is its own natural
/// coordinate (to predicate, or to see where a partition's elements come from).
///
/// # Examples
/// ```
/// use cute_static::{shape, tensor::IdentityTensor, Cons, Nil};
/// let id = IdentityTensor::new(shape!((4,6)));
/// assert_eq!(id.get(9), Cons(1, Cons(2, Nil)));
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct IdentityTensor<S> {
    shape: S,
}

impl<S: Idx2Crd> IdentityTensor<S> {
    /// The identity tensor of a shape.
    pub fn new(shape: S) -> Self {
        IdentityTensor { shape }
    }
    /// `size(shape)`.
    pub fn size(&self) -> usize {
        self.shape.product()
    }
    /// The coordinate at index `i`.
    #[inline(always)]
    pub fn get(&self, i: usize) -> S::Crd {
        self.shape.idx2crd(i)
    }
}

/// The coordinates of a tile of a flat identity tensor (`local_tile(make_identity_tensor(shape),
/// tile, coord)` in CuTe): element `i` is the coordinate, in the whole tensor, of element `i`
/// of the tile. A ragged tile's coordinates run past the tensor's shape; [`elem_less`] against
/// the shape is the predicate a kernel guards its accesses with.
///
/// # Examples
/// ```
/// use cute_static::{shape, tensor::{elem_less, IdentityTensor}, Cons, Nil};
/// let (m, n) = (5usize, 7usize);
/// let id = IdentityTensor::new(shape!(({m},{n})));
/// let t = id.local_tile(shape!((4,4)), &[1, 1])?; // rows 4..8, columns 4..8
/// assert_eq!(t.get(0), Cons(4, Cons(4, Nil)));
/// assert_eq!(t.get(5), Cons(5, Cons(5, Nil)));
/// assert!(elem_less(&t.get(0), id.shape())); // (4,4) is inside 5x7
/// assert!(!elem_less(&t.get(5), id.shape())); // (5,5) is not
/// # Ok::<(), cute_static::tensor::TensorError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct IdentityTile<T> {
    tile: T,
    origin: [usize; MAX_MODES],
}

impl<S: Idx2Crd + FlatCoord> IdentityTensor<S> {
    /// The shape.
    pub fn shape(&self) -> &S {
        &self.shape
    }

    /// The number of tiles `tile` makes of mode `mode`: `ceil(extent / tile extent)` (C++'s
    /// `size<1, mode>(zipped_divide(...))` of a ragged shape), 0 past the rank.
    ///
    /// # Examples
    /// ```
    /// use cute_static::{shape, tiler, tensor::IdentityTensor};
    /// let id = IdentityTensor::new(shape!(({100},{300})));
    /// assert_eq!((id.tiles(tiler!(<64,256>), 0), id.tiles(tiler!(<64,256>), 1)), (2, 2));
    /// ```
    pub fn tiles<T: CoordTile<S>>(&self, _: T, mode: usize) -> usize {
        let (mut extents, mut tiles) = ([0; MAX_MODES], [0; MAX_MODES]);
        self.shape.extents(&mut extents, 0);
        T::Shape::default().extents(&mut tiles, 0);
        match (extents.get(mode), tiles.get(mode)) {
            (Some(&e), Some(&t)) if mode < S::RANK => e.div_ceil(t.max(1)),
            _ => 0,
        }
    }

    /// The coordinates of the tile at tile coordinate `coord` (one per mode): as C++'s
    /// `local_tile`, the tile need not divide the shape (the last tile of a ragged mode reaches
    /// past it).
    ///
    /// # Errors
    /// [`TensorError::CoordRank`] unless `coord` has one entry per mode;
    /// [`TensorError::TileOutOfRange`] for a tile past `ceil(extent / tile)` in a mode;
    /// [`TensorError::Overflow`].
    pub fn local_tile<T: CoordTile<S>>(&self, _: T, coord: &[usize]) -> Result<IdentityTile<T::Shape>, TensorError> {
        check_coord_rank::<S>(coord)?;
        check_coord_rank::<T::Shape>(coord)?;
        let (mut extents, mut tiles) = ([0; MAX_MODES], [0; MAX_MODES]);
        self.shape.extents(&mut extents, 0);
        T::Shape::default().extents(&mut tiles, 0);
        let mut origin = [0; MAX_MODES];
        for (mode, &k) in coord.iter().enumerate().take(MAX_MODES) {
            let count = extents[mode].div_ceil(tiles[mode].max(1));
            if k >= count {
                return Err(TensorError::TileOutOfRange { mode, coord: k, tiles: count });
            }
            origin[mode] = k.checked_mul(tiles[mode]).ok_or(TensorError::Overflow { what: "offset" })?;
        }
        Ok(IdentityTile { tile: T::Shape::default(), origin })
    }
}

/// A tile of an identity tensor of shape `S`, as [`IdentityTensor::local_tile`] takes it: a
/// flat shape (`shape!((64,256))`) or the by-mode tiler of its extents (`tiler!(<64,256>)`, the
/// tiler a layout's [`LocalTile`] takes), whose coordinates [`elem_less`] compares with `S`.
/// One bound in generic code.
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not known to be a tile of an identity tensor of shape `{S}`",
    label = "where the tile is generic, add the bound `CoordTile<Shape>` for it",
    note = "a tile of an identity tensor is a flat shape of static extents, or the by-mode tiler of them, of the tensor's rank"
)]
pub trait CoordTile<S> {
    /// The tile's flat shape.
    type Shape: FlatCoord + Default + Idx2Crd<Crd: ShiftCrd + ElemLess<S>>;
}
impl<H, R, S> CoordTile<S> for Cons<H, R>
where
    Cons<H, R>: FlatCoord + Default + Idx2Crd<Crd: ShiftCrd + ElemLess<S>>,
{
    type Shape = Self;
}
impl<T, S> CoordTile<S> for crate::tiler::ByMode<T>
where
    T: FlatCoord + Default + Idx2Crd<Crd: ShiftCrd + ElemLess<S>>,
{
    type Shape = T;
}

impl<T: Idx2Crd + FlatCoord> IdentityTile<T>
where
    T::Crd: ShiftCrd,
{
    /// `size(tile)`.
    pub fn size(&self) -> usize {
        self.tile.product()
    }

    /// The coordinate, in the whole tensor, of element `i` of the tile.
    #[inline(always)]
    pub fn get(&self, i: usize) -> T::Crd {
        self.tile.idx2crd(i).shift(&self.origin, 0)
    }
}

/// A flat coordinate moved by an origin, mode by mode.
#[doc(hidden)]
pub trait ShiftCrd: Sized {
    /// `self + origin`, from mode `mode` on.
    fn shift(self, origin: &[usize; MAX_MODES], mode: usize) -> Self;
}
impl ShiftCrd for Nil {
    fn shift(self, _: &[usize; MAX_MODES], _: usize) -> Nil {
        Nil
    }
}
impl<T: ShiftCrd> ShiftCrd for Cons<usize, T> {
    #[inline(always)]
    fn shift(self, origin: &[usize; MAX_MODES], mode: usize) -> Self {
        // Saturating: a coordinate past usize (an index past the tile) must not wrap back into
        // the shape and pass `elem_less`.
        Cons(self.0.saturating_add(origin.get(mode).copied().unwrap_or(0)), self.1.shift(origin, mode + 1))
    }
}

/// `elem_less(coord, shape)`: every coordinate below its mode's extent (CuTe's predicate for the
/// elements of a residue tile).
#[inline(always)]
pub fn elem_less<C: ElemLess<S>, S>(c: &C, shape: &S) -> bool {
    c.elem_less(shape)
}

/// [`elem_less`], mode by mode.
pub trait ElemLess<S> {
    /// Every coordinate below its extent.
    fn elem_less(&self, shape: &S) -> bool;
}
impl ElemLess<Nil> for Nil {
    fn elem_less(&self, _: &Nil) -> bool {
        true
    }
}
impl<CT: ElemLess<ST>, S: Leaf, ST> ElemLess<Cons<S, ST>> for Cons<usize, CT> {
    #[inline(always)]
    fn elem_less(&self, shape: &Cons<S, ST>) -> bool {
        self.0 < shape.0.value() && self.1.elem_less(&shape.1)
    }
}

// ------------------------------------------------------------------------------------------
// Thread-value layouts.
// ------------------------------------------------------------------------------------------

/// `product_each(shape)`: the size of each mode.
#[doc(hidden)]
pub trait ProductEach {
    /// The sizes, as a flat shape.
    type Output: Default;
}
impl ProductEach for Nil {
    type Output = Nil;
}
impl<H: crate::layout::SizeT, T: ProductEach> ProductEach for Cons<H, T>
where
    Cons<<H as crate::layout::SizeT>::Output, T::Output>: Default,
{
    type Output = Cons<<H as crate::layout::SizeT>::Output, T::Output>;
}

/// `size(shape)` as a static value.
#[inline(always)]
pub fn static_size<S: crate::layout::SizeT>(_: &S) -> <S as crate::layout::SizeT>::Output
where
    <S as crate::layout::SizeT>::Output: Default,
{
    Default::default()
}

/// `product_each(shape)` as a static value.
#[inline(always)]
pub fn product_each<S: ProductEach>(_: &S) -> S::Output {
    Default::default()
}

/// `make_layout_tv!(threads, values)`: the tile shape and the layout `(thread, value) -> index
/// in the tile` of a tile where each thread holds a `values`-shaped block and the threads are
/// laid out by `threads` (CuTe's `make_tiled_copy` definition: `right_inverse(raked_product(
/// threads, values))` with the shape `(size(threads), size(values))`), computed by the type
/// checker for static layouts. A macro, so that each step is solved on the caller's concrete
/// types (as one generic function, the chain of type-level operations overflows the solver).
///
/// # Examples
/// ```
/// use cute_static::{layout, make_layout_tv};
/// // CuTe C++ 4.2 (tests/data/cxx_static): 4x2 threads, each with a 2x2 block
/// let (tile, tv) = make_layout_tv!(layout!((4,2):(1,4)), layout!((2,2):(1,2)));
/// assert_eq!(tile.to_string(), "(8,4)");
/// assert_eq!(tv.to_string(), "((4,2),(2,2)):((2,16),(1,8))");
/// ```
#[macro_export]
macro_rules! make_layout_tv {
    ($threads:expr, $values:expr $(,)?) => {{
        let (threads, values) = ($threads, $values);
        let mn = $crate::raked_product(threads, values);
        let shape = $crate::Cons(
            $crate::tensor::static_size(threads.shape()),
            $crate::Cons($crate::tensor::static_size(values.shape()), $crate::Nil),
        );
        let tv = $crate::composition($crate::right_inverse(mn), $crate::make_layout_left(shape));
        ($crate::tensor::product_each(mn.shape()), tv)
    }};
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{layout, shape};
    use alloc::vec::Vec;

    /// recast's law (as cute-dyn's test): element `i` of `recast<u8>(t)` is the byte that
    /// `downcast<4>(L)(i)` selects; back to u32 is the same tensor; an odd start is refused.
    #[test]
    fn recast_reads_the_same_bytes() {
        let data: Vec<u32> = (0..32u32).map(|i| i.wrapping_mul(0x9E37_79B9)).collect();
        let bytes: Vec<u8> = data.iter().flat_map(|x| x.to_ne_bytes()).collect();
        let t = Tensor::new(&data[..], layout!(((2,2),8):((1,16),2))).unwrap();
        let b = t.recast::<u8, _, _>().unwrap();
        assert_eq!(b.size(), 4 * t.size());
        for i in 0..b.size() {
            assert_eq!(b[i], bytes[b.layout().call(i)], "at {i}");
        }
        let w = b.recast::<u32, _, _>().unwrap();
        assert_eq!(alloc::format!("{}", w.layout()), alloc::format!("{}", t.layout()));
        for i in 0..t.size() {
            assert_eq!(w[i], t[i]);
            assert_eq!(t.recast::<f32, _, _>().unwrap()[i].to_bits(), t[i]);
        }
        let odd = Tensor::new(&b.engine()[1..], layout!(8:1)).unwrap();
        assert_eq!(odd.recast::<u16, _, _>().unwrap_err(), TensorError::Misaligned { align: 2 });
        // Writable: bytes written through a u8 view of a (2,2):(2,1) u32 tensor, whose byte
        // layout is (2,8):(8,1).
        let mut words = [0u32; 4];
        let mut w = Tensor::new(&mut words[..], layout!((2,2):(2,1))).unwrap();
        let mut b = w.recast_mut::<u8, _, _>().unwrap();
        for i in 0..16 {
            b[i] = i as u8;
        }
        let mut bytes = [0u8; 16];
        for i in 0..16 {
            bytes[8 * (i % 2) + i / 2] = i as u8;
        }
        let expect: Vec<u32> = bytes.chunks(4).map(|c| u32::from_ne_bytes([c[0], c[1], c[2], c[3]])).collect();
        assert_eq!(words[..], expect[..]);
    }

    #[test]
    fn pointer_tensors_tile_partition_and_write_through_layouts() {
        // A row-major 6x10 matrix, 4x4 tiles (ragged at the edges, as CuTe's), 2x2 threads.
        let (m, n) = (6usize, 10usize);
        let mut data: Vec<u32> = alloc::vec![0; m * n];
        let a = PtrTensor::new(data.as_mut_ptr(), layout!(({m},{n}):({n},1)));
        for tr in 0..m.div_ceil(4) {
            for tc in 0..n.div_ceil(4) {
                let tile = a.local_tile(shape!((4, 4)), &[tr, tc]).unwrap();
                for tid in 0..4 {
                    let p = tile.local_partition(layout!((2,2):(1,2)), tid).unwrap();
                    for v in 0..4 {
                        // element v of thread tid: (tid%2 + 2*(v%2), tid/2 + 2*(v/2)) of the tile
                        let (r, c) = (4 * tr + tid % 2 + 2 * (v % 2), 4 * tc + tid / 2 + 2 * (v / 2));
                        if r < m && c < n {
                            // SAFETY: (r, c) is inside the m x n buffer, which outlives `a`.
                            unsafe { p.write(v, (r * 100 + c) as u32) };
                        }
                    }
                }
            }
        }
        for r in 0..m {
            for c in 0..n {
                assert_eq!(data[r * n + c], (r * 100 + c) as u32, "({r},{c}) written once, in place");
            }
        }
    }

    #[test]
    fn storage_must_cover_the_cosize() {
        let data = [0u8; 23];
        // (4,6):(6,1) reaches 3*6 + 5 = 23: cosize 24.
        assert_eq!(
            Tensor::new(&data[..], layout!((4,6):(6,1))).unwrap_err(),
            TensorError::StorageTooSmall { cosize: 24, len: 23 }
        );
        assert!(Tensor::new(&data[..], layout!((4,6):(5,1))).is_ok());
    }

    /// Regression (issue 10): `({3}):({2^63})` has cosize 1 + 2 * 2^63, which wrapped to 1 and
    /// let `t[1]` read 2^63 elements past a one-element slice.
    #[test]
    fn a_cosize_that_overflows_is_refused() {
        let data = [7u8; 1];
        let (three, big) = (3usize, 1usize << 63);
        assert_eq!(
            Tensor::new(&data[..], layout!(({three}):({big}))).unwrap_err(),
            TensorError::Overflow { what: "cosize" }
        );
        // The size overflows: 2^32 * 2^32 = 2^64.
        let e = 1usize << 32;
        assert_eq!(
            Tensor::new(&data[..], layout!(({e},{e}):(0,0))).unwrap_err(),
            TensorError::Overflow { what: "size" }
        );
        // The largest cosize that fits is still accepted when the storage covers it.
        assert_eq!(layout!(({three}):({big / 2})).checked_cosize(), Some(1 + 2 * (big / 2)));
        assert_eq!(layout!(({three}):({big})).checked_cosize(), None);
    }

    /// Regression (issue 10): a tile coordinate with a missing mode was taken as 0.
    #[test]
    fn a_tile_coordinate_has_one_entry_per_mode() {
        let data: Vec<u32> = (0..48).collect();
        let a = Tensor::new(&data[..], layout!((6,8):(1,6))).unwrap();
        assert_eq!(a.local_tile(shape!((3, 4)), &[1]).unwrap_err(), TensorError::CoordRank { given: 1, rank: 2 });
        assert_eq!(a.local_tile(shape!((3, 4)), &[1, 1, 0]).unwrap_err(), TensorError::CoordRank { given: 3, rank: 2 });
        assert_eq!(a.local_tile(shape!((3, 4)), &[1, 1]).unwrap()[0], 3 + 4 * 6);
    }

    #[test]
    fn index_and_coordinates_agree_with_the_layout() {
        let data: Vec<usize> = (0..64).collect();
        let l = layout!((3,(2,3)):(3,(12,1)));
        let t = Tensor::new(&data[..], l).unwrap();
        for i in 0..t.size() {
            assert_eq!(t[i], l.call(i));
        }
        // CuTe docs: (1,(1,2)), (1,5) and 16 all map to 17.
        assert_eq!(*t.at(&shape!((1, (1, 2)))), 17);
        assert_eq!(*t.at(&crate::Cons(1usize, crate::Cons(5usize, crate::Nil))), 17);
        assert_eq!(*t.at(&16usize), 17);
    }

    /// A run-time coordinate whose offset passes `usize` is refused by the checked accessor
    /// (a panic) instead of wrapping: 4 * 2^62 wraps to offset 0, element 0 (de4c4a5's case;
    /// the layout's own `call_coord` wraps, as C++'s).
    #[test]
    #[should_panic(expected = "index out of bounds")]
    fn a_coordinate_past_usize_does_not_wrap_onto_an_element() {
        let data: Vec<u32> = (0..16).collect();
        let t = Tensor::new(&data[..], layout!((4,4):(1,4))).unwrap();
        let _ = t.at(&crate::Cons(0usize, crate::Cons(1usize << (usize::BITS - 2), crate::Nil)));
    }

    /// A pointer tensor's thread index wraps around the thread layout (C++'s), a slice
    /// tensor's does not; a thread outside a layout that is not onto `[0, size)` is refused by
    /// both.
    #[test]
    fn pointer_partitions_wrap_the_thread_index() {
        let mut data: Vec<u32> = (0..32).collect();
        let p = PtrTensor::new(data.as_mut_ptr(), layout!((8,4):(1,8)));
        let threads = layout!((4,2):(2,1)); // row-major 4x2: thread 3 is (1,1)
        let a = p.local_partition(threads, 3).unwrap();
        assert_eq!(a.addr(0), p.addr(9));
        assert_eq!(p.local_partition(threads, 3 + 8).unwrap().addr(0), a.addr(0));
        let t = Tensor::new(&data[..], layout!((8,4):(1,8))).unwrap();
        assert_eq!(t.local_partition(threads, 3).unwrap()[0], 9);
        assert!(matches!(
            t.local_partition(threads, 11),
            Err(TensorError::ThreadOutOfRange { thread: 11, threads: 8 })
        ));
        let gaps = layout!((2,2):(1,4)); // threads 0, 1, 4, 5
        assert!(matches!(p.local_partition(gaps, 2), Err(TensorError::ThreadNotReached { thread: 2, image: 0 })));
        // C++'s coordinate of thread 5: ((5 / 1) % 2, (5 / 4) % 2) = (1, 1); past the size 4,
        // below the cosize 6, where the index wraps.
        assert_eq!(p.local_partition(gaps, 5).unwrap().addr(0), p.addr(1 + 8));
        assert_eq!(p.local_partition(gaps, 5 + 6).unwrap().addr(0), p.addr(1 + 8));
    }

    #[test]
    #[should_panic(expected = "offset overflows usize")]
    fn at_mut_refuses_a_wrapped_offset() {
        let mut data: Vec<u32> = (0..16).collect();
        let mut t = Tensor::new(&mut data[..], layout!((4,4):(1,4))).unwrap();
        *t.at_mut(&crate::Cons(0usize, crate::Cons(1usize << (usize::BITS - 2), crate::Nil))) = 99;
    }

    /// The layout's own evaluation wraps, and its checked twin says so, also through an integer coordinate (`usize::MAX` is
    /// `(3, 2^62 - 1)`, whose offset `3 + 4 * (2^62 - 1)` wraps to `2^64 - 1`).
    #[test]
    fn checked_accessors_refuse_every_wrapped_offset() {
        let far = crate::Cons(0usize, crate::Cons(1usize << (usize::BITS - 2), crate::Nil));
        let l = layout!((4,4):(1,4));
        assert_eq!(l.call_coord(&far), 0); // C++'s wrapping arithmetic
        assert_eq!(l.checked_call_coord(&far), None);
        assert_eq!(layout!((4,4):(1,8)).checked_call(usize::MAX), None);
        assert_eq!(l.checked_call(usize::MAX), Some(usize::MAX)); // 3 + 4 * (2^62 - 1) fits
                                                                  // A mixed layout with a run-time stride: 2 * (2^63) wraps to 0 as well.
        let big = 1usize << (usize::BITS - 1);
        let m = layout!((4,{big}):(1,2));
        assert_eq!(m.call_coord(&crate::Cons(0usize, crate::Cons(big, crate::Nil))), 0);
        assert_eq!(m.checked_call_coord(&crate::Cons(0usize, crate::Cons(big, crate::Nil))), None);
    }

    #[test]
    fn a_tile_offset_past_usize_saturates() {
        let far = crate::Cons(0usize, crate::Cons(1usize << (usize::BITS - 2), crate::Nil));
        let (_, offset) = local_tile(layout!((8,8):(1,8)), crate::tiler!(<4,4>), &far);
        assert_eq!(offset, usize::MAX);
        let near = crate::Cons(1usize, crate::Cons(1usize, crate::Nil));
        assert_eq!(local_tile(layout!((8,8):(1,8)), crate::tiler!(<4,4>), &near).1, 4 + 4 * 8);
    }

    #[test]
    #[should_panic(expected = "index 18 out of range")]
    fn index_past_the_size_panics() {
        let data = [0u8; 64];
        let t = Tensor::new(&data[..], layout!((3,(2,3)):(3,(12,1)))).unwrap();
        let _ = t[18];
    }

    #[test]
    fn owned_storage_is_sized_by_the_cosize() {
        let mut t = make_tensor::<u16, _, _>(layout!((4,2):(2,8)));
        assert_eq!(t.engine().len(), 15); // (4-1)*2 + (2-1)*8 + 1
        for i in 0..t.size() {
            t[i] = i as u16;
        }
        assert_eq!(*t.at(&shape!((3, 1))), 7);
        assert_eq!(t.engine()[3 * 2 + 8], 7);
    }

    #[test]
    fn tiles_cover_the_tensor_once() {
        let (m, n) = (6usize, 8usize);
        let data: Vec<usize> = (0..m * n).collect();
        let a = Tensor::new(&data[..], layout!(({m},{n}):(1,{m}))).unwrap();
        let mut seen = alloc::vec![0; m * n];
        for bi in 0..2 {
            for bj in 0..2 {
                let t = a.local_tile(shape!((3, 4)), &[bi, bj]).unwrap();
                for i in 0..t.size() {
                    seen[t[i]] += 1;
                }
            }
        }
        assert!(seen.iter().all(|&c| c == 1));
        assert_eq!(
            a.local_tile(shape!((3, 4)), &[2, 0]).unwrap_err(),
            TensorError::TileOutOfRange { mode: 0, coord: 2, tiles: 2 }
        );
        assert_eq!(
            a.local_tile(shape!((4, 4)), &[0, 0]).unwrap_err(),
            TensorError::TileDivisibility { mode: 0, extent: 6, tile: 4 }
        );
    }

    #[test]
    fn partitions_cover_the_tile_once() {
        let data: Vec<usize> = (0..64).collect();
        let mut tile_data = data.clone();
        let tile = Tensor::new(&data[..], layout!((8,8):(8,1))).unwrap();
        let threads = layout!((4,2):(2,1)); // row-major threads
        let mut seen = alloc::vec![0; 64];
        for tid in 0..8 {
            let p = tile.local_partition(threads, tid).unwrap();
            for i in 0..p.size() {
                seen[p[i]] += 1;
            }
        }
        assert!(seen.iter().all(|&c| c == 1));
        assert_eq!(
            tile.local_partition(threads, 8).unwrap_err(),
            TensorError::ThreadOutOfRange { thread: 8, threads: 8 }
        );
        // Writes through a partition land in the tile.
        let mut w = Tensor::new(&mut tile_data[..], layout!((8,8):(8,1))).unwrap();
        let mut p = w.local_partition_mut(threads, 3).unwrap();
        p[0] = 1000;
        assert_eq!(tile_data.iter().filter(|&&x| x == 1000).count(), 1);
    }

    #[test]
    fn identity_tensor() {
        let id = IdentityTensor::new(shape!((3, (2, 3))));
        assert_eq!(id.size(), 18);
        // CuTe docs: 16 is (1,(1,2)) in (3,(2,3)).
        assert_eq!(id.get(16), crate::Cons(1, crate::Cons(crate::Cons(1, crate::Cons(2, crate::Nil)), crate::Nil)));
    }
}
