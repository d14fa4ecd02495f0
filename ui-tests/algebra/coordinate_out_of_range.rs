// The static coordinate 7 in the mode of size 6 of (4,6):(1,4).
use cute::cute_static::{layout, shape};

fn main() {
    let l = layout!((4,6):(1,4));
    let _ = l.call_coord(&shape!((1,7)));
}
