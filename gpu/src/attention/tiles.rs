//! The FlashAttention kernel's tiles, atoms and pipelines, shared by the kernel and its host
//! (`cute-gpu-host` includes this file: it encodes the TMA tensor maps from the same tiles and
//! launches with the same shared-memory size).

use cute_atom::algorithm::AccRows;
use cute_atom::atom::TmaLoad;
use cute_atom::pipeline::tma_async::SM90_SMEM_BYTES;
use cute_atom::pipeline::{PipelineTmaAsync, Ring, StageCopies};
use cute_static::gmma::{LayoutAtom, ModeSizes, Sw128, K, MN};
use cute_static::mma::{MmaAtom, SM90_64x128x16_F32F16F16_SS, SM90_64x64x16_F32F16F16_RS};
use cute_static::product::{leaf_call, ConstLeaves};
use cute_static::typenum::U16;
use cute_static::{Shape, TileToShape};

/// Query rows a block, keys a step, the head dimension of the 128 kernels (a head dimension is
/// `64 H`, `H` halves of 64).
pub const BM: usize = 128;
pub const BN: usize = 128;
pub const D: usize = 128;
/// Depth of the K and V rings.
pub const STAGES: usize = 2;
/// Consumer warpgroups (64 query rows each); one producer warpgroup besides.
pub const CONSUMERS: usize = 2;
/// Threads a block.
pub const THREADS: usize = 128 * (CONSUMERS + 1);

/// `S = Q·Kᵀ`: 64 query rows by 128 keys, both operands K-major in shared memory.
pub type Score = SM90_64x128x16_F32F16F16_SS;
/// `O += P·V`: 64 query rows by 64 of the head dimension (two of them for 128), `P` from
/// registers, `V` MN-major.
pub type Out = SM90_64x64x16_F32F16F16_RS;

/// A 128-row, 64-column half of a `Q`, `K` or `V` tile, K-major (rows of 128 bytes, 128-byte
/// swizzle): `tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>, (128,64))`, one TMA box.
pub type Half = <LayoutAtom<K, Sw128, U16> as TileToShape<Shape![(128, 64)]>>::Output;
/// The same bytes of a `V` half read as `O += P·V`'s B: `(64, keys)`, MN-major,
/// `tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>, (64,128))`.
pub type VHalf = <LayoutAtom<MN, Sw128, U16> as TileToShape<Shape![(64, 128)]>>::Output;
/// The same atoms for bfloat16 (their fragments are the f16 atoms').
pub type ScoreBf16 = cute_static::mma::SM90_64x128x16_F32BF16BF16_SS;
pub type OutBf16 = cute_static::mma::SM90_64x64x16_F32BF16BF16_RS;
/// The TMA load of one half.
pub type LoadHalf = TmaLoad<U16, Half>;
/// A head dimension of `H` halves of 64: the copies of one tile (a half each), their rings'
/// halves, and the pipelines (`Q`'s tile loaded once, the rings of `K` and `V` tiles).
pub struct Halves<const H: usize>;
pub trait HeadDim {
    /// The copies of one tile, a tuple of `H` half loads.
    type Copies: StageCopies<Rings: HalfRings>;
    /// Dynamic shared memory a block: the three pipelines, one after another, then the word
    /// through which a persistent kernel's producer sends each tile with its `Q` (16 bytes).
    const SMEM_BYTES: usize = {
        let bytes = PipeQ::<Self>::SMEM_BYTES + 2 * PipeKv::<Self>::SMEM_BYTES + 16;
        assert!(bytes <= SM90_SMEM_BYTES, "the attention kernel's pipelines exceed a block's 227 KiB");
        bytes
    };
}
impl HeadDim for Halves<1> {
    type Copies = (LoadHalf,);
}
impl HeadDim for Halves<2> {
    type Copies = (LoadHalf, LoadHalf);
}
/// The rings of a tile's halves: half `h`'s.
pub trait HalfRings: Copy {
    fn half(&self, h: usize) -> Ring<LoadHalf>;
}
impl HalfRings for (Ring<LoadHalf>,) {
    #[inline(always)]
    fn half(&self, _: usize) -> Ring<LoadHalf> {
        self.0
    }
}
impl HalfRings for (Ring<LoadHalf>, Ring<LoadHalf>) {
    #[inline(always)]
    fn half(&self, h: usize) -> Ring<LoadHalf> {
        if h == 0 {
            self.0
        } else {
            self.1
        }
    }
}
pub type PipeQ<Hd> = PipelineTmaAsync<1, <Hd as HeadDim>::Copies, 1, CONSUMERS>;
pub type PipeKv<Hd> = PipelineTmaAsync<STAGES, <Hd as HeadDim>::Copies, 1, CONSUMERS>;

/// Dynamic shared memory a block of the head dimension 128 kernels.
pub const SMEM_BYTES: usize = <Halves<2> as HeadDim>::SMEM_BYTES;

/// The rows a consumer thread holds (`S`'s local rows, `O`'s the same: [`FIRST_OF_ROW`]).
pub const ROWS: usize = AccRows::<Score>::ROW_OF.1;

/// The first value of each of a thread's local rows of `O`, checked by the compiler to be, for
/// every thread, the tile row of the same local row of `S` (the softmax's row statistics,
/// indexed by `S`'s local rows, rescale and divide `O`'s).
pub const FIRST_OF_ROW: [usize; ROWS] = {
    let (s_rows, o_rows) = (AccRows::<Score>::ROW_OF, AccRows::<Out>::ROW_OF);
    assert!(s_rows.1 == o_rows.1, "S's and O's accumulators hold different numbers of rows a thread");
    let (s, o) =
        (<<Score as MmaAtom>::CLayout as ConstLeaves>::LEAVES, <<Out as MmaAtom>::CLayout as ConstLeaves>::LEAVES);
    let (ts, to) =
        (<<Score as MmaAtom>::CLayout as ModeSizes>::SIZES[0], <<Out as MmaAtom>::CLayout as ModeSizes>::SIZES[0]);
    assert!(ts == to, "S's and O's atoms have different threads");
    let mut first = [0; ROWS];
    let mut k = 0;
    while k < ROWS {
        let (mut vs, mut vo) = (0, 0);
        while s_rows.0[vs] != k {
            vs += 1;
        }
        while o_rows.0[vo] != k {
            vo += 1;
        }
        first[k] = vo;
        let mut t = 0;
        while t < ts {
            // Rows of the 64-row tiles: the column-major index modulo 64.
            assert!(
                leaf_call(&s, t + ts * vs) % 64 == leaf_call(&o, t + to * vo) % 64,
                "a thread's local row of S is not the same tile row as its local row of O"
            );
            t += 1;
        }
        k += 1;
    }
    first
};
