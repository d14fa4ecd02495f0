// Chaining two operations: the second needs its bound on the first's output, and the error
// names it.
use cute_static::{coalesce, LogicalDivide};

pub fn divide_then_coalesce<L, T>(l: L, t: T)
where
    L: LogicalDivide<T>,
{
    let _ = coalesce(l.logical_divide(t));
}

fn main() {}
