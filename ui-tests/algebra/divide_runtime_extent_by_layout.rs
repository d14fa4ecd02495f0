// A layout of two modes, one with a run-time extent, divided by one layout (not by mode): the
// structure of A ∘ (B, complement(B, size(A))) would depend on the run-time value. A leaf
// layout ({n}:1, a vector) takes a layout tiler; a layout of several modes takes a by-mode
// tiler against its leaf modes.
use cute::cute_static::{layout, logical_divide};

fn main() {
    let n = 6;
    let _ = logical_divide(layout!((4,{n}):(1,4)), layout!(2:1));
}
