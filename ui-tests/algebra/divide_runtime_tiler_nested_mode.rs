// A static layout divided by a tiler with a run-time leaf: computed when it runs, where each
// divided mode is a leaf; a nested mode goes through cute_dyn (to_dyn()).
use cute::cute_static::{layout, logical_divide, tiler};

fn main() {
    let n = 4usize;
    let _ = logical_divide(layout!(((2,4),8):((1,16),2)), tiler!(<{n}:1, 2:1>));
}
