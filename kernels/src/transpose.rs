//! A tiled transpose through a static tile buffer: `B = Aᵀ` for a row-major `M x N` matrix
//! `A`. Each 8x8 tile of `A` (`local_tile`) is copied into a tile buffer whose storage is
//! sized by its layout at compile time, then written to the transposed tile of `B` through
//! the buffer's transposed layout: the same 64 elements read as `(8,8):(8,1)` instead of
//! `(8,8):(1,8)`. Checked against the naive transpose.

use cute_static::tensor::{make_tensor, Tensor};
use cute_static::{layout, shape};

/// `b = aᵀ` for a row-major `m x n` `a` (`m` and `n` multiples of 8).
///
/// # Panics
/// When `m` or `n` is not a multiple of 8 or the slices are shorter than `m * n`.
pub fn transpose(a: &[f32], b: &mut [f32], m: usize, n: usize) {
    let ga = Tensor::new(a, layout!(({m},{n}):({n},1))).expect("a holds m x n");
    let mut gb = Tensor::new(b, layout!(({n},{m}):({m},1))).expect("b holds n x m");
    // The tile buffer, column-major; its transposed view reads it row-major.
    let mut tile = make_tensor::<f32, _, _>(layout!((8,8):(1,8)));
    for bi in 0..m / 8 {
        for bj in 0..n / 8 {
            let ta = ga.local_tile(shape!((8, 8)), &[bi, bj]).expect("m, n multiples of 8");
            for i in 0..64 {
                tile[i] = ta[i];
            }
            let tile_t = Tensor::new(&tile.engine()[..], layout!((8,8):(8,1))).expect("same 64 elements");
            let mut tb = gb.local_tile_mut(shape!((8, 8)), &[bj, bi]).expect("m, n multiples of 8");
            for i in 0..64 {
                tb[i] = tile_t[i];
            }
        }
    }
}

/// The naive transpose.
pub fn naive(a: &[f32], m: usize, n: usize) -> Vec<f32> {
    let mut b = vec![0.0; m * n];
    for i in 0..m {
        for j in 0..n {
            b[j * m + i] = a[i * n + j];
        }
    }
    b
}

/// Transposes a 48 x 64 matrix both ways: `(tiled, naive)`.
pub fn run() -> (Vec<f32>, Vec<f32>) {
    let (m, n) = (48, 64);
    let a: Vec<f32> = (0..m * n).map(|x| x as f32).collect();
    let mut b = vec![0.0; m * n];
    transpose(&a, &mut b, m, n);
    (b, naive(&a, m, n))
}

#[test]
fn transpose_matches_naive() {
    let (b, expected) = run();
    assert_eq!(b, expected);
}
