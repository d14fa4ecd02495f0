// FA3's relabelling of score accumulators as an RS atom's A fragment, for an 8-bit float atom:
// its A holds four elements a register in another order, so the accumulators would need a
// register permute, which is not built. Refused by the bound, in words.
use cute_atom::algorithm::acc_as_a;
use cute_atom::atom::MmaCall;
use cute_static::mma::{SM90_64x128x16_F32F16F16_SS, SM90_64x64x32_F32E4M3E4M3_RS_TN};

fn main() {
    let s = SM90_64x128x16_F32F16F16_SS::zeros();
    let _ = acc_as_a::<SM90_64x128x16_F32F16F16_SS, SM90_64x64x32_F32E4M3E4M3_RS_TN, 4>(&s);
}
