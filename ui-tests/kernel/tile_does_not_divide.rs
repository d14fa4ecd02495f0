// Six rows stored as two groups of three with a gap, ((3,2)):((1,4)), cut into tiles of 4 rows:
// a tile would take the first group's 3 rows and a part of the next, which 3 does not divide
// (CuTe's shape divisibility condition).
use cute_static::{layout, tensor::local_tile, tiler, Cons, Nil};

fn main() {
    let _ = local_tile(layout!(((3,2),64):((1,4),8)), tiler!(<4,16>), &Cons(0usize, Cons(0usize, Nil)));
}
