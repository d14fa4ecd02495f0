// A thread's part of a CTA's tile in generic code (CuTe's `local_tile` then
// `local_partition`), the tile's bound forgotten: the error names the trait to add,
// `LocalPartition<Thr>`, not the division inside it.
use cute_static::tensor::LocalPartition;
use cute_static::Layout;

pub fn thread_offset<L, TS, TD>(tile: L, threads: Layout<TS, TD>, t: usize) -> usize {
    tile.local_partition(threads, t).map(|(_, offset)| offset).unwrap_or(0)
}

fn main() {}
