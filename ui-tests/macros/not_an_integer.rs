// A name where an integer belongs: run-time values are written `{n}`.
use cute::cute_static::layout;

fn main() {
    let n = 3;
    let _ = layout!((2,n):(1,2));
}
