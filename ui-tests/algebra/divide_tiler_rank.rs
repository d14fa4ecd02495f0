// zipped_divide by a by-mode tiler of 3 elements for a rank-2 layout.
use cute::cute_static::{layout, tiler, zipped_divide};

fn main() {
    let _ = zipped_divide(layout!((8,6)), tiler!(<2,3,2>));
}
