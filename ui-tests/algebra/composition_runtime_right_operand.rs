// A static layout composed with a right operand of run-time extent: the type checker computes
// static compositions, and a run-time leaf reaching the result is refused (the result's value
// would be its type's default: `{0}:1` instead of `{16}:1`).
use cute::cute_static::{composition, layout, tiler};

fn main() {
    let n = 16usize;
    let _ = composition(layout!((8,8):(1,8)), layout!({n}:1));
    let _ = composition(layout!((8,8):(1,8)), tiler!(<{n}:1, 2:1>));
}
