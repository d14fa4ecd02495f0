// composition at the type level decides the structure from static values; a run-time leaf
// goes through cute_dyn (to_dyn()).
use cute::cute_static::{composition, layout};

fn main() {
    let n = 6;
    let _ = composition(layout!((4,{n}):(1,4)), layout!(2:1));
}
