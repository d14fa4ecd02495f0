//! Zero cost of cute-static evaluation: reading a buffer through a static layout over its whole
//! domain against the hand-written index expression, for a compact, a row-major, a
//! hierarchical and a swizzled layout (`Sw<3,3,3> o (64,64):(64,1)`). Run:
//! `cargo bench --bench static_eval` (ratios should be 1.00 within noise).

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use cute::cute_static::{Layout, StaticLayout};

fn sum_through<L: StaticLayout>(buf: &[u32; 4096]) -> u32 {
    let l = L::default();
    (0..l.size()).fold(0u32, |acc, i| acc.wrapping_add(buf[l.call(i)]))
}

fn bench(c: &mut Criterion) {
    let buf: [u32; 4096] = core::array::from_fn(|i| i as u32);
    let mut g = c.benchmark_group("static_eval");

    type Compact = Layout![(64,64):(1,64)];
    g.bench_function("compact (64,64):(1,64) layout", |b| b.iter(|| sum_through::<Compact>(black_box(&buf))));
    g.bench_function("compact (64,64):(1,64) by hand", |b| {
        b.iter(|| {
            let buf = black_box(&buf);
            (0..4096usize).fold(0u32, |acc, i| acc.wrapping_add(buf[(i % 64) + (i / 64) * 64]))
        })
    });

    type RowMajor = Layout![(64,64):(64,1)];
    g.bench_function("row-major (64,64):(64,1) layout", |b| b.iter(|| sum_through::<RowMajor>(black_box(&buf))));
    g.bench_function("row-major (64,64):(64,1) by hand", |b| {
        b.iter(|| {
            let buf = black_box(&buf);
            (0..4096usize).fold(0u32, |acc, i| acc.wrapping_add(buf[(i % 64) * 64 + i / 64]))
        })
    });

    type Hier = Layout![(8,(8,(8,8))):(64,(1,(8,512)))];
    g.bench_function("hierarchical (8,(8,(8,8))):(64,(1,(8,512))) layout", |b| {
        b.iter(|| sum_through::<Hier>(black_box(&buf)))
    });
    g.bench_function("hierarchical (8,(8,(8,8))):(64,(1,(8,512))) by hand", |b| {
        b.iter(|| {
            let buf = black_box(&buf);
            (0..4096usize).fold(0u32, |acc, i| {
                let (m, n) = (i % 8, i / 8);
                let (n0, n1) = (n % 8, n / 8);
                let (n10, n11) = (n1 % 8, n1 / 8);
                acc.wrapping_add(buf[m * 64 + n0 + n10 * 8 + n11 * 512])
            })
        })
    });

    // A swizzled shared-memory tile: Sw<3,3,3> o 0 o (64,64):(64,1) against the shifts, mask
    // and xor one writes by hand.
    type Swizzled = Layout![Sw<3,3,3> o (64,64):(64,1)];
    g.bench_function("swizzled Sw<3,3,3> o (64,64):(64,1) layout", |b| {
        b.iter(|| {
            let (buf, l) = (black_box(&buf), Swizzled::default());
            (0..4096usize).fold(0u32, |acc, i| acc.wrapping_add(buf[l.call(i)]))
        })
    });
    g.bench_function("swizzled Sw<3,3,3> o (64,64):(64,1) by hand", |b| {
        b.iter(|| {
            let buf = black_box(&buf);
            (0..4096usize).fold(0u32, |acc, i| {
                let x = (i % 64) * 64 + i / 64;
                acc.wrapping_add(buf[x ^ ((x & 0b111_000_000) >> 3)])
            })
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
