// An unbalanced `(`: the literal does not even form a token tree.
use cute::cute_static::layout;

fn main() {
    let _ = layout!((2,(3,4):(1,(2,6)));
}
