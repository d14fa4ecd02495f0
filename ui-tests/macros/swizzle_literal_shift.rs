// Sw<3,3,2>: |S| = 2 < B = 3, CuTe's static_assert(abs(S) >= B); refused at the literal.
use cute::cute_static::layout;

fn main() {
    let _ = layout!(Sw<3,3,2> o (8,64):(64,1));
}
