// 18446744073709551616 is u64::MAX + 1.
use cute::cute_static::layout;

fn main() {
    let _ = layout!(18446744073709551616:1);
}
