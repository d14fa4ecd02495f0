//! The TMA → MMA ring (CUTLASS's `PipelineTmaAsync`): `STAGES` stages of shared tiles, each
//! filled by TMA copies and read by consumer warpgroups; two mbarriers a stage, `full` (the
//! producer's arrival and the copies' transaction bytes) and `empty` (every consumer of the
//! cluster's release). What a stage expects is computed from its copies, never typed in, and
//! checked when the pipeline is built:
//!
//! * each copy delivers exactly its tile's bytes a stage (a multicast copy's parts from every
//!   block of its mask);
//! * each multicast mask names blocks of the cluster only;
//! * the ring, its alignment and its barriers fit a block's shared memory (227 KiB on sm_90).
//!
//! A consumer releases a stage with one arrive per block of the cluster, each destination
//! block signalled by its own thread (threads `0 .. CLUSTER` of the warpgroup), at the default
//! `.release.cta` scope ([`mbarrier_arrive_cluster`]).

use core::marker::PhantomData;

use crate::arch::barrier::{
    mbarrier_arrive, mbarrier_arrive_cluster, mbarrier_arrive_expect_tx, mbarrier_init, mbarrier_wait,
};
use crate::atom::copy::TmaCopy;
use crate::check::{fail, Piece::*};
use crate::tensor::SmemTensor;

/// Shared memory a block may have on sm_90 (`cudaDevAttrMaxSharedMemoryPerBlockOptin`, 227 KiB).
pub const SM90_SMEM_BYTES: usize = 227 * 1024;

/// A position in the ring: the stage and the parity of the barriers' phase there (CUTLASS's
/// `PipelineState`).
///
/// # Examples
/// ```
/// use cute_atom::pipeline::PipelineState;
/// // CUTLASS's `PipelineState<2>`: `++` wraps to stage 0 and flips the phase.
/// let mut s = PipelineState::<2>::consumer_start();
/// s.advance();
/// assert_eq!((s.index(), s.phase()), (1, 0));
/// s.advance();
/// assert_eq!((s.index(), s.phase()), (0, 1));
/// ```
#[derive(Clone, Copy)]
pub struct PipelineState<const STAGES: usize> {
    index: usize,
    phase: u32,
}

impl<const STAGES: usize> PipelineState<STAGES> {
    /// A consumer's first position: stage 0, waiting for the first fill (phase 0).
    #[inline(always)]
    pub fn consumer_start() -> Self {
        PipelineState { index: 0, phase: 0 }
    }
    /// A producer's first position: stage 0, phase 1, which a fresh `empty` barrier counts as
    /// completed, so the first round's acquires pass at once.
    #[inline(always)]
    pub fn producer_start() -> Self {
        PipelineState { index: 0, phase: 1 }
    }
    /// The stage.
    #[inline(always)]
    pub fn index(&self) -> usize {
        self.index
    }
    /// The phase parity.
    #[inline(always)]
    pub fn phase(&self) -> u32 {
        self.phase
    }
    /// The next stage; past the last, stage 0 of the next round, the phase flipped.
    #[inline(always)]
    pub fn advance(&mut self) {
        self.index += 1;
        if self.index == STAGES {
            self.index = 0;
            self.phase ^= 1;
        }
    }
    /// `n` stages on, as `n` [`advance`](Self::advance)s (CUTLASS's `advance(n)`): the phase
    /// flips once a round passed. A ping-pong consumer lets the other's `n` stages pass so.
    ///
    /// # Examples
    /// ```
    /// use cute_atom::pipeline::PipelineState;
    /// let mut s = PipelineState::<4>::consumer_start();
    /// s.advance_by(9); // two rounds and one stage: the phase flipped twice
    /// assert_eq!((s.index(), s.phase()), (1, 0));
    /// s.advance_by(3);
    /// assert_eq!((s.index(), s.phase()), (0, 1));
    /// ```
    #[inline(always)]
    pub fn advance_by(&mut self, n: usize) {
        let i = self.index + n % (2 * STAGES);
        self.phase ^= (i / STAGES % 2) as u32;
        self.index = i % STAGES;
    }
}

/// The copies that fill one stage, a tuple of [`TmaCopy`]s (one ring each).
pub trait StageCopies {
    /// The rings, in the tuple's order.
    type Rings: Copy;
    /// Each copy's tile bytes, delivered bytes and multicast mask.
    const TILES: &'static [u32];
    const DELIVERED: &'static [u32];
    const MASKS: &'static [u16];
    /// The rings of `STAGES` stages from shared address `base` (each 1024-byte aligned where
    /// the one before is a multiple of 1024 bytes a stage).
    fn rings(base: u32, stages: usize) -> Self::Rings;
}

/// The `STAGES` shared tiles a copy fills, one after another.
pub struct Ring<C: TmaCopy> {
    base: u32,
    copy: PhantomData<C>,
}
impl<C: TmaCopy> Clone for Ring<C> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<C: TmaCopy> Copy for Ring<C> {}

impl<C: TmaCopy> Ring<C> {
    /// Stage `s`'s tile.
    #[inline(always)]
    pub fn stage(&self, s: usize) -> SmemTensor<C::Elem, C::Tile> {
        SmemTensor::new(self.base + s as u32 * C::TILE_BYTES, C::Tile::default())
    }
}

macro_rules! stage_copies {
    ($(($($c:ident $i:tt),*))*) => {$(
        impl<$($c: TmaCopy),*> StageCopies for ($($c,)*) {
            type Rings = ($(Ring<$c>,)*);
            const TILES: &'static [u32] = &[$($c::TILE_BYTES),*];
            const DELIVERED: &'static [u32] = &[$($c::DELIVERED),*];
            const MASKS: &'static [u16] = &[$($c::MASK),*];
            #[inline(always)]
            #[allow(unused_assignments)] // the last ring's end
            fn rings(base: u32, stages: usize) -> Self::Rings {
                let mut at = base;
                ($({
                    let r = Ring::<$c> { base: at, copy: PhantomData };
                    at += stages as u32 * $c::TILE_BYTES;
                    r
                },)*)
            }
        }
    )*};
}

stage_copies! {
    (C0 0)
    (C0 0, C1 1)
    (C0 0, C1 1, C2 2)
    (C0 0, C1 1, C2 2, C3 3)
}

/// The ring of `STAGES` stages filled by the copies `Copies` (a tuple of [`TmaCopy`]) in a
/// cluster of `CLUSTER` blocks, each stage read by `CONSUMERS` warpgroups a block. Holds the
/// shared address of its barriers.
///
/// # Examples
/// ```
/// use cute_atom::atom::TmaLoad;
/// use cute_atom::pipeline::PipelineTmaAsync;
/// use cute_static::gmma::{LayoutAtom, Sw128, K};
/// use cute_static::typenum::U16;
/// use cute_static::{Shape, TileToShape};
/// // CUTLASS's sm90 GEMM: tile_to_shape(Layout_K_SW128_Atom<half_t>, (128,64)) for A and
/// // (256,64) for B, 4 stages: 48 KiB a stage, expected in full by the stage's barrier.
/// type Atom = LayoutAtom<K, Sw128, U16>;
/// type StageA = <Atom as TileToShape<Shape![(128, 64)]>>::Output;
/// type StageB = <Atom as TileToShape<Shape![(256, 64)]>>::Output;
/// type Pipeline = PipelineTmaAsync<4, (TmaLoad<U16, StageA>, TmaLoad<U16, StageB>), 1, 2>;
/// assert_eq!(Pipeline::TX_BYTES, 48 * 1024);
/// assert_eq!(Pipeline::SMEM_BYTES, 4 * 48 * 1024 + 1024 + 4 * 16);
/// ```
pub struct PipelineTmaAsync<const STAGES: usize, Copies, const CLUSTER: usize, const CONSUMERS: usize> {
    bars: u32,
    copies: PhantomData<Copies>,
}

impl<const STAGES: usize, Copies: StageCopies, const CLUSTER: usize, const CONSUMERS: usize>
    PipelineTmaAsync<STAGES, Copies, CLUSTER, CONSUMERS>
{
    /// The bytes of one stage of every ring.
    pub const STAGE_BYTES: u32 = sum(Copies::TILES);
    /// The transaction bytes a stage's `full` barrier expects in each block: what its copies
    /// deliver there.
    pub const TX_BYTES: u32 = sum(Copies::DELIVERED);
    /// The rings' bytes, and the barriers' (two mbarriers a stage): the parts [`carve_at`]
    /// places where a caller lays several pipelines out together.
    ///
    /// [`carve_at`]: Self::carve_at
    pub const RING_BYTES: usize = STAGES * Self::STAGE_BYTES as usize;
    pub const BARRIER_BYTES: usize = 16 * STAGES;
    /// The dynamic shared memory a block needs: the rings, 1024 bytes to align them to the
    /// 128-byte swizzle's period, and two mbarriers a stage. Checked against sm_90's 227 KiB.
    pub const SMEM_BYTES: usize = {
        let bytes = Self::RING_BYTES + 1024 + Self::BARRIER_BYTES;
        if bytes > SM90_SMEM_BYTES {
            fail(&[
                S("PipelineTmaAsync: "),
                N(STAGES),
                S(" stages of "),
                N(Self::STAGE_BYTES as usize),
                S(" bytes, 1024 bytes of alignment and "),
                N(16 * STAGES),
                S(" of barriers are "),
                N(bytes),
                S(" bytes; a block on sm_90 has at most "),
                N(SM90_SMEM_BYTES),
                S(" (227 KiB)"),
            ]);
        }
        bytes
    };
    /// Every copy delivers its tile's bytes and multicasts inside the cluster.
    const CHECKED: () = {
        let mut i = 0;
        while i < Copies::TILES.len() {
            if Copies::DELIVERED[i] != Copies::TILES[i] {
                fail(&[S("PipelineTmaAsync: copy "), N(i), S(" of the stage delivers "), N(Copies::DELIVERED[i] as usize),
                    S(" bytes to each block, its tile holds "), N(Copies::TILES[i] as usize),
                    S(": the stage's barrier expects what its copies deliver, so the tile would not be exactly written when it completes")]);
            }
            let mask = Copies::MASKS[i] as usize;
            if CLUSTER > 16 || mask >> CLUSTER != 0 {
                fail(&[
                    S("PipelineTmaAsync: copy "),
                    N(i),
                    S("'s multicast mask "),
                    B(mask),
                    S(" names block "),
                    N(usize::BITS as usize - 1 - mask.leading_zeros() as usize),
                    S(", outside the cluster of "),
                    N(CLUSTER),
                    S(" blocks"),
                ]);
            }
            i += 1;
        }
        let _ = Self::SMEM_BYTES;
    };

    /// The pipeline over the dynamic shared memory at `smem` (the launch gives it
    /// [`SMEM_BYTES`](Self::SMEM_BYTES)): the rings from its first 1024-byte boundary, the
    /// barriers after them. Call [`init`](Self::init) from one thread, then a block (or
    /// cluster) barrier, before any use.
    #[inline(always)]
    pub fn carve(smem: u32) -> (Self, Copies::Rings) {
        // Not through `carve_at`: a refusal then names the function the caller called.
        let () = Self::CHECKED;
        let ring = (smem + 1023) & !1023;
        let bars = ring + STAGES as u32 * Self::STAGE_BYTES;
        (PipelineTmaAsync { bars, copies: PhantomData }, Copies::rings(ring, STAGES))
    }

    /// The pipeline with its rings at `ring` ([`RING_BYTES`](Self::RING_BYTES) from a
    /// 1024-byte boundary: the 128-byte swizzle's period) and its barriers at `bars`
    /// ([`BARRIER_BYTES`](Self::BARRIER_BYTES), 8-byte aligned), both the caller's dynamic
    /// shared memory: several pipelines' rings may then share one alignment, their barriers
    /// after them all. [`carve`](Self::carve)'s conditions follow.
    #[inline(always)]
    pub fn carve_at(ring: u32, bars: u32) -> (Self, Copies::Rings) {
        let () = Self::CHECKED;
        (PipelineTmaAsync { bars, copies: PhantomData }, Copies::rings(ring, STAGES))
    }

    /// Stage `s`'s `full` barrier.
    #[inline(always)]
    fn full(&self, s: usize) -> u32 {
        self.bars + 8 * s as u32
    }
    /// Stage `s`'s `empty` barrier.
    #[inline(always)]
    fn empty(&self, s: usize) -> u32 {
        self.bars + 8 * (STAGES + s) as u32
    }

    /// Initializes the barriers: `full` waits for the producer's arrival (and the bytes),
    /// `empty` for every consumer warpgroup of the cluster.
    ///
    /// # Safety
    /// One thread of the block calls it, before the barrier that publishes it and before any
    /// other use.
    #[inline(always)]
    pub unsafe fn init(&self) {
        for s in 0..STAGES {
            // SAFETY: the barriers' own words, the caller's promise.
            unsafe {
                mbarrier_init(self.full(s), 1);
                mbarrier_init(self.empty(s), (CONSUMERS * CLUSTER) as u32);
            }
        }
    }

    /// The producer waits until the stage at `state` is free, then arrives on its `full`
    /// barrier expecting [`TX_BYTES`](Self::TX_BYTES); returns that barrier, for the copies.
    ///
    /// # Safety
    /// One thread a block, after [`init`](Self::init) was published.
    #[inline(always)]
    pub unsafe fn producer_acquire(&self, state: &PipelineState<STAGES>) -> u32 {
        // SAFETY: the caller's promise.
        unsafe {
            self.producer_wait(state);
            self.producer_expect(state)
        }
    }

    /// The first half of [`producer_acquire`](Self::producer_acquire): the producer waits until
    /// the stage at `state` is free. Between the halves it may write what the consumers read
    /// with the stage (the arrive after it releases those writes to them).
    ///
    /// # Safety
    /// As [`producer_acquire`](Self::producer_acquire).
    #[inline(always)]
    pub unsafe fn producer_wait(&self, state: &PipelineState<STAGES>) {
        // SAFETY: an initialized barrier, the caller's promise.
        unsafe { mbarrier_wait(self.empty(state.index()), state.phase()) }
    }

    /// The second half of [`producer_acquire`](Self::producer_acquire): arrives on the stage's
    /// `full` barrier expecting [`TX_BYTES`](Self::TX_BYTES); returns that barrier, for the
    /// copies.
    ///
    /// # Safety
    /// After [`producer_wait`](Self::producer_wait) of the same `state`; then the copies of
    /// every tile of the stage.
    #[inline(always)]
    pub unsafe fn producer_expect(&self, state: &PipelineState<STAGES>) -> u32 {
        let s = state.index();
        // SAFETY: an initialized barrier, the caller's promise.
        unsafe { mbarrier_arrive_expect_tx(self.full(s), Self::TX_BYTES) };
        self.full(s)
    }

    /// Completes the stage at `state` with no copies (CUTLASS's `producer_commit` of a
    /// producer without transactions): the consumers' wait passes on the producer's arrival
    /// alone, and they read only what it wrote after [`producer_wait`](Self::producer_wait)
    /// (a scheduler's "no more work", say).
    ///
    /// # Safety
    /// After [`producer_wait`](Self::producer_wait) of the same `state`; no copy into the stage.
    #[inline(always)]
    pub unsafe fn producer_commit(&self, state: &PipelineState<STAGES>) {
        // SAFETY: an initialized barrier, the caller's promise.
        unsafe { mbarrier_arrive(self.full(state.index())) }
    }

    /// A consumer waits until the stage at `state` is full.
    ///
    /// # Safety
    /// After [`init`](Self::init) was published.
    #[inline(always)]
    pub unsafe fn consumer_wait(&self, state: &PipelineState<STAGES>) {
        // SAFETY: an initialized barrier, the caller's promise.
        unsafe { mbarrier_wait(self.full(state.index()), state.phase()) }
    }

    /// A consumer warpgroup releases the stage at `state` to every block's producer: thread
    /// `t < CLUSTER` of the warpgroup arrives on block `t`'s `empty` barrier.
    ///
    /// # Safety
    /// Every thread of one consumer warpgroup calls it, once per use of the stage, after its
    /// reads of the stage completed; every block of the cluster is running (a cluster barrier
    /// before exit keeps it so).
    #[inline(always)]
    pub unsafe fn consumer_release(&self, state: &PipelineState<STAGES>, t: usize) {
        let bar = self.empty(state.index());
        // SAFETY: initialized barriers in every block of the cluster, the caller's promise.
        unsafe {
            if CLUSTER == 1 {
                if t == 0 {
                    mbarrier_arrive(bar);
                }
            } else if t < CLUSTER {
                mbarrier_arrive_cluster(bar, t as u32);
            }
        }
    }
}

/// The sum of `xs` (a constant).
const fn sum(xs: &[u32]) -> u32 {
    let (mut total, mut i) = (0, 0);
    while i < xs.len() {
        total += xs[i];
        i += 1;
    }
    total
}
