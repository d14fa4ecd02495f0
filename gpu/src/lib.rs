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

pub use cute_atom::arch::thread::{block_idx, grid_dim, thread_idx};
pub use cute_atom::{shared_tile, SmemTensor, F4};
pub use cute_static::tensor::PtrTensor;

pub mod attention;
pub mod dot;
pub mod hgemm;
pub mod hgemm_sm90;
pub mod probes;
pub mod sgemm;
pub mod transpose;

#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    cute_atom::arch::thread::trap()
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

/// `__syncthreads()`.
#[inline(always)]
pub fn sync_threads() {
    // SAFETY: a barrier; every kernel here reaches it uniformly within a block.
    unsafe { cute_atom::arch::barrier::sync_threads() }
}
