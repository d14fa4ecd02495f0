//! The Hopper HGEMM's tiles, shared-memory layouts, copies and pipeline, shared by the kernel
//! and its host (`cute-gpu-host` includes this file): the host derives the TMA tensor maps from
//! the same layouts the kernel's descriptors are read off, and launches with the pipeline's
//! shared-memory size.

use cute_atom::algorithm::StoreEpilogue;
use cute_atom::atom::{Multicast, TmaLoad, TmaStore};
use cute_atom::pipeline::PipelineTmaAsync;
use cute_static::gmma::{LayoutAtom, Sw128, K};
use cute_static::layout::Idx2Crd;
use cute_static::layout::Sizes;
use cute_static::mma::{MmaAtom, SM90_64x256x16_F32F16F16_SS};
use cute_static::tma::TmaBox;
use cute_static::typenum::{U16, U8};
use cute_static::{layout, shape, Cons, Nil, Shape, TileToShape};

/// The k-tiles of `A` (`BM x BK`) and `B` (`BN x BK`) a stage holds.
pub type TileA = Shape![(128, 64)];
pub type TileB = Shape![(256, 64)];
/// The block tile of `C`, and the k-tile: the stages' extents.
pub const BM: usize = <TileA as Sizes>::MODES[0];
pub const BN: usize = <TileB as Sizes>::MODES[0];
pub const BK: usize = <TileA as Sizes>::MODES[1];
/// Depth of the shared-memory ring.
pub const STAGES: usize = 4;
/// Consumer warpgroups (64 rows of the block tile each); one producer warpgroup besides.
pub const CONSUMERS: usize = 2;
/// Row tiles a raster group (`hgemm_sm90`'s `group` argument, the host's default).
pub const RASTER: usize = 16;
/// Threads a block.
pub const THREADS: usize = 128 * (CONSUMERS + 1);
/// Bytes of a stage of `A` and of `B`: the TMA box that writes it, computed (and its
/// conditions checked) by the compiler from the stage's layout.
pub const STAGE_A: u32 = <StageA as TmaBox<U16>>::BYTES;
pub const STAGE_B: u32 = <StageB as TmaBox<U16>>::BYTES;
/// Dynamic shared memory a block: the ring, 1 KiB to align it, 2 * STAGES mbarriers (the
/// pipeline's count, checked against the block's 227 KiB by the compiler).
pub const SMEM_BYTES: usize = Pipeline::<LoadA, LoadB, 1>::SMEM_BYTES;

/// The 128-byte-swizzled K-major atom of 16-bit elements: `Sw<3,4,3> o smem_ptr[16b] o (8,64):(64,1)`.
pub type Atom = LayoutAtom<K, Sw128, U16>;
/// The `A` ring: `tile_to_shape(Layout_K_SW128_Atom<half_t>, (128,64,4))`.
pub type SmemA = <Atom as TileToShape<Shape![(128, 64, 4)]>>::Output;
/// The `B` ring: `tile_to_shape(Layout_K_SW128_Atom<half_t>, (256,64,4))`.
pub type SmemB = <Atom as TileToShape<Shape![(256, 64, 4)]>>::Output;
/// One stage of each: the TMA box's shared layout.
pub type StageA = <Atom as TileToShape<TileA>>::Output;
pub type StageB = <Atom as TileToShape<TileB>>::Output;
/// The half of a `B` stage each block of a cluster of 2 loads and multicasts.
pub type PartB = <Atom as TileToShape<Shape![(128, 64)]>>::Output;
/// The copies of a stage: `A`'s tile, and `B`'s, whole or in halves multicast to the cluster
/// of 2 (mask 0b11, both blocks).
pub type LoadA = TmaLoad<U16, StageA>;
pub type LoadB = TmaLoad<U16, StageB>;
pub type LoadBMulticast = TmaLoad<U16, StageB, Multicast<PartB, 0b11>>;
/// The half of an `A` stage each block of a 1x2 cluster (two column tiles side by side) loads
/// and multicasts, `A`'s tile multicast and `B`'s loaded by each block: the ping-pong's 64-row
/// tile of `A` (the host's one 64-row map serves both).
pub type PartA = StagePpA;
pub type LoadAMulticast = TmaLoad<U16, StageA, Multicast<PartA, 0b11>>;
/// The TMA → MMA ring of a cluster of `CL` blocks, `A` copied by `A` and `B` by `B`.
pub type Pipeline<A, B, const CL: usize> = PipelineTmaAsync<STAGES, (A, B), CL, CONSUMERS>;

/// The 8-bit float operands (`fp8_gemm_sm90*`, e4m3): the same 128-byte swizzle atom over
/// bytes, `Sw<3,4,3> o smem_ptr[8b] o (8,128):(128,1)`, so a k-tile of 128 elements is one
/// 128-byte row, and a stage the same 48 KiB as the 16-bit kernels' (checked below).
pub type Atom8 = LayoutAtom<K, Sw128, U8>;
/// One stage of `A` (`128 x 128`) and `B` (`256 x 128`):
/// `tile_to_shape(GMMA::Layout_K_SW128_Atom<float_e4m3_t>, ...)`.
pub type Stage8A = <Atom8 as TileToShape<Shape![(128, 128)]>>::Output;
pub type Stage8B = <Atom8 as TileToShape<Shape![(256, 128)]>>::Output;
/// The half of a `B` stage each block of a cluster of 2 loads and multicasts.
pub type Part8B = <Atom8 as TileToShape<Shape![(128, 128)]>>::Output;
pub type Load8A = TmaLoad<U8, Stage8A>;
pub type Load8B = TmaLoad<U8, Stage8B>;
pub type Load8BMulticast = TmaLoad<U8, Stage8B, Multicast<Part8B, 0b11>>;
pub type Part8A = Stage8PpA;
pub type Load8AMulticast = TmaLoad<U8, Stage8A, Multicast<Part8A, 0b11>>;
/// Ping-pong (`*_pingpong`): a consumer warpgroup's own 64-row tile of `A` a stage, `B`'s as
/// the cooperative kernels'; each stage read by one consumer.
pub type StagePpA = <Atom as TileToShape<Shape![(64, 64)]>>::Output;
pub type LoadPpA = TmaLoad<U16, StagePpA>;
pub type Stage8PpA = <Atom8 as TileToShape<Shape![(64, 128)]>>::Output;
pub type Load8PpA = TmaLoad<U8, Stage8PpA>;
/// The ping-pong kernels' ring (40 KiB a stage) and their dynamic shared memory: the ring,
/// 1 KiB to align the epilogue's buffers, the buffers (checked against 227 KiB).
pub type PipelinePp<A> = PipelineTmaAsync<STAGES, (A, LoadB), 1, 1>;
pub const SMEM_BYTES_PP: usize = {
    assert!(
        PipelinePp::<LoadPpA>::SMEM_BYTES == PipelineTmaAsync::<STAGES, (Load8PpA, Load8B), 1, 1>::SMEM_BYTES,
        "the 8-bit ping-pong ring's size differs"
    );
    let bytes = PipelinePp::<LoadPpA>::SMEM_BYTES + 1024 + C_BUFFERS * C_TILE as usize;
    assert!(bytes <= cute_atom::pipeline::tma_async::SM90_SMEM_BYTES, "the ping-pong ring and buffers exceed 227 KiB");
    bytes
};
/// The 8-bit kernels' k-tile.
pub const BK8: usize = <Shape![(128, 128)] as Sizes>::MODES[1];
/// The epilogue's shared tile of `C`: a warpgroup's 64 rows by 64 columns, rows of 128 bytes,
/// 128-byte swizzle (`tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>, (64,64))`: each
/// `stmatrix` phase writes 8 rows of one 16-byte chunk, which the swizzle spreads over the
/// 32 banks), stored by one TMA box.
pub type CTile = <Atom as TileToShape<Shape![(64, 64)]>>::Output;
/// The TMA store of a `C` tile.
pub type StoreC = TmaStore<U16, CTile>;
/// The epilogue's `stmatrix` copy into a `C` tile: a warpgroup's accumulators eight at a time
/// (16 columns of 64 rows), `composition(CLayout, (_, 8))` of the atom's C layout as the tiled
/// copy's thread-value layout (CuTe's `make_tiled_copy_C` of the atom's first 16 columns).
pub type StoreSmemC = StoreEpilogue<AccLayout>;
/// A thread's registers of one 64-column chunk of its accumulators, two values each.
pub const CHUNK_REGS: usize = ACC / (BN / 64) / 2;
/// Bytes of a `C` tile, and the epilogue's buffers: two a consumer warpgroup (one written while
/// the other's store reads it).
pub const C_TILE: u32 = <CTile as TmaBox<U16>>::BYTES;
pub const C_BUFFERS: usize = 2 * CONSUMERS;
/// Dynamic shared memory a block of the kernels whose epilogue stores through shared memory:
/// the pipeline's, 1 KiB to align the buffers, the buffers (checked against 227 KiB).
pub const SMEM_BYTES_TMA_EPI: usize = {
    // The cluster kernels' ring (B multicast) takes the same bytes: one size for every kernel.
    assert!(Pipeline::<LoadA, LoadBMulticast, 2>::SMEM_BYTES == SMEM_BYTES, "the cluster ring's size differs");
    assert!(Pipeline::<Load8A, Load8B, 1>::SMEM_BYTES == SMEM_BYTES, "the 8-bit ring's size differs");
    assert!(Pipeline::<Load8A, Load8BMulticast, 2>::SMEM_BYTES == SMEM_BYTES, "the 8-bit cluster ring's size differs");
    assert!(Pipeline::<LoadAMulticast, LoadB, 2>::SMEM_BYTES == SMEM_BYTES, "the 1x2 cluster ring's size differs");
    assert!(Pipeline::<Load8AMulticast, Load8B, 2>::SMEM_BYTES == SMEM_BYTES, "the 8-bit 1x2 ring's size differs");
    let bytes = SMEM_BYTES + 1024 + C_BUFFERS * C_TILE as usize;
    assert!(
        bytes <= cute_atom::pipeline::tma_async::SM90_SMEM_BYTES,
        "the ring and the epilogue's buffers exceed 227 KiB"
    );
    bytes
};
/// A consumer warpgroup's accumulators: the atom's `size<1>(CLayout)`.
pub const ACC: usize = cute_atom::atom::mma::values::<AccLayout>();
/// The `m64n256` accumulators of a warpgroup: (thread, value) to the column-major index of
/// the 64x256 tile, the atom's own C layout (CuTe's `SM90::GMMA::CLayout_64x256`).
pub type AccLayout = <SM90_64x256x16_F32F16F16_SS as MmaAtom>::CLayout;

/// The order in which a grid's blocks (or clusters) take the block tiles of an `m x n` `C`.
/// The unit of work is a cluster's `cluster` tiles side by side, one a block, which share the
/// tile of the operand their copy multicasts: `cluster` row tiles sharing `B` (2x1), or, with
/// `along_n`, `cluster` column tiles sharing `A` (1x2). Units run through raster groups of
/// `group` row units, the row fastest, so that the units running at once share the rows of
/// `A` and the columns of `B` they read (through L2): the layout `(group, n_units, groups) ->
/// unit`, column-major, whose inverse gives a unit's coordinate.
#[derive(Clone, Copy, Debug)]
pub struct Raster {
    group: usize,
    n_units: usize,
    groups: usize,
    cluster: usize,
    along_n: bool,
    /// Rows of C, and of a block tile.
    m: usize,
    bm: usize,
}

impl Raster {
    /// The raster of `(m, n)` in `bm x BN` tiles (`group` > 0).
    #[inline(always)]
    pub fn new((m, n): (usize, usize), bm: usize, group: usize, cluster: usize, along_n: bool) -> Raster {
        let (cl_m, cl_n) = if along_n { (1, cluster) } else { (cluster, 1) };
        let (n_units, groups) = (n.div_ceil(BN * cl_n), m.div_ceil(bm * cl_m).div_ceil(group));
        Raster { group, n_units, groups, cluster, along_n, m, bm }
    }

    /// The units, the last raster group's included (its row units past `m` among them).
    #[inline(always)]
    pub fn units(&self) -> usize {
        self.groups * self.group * self.n_units
    }

    /// Unit `unit`'s block tile `(row, column)` of `C` for the cluster's block `rank`, and
    /// whether the unit's rows start inside `m` (the last group's units past it are skipped,
    /// the whole cluster's).
    #[inline(always)]
    pub fn place(&self, unit: usize, rank: usize) -> ((usize, usize), bool) {
        let (group, n_units, groups) = (self.group, self.n_units, self.groups);
        let Cons(i, Cons(j, Cons(g, Nil))) = shape!(({ group }, { n_units }, { groups })).idx2crd(unit);
        let row = layout!(({ group }, 1):(1, { group })).call_coord(&shape!(({ i }, { g })));
        if self.along_n {
            ((row, self.cluster * j + rank), row * self.bm < self.m)
        } else {
            ((self.cluster * row + rank, j), self.cluster * row * self.bm < self.m)
        }
    }
}
