// The Hopper HGEMM's pipeline (gpu/src/hgemm_sm90/tiles.rs) builds, and its constants are the
// stages' bytes: A 128x64 and B 256x64 halves, 16384 + 32768 bytes a stage, expected in full by
// each block, unicast or as two multicast halves.
use cute_atom::atom::{Multicast, TmaLoad};
use cute_atom::pipeline::PipelineTmaAsync;
use cute_static::gmma::{LayoutAtom, Sw128, K};
use cute_static::typenum::U16;
use cute_static::{Shape, TileToShape};

type Atom = LayoutAtom<K, Sw128, U16>;
type StageA = <Atom as TileToShape<Shape![(128, 64)]>>::Output;
type StageB = <Atom as TileToShape<Shape![(256, 64)]>>::Output;
type PartB = <Atom as TileToShape<Shape![(128, 64)]>>::Output;
type Unicast = PipelineTmaAsync<4, (TmaLoad<U16, StageA>, TmaLoad<U16, StageB>), 1, 2>;
type Cluster = PipelineTmaAsync<4, (TmaLoad<U16, StageA>, TmaLoad<U16, StageB, Multicast<PartB, 0b11>>), 2, 2>;

fn main() {
    assert_eq!(Unicast::TX_BYTES, 128 * 64 * 2 + 256 * 64 * 2);
    assert_eq!(Cluster::TX_BYTES, Unicast::TX_BYTES);
    assert_eq!(Unicast::SMEM_BYTES, 4 * 49152 + 1024 + 16 * 4);
    // The rings from the first 1024-byte boundary, B's after A's four stages.
    let (_, (ring_a, ring_b)) = Cluster::carve(100);
    assert_eq!(ring_a.stage(0).base(), 1024);
    assert_eq!(ring_a.stage(3).base(), 1024 + 3 * 16384);
    assert_eq!(ring_b.stage(1).base(), 1024 + 4 * 16384 + 32768);
}
