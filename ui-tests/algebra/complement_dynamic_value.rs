// complement of a layout with run-time leaves takes an integer cotarget (static or run-time),
// not a shape: its rest is one mode ceil(cotarget / current).
use cute::cute_static::{complement, layout, shape};

fn main() {
    let d = 2;
    let _ = complement(layout!(4:{d}), shape!((4,6)));
}
