//! Criterion benchmarks of the runtime algebra on the operations of DESIGN §5, with CuTe's
//! documented examples as inputs. Anchors (same machine kind): CuTe C++'s dynamic path at -O3
//! (coalesce 3 ns, complement rank-1 2.5 ns, composition rank-2 14 ns / rank-3 47 ns,
//! logical_divide 48-72 ns, logical_product 10-14 ns) and pycute (7-95 µs per op; measured by
//! `benches/pycute_baseline.py` on the same inputs).
//!
//! Run: `cargo bench --bench algebra`.

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use cute::cute_dyn::*;

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

fn t(s: &str) -> Tiler {
    s.parse().unwrap()
}

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("cute_dyn");

    let a = l("(2,(1,6)):(1,(6,2))");
    g.bench_function("coalesce (2,(1,6)):(1,(6,2))", |b| b.iter(|| coalesce(black_box(&a)).unwrap()));
    let a = l("((2,(3,4)),(3,2),1):((4,(8,24)),(2,6),12)");
    g.bench_function("coalesce ((2,(3,4)),(3,2),1):((4,(8,24)),(2,6),12)", |b| {
        b.iter(|| coalesce(black_box(&a)).unwrap())
    });

    let (a, tb) = (l("(6,2):(8,2)"), t("(4,3):(3,1)"));
    g.bench_function("composition rank-2 (6,2):(8,2) o (4,3):(3,1)", |b| {
        b.iter(|| composition(black_box(&a), black_box(&tb)).unwrap())
    });
    let (a, tb) = (l("(4,6,8):(1,4,24)"), t("(2,3,4):(1,8,48)"));
    g.bench_function("composition rank-3 (4,6,8):(1,4,24) o (2,3,4):(1,8,48)", |b| {
        b.iter(|| composition(black_box(&a), black_box(&tb)).unwrap())
    });

    let (a, cot) = (l("4:2"), IntTuple::int(24));
    g.bench_function("complement rank-1 4:2 24", |b| b.iter(|| complement(black_box(&a), black_box(&cot)).unwrap()));
    let a = l("(2,2):(1,6)");
    g.bench_function("complement rank-2 (2,2):(1,6) 24", |b| {
        b.iter(|| complement(black_box(&a), black_box(&cot)).unwrap())
    });

    let (a, tb) = (l("(4,2,3):(2,1,8)"), t("4:2"));
    g.bench_function("logical_divide (4,2,3):(2,1,8) / 4:2", |b| {
        b.iter(|| logical_divide(black_box(&a), black_box(&tb)).unwrap())
    });
    let (a, tb) = (l("(9,(4,8)):(59,(13,1))"), t("<3:3,(2,4):(1,8)>"));
    g.bench_function("logical_divide (9,(4,8)):(59,(13,1)) / <3:3,(2,4):(1,8)>", |b| {
        b.iter(|| logical_divide(black_box(&a), black_box(&tb)).unwrap())
    });

    let (a, tb) = (l("(2,2):(4,1)"), t("6:1"));
    g.bench_function("logical_product (2,2):(4,1) x 6:1", |b| {
        b.iter(|| logical_product(black_box(&a), black_box(&tb)).unwrap())
    });
    let (a, bb) = (l("(2,5):(5,1)"), l("(3,4):(1,3)"));
    g.bench_function("blocked_product (2,5):(5,1) x (3,4):(1,3)", |b| {
        b.iter(|| blocked_product(black_box(&a), black_box(&bb)).unwrap())
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
