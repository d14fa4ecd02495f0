// A generic function with its one bound, `L: LeftInverse`, called with a layout that breaks
// the left inverse's divisibility condition: the error is the condition's, at the call.
use cute::cute_static::{layout, LeftInverse};

fn inverse<L: LeftInverse>(l: L) -> <L as LeftInverse>::Output {
    l.left_inverse()
}

fn main() {
    let _ = inverse(layout!((2,3):(2,3)));
}
