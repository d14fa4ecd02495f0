// The check applies at every level of a nested tiler: <<2,2,2>> for the mode (4,4).
use cute::cute_static::{layout, logical_divide, tiler};

fn main() {
    let _ = logical_divide(layout!(((4,4),6)), tiler!(<<2,2,2>,3>));
}
