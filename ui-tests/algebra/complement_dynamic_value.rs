// complement at the type level takes static layouts.
use cute::cute_static::{complement, layout, shape};

fn main() {
    let d = 2;
    let _ = complement(layout!(4:{d}), shape!(24));
}
