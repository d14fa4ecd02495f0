// A stage of B (256 x 64 halves, 32768 bytes) loaded as one 128-row part multicast to one
// block: the stage's barrier would expect 16384 bytes for a tile of 32768.
use cute_atom::atom::{Multicast, TmaLoad};
use cute_atom::pipeline::PipelineTmaAsync;
use cute_static::gmma::{LayoutAtom, Sw128, K};
use cute_static::typenum::U16;
use cute_static::{Shape, TileToShape};

type Atom = LayoutAtom<K, Sw128, U16>;
type StageA = <Atom as TileToShape<Shape![(128, 64)]>>::Output;
type StageB = <Atom as TileToShape<Shape![(256, 64)]>>::Output;
type PartB = <Atom as TileToShape<Shape![(128, 64)]>>::Output;
type Pipeline = PipelineTmaAsync<4, (TmaLoad<U16, StageA>, TmaLoad<U16, StageB, Multicast<PartB, 0b01>>), 2, 2>;

fn main() {
    let _ = Pipeline::carve(0);
}
