// A rank-3 block for a rank-2 shape.
use cute::cute_static::{layout, shape, tile_to_shape};

fn main() {
    let _ = tile_to_shape(layout!((2,2,2)), shape!((8,8)));
}
