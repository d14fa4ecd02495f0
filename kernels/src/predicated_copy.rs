//! A ragged copy the CuTe way: a 1000x999 row-major matrix copied tile by tile (32x32 tiles,
//! so the last row and column of tiles are residue tiles), every access guarded by the tile of
//! the identity tensor: `elem_less(coordinate, shape)`. Source and destination are pointer
//! tensors (`PtrTensor::local_tile` returns C++'s residue tiles, whose addresses past the
//! matrix are computed but never touched).

use cute_static::tensor::{elem_less, IdentityTensor, PtrTensor, TensorError};
use cute_static::{layout, shape};

/// The tile.
pub const TILE: usize = 32;

/// `dst = src` for a row-major `m x n` matrix, tile by tile with predication.
///
/// # Errors
/// A tile coordinate outside the grid (none here).
///
/// # Panics
/// When a buffer holds fewer than `m * n` elements.
pub fn copy(src: &[f32], dst: &mut [f32], m: usize, n: usize) -> Result<(), TensorError> {
    assert!(src.len() >= m * n && dst.len() >= m * n, "the buffers hold the matrix");
    let a = PtrTensor::new(src.as_ptr() as *mut f32, layout!(({m},{n}):({n},1)));
    let b = PtrTensor::new(dst.as_mut_ptr(), layout!(({m},{n}):({n},1)));
    let id = IdentityTensor::new(shape!(({ m }, { n })));
    for tr in 0..m.div_ceil(TILE) {
        for tc in 0..n.div_ceil(TILE) {
            let (ta, tb) = (a.local_tile(shape!((32, 32)), &[tr, tc])?, b.local_tile(shape!((32, 32)), &[tr, tc])?);
            let coords = id.local_tile(shape!((32, 32)), &[tr, tc])?;
            for i in 0..coords.size() {
                if elem_less(&coords.get(i), id.shape()) {
                    // SAFETY: the coordinate is inside the m x n matrix, which both buffers
                    // hold; `ta(i)`, `tb(i)` are that coordinate's element.
                    unsafe { tb.write(i, ta.read(i)) };
                }
            }
        }
    }
    Ok(())
}

/// Copies a 1000x999 matrix into a buffer with a guard band after it: `(copied, expected,
/// guard band untouched)`.
pub fn run() -> (Vec<f32>, Vec<f32>, bool) {
    let (m, n) = (1000, 999);
    let src: Vec<f32> = (0..m * n).map(|x| x as f32).collect();
    let guard = 4096;
    let mut dst = vec![-1.0f32; m * n + guard];
    copy(&src, &mut dst, m, n).expect("tiles inside the grid");
    let untouched = dst[m * n..].iter().all(|&x| x == -1.0);
    dst.truncate(m * n);
    (dst, src, untouched)
}

#[test]
fn a_ragged_matrix_is_copied_exactly() {
    let (dst, src, untouched) = run();
    assert_eq!(dst, src, "every element copied");
    assert!(untouched, "no write past the matrix");
}

#[test]
fn residue_tiles_of_other_shapes() {
    for (m, n) in [(1, 1), (31, 33), (64, 64), (65, 1)] {
        let src: Vec<f32> = (0..m * n).map(|x| x as f32 + 0.5).collect();
        let mut dst = vec![0.0f32; m * n];
        copy(&src, &mut dst, m, n).unwrap();
        assert_eq!(dst, src, "{m}x{n}");
    }
}
