//! A ragged copy the CuTe way: a 1000x999 row-major matrix copied tile by tile (32x32 tiles,
//! so the last row and column of tiles are residue tiles), every access guarded by the tile of
//! the identity tensor: `elem_less(coordinate, shape)`. Source and destination are pointer
//! tensors (`PtrTensor::local_tile` returns C++'s residue tiles, whose addresses past the
//! matrix are computed but never touched).

use cute_static::cute_dyn::basis::{self, IdentityTensor as IdentityDyn};
use cute_static::cute_dyn::tensor::local_tile;
use cute_static::cute_dyn::{Coord, Error, Int, IntTuple, Layout, Tiler, Tuple};
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

/// The same with cute-dyn, as a CuTe kernel is written: the `(m, n)` row-major `src`
/// transposed into the column-major `dst`, each one's tile by `local_tile` of its layout
/// (residue tiles included), the identity tensor `make_identity_tensor(shape)` tiled the same
/// way (scaled-basis strides), each element copied where `elem_less(coord, shape)`. An element
/// past the matrix would wrap into another row of one and another column of the other.
///
/// # Errors
/// Those of the algebra (none for positive sizes).
///
/// # Panics
/// When a buffer holds fewer than `m * n` elements.
pub fn transpose_dyn(src: &[f32], dst: &mut [f32], (m, n): (i64, i64), (bm, bn): (i64, i64)) -> Result<(), Error> {
    let leaf = |v: i64| Tuple::Leaf(Int::dy(v));
    let shape: IntTuple = Tuple::Node(vec![leaf(m), leaf(n)]);
    let row_major = Layout::new(shape.clone(), Tuple::Node(vec![leaf(n), Tuple::Leaf(Int::st(1))]))?;
    let col_major = Layout::new(shape.clone(), Tuple::Node(vec![Tuple::Leaf(Int::st(1)), leaf(m)]))?;
    let identity = IdentityDyn::new(&shape)?;
    let tiler = Tiler::ByMode(vec![Tiler::Int(Int::st(bm)), Tiler::Int(Int::st(bn))]);
    // The tile counts by the library's checked ceil_div (C++'s `(m + bm - 1) / bm` wraps near
    // i64::MAX, and a zero or negative tile is an error, not a division fault).
    let tiles = |x: i64, b: i64| Int::st(x).ceil_div(Int::st(b)).map(Int::value);
    for tm in 0..tiles(m, bm)? {
        for tn in 0..tiles(n, bn)? {
            let coord: Coord = Tuple::Node(vec![Tuple::Leaf(Some(Int::dy(tm))), Tuple::Leaf(Some(Int::dy(tn)))]);
            let (s, s_off) = local_tile(&row_major, &tiler, &coord, None)?;
            let (d, d_off) = local_tile(&col_major, &tiler, &coord, None)?;
            let coords = identity.local_tile(&tiler, &coord, None)?;
            for j in 0..s.size()?.value() {
                if basis::elem_less(&coords.get(j)?, &shape)? {
                    dst[(d_off.value() + d.call(j)?) as usize] = src[(s_off.value() + s.call(j)?) as usize];
                }
            }
        }
    }
    Ok(())
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
