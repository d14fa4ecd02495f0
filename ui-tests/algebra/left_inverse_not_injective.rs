// A layout that overlaps itself (sorted by stride, 8:2 starts inside 4:1's span 4): C++ returns
// (2,2,3,4):(256,8,1,2), and L(R(L(17))) = 12 != L(17) = 8, CuTe's law for a left inverse of
// any layout. Refused by the compiler with that witness, as cute-dyn refuses it.
use cute_static::{layout, left_inverse};

fn main() {
    let _ = left_inverse(layout!(((2,4,8,4),4):((4,12,2,12),1)));
}
