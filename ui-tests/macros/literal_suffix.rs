// Integer literals take no suffix: `4u32`.
use cute::cute_static::layout;

fn main() {
    let _ = layout!(4u32:1);
}
