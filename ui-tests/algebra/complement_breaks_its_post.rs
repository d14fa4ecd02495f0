// CuTe truncates 32 / 24 to 1 and returns (12,3):(1,64): make_layout(L, R) reaches 184 < 192
// (CuTe's own condition, CUTLASS's complement.cpp), and its size 36 is below 192 / size(filter(L))
// = 48 (cute/layout.hpp's @post). Refused, as cute-dyn refuses it.
use cute_static::{complement, layout, shape};

fn main() {
    let _ = complement(layout!((2,2):(12,32)), shape!(192));
}
