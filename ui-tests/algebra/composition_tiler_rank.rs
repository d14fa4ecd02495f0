// A by-mode tiler of 3 elements for a rank-2 layout.
use cute::cute_static::{composition, layout, tiler};

fn main() {
    let _ = composition(layout!((4,6):(1,4)), tiler!(<2,3,4>));
}
