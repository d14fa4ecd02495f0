// Shape (2,(3,4)) and stride (1,2) are not congruent: the error points at the stride's `2`.
use cute::cute_static::layout;

fn main() {
    let _ = layout!((2,(3,4)):(1,2));
}
