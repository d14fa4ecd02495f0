// A by-mode tiler of 2 elements for a rank-1 layout.
use cute::cute_static::{layout, logical_product, tiler};

fn main() {
    let _ = logical_product(layout!(4:1), tiler!(<2,3>));
}
