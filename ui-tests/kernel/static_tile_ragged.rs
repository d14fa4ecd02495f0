// A tensor over a slice of static shape (100, 64) tiled by (32, 16): 100 rows are not whole
// tiles of 32, and a slice has no ragged last tile. The types decide it, so the compiler says it.
use cute_static::{layout, shape, tensor::Tensor};

fn main() {
    let data = vec![0f32; 100 * 64];
    let a = Tensor::new(&data[..], layout!((100,64):(64,1))).unwrap();
    let _ = a.local_tile(shape!((32, 16)), &[0, 0]);
}
