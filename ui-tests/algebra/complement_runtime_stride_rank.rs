// complement sorts the modes by stride at compile time: a run-time stride is allowed only in a
// layout of one mode (after filter), as CuTe C++ ("Dynamic-stride complement only for rank-1
// layouts"). Here two modes, one stride run-time.
use cute::cute_static::typenum::U64;
use cute::cute_static::{layout, Complement};

fn main() {
    let s = 4;
    let _ = layout!((4,8):(1,{s})).complement(U64::default());
}
