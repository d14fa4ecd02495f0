// 16x2 threads over an 8x8 shared tile: 16 threads along a mode of 8.
use cute_static::{layout, tensor::Tensor};

fn main() {
    let data = [0.0f32; 64];
    let tile = Tensor::new(&data[..], layout!((8,8):(1,8))).unwrap();
    let _ = tile.local_partition(layout!((16,2):(1,16)), 0);
}
