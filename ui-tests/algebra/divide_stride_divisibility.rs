// logical_divide composes A with (B, complement(B)); 3:3 violates the stride condition on A.
use cute::cute_static::{layout, logical_divide};

fn main() {
    let _ = logical_divide(layout!((4,6):(1,5)), layout!(3:3));
}
