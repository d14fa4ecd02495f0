// A 4x4 block does not tile a 6x8 shape: 6 is not a multiple of 4.
use cute::cute_static::{layout, shape, tile_to_shape};

fn main() {
    let _ = tile_to_shape(layout!((4,4):(1,4)), shape!((6,8)));
}
