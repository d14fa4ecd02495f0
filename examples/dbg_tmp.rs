use cute::cute_static::copy::{TiledCopy, UniversalCopy};
use cute::cute_static::{layout, typenum::U8, Layout};
fn main() {
    let copy = TiledCopy::<UniversalCopy<U8>, Layout![(32,4):(4,1)], Layout![(1,8):(0,1)]>::new();
    let f = copy.tidfrg_s(layout!((64,64):(1,64)));
    println!("{f}");
}
