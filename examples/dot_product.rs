//! The TileTensor dot-product puzzle, on CPU threads: 8 threads (std::thread, a Barrier)
//! compute `a · b` for `a = b = [0, 8)`: each thread writes `a[i] * b[i]` into a statically
//! sized shared buffer (a cute-static tensor whose storage is sized by its layout at compile
//! time), then a tree reduction halves the active threads until `shared[0]` holds the sum.
//!
//! `cargo run --example dot_product` prints `out: 140.0` beside `expected: 140.0`.
//! The kernel lives in the `cute-kernels` crate (`kernels/src/dot_product.rs`), shared with the
//! tour and the benchmarks.

fn main() {
    let (out, expected) = cute_kernels::dot_product::run();
    println!("out: {out:?}");
    println!("expected: {expected:?}");
    assert_eq!(out, expected);
}
