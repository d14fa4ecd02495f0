//! A tiled transpose through a static tile buffer: `B = Aᵀ` for a row-major `M x N` matrix
//! `A`. Each 8x8 tile of `A` (`local_tile`) is copied into a tile buffer whose storage is
//! sized by its layout at compile time, then written to the transposed tile of `B` through
//! the buffer's transposed layout: the same 64 elements read as `(8,8):(8,1)` instead of
//! `(8,8):(1,8)`. Checked against the naive transpose.
//! The kernel lives in the `cute-kernels` crate (`kernels/src/transpose.rs`), shared with the
//! tour and the benchmarks.

fn main() {
    let (b, expected) = cute_kernels::transpose::run();
    println!("transposed 48x64: {}", if b == expected { "matches the naive transpose" } else { "MISMATCH" });
    assert_eq!(b, expected);
}
