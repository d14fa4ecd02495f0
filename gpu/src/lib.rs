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
pub mod sgemm;
pub mod transpose;

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // SAFETY: `trap` aborts the kernel; the host sees a launch failure.
    unsafe { core::arch::asm!("trap;", options(noreturn)) }
}

/// A block's shared-memory tile: `shared_tile!(fn name: T, Layout![..] as "SYMBOL")` declares
/// `.shared .b8 SYMBOL[cosize * size_of::<T>()]` and `unsafe fn name() -> PtrTensor<T, L>`.
#[macro_export]
macro_rules! shared_tile {
    (fn $name:ident: $t:ty, $l:ty as $sym:literal) => {
        core::arch::global_asm!(
            concat!(".shared .align 16 .b8 ", $sym, "[{bytes}];"),
            bytes = const <$l as cute_static::tensor::CosizeConst>::COSIZE * core::mem::size_of::<$t>(),
        );
        /// The shared-memory tile (the same for every thread of the block).
        #[inline(always)]
        unsafe fn $name() -> $crate::PtrTensor<$t, $l> {
            let p: u64;
            // SAFETY: takes the generic address of the block's shared array, no memory access.
            unsafe { core::arch::asm!(concat!("cvta.shared.u64 {p}, ", $sym, ";"), p = out(reg64) p) };
            $crate::PtrTensor::new(p as *mut $t, <$l>::default())
        }
    };
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

/// Four `f32` loaded or stored as one 16-byte access (`ld.v4.f32`).
#[derive(Clone, Copy, Default)]
#[repr(C, align(16))]
pub struct F4(pub [f32; 4]);
