//! The FlashAttention kernel's tiles, atoms and pipelines, shared by the kernel and its host
//! (`cute-gpu-host` includes this file: it encodes the TMA tensor maps from the same tiles and
//! launches with the same shared-memory size).

use core::marker::PhantomData;

use cute_atom::algorithm::{AccRows, StoreEpilogue};
use cute_atom::atom::{Multicast, TmaCopy, TmaLoad, TmaStore};
use cute_atom::pipeline::tma_async::SM90_SMEM_BYTES;
use cute_atom::pipeline::{PipelineTmaAsync, Ring, StageCopies};
use cute_static::gmma::{LayoutAtom, ModeSizes, Sw128, K, MN};
use cute_static::mma::{
    MmaAtom, SM90_64x128x16_F32F16F16_SS, SM90_64x176x16_F32F16F16_SS, SM90_64x64x16_F32F16F16_RS,
    SM90_64x80x16_F32F16F16_SS,
};
use cute_static::product::{leaf_call, ConstLeaves};
use cute_static::swizzle::{ComposedLayout, Swizzle};
use cute_static::tma::TmaBox;
use cute_static::typenum::{P3, U0, U16, U3};
use cute_static::{Layout, Shape, TileToShape};

/// Query rows a block, keys a step (of the kernels of 128-key blocks), the head dimension of the
/// 128 kernels (a head dimension is `64 H`, `H` halves of 64).
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
/// `S` over 176 keys: FlashAttention-3's key block for head dimension 128 without the causal
/// mask (`tile_size_fwd_sm90`: 128 x 176), fewer softmax steps a row for the same products.
pub type Score176 = SM90_64x176x16_F32F16F16_SS;
/// `S` over 80 keys: FlashAttention-3's key block for head dimension 256 (`tile_size_fwd_sm90`:
/// 128 x 80), whose `Q`, `K` and `V` tiles of 256 columns fill shared memory with two stages.
pub type Score80 = SM90_64x80x16_F32F16F16_SS;
/// `O += P·V`: 64 query rows by 64 of the head dimension (two of them for 128), `P` from
/// registers, `V` MN-major.
pub type Out = SM90_64x64x16_F32F16F16_RS;

/// A 128-row, 64-column half of a `Q`, `K` or `V` tile, K-major (rows of 128 bytes, 128-byte
/// swizzle): `tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>, (128,64))`, one TMA box.
pub type Half = <LayoutAtom<K, Sw128, U16> as TileToShape<Shape![(128, 64)]>>::Output;
/// The same bytes of a `V` half read as `O += P·V`'s B: `(64, keys)`, MN-major,
/// `tile_to_shape(GMMA::Layout_MN_SW128_Atom<half_t>, (64,128))`.
pub type VHalf = <LayoutAtom<MN, Sw128, U16> as TileToShape<Shape![(64, 128)]>>::Output;
/// [`Half`] and [`VHalf`] of a 176-key block.
pub type Half176 = <LayoutAtom<K, Sw128, U16> as TileToShape<Shape![(176, 64)]>>::Output;
pub type VHalf176 = <LayoutAtom<MN, Sw128, U16> as TileToShape<Shape![(64, 176)]>>::Output;
/// [`Half`] and [`VHalf`] of an 80-key block.
pub type Half80 = <LayoutAtom<K, Sw128, U16> as TileToShape<Shape![(80, 64)]>>::Output;
pub type VHalf80 = <LayoutAtom<MN, Sw128, U16> as TileToShape<Shape![(64, 80)]>>::Output;
/// `O += P·V` over the whole head dimension of 128 in one atom (the `_wide` kernels, as
/// FlashAttention-3's `TiledMmaPV` takes `N = kHeadDim`): one `wgmma` a k-block of `P`
/// instead of one for each half, its B [`VBoth`].
pub type OutWide = cute_static::mma::SM90_64x128x16_F32F16F16_RS;
/// A `V` stage's two halves read as one `(128, keys)` MN-major B of [`OutWide`]: [`VHalf`]'s
/// 64-column atoms, then the same at half 1's stage, `STAGES` tiles of `keys x 64` past half
/// 0's in the ring (`((64,2),(8,keys/8)):((1,64·keys·STAGES),(64,512))` under the 128-byte
/// swizzle; the MN-major canonical GMMA tile's LBO is that distance).
pub type VBoth = ComposedLayout<Swizzle<U3, U3, P3>, U0, Layout![((64, 2), (8, 16)):((1, 16384), (64, 512))]>;
/// [`VBoth`] of a 176-key block.
pub type VBoth176 = ComposedLayout<Swizzle<U3, U3, P3>, U0, Layout![((64, 2), (8, 22)):((1, 22528), (64, 512))]>;
/// The same atoms for bfloat16 (their fragments are the f16 atoms').
pub type ScoreBf16 = cute_static::mma::SM90_64x128x16_F32BF16BF16_SS;
pub type Score176Bf16 = cute_static::mma::SM90_64x176x16_F32BF16BF16_SS;
pub type Score80Bf16 = cute_static::mma::SM90_64x80x16_F32BF16BF16_SS;
pub type OutBf16 = cute_static::mma::SM90_64x64x16_F32BF16BF16_RS;
pub type OutWideBf16 = cute_static::mma::SM90_64x128x16_F32BF16BF16_RS;
/// The TMA load of one half.
pub type LoadHalf = TmaLoad<U16, Half>;

/// The epilogue's shared tile of `O` (the `*_epi` kernels, FlashAttention-3's `smem_o`): a
/// consumer warpgroup's 64 rows by one 64-column half, K-major, 128-byte swizzle
/// (`tile_to_shape(GMMA::Layout_K_SW128_Atom<half_t>, (64,64))`: each `stmatrix` phase writes
/// 8 rows of one 16-byte chunk, which the swizzle spreads over the 32 banks), one TMA box.
pub type OTile = <LayoutAtom<K, Sw128, U16> as TileToShape<Shape![(64, 64)]>>::Output;
/// The TMA store of an `O` tile, through `O`'s map of rank 3, `(seq, d, batch·heads)`: the box
/// `(64, 64, 1)` stops at its head's last row, so a ragged block's rows past it are not written
/// (they are the next head's first rows).
pub type StoreO = TmaStore<U16, OTile>;
/// The epilogue's `stmatrix` copy into an `O` tile: a warpgroup's accumulators of `O += P·V`
/// (atom `A`) eight at a time (16 columns of 64 rows), `composition(CLayout, (_, 8))` of the
/// atom's C layout as the tiled copy's thread-value layout (`make_tiled_copy_C` of its first 16
/// columns: each accumulator lands at its C coordinate, `cute-atom/tests/stmatrix.rs`). The
/// kernel names it by its generic `O`, not a concrete atom: a concrete copy is inlined by
/// rustc's MIR inliner into the generic body, which changed every attention kernel's code
/// (`docs/gpu.md`).
pub type StoreSmemO<A> = StoreEpilogue<<A as MmaAtom>::CLayout>;
/// A thread's registers of one `O` tile (its accumulators of one half, two values each).
pub const O_REGS: usize = <<Out as MmaAtom>::CLayout as ModeSizes>::SIZES[1] / 2;
/// Bytes of an `O` tile.
pub const O_TILE: u32 = <OTile as TmaBox<U16>>::BYTES;

/// A key block of `16 KB` keys (`KB` k-blocks of `P` in `O += P·V`): its `K` and `V` halves
/// (`keys x 64`, one TMA box each) and a `V` half read as `O += P·V`'s B.
pub struct Keys<const KB: usize>;
pub trait KeyBlock {
    /// Keys a block.
    const N: usize;
    /// A `K` or `V` half as the TMA writes it and `S = Q·Kᵀ` reads it.
    type Half: TmaBox<U16> + Default + Copy;
    /// A `V` half as `O += P·V`'s B.
    type VHalf: Default + Copy;
    /// Half a `K` or `V` half's rows: the part of it each block of a cluster of 2 loads.
    type Part: TmaBox<U16>;
}
impl KeyBlock for Keys<5> {
    const N: usize = 80;
    type Half = Half80;
    type VHalf = VHalf80;
    type Part = <LayoutAtom<K, Sw128, U16> as TileToShape<Shape![(40, 64)]>>::Output;
}
impl KeyBlock for Keys<8> {
    const N: usize = 128;
    type Half = Half;
    type VHalf = VHalf;
    type Part = <LayoutAtom<K, Sw128, U16> as TileToShape<Shape![(64, 64)]>>::Output;
}
impl KeyBlock for Keys<11> {
    const N: usize = 176;
    type Half = Half176;
    type VHalf = VHalf176;
    type Part = <LayoutAtom<K, Sw128, U16> as TileToShape<Shape![(88, 64)]>>::Output;
}
/// The TMA load of a key block's half by a block of a cluster of `CL`: the whole box (`CL` 1),
/// or (2) its part of the rows, multicast to both blocks, which share the head's `K` and `V`.
pub trait KeyLoads<const CL: usize>: KeyBlock {
    type Load: TmaCopy<Elem = u16, Tile = Self::Half> + Default;
}
impl<Kb: KeyBlock> KeyLoads<1> for Kb {
    type Load = TmaLoad<U16, Kb::Half>;
}
impl<Kb: KeyBlock> KeyLoads<2> for Kb {
    type Load = TmaLoad<U16, Kb::Half, Multicast<Kb::Part, 0b11>>;
}
/// The TMA load of a key block's half, a block alone.
pub type LoadKeys<Kb> = <Kb as KeyLoads<1>>::Load;

/// A head dimension of `H` halves of 64: the copies of one tile (a half each, `L` the load of
/// one) and their rings' halves.
pub struct Halves<const H: usize>;
pub trait HeadDim {
    /// `H`.
    const HALVES: usize;
    /// The copies of one tile, a tuple of `H` loads `L`.
    type Copies<L: TmaCopy>: StageCopies<Rings: HalfRings<L>>;
}
impl HeadDim for Halves<1> {
    const HALVES: usize = 1;
    type Copies<L: TmaCopy> = (L,);
}
impl HeadDim for Halves<2> {
    const HALVES: usize = 2;
    type Copies<L: TmaCopy> = (L, L);
}
impl HeadDim for Halves<4> {
    const HALVES: usize = 4;
    type Copies<L: TmaCopy> = (L, L, L, L);
}
/// The rings of a tile's halves: half `h`'s.
pub trait HalfRings<L: TmaCopy>: Copy {
    fn half(&self, h: usize) -> Ring<L>;
}
impl<L: TmaCopy> HalfRings<L> for (Ring<L>,) {
    #[inline(always)]
    fn half(&self, _: usize) -> Ring<L> {
        self.0
    }
}
impl<L: TmaCopy> HalfRings<L> for (Ring<L>, Ring<L>) {
    #[inline(always)]
    fn half(&self, h: usize) -> Ring<L> {
        if h == 0 {
            self.0
        } else {
            self.1
        }
    }
}
impl<L: TmaCopy> HalfRings<L> for (Ring<L>, Ring<L>, Ring<L>, Ring<L>) {
    #[inline(always)]
    fn half(&self, h: usize) -> Ring<L> {
        match h {
            0 => self.0,
            1 => self.1,
            2 => self.2,
            _ => self.3,
        }
    }
}
/// The pipelines: `Q`'s tile loaded once, the rings of `K` and `V` tiles of key block `Kb`.
pub type PipeQ<Hd> = PipelineTmaAsync<1, <Hd as HeadDim>::Copies<LoadHalf>, 1, CONSUMERS>;
pub type PipeKv<Hd, Kb, const CL: usize = 1> =
    PipelineTmaAsync<STAGES, <Hd as HeadDim>::Copies<<Kb as KeyLoads<CL>>::Load>, CL, CONSUMERS>;

/// A block's dynamic shared memory for `Hd` and `Kb` (in clusters or not: the rings' sizes are
/// the same, `body` checks it): the three pipelines, then the word through which a persistent
/// kernel's producer sends each tile with its `Q` (16 bytes).
pub struct Smem<Hd, Kb>(PhantomData<(Hd, Kb)>);
/// The rings of `Q`'s pipeline, and of `K`'s or `V`'s in a cluster of `CL`.
pub type RingsQ<Hd> = <<Hd as HeadDim>::Copies<LoadHalf> as StageCopies>::Rings;
pub type RingsKv<Hd, Kb, const CL: usize> = <<Hd as HeadDim>::Copies<<Kb as KeyLoads<CL>>::Load> as StageCopies>::Rings;
/// What [`Smem::carve`] gives: each pipeline with its rings, then the slot's address.
pub type Carved<Hd, Kb, const CL: usize> = (
    (PipeQ<Hd>, RingsQ<Hd>),
    (PipeKv<Hd, Kb, CL>, RingsKv<Hd, Kb, CL>),
    (PipeKv<Hd, Kb, CL>, RingsKv<Hd, Kb, CL>),
    u32,
);
impl<Hd: HeadDim, Kb: KeyBlock> Smem<Hd, Kb> {
    /// The pipelines one after another, each carved alone (its rings from its own 1024-byte
    /// boundary, its barriers after them): the layout of the kernels of head dimension 64 and
    /// 128, the ones measured.
    const APART: usize = PipeQ::<Hd>::SMEM_BYTES + 2 * PipeKv::<Hd, Kb>::SMEM_BYTES + 16;
    /// Whether the pipelines are packed instead: the three rings from one 1024-byte boundary,
    /// then every barrier. Head dimension 256 needs it: apart, its 224 KiB of tiles and three
    /// alignments pass 227 KiB by 96 bytes.
    pub const PACKED: bool = Self::APART > SM90_SMEM_BYTES;
    pub const BYTES: usize = {
        let bytes = if Self::PACKED {
            1024 + PipeQ::<Hd>::RING_BYTES
                + 2 * PipeKv::<Hd, Kb>::RING_BYTES
                + PipeQ::<Hd>::BARRIER_BYTES
                + 2 * PipeKv::<Hd, Kb>::BARRIER_BYTES
                + 16
        } else {
            Self::APART
        };
        assert!(bytes <= SM90_SMEM_BYTES, "the attention kernel's pipelines exceed a block's 227 KiB");
        bytes
    };

    /// With the epilogue through shared memory (the `*_epi` kernels): then 1 KiB to align the
    /// `O` tiles, and a tile for each consumer's half of the head dimension.
    pub const EPI_BYTES: usize = Self::BYTES + 1024 + CONSUMERS * Hd::HALVES * O_TILE as usize;
    /// Whether they fit a block's 227 KiB (head dimension 64 and 128).
    pub const EPI_FITS: bool = Self::EPI_BYTES <= SM90_SMEM_BYTES;

    /// The first `O` tile of the epilogue through shared memory (consumer `w`'s half `h` at
    /// `(H w + h) O_TILE` past it), after the slot at `slot` that [`carve`](Self::carve) gave.
    #[inline(always)]
    pub fn o_tiles(slot: u32) -> u32 {
        (slot + 16 + 1023) & !1023
    }

    /// Whether the epilogue's `O` tiles go into `V`'s ring instead (FlashAttention-3's
    /// `smem_o`, which lines up with `smem_v`): where separate tiles do not fit (176-key blocks:
    /// 244 KiB), consumer `w`'s `H` tiles in stage 0 of `V`'s half `w`. `body` then syncs both
    /// consumers before writing them (neither reads `V` any more) and the producer waits for
    /// their stores to have read them before it loads the next tile's `V` ([`o_bar`]).
    ///
    /// [`o_bar`]: Self::o_bar
    pub const O_IN_V: bool = !Self::EPI_FITS;
    /// Whether a consumer's `O` tiles fit in a stage of a half of `V` (one half a consumer).
    pub const O_FITS_V: bool =
        CONSUMERS <= Hd::HALVES && Hd::HALVES * O_TILE as usize <= <Kb::Half as TmaBox<U16>>::BYTES as usize;

    /// The mbarrier through which the consumers tell the producer (where [`O_IN_V`]) that their
    /// stores of a tile's `O` have read `V`'s stage: the slot's second 8 bytes (its first word
    /// is the tile a persistent kernel's producer sends).
    ///
    /// [`O_IN_V`]: Self::O_IN_V
    #[inline(always)]
    pub fn o_bar(slot: u32) -> u32 {
        slot + 8
    }

    /// The pipelines of `Q`, `K` and `V` (those of a cluster of `CL`) and the slot's address,
    /// in the [`BYTES`](Self::BYTES) of dynamic shared memory at `smem`.
    #[inline(always)]
    pub fn carve<const CL: usize>(smem: u32) -> Carved<Hd, Kb, CL>
    where
        Kb: KeyLoads<CL>,
    {
        // The host sizes shared memory by the rings of a block alone.
        const { assert!(PipeKv::<Hd, Kb, CL>::SMEM_BYTES == PipeKv::<Hd, Kb>::SMEM_BYTES) };
        let (q_ring, kv_ring) = (PipeQ::<Hd>::RING_BYTES as u32, PipeKv::<Hd, Kb>::RING_BYTES as u32);
        if Self::PACKED {
            let ring = (smem + 1023) & !1023;
            let bars = ring + q_ring + 2 * kv_ring;
            let (q_bars, kv_bars) = (PipeQ::<Hd>::BARRIER_BYTES as u32, PipeKv::<Hd, Kb>::BARRIER_BYTES as u32);
            (
                PipeQ::<Hd>::carve_at(ring, bars),
                PipeKv::<Hd, Kb, CL>::carve_at(ring + q_ring, bars + q_bars),
                PipeKv::<Hd, Kb, CL>::carve_at(ring + q_ring + kv_ring, bars + q_bars + kv_bars),
                bars + q_bars + 2 * kv_bars,
            )
        } else {
            let (q_bytes, kv_bytes) = (PipeQ::<Hd>::SMEM_BYTES as u32, PipeKv::<Hd, Kb>::SMEM_BYTES as u32);
            (
                PipeQ::<Hd>::carve(smem),
                PipeKv::<Hd, Kb, CL>::carve(smem + q_bytes),
                PipeKv::<Hd, Kb, CL>::carve(smem + q_bytes + kv_bytes),
                smem + q_bytes + 2 * kv_bytes,
            )
        }
    }
}

/// Dynamic shared memory a block of the head dimension 128 kernels of 128-key blocks (and of
/// those whose epilogue goes through shared memory).
pub const SMEM_BYTES: usize = Smem::<Halves<2>, Keys<8>>::BYTES;
pub const SMEM_BYTES_EPI: usize = {
    assert!(Smem::<Halves<2>, Keys<8>>::EPI_FITS, "the pipelines and O's tiles exceed a block's 227 KiB");
    Smem::<Halves<2>, Keys<8>>::EPI_BYTES
};

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
