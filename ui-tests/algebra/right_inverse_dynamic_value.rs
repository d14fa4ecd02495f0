// right_inverse at the type level takes static layouts.
use cute::cute_static::{layout, right_inverse};

fn main() {
    let n = 4;
    let _ = right_inverse(layout!(({n},2):(2,1)));
}
