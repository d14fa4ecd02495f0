// A generic prologue that tiles, then partitions the tile, bounding only the first step.
use cute_static::tensor::TensorError;
use cute_static::LocalTile;

fn thread_part<L, T, C, Thr>(a: L, tiler: T, cta: &C, threads: Thr, tid: usize) -> Result<usize, TensorError>
where
    L: LocalTile<T, C>,
{
    let (tile, _) = a.try_local_tile(tiler, cta)?;
    let (_, offset) = tile.local_partition(threads, tid)?;
    Ok(offset)
}

fn main() {}
