// CuTe's complement((2,2):(2,6), 12) truncates 6 / 4 to 1 and gives 2:1 (reaching 10 < 12): its
// @post breaks, so the product is judged by its own definition, and pycute's answer
// ((2,2),2):((2,6),2) reaches 6 indices for |image(A)| * |image(B)| = 4 * 2: its copies of A
// overlap. Refused, as cute-dyn refuses it; the check runs where the product is instantiated.
use cute::cute_static::{layout, logical_product};

fn main() {
    let _ = logical_product(layout!((2,2):(2,6)), layout!(2:2));
}
