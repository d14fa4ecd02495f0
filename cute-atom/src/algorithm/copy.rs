//! `copy` and `copy_if` of a tiled copy (CuTe's `cute/algorithm/copy.hpp` over a `TiledCopy`):
//! each thread moves its values of a tile from a source tensor to a destination tensor, one
//! atom call (one instruction) per group of the atom's values. Where each call reads and writes
//! is the tiled copy's thread-value layout, evaluated at the thread, then each operand's layout
//! at that coordinate; that the atom's values are consecutive and aligned in the shared
//! operand is checked by the compiler. The atoms: `cp.async` (`SM80_CP_ASYNC_*_ZFILL`) from
//! global to shared memory; `UniversalCopy` (a load and a store of 1, 2, 4, 8 or 16 bytes) from
//! global to shared memory and from shared to global memory;
//! `ldmatrix` and `stmatrix` between shared tiles and register fragments
//! ([`copy_to_fragment`], [`copy_from_fragment`]).

use core::marker::PhantomData;

use cute_static::copy::{
    CopyAtom, CopyTiling, CopyTvs, SM75_U16x8_LDSM_T, SM75_U32x4_LDSM_N, SM90_U16x8_STSM_T, SM90_U32x4_STSM_N,
    TiledCopy, TilerMn, UniversalCopy, SM80_CP_ASYNC_CACHEALWAYS_ZFILL, SM80_CP_ASYNC_CACHEGLOBAL_ZFILL,
};
use cute_static::gmma::ModeSizes;
use cute_static::layout::{LayoutFn, Sizes};
use cute_static::product::{const_layout_call, leaf_call, ConstLayout, ConstLeaves, Leaves};
use cute_static::tensor::PtrTensor;
use cute_static::typenum::Unsigned;
use cute_static::{ByMode, Composition, Cons, Layout, LayoutAt, Nil, PtrAddr, Shape, Under};

use crate::arch::copy::{
    cp_async_ca, cp_async_cg16, ld_global_b16, ld_global_b32x1, ld_global_b32x2, ld_global_b32x4, ld_global_b8,
    ld_shared_b16, ld_shared_b32x1, ld_shared_b32x2, ld_shared_b32x4, ld_shared_b8, ldmatrix_x4, st_global_b16,
    st_global_b32x1, st_global_b32x2, st_global_b32x4, st_global_b8, st_shared_b16, st_shared_b32x1, st_shared_b32x2,
    st_shared_b32x4, st_shared_b8, stmatrix_x4,
};
use crate::check::{fail, Piece::*};
use crate::tensor::{SmemTensor, SmemTile};

type Crd2 = Cons<usize, Cons<usize, Nil>>;

/// A thread's atom calls over an operand of extents `ext`: the copy's `tile` repeated over it,
/// `M` first, and in each tile the thread's `values` in atoms of `v`; `body` at each call with
/// `(r, c)` its first value's coordinate in the first tile and `(dr, dc)` the repetition's
/// (the call's coordinate is their sum), that value's index in the tile being `tv` of its
/// value number `k`. A macro, not a function taking closures: through a closure LLVM no longer
/// hoisted hgemm's swizzled offsets out of its k loop (SASS +1.2% to +4.3%).
macro_rules! for_each_call {
    ($tile:expr, $ext:expr, $values:expr, $v:expr, |$k:ident| $tv:expr, |$r:ident, $c:ident, $dr:ident, $dc:ident| $body:block) => {{
        let ([tm, tn], [bm, bn], v) = ($tile, $ext, $v);
        for rn in 0..bn / tn {
            for rm in 0..bm / tm {
                for j in 0..$values / v {
                    let $k = j * v;
                    let i = $tv;
                    let ($r, $c, $dr, $dc) = (i % tm, i / tm, rm * tm, rn * tn);
                    $body
                }
            }
        }
    }};
}

/// A copy atom that executes (CuTe's `Copy_Traits<Op>::copy_unpack`): one call moves one
/// thread's values of the atom from `src` to `dst`, or (for the zero-filling atoms) writes
/// zeros to `dst` when `pred` is false.
pub trait CopyCall<S, D>: CopyAtom {
    /// The call.
    ///
    /// # Safety
    /// `src` and `dst` address the atom's values as its instruction needs them (consecutive,
    /// aligned to the access), `src` readable when `pred` holds, `dst` writable by this thread
    /// until the copy completes.
    unsafe fn call(src: S, dst: D, pred: bool);
}

/// The access width in bytes of `V` elements of `T` for a `cp.async` atom, checked by the
/// compiler against the widths the instruction has.
struct Width<A, T, V>(PhantomData<(A, T, V)>);
impl<A: CopyAtom, T, V: Unsigned> Width<A, T, V> {
    const fn bytes(allowed: &[usize]) -> u32 {
        let bytes = V::USIZE * core::mem::size_of::<T>();
        let mut i = 0;
        while i < allowed.len() {
            if allowed[i] == bytes {
                return bytes as u32;
            }
            i += 1;
        }
        fail(&[
            S(A::NAME),
            S(": "),
            N(V::USIZE),
            S(" elements of "),
            N(core::mem::size_of::<T>()),
            S(" bytes are "),
            N(bytes),
            S(" bytes; the instruction moves 16 (cp.async.cg), 4, 8 or 16 (cp.async.ca), or 1, 2, 4, 8 or 16 (UniversalCopy's ld/st)"),
        ])
    }
    const CG: u32 = Self::bytes(&[16]);
    const CA: u32 = Self::bytes(&[4, 8, 16]);
    const UNIVERSAL: u32 = Self::bytes(&[1, 2, 4, 8, 16]);
}

impl<T, V: Unsigned + Default + Copy> CopyCall<*mut T, u32> for SM80_CP_ASYNC_CACHEGLOBAL_ZFILL<V> {
    #[inline(always)]
    unsafe fn call(src: *mut T, dst: u32, pred: bool) {
        let _ = Width::<Self, T, V>::CG;
        // SAFETY: the caller's promise; 16 bytes (checked above).
        unsafe { cp_async_cg16(dst, src, pred) }
    }
}

impl<T, V: Unsigned + Default + Copy> CopyCall<*mut T, u32> for SM80_CP_ASYNC_CACHEALWAYS_ZFILL<V> {
    #[inline(always)]
    unsafe fn call(src: *mut T, dst: u32, pred: bool) {
        // SAFETY: the caller's promise; 4, 8 or 16 bytes (checked; a constant the compiler
        // folds the match on).
        unsafe {
            match Width::<Self, T, V>::CA {
                4 => cp_async_ca::<4, T>(dst, src, pred),
                8 => cp_async_ca::<8, T>(dst, src, pred),
                _ => cp_async_ca::<16, T>(dst, src, pred),
            }
        }
    }
}

/// `UniversalCopy`'s one load and one store of 1, 2, 4, 8 or 16 bytes (a constant width, so
/// the compiler folds the match), with `$ld` and `$st` the loads and stores of each width.
macro_rules! universal_copy {
    ($src:ty => $dst:ty, $what:literal, [$($bytes:pat => $ld:ident, $st:ident;)*]) => {
        impl<T, V: Unsigned + Default + Copy> CopyCall<$src, $dst> for UniversalCopy<V> {
            #[doc = concat!("CuTe's `UniversalCopy<uintN_t>` ", $what, ": one load to registers and one store of 1, 2, 4, 8")]
            /// or 16 bytes; nothing moves where `pred` is false (CuTe's `copy_if`: the
            /// destination keeps its values).
            #[inline(always)]
            unsafe fn call(src: $src, dst: $dst, pred: bool) {
                if !pred {
                    return;
                }
                // SAFETY: the caller's promise; 1, 2, 4, 8 or 16 bytes (checked).
                unsafe {
                    match Width::<Self, T, V>::UNIVERSAL {
                        $($bytes => $st(dst, $ld(src)),)*
                    }
                }
            }
        }
    };
}

universal_copy!(*mut T => u32, "from global to shared memory", [
    1 => ld_global_b8, st_shared_b8;
    2 => ld_global_b16, st_shared_b16;
    4 => ld_global_b32x1, st_shared_b32x1;
    8 => ld_global_b32x2, st_shared_b32x2;
    _ => ld_global_b32x4, st_shared_b32x4;
]);

universal_copy!(u32 => *mut T, "from shared to global memory", [
    1 => ld_shared_b8, st_global_b8;
    2 => ld_shared_b16, st_global_b16;
    4 => ld_shared_b32x1, st_global_b32x1;
    8 => ld_shared_b32x2, st_global_b32x2;
    _ => ld_shared_b32x4, st_global_b32x4;
]);

/// A tile a copy reads or writes: its static extents and the address of the element at a
/// coordinate (a tile of a global tensor, a shared tile).
pub trait CopyOperand {
    /// A global pointer or a shared address.
    type Addr: Copy;
    /// The tile's extents, `(M, N)`.
    const EXTENTS: [usize; 2];
    /// The address of element `(r, c)` (wrapping arithmetic, no access).
    fn addr_at(&self, r: usize, c: usize) -> Self::Addr;
    /// The address of element `(r + dr, c + dc)` as the address of `(r, c)` plus the offset of
    /// `(dr, dc)` from `(0, 0)`: for a copy's tile repeated over a shared operand whose offsets
    /// add up so ([`TiledCopyCall::SPLIT`], checked by the compiler for every coordinate), the
    /// compiler computes a thread's address once and adds a constant for each repetition
    /// (`transpose_padded`: PTX 132 to 120 instructions). A global tile's address stays whole
    /// (the default): split the same way, `hgemm`'s predicates went to registers (`P2R`) and its
    /// SASS grew from 688 to 768 instructions.
    #[inline(always)]
    fn addr_split(&self, (r, c): (usize, usize), (dr, dc): (usize, usize)) -> Self::Addr {
        self.addr_at(r + dr, c + dc)
    }
}

impl<T, S: Sizes, D> CopyOperand for PtrTensor<T, Layout<S, D>>
where
    Self: PtrAddr<Crd2, Elem = T>,
{
    type Addr = *mut T;
    const EXTENTS: [usize; 2] = [S::MODES[0], S::MODES[1]];
    #[inline(always)]
    fn addr_at(&self, r: usize, c: usize) -> *mut T {
        PtrAddr::addr_at(self, &Cons(r, Cons(c, Nil)))
    }
}

impl<T, L: Sizes + LayoutAt<Crd2>> CopyOperand for SmemTensor<T, L> {
    type Addr = u32;
    const EXTENTS: [usize; 2] = [L::MODES[0], L::MODES[1]];
    #[inline(always)]
    fn addr_at(&self, r: usize, c: usize) -> u32 {
        self.addr(self.layout().at(&Cons(r, Cons(c, Nil))))
    }
    #[inline(always)]
    fn addr_split(&self, (r, c): (usize, usize), (dr, dc): (usize, usize)) -> u32 {
        split_u32(self, (r, c), (dr, dc))
    }
}

/// [`CopyOperand::addr_split`] of a shared operand: `(r, c)`'s address plus `(dr, dc)`'s offset.
#[inline(always)]
fn split_u32<O: CopyOperand<Addr = u32>>(o: &O, (r, c): (usize, usize), (dr, dc): (usize, usize)) -> u32 {
    o.addr_at(r, c).wrapping_add(o.addr_at(dr, dc).wrapping_sub(o.addr_at(0, 0)))
}

impl<T, L: Sizes + LayoutAt<Crd2>, const R: usize, const C: usize, const TR: bool> CopyOperand
    for SmemTile<T, L, R, C, TR>
{
    type Addr = u32;
    const EXTENTS: [usize; 2] = [R, C];
    #[inline(always)]
    fn addr_at(&self, r: usize, c: usize) -> u32 {
        let (r, c) = self.coord(r, c);
        self.tensor().addr_at(r, c)
    }
    #[inline(always)]
    fn addr_split(&self, (r, c): (usize, usize), (dr, dc): (usize, usize)) -> u32 {
        split_u32(self, (r, c), (dr, dc))
    }
}

/// A tiled copy that executes from `Src` to `Dst` (CuTe's `copy(tiled_copy, src, dst)` over
/// the thread's partitions): the one bound generic code writes for [`copy`] and [`copy_if`].
/// Implemented when the atom executes between the operands' address kinds ([`CopyCall`]), the
/// shared operand's layout is static, and (checked by the compiler when the copy is
/// instantiated) the tile divides the operands, the atom's values lie along one mode of the
/// tile, and they are consecutive and aligned in the shared operand.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not copy from `{Src}` to `{Dst}`",
    label = "where the tiled copy is generic, add the bound `TiledCopyCall<Src, Dst>` for it",
    note = "the copy atom executes between the operands' address kinds (`CopyCall`), and the shared operand's layout is static"
)]
pub trait TiledCopyCall<Src: CopyOperand, Dst: CopyOperand>: Default {
    /// Threads of the tiled copy.
    const THREADS: usize;
    /// Values of a thread in one tile of the copy.
    const VALUES: usize;
    /// Values of one atom call.
    const ATOM_VALUES: usize;
    /// The copy's tile, `(TM, TN)`.
    const TILE: [usize; 2];
    /// The index in the copy's (column-major) tile of value `v` of thread `t`.
    fn tv(t: usize, v: usize) -> usize;
    /// One atom call.
    ///
    /// # Safety
    /// As [`CopyCall::call`].
    unsafe fn call(src: Src::Addr, dst: Dst::Addr, pred: bool);
    /// The conditions (evaluated by the compiler; see [`copy_if`]).
    const CHECKED: ();
    /// Whether each operand's (source's, destination's) addresses over the copy's repeated
    /// tiles are its first tile's plus a constant ([`CopyOperand::addr_split`]): a shared
    /// operand whose offsets add up so at every coordinate, which the compiler checks (a
    /// swizzle, or a nested mode the tile cuts across, does not).
    const SPLIT: [bool; 2];
}

impl<A, T, V, Src, Dst> TiledCopyCall<Src, Dst> for TiledCopy<A, T, V>
where
    A: CopyAtom<NumVal: Unsigned> + CopyCall<Src::Addr, Dst::Addr>,
    Self: CopyTiling<LayoutTv: ConstLeaves + ModeSizes + LayoutFn, Tile: Sizes>,
    Src: CopyOperand + ConstOperand,
    Dst: CopyOperand + ConstOperand,
{
    const THREADS: usize = <<Self as CopyTiling>::LayoutTv as ModeSizes>::SIZES[0];
    const VALUES: usize = <<Self as CopyTiling>::LayoutTv as ModeSizes>::SIZES[1];
    const ATOM_VALUES: usize = A::NumVal::USIZE;
    const TILE: [usize; 2] =
        [<<Self as CopyTiling>::Tile as Sizes>::MODES[0], <<Self as CopyTiling>::Tile as Sizes>::MODES[1]];
    #[inline(always)]
    fn tv(t: usize, v: usize) -> usize {
        <Self as CopyTiling>::LayoutTv::default().call(t + <Self as TiledCopyCall<Src, Dst>>::THREADS * v)
    }
    #[inline(always)]
    unsafe fn call(src: Src::Addr, dst: Dst::Addr, pred: bool) {
        // SAFETY: the caller's promise.
        unsafe { A::call(src, dst, pred) }
    }
    const CHECKED: () = {
        let [sm, sn] = Src::EXTENTS;
        if sm != Dst::EXTENTS[0] || sn != Dst::EXTENTS[1] {
            fail(&[
                S("copy: the source tile is "),
                N(sm),
                S(" x "),
                N(sn),
                S(", the destination "),
                N(Dst::EXTENTS[0]),
                S(" x "),
                N(Dst::EXTENTS[1]),
            ]);
        }
        // The shared operand's side (both, shared to shared); a global tile's is run-time.
        let tv = &<<Self as CopyTiling>::LayoutTv as ConstLeaves>::LEAVES;
        let (t, v, a) = (
            <Self as TiledCopyCall<Src, Dst>>::THREADS,
            <Self as TiledCopyCall<Src, Dst>>::VALUES,
            <Self as TiledCopyCall<Src, Dst>>::ATOM_VALUES,
        );
        let tile = <Self as TiledCopyCall<Src, Dst>>::TILE;
        if Dst::SHARED {
            check_atoms::<Dst>("destination", tv, t, v, a, tile);
        }
        if Src::SHARED {
            check_atoms::<Src>("source", tv, t, v, a, tile);
        }
    };
    const SPLIT: [bool; 2] = [
        additive::<Src>(<Self as TiledCopyCall<Src, Dst>>::TILE),
        additive::<Dst>(<Self as TiledCopyCall<Src, Dst>>::TILE),
    ];
}

/// An operand's layout, as constants the compiler evaluates where the operand is shared
/// (`SHARED`): the operand is one of `WINDOWS` tiles of a tensor ([`SmemTile`]; one, the whole
/// tensor, for a [`SmemTensor`]). A global tile's strides are run-time values: nothing is
/// evaluated, and its accesses' alignment is the caller's promise.
#[doc(hidden)]
pub trait ConstOperand: CopyOperand {
    /// The operand is in shared memory, and the other constants describe it.
    const SHARED: bool;
    /// The tensor's layout.
    type Layout: ConstLayout;
    /// The tensor's extents.
    const FULL: [usize; 2];
    /// How many of the operand's tiles the tensor holds along each of the operand's modes.
    const WINDOWS: [usize; 2];
    /// The operand's modes are the tensor's swapped.
    const TRANSPOSED: bool;
}
impl<T, S: Sizes, D> ConstOperand for PtrTensor<T, Layout<S, D>>
where
    Self: CopyOperand,
{
    const SHARED: bool = false;
    type Layout = cute_static::Layout![1:0];
    const FULL: [usize; 2] = [1, 1];
    const WINDOWS: [usize; 2] = [1, 1];
    const TRANSPOSED: bool = false;
}
impl<T, L: ConstLayout + Sizes + LayoutAt<Crd2>> ConstOperand for SmemTensor<T, L> {
    const SHARED: bool = true;
    type Layout = L;
    const FULL: [usize; 2] = [L::MODES[0], L::MODES[1]];
    const WINDOWS: [usize; 2] = [1, 1];
    const TRANSPOSED: bool = false;
}
impl<T, L: ConstLayout + Sizes + LayoutAt<Crd2>, const R: usize, const C: usize, const TR: bool> ConstOperand
    for SmemTile<T, L, R, C, TR>
{
    const SHARED: bool = true;
    type Layout = L;
    const FULL: [usize; 2] = [L::MODES[0], L::MODES[1]];
    const WINDOWS: [usize; 2] =
        if TR { [L::MODES[1] / R, L::MODES[0] / C] } else { [L::MODES[0] / R, L::MODES[1] / C] };
    const TRANSPOSED: bool = TR;
}

/// The offset in the tensor of `(r, c)` of tile `w` of the shared operand `S`.
const fn shared_offset<S: ConstOperand>(w: [usize; 2], r: usize, c: usize) -> usize {
    let (r, c) = (w[0] * S::EXTENTS[0] + r, w[1] * S::EXTENTS[1] + c);
    let (r, c) = if S::TRANSPOSED { (c, r) } else { (r, c) };
    const_layout_call::<S::Layout>(r + S::FULL[0] * c)
}

/// Whether shared operand `S`'s offsets add up over a copy's `(TM, TN)` tiles repeated over it:
/// in every tile of the tensor the operand may be, `offset(r + dr, c + dc) = offset(r, c) +
/// offset(dr, dc) - offset(0, 0)` for every `(r, c)` of the copy's tile and every repetition
/// `(dr, dc)`. False for a global operand (its strides are run-time values) and a swizzled one.
const fn additive<S: ConstOperand>([tm, tn]: [usize; 2]) -> bool {
    let [bm, bn] = S::EXTENTS;
    if !S::SHARED || <S::Layout as ConstLayout>::SWIZZLE.0 != 0 || tm == 0 || tn == 0 || bm % tm != 0 || bn % tn != 0 {
        return false;
    }
    let mut w = 0;
    while w < S::WINDOWS[0] * S::WINDOWS[1] {
        let win = [w % S::WINDOWS[0], w / S::WINDOWS[0]];
        let o0 = shared_offset::<S>(win, 0, 0);
        let mut rep = 0;
        while rep < (bm / tm) * (bn / tn) {
            let (dr, dc) = (rep % (bm / tm) * tm, rep / (bm / tm) * tn);
            let d = shared_offset::<S>(win, dr, dc).wrapping_sub(o0);
            let mut i = 0;
            while i < tm * tn {
                let (r, c) = (i % tm, i / tm);
                if shared_offset::<S>(win, r + dr, c + dc) != shared_offset::<S>(win, r, c).wrapping_add(d) {
                    return false;
                }
                i += 1;
            }
            rep += 1;
        }
        w += 1;
    }
    true
}

/// The conditions of a tiled copy on its shared operand `S` (the `side` it is), evaluated by the
/// compiler for every thread, every atom call and every tile of the tensor the operand may be:
/// the copy's tile divides the operand; a thread's values (thread-value layout `tv`) are whole
/// atoms of `v`, each along one mode of the tile and not across it, consecutive in the operand
/// from an offset that is a multiple of `v` (the access's alignment).
const fn check_atoms<S: ConstOperand>(
    side: &str,
    tv: &Leaves,
    threads: usize,
    values: usize,
    v: usize,
    [tm, tn]: [usize; 2],
) {
    let [bm, bn] = S::EXTENTS;
    if tm == 0 || tn == 0 || bm % tm != 0 || bn % tn != 0 {
        fail(&[
            S("copy: the tiled copy's "),
            N(tm),
            S(" x "),
            N(tn),
            S(" tile does not divide the "),
            N(bm),
            S(" x "),
            N(bn),
            S(" operands"),
        ]);
    }
    if v == 0 || !values.is_multiple_of(v) {
        fail(&[S("copy: a thread's "), N(values), S(" values are not whole atoms of "), N(v)]);
    }
    if S::WINDOWS[0] * bm != if S::TRANSPOSED { S::FULL[1] } else { S::FULL[0] }
        || S::WINDOWS[1] * bn != if S::TRANSPOSED { S::FULL[0] } else { S::FULL[1] }
    {
        fail(&[
            S("copy: the "),
            N(bm),
            S(" x "),
            N(bn),
            S(" tiles of the shared tensor do not divide its "),
            N(S::FULL[0]),
            S(" x "),
            N(S::FULL[1]),
        ]);
    }
    // The atom's values run along one mode of the tile: +1 (along M) or +TM (along N).
    let step = if v > 1 { leaf_call(tv, threads) - leaf_call(tv, 0) } else { tm };
    if step != 1 && step != tm {
        fail(&[S("copy: an atom's values do not run along one mode of the tile (a step of "), N(step), S(")")]);
    }
    let mut t = 0;
    while t < threads {
        let mut j = 0;
        while j < values / v {
            let i0 = leaf_call(tv, t + threads * j * v);
            let mut k = 1;
            while k < v {
                if leaf_call(tv, t + threads * (j * v + k)) != i0 + k * step {
                    fail(&[
                        S("copy: thread "),
                        N(t),
                        S("'s value "),
                        N(j * v + k),
                        S(" is not next to its atom's first along the tile"),
                    ]);
                }
                // Along one mode of the copy's tile: not into its next column (row).
                if (step == 1 && i0 % tm + k >= tm) || (step == tm && i0 / tm + k >= tn) {
                    fail(&[
                        S("copy: thread "),
                        N(t),
                        S("'s atom of "),
                        N(v),
                        S(" values crosses a mode of the tiled copy's tile at value "),
                        N(j * v + k),
                    ]);
                }
                k += 1;
            }
            let mut w = 0;
            while w < S::WINDOWS[0] * S::WINDOWS[1] {
                let win = [w % S::WINDOWS[0], w / S::WINDOWS[0]];
                let (mut rm, mut rn) = (0, 0);
                while rn < bn / tn {
                    let (r, c) = (rm * tm + i0 % tm, rn * tn + i0 / tm);
                    let o = shared_offset::<S>(win, r, c);
                    if !o.is_multiple_of(v) {
                        fail(&[
                            S("copy: thread "),
                            N(t),
                            S("'s atom at ("),
                            N(r),
                            S(", "),
                            N(c),
                            S(") starts at offset "),
                            N(o),
                            S(" of the "),
                            S(side),
                            S(", not a multiple of its "),
                            N(v),
                            S(" values"),
                        ]);
                    }
                    let mut k = 1;
                    while k < v {
                        let (rk, ck) = if step == 1 { (r + k, c) } else { (r, c + k) };
                        if shared_offset::<S>(win, rk, ck) != o + k {
                            fail(&[
                                S("copy: thread "),
                                N(t),
                                S("'s atom at ("),
                                N(r),
                                S(", "),
                                N(c),
                                S(") is not consecutive in the "),
                                S(side),
                                S(" (value "),
                                N(k),
                                S(")"),
                            ]);
                        }
                        k += 1;
                    }
                    rm += 1;
                    if rm == bm / tm {
                        (rm, rn) = (0, rn + 1);
                    }
                }
                w += 1;
            }
            j += 1;
        }
        t += 1;
    }
}

/// `copy_if(tiled_copy, pred, src, dst)` for thread `thr`: each of the thread's atom calls
/// over the tile (the copy's tile repeated over the operands, `M` first) moves its values from
/// `src` to `dst` when `pred(r, c)` holds at its first value's coordinate `(r, c)`, and for a
/// zero-filling atom writes zeros where it does not.
///
/// Checked by the compiler: the operands' extents are equal and the copy's tile divides them;
/// a thread's values are whole atoms, each along one mode of the tile; each atom's values are
/// consecutive in the shared operand, from a multiple of the atom's width (its alignment).
///
/// # Safety
/// `thr` is below the copy's threads. Each atom's values are consecutive in the global operand
/// too, from an address aligned to the access (for a global tile of a row-major matrix, a
/// leading dimension that is a multiple of the atom's values). `src` is readable where `pred`
/// holds; `dst` is writable by this thread until the copy completes (`cp.async`: its group's
/// wait).
///
/// # Examples
/// ```
/// use cute_atom::algorithm::TiledCopyCall;
/// use cute_atom::SmemTensor;
/// use cute_static::copy::{TiledCopy, SM80_CP_ASYNC_CACHEALWAYS_ZFILL};
/// use cute_static::{tensor::PtrTensor, typenum::U4, Layout};
/// // CuTe's sgemm_sm80 example: `make_tiled_copy(Copy_Atom<SM80_CP_ASYNC_CACHEALWAYS<uint128_t>,
/// // float>{}, Layout<Shape<_32,_8>>{}, Layout<Shape<_4,_1>>{})`, 32x8 threads (m-major) of
/// // 4x1 values over a 128x8 tile of an m-major A.
/// type Copy = TiledCopy<SM80_CP_ASYNC_CACHEALWAYS_ZFILL<U4>, Layout![(32,8):(1,32)], Layout![(4,1):(1,0)]>;
/// type Src = PtrTensor<f32, Layout![(128,8):(1,usize)]>;
/// type Dst = SmemTensor<f32, Layout![(128,8):(1,128)]>;
/// assert_eq!(<Copy as TiledCopyCall<Src, Dst>>::TILE, [128, 8]);
/// // Thread 37 is (5, 1) of the threads: its 4 values start at row 20 of column 1.
/// assert_eq!(<Copy as TiledCopyCall<Src, Dst>>::tv(37, 0), 20 + 128);
/// ```
#[inline(always)]
pub unsafe fn copy_if<C, Src, Dst>(_copy: &C, thr: usize, pred: impl Fn(usize, usize) -> bool, src: &Src, dst: &Dst)
where
    C: TiledCopyCall<Src, Dst>,
    Src: CopyOperand,
    Dst: CopyOperand,
{
    #[allow(clippy::let_unit_value)]
    let () = C::CHECKED;
    for_each_call!(C::TILE, Dst::EXTENTS, C::VALUES, C::ATOM_VALUES, |k| C::tv(thr, k), |r, c, dr, dc| {
        // SAFETY: the caller's promise; consecutive and aligned in `dst` (checked).
        unsafe {
            let s = if C::SPLIT[0] { src.addr_split((r, c), (dr, dc)) } else { src.addr_at(r + dr, c + dc) };
            let d = if C::SPLIT[1] { dst.addr_split((r, c), (dr, dc)) } else { dst.addr_at(r + dr, c + dc) };
            C::call(s, d, pred(r + dr, c + dc))
        };
    });
}

/// `copy(tiled_copy, src, dst)` for thread `thr`: [`copy_if`] with every value in range.
///
/// # Safety
/// As [`copy_if`], `src` readable everywhere.
#[inline(always)]
pub unsafe fn copy<C, Src, Dst>(c: &C, thr: usize, src: &Src, dst: &Dst)
where
    C: TiledCopyCall<Src, Dst>,
    Src: CopyOperand,
    Dst: CopyOperand,
{
    // SAFETY: the caller's promise.
    unsafe { copy_if(c, thr, |_, _| true, src, dst) }
}

/// A copy atom that loads a warp's values from shared memory into registers (CuTe's
/// `SM75_U32x4_LDSM_N::copy`): each thread gives the shared address of its source values (one
/// row of a matrix) and receives its destination values, two 16-bit values a register, in the
/// order of the atom's destination layout.
pub trait LoadCall: CopyAtom {
    /// The registers a thread receives.
    type Regs: AsRef<[u32]>;
    /// The call.
    ///
    /// # Safety
    /// Every thread of the warp calls it, together; `src` is 16-byte aligned with 16 readable
    /// shared bytes.
    unsafe fn call(src: u32) -> Self::Regs;
}

/// A thread's fragment of 32-bit registers, two 16-bit values each: `[u32; W]`, or
/// `[[u32; R]; N]` (an MMA operand's registers by atom).
pub trait Fragment {
    /// Its registers.
    const REGS: usize;
    /// Register `i`, in order.
    fn reg(&mut self, i: usize) -> &mut u32;
    /// Its value.
    fn get(&self, i: usize) -> u32;
}
impl<const W: usize> Fragment for [u32; W] {
    const REGS: usize = W;
    #[inline(always)]
    fn reg(&mut self, i: usize) -> &mut u32 {
        &mut self[i]
    }
    #[inline(always)]
    fn get(&self, i: usize) -> u32 {
        self[i]
    }
}
impl<const R: usize, const W: usize> Fragment for [[u32; R]; W] {
    const REGS: usize = R * W;
    #[inline(always)]
    fn reg(&mut self, i: usize) -> &mut u32 {
        &mut self[i / R][i % R]
    }
    #[inline(always)]
    fn get(&self, i: usize) -> u32 {
        self[i / R][i % R]
    }
}

/// A tiled copy that loads a shared operand `Src` into a thread's register fragment `F`
/// (CuTe's `copy(tiled_copy, tXsA, tXrA)` with an `ldmatrix` atom): the one bound generic code
/// writes for [`copy_to_fragment`]. Implemented when the atom loads into registers
/// ([`LoadCall`]) and the operand is shared with a static layout; checked by the compiler when
/// the copy is instantiated: the tile divides the operand, the thread's loads fill the
/// fragment, and each call's source values are consecutive and aligned in the operand,
/// whichever tile of its tensor it is.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not load from `{Src}` into a `{F}` fragment",
    label = "where the tiled copy is generic, add the bound `TiledCopyLoad<Src, Fragment>` for it",
    note = "the copy atom loads into registers (`LoadCall`), and the source is a shared tile with a static layout"
)]
pub trait TiledCopyLoad<Src: CopyOperand<Addr = u32>, F: Fragment>: Default {
    /// Threads of the tiled copy.
    const THREADS: usize;
    /// Source values of a thread in one tile of the copy.
    const VALUES: usize;
    /// Source values of one atom call.
    const ATOM_VALUES: usize;
    /// The copy's tile, `(TM, TN)`.
    const TILE: [usize; 2];
    /// The registers of one atom call.
    type Regs: AsRef<[u32]>;
    /// The index in the copy's (column-major) tile of source value `v` of thread `t`.
    fn src_tv(t: usize, v: usize) -> usize;
    /// One atom call.
    ///
    /// # Safety
    /// As [`LoadCall::call`].
    unsafe fn call(src: u32) -> Self::Regs;
    /// The conditions (evaluated by the compiler; see [`copy_to_fragment`]).
    const CHECKED: ();
}

impl<A, T, V, Src, F: Fragment> TiledCopyLoad<Src, F> for TiledCopy<A, T, V>
where
    A: LoadCall<NumVal: Unsigned>,
    Self: CopyTvs<SrcTv: ConstLeaves + ModeSizes + LayoutFn> + CopyTiling<Tile: Sizes>,
    Src: CopyOperand<Addr = u32> + ConstOperand,
{
    const THREADS: usize = FragmentSide::<Self, A, <Self as CopyTvs>::SrcTv>::THREADS;
    const VALUES: usize = FragmentSide::<Self, A, <Self as CopyTvs>::SrcTv>::VALUES;
    const ATOM_VALUES: usize = A::NumVal::USIZE;
    const TILE: [usize; 2] = FragmentSide::<Self, A, <Self as CopyTvs>::SrcTv>::TILE;
    type Regs = A::Regs;
    #[inline(always)]
    fn src_tv(t: usize, v: usize) -> usize {
        FragmentSide::<Self, A, <Self as CopyTvs>::SrcTv>::tv(t, v)
    }
    #[inline(always)]
    unsafe fn call(src: u32) -> A::Regs {
        // SAFETY: the caller's promise.
        unsafe { A::call(src) }
    }
    const CHECKED: () =
        FragmentSide::<Self, A, <Self as CopyTvs>::SrcTv>::check::<Src, F>("source", regs_of::<A::Regs>());
}

/// `copy(tiled_copy, src, frg)` of a tiled `ldmatrix` copy for thread `thr`: each of the
/// thread's atom calls over the operand (the copy's tile repeated over it, `M` first) loads its
/// registers into the next of `frg`'s, so that for a tiled copy made by a tiled MMA's
/// `make_tiled_copy_A` (`_B`) the fragment is that MMA's `A` (`B`) fragment of the operand, in
/// its value order (shown on the host against the MMA atom's layouts, `tests/ldmatrix.rs`).
///
/// Checked by the compiler: the copy's tile divides the operand; each call's source values
/// (one row of a matrix) are consecutive in the shared tensor from a multiple of 16 bytes, for
/// every tile of the tensor the operand may be; the loads fill exactly the fragment's registers.
///
/// # Safety
/// Every thread of the warp calls it with the same operand, together; `thr` is below the copy's
/// threads; the shared tensor's base is 16-byte aligned and its elements 16-bit; a
/// [`SmemTile`]'s tile coordinate is one of its tensor's tiles (the checks cover those).
#[inline(always)]
pub unsafe fn copy_to_fragment<C, Src, F>(_copy: &C, thr: usize, src: &Src, frg: &mut F)
where
    C: TiledCopyLoad<Src, F>,
    F: Fragment,
    Src: CopyOperand<Addr = u32>,
{
    #[allow(clippy::let_unit_value)]
    let () = C::CHECKED;
    let mut next = 0;
    for_each_call!(C::TILE, Src::EXTENTS, C::VALUES, C::ATOM_VALUES, |k| C::src_tv(thr, k), |r, c, dr, dc| {
        // SAFETY: the caller's promise; consecutive and aligned (checked).
        let regs = unsafe { C::call(src.addr_at(r + dr, c + dc)) };
        for &x in regs.as_ref() {
            *frg.reg(next) = x;
            next += 1;
        }
    });
}

/// What the tiled copy `C` of atom `A` and a register fragment does on its shared operand, seen
/// through the thread-value layout `Tv` (the source's for a load, the destination's for a
/// store): [`TiledCopyLoad`] and [`TiledCopyStore`] are this, each from its side.
struct FragmentSide<C, A, Tv>(PhantomData<(C, A, Tv)>);
impl<C, A, Tv> FragmentSide<C, A, Tv>
where
    C: CopyTiling<Tile: Sizes>,
    A: CopyAtom<NumVal: Unsigned>,
    Tv: ConstLeaves + ModeSizes + LayoutFn + Default,
{
    const THREADS: usize = Tv::SIZES[0];
    const VALUES: usize = Tv::SIZES[1];
    const TILE: [usize; 2] = [<C::Tile as Sizes>::MODES[0], <C::Tile as Sizes>::MODES[1]];
    /// The tile index of value `v` of thread `t`.
    #[inline(always)]
    fn tv(t: usize, v: usize) -> usize {
        Tv::default().call(t + Self::THREADS * v)
    }
    /// The conditions on the shared operand `Sh` (the copy's `side`) and the fragment `F`, an
    /// atom call moving `regs` registers ([`check_atoms`], [`check_regs`]).
    const fn check<Sh: ConstOperand, F: Fragment>(side: &str, regs: usize) {
        let (values, v, [tm, tn], [bm, bn]) = (Self::VALUES, A::NumVal::USIZE, Self::TILE, Sh::EXTENTS);
        check_atoms::<Sh>(side, &Tv::LEAVES, Self::THREADS, values, v, [tm, tn]);
        check_regs::<F>(regs * (bm / tm) * (bn / tn) * (values / v), [bm, bn]);
    }
}

/// The 32-bit registers of an atom call's `R`.
const fn regs_of<R>() -> usize {
    core::mem::size_of::<R>() / 4
}

/// A thread's calls over an `extents` operand move `regs` registers: the fragment `F`'s.
const fn check_regs<F: Fragment>(regs: usize, [bm, bn]: [usize; 2]) {
    if regs != F::REGS {
        fail(&[
            S("copy: the fragment has "),
            N(F::REGS),
            S(" registers; the thread's copies of the "),
            N(bm),
            S(" x "),
            N(bn),
            S(" operand move "),
            N(regs),
        ]);
    }
}

/// A copy atom that stores a warp's values from registers to shared memory (CuTe's
/// `SM90_U32x4_STSM_N::copy`): each thread gives its source values, two 16-bit values a
/// register in the order of the atom's source layout, and the shared address of its destination
/// values (one row of a matrix).
pub trait StoreCall: CopyAtom {
    /// The registers a thread gives.
    type Regs: Default + AsMut<[u32]>;
    /// The call.
    ///
    /// # Safety
    /// Every thread of the warp calls it, together; `dst` is 16-byte aligned with 16 shared
    /// bytes no other thread accesses before the next barrier.
    unsafe fn call(regs: Self::Regs, dst: u32);
}

/// The `.x4` ldmatrix atoms and their stmatrix reversals, `.trans` or not: four 8x8 matrices,
/// a thread's four registers.
macro_rules! matrix_x4_calls {
    ($($ld:ident, $st:ident, $trans:literal;)*) => {$(
        impl LoadCall for $ld {
            type Regs = [u32; 4];
            #[inline(always)]
            unsafe fn call(src: u32) -> [u32; 4] {
                // SAFETY: the caller's promise.
                unsafe { ldmatrix_x4::<$trans>(src) }
            }
        }
        impl StoreCall for $st {
            type Regs = [u32; 4];
            #[inline(always)]
            unsafe fn call(regs: [u32; 4], dst: u32) {
                // SAFETY: the caller's promise.
                unsafe { stmatrix_x4::<$trans>(dst, regs) }
            }
        }
    )*};
}
matrix_x4_calls! {
    SM75_U32x4_LDSM_N, SM90_U32x4_STSM_N, false;
    SM75_U16x8_LDSM_T, SM90_U16x8_STSM_T, true;
}

/// A tiled copy that stores a thread's register fragment `F` to a shared operand `Dst` (CuTe's
/// `copy(tiled_copy, tXrC, tXsC)` with an `stmatrix` atom): the one bound generic code writes
/// for [`copy_from_fragment`]. As [`TiledCopyLoad`], the other way.
#[diagnostic::on_unimplemented(
    message = "`{Self}` does not store a `{F}` fragment to `{Dst}`",
    label = "where the tiled copy is generic, add the bound `TiledCopyStore<Dst, Fragment>` for it",
    note = "the copy atom stores from registers (`StoreCall`), and the destination is a shared tile with a static layout"
)]
pub trait TiledCopyStore<Dst: CopyOperand<Addr = u32>, F: Fragment>: Default {
    /// Threads of the tiled copy.
    const THREADS: usize;
    /// Destination values of a thread in one tile of the copy.
    const VALUES: usize;
    /// Destination values of one atom call.
    const ATOM_VALUES: usize;
    /// The copy's tile, `(TM, TN)`.
    const TILE: [usize; 2];
    /// The registers of one atom call.
    type Regs: Default + AsMut<[u32]>;
    /// The index in the copy's (column-major) tile of destination value `v` of thread `t`.
    fn dst_tv(t: usize, v: usize) -> usize;
    /// One atom call.
    ///
    /// # Safety
    /// As [`StoreCall::call`].
    unsafe fn call(regs: Self::Regs, dst: u32);
    /// The conditions (evaluated by the compiler; see [`copy_from_fragment`]).
    const CHECKED: ();
}

impl<A, T, V, Dst, F: Fragment> TiledCopyStore<Dst, F> for TiledCopy<A, T, V>
where
    A: StoreCall<NumVal: Unsigned>,
    Self: CopyTvs<DstTv: ConstLeaves + ModeSizes + LayoutFn> + CopyTiling<Tile: Sizes>,
    Dst: CopyOperand<Addr = u32> + ConstOperand,
{
    const THREADS: usize = FragmentSide::<Self, A, <Self as CopyTvs>::DstTv>::THREADS;
    const VALUES: usize = FragmentSide::<Self, A, <Self as CopyTvs>::DstTv>::VALUES;
    const ATOM_VALUES: usize = A::NumVal::USIZE;
    const TILE: [usize; 2] = FragmentSide::<Self, A, <Self as CopyTvs>::DstTv>::TILE;
    type Regs = A::Regs;
    #[inline(always)]
    fn dst_tv(t: usize, v: usize) -> usize {
        FragmentSide::<Self, A, <Self as CopyTvs>::DstTv>::tv(t, v)
    }
    #[inline(always)]
    unsafe fn call(regs: A::Regs, dst: u32) {
        // SAFETY: the caller's promise.
        unsafe { A::call(regs, dst) }
    }
    const CHECKED: () =
        FragmentSide::<Self, A, <Self as CopyTvs>::DstTv>::check::<Dst, F>("destination", regs_of::<A::Regs>());
}

/// `copy(tiled_copy, frg, dst)` of a tiled `stmatrix` copy for thread `thr`: each of the
/// thread's atom calls over the operand (the copy's tile repeated over it, `M` first) stores
/// the next of `frg`'s registers, so that for a tiled copy whose thread-value layout is an MMA's
/// `C` layout (`make_tiled_copy_C`) the fragment's values land at their `C` coordinates (shown
/// on the host, `tests/stmatrix.rs`).
///
/// Checked by the compiler: the copy's tile divides the operand; each call's destination
/// values (one row of a matrix) are consecutive in the shared tensor from a multiple of 16
/// bytes, for every tile of the tensor the operand may be; the stores take exactly the
/// fragment's registers.
///
/// # Safety
/// Every thread of the warp calls it with the same operand, together; `thr` is below the copy's
/// threads; the shared tensor's base is 16-byte aligned, its elements 16-bit, and no other
/// thread accesses the operand before the next barrier; a [`SmemTile`]'s tile coordinate is
/// one of its tensor's tiles.
#[inline(always)]
pub unsafe fn copy_from_fragment<C, Dst, F>(_copy: &C, thr: usize, frg: &F, dst: &Dst)
where
    C: TiledCopyStore<Dst, F>,
    Dst: CopyOperand<Addr = u32>,
    F: Fragment,
{
    #[allow(clippy::let_unit_value)]
    let () = C::CHECKED;
    let mut next = 0;
    for_each_call!(C::TILE, Dst::EXTENTS, C::VALUES, C::ATOM_VALUES, |k| C::dst_tv(thr, k), |r, c, dr, dc| {
        let mut regs = C::Regs::default();
        for x in regs.as_mut() {
            *x = frg.get(next);
            next += 1;
        }
        // SAFETY: the caller's promise; consecutive and aligned (checked).
        unsafe { C::call(regs, dst.addr_at(r + dr, c + dc)) };
    });
}

/// `(_, 8)`: the first 8 values of a C thread-value layout (mode 1), its thread mode whole.
pub type FirstEight = ByMode<Cons<Under, Cons<Layout![8:1], Nil>>>;
/// The first 8 values of each thread of the Hopper `wgmma` C layout `CL`,
/// `composition(CLayout, (_, 8))`: 16 columns of the atom's 64 rows (the values run
/// `(2 columns, 2 row halves, N/8 column groups)`, so 8 of them are two groups of 8 columns).
///
/// # Examples
/// ```
/// use cute_atom::algorithm::EpilogueTv;
/// use cute_static::mma::{MmaAtom, SM90_64x256x16_F32F16F16_SS, SM90_64x64x16_F32F16F16_RS};
/// use cute_static::Layout;
/// // CuTe's SM90::GMMA::CLayout_64xN, ((4,8,4),(2,2,N/8)):((128,1,16),(64,8,512)), its value
/// // mode cut to 8: the same layout for every N.
/// type Want = Layout![((4,8,4),(2,2,2)):((128,1,16),(64,8,512))];
/// let _: Want = EpilogueTv::<<SM90_64x64x16_F32F16F16_RS as MmaAtom>::CLayout>::default();
/// let _: Want = EpilogueTv::<<SM90_64x256x16_F32F16F16_SS as MmaAtom>::CLayout>::default();
/// ```
pub type EpilogueTv<CL> = <CL as Composition<FirstEight>>::Output;
/// The Hopper epilogue's `stmatrix` copy of a `wgmma`'s accumulators (C layout `CL`) into a
/// 16-bit shared tile, eight values a thread at a time: [`EpilogueTv`] as the tiled copy's
/// thread-value layout over `(64, 16)` tiles (CuTe's `make_tiled_copy_C` of the atom's first
/// 16 columns). With [`copy_from_fragment`], each accumulator lands at its C coordinate
/// (`tests/stmatrix.rs`); the shared tile's conditions are checked there.
pub type StoreEpilogue<CL> = TiledCopy<SM90_U32x4_STSM_N, EpilogueTv<CL>, TilerMn<Shape![(64, 16)]>>;
