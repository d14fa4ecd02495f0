// A negative shape (-3) is refused, in the dyn form too.
use cute::cute_static::layout_dyn;

fn main() {
    let _ = layout_dyn!((2,-3):(1,2));
}
