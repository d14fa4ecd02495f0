// A tile with run-time extents given to a tiled copy's `partition_s`, which the type checker
// computes: one mistake, its errors in words (the division waits on the static-extents gate).
use cute_static::copy::{TiledCopy, UniversalCopy};
use cute_static::{layout, typenum::U8, Layout};

fn main() {
    let (m, n) = (64usize, 64usize);
    let copy = TiledCopy::<UniversalCopy<U8>, Layout![(32,4):(4,1)], Layout![(1,8):(0,1)]>::new();
    let _ = copy.partition_s(layout!(({m},{n}):(1,{m})), 3);
}
