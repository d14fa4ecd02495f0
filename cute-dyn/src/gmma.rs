//! Hopper's warpgroup MMA (`wgmma`) reads its shared-memory operands through a 64-bit
//! descriptor: the operand's layout in 16-byte units, checked for the one form the hardware
//! walks (CuTe's `mma_traits_sm90_gmma.hpp`). Both halves are layout algebra: the layout atoms
//! a shared-memory tile is tiled from (`GMMA::Layout_K_SW128_Atom<T>` and its siblings), and
//! `make_gmma_desc`, which reads the descriptor off a tile of such a layout.
//!
//! C++ keeps the swizzle of these atoms on byte addresses (`Sw<3,4,3> o smem_ptr[16b] o
//! (8,64):(64,1)`); here it acts on element offsets, the same function of the offset: for
//! `b`-bit elements `Sw<B,4,3>` on bytes is `Sw<B, 4 - log2(b/8), 3>` on elements (a 16-bit
//! SW128 atom is `Sw<3,3,3> o 0 o (8,64):(64,1)`). The interleaved atoms (`Sw<0,4,3>`, which
//! permutes nothing) are plain layouts.

use alloc::format;
use alloc::string::String;

use crate::divide::logical_divide;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::{Coord, Tuple};
use crate::layout::Layout;
use crate::recast::upcast;
use crate::swizzle::{ComposedLayout, MaybeComposed, Swizzle};
use crate::tiler::Tiler;

/// Which mode of an operand tile is contiguous: `K` (each row of `K` elements contiguous, the
/// `T` of a `TN` GEMM) or `MN` (each column of `M` or `N` elements contiguous).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Major {
    /// K-major.
    K,
    /// M- or N-major (transposed; 16-bit operands only on the hardware).
    MN,
}

/// The descriptor's layout type: the swizzle of the operand's 16-byte chunks.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum LayoutType {
    /// No swizzle (`Sw<0,4,3>`): 8x16-byte core matrices, each contiguous.
    Interleave = 0,
    /// `Sw<3,4,3>` on bytes: 128-byte rows.
    B128 = 1,
    /// `Sw<2,4,3>` on bytes: 64-byte rows.
    B64 = 2,
    /// `Sw<1,4,3>` on bytes: 32-byte rows.
    B32 = 3,
}

impl LayoutType {
    /// The layout type of the byte swizzle `Sw<bits,4,3>`.
    fn of_swizzle_bits(bits: i64) -> Option<LayoutType> {
        Some(match bits {
            0 => LayoutType::Interleave,
            1 => LayoutType::B32,
            2 => LayoutType::B64,
            3 => LayoutType::B128,
            _ => return None,
        })
    }

    /// The swizzle's `B`: `Sw<B,4,3>` on bytes.
    pub fn swizzle_bits(self) -> i64 {
        match self {
            LayoutType::Interleave => 0,
            LayoutType::B32 => 1,
            LayoutType::B64 => 2,
            LayoutType::B128 => 3,
        }
    }

    /// `W`: a swizzled row in 16-byte units (1, 2, 4, 8).
    pub fn width(self) -> i64 {
        1 << self.swizzle_bits()
    }

    /// CuTe's name (`INTERLEAVE`, `B32`, `B64`, `B128`).
    pub fn name(self) -> &'static str {
        match self {
            LayoutType::Interleave => "INTERLEAVE",
            LayoutType::B32 => "B32",
            LayoutType::B64 => "B64",
            LayoutType::B128 => "B128",
        }
    }

    /// The atom kind CuTe names the layout after (`INTER`, `SW32`, `SW64`, `SW128`).
    pub fn atom_name(self) -> &'static str {
        match self {
            LayoutType::Interleave => "INTER",
            LayoutType::B32 => "SW32",
            LayoutType::B64 => "SW64",
            LayoutType::B128 => "SW128",
        }
    }

    /// The layout type of an atom kind (`INTER`, `SW32`, `SW64`, `SW128`).
    pub fn of_atom_name(name: &str) -> Option<LayoutType> {
        [LayoutType::Interleave, LayoutType::B32, LayoutType::B64, LayoutType::B128]
            .into_iter()
            .find(|t| t.atom_name() == name)
    }
}

/// The CuTe element types `wgmma` reads from shared memory, as [`element_bits`] takes them.
pub const ELEMENT_TYPES: [&str; 8] =
    ["half_t", "bfloat16_t", "tfloat32_t", "float", "float_e4m3_t", "float_e5m2_t", "int8_t", "uint8_t"];

/// The width in bits of a CuTe element type `wgmma` reads from shared memory (`half_t`,
/// `bfloat16_t`: 16; `tfloat32_t`, `float`: 32; `float_e4m3_t`, `float_e5m2_t`, `int8_t`,
/// `uint8_t`: 8).
pub fn element_bits(name: &str) -> Option<i64> {
    Some(match name {
        "half_t" | "bfloat16_t" => 16,
        "tfloat32_t" | "float" => 32,
        "float_e4m3_t" | "float_e5m2_t" | "int8_t" | "uint8_t" => 8,
        _ => return None,
    })
}

/// The element widths `wgmma` reads from shared memory: 8 (e4m3, e5m2, s8, u8), 16 (f16, bf16)
/// and 32 (tf32) bits.
fn check_bits(op: &'static str, bits: i64) -> Result<i64> {
    match bits {
        8 | 16 | 32 => Ok(bits / 8),
        _ => Err(Error::InvalidArgument {
            op,
            reason: format!("wgmma reads 8-, 16- or 32-bit elements from shared memory, not {bits}-bit ones"),
        }),
    }
}

/// `GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>` for `bits`-bit elements: the smallest
/// tile of a canonical operand layout, 8 rows of `16 W` bytes (`W` = [`LayoutType::width`]),
/// K-major `(8, 128W/bits):(128W/bits, 1)` or MN-major `(128W/bits, 8):(1, 128W/bits)`, under
/// the swizzle (on element offsets; a plain layout for `INTER`). A shared-memory tile is
/// `tile_to_shape(atom, (BM, BK, STAGES))`.
///
/// # Errors
/// `InvalidArgument` for a width other than 8, 16 or 32 bits.
///
/// # Examples
/// ```
/// use cute_dyn::gmma::{gmma_layout_atom, LayoutType, Major};
/// // CuTe C++ 4.2: GMMA::Layout_K_SW128_Atom<half_t> is
/// // Sw<3,4,3> o smem_ptr[16b](unset) o (_8,_64):(_64,_1), its swizzle on bytes.
/// let a = gmma_layout_atom(Major::K, LayoutType::B128, 16)?;
/// assert_eq!(a.to_string(), "Sw<3,3,3> o 0 o (8,64):(64,1)");
/// // GMMA::Layout_MN_INTER_Atom<tfloat32_t>: Sw<0,4,3> o smem_ptr[32b](unset) o (_4,_8):(_1,_4)
/// assert_eq!(gmma_layout_atom(Major::MN, LayoutType::Interleave, 32)?.to_string(), "(4,8):(1,4)");
/// # Ok::<(), cute_dyn::Error>(())
/// ```
pub fn gmma_layout_atom(major: Major, layout_type: LayoutType, bits: i64) -> Result<MaybeComposed> {
    let bytes = check_bits("gmma_layout_atom", bits)?;
    let row = 16 * layout_type.width() / bytes;
    let (k, mn) = (Int::st(row), Int::st(8));
    let layout = match major {
        Major::K => Layout::from_modes(alloc::vec![Layout::leaf(mn, k), Layout::leaf(k, Int::st(1))]),
        Major::MN => Layout::from_modes(alloc::vec![Layout::leaf(k, Int::st(1)), Layout::leaf(mn, k)]),
    };
    Ok(match layout_type {
        LayoutType::Interleave => MaybeComposed::Layout(layout),
        t => MaybeComposed::Composed(ComposedLayout::new(
            Swizzle::new(t.swizzle_bits(), 4, 3)?.upcast(bytes)?,
            0,
            layout,
        )),
    })
}

/// A `wgmma` shared-memory descriptor (CuTe's `GmmaDescriptor`): the start address, the
/// leading- and stride-dimension byte offsets (all in 16-byte units), the base offset and the
/// layout type.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GmmaDesc {
    /// Bits 0..14: the tile's shared-memory byte address / 16.
    pub start_address: u16,
    /// Bits 16..30: LBO / 16.
    pub leading_byte_offset: u16,
    /// Bits 32..46: SBO / 16.
    pub stride_byte_offset: u16,
    /// Bits 49..52 (CuTe writes 0: tiles aligned to their swizzle's repeat).
    pub base_offset: u8,
    /// Bits 62..64.
    pub layout_type: LayoutType,
}

impl GmmaDesc {
    /// The 64-bit value `wgmma` takes.
    pub fn to_u64(&self) -> u64 {
        u64::from(self.start_address)
            | u64::from(self.leading_byte_offset) << 16
            | u64::from(self.stride_byte_offset) << 32
            | u64::from(self.base_offset) << 49
            | (self.layout_type as u64) << 62
    }
}

impl core::fmt::Display for GmmaDesc {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "GmmaDescriptor 0x{:016x} {{start_address: 0x{:04x}, leading_byte_offset: {}, stride_byte_offset: {}, base_offset: {}, layout_type: {}}}",
            self.to_u64(),
            self.start_address,
            self.leading_byte_offset,
            self.stride_byte_offset,
            self.base_offset,
            self.layout_type.name()
        )
    }
}

/// A shared-memory layout as `wgmma` sees it: a plain layout, or `Sw<B,M,S> o offset o layout`.
fn parts(l: &MaybeComposed) -> Result<(Option<Swizzle>, i64, Layout)> {
    let (sw, off, inner) = l.swizzled_layout().ok_or_else(|| Error::InvalidArgument {
        op: "make_gmma_desc",
        reason: format!("a wgmma operand is a layout or Sw<B,M,S> o offset o layout, not {l}"),
    })?;
    Ok((sw, off.value(), inner.clone()))
}

/// `GMMA::make_gmma_desc<major>` of an `(MN, K)` tile of `bits`-bit elements in shared memory
/// starting at byte `start`: the layout recast to 16-byte units, its swizzle's bits the layout
/// type, `logical_divide` by the core matrix (`<8:1,2:1>` K-major, `<W:1,8:1>` MN-major) and
/// the descriptor's offsets read off the strides. The tile is one MMA's: `(64, 32 bytes)` of a
/// `tile_to_shape` of a [`gmma_layout_atom`] (see [`gmma_desc_of_tile`]).
///
/// Conditions, each an error that says what the layout has instead (C++ checks them with
/// `static_assert`s that print no numbers): rank 2; a swizzle `Sw<0..3,4,3>` on bytes; strides
/// that are whole 16-byte units; K-major: `MN` a multiple of 8 and `K` 32 bytes (64 for
/// sparse), core-matrix rows `16 W` bytes apart and their two 16-byte halves adjacent (unless
/// interleaved); MN-major: `K` of 32 bytes (16 or 64 for sparse), 16-byte chunks of a core row
/// adjacent (unless interleaved) and core rows `16 W` bytes apart; each of the modes divided by
/// the core matrix flat; every field within its 14 bits. And one C++ does not check: `wgmma`
/// transposes only 16-bit operands (PTX ISA, `imm-trans`), so MN-major 8- and 32-bit tiles are
/// refused.
///
/// # Errors
/// `InvalidArgument` naming the failed condition and the numbers.
///
/// # Examples
/// ```
/// use cute_dyn::gmma::{make_gmma_desc, Major};
/// use cute_dyn::swizzle::MaybeComposed;
/// // CuTe C++ 4.2: make_gmma_desc<Major::K> of tile_to_shape(Layout_K_SW128_Atom<half_t>,
/// // (64,16)) at shared address 0: 0x4000004000010000 (SBO 64, LBO 1, B128).
/// let tile = MaybeComposed::Composed("Sw<3,3,3> o 0 o ((8,8),(16,1)):((64,512),(1,0))".parse()?);
/// let d = make_gmma_desc(Major::K, 16, &tile, 0)?;
/// assert_eq!(d.to_u64(), 0x4000004000010000);
/// // A row-major (64,16) tile is not canonical: its 8-row core matrices' rows are 32 bytes apart.
/// let e = make_gmma_desc(Major::K, 16, &MaybeComposed::Layout("(64,16):(16,1)".parse()?), 0).unwrap_err();
/// assert!(e.to_string().contains("16 bytes apart"), "{e}");
/// # Ok::<(), cute_dyn::Error>(())
/// ```
pub fn make_gmma_desc(major: Major, bits: i64, tile: &MaybeComposed, start: i64) -> Result<GmmaDesc> {
    make_gmma_desc_impl(major, bits, tile, start).map_err(|e| past_i64(e, "make_gmma_desc", tile, start))
}

/// An `Overflow` of the descriptor's arithmetic as what it is about: the user's layout and
/// start (an extent, an offset or an address past `i64`).
fn past_i64(e: Error, op: &'static str, tile: &MaybeComposed, start: i64) -> Error {
    match e {
        Error::Overflow { .. } => Error::InvalidArgument {
            op,
            reason: format!("the shared layout {tile} at byte {start}: a size, offset or address passes i64"),
        },
        e => e,
    }
}

fn make_gmma_desc_impl(major: Major, bits: i64, tile: &MaybeComposed, start: i64) -> Result<GmmaDesc> {
    const OP: &str = "make_gmma_desc";
    let bad = |reason: String| Error::InvalidArgument { op: OP, reason };
    let bytes = check_bits(OP, bits)?;
    if major == Major::MN && bits != 16 {
        return Err(bad(format!(
            "wgmma transposes only 16-bit operands (PTX ISA: imm-trans-a/b for .f16 and .bf16); \
             an MN-major tile of {bits}-bit elements must be K-major"
        )));
    }
    let (sw, off, l) = parts(tile)?;
    if l.rank() != 2 {
        return Err(bad(format!("a wgmma operand tile has rank 2 (MN, K); {l} has rank {}", l.rank())));
    }
    // The swizzle on bytes: Sw<B,4,3>, B in 0..=3.
    let layout_type = match sw {
        None => LayoutType::Interleave,
        Some(sw) => {
            let on_bytes = sw.downcast(bytes)?;
            let (b, m, s) = on_bytes.params();
            match LayoutType::of_swizzle_bits(b) {
                Some(t) if m == 4 && s == 3 => t,
                _ => {
                    return Err(bad(format!(
                        "wgmma's swizzles are Sw<B,4,3> on bytes (B = 0..3); this tile's {sw} on {bits}-bit elements is {on_bytes} on bytes"
                    )))
                }
            }
        }
    };
    let w = layout_type.width();
    // The descriptor's offsets are unsigned and wgmma reads each 16-byte chunk upward: a mode
    // that walks down (a core-matrix row of descending elements) has no descriptor. C++ wraps
    // the negative field into garbage; the upcast below would silently take the mirror image.
    if let Some((i, d)) = l.pairs().iter().enumerate().find(|(_, p)| p.0.value() > 1 && p.1.value() < 0) {
        return Err(bad(format!(
            "a canonical GMMA layout walks shared memory upward; leaf {i} of {l} has the negative stride {}",
            d.1.value()
        )));
    }
    // Recast to 16-byte units.
    let u = upcast(&l, 16 / bytes).map_err(|e| bad(format!("its strides are not whole 16-byte units ({e})")))?;
    let size = |i: usize| -> Result<i64> { Ok(u.get(i)?.size()?.value()) };
    let address = off.checked_mul(bytes).and_then(|o| o.checked_add(start)).ok_or(Error::Overflow { op: OP })?;
    if address < 0 {
        return Err(bad(format!(
            "the tile starts at byte {address} (start {start} + offset {off} elements of {bits} bits): a shared-memory address is not negative"
        )));
    }
    if address % 16 != 0 {
        return Err(bad(format!("the tile starts at byte {address}, not a multiple of 16")));
    }
    let field = |what: &str, v: i64| -> Result<u16> {
        if v < 0 {
            return Err(bad(format!("the {what} is {v} 16-byte units: negative; wgmma walks shared memory upward")));
        }
        u16::try_from(v).ok().filter(|&v| v < 1 << 14).ok_or_else(|| {
            bad(format!("the {what} is {v} 16-byte units; the descriptor's field holds 14 bits (below 16384)"))
        })
    };
    let (mn_size, k_size) = (size(0)?, size(1)?);
    if mn_size == 0 || k_size == 0 {
        return Err(bad(format!("the tile {l} is empty; an MMA's tile has 8 or more rows of 32 bytes")));
    }
    let tiler = |a: i64, b: i64| -> Result<Tiler> { format!("<{a}:1,{b}:1>").parse() };
    let (core, what) = match major {
        Major::K => {
            if mn_size % 8 != 0 {
                return Err(bad(format!("a K-major tile's MN extent is a multiple of 8; this one's is {mn_size}")));
            }
            if k_size != 2 && k_size != 4 {
                return Err(bad(format!(
                    "a K-major tile's K extent is 32 bytes (64 for sparse A): 2 or 4 16-byte units; this one's is {k_size} ({} elements)",
                    k_size * 16 / bytes
                )));
            }
            (tiler(8, 2)?, "(8,2) core matrix")
        }
        Major::MN => {
            let k_elems = size(1)?;
            if ![256, 128, 512].iter().any(|&b| k_elems == b / bits) {
                return Err(bad(format!(
                    "an MN-major tile's K extent is 32 bytes ({} elements; {} or {} for sparse); this one's is {k_elems}",
                    256 / bits,
                    128 / bits,
                    512 / bits
                )));
            }
            (tiler(w, 8)?, "(W,8) core matrix")
        }
    };
    let canonical =
        logical_divide(&u, &core).map_err(|e| bad(format!("its modes do not divide by the {what}: {e}")))?;
    // Each mode split in two flat modes: (core, rest).
    let flat =
        (0..2).all(|i| canonical.get(i).is_ok_and(|m| m.rank() == 2 && m.modes().iter().all(|x| x.depth() == 0)));
    if !flat {
        return Err(bad(format!(
            "divided by the {what} in 16-byte units, it is {canonical}: each mode is not one core mode and one flat rest"
        )));
    }
    let stride = |i: usize, j: usize| -> Result<i64> {
        match canonical.get(i)?.get(j)?.stride() {
            Tuple::Leaf(d) => Ok(d.value()),
            t => Err(bad(format!("stride<{i},{j}> of {canonical} is {t}"))),
        }
    };
    let interleaved = layout_type == LayoutType::Interleave;
    let (sbo, lbo) = match major {
        Major::K => {
            let (s00, s10) = (stride(0, 0)?, stride(1, 0)?);
            if s00 != w {
                return Err(bad(format!(
                    "K-major {} puts the 8 rows of a core matrix {} bytes apart ({} elements of {bits} bits); this tile puts them {} bytes apart (stride<0,0> = {s00} in 16-byte units of {canonical})",
                    layout_type.name(),
                    16 * w,
                    16 * w / bytes,
                    16 * s00
                )));
            }
            if !interleaved && s10 != 1 {
                return Err(bad(format!(
                    "K-major {} keeps the two 16-byte halves of a 32-byte row adjacent; this tile puts them {} bytes apart (stride<1,0> = {s10} of {canonical})",
                    layout_type.name(),
                    16 * s10
                )));
            }
            (stride(0, 1)?, s10)
        }
        Major::MN => {
            let (s00, s10) = (stride(0, 0)?, stride(1, 0)?);
            if !interleaved && s00 != 1 {
                return Err(bad(format!(
                    "MN-major {} keeps the {w} 16-byte chunks of a {}-byte row adjacent; this tile puts them {} bytes apart (stride<0,0> = {s00} of {canonical})",
                    layout_type.name(),
                    16 * w,
                    16 * s00
                )));
            }
            if s10 != w {
                return Err(bad(format!(
                    "MN-major {} puts the 8 K rows of a core matrix {} bytes apart; this tile puts them {} bytes apart (stride<1,0> = {s10} in 16-byte units of {canonical})",
                    layout_type.name(),
                    16 * w,
                    16 * s10
                )));
            }
            let (s01, s11) = (stride(0, 1)?, stride(1, 1)?);
            if interleaved {
                (s01, s11)
            } else {
                (s11, s01)
            }
        }
    };
    Ok(GmmaDesc {
        start_address: field("start address", address / 16)?,
        leading_byte_offset: field("leading byte offset", lbo)?,
        stride_byte_offset: field("stride byte offset", sbo)?,
        base_offset: 0,
        layout_type,
    })
}

/// The descriptor of one MMA's tile of a shared-memory layout: `make_gmma_desc` of
/// `local_tile(smem, tile, coord)` (a coordinate of rank 2, or 3 with the stage last), the
/// layout's offsets added to `start`. As C++'s `make_fragment_A/B` of a partitioned shared
/// tensor, whose first descriptor is this one's at `coord = (0,0[,0])`.
///
/// # Errors
/// Those of the tiling and of [`make_gmma_desc`].
///
/// # Examples
/// ```
/// use cute_dyn::gmma::{gmma_desc_of_tile, Major};
/// use cute_dyn::swizzle::MaybeComposed;
/// // CuTe C++ 4.2: tile_to_shape(Layout_K_SW128_Atom<half_t>, (128,128,2)), stage 1, the
/// // (64,16) tile at (1,7): 0x4000004000010e06.
/// let smem = MaybeComposed::Composed("Sw<3,3,3> o 0 o ((8,16),(64,2),(1,2)):((64,512),(1,8192),(0,16384))".parse()?);
/// let d = gmma_desc_of_tile(Major::K, 16, &smem, (64, 16), &"(1,7,1)".parse()?, 0)?;
/// assert_eq!(d.to_u64(), 0x4000004000010e06);
/// # Ok::<(), cute_dyn::Error>(())
/// ```
pub fn gmma_desc_of_tile(
    major: Major,
    bits: i64,
    smem: &MaybeComposed,
    tile: (i64, i64),
    coord: &Coord,
    start: i64,
) -> Result<GmmaDesc> {
    // Its overflows named as what they are about ([`past_i64`]).
    (|| -> Result<GmmaDesc> {
        const OP: &str = "gmma_desc_of_tile";
        let bad = |reason: String| Error::InvalidArgument { op: OP, reason };
        let (sw, off, l) = parts(smem)?;
        if tile.0 <= 0 || tile.1 <= 0 {
            return Err(bad(format!(
                "the tile ({},{}) is empty; an MMA's tile is (MN,K) of positive extents",
                tile.0, tile.1
            )));
        }
        if !(2..=3).contains(&l.rank()) {
            return Err(bad(format!("the shared layout {l} has rank {}; it is (MN,K) or (MN,K,stages)", l.rank())));
        }
        if l.size()?.value() == 0 {
            return Err(bad(format!("the shared layout {l} is empty; it has no tile")));
        }
        let coord_rank = if coord.is_tuple() { coord.rank() } else { 1 };
        if !(coord_rank == 2 || coord_rank == 3 && l.rank() == 3) {
            return Err(bad(format!(
                "the coordinate {coord} has rank {coord_rank}; a tile of the rank-{} layout {l} is at (m,k){}",
                l.rank(),
                if l.rank() == 3 { " or (m,k,stage)" } else { "" }
            )));
        }
        for (i, t) in [tile.0, tile.1].into_iter().enumerate() {
            let extent = l.get(i)?.size()?.value();
            if extent % t != 0 {
                return Err(bad(format!(
                    "the tile ({},{}) does not divide the shared layout {l}: mode {i} has {extent} elements, not a multiple of {t}",
                    tile.0, tile.1
                )));
            }
        }
        // A stage coordinate (the third) first: a slice of the last mode.
        let (l, coord, stage_off) = match coord {
            Tuple::Node(c) if c.len() == 3 && l.rank() == 3 => {
                let stage = Tuple::Node(alloc::vec![Tuple::Leaf(None), Tuple::Leaf(None), c[2].clone()]);
                let (s, o) = l.slice_and_offset(&stage)?;
                (s, Tuple::Node(c[..2].to_vec()), o.value())
            }
            c => (l, c.clone(), 0),
        };
        let tiler: Tiler = format!("<{},{}>", tile.0, tile.1).parse()?;
        let (t, o) = crate::tensor::inner_partition(&l, &tiler, &coord)?;
        let off = off.checked_add(stage_off).and_then(|x| x.checked_add(o.value())).ok_or(Error::Overflow { op: OP })?;
        let tile = match sw {
            None => MaybeComposed::Layout(t),
            Some(sw) => MaybeComposed::Composed(ComposedLayout::new(sw, 0, t)),
        };
        // The offset moves the start address: the hardware swizzles the final address.
        let bytes = check_bits(OP, bits)?;
        let start = off.checked_mul(bytes).and_then(|x| x.checked_add(start)).ok_or(Error::Overflow { op: OP })?;
        make_gmma_desc(major, bits, &tile, start)
    })()
    .map_err(|e| past_i64(e, "gmma_desc_of_tile", smem, start))
}
