//! Hopper's tensor memory accelerator (TMA) copies a box of a global tensor into shared memory,
//! described by a tensor map. CuTe derives the map's parameters from two layouts
//! (`copy_traits_sm90_tma.hpp`, `make_tma_copy`), and so does this module: the global tensor's
//! and the shared tile's. The right inverse of the tile (its non-swizzled part) composed with
//! the tile's coordinates in the global tensor gives, shared index by shared index, the global
//! mode each step walks (`construct_tma_gbasis`); the steps of unit value are kept, coalesced up
//! to the 256-element box limit, the global modes the tile does not walk appended with extent
//! 1, the trailing modes grouped to rank 5. The box is the modes' sizes, the global dimensions
//! and strides the global tensor's along them, the swizzle the tile's.

use alloc::format;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use crate::basis::make_identity_layout;
use crate::error::{Error, Result};
use crate::int::{gcd, Int};
use crate::inverse::right_inverse;
use crate::layout::Layout;
use crate::print::Notation;
use crate::swizzle::{MaybeComposed, Swizzle};
use crate::tiler::Tiler;

/// The parameters `cuTensorMapEncodeTiled` takes (CUDA's driver API), as CuTe's
/// `make_tma_copy_desc` passes them: enum values as CUDA defines them.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TmaDesc {
    /// `CUtensorMapDataType` (`FLOAT16` = 6, `BFLOAT16` = 9, `FLOAT32` = 7, `TFLOAT32` = 11,
    /// `UINT8` = 0 for the 8-bit types).
    pub data_type: u32,
    /// `globalDim`, innermost first.
    pub global_dim: Vec<u64>,
    /// `globalStrides` in bytes, of the modes after the first (rank - 1 of them).
    pub global_strides: Vec<u64>,
    /// `boxDim`.
    pub box_dim: Vec<u32>,
    /// `elementStrides` (CuTe: all 1).
    pub element_strides: Vec<u32>,
    /// `CUtensorMapInterleave` (CuTe: `NONE` = 0).
    pub interleave: u32,
    /// `CUtensorMapSwizzle`: `NONE` = 0, `32B` = 1, `64B` = 2, `128B` = 3.
    pub swizzle: u32,
    /// `CUtensorMapL2promotion` (CuTe: `L2_128B` = 2).
    pub l2_promotion: u32,
    /// `CUtensorMapFloatOOBfill` (CuTe: `NONE` = 0: out-of-bounds elements read as zeros).
    pub oob_fill: u32,
    /// `get_tma_tensor(shape(gtensor))`'s layout: the global tensor's shape with scaled-basis
    /// strides, the TMA coordinate of each global coordinate (`(M,K):(1@1,1@0)` for a K-major
    /// matrix).
    pub coordinates: TmaCoordinates,
}

/// `get_tma_tensor(shape(gtensor))`'s layout: the global tensor's (flat) shape, each mode's
/// stride a TMA coordinate `v@j` (`None` for 0). Printed as C++ prints it. Not a
/// [`BasisLayout`](crate::basis::BasisLayout): its coordinates are encoded in one `i64`, and
/// TMA's extents reach 2^32 on each of 5 modes.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TmaCoordinates {
    /// The global tensor's shape.
    pub shape: crate::int_tuple::IntTuple,
    /// Each global mode's TMA coordinate stride `(v, j)`: `v@j`.
    pub strides: Vec<Option<(Int, usize)>>,
}

impl TmaCoordinates {
    /// The text in `style` (C++ prints `(1000,512):(_1@1,_1@0)`).
    pub fn to_styled(&self, style: crate::Style) -> String {
        Notation::to_styled(self, style)
    }
}

impl Notation for TmaCoordinates {
    fn write_styled(&self, style: crate::Style, out: &mut String) {
        self.shape.write_styled(style, out);
        out.push(':');
        let strides = match (&self.shape, &self.strides[..]) {
            (crate::int_tuple::Tuple::Leaf(_), [d]) => crate::int_tuple::Tuple::Leaf(*d),
            _ => {
                crate::int_tuple::Tuple::Node(self.strides.iter().map(|d| crate::int_tuple::Tuple::Leaf(*d)).collect())
            }
        };
        crate::basis::write_strides(&strides, style, out);
    }
}

impl TmaDesc {
    /// `tensorRank`.
    pub fn rank(&self) -> usize {
        self.global_dim.len()
    }

    /// The condition `cuTensorMapEncodeTiled` puts on the global tensor's address, which the
    /// layouts do not carry: 16-byte aligned (32 with a 32-byte interleave).
    ///
    /// # Errors
    /// `InvalidArgument` naming the address and the alignment.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::swizzle::MaybeComposed;
    /// use cute_dyn::tma::make_tma_copy_desc;
    /// let smem = MaybeComposed::Layout("(64,32):(32,1)".parse()?);
    /// let d = make_tma_copy_desc(&"({1000},{512}):({512},1)".parse()?, "half_t", &smem)?;
    /// assert!(d.check_global_address(0x7f00_0000_0100).is_ok());
    /// assert!(d.check_global_address(0x7f00_0000_0108).is_err()); // 8 bytes past a 16-byte boundary
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn check_global_address(&self, addr: u64) -> Result<()> {
        let align = if self.interleave == 2 { 32 } else { 16 };
        if !addr.is_multiple_of(align) {
            return Err(bad(format!(
                "the global address is {align}-byte aligned for TMA; {addr:#x} is {} bytes past a boundary",
                addr % align
            )));
        }
        Ok(())
    }
}

impl core::fmt::Display for TmaDesc {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        let list = |v: &[u64]| v.iter().map(|x| format!("{x}")).collect::<Vec<_>>().join(",");
        let box_dim: Vec<u64> = self.box_dim.iter().map(|&x| u64::from(x)).collect();
        let estr: Vec<u64> = self.element_strides.iter().map(|&x| u64::from(x)).collect();
        write!(
            f,
            "TmaDescriptor {{dtype: {}, rank: {}, globalDim: ({}), globalStrides: ({}), boxDim: ({}), elementStrides: ({}), interleave: {}, swizzle: {}, l2Promotion: {}, oobFill: {}}}, TMA tensor {}",
            self.data_type,
            self.rank(),
            list(&self.global_dim),
            list(&self.global_strides),
            list(&box_dim),
            list(&estr),
            self.interleave,
            self.swizzle,
            self.l2_promotion,
            self.oob_fill,
            self.coordinates.to_styled(crate::Style::Cpp)
        )
    }
}

/// The CuTe element types TMA copies, as [`tma_data_type`] takes them.
pub const DATA_TYPES: [&str; 14] = [
    "half_t",
    "bfloat16_t",
    "tfloat32_t",
    "float",
    "double",
    "float_e4m3_t",
    "float_e5m2_t",
    "int8_t",
    "uint8_t",
    "uint16_t",
    "int32_t",
    "uint32_t",
    "int64_t",
    "uint64_t",
];

/// `CUtensorMapDataType` and the width in bits of a CuTe element type (`TMA::to_CUtensorMapDataType`).
pub fn tma_data_type(name: &str) -> Option<(u32, i64)> {
    Some(match name {
        "int8_t" | "uint8_t" | "float_e4m3_t" | "float_e5m2_t" => (0, 8),
        "uint16_t" => (1, 16),
        "uint32_t" => (2, 32),
        "int32_t" => (3, 32),
        "uint64_t" => (4, 64),
        "int64_t" => (5, 64),
        "half_t" => (6, 16),
        "float" => (7, 32),
        "double" => (8, 64),
        "bfloat16_t" => (9, 16),
        "tfloat32_t" => (11, 32),
        _ => return None,
    })
}

/// The most shared memory a block has on sm_90 (227 KiB), where a TMA box lands.
const SHARED_MEMORY: i64 = 227 * 1024;

fn bad(reason: String) -> Error {
    Error::InvalidArgument { op: "make_tma_copy", reason }
}

/// One TMA mode: its box extent and the global modes it walks (more than one where the box
/// mode was grouped).
struct TmaMode {
    size: i64,
    modes: Vec<usize>,
}

/// `make_tma_copy(SM90_TMA_LOAD, gtensor, slayout)`'s tensor map for a global tensor of layout
/// `g` (a flat shape of up to 5 modes, run-time extents and strides in elements) and a shared
/// tile `smem` (static: a layout, or `Sw<B,M,S> o 0 o layout`, swizzle on element offsets) of
/// `elem` elements (a CuTe type name), the CTA tile the tile's own shape (C++'s default
/// `product_each(shape(slayout))`).
///
/// Conditions, each an error with its numbers (C++ checks them with `assert`s at run time,
/// or the driver refuses the map): the tile's first step walks a global mode of stride 1 (the
/// tile's majorness is the global tensor's); global strides multiples of 16 bytes and below
/// 2^40; global extents in `1..=2^32`; box extents at most 256; the swizzle one TMA has
/// (`Sw<0..3,4,3>` on bytes) and a box row no wider than its span.
///
/// # Errors
/// `InvalidArgument` naming the failed condition; those of the algebra it runs.
///
/// # Examples
/// ```
/// use cute_dyn::swizzle::MaybeComposed;
/// use cute_dyn::tma::make_tma_copy_desc;
/// // CuTe C++ 4.2: make_tma_copy(SM90_TMA_LOAD{}, A (1000,512):(512,_1) of half_t,
/// // tile_to_shape(Layout_K_SW128_Atom<half_t>, (128,64))) encodes globalDim (512,1000),
/// // globalStrides (1024), boxDim (64,128), swizzle 128B.
/// let smem = MaybeComposed::Composed("Sw<3,3,3> o 0 o ((8,16),(64,1)):((64,512),(1,0))".parse()?);
/// let d = make_tma_copy_desc(&"({1000},{512}):({512},1)".parse()?, "half_t", &smem)?;
/// assert_eq!((d.global_dim.clone(), d.global_strides.clone()), (vec![512, 1000], vec![1024]));
/// assert_eq!((d.box_dim.clone(), d.swizzle, d.data_type), (vec![64, 128], 3, 6));
/// // get_tma_tensor(shape(A)): (1000,512):(_1@1,_1@0), K the TMA's first coordinate.
/// assert_eq!(d.coordinates.to_styled(cute_dyn::Style::Cpp), "(1000,512):(_1@1,_1@0)");
/// # Ok::<(), cute_dyn::Error>(())
/// ```
pub fn make_tma_copy_desc(g: &Layout, elem: &str, smem: &MaybeComposed) -> Result<TmaDesc> {
    make_tma_copy_desc_multicast(g, elem, smem, 1)
}

/// [`make_tma_copy_desc`] for a load multicast to `multicast` CTAs of a cluster
/// (`make_tma_copy(SM90_TMA_LOAD_MULTICAST{}, gtensor, slayout, cluster_size)`): each CTA
/// loads its slice of the tile, the box's outer modes divided by the count (C++'s truncation,
/// last mode first; each mode's extent and the count dividing one another).
///
/// # Errors
/// Those of [`make_tma_copy_desc`]; `InvalidArgument` for a count of 0 or one that does not
/// divide the box's modes (or is not divided by them).
///
/// # Examples
/// ```
/// use cute_dyn::swizzle::MaybeComposed;
/// use cute_dyn::tma::make_tma_copy_desc_multicast;
/// // CuTe C++ 4.2 (tests/data/tma): a 128x64 SW128 tile multicast to 2 CTAs: boxDim (64,64).
/// let smem = MaybeComposed::Composed("Sw<3,3,3> o 0 o ((8,16),(64,1)):((64,512),(1,0))".parse()?);
/// let d = make_tma_copy_desc_multicast(&"({1000},{512}):({512},1)".parse()?, "half_t", &smem, 2)?;
/// assert_eq!(d.box_dim, vec![64, 64]);
/// # Ok::<(), cute_dyn::Error>(())
/// ```
pub fn make_tma_copy_desc_multicast(g: &Layout, elem: &str, smem: &MaybeComposed, multicast: u32) -> Result<TmaDesc> {
    tma_copy_desc(g, elem, smem, multicast).map_err(|e| match e {
        Error::Overflow { .. } => {
            bad(format!("the global tensor {g} or the shared tile {smem}: a size, coordinate or stride passes i64"))
        }
        e => e,
    })
}

fn tma_copy_desc(g: &Layout, elem: &str, smem: &MaybeComposed, multicast: u32) -> Result<TmaDesc> {
    if multicast == 0 {
        return Err(bad(String::from("a multicast to 0 CTAs")));
    }
    let (data_type, bits) = tma_data_type(elem)
        .ok_or_else(|| bad(format!("'{elem}' is not a type TMA copies; it copies {}", DATA_TYPES.join(", "))))?;
    let bytes = bits / 8;
    let (sw, s) = match smem.swizzled_layout() {
        Some((sw, off, l)) if off.value() == 0 => (sw, l.clone()),
        _ => return Err(bad(format!("a TMA shared tile is a layout or Sw<B,M,S> o 0 o layout, not {smem}"))),
    };
    if !s.is_static() {
        return Err(bad(format!("the shared tile {s} has run-time leaves; a TMA box is static")));
    }
    let gshape = g.shape();
    if gshape.is_tuple() && gshape.leaves().len() != g.rank() {
        return Err(bad(format!("the global tensor {g} has a nested shape; TMA takes a flat one")));
    }
    if s.rank() > g.rank().max(1) {
        return Err(bad(format!(
            "the shared tile {s} has rank {}, the global tensor {g} rank {}: a TMA tile has at most the global tensor's rank",
            s.rank(),
            g.rank()
        )));
    }
    if s.size()?.value() == 0 {
        return Err(bad(format!("the shared tile {s} is empty; a TMA box has at least one element")));
    }
    let (gs, gd): (Vec<Int>, Vec<Int>) = g.pairs().iter().copied().unzip();
    // The CTA tile's coordinates in the global tensor (C++: the global identity layout composed
    // with the tile's shape), built from the tile's extents: the tile is static and small, so
    // its coordinates fit a basis layout's encoding whatever the global extents (up to 2^32 on
    // 5 modes, more than an i64 holds).
    let extents = (0..s.rank()).map(|i| Ok(format!("{}", s.get(i)?.size()?.value()))).collect::<Result<Vec<_>>>()?;
    let cta_v_map = make_identity_layout(&format!("({})", extents.join(",")).parse()?).map_err(|_| {
        let size = s.size().map_or(i64::MAX, |n| n.value());
        if size.saturating_mul(bytes) > SHARED_MEMORY {
            bad(format!(
                "the shared tile {s} holds {size} elements of {bits} bits, more than shared memory ({SHARED_MEMORY} bytes on sm_90)"
            ))
        } else {
            bad(format!(
                "the shared tile's extents ({}) pass the coordinates a basis layout of {} modes encodes (below 2^{} each)",
                extents.join(","),
                extents.len(),
                62 / extents.len()
            ))
        }
    })?;
    let inv = right_inverse(&s)?;
    let inv_size = inv.size()?.value();
    let full = crate::coalesce(&crate::composition(cta_v_map.encoded(), &Tiler::Layout(inv))?)?;
    let full = cta_v_map.with_encoded(full, "make_tma_copy")?;
    // The steps of value 1: the global modes a shared index walks, in order.
    let mut steps: Vec<(i64, usize)> = Vec::new();
    for &(n, d) in full.encoded().pairs() {
        match full.decode_stride(d, "make_tma_copy")? {
            Some((v, i)) if v.value() == 1 && v.is_static() => steps.push((n.value(), i)),
            _ => break,
        }
    }
    if steps.is_empty() && inv_size <= 1 {
        return Err(bad(format!(
            "the shared tile {s} has no element at offset 1 (no mode of stride 1): TMA writes the box's first dimension contiguously"
        )));
    }
    if steps.is_empty() {
        return Err(bad(format!(
            "no common vector of the tile and the global tensor: the tile's first step walks {} of {g}",
            full.to_styled(crate::Style::Values)
        )));
    }
    // coalesce_256: merge steps whose strides C++ knows statically to continue, up to 256.
    let mut modes: Vec<TmaMode> = Vec::new();
    let mut back: Option<(i64, Int)> = None; // (size, stride) of the last mode
    for &(n, i) in &steps {
        if n == 1 {
            continue;
        }
        let d = gd[i];
        let continues = back.is_some_and(|(bs, bd): (i64, Int)| {
            bd.is_static()
                && d.is_static()
                && bs.checked_mul(bd.value()) == Some(d.value())
                && n.checked_mul(bs).is_some_and(|x| x <= 256)
        });
        match (continues, modes.last_mut()) {
            (true, Some(m)) => {
                m.size *= n;
                m.modes.push(i);
                back = back.map(|(bs, bd)| (bs * n, bd));
            }
            _ => {
                modes.push(TmaMode { size: n, modes: vec![i] });
                back = Some((n, d));
            }
        }
    }
    if modes.is_empty() {
        modes.push(TmaMode { size: 1, modes: vec![steps[0].1] });
    }
    // The global modes the box does not walk, with extent 1 (C++ skips static extents of 1 and
    // static strides of 0).
    for i in 0..gs.len() {
        let trivial = (gs[i].is_static() && gs[i].value() == 1) || (gd[i].is_static() && gd[i].value() == 0);
        if !trivial && !modes.iter().any(|m| m.modes.contains(&i)) {
            modes.push(TmaMode { size: 1, modes: vec![i] });
        }
    }
    // Rank 5 at most: the trailing modes grouped.
    while modes.len() > 5 {
        let last = modes.pop().expect("more than five modes");
        let m = modes.last_mut().expect("four modes");
        m.size = m.size.checked_mul(last.size).ok_or(Error::Overflow { op: "make_tma_copy" })?;
        m.modes.extend(last.modes);
    }
    // The global dimensions and strides (elements) along each TMA mode.
    let mut dims = vec![1u64; modes.len()];
    let mut strides = vec![0u64; modes.len()];
    let value = |x: Int, what: &str| -> Result<u64> {
        u64::try_from(x.value()).map_err(|_| bad(format!("the global {what} {} is negative", x.value())))
    };
    for (j, m) in modes.iter().enumerate() {
        if let [i] = m.modes[..] {
            dims[j] = value(gs[i], "extent")?;
            strides[j] = value(gd[i], "stride")?;
            continue;
        }
        // C++'s recurrence over the grouped modes: g_shape = (s_i - 1) * (d_i / gcd) + 1.
        let overflow = Error::Overflow { op: "make_tma_copy" };
        for &i in &m.modes {
            let (shape, stride) = (value(gs[i], "extent")?, value(gd[i], "stride")?);
            let old = strides[j];
            strides[j] = gcd(old, stride);
            dims[j] = match (old.checked_div(strides[j]), stride.checked_div(strides[j])) {
                (Some(a), Some(b)) => dims[j]
                    .checked_sub(1)
                    .and_then(|x| x.checked_mul(a))
                    .and_then(|x| x.checked_add(shape.checked_sub(1)?.checked_mul(b)?))
                    .and_then(|x| x.checked_add(1))
                    .ok_or(overflow.clone())?,
                _ => shape,
            };
        }
    }
    if strides[0] != 1 {
        return Err(bad(format!(
            "the tile's contiguous steps walk a global mode of stride {} (its extent {}): the tile's majorness is not the global tensor's (TMA's first mode has stride 1)",
            strides[0], dims[0]
        )));
    }
    for (j, &d) in dims.iter().enumerate() {
        if d == 0 || d > 1 << 32 {
            return Err(bad(format!("global extent {d} of TMA mode {j} is outside 1..=2^32")));
        }
    }
    let mut global_strides = Vec::new();
    for (j, &d) in strides.iter().enumerate().skip(1) {
        let b = d.checked_mul(bytes as u64).ok_or(Error::Overflow { op: "make_tma_copy" })?;
        if b % 16 != 0 || b >= 1 << 40 {
            return Err(bad(format!(
                "global stride {b} bytes of TMA mode {j} ({d} elements of {bits} bits): TMA's strides are multiples of 16 bytes below 2^40"
            )));
        }
        global_strides.push(b);
    }
    let mut box_dim = Vec::new();
    for (j, m) in modes.iter().enumerate() {
        match u32::try_from(m.size) {
            Ok(b) if (1..=256).contains(&b) => box_dim.push(b),
            _ => return Err(bad(format!("box extent {} of TMA mode {j}: at most 256", m.size))),
        }
    }
    // Each CTA of a multicast loads its slice: the box's modes divided, the last first.
    let mut mc = multicast;
    for j in (0..box_dim.len()).rev() {
        if mc <= 1 {
            break;
        }
        let b = box_dim[j];
        if !b.is_multiple_of(mc) && !mc.is_multiple_of(b) {
            return Err(bad(format!(
                "a multicast to {mc} CTAs does not divide box extent {b} of TMA mode {j} (nor does it divide the count)"
            )));
        }
        let next = mc.div_ceil(b);
        box_dim[j] = b.div_ceil(mc);
        mc = next;
    }
    let swizzle = tma_swizzle(sw, bytes, u64::from(box_dim[0]) * bytes as u64)?;
    // The TMA coordinate of each global mode (C++'s `gmem_tma_basis_stride`): 0 where the mode
    // has a static extent 1, a static stride 0, or no TMA mode; `stride@0` in the first TMA
    // mode, `1@j` where it is TMA mode j's only one, else `ceil(d * bits / max(stride_j, 16) /
    // 8)@j`.
    let mut coord_strides = Vec::new();
    for i in 0..gs.len() {
        let trivial = (gs[i].is_static() && gs[i].value() == 1) || (gd[i].is_static() && gd[i].value() == 0);
        let found = modes.iter().position(|m| m.modes.contains(&i));
        coord_strides.push(match (trivial, found) {
            (true, _) | (_, None) => None,
            (_, Some(0)) => Some((gd[i], 0)),
            (_, Some(j)) if modes[j].modes.len() == 1 => Some((Int::st(1), j)),
            (_, Some(j)) => {
                let bytes_j = global_strides[j - 1].max(16);
                let scale = (value(gd[i], "stride")? * bits as u64 / bytes_j).div_ceil(8);
                let scale = i64::try_from(scale).map_err(|_| Error::Overflow { op: "make_tma_copy" })?;
                Some((Int::dy(scale), j))
            }
        });
    }
    let coordinates = TmaCoordinates { shape: gshape, strides: coord_strides };
    Ok(TmaDesc {
        coordinates,
        data_type,
        element_strides: vec![1; modes.len()],
        global_dim: dims,
        global_strides,
        box_dim,
        interleave: 0,
        swizzle,
        l2_promotion: 2,
        oob_fill: 0,
    })
}

/// `CUtensorMapSwizzle` of a tile's swizzle (on elements of `bytes` bytes): `Sw<B,4,3>` on
/// bytes, B = 0..3; the box's inner row (`inner` bytes) within the swizzle's span.
fn tma_swizzle(sw: Option<Swizzle>, bytes: i64, inner: u64) -> Result<u32> {
    let Some(sw) = sw else { return Ok(0) };
    let on_bytes = sw.downcast(bytes)?;
    let (b, m, s) = on_bytes.params();
    if !(0..=3).contains(&b) || m != 4 || s != 3 {
        return Err(bad(format!(
            "TMA swizzles are Sw<B,4,3> on bytes (B = 0..3); the tile's {sw} is {on_bytes} on bytes"
        )));
    }
    let span = 16u64 << b;
    if b > 0 && inner > span {
        return Err(bad(format!(
            "the box's inner row is {inner} bytes, wider than the {span}-byte span of its swizzle (CUDA refuses the map)"
        )));
    }
    Ok(match b {
        0 => 0,
        1 => 1,
        2 => 2,
        _ => 3,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bad_input_is_an_error() {
        let smem = MaybeComposed::Layout("(64,32):(32,1)".parse().unwrap());
        // An unknown type; a global tensor whose unit stride is not the tile's contiguous mode.
        assert!(make_tma_copy_desc(&"({128},{64}):({64},1)".parse().unwrap(), "quad", &smem).is_err());
        let e = make_tma_copy_desc(&"({128},{64}):(1,{128})".parse().unwrap(), "half_t", &smem).unwrap_err();
        assert!(alloc::string::ToString::to_string(&e).contains("majorness"), "{e}");
    }
}
