//! The gemm example's GFLOP/s at 512 and 1024 against the naive triple loop and the
//! `matrixmultiply` crate (single-threaded). Criterion reports the time per multiplication;
//! GFLOP/s = 2 n³ / time. `cargo bench --bench gemm`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

use cute_kernels::gemm;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("sgemm");
    g.sample_size(10);
    for n in [512usize, 1024] {
        let (a, b) = gemm::inputs(n, n, n);
        let mut out = vec![0f32; n * n];
        // Elements = flops, so criterion's "elem/s" reads as FLOP/s.
        g.throughput(Throughput::Elements(2 * (n as u64).pow(3)));
        g.bench_with_input(BenchmarkId::new("cute_tiled", n), &n, |bch, &n| {
            bch.iter(|| gemm::gemm(n, n, n, &a, &b, &mut out))
        });
        g.bench_with_input(BenchmarkId::new("matrixmultiply", n), &n, |bch, &n| {
            bch.iter(|| unsafe {
                matrixmultiply::sgemm(
                    n,
                    n,
                    n,
                    1.0,
                    a.as_ptr(),
                    n as isize,
                    1,
                    b.as_ptr(),
                    n as isize,
                    1,
                    0.0,
                    out.as_mut_ptr(),
                    n as isize,
                    1,
                )
            })
        });
        if n == 512 {
            // The naive loop at 1024 takes seconds per run; 512 shows the gap.
            g.bench_with_input(BenchmarkId::new("naive", n), &n, |bch, &n| {
                bch.iter(|| gemm::naive(n, n, n, &a, &b, &mut out))
            });
        }
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
