// Five stages of a 128x64 A tile and a 256x64 B tile (49152 bytes each) do not fit the 227 KiB
// a block has on sm_90.
use cute_atom::atom::TmaLoad;
use cute_atom::pipeline::PipelineTmaAsync;
use cute_static::gmma::{LayoutAtom, Sw128, K};
use cute_static::typenum::U16;
use cute_static::{Shape, TileToShape};

type Atom = LayoutAtom<K, Sw128, U16>;
type StageA = <Atom as TileToShape<Shape![(128, 64)]>>::Output;
type StageB = <Atom as TileToShape<Shape![(256, 64)]>>::Output;
type Pipeline = PipelineTmaAsync<5, (TmaLoad<U16, StageA>, TmaLoad<U16, StageB>), 1, 2>;

fn main() {
    let _ = Pipeline::carve(0);
}
