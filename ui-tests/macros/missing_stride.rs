// A `:` with nothing after it.
use cute::cute_static::layout;

fn main() {
    let _ = layout!((2,3):);
}
