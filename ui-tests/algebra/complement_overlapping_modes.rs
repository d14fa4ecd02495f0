// Sorted by stride, (4,2):(2,3) is 4:2 (ending at 8) then 2:3, which starts inside it.
use cute::cute_static::{complement, layout, shape};

fn main() {
    let _ = complement(layout!((4,2):(2,3)), shape!(48));
}
