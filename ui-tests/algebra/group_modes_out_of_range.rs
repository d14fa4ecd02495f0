// group_modes<1, 4> of a rank-3 layout.
use cute::cute_static::layout;

fn main() {
    let _ = layout!((2,3,4):(1,2,6)).group_modes::<1, 4>();
}
