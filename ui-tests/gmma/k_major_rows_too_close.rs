// A row-major (64,16) tile of halves as a K-major operand: its 8-row core matrices' rows are
// 32 bytes apart (2 16-byte units), where the interleaved layout has them 16 bytes apart.
// CuTe C++ refuses it with "Not a canonical GMMA_K Layout: Expected stride failure."
use cute_static::gmma::{make_gmma_desc, K};
use cute_static::layout;
use cute_static::typenum::U16;

fn main() {
    let _ = make_gmma_desc::<K, U16, _>(layout!((64,16):(16,1)), 0);
}
