// The tiler's `<` is never closed with `>`.
use cute::cute_static::tiler;

fn main() {
    let _ = tiler!(<3:4,2:1);
}
