// (2,2):(3,1) over (4,6):(1,5): each mode fits alone, but together they reach index 4 of the
// first mode (shape 4): 3 + 1 = 4, so the result would not be A(B(i)).
use cute::cute_static::{composition, layout};

fn main() {
    let _ = composition(layout!((4,6):(1,5)), layout!((2,2):(3,1)));
}
