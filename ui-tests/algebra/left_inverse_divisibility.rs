// (2,3):(2,3): by increasing stride, 3 follows the mode 2:2, whose inverse has size 2, and 3 % 2 != 0
// (CuTe: "Left inverse divisibility condition").
use cute::cute_static::{layout, left_inverse};

fn main() {
    let _ = left_inverse(layout!((2,3):(2,3)));
}
