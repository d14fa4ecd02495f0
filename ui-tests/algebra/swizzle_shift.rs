// CuTe's Swizzle<B,M,S> needs |S| >= B: Sw<3,3,2> would xor bits [5,8) into [3,6), which overlap
// (C++: static_assert(abs(S) >= B)). cute-dyn refuses the same parameters.
use cute_static::{swizzle::Swizzle, typenum::{P2, U3}};

fn main() {
    let _ = Swizzle::<U3, U3, P2>::new().apply(5);
}
