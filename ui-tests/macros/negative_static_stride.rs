// cute-static integers are unsigned: the stride -2 is refused (layout_dyn! accepts it).
use cute::cute_static::layout;

fn main() {
    let _ = layout!((2,3):(1,-2));
}
