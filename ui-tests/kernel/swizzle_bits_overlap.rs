// A shared-memory swizzle whose shift is smaller than its bit count: Sw<3,3,2>.
use cute_static::layout;

fn main() {
    let _ = layout!(Sw<3,3,2> o (8,64):(64,1));
}
