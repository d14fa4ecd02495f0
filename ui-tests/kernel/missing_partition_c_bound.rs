// A kernel generic over its tiled MMA, calling partition_c without saying it may.
use cute_static::tensor::TensorError;

fn c_offset<M, L>(mma: &M, c: L, tid: usize) -> Result<usize, TensorError> {
    let (_, offset) = mma.partition_c(c, tid)?;
    Ok(offset)
}

fn main() {}
