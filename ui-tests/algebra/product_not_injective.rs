// logical_product(A, B) takes complement(A, size(A) * cosize(B)): A must be injective.
use cute::cute_static::{layout, logical_product};

fn main() {
    let _ = logical_product(layout!((2,2):(1,1)), layout!(3:1));
}
