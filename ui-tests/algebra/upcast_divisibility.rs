// upcast<4> of a layout with stride 6: 6 is neither a multiple nor a divisor of 4.
use cute::cute_static::{layout, shape, upcast};

fn main() {
    let _ = upcast(layout!((4,8):(1,6)), shape!(4));
}
