// A static coordinate past its mode: row 8 of an 8x4 register tile.
use cute_static::{layout, shape};

fn main() {
    let frg = layout!((8,4):(1,8));
    let _ = frg.call_coord(&shape!((8, 0)));
}
