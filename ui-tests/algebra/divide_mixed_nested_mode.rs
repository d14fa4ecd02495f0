// With run-time leaves, the divides take layouts whose divided modes are leaves (a matrix of
// run-time extents); a nested mode goes through cute_dyn (to_dyn()).
use cute::cute_static::{layout, logical_divide, tiler};

fn main() {
    let m = 8;
    let _ = logical_divide(layout!((({m},2),4):((1,{m}),8)), tiler!(<4,2>));
}
