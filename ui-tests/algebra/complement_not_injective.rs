// (2,2):(1,1) maps two coordinates to 1: complement needs an injective layout.
use cute::cute_static::{complement, layout, shape};

fn main() {
    let _ = complement(layout!((2,2):(1,1)), shape!(8));
}
