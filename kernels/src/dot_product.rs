//! The TileTensor dot-product puzzle, on CPU threads: 8 threads (std::thread, a Barrier)
//! compute `a · b` for `a = b = [0, 8)`: each thread writes `a[i] * b[i]` into a statically
//! sized shared buffer (a cute-static tensor whose storage is sized by its layout at compile
//! time), then a tree reduction halves the active threads until `shared[0]` holds the sum.
//!
//! `cargo run --example dot_product` prints `out: 140.0` beside `expected: 140.0`.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Barrier;

use cute_static::layout;
use cute_static::tensor::{make_tensor, Tensor};

/// The number of threads (one element each).
const THREADS: usize = 8;

/// An `f32` in shared memory: the bits in an atomic (each slot has one writer per step; the
/// barrier orders the steps).
fn load(x: &AtomicU32) -> f32 {
    f32::from_bits(x.load(Ordering::Relaxed))
}
fn store(x: &AtomicU32, v: f32) {
    x.store(v.to_bits(), Ordering::Relaxed)
}

/// `out = a · b` by `THREADS` threads with a shared buffer and a tree reduction.
pub fn dot_product(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), THREADS);
    assert_eq!(b.len(), THREADS);
    let ga = Tensor::new(a, layout!(8:1)).expect("8 elements");
    let gb = Tensor::new(b, layout!(8:1)).expect("8 elements");
    // The shared buffer: 8 slots, storage sized by the layout's cosize (no allocation).
    let shared = make_tensor::<AtomicU32, _, _>(layout!(8:1));
    let barrier = Barrier::new(THREADS);
    std::thread::scope(|s| {
        for tid in 0..THREADS {
            let (shared, barrier, ga, gb) = (&shared, &barrier, &ga, &gb);
            s.spawn(move || {
                store(&shared[tid], ga[tid] * gb[tid]);
                barrier.wait();
                let mut stride = THREADS / 2;
                while stride > 0 {
                    if tid < stride {
                        let v = load(&shared[tid]) + load(&shared[tid + stride]);
                        store(&shared[tid], v);
                    }
                    barrier.wait();
                    stride /= 2;
                }
            });
        }
    });
    load(&shared[0])
}

/// The naive computation.
pub fn expected(a: &[f32], b: &[f32]) -> f32 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

/// Runs the puzzle: `(out, expected)`.
pub fn run() -> (f32, f32) {
    let a: Vec<f32> = (0..THREADS).map(|i| i as f32).collect();
    let b = a.clone();
    (dot_product(&a, &b), expected(&a, &b))
}

#[test]
fn dot_product_is_140() {
    // 0² + 1² + ... + 7² = 140.
    assert_eq!(run(), (140.0, 140.0));
}
