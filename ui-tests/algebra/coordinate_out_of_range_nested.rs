// The static coordinate 3 in the innermost mode of size 3 of (3,(2,3)):(3,(12,1)).
use cute::cute_static::{layout, shape};

fn main() {
    let l = layout!((3,(2,3)):(3,(12,1)));
    let _ = l.call_coord(&shape!((1,(1,3))));
}
