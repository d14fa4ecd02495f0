// A stray token `x` after a complete literal.
use cute::cute_static::layout;

fn main() {
    let _ = layout!((2,3):(1,2) x);
}
