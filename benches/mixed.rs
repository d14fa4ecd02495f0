//! The run-time cost of cute-static's algebra on layouts with run-time leaves: the kernel
//! pattern, a matrix of run-time extents divided by a static tile, against the same values
//! written by hand; then evaluating the divided layout over a whole tile grid against the
//! hand-written index arithmetic; coalesce and complement (a run-time cotarget, extent or stride) on run-time values beside CuTe C++'s
//! figures; static extents with run-time strides through composition, the divides, upcast and
//! downcast; logical_product and blocked_product with a run-time extent; the inverses of a
//! tile with a run-time leading dimension. No allocation anywhere (the structure is in the types).
//! The `checksummed` cases are measured as the C++ anchors were (the run-time inputs read one
//! by one through `black_box`, the result summed over every leaf), beside the same arithmetic
//! written by hand.
//! Run: `cargo bench --bench mixed`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use cute::cute_static::modes::{FlattenModes, ModeValues};
use cute::cute_static::typenum::{U2, U24, U8};
use cute::cute_static::{layout, tiler, Checked, Coalesce, ComplementDyn, Layout, RightInverse};

/// The sum of a layout's shape and stride leaves (the C++ anchors' checksum over every leaf).
fn checksum<S, D>(l: &Layout<S, D>) -> usize
where
    S: FlattenModes<D> + cute::cute_static::Congruent<D>,
    S::Output: ModeValues,
    D: cute::cute_static::IntTuple,
{
    let mut sum = 0;
    l.shape().flatten_modes(l.stride()).each_mode(&mut |s, d, _, _| sum += s + d);
    sum
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("mixed");
    g.bench_function("zipped_divide(({m},{n}):(1,{m}), <32,64>)", |b| {
        b.iter(|| {
            let (m, n) = (black_box(1000usize), black_box(3000usize));
            black_box(layout!(({m},{n}):(1,{m})).zipped_divide(tiler!(<32,64>)))
        })
    });
    g.bench_function("zipped_divide by hand", |b| {
        b.iter(|| {
            let (m, n) = (black_box(1000usize), black_box(3000usize));
            // ((32,64),(ceil(m/32),ceil(n/64))):((1,m),(32,64m)), with the same checks
            let rest = (m.div_ceil(32), n.div_ceil(64));
            let strides = (m, 32usize, 64usize.checked_mul(m));
            black_box((rest, strides))
        })
    });
    g.bench_function("logical_divide(({m},{n}):({n},1), <4:2,3>)", |b| {
        b.iter(|| {
            let (m, n) = (black_box(1000usize), black_box(3000usize));
            black_box(layout!(({m},{n}):({n},1)).logical_divide(tiler!(<4:2,3>)))
        })
    });

    // Two of the C++ anchors (g++ -O3, `int` leaves): coalesce((2,(1,6)):(1,(6,2)))
    // 1.4 ns, every leaf run-time here; complement(4:2, 24) 1.8 ns, a static layout with a
    // run-time cotarget here.
    g.bench_function("coalesce(({2},({1},{6})):({1},({6},{2})))", |b| {
        b.iter(|| {
            let [s0, s1, s2, d0, d1, d2] = black_box([2usize, 1, 6, 1, 6, 2]);
            black_box(layout!(({s0},({s1},{s2})):({d0},({d1},{d2}))).coalesce())
        })
    });
    g.bench_function("coalesce by hand (the same flat modes)", |b| {
        b.iter(|| {
            let [s0, s1, s2, d0, d1, d2] = black_box([2usize, 1, 6, 1, 6, 2]);
            black_box([(s0, d0), (s1, d1), (s2, d2)])
        })
    });
    // The same cases measured as the C++ anchors are: the run-time inputs read through
    // `black_box` one by one, the result checksummed over every leaf (`checksum`), only the sum
    // kept (not the whole result stored, which the lines above time too).
    g.bench_function("checksummed coalesce(({2},({1},{6})):({1},({6},{2})))", |b| {
        b.iter(|| {
            let [s0, s1, s2, d0, d1, d2] = [2usize, 1, 6, 1, 6, 2].map(black_box);
            black_box(checksum(&layout!(({s0},({s1},{s2})):({d0},({d1},{d2}))).coalesce()))
        })
    });
    // Nothing to merge on run-time values: the harness alone, to compare with.
    g.bench_function("checksummed coalesce by hand (the same flat modes)", |b| {
        b.iter(|| black_box([2usize, 1, 6, 1, 6, 2].map(black_box).iter().sum::<usize>()))
    });
    g.bench_function("checksummed complement(4:2, {24})", |b| {
        b.iter(|| black_box(layout!(4:2).complement_dyn(black_box(24)).map_or(0, |l| checksum(&l))))
    });
    g.bench_function("checksummed complement({4}:2, 24)", |b| {
        b.iter(|| {
            let s = black_box(4usize);
            black_box(layout!({s}:2).complement(U24::default()).checked().map_or(0, |l| checksum(&l)))
        })
    });
    // complement({4}:2, 24) = (2,3):(1,8) written by hand, with the same division and checks.
    g.bench_function("checksummed complement({4}:2, 24) by hand", |b| {
        b.iter(|| {
            let s = black_box(4usize);
            let sum =
                s.checked_mul(2).filter(|&c| c != 0).map_or(0, |current| 2 + 1 + 24usize.div_ceil(current) + current);
            black_box(sum)
        })
    });
    g.bench_function("checksummed complement(4:{2}, {24})", |b| {
        b.iter(|| {
            let (d, c) = (black_box(2usize), black_box(24usize));
            black_box(layout!(4:{d}).complement(c).checked().map_or(0, |l| checksum(&l)))
        })
    });
    g.bench_function("complement(4:2, {24})", |b| b.iter(|| black_box(layout!(4:2).complement_dyn(black_box(24)))));
    // The same complement with the layout's leaves run-time: the extent ({4}:2), the stride
    // (4:{2}, one mode), both with the cotarget run-time.
    g.bench_function("complement({4}:2, 24)", |b| {
        b.iter(|| {
            let s = black_box(4usize);
            black_box(layout!({s}:2).complement(U24::default()))
        })
    });
    g.bench_function("complement(4:{2}, {24})", |b| {
        b.iter(|| {
            let (d, c) = black_box((2usize, 24usize));
            black_box(layout!(4:{d}).complement(c))
        })
    });

    // Static extents with run-time strides (a CTA tile of a global tensor): the structure is
    // computed by the type checker on marked strides, only the stride products run. C++
    // anchors (g++ -O3, `int` leaves): composition (6,2):(8,2) o (4,3):(3,1) 9.5 ns,
    // logical_divide (4,2,3):(2,1,8) / 4:2 29.9 ns.
    g.bench_function("composition((6,2):(8,{s}), (4,3):(3,1))", |b| {
        b.iter(|| {
            let s = black_box(2usize);
            black_box(layout!((6,2):(8,{s})).composition(layout!((4,3):(3,1))))
        })
    });
    // The products with run-time leaves, on the C++ anchors (g++ -O3, `int` leaves):
    // logical_product 4:1 x (2,3):(1,2) 9.4 ns, blocked_product (2,5):(5,1) x (3,4):(1,3) 7.5 ns.
    g.bench_function("logical_product({4}:1, (2,3):(1,2))", |b| {
        b.iter(|| {
            let s = black_box(4usize);
            black_box(layout!({s}:1).logical_product(layout!((2,3):(1,2))))
        })
    });
    g.bench_function("blocked_product((2,5):(5,1), (3,{4}):(1,3))", |b| {
        b.iter(|| {
            let n = black_box(4usize);
            black_box(layout!((2,5):(5,1)).blocked_product(layout!((3,{n}):(1,3))))
        })
    });
    g.bench_function("logical_divide((4,2,3):({s},1,8), 4:2)", |b| {
        b.iter(|| {
            let s = black_box(2usize);
            black_box(layout!((4,2,3):({s},1,8)).logical_divide(layout!(4:2)))
        })
    });
    g.bench_function("zipped_divide((128,64):(1,{ld}), <(4,8):(8,1),16>)", |b| {
        b.iter(|| {
            let ld = black_box(1000usize);
            black_box(layout!((128,64):(1,{ld})).zipped_divide(tiler!(<(4,8):(8,1),16>)))
        })
    });

    g.bench_function("upcast((64,32):({ld},1), 8)", |b| {
        b.iter(|| {
            let ld = black_box(1024usize);
            black_box(layout!((64,32):({ld},1)).upcast(U8::default()))
        })
    });

    g.bench_function("downcast((8,64):(1,{ld}), 2)", |b| {
        b.iter(|| {
            let ld = black_box(1024usize);
            black_box(layout!((8,64):(1,{ld})).downcast(U2::default()))
        })
    });

    // Evaluate the divided layout over its whole domain (every element of every tile).
    let (m, n) = (256usize, 256usize);
    let buf: Vec<u32> = (0..(m * n) as u32).collect();
    // The inverses of a tile with a run-time leading dimension (the types fix the order, the
    // values are checked against it), beside cute-dyn's on the same layout.
    g.bench_function("right_inverse((8,64):(1,{ld}))", |b| {
        b.iter(|| black_box(layout!((8,64):(1,{black_box(100usize)})).right_inverse()))
    });
    g.bench_function("left_inverse((8,64):(1,{ld}))", |b| {
        b.iter(|| black_box(layout!((8,64):(1,{black_box(100usize)})).left_inverse()))
    });
    let dyn_tile = layout!((8,64):(1,{100usize})).to_dyn().expect("fits");
    g.bench_function("cute_dyn::left_inverse((8,64):(1,{ld}))", |b| {
        b.iter(|| black_box(cute::cute_dyn::left_inverse(black_box(&dyn_tile))))
    });
    g.bench_function("sum through zipped_divide(({m},{n}):(1,{m}), <32,64>)", |b| {
        b.iter(|| {
            let (m, n) = (black_box(m), black_box(n));
            let z = layout!(({m},{n}):(1,{m})).zipped_divide(tiler!(<32,64>)).unwrap();
            let buf = black_box(&buf);
            (0..m * n).fold(0u32, |acc, i| acc.wrapping_add(buf[z.call(i)]))
        })
    });
    g.bench_function("sum through the same indices by hand", |b| {
        b.iter(|| {
            let (m, n) = (black_box(m), black_box(n));
            let tiles_m = m.div_ceil(32);
            let buf = black_box(&buf);
            (0..m * n).fold(0u32, |acc, i| {
                let (r, c, t) = (i % 32, (i / 32) % 64, i / 2048);
                let (tr, tc) = (t % tiles_m, t / tiles_m);
                acc.wrapping_add(buf[r + c * m + tr * 32 + tc * 64 * m])
            })
        })
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
