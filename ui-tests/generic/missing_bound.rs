// A generic function that calls an operation without its one bound: the error names the trait
// to add.
use cute_static::ZippedDivide;

pub fn tiles<L, T>(l: L, t: T) -> <L as ZippedDivide<T>>::Output {
    l.zipped_divide(t)
}

fn main() {}
