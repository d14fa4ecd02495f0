// composition of a layout of two modes, one with a run-time extent, by a layout: the structure
// of the result would depend on the run-time value; a leaf layout ({n}:1, a vector), a by-mode
// tiler of its leaf modes, static extents with run-time strides, or cute_dyn (to_dyn()) take it.
use cute::cute_static::{composition, layout};

fn main() {
    let n = 6;
    let _ = composition(layout!((4,{n}):(1,4)), layout!(2:1));
}
