// An integer coordinate indexes the whole layout colexicographically: 24 is past size 24.
use cute::cute_static::{layout, shape};

fn main() {
    let l = layout!((4,6):(1,4));
    let _ = l.call_coord(&shape!(24));
}
