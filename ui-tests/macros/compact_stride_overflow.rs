// The LayoutLeft strides of (2^64-1, 2^64-1, 2) overflow u64: the third stride would be (2^64-1)^2.
use cute::cute_static::layout;

fn main() {
    let _ = layout!((18446744073709551615,18446744073709551615,2));
}
