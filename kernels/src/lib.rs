//! CPU kernels written with cute-static layouts and tensors: the dot-product puzzle, a tiled
//! transpose, a CuTe-style SGEMM and a predicated copy of a ragged matrix. Each checks itself against a naive computation (its unit
//! tests); the examples (`cargo run --example ...`), the tour and the benchmarks run this code.

pub mod dot_product;
pub mod gemm;
pub mod predicated_copy;
pub mod transpose;
