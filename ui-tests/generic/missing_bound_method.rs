// The same missing bound with `Methods` in scope: the error names the trait to add.
use cute_static::{Methods, ZippedDivide};

pub fn tiles<L, T>(l: L, t: T) -> <L as ZippedDivide<T>>::Output {
    l.zipped_divide(t)
}

fn main() {}
