//! Criterion benchmarks of the runtime algebra (cute-dyn) on the cases of issue #12, each
//! operation alone on prebuilt inputs, and the allocations each one makes.
//!
//! Anchors (issue #12, measured side by side on this machine kind): CuTe C++ 4.2's dynamic path
//! at -O3 on `int` leaves, and pycute.
//!
//! | case | C++ ns | pycute µs |
//! |---|---:|---:|
//! | composition (6,2):(8,2) ∘ (4,3):(3,1) | 9.5 | 11.8 |
//! | composition ((4,2),6,3):((2,1),8,48) ∘ (8,9):(1,8) | 28.8 | 16.3 |
//! | complement 4:2, 24 | 1.8 | 3.2 |
//! | logical_divide (4,2,3):(2,1,8) / 4:2 | 29.9 | 28.2 |
//! | logical_divide (16,24):(1,16) / <4:1,8:1> | 5.6 | 25.9 |
//! | logical_product 4:1 × (2,3):(1,2) | 9.4 | 13.0 |
//! | blocked_product (2,5):(5,1) × (3,4):(1,3) | 7.5 | 19.3 |
//! | coalesce (2,(1,6)):(1,(6,2)) | 1.4 | 3.0 |
//!
//! Re-measured on 2026-12-03 on this machine kind (the same C++ method, g++ -O3, median of 11
//! runs of 2M; blocked_product with A's strides `(_5,_1)`, as C++ refuses `int` strides there):
//! 10.0, 32.7, 1.8, 33.7, 4.4, 10.3, 12.8, 1.2 ns in the order of the table.
//!
//! Two clones: of an 8-leaf layout, from the profile, without a pycute figure (the
//! issue's "`Clone` a memcpy", against C++ building and checksumming one in 2.2 ns), and of
//! coalesce's input (the cost of copying it, a floor for any operation that returns it).
//!
//! And four operations that read a shape or rely on the inverses (tile_to_shape,
//! make_ordered_layout, nullspace, max_alignment), on examples of CuTe's docs, and the kernel
//! layer's local_tile, without anchors.
//!
//! Before the timings, the bench prints the heap allocations of one call of each case, counted
//! by a counting global allocator in this binary (the goal: zero within the inline
//! capacity).
//!
//! Run: `cargo bench --bench algebra`.

use std::alloc::{GlobalAlloc, Layout as AllocLayout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use criterion::{black_box, criterion_group, criterion_main, Criterion};
use cute::cute_dyn::*;

/// The system allocator, counting allocations (and reallocations, which may move).
struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

// SAFETY: every method forwards to `System` with the caller's arguments unchanged; the counter
// is a relaxed atomic and does not touch the memory.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: AllocLayout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: the caller's contract for `alloc` is `System.alloc`'s.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: AllocLayout) {
        // SAFETY: `ptr` was allocated by `System` with `layout` (every allocation goes there).
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: AllocLayout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        // SAFETY: as `dealloc`; `new_size` is the caller's, per `realloc`'s contract.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn l(s: &str) -> Layout {
    s.parse().unwrap()
}

fn t(s: &str) -> Tiler {
    s.parse().unwrap()
}

/// One case: its name and the operation on prebuilt inputs (the result dropped inside).
type Case = (&'static str, Box<dyn Fn()>);

/// A binary operation on its prebuilt operands, the result dropped inside. The result is seen
/// by reference where it was returned (moving a layout out of its `Result` would time a copy of
/// the harness's, not the operation).
fn case<A: 'static, B: 'static, R: 'static>(name: &'static str, op: fn(&A, &B) -> Result<R>, (a, b): (A, B)) -> Case {
    (
        name,
        Box::new(move || {
            black_box(&op(black_box(&a), black_box(&b))).as_ref().unwrap();
        }),
    )
}

fn cases() -> Vec<Case> {
    let c8 = l("(2,(1,6)):(1,(6,2))");
    let c3 = c8.clone();
    let l8 = l("((2,2),(2,2),(2,2),(2,2)):((1,2),(4,8),(16,32),(64,128))");
    let shape = |s: &str| s.parse::<IntTuple>().unwrap();
    let (blk, s46, s2222, o0231) = (l("(2,2):(1,2)"), shape("(4,6)"), shape("(2,2,2,2)"), shape("(0,2,3,1)"));
    let (ns, ma) = (l("(2,4,3):(0,1,0)"), l("(8,64):(64,1)"));
    let (m, t3216, c12) = (l("(128,64):(1,128)"), t("<32,16>"), "(1,2)".parse::<Coord>().unwrap());
    vec![
        case("composition (6,2):(8,2) o (4,3):(3,1)", composition, (l("(6,2):(8,2)"), t("(4,3):(3,1)"))),
        case(
            "composition ((4,2),6,3):((2,1),8,48) o (8,9):(1,8)",
            composition,
            (l("((4,2),6,3):((2,1),8,48)"), t("(8,9):(1,8)")),
        ),
        case("complement 4:2, 24", complement, (l("4:2"), IntTuple::int(24))),
        case("logical_divide (4,2,3):(2,1,8) / 4:2", logical_divide, (l("(4,2,3):(2,1,8)"), t("4:2"))),
        case("logical_divide (16,24):(1,16) / <4:1,8:1>", logical_divide, (l("(16,24):(1,16)"), t("<4:1,8:1>"))),
        case("logical_product 4:1 x (2,3):(1,2)", logical_product, (l("4:1"), t("(2,3):(1,2)"))),
        case("blocked_product (2,5):(5,1) x (3,4):(1,3)", blocked_product, (l("(2,5):(5,1)"), l("(3,4):(1,3)"))),
        (
            // A floor for coalesce's case: a copy of its input, no algebra.
            "clone (2,(1,6)):(1,(6,2))",
            Box::new(move || {
                black_box(&black_box(&c3).clone());
            }),
        ),
        (
            // The issue's profile: "cloning an 8-leaf layout costs 60 ns; C++ builds and
            // checksums one in 2.2 ns".
            "clone ((2,2),(2,2),(2,2),(2,2)):((1,2),(4,8),(16,32),(64,128))",
            Box::new(move || {
                black_box(&black_box(&l8).clone());
            }),
        ),
        (
            // The operations that read a shape, and the inverses' relatives (no C++ anchor in
            // the issue): cases from CuTe's docs.
            "tile_to_shape (2,2):(1,2) to (4,6)",
            Box::new(move || {
                black_box(&tile_to_shape(black_box(&blk), black_box(&s46), None)).as_ref().unwrap();
            }),
        ),
        (
            "make_ordered_layout (2,2,2,2) by (0,2,3,1)",
            Box::new(move || {
                black_box(&make_ordered_layout(black_box(&s2222), black_box(&o0231))).as_ref().unwrap();
            }),
        ),
        (
            "nullspace (2,4,3):(0,1,0)",
            Box::new(move || {
                black_box(&nullspace(black_box(&ns))).as_ref().unwrap();
            }),
        ),
        (
            "max_alignment (8,64):(64,1)",
            Box::new(move || {
                black_box(&max_alignment(black_box(&ma))).as_ref().unwrap();
            }),
        ),
        (
            // The kernel layer: a CTA's tile of a (128,64) matrix (CuTe C++'s local_tile).
            "local_tile (128,64):(1,128) by <32,16> at (1,2)",
            Box::new(move || {
                black_box(&tensor::local_tile(black_box(&m), black_box(&t3216), black_box(&c12), None))
                    .as_ref()
                    .unwrap();
            }),
        ),
        (
            "coalesce (2,(1,6)):(1,(6,2))",
            Box::new(move || {
                black_box(&coalesce(black_box(&c8))).as_ref().unwrap();
            }),
        ),
    ]
}

fn bench(c: &mut Criterion) {
    let cases = cases();
    println!("heap allocations per operation (counting global allocator):");
    for (name, op) in &cases {
        op(); // warm: nothing lazily allocated is counted
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        op();
        println!("  {:>3}  {name}", ALLOCATIONS.load(Ordering::Relaxed) - before);
    }
    let mut g = c.benchmark_group("cute_dyn");
    for (name, op) in &cases {
        g.bench_function(*name, |b| b.iter(op));
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
