//! `gemm` over shared-memory operands with `wgmma` (CuTe's `cute::gemm(tiled_mma, tCrA, tCrB,
//! tCrC)` where `tCrA`, `tCrB` are descriptor iterators): the block's MMA is a column of
//! warpgroups over `M` (CUTLASS's `TiledMMA<MMA_Atom<Op>, Layout<Shape<_W,_1,_1>>>`), each one
//! the atom's `64 x N` tile of `C`; a warpgroup's slice walks the k-blocks of the stage's
//! tiles, one descriptor pair each, read off the tiles' layouts by the type checker
//! ([`GmmaTile`]). Every condition between the operands and the atom is checked by the
//! compiler, its error naming the atom and the numbers.

use core::marker::PhantomData;

use cute_static::gmma::{ElementBits, GmmaTile, ModeSizes, TileParts, K};
use cute_static::tiler::ByMode;
use cute_static::typenum::U1;
use cute_static::{Cons, Layout, Nil};

use crate::arch::wgmma::{self, Accumulators, Transpose};
use crate::atom::mma::{Element, Element16, MmaCall};
use crate::check::{fail, Piece::*};
use crate::tensor::SmemTensor;

/// `W` warpgroups of atom `A` stacked over `M` (CuTe's `TiledMMA<MMA_Atom<A>, Layout<(W,1,1)>>`),
/// A and B of majors `MjA`, `MjB` in shared memory. Zero-sized.
///
/// # Examples
/// ```
/// use cute_atom::algorithm::TiledWgmma;
/// use cute_static::mma::SM90_64x256x16_F32F16F16_SS;
/// // CUTLASS's 128x256 tile: two consumer warpgroups of the 64x256x16 atom; warpgroup 1 takes
/// // rows 64..128 of the stage's A.
/// let mma = TiledWgmma::<SM90_64x256x16_F32F16F16_SS, 2>::new();
/// let _second = mma.slice(1);
/// ```
pub struct TiledWgmma<A, const W: usize, MjA = K, MjB = K>(PhantomData<(A, MjA, MjB)>);

/// The tiler of one atom's operand tile, `<rows:1, k:1>`.
type AtomTiler<R, Kx> = ByMode<Cons<Layout<R, U1>, Cons<Layout<Kx, U1>, Nil>>>;

impl<A: MmaCall, const W: usize, MjA: Transpose, MjB: Transpose> TiledWgmma<A, W, MjA, MjB> {
    /// The tiled MMA.
    #[inline(always)]
    pub fn new() -> Self {
        TiledWgmma(PhantomData)
    }

    /// Warpgroup `w`'s slice (CuTe's `get_slice`): rows `64w ..` of the block's tile.
    #[inline(always)]
    pub fn slice(&self, w: usize) -> WgmmaSlice<A, W, MjA, MjB> {
        WgmmaSlice { w, tiled: PhantomData }
    }
}

impl<A, const W: usize, MjA, MjB> Default for TiledWgmma<A, W, MjA, MjB>
where
    A: MmaCall,
    MjA: Transpose,
    MjB: Transpose,
{
    fn default() -> Self {
        Self::new()
    }
}

/// One warpgroup's part of a [`TiledWgmma`].
pub struct WgmmaSlice<A, const W: usize, MjA, MjB> {
    w: usize,
    tiled: PhantomData<(A, MjA, MjB)>,
}

/// The shared tiles `LA` (`M x K`, of majors `MjA`) and `LB` (`N x K`) an atom multiplies: the
/// one bound a generic kernel writes for [`WgmmaSlice::gemm`] (`Atom: WgmmaOperands<StageA,
/// StageB, K, K>`). Implemented for every atom and pair of static shared layouts whose
/// atom-sized tiles are canonical GMMA tiles (the type checker divides them).
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot multiply shared tiles of layouts `{LA}` and `{LB}`",
    label = "in generic code, add the bound `{Self}: WgmmaOperands<{LA}, {LB}, {MjA}, {MjB}>`",
    note = "the tiles are static shared layouts (tile_to_shape of a gmma::LayoutAtom) whose 64x16 (A) and Nx16 (B) tiles are canonical GMMA tiles"
)]
pub trait WgmmaOperands<LA, LB, MjA, MjB>: MmaCall<A = u64, B = u64> {
    /// `[size<0>, size<1>]` of each tile.
    const A_SIZES: [usize; 2];
    const B_SIZES: [usize; 2];
    /// The descriptor of A's atom tile `(m, kk)` and of B's `(n, kk)`, the tiles at shared
    /// addresses `base`.
    fn desc_a(m: usize, kk: usize, base: u32) -> u64;
    fn desc_b(n: usize, kk: usize, base: u32) -> u64;
}

impl<A, LA, LB, MjA, MjB> WgmmaOperands<LA, LB, MjA, MjB> for A
where
    A: MmaCall<A = u64, B = u64>,
    LA: TileParts
        + GmmaTile<AtomTiler<A::M, A::K>, Cons<usize, Cons<usize, Nil>>, MjA, <A::Elem as Element>::Bits>
        + Default,
    LB: TileParts
        + GmmaTile<AtomTiler<A::N, A::K>, Cons<usize, Cons<usize, Nil>>, MjB, <A::Elem as Element>::Bits>
        + Default,
    LA::Layout: ModeSizes,
    LB::Layout: ModeSizes,
    AtomTiler<A::M, A::K>: Default,
    AtomTiler<A::N, A::K>: Default,
{
    const A_SIZES: [usize; 2] = <LA::Layout as ModeSizes>::SIZES;
    const B_SIZES: [usize; 2] = <LB::Layout as ModeSizes>::SIZES;
    #[inline(always)]
    fn desc_a(m: usize, kk: usize, base: u32) -> u64 {
        LA::default().gmma_desc_of_tile(Default::default(), &Cons(m, Cons(kk, Nil)), base)
    }
    #[inline(always)]
    fn desc_b(n: usize, kk: usize, base: u32) -> u64 {
        LB::default().gmma_desc_of_tile(Default::default(), &Cons(n, Cons(kk, Nil)), base)
    }
}

/// The shared tile `LB` (`N x K`, of major `MjB`) an `RS` atom (A from registers) multiplies:
/// the one bound a generic kernel writes for [`WgmmaSlice::gemm_rs`].
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot multiply a shared B tile of layout `{LB}`",
    label = "in generic code, add the bound `{Self}: WgmmaOperandB<{LB}, {MjB}>`",
    note = "B is a static shared layout (tile_to_shape of a gmma::LayoutAtom) whose Nx16 tiles are canonical GMMA tiles"
)]
pub trait WgmmaOperandB<LB, MjB>: MmaCall<B = u64> {
    /// `[size<0>, size<1>]` of the tile.
    const B_SIZES: [usize; 2];
    /// The descriptor of B's atom tile `(n, kk)`, the tile at shared address `base`.
    fn desc_b(n: usize, kk: usize, base: u32) -> u64;
}

impl<A, LB, MjB> WgmmaOperandB<LB, MjB> for A
where
    A: MmaCall<B = u64>,
    LB: TileParts
        + GmmaTile<AtomTiler<A::N, A::K>, Cons<usize, Cons<usize, Nil>>, MjB, <A::Elem as Element>::Bits>
        + Default,
    LB::Layout: ModeSizes,
    AtomTiler<A::N, A::K>: Default,
{
    const B_SIZES: [usize; 2] = <LB::Layout as ModeSizes>::SIZES;
    #[inline(always)]
    fn desc_b(n: usize, kk: usize, base: u32) -> u64 {
        LB::default().gmma_desc_of_tile(Default::default(), &Cons(n, Cons(kk, Nil)), base)
    }
}

/// The conditions between an `RS` atom, the k-blocks `KB` of its register A fragment, B's
/// tile `LB` of `Eb`: B is `N x (16 KB)`.
struct FitRs<A, LB, MjB, Eb, const KB: usize>(PhantomData<(A, LB, MjB, Eb)>);
impl<A: WgmmaOperandB<LB, MjB>, LB, MjB, Eb, const KB: usize> FitRs<A, LB, MjB, Eb, KB> {
    const CHECKED: () = {
        let [_, n, k] = A::SHAPE_MNK;
        let bits = <<A::Elem as Element>::Bits as ElementBits>::BITS;
        check_b("gemm_rs", A::NAME, bits, core::mem::size_of::<Eb>() * 8, A::B_SIZES, n);
        let bk = A::B_SIZES[1];
        if bk != KB * k {
            fail(&[
                S("gemm_rs: the A fragment holds "),
                N(KB),
                S(" k-blocks of "),
                N(k),
                S(" ("),
                N(KB * k),
                S(" columns); B's tile has K = "),
                N(bk),
            ]);
        }
    };
}

/// B's element width and extent `N` against the atom's (both gemms' condition, `op` naming
/// which).
const fn check_b(op: &str, atom: &str, bits: usize, b_bits: usize, [bn, bk]: [usize; 2], n: usize) {
    if b_bits != bits {
        fail(&[
            S(op),
            S(": "),
            S(atom),
            S(" multiplies "),
            N(bits),
            S("-bit elements; B's are "),
            N(b_bits),
            S("-bit"),
        ]);
    }
    if bn != n {
        fail(&[
            S(op),
            S(": B's tile is "),
            N(bn),
            S(" x "),
            N(bk),
            S(" (N x K); "),
            S(atom),
            S(" multiplies "),
            N(n),
            S(" columns"),
        ]);
    }
}

/// The conditions between a stage's tiles, their elements `Ea`, `Eb` and the tiled atom, and
/// the k-blocks the tiles hold.
struct Fit<A, const W: usize, LA, LB, MjA, MjB, Ea, Eb>(PhantomData<(A, LA, LB, MjA, MjB, Ea, Eb)>);
impl<A: WgmmaOperands<LA, LB, MjA, MjB>, const W: usize, LA, LB, MjA, MjB, Ea, Eb> Fit<A, W, LA, LB, MjA, MjB, Ea, Eb> {
    const K_BLOCKS: usize = {
        let ([am, ak], [_, bk]) = (A::A_SIZES, A::B_SIZES);
        let [m, n, k] = A::SHAPE_MNK;
        let bits = <<A::Elem as Element>::Bits as ElementBits>::BITS;
        if core::mem::size_of::<Ea>() * 8 != bits {
            fail(&[
                S("gemm: "),
                S(A::NAME),
                S(" multiplies "),
                N(bits),
                S("-bit elements; A's are "),
                N(core::mem::size_of::<Ea>() * 8),
                S("-bit"),
            ]);
        }
        if am != m * W {
            fail(&[
                S("gemm: A's tile is "),
                N(am),
                S(" x "),
                N(ak),
                S(" (M x K); "),
                N(W),
                S(" warpgroups of "),
                S(A::NAME),
                S(" take "),
                N(m * W),
                S(" rows"),
            ]);
        }
        check_b("gemm", A::NAME, bits, core::mem::size_of::<Eb>() * 8, A::B_SIZES, n);
        if ak != bk {
            fail(&[S("gemm: A's tile has K = "), N(ak), S(" and B's K = "), N(bk), S("; they must be equal")]);
        }
        if ak % k != 0 {
            fail(&[S("gemm: the tiles' K, "), N(ak), S(", is not a multiple of "), S(A::NAME), S("'s K, "), N(k)]);
        }
        ak / k
    };
}

impl<A: MmaCall<A = u64, B = u64>, const W: usize, MjA: Transpose, MjB: Transpose> WgmmaSlice<A, W, MjA, MjB> {
    /// `acc += A · Bᵀ` over the stage's tiles `a` (`M x K`, this warpgroup's rows of it) and
    /// `b` (`N x K`): `wgmma.fence`, one atom a k-block (its descriptors those of the
    /// `64 x 16` and `N x 16` tiles at the k-block), `commit_group`. Asynchronous: read the
    /// accumulators after [`warpgroup_wait`]. The tiles' extents and elements are checked
    /// against the atom by the compiler (`gemm: B's tile is 128 x 64 (N x K);
    /// SM90_64x256x16_F32F16F16_SS multiplies 256 columns`).
    ///
    /// # Safety
    /// Every thread of the warpgroup calls it, together, with the same tensors: tiles of this
    /// block's shared memory that hold the operands and that no one writes until the group
    /// completes.
    #[inline(always)]
    pub unsafe fn gemm<Ea, Eb, LA, LB>(&self, a: &SmemTensor<Ea, LA>, b: &SmemTensor<Eb, LB>, acc: &mut A::Acc)
    where
        A: WgmmaOperands<LA, LB, MjA, MjB>,
    {
        let k_blocks = Fit::<A, W, LA, LB, MjA, MjB, Ea, Eb>::K_BLOCKS;
        // SAFETY: the caller's promise; the descriptors are the canonical tiles the type
        // checker divided.
        unsafe {
            wgmma::fence();
            for kk in 0..k_blocks {
                let (da, db) = (A::desc_a(self.w, kk, a.base()), A::desc_b(0, kk, b.base()));
                A::call::<MjA, MjB>(acc, da, db, 1);
            }
            wgmma::commit_group();
        }
    }
}

impl<A: MmaCall<A = [u32; 4], B = u64>, const W: usize, MjA, MjB: Transpose> WgmmaSlice<A, W, MjA, MjB> {
    /// `acc += A · Bᵀ` with A from this thread's registers, `KB` k-blocks of the atom's A
    /// fragment (CuTe's RS `gemm`: `tCrA` a register tensor), B the stage's shared `N x 16 KB`
    /// tile: `wgmma.fence`, one atom a k-block, `commit_group`. The fragment's k-blocks, B's
    /// extents and element width are checked against the atom at compile time (`gemm_rs: the A
    /// fragment holds 4 k-blocks of 16 (64 columns); B's tile has K = 128`). The fragment comes
    /// from [`acc_as_a`] (an accumulator relabelled) or a load in
    /// the atom's A layout.
    ///
    /// # Safety
    /// As [`gemm`](Self::gemm); `a` is this thread's fragment of the warpgroup's 64 rows.
    #[inline(always)]
    pub unsafe fn gemm_rs<Eb, LB, const KB: usize>(&self, a: &[[u32; 4]; KB], b: &SmemTensor<Eb, LB>, acc: &mut A::Acc)
    where
        A: WgmmaOperandB<LB, MjB>,
    {
        let () = FitRs::<A, LB, MjB, Eb, KB>::CHECKED;
        // SAFETY: the caller's promise; B's descriptors are the canonical tiles the type
        // checker divided.
        unsafe {
            wgmma::fence();
            for (kk, frag) in a.iter().enumerate() {
                A::call::<crate::atom::mma::RegistersA, MjB>(acc, *frag, A::desc_b(0, kk, b.base()), 1);
            }
            wgmma::commit_group();
        }
    }
}

/// FlashAttention-3's `convert_layout_acc_Aregs`: the accumulators of a `64 x N` atom `C` (a
/// softmax's `P`, fp32) as `N / 16` k-blocks of the A fragment of the `RS` atom `R`, rounded
/// to `R`'s 16-bit element. No data moves between threads: `C`'s value mode `(2,2,N/8):(64,8,512)`
/// divided by A's `(2,2,2):(64,8,512)` is `((2,2,2),N/16)`, so the accumulator pair `(v, v+1)`
/// of a thread is register `v / 2 % 4` of k-block `v / 8` of its A fragment (`cute-atom`'s
/// tests check it against both atoms' layouts at every thread, value and k-block). The counts
/// are checked at compile time; an 8-bit `R` (fp8, which would need a register permute) has
/// no 16-bit element and is refused by the bound.
///
/// # Examples
/// ```no_run
/// // (On the GPU: the conversion is `cvt.rn.f16x2.f32`.) FA3's second GEMM, O += P · V:
/// // P is S = Q·Kᵀ's 64x128 accumulators, relabelled as 8 k-blocks of the RS atom's A.
/// use cute_atom::algorithm::acc_as_a;
/// use cute_atom::atom::MmaCall;
/// use cute_static::mma::{SM90_64x128x16_F32F16F16_SS, SM90_64x64x16_F32F16F16_RS};
/// let s = SM90_64x128x16_F32F16F16_SS::zeros();
/// let p: [[u32; 4]; 8] = acc_as_a::<SM90_64x128x16_F32F16F16_SS, SM90_64x64x16_F32F16F16_RS, 8>(&s);
/// ```
#[inline(always)]
pub fn acc_as_a<C: MmaCall, R: MmaCall<A = [u32; 4], Elem: Element16>, const KB: usize>(
    acc: &C::Acc,
) -> [[u32; 4]; KB] {
    let () = Relabel::<C, R, KB>::CHECKED;
    let mut a = [[0u32; 4]; KB];
    acc.for_each_pair(|v, lo, hi| {
        let (kb, reg) = a_slot(v);
        a[kb][reg] = R::Elem::pack(lo, hi);
    });
    a
}

/// Where [`acc_as_a`] puts the accumulator pair `(v, v + 1)`: k-block `v / 8`, register
/// `v / 2 % 4` (each register holds a pair: value `j` of the A fragment is register `j / 2`).
#[inline(always)]
pub const fn a_slot(v: usize) -> (usize, usize) {
    (v / 8, v / 2 % 4)
}

/// `acc_as_a`'s conditions: the same 64 rows, `N = 16 KB` columns, 8 values a k-block.
struct Relabel<C, R, const KB: usize>(PhantomData<(C, R)>);
impl<C: MmaCall, R: MmaCall, const KB: usize> Relabel<C, R, KB> {
    const CHECKED: () = {
        let ([cm, cn, _], [rm, _, rk]) = (C::SHAPE_MNK, R::SHAPE_MNK);
        let values = core::mem::size_of::<C::Acc>() / 4;
        if cm != rm || cn != KB * rk || values != 8 * KB {
            fail(&[
                S("acc_as_a: "),
                S(C::NAME),
                S("'s "),
                N(cm),
                S(" x "),
                N(cn),
                S(" accumulators ("),
                N(values),
                S(" a thread) are not "),
                N(KB),
                S(" k-blocks of "),
                S(R::NAME),
                S("'s "),
                N(rm),
                S(" x "),
                N(rk),
                S(" A fragment (8 values each)"),
            ]);
        }
    };
}

/// `wgmma.wait_group GROUPS`, then the accumulators tied to this point: at most `GROUPS` of the
/// warpgroup's groups in flight, the accumulators of the others readable.
///
/// # Safety
/// Every thread of the warpgroup executes it, together.
#[inline(always)]
pub unsafe fn warpgroup_wait<const GROUPS: u32>(acc: &mut impl Accumulators) {
    // SAFETY: the caller's promise.
    unsafe { wgmma::wait_group::<GROUPS>() };
    acc.fence_operands();
}
