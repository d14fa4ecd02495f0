// coalesce((4,6):(1,5)) keeps both modes; stride 3 neither divides the first mode (4) nor is a
// multiple of it, so 3:3 cannot be composed (CuTe: "Stride Divisibility Condition").
use cute::cute_static::{composition, layout};

fn main() {
    let _ = composition(layout!((4,6):(1,5)), layout!(3:3));
}
