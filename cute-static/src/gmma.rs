//! Hopper's warpgroup MMA (`wgmma`) shared-memory operands, computed by the compiler: the
//! layout atoms of CuTe's `mma_traits_sm90_gmma.hpp` as types, and the 64-bit descriptor
//! `make_gmma_desc` reads off a static tile of them (cute-dyn's `gmma` module, for layouts
//! known at run time, is checked against CuTe C++ 4.2; tests/gmma.rs checks that both agree).
//!
//! The type checker recasts the tile to 16-byte units ([`Upcast`]) and divides it by the core
//! matrix ([`LogicalDivide`]); a tile whose division is not `((core, rest), (core, rest))`
//! is a type error naming [`CanonicalForm`]. The compiler then checks the strides and
//! computes the descriptor as a constant of the instance: a non-canonical stride is a
//! constant's panic that names the condition and its numbers in decimal (reported by `cargo
//! build`; `cargo check` does not evaluate constants of generic instances). Swizzles act on
//! element offsets, as everywhere in this crate: `GMMA::Layout_K_SW128_Atom<half_t>`, whose
//! C++ swizzle `Sw<3,4,3>` acts on bytes, is `Sw<3,3,3> o 0 o (8,64):(64,1)`.

use typenum::{Unsigned, U16, U32, U4, U8};

use crate::int_tuple::{Cons, Nil};
use crate::layout::{Layout, SizeT};
use crate::ops::{LogicalDivide, Upcast};
use crate::swizzle::{ComposedLayout, Swizzle};
use crate::tensor::LocalTile;

/// K-major: each row of `K` elements contiguous.
#[derive(Clone, Copy, Default, Debug)]
pub struct K;
/// M- or N-major: each column contiguous (16-bit operands only on the hardware).
#[derive(Clone, Copy, Default, Debug)]
pub struct MN;
/// No swizzle: 8x16-byte core matrices.
#[derive(Clone, Copy, Default, Debug)]
pub struct Inter;
/// 32-byte swizzled rows (`Sw<1,4,3>` on bytes).
#[derive(Clone, Copy, Default, Debug)]
pub struct Sw32;
/// 64-byte swizzled rows (`Sw<2,4,3>` on bytes).
#[derive(Clone, Copy, Default, Debug)]
pub struct Sw64;
/// 128-byte swizzled rows (`Sw<3,4,3>` on bytes).
#[derive(Clone, Copy, Default, Debug)]
pub struct Sw128;

/// The atom `GMMA::Layout_<Major>_<Kind>_Atom<T>` of `Bits`-bit elements (`U8`, `U16`, `U32`).
pub trait AtomOf {
    /// The atom: a layout (interleaved) or `Sw<B,M,3> o 0 o layout`.
    type Output: Default + Copy;
}

/// `GMMA::Layout_<Major>_<Kind>_Atom<T>` for `Bits`-bit `T`.
///
/// # Examples
/// ```
/// use cute_static::gmma::{LayoutAtom, K, MN, Sw128, Inter};
/// use cute_static::typenum::{U16, U32};
/// // CuTe C++ 4.2: Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1) (the swizzle on bytes)
/// assert_eq!(LayoutAtom::<K, Sw128, U16>::default().to_string(), "Sw<3,3,3> o 0 o (8,64):(64,1)");
/// // Sw<0,4,3> o smem_ptr[32b](unset) o (_4,_8):(_1,_4)
/// assert_eq!(LayoutAtom::<MN, Inter, U32>::default().to_string(), "(4,8):(1,4)");
/// ```
pub type LayoutAtom<Major, Kind, Bits> = <(Major, Kind, Bits) as AtomOf>::Output;

macro_rules! atoms {
    ($($bits:ty, $m:ty: [$($kind:ty, $b:ty, $row:tt;)*])*) => {$($(
        impl AtomOf for (K, $kind, $bits) {
            type Output = ComposedLayout<Swizzle<$b, $m, typenum::P3>, typenum::U0, crate::Layout![(8, $row):($row, 1)]>;
        }
        impl AtomOf for (MN, $kind, $bits) {
            type Output = ComposedLayout<Swizzle<$b, $m, typenum::P3>, typenum::U0, crate::Layout![($row, 8):(1, $row)]>;
        }
    )*)*};
}
// The swizzle's base on elements: 4 (16 bytes) less log2 of the element's bytes.
atoms! {
    U8, U4: [Sw32, typenum::U1, 32; Sw64, typenum::U2, 64; Sw128, typenum::U3, 128;]
    U16, typenum::U3: [Sw32, typenum::U1, 16; Sw64, typenum::U2, 32; Sw128, typenum::U3, 64;]
    U32, typenum::U2: [Sw32, typenum::U1, 8; Sw64, typenum::U2, 16; Sw128, typenum::U3, 32;]
}
impl AtomOf for (K, Inter, U8) {
    type Output = crate::Layout![(8, 16):(16, 1)];
}
impl AtomOf for (MN, Inter, U8) {
    type Output = crate::Layout![(16, 8):(1, 16)];
}
impl AtomOf for (K, Inter, U16) {
    type Output = crate::Layout![(8, 8):(8, 1)];
}
impl AtomOf for (MN, Inter, U16) {
    type Output = crate::Layout![(8, 8):(1, 8)];
}
impl AtomOf for (K, Inter, U32) {
    type Output = crate::Layout![(8, 4):(4, 1)];
}
impl AtomOf for (MN, Inter, U32) {
    type Output = crate::Layout![(4, 8):(1, 4)];
}

/// A `wgmma` shared-memory descriptor's fields (CuTe's `GmmaDescriptor`), in 16-byte units.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GmmaDesc {
    /// The tile's byte address / 16 (14 bits).
    pub start_address: u16,
    /// LBO / 16 (14 bits).
    pub leading_byte_offset: u16,
    /// SBO / 16 (14 bits).
    pub stride_byte_offset: u16,
    /// 0 (tiles aligned to their swizzle's repeat).
    pub base_offset: u8,
    /// 0 interleaved, 1 B128, 2 B64, 3 B32.
    pub layout_type: u8,
}

impl GmmaDesc {
    /// The 64-bit value `wgmma` takes.
    pub const fn to_u64(self) -> u64 {
        self.start_address as u64
            | (self.leading_byte_offset as u64) << 16
            | (self.stride_byte_offset as u64) << 32
            | (self.base_offset as u64) << 49
            | (self.layout_type as u64) << 62
    }
}

/// The major modes' core-matrix tilers, and whether the major is `MN`.
#[doc(hidden)]
pub trait MajorMode<W> {
    /// `<8:1,2:1>` (K-major) or `<W:1,8:1>` (MN-major).
    type Core: Default + Copy;
    /// MN-major.
    const MN: bool;
}
impl<W> MajorMode<W> for K {
    type Core = crate::Tiler![<8:1, 2:1>];
    const MN: bool = false;
}
impl<W: Unsigned + Default + Copy> MajorMode<W> for MN {
    type Core = crate::tiler::ByMode<Cons<Layout<W, typenum::U1>, Cons<crate::Layout![8:1], Nil>>>;
    const MN: bool = true;
}

/// The element widths `wgmma` reads and their 16-byte chunk (`16 bytes / element`).
#[doc(hidden)]
pub trait ElementBits {
    /// Elements per 16 bytes.
    type PerChunk: Default + Copy;
    /// The width.
    const BITS: usize;
}
impl ElementBits for U8 {
    type PerChunk = U16;
    const BITS: usize = 8;
}
impl ElementBits for U16 {
    type PerChunk = U8;
    const BITS: usize = 16;
}
impl ElementBits for U32 {
    type PerChunk = U4;
    const BITS: usize = 32;
}

/// A tile's swizzle, offset and layout, as `wgmma` reads them: `W` (the swizzle's row in
/// 16-byte units) and the layout type, checked against `Sw<B,4,3>` on bytes by [`desc`].
#[doc(hidden)]
pub trait TileParts {
    /// The inner layout.
    type Layout: Default + Copy;
    /// `W` as a type (1, 2, 4, 8).
    type W: Unsigned + Default + Copy;
    /// The swizzle `(B, M, S)` on elements; `(0, 0, 0)` for none.
    const SWIZZLE: (usize, isize, isize);
    /// The offset in elements.
    const OFFSET: usize;
}
impl<S, D> TileParts for Layout<S, D>
where
    Layout<S, D>: Default + Copy,
{
    type Layout = Self;
    type W = typenum::U1;
    const SWIZZLE: (usize, isize, isize) = (0, 0, 0);
    const OFFSET: usize = 0;
}
impl<B, M, SH, O, L> TileParts for ComposedLayout<Swizzle<B, M, SH>, O, L>
where
    B: Unsigned + WidthOf,
    M: Unsigned,
    SH: typenum::Integer,
    O: Unsigned,
    L: Default + Copy,
{
    type Layout = L;
    type W = <B as WidthOf>::W;
    const SWIZZLE: (usize, isize, isize) = (B::USIZE, M::ISIZE, SH::ISIZE);
    const OFFSET: usize = O::USIZE;
}

/// `W = 2^B` for a swizzle's `B` (larger `B` are not `wgmma`'s: [`desc`] says so).
#[doc(hidden)]
pub trait WidthOf {
    /// `2^B`, at most 8.
    type W: Unsigned + Default + Copy;
}
impl WidthOf for typenum::U0 {
    type W = typenum::U1;
}
impl WidthOf for typenum::U1 {
    type W = typenum::U2;
}
impl WidthOf for typenum::U2 {
    type W = typenum::U4;
}
impl WidthOf for typenum::U3 {
    type W = typenum::U8;
}

/// The canonical form `((core, rest), (core, rest))` of a tile divided by the core matrix, in
/// 16-byte units: its 4 shapes and strides, `[00, 01, 10, 11]`.
#[diagnostic::on_unimplemented(
    message = "not a canonical GMMA tile: divided by the core matrix, it is not ((core, rest), (core, rest)) with flat modes",
    label = "the tile's layout in 16-byte units, divided by the core matrix",
    note = "a K-major tile divides as ((8,n),(2,1)) by <8:1,2:1>, an MN-major one as ((W,n),(8,k)) by <W:1,8:1> (CuTe's make_gmma_desc)"
)]
pub trait CanonicalForm {
    /// Shapes `[00, 01, 10, 11]`.
    const SHAPES: [usize; 4];
    /// Strides `[00, 01, 10, 11]`.
    const STRIDES: [usize; 4];
}
impl<A, B, C, E, SA, SB, SC, SE> CanonicalForm
    for Layout<
        Cons<Cons<A, Cons<B, Nil>>, Cons<Cons<C, Cons<E, Nil>>, Nil>>,
        Cons<Cons<SA, Cons<SB, Nil>>, Cons<Cons<SC, Cons<SE, Nil>>, Nil>>,
    >
where
    A: Unsigned,
    B: Unsigned,
    C: Unsigned,
    E: Unsigned,
    SA: Unsigned,
    SB: Unsigned,
    SC: Unsigned,
    SE: Unsigned,
{
    const SHAPES: [usize; 4] = [A::USIZE, B::USIZE, C::USIZE, E::USIZE];
    const STRIDES: [usize; 4] = [SA::USIZE, SB::USIZE, SC::USIZE, SE::USIZE];
}

/// The sizes of the two modes `(MN, K)` of a static rank-2 tile, read before the division by
/// the core matrix (which stretches a short mode to the core's extent: a K-major block of 4
/// rows divides as if it had 8).
pub trait ModeSizes {
    /// `[size<0>, size<1>]`.
    const SIZES: [usize; 2];
}
impl<S0, S1, D> ModeSizes for Layout<Cons<S0, Cons<S1, Nil>>, D>
where
    S0: SizeT,
    S1: SizeT,
    S0::Output: Unsigned,
    S1::Output: Unsigned,
{
    const SIZES: [usize; 2] = [<S0::Output as Unsigned>::USIZE, <S1::Output as Unsigned>::USIZE];
}

/// `GMMA::make_gmma_desc<Major>` of a static tile of `Bits`-bit elements, implemented by the
/// tile: the descriptor at shared address 0, computed and checked by the compiler.
pub trait MakeGmmaDesc<Major, Bits> {
    /// The descriptor of the tile at shared address 0.
    const DESC: GmmaDesc;
}
impl<Mj, Bits, T, U, C> MakeGmmaDesc<Mj, Bits> for T
where
    T: TileParts,
    Bits: ElementBits,
    Mj: MajorMode<T::W>,
    T::Layout: Upcast<Bits::PerChunk, Output = U>,
    U: LogicalDivide<<Mj as MajorMode<T::W>>::Core, Output = C> + ModeSizes,
    C: CanonicalForm,
{
    const DESC: GmmaDesc = desc(Mj::MN, Bits::BITS, T::SWIZZLE, T::OFFSET, U::SIZES, C::SHAPES, C::STRIDES);
}

/// `make_gmma_desc<Major>(tile)` of a tile whose shared-memory address is `start` bytes: the
/// compiler's descriptor, its start address moved (CuTe's `DescriptorIterator` adds in
/// 16-byte units).
///
/// # Panics
/// At compile time, where the instance is built: a non-canonical tile (the condition and its
/// numbers). At run time, never: the start address is taken modulo 2^18 bytes (the 14-bit
/// field).
///
/// # Examples
/// ```
/// use cute_static::gmma::{make_gmma_desc, K};
/// use cute_static::typenum::{P3, U0, U3, U16};
/// use cute_static::{layout, ComposedLayout, Swizzle};
/// // An MMA's (64,16) tile of tile_to_shape(Layout_K_SW128_Atom<half_t>, (64,64)): CuTe C++
/// // 4.2's make_gmma_desc<Major::K> at shared address 0 is 0x4000004000010000 (SBO 64, LBO
/// // 1, B128), at 2048 0x4000004000010080.
/// let tile = ComposedLayout::new(Swizzle::<U3, U3, P3>::new(), U0::default(), layout!(((8,8),16):((64,512),1)));
/// assert_eq!(make_gmma_desc::<K, U16, _>(tile, 0), 0x4000004000010000);
/// assert_eq!(make_gmma_desc::<K, U16, _>(tile, 2048), 0x4000004000010080);
/// ```
#[inline(always)]
pub fn make_gmma_desc<Major, Bits, T: MakeGmmaDesc<Major, Bits>>(_tile: T, start: u32) -> u64 {
    with_start(T::DESC, u64::from(start))
}

/// The descriptor with its start address field moved by `start` bytes (14 bits of 16-byte
/// units, as C++ adds to it: modulo 2^18 bytes, so the byte offsets wrap as well).
#[inline(always)]
fn with_start(d: GmmaDesc, start: u64) -> u64 {
    let field = (u64::from(d.start_address) + (start >> 4)) & 0x3fff;
    (d.to_u64() & !0x3fff) | field
}

/// The descriptor of one MMA's tile of a shared-memory layout, as one bound in generic code:
/// `make_gmma_desc` of `local_tile(smem, tiler, coord)` (the stage a third coordinate), the
/// tile's descriptor computed by the compiler, its offset added when it runs (CuTe's
/// `make_fragment_A/B` of a partitioned shared tensor and its `DescriptorIterator`).
#[diagnostic::on_unimplemented(
    message = "the GMMA descriptor of a tile of this shared-memory layout is not known to be defined",
    label = "where the layout is generic, add the bound `GmmaTile<Tiler, Coord, Major, Bits>` for it",
    note = "a static (swizzled) shared-memory layout whose tiles are canonical GMMA tiles: tile_to_shape of a gmma::LayoutAtom"
)]
pub trait GmmaTile<T, C, Major, Bits> {
    /// The descriptor of the tile at `coord` of a layout at shared byte address `start`.
    fn gmma_desc_of_tile(self, tiler: T, coord: &C, start: u32) -> u64;
}
impl<S, D, T, C, Mj, Bits, Tile> GmmaTile<T, C, Mj, Bits> for Layout<S, D>
where
    Layout<S, D>: LocalTile<T, C, Output = (Tile, usize)>,
    Tile: MakeGmmaDesc<Mj, Bits>,
    Bits: ElementBits,
{
    #[inline(always)]
    fn gmma_desc_of_tile(self, tiler: T, coord: &C, start: u32) -> u64 {
        let (_, offset) = self.local_tile(tiler, coord);
        with_start(Tile::DESC, u64::from(start).wrapping_add(offset.wrapping_mul(Bits::BITS / 8) as u64))
    }
}
impl<B, M, SH, O, S, D, T, C, Mj, Bits, Tile> GmmaTile<T, C, Mj, Bits>
    for ComposedLayout<Swizzle<B, M, SH>, O, Layout<S, D>>
where
    Layout<S, D>: LocalTile<T, C, Output = (Tile, usize)> + Default,
    ComposedLayout<Swizzle<B, M, SH>, O, Tile>: MakeGmmaDesc<Mj, Bits>,
    Bits: ElementBits,
{
    #[inline(always)]
    fn gmma_desc_of_tile(self, tiler: T, coord: &C, start: u32) -> u64 {
        let (_, offset) = Layout::<S, D>::default().local_tile(tiler, coord);
        let d = <ComposedLayout<Swizzle<B, M, SH>, O, Tile> as MakeGmmaDesc<Mj, Bits>>::DESC;
        with_start(d, u64::from(start).wrapping_add(offset.wrapping_mul(Bits::BITS / 8) as u64))
    }
}

/// `GmmaTile::gmma_desc_of_tile` as a free function: the descriptor of the `tiler` tile at
/// `coord` of `smem`, at shared byte address `start`.
///
/// # Examples
/// ```
/// use cute_static::gmma::{gmma_desc_of_tile, LayoutAtom, K, Sw128};
/// use cute_static::typenum::U16;
/// use cute_static::{shape, tile_to_shape, tiler, Cons, Nil};
/// // CuTe C++ 4.2: tile_to_shape(Layout_K_SW128_Atom<half_t>, (128,128,2)), stage 1, the
/// // (64,16) tile at (1,7): 0x4000004000010e06.
/// let smem = tile_to_shape(LayoutAtom::<K, Sw128, U16>::default(), shape!((128,128,2)));
/// let d = gmma_desc_of_tile::<K, U16, _, _, _>(smem, tiler!(<64,16>), &Cons(1usize, Cons(7usize, Cons(1usize, Nil))), 0);
/// assert_eq!(d, 0x4000004000010e06);
/// ```
#[inline(always)]
pub fn gmma_desc_of_tile<Major, Bits, L: GmmaTile<T, C, Major, Bits>, T, C>(
    smem: L,
    tiler: T,
    coord: &C,
    start: u32,
) -> u64 {
    smem.gmma_desc_of_tile(tiler, coord, start)
}

/// The descriptor's checks and fields, mirroring cute-dyn's `make_gmma_desc` (the numbers of a
/// failed condition in the constant's panic).
const fn desc(
    mn: bool,
    bits: usize,
    (b, m, s): (usize, isize, isize),
    offset: usize,
    [mn_size, k_size]: [usize; 2],
    shapes: [usize; 4],
    strides: [usize; 4],
) -> GmmaDesc {
    let bytes = bits / 8;
    if mn && bits != 16 {
        panic!("make_gmma_desc: wgmma transposes only 16-bit operands (PTX ISA: imm-trans-a/b for .f16 and .bf16); an MN-major tile of 8- or 32-bit elements must be K-major");
    }
    // The swizzle on bytes: Sw<B,4,3>, B in 0..=3 (none: the interleaved layout).
    let base_on_bytes = m + bytes.trailing_zeros() as isize;
    if b > 0 && (b > 3 || base_on_bytes != 4 || s != 3) {
        let mut msg = crate::product::ConstMessage::new();
        msg.push("make_gmma_desc: wgmma's swizzles are Sw<B,4,3> on bytes (B = 0..3); this tile's is Sw<");
        msg.number(b);
        msg.push(",");
        msg.number(base_on_bytes as usize);
        msg.push(",");
        msg.number(s as usize);
        msg.push("> on bytes");
        panic!("{}", msg.as_str());
    }
    let w = 1usize << b;
    let layout_type: u8 = match b {
        0 => 0,
        1 => 3,
        2 => 2,
        _ => 1,
    };
    if !mn {
        if !mn_size.is_multiple_of(8) {
            const_fail("a K-major tile's MN extent is a multiple of 8 (16-byte units); this tile's is ", mn_size);
        }
        if k_size != 2 && k_size != 4 {
            const_fail(
                "a K-major tile's K extent is 32 bytes (64 for sparse A), 2 or 4 16-byte units; this tile's is ",
                k_size,
            );
        }
    } else if !(k_size * bits == 256 || k_size * bits == 128 || k_size * bits == 512) {
        const_fail(
            "an MN-major tile's K extent is 32 bytes (16 or 64 for sparse); this tile's in elements is ",
            k_size,
        );
    }
    // The sizes are read before the division by the core matrix, which stretches a short mode
    // to the core's extent: the divided form covers the tile exactly only where they divide.
    if shapes[0] * shapes[1] != mn_size || shapes[2] * shapes[3] != k_size {
        const_fail2(
            "the tile's modes do not divide by the core matrix (in 16-byte units along the contiguous mode); MN is ",
            mn_size,
            ", K is ",
            k_size,
        );
    }
    if !mn {
        if strides[0] != w {
            const_fail2("K-major: the 8 rows of a core matrix are 16 W bytes apart (W = 1, 2, 4, 8 for INTERLEAVE, B32, B64, B128), here ", 16 * w, " bytes; this tile puts them this many bytes apart: ", 16 * strides[0]);
        }
        if b > 0 && strides[2] != 1 {
            const_fail("K-major, swizzled: the two 16-byte halves of a 32-byte row are adjacent; this tile puts them this many bytes apart: ", 16 * strides[2]);
        }
    } else {
        if b > 0 && strides[0] != 1 {
            const_fail("MN-major, swizzled: the 16-byte chunks of a row are adjacent; this tile puts them this many bytes apart: ", 16 * strides[0]);
        }
        if strides[2] != w {
            const_fail2("MN-major: the 8 K rows of a core matrix are 16 W bytes apart (W = 1, 2, 4, 8 for INTERLEAVE, B32, B64, B128), here ", 16 * w, " bytes; this tile puts them this many bytes apart: ", 16 * strides[2]);
        }
    }
    let (sbo, lbo) = if !mn {
        (strides[1], strides[2])
    } else if b == 0 {
        (strides[1], strides[3])
    } else {
        (strides[3], strides[1])
    };
    let start = offset * bytes;
    if !start.is_multiple_of(16) {
        const_fail("the tile's offset in bytes is not a multiple of 16: ", start);
    }
    if sbo >= 1 << 14 || lbo >= 1 << 14 || start / 16 >= 1 << 14 {
        const_fail2(
            "a descriptor field holds 14 bits; the stride byte offset / 16 is ",
            sbo,
            ", the leading byte offset / 16 is ",
            lbo,
        );
    }
    GmmaDesc {
        start_address: (start / 16) as u16,
        leading_byte_offset: lbo as u16,
        stride_byte_offset: sbo as u16,
        base_offset: 0,
        layout_type,
    }
}

/// A constant's panic: `what` and a number.
const fn const_fail(what: &str, x: usize) {
    let mut msg = crate::product::ConstMessage::new();
    msg.push("make_gmma_desc: ");
    msg.push(what);
    msg.number(x);
    panic!("{}", msg.as_str());
}

/// A constant's panic: `what`, a number, `then` and another.
const fn const_fail2(what: &str, x: usize, then: &str, y: usize) {
    let mut msg = crate::product::ConstMessage::new();
    msg.push("make_gmma_desc: ");
    msg.push(what);
    msg.number(x);
    msg.push(then);
    msg.number(y);
    panic!("{}", msg.as_str());
}
