// A run-time leaf has no place in a type: Layout![({m},4):(1,{m})] was accepted and printed
// ({0},4):(1,{0}).
use cute_static::Layout;

type Tile = Layout![({m},4):(1,{m})];

fn main() {
    let _: Tile = Default::default();
}
