// get<2> of a rank-2 layout.
use cute::cute_static::layout;

fn main() {
    let _ = layout!((4,6):(1,4)).get::<2>();
}
