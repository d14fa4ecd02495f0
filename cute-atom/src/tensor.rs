//! Tensors in shared memory: a cute-static layout over a shared-state-space address, and the
//! statically sized shared tile of a block ([`shared_tile!`](crate::shared_tile)).

use crate::arch::copy::{ld_shared_f32, ld_shared_v4_f32, st_shared_f32, st_shared_v4_f32};

/// A block's shared-memory tile: `shared_tile!(fn name: T, Layout![..] as "SYMBOL")` declares
/// `.shared .b8 SYMBOL[cosize * size_of::<T>()]` (the byte size of the layout's cosize,
/// computed by the compiler) and `fn name() -> SmemTensor<T, L>`.
#[macro_export]
macro_rules! shared_tile {
    (fn $name:ident: $t:ty, $l:ty as $sym:literal) => {
        #[cfg(target_arch = "nvptx64")]
        core::arch::global_asm!(
            concat!(".shared .align 16 .b8 ", $sym, "[{bytes}];"),
            bytes = const <$l as $crate::__cute_static::tensor::CosizeConst>::COSIZE * core::mem::size_of::<$t>(),
        );
        /// The shared-memory tile (the same for every thread of the block).
        #[inline(always)]
        fn $name() -> $crate::SmemTensor<$t, $l> {
            $crate::SmemTensor::new($crate::__shared_symbol!($sym), <$l>::default())
        }
    };
}

/// A block's shared array of a byte size: `shared_array!(fn name: BYTES, align 128 as
/// "SYMBOL")` declares `.shared .align 128 .b8 SYMBOL[BYTES]` and `fn name() -> u32`, its
/// shared address.
#[macro_export]
macro_rules! shared_array {
    (fn $name:ident: $bytes:expr, align $al:literal as $sym:literal) => {
        #[cfg(target_arch = "nvptx64")]
        core::arch::global_asm!(concat!(".shared .align ", $al, " .b8 ", $sym, "[{bytes}];"), bytes = const $bytes);
        /// The shared array's address (the same for every thread of the block).
        #[inline(always)]
        fn $name() -> u32 {
            $crate::__shared_symbol!($sym)
        }
    };
}

/// The shared address of the `.shared` array named `$sym` (an `asm!` `mov` of its symbol).
#[doc(hidden)]
#[macro_export]
macro_rules! __shared_symbol {
    ($sym:literal) => {{
        let base: u32;
        #[cfg(target_arch = "nvptx64")]
        // SAFETY: takes the array's address in the shared state space, no memory access.
        unsafe {
            core::arch::asm!(concat!("mov.u32 {a}, ", $sym, ";"), a = out(reg32) base, options(pure, nomem, nostack))
        };
        #[cfg(not(target_arch = "nvptx64"))]
        $crate::arch::off_gpu(concat!("mov.u32 {a}, ", $sym));
        base
    }};
}

/// A tensor in shared memory: a layout over a shared-state-space address. Accesses are
/// `ld.shared`/`st.shared` (a generic pointer to shared memory costs a generic `LD`/`ST`,
/// slower, on every access).
#[derive(Clone, Copy)]
pub struct SmemTensor<T, L> {
    base: u32,
    layout: L,
    elem: core::marker::PhantomData<T>,
}

impl<T, L> SmemTensor<T, L> {
    /// The layout over the shared array at `base`.
    #[inline(always)]
    pub fn new(base: u32, layout: L) -> Self {
        SmemTensor { base, layout, elem: core::marker::PhantomData }
    }
    /// The layout.
    #[inline(always)]
    pub fn layout(&self) -> &L {
        &self.layout
    }
    /// The shared address of the tensor's first element.
    #[inline(always)]
    pub fn base(&self) -> u32 {
        self.base
    }
    /// The shared address of the element at offset `o`.
    #[inline(always)]
    pub fn addr(&self, o: usize) -> u32 {
        self.base + (o * core::mem::size_of::<T>()) as u32
    }
}

impl<L> SmemTensor<f32, L> {
    /// `ld.shared.f32` at offset `o`.
    ///
    /// # Safety
    /// `o` is inside the shared array, and no other thread writes it before the next barrier.
    #[inline(always)]
    pub unsafe fn load(&self, o: usize) -> f32 {
        // SAFETY: the caller's promise.
        unsafe { ld_shared_f32(self.addr(o)) }
    }
    /// `st.shared.f32` at offset `o`.
    ///
    /// # Safety
    /// `o` is inside the shared array, and no other thread accesses it before the next barrier.
    #[inline(always)]
    pub unsafe fn store(&self, o: usize, x: f32) {
        // SAFETY: the caller's promise.
        unsafe { st_shared_f32(self.addr(o), x) }
    }
    /// `ld.shared.v4.f32` of offsets `o..o+4`.
    ///
    /// # Safety
    /// As [`load`](Self::load), and `o` a multiple of 4.
    #[inline(always)]
    pub unsafe fn load4(&self, o: usize) -> F4 {
        // SAFETY: the caller's promise.
        F4(unsafe { ld_shared_v4_f32(self.addr(o)) })
    }
    /// `st.shared.v4.f32` of offsets `o..o+4`.
    ///
    /// # Safety
    /// As [`store`](Self::store), and `o` a multiple of 4.
    #[inline(always)]
    pub unsafe fn store4(&self, o: usize, v: F4) {
        // SAFETY: the caller's promise.
        unsafe { st_shared_v4_f32(self.addr(o), v.0) }
    }
}

/// Four `f32` loaded or stored as one 16-byte access (`ld.v4.f32`).
#[derive(Clone, Copy, Default)]
#[repr(C, align(16))]
pub struct F4(pub [f32; 4]);

/// Tile `(i, j)` of `M x N` of a shared tensor (CuTe's `local_tile` of a shared tensor), its
/// modes swapped when `TRANSPOSED` (CuTe's `select<1,0>`: a `(k, n)` tile of `B` read as
/// CuTe's `(n, k)`). An operand of `copy`: the compiler checks a copy of it for every tile of
/// the tensor, whichever one runs.
#[derive(Clone, Copy)]
pub struct SmemTile<T, L, const M: usize, const N: usize, const TRANSPOSED: bool> {
    tensor: SmemTensor<T, L>,
    origin: (usize, usize),
}

impl<T, L: Copy> SmemTensor<T, L> {
    /// `local_tile(tensor, (M, N), (i, j))`.
    #[inline(always)]
    pub fn local_tile<const M: usize, const N: usize>(&self, (i, j): (usize, usize)) -> SmemTile<T, L, M, N, false> {
        SmemTile { tensor: SmemTensor::new(self.base, self.layout), origin: (i * M, j * N) }
    }
    /// `local_tile(select<1,0>(tensor), (M, N), (i, j))`: tile `(i, j)` of the transposed tensor.
    #[inline(always)]
    pub fn local_tile_t<const M: usize, const N: usize>(&self, (i, j): (usize, usize)) -> SmemTile<T, L, M, N, true> {
        SmemTile { tensor: SmemTensor::new(self.base, self.layout), origin: (j * N, i * M) }
    }
}

impl<T, L, const M: usize, const N: usize, const TRANSPOSED: bool> SmemTile<T, L, M, N, TRANSPOSED> {
    /// The tensor the tile is of.
    #[inline(always)]
    pub fn tensor(&self) -> &SmemTensor<T, L> {
        &self.tensor
    }
    /// The tensor's coordinate of the tile's `(r, c)`.
    #[inline(always)]
    pub fn coord(&self, r: usize, c: usize) -> (usize, usize) {
        if TRANSPOSED {
            (self.origin.0 + c, self.origin.1 + r)
        } else {
            (self.origin.0 + r, self.origin.1 + c)
        }
    }
}
