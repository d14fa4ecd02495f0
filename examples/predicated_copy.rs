//! A ragged 1000x999 matrix copied tile by tile with 32x32 tiles, twice:
//!
//! * with cute-static: residue tiles from `PtrTensor::local_tile`, every access guarded by
//!   `elem_less` on the identity tensor's tile (the kernel lives in
//!   `kernels/src/predicated_copy.rs`);
//! * with cute-dyn (`transpose_dyn` there), as a CuTe kernel is written: a row-major source transposed into a
//!   column-major destination, each one's tile by `local_tile` of its layout (residue tiles
//!   included), the identity tensor `make_identity_tensor(shape)` tiled the same way
//!   (scaled-basis strides), and each element copied where `elem_less(coord, shape)`: an
//!   element past the matrix would wrap into another row of one and another column of the other.

use cute::cute_dyn::Error;

fn main() -> Result<(), Error> {
    let (dst, src, untouched) = cute_kernels::predicated_copy::run();
    let ok = dst == src && untouched;
    println!(
        "cute-static: copied 1000x999 in 32x32 tiles: {}",
        if ok { "every element, nothing past the matrix" } else { "MISMATCH" }
    );
    assert!(ok);

    let (m, n) = (1000, 999);
    let src: Vec<f32> = (0..m * n).map(|i| i as f32).collect();
    let mut dst = vec![-1.0f32; (m * n) as usize];
    cute_kernels::predicated_copy::transpose_dyn(&src, &mut dst, (m, n), (32, 32))?;
    // Every element transposed, checked against the naive loop.
    let ok = (0..m).all(|r| (0..n).all(|c| dst[(r + c * m) as usize] == src[(r * n + c) as usize]));
    println!("cute-dyn: transposed 1000x999 in 32x32 tiles: {}", if ok { "every element" } else { "MISMATCH" });
    assert!(ok);
    Ok(())
}
