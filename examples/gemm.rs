//! A CuTe-style tiled SGEMM on the CPU: `C = A B` for row-major `A (M x K)`, `B (K x N)`,
//! `C (M x N)` of any sizes, written with a `TiledMMA` (`make_tiled_mma(UniversalFMA, (8,16,1))`:
//! CPU "threads" as its threads, registers as its values).
//!
//! * Block tiles by `local_tile` of each operand's identity tensor: `(BM, BK)` of `A`,
//!   `(BK, BN)` of `B`, `(BM, BN)` of `C`; an element is read (else 0 is packed) or written only
//!   where `elem_less(coordinate, shape)`, so residue tiles of any `M`, `N`, `K` are predicated.
//! * Each block's `A` and `B` tiles are packed into shared tiles whose storage is sized by
//!   their (static) layouts at compile time, laid out so that every thread's operand panel is
//!   contiguous: `sA` is `((TM,MR),BK):((MR*BK,1),MR)` as an `(M,K)` layout, `sB` likewise; a
//!   `TiledCopy` (`UniversalCopy<uint128_t>` over 16x8 threads, 4x1 values) packs them, each
//!   thread moving its `partition_S` of the block tile to its `partition_D` of the shared tile.
//! * Each thread reads its `partition_A(sA)` and `partition_B(sB)` panels, accumulates in a
//!   register fragment laid out by `partition_fragment_C`, and writes it through
//!   `partition_C` of the block: thread `(tm, tn)` owns rows `tm + TM*i` and columns
//!   `tn + TN*j`. The partitions are computed by the type checker; the micro-kernel `mma` is
//!   generic over their layouts.
//!
//! Checked against the naive triple loop.
//! The kernel lives in the `cute-kernels` crate (`kernels/src/gemm.rs`), shared with the
//! tour and the benchmarks.

fn main() {
    for (m, n, k) in [(128, 256, 512), (100, 333, 517)] {
        let (c, d) = cute_kernels::gemm::run(m, n, k);
        println!("sgemm {m}x{n}x{k}: {}", if c == d { "matches the naive triple loop" } else { "MISMATCH" });
        assert_eq!(c, d);
    }
}
