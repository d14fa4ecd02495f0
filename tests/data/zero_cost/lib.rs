//! Index arithmetic through cute-static beside the same arithmetic written by hand, one pair of
//! `#[no_mangle]` functions per case (`NAME_layout`, `NAME_by_hand`). `tests/zero_cost.rs`
//! compiles this crate in release and holds each layout function to its twin's instructions.
//! The cases are what kernels run: a static layout's index, a run-time matrix at a run-time
//! coordinate, a pointer tensor's block tile, swizzled shared-memory tiles.
#![no_std]

use cute_static::tensor::PtrTensor;
use cute_static::typenum::{P3, P5, U0, U3, U5};
use cute_static::{layout, shape, Composition, Layout, Swizzle};

/// `(8,(4,8)):(32,(1,4))` over its whole domain: LLVM merges the two functions into one.
#[no_mangle]
pub extern "C" fn static_sum_layout(buf: &[u32; 256]) -> u32 {
    type L = Layout![(8,(4,8)):(32,(1,4))];
    let l = L::default();
    let mut acc = 0u32;
    for i in 0..l.size() {
        acc = acc.wrapping_add(buf[l.call(i)]);
    }
    acc
}
#[no_mangle]
pub extern "C" fn static_sum_by_hand(buf: &[u32; 256]) -> u32 {
    let mut acc = 0u32;
    for i in 0..256usize {
        let (m, n) = (i % 8, i / 8);
        acc = acc.wrapping_add(buf[m * 32 + (n % 4) + (n / 4) * 4]);
    }
    acc
}

/// A row-major `m x n` matrix of run-time extents at a run-time coordinate (the transpose's
/// global index; de4c4a5's saturating arithmetic doubled it).
#[no_mangle]
pub extern "C" fn matrix_coord_layout(m: usize, n: usize, r: usize, c: usize) -> usize {
    layout!(({m},{n}):({n},1)).call_coord(&shape!(({ r }, { c })))
}
#[no_mangle]
pub extern "C" fn matrix_coord_by_hand(_: usize, n: usize, r: usize, c: usize) -> usize {
    r * n + c
}

/// A nested static layout with a run-time leading dimension, at a hierarchical coordinate.
#[no_mangle]
pub extern "C" fn nested_coord_layout(ld: usize, i: usize, j: usize, k: usize) -> usize {
    layout!((8,(4,{ld})):(1,(8,32))).call_coord(&shape!(({ i }, ({ j }, { k }))))
}
#[no_mangle]
pub extern "C" fn nested_coord_by_hand(_: usize, i: usize, j: usize, k: usize) -> usize {
    i + 8 * j + 32 * k
}

/// Element `(r, c)` of block tile `(ti, tj)` of a pointer tensor (the SGEMM's `A` operand).
#[no_mangle]
pub extern "C" fn ptr_tile_layout(a: *mut f32, m: usize, k: usize, ti: usize, tj: usize, r: usize, c: usize) -> *mut f32 {
    let g = PtrTensor::new(a, layout!(({m},{k}):({k},1)));
    match g.local_tile(shape!((128, 8)), &[ti, tj]) {
        Ok(t) => t.addr_at(&shape!(({ r }, { c }))),
        Err(_) => a, // a rank error: the literal coordinate has the rank, and this folds away
    }
}
#[no_mangle]
pub extern "C" fn ptr_tile_by_hand(a: *mut f32, _: usize, k: usize, ti: usize, tj: usize, r: usize, c: usize) -> *mut f32 {
    // The tile's base pointer, then the element in it: a kernel computes the first once per
    // tile (C++'s `local_tile` too).
    let tile = a.wrapping_add(128 * ti * k + 8 * tj);
    tile.wrapping_add(r * k + c)
}

/// `Sw<3,3,3> o 0 o (8,64):(64,1)` at an index.
#[no_mangle]
pub extern "C" fn sw333_layout(i: usize) -> usize {
    Swizzle::<U3, U3, P3>::new().composition(layout!((8,64):(64,1))).call(i)
}
#[no_mangle]
pub extern "C" fn sw333_by_hand(i: usize) -> usize {
    // (i % 8, i / 8) in (8,64):(64,1); the last mode takes the rest of the index, as CuTe's.
    let o = (i % 8) * 64 + i / 8;
    o ^ ((o >> 3) & 0b111_000)
}

/// `Sw<5,0,5> o 0 o (32,32):(32,1)` at a coordinate (the swizzled transpose's tile).
#[no_mangle]
pub extern "C" fn sw505_layout(r: usize, c: usize) -> usize {
    Swizzle::<U5, U0, P5>::new().composition(layout!((32,32):(32,1))).call_coord(&shape!(({ r }, { c })))
}
#[no_mangle]
pub extern "C" fn sw505_by_hand(r: usize, c: usize) -> usize {
    let o = r * 32 + c;
    o ^ ((o >> 5) & 31)
}
