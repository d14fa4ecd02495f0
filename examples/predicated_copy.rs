//! A ragged 1000x999 matrix copied tile by tile with 32x32 tiles: residue tiles from
//! `PtrTensor::local_tile`, every access guarded by `elem_less` on the identity tensor's tile.
//! The kernel lives in `kernels/src/predicated_copy.rs`.

fn main() {
    let (dst, src, untouched) = cute_kernels::predicated_copy::run();
    let ok = dst == src && untouched;
    println!(
        "copied 1000x999 in 32x32 tiles: {}",
        if ok { "every element, nothing past the matrix" } else { "MISMATCH" }
    );
    assert!(ok);
}
