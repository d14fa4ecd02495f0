// With run-time leaves, composition by a by-mode tiler takes layouts whose composed modes are
// leaves; a nested mode goes through cute_dyn (to_dyn()).
use cute::cute_static::{layout, tiler, Composition};

fn main() {
    let m = 8;
    let _ = layout!((({m},2),4):((1,{m}),8)).composition(tiler!(<4,2>));
}
