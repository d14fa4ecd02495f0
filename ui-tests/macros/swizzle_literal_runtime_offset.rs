// The offset of a cute-static composed layout is static: a run-time offset is refused.
use cute::cute_static::layout;

fn main() {
    let k = 4;
    let _ = layout!(Sw<3,3,3> o {k} o (8,64):(64,1));
}
