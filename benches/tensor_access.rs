//! Reading and writing every element of a buffer through a static tensor versus hand-written
//! index arithmetic, for a compact, a row-major and a hierarchical layout (the ratio should be
//! 1.00 within noise: the tensor's index compiles to the same arithmetic). The hand-written
//! loops index without bounds checks, as C++ pointer arithmetic does (the tensor needs none:
//! its construction proved every `L(i)`, `i < size`, in bounds). Each loop is its own
//! non-inlined function, so that both are compiled alone (in one closure, code placement
//! changed the timings by up to 20% with identical loops).
//! `cargo bench --bench tensor_access`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use cute::cute_static::layout;
use cute::cute_static::tensor::Tensor;

const N: usize = 64 * 64;

/// One read-modify-write per element through a tensor of layout `$l`.
macro_rules! through_tensor {
    ($name:ident, $($l:tt)*) => {
        #[inline(never)]
        fn $name(buf: &mut [f32]) {
            let mut t = Tensor::new(buf, layout!($($l)*)).unwrap();
            for i in 0..N {
                let x = &mut t[i];
                *x = *x * 1.5 + 1.0;
            }
        }
    };
}
through_tensor!(compact_tensor, (64,64):(1,64));
through_tensor!(row_major_tensor, (64,64):(64,1));
through_tensor!(hierarchical_tensor, ((8,8),(8,8)):((1,64),(8,512)));

/// The same with the offset written by hand.
macro_rules! by_hand {
    ($name:ident, |$i:ident| $offset:expr) => {
        #[inline(never)]
        fn $name(s: &mut [f32]) {
            assert!(s.len() >= N);
            for $i in 0..N {
                let o = $offset;
                // SAFETY: o < 64 * 64 <= len. Unchecked, like the pointer arithmetic of C++.
                unsafe { *s.get_unchecked_mut(o) = *s.get_unchecked(o) * 1.5 + 1.0 };
            }
        }
    };
}
by_hand!(compact_hand, |i| (i % 64) + (i / 64) * 64);
by_hand!(row_major_hand, |i| (i % 64) * 64 + i / 64);
by_hand!(hierarchical_hand, |i| {
    let (r, c) = (i % 64, i / 64);
    (r % 8) + (r / 8) * 64 + (c % 8) * 8 + (c / 8) * 512
});

/// A loop over the buffer.
type Loop = fn(&mut [f32]);

fn bench(c: &mut Criterion) {
    let mut g = c.benchmark_group("tensor_rw");
    let mut buf = vec![1f32; N];
    let cases: [(&str, Loop); 6] = [
        ("compact/tensor", compact_tensor),
        ("compact/hand", compact_hand),
        ("row_major/tensor", row_major_tensor),
        ("row_major/hand", row_major_hand),
        ("hierarchical/tensor", hierarchical_tensor),
        ("hierarchical/hand", hierarchical_hand),
    ];
    for (name, f) in cases {
        g.bench_function(name, |b| {
            b.iter(|| {
                f(black_box(&mut buf[..]));
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
