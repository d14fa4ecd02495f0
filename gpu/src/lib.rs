//! GPU kernels written with cute-static layouts and tensors, compiled to PTX for sm_90 by
//! `scripts/gpu/build.sh` and run on the H200 by `scripts/gpu/run.py`.
//!
//! Global memory is a [`PtrTensor`] over the kernel's pointer argument (every thread of a grid
//! sees the same buffer, so no Rust reference to it may be unique); shared memory is declared
//! in PTX with the byte size of its static layout's cosize ([`shared_tile!`]); every index a
//! kernel uses comes from a layout.
#![no_std]
#![feature(abi_ptx, stdarch_nvptx, asm_experimental_arch, core_intrinsics)]
#![allow(internal_features)]
#![allow(clippy::missing_safety_doc)]

pub use cute_static::tensor::PtrTensor;

pub mod dot;
pub mod hgemm;
pub mod hgemm_sm90;
pub mod sm90;
pub mod sgemm;
pub mod transpose;

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // SAFETY: `trap` aborts the kernel; the host sees a launch failure.
    unsafe { core::arch::asm!("trap;", options(noreturn)) }
}

/// A block's shared-memory tile: `shared_tile!(fn name: T, Layout![..] as "SYMBOL")` declares
/// `.shared .b8 SYMBOL[cosize * size_of::<T>()]` and `fn name() -> SmemTensor<T, L>`.
#[macro_export]
macro_rules! shared_tile {
    (fn $name:ident: $t:ty, $l:ty as $sym:literal) => {
        core::arch::global_asm!(
            concat!(".shared .align 16 .b8 ", $sym, "[{bytes}];"),
            bytes = const <$l as cute_static::tensor::CosizeConst>::COSIZE * core::mem::size_of::<$t>(),
        );
        /// The shared-memory tile (the same for every thread of the block).
        #[inline(always)]
        fn $name() -> $crate::SmemTensor<$t, $l> {
            let base: u32;
            // SAFETY: takes the array's address in the shared state space, no memory access.
            unsafe { core::arch::asm!(concat!("mov.u32 {a}, ", $sym, ";"), a = out(reg32) base, options(pure, nomem, nostack)) };
            $crate::SmemTensor::new(base, <$l>::default())
        }
    };
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
        let x: f32;
        // SAFETY: the caller's promise.
        unsafe {
            core::arch::asm!("ld.shared.f32 {x}, [{a}];", a = in(reg32) self.addr(o), x = out(reg32) x,
                options(pure, readonly, nostack))
        };
        x
    }
    /// `st.shared.f32` at offset `o`.
    ///
    /// # Safety
    /// `o` is inside the shared array, and no other thread accesses it before the next barrier.
    #[inline(always)]
    pub unsafe fn store(&self, o: usize, x: f32) {
        // SAFETY: the caller's promise.
        unsafe {
            core::arch::asm!("st.shared.f32 [{a}], {x};", a = in(reg32) self.addr(o), x = in(reg32) x, options(nostack))
        };
    }
    /// `ld.shared.v4.f32` of offsets `o..o+4`.
    ///
    /// # Safety
    /// As [`load`](Self::load), and `o` a multiple of 4.
    #[inline(always)]
    pub unsafe fn load4(&self, o: usize) -> F4 {
        let (x, y, z, w): (f32, f32, f32, f32);
        // SAFETY: the caller's promise.
        unsafe {
            core::arch::asm!("ld.shared.v4.f32 {{{x}, {y}, {z}, {w}}}, [{a}];", a = in(reg32) self.addr(o),
                x = out(reg32) x, y = out(reg32) y, z = out(reg32) z, w = out(reg32) w, options(pure, readonly, nostack))
        };
        F4([x, y, z, w])
    }
    /// `st.shared.v4.f32` of offsets `o..o+4`.
    ///
    /// # Safety
    /// As [`store`](Self::store), and `o` a multiple of 4.
    #[inline(always)]
    pub unsafe fn store4(&self, o: usize, v: F4) {
        let [x, y, z, w] = v.0;
        // SAFETY: the caller's promise.
        unsafe {
            core::arch::asm!("st.shared.v4.f32 [{a}], {{{x}, {y}, {z}, {w}}};", a = in(reg32) self.addr(o),
                x = in(reg32) x, y = in(reg32) y, z = in(reg32) z, w = in(reg32) w, options(nostack))
        };
    }
}

/// A block tile from `PtrTensor::local_tile`, whose only error is a coordinate of the wrong
/// rank (the kernels pass literal coordinates of the right one; it would trap).
#[inline(always)]
pub fn block_tile<T>(t: Result<T, cute_static::tensor::TensorError>) -> T {
    match t {
        Ok(t) => t,
        Err(_) => panic!("a tile coordinate of the wrong rank"),
    }
}

/// The address of element `(r, c)` of block tile `(ti, tj)` of a matrix: `local_tile` of its
/// pointer tensor by the tile shape, then `addr_at`, one bound each (what every GEMM here asks
/// of its operands).
#[inline(always)]
pub fn tile_elem<P, T, E>(p: &P, tile: T, ti: usize, tj: usize, r: usize, c: usize) -> *mut E
where
    P: cute_static::PtrLocalTile<T>,
    P::Output: cute_static::PtrAddr<cute_static::Cons<usize, cute_static::Cons<usize, cute_static::Nil>>, Elem = E>,
{
    use cute_static::PtrAddr;
    block_tile(p.local_tile(tile, &[ti, tj])).addr_at(&cute_static::Cons(r, cute_static::Cons(c, cute_static::Nil)))
}

/// The extents of a rank-2 static shape or layout's two modes (`size<0>`, `size<1>`), as
/// constants: the loop bounds and register counts of a kernel written over a tiling.
pub trait Extents2 {
    /// `size<0>`.
    const E0: usize;
    /// `size<1>`.
    const E1: usize;
}
impl<A: cute_static::layout::SizeT, B: cute_static::layout::SizeT> Extents2 for cute_static::Cons<A, cute_static::Cons<B, cute_static::Nil>>
where
    A::Output: cute_static::typenum::Unsigned,
    B::Output: cute_static::typenum::Unsigned,
{
    const E0: usize = <A::Output as cute_static::typenum::Unsigned>::USIZE;
    const E1: usize = <B::Output as cute_static::typenum::Unsigned>::USIZE;
}
impl<S: Extents2, D> Extents2 for cute_static::Layout<S, D> {
    const E0: usize = S::E0;
    const E1: usize = S::E1;
}

/// `__syncthreads()`.
#[inline(always)]
pub fn sync_threads() {
    // SAFETY: a barrier; every kernel here reaches it uniformly within a block.
    unsafe { core::arch::nvptx::_syncthreads() }
}

/// `(threadIdx.x, threadIdx.y)`.
#[inline(always)]
pub fn thread_idx() -> (usize, usize) {
    // SAFETY: reading special registers.
    unsafe { (core::arch::nvptx::_thread_idx_x() as usize, core::arch::nvptx::_thread_idx_y() as usize) }
}

/// `(blockIdx.x, blockIdx.y)`.
#[inline(always)]
pub fn block_idx() -> (usize, usize) {
    // SAFETY: reading special registers.
    unsafe { (core::arch::nvptx::_block_idx_x() as usize, core::arch::nvptx::_block_idx_y() as usize) }
}

/// `gridDim.x`.
#[inline(always)]
pub fn grid_dim() -> usize {
    // SAFETY: reading a special register.
    unsafe { core::arch::nvptx::_grid_dim_x() as usize }
}

/// Four `f32` loaded or stored as one 16-byte access (`ld.v4.f32`).
#[derive(Clone, Copy, Default)]
#[repr(C, align(16))]
pub struct F4(pub [f32; 4]);
