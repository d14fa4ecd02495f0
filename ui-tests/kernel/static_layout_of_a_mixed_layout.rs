// A layout with a run-time leaf is not a `StaticLayout`: its value is not in its type (its
// `Default` has the leaf 0, and `call` would divide by it).
use cute_static::{layout, StaticLayout};

fn offset<L: StaticLayout>(_: L, i: usize) -> usize {
    L::default().call(i)
}

fn main() {
    let n = 4;
    let _ = offset(layout!((8,4):(1,8)), 3);
    let _ = offset(layout!((8,{n}):(1,8)), 3);
}
