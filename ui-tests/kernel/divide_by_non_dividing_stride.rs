// Tiling a (6,2):(1,7) layout by 4:9: its stride 9 does not divide into the shape.
use cute_static::{composition, layout};

fn main() {
    let _ = composition(layout!((6,2):(1,7)), layout!(4:9));
}
