// `usize` is how a layout *type* writes a run-time leaf; a value gives the value as `{expr}`.
use cute::cute_static::layout;

fn main() {
    let _ = layout!((usize,8):(1,2));
}
