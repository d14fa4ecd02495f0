// 6:1 over (4,6):(1,5): the first mode takes 4 of the 6 elements, and 6 % 4 != 0
// (CuTe: "Shape Divisibility Condition").
use cute::cute_static::{composition, layout};

fn main() {
    let _ = composition(layout!((4,6):(1,5)), layout!(6:1));
}
