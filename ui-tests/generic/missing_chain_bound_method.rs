// A method chain in generic code whose second bound is missing: with `Methods` in scope the
// error names the bound and suggests where to add it (without it rustc finds no method, E0599).
use cute_static::{LogicalDivide, Methods};

pub fn divide_then_coalesce<L, T>(l: L, t: T)
where
    L: LogicalDivide<T>,
{
    let _ = l.logical_divide(t).coalesce();
}

fn main() {}
