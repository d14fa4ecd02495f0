//! A CuTe-style tiled SGEMM on the CPU: `C = A B` for row-major `A (M x K)`, `B (K x N)`,
//! `C (M x N)`, with `M`, `N`, `K` multiples of the block tile.
//!
//! * Block tiles by `local_tile`: `(BM, BK)` of `A`, `(BK, BN)` of `B`, `(BM, BN)` of `C`.
//! * Each block's `A` and `B` tiles are packed into shared tiles whose storage is sized by
//!   their (static) layouts at compile time, laid out so that every thread's operand panel is
//!   contiguous: `sA` is `(TM, MR, BK):(MR*BK, 1, MR)`, `sB` is `(BK, TN, NR):(NR, NR*BK, 1)`.
//! * The `(BM, BN)` block is spread over a `(TM, TN)` thread layout by `local_partition`: thread
//!   `(tm, tn)` owns rows `tm + TM*i` and columns `tn + TN*j`, an `MR x NR` register tile
//!   accumulated by the micro-kernel `mma`, which is generic over the panel and accumulator
//!   layouts (any static layouts of the right sizes compute the same product).
//!
//! Checked against the naive triple loop.
//! The kernel lives in the `cute-kernels` crate (`kernels/src/gemm.rs`), shared with the
//! tour and the benchmarks.

fn main() {
    let (m, n, k) = (128, 256, 512);
    let (c, d) = cute_kernels::gemm::run(m, n, k);
    println!("sgemm {m}x{n}x{k}: {}", if c == d { "matches the naive triple loop" } else { "MISMATCH" });
    assert_eq!(c, d);
}
