//! Reading and writing every element of a buffer through a static tensor versus hand-written
//! index arithmetic, for a compact, a row-major and a hierarchical layout (the ratio should be
//! 1.00 within noise: the tensor's index compiles to the same arithmetic). The hand-written
//! loops index without bounds checks, as C++ pointer arithmetic does (the tensor needs none:
//! its construction proved every `L(i)`, `i < size`, in bounds).
//! `cargo bench --bench tensor_access`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use cute::cute_static::layout;
use cute::cute_static::tensor::Tensor;

const N: usize = 64 * 64;

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("tensor_rw");
    let mut buf = vec![1f32; N];

    // Compact (64,64):(1,64).
    g.bench_function("compact/tensor", |b| {
        b.iter(|| {
            let mut t = Tensor::new(&mut buf[..], layout!((64,64):(1,64))).unwrap();
            for i in 0..N {
                let x = &mut t[i];
                *x = *x * 1.5 + 1.0;
            }
            black_box(&buf);
        })
    });
    g.bench_function("compact/hand", |b| {
        b.iter(|| {
            let s = &mut buf[..];
            for i in 0..N {
                let o = (i % 64) + (i / 64) * 64;
                // SAFETY: o < 64 * 64 = len. Unchecked, like the pointer arithmetic of C++.
                unsafe { *s.get_unchecked_mut(o) = *s.get_unchecked(o) * 1.5 + 1.0 };
            }
            black_box(&buf);
        })
    });

    // Row-major (64,64):(64,1), visited column by column (index i = (r, c) colexicographic).
    g.bench_function("row_major/tensor", |b| {
        b.iter(|| {
            let mut t = Tensor::new(&mut buf[..], layout!((64,64):(64,1))).unwrap();
            for i in 0..N {
                let x = &mut t[i];
                *x = *x * 1.5 + 1.0;
            }
            black_box(&buf);
        })
    });
    g.bench_function("row_major/hand", |b| {
        b.iter(|| {
            let s = &mut buf[..];
            for i in 0..N {
                let o = (i % 64) * 64 + i / 64;
                // SAFETY: o < 64 * 64 = len. Unchecked, like the pointer arithmetic of C++.
                unsafe { *s.get_unchecked_mut(o) = *s.get_unchecked(o) * 1.5 + 1.0 };
            }
            black_box(&buf);
        })
    });

    // Hierarchical ((8,8),(8,8)):((1,64),(8,512)): 8x8 blocks, column-major inside.
    g.bench_function("hierarchical/tensor", |b| {
        b.iter(|| {
            let mut t = Tensor::new(&mut buf[..], layout!(((8,8),(8,8)):((1,64),(8,512)))).unwrap();
            for i in 0..N {
                let x = &mut t[i];
                *x = *x * 1.5 + 1.0;
            }
            black_box(&buf);
        })
    });
    g.bench_function("hierarchical/hand", |b| {
        b.iter(|| {
            let s = &mut buf[..];
            for i in 0..N {
                let (r, c) = (i % 64, i / 64);
                let o = (r % 8) + (r / 8) * 64 + (c % 8) * 8 + (c / 8) * 512;
                // SAFETY: o < 64 * 64 = len. Unchecked, like the pointer arithmetic of C++.
                unsafe { *s.get_unchecked_mut(o) = *s.get_unchecked(o) * 1.5 + 1.0 };
            }
            black_box(&buf);
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
