//! Tiled copies (CuTe's `cute/atom/copy_atom.hpp`): a copy atom's source and destination
//! thread-value layouts, tiled by a thread layout and a value layout, and the per-thread
//! partitions of the source and destination a CuTe kernel copies with. Only layouts: the
//! atoms' instructions are the kernel's.

use alloc::string::String;
use alloc::vec;

use crate::coalesce::coalesce_by;
use crate::composition::composition;
use crate::divide::zipped_divide;
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::{self, IntTuple, Tuple};
use crate::inverse::right_inverse;
use crate::layout::{make_layout_left, Layout};
use crate::product::raked_product;
use crate::recast::upcast;
use crate::tiler::Tiler;

/// A copy atom for elements of `value_bits` bits: its threads and its layouts
/// `(thread, value) -> offset` (CuTe's `Copy_Atom<Op, T>`: the traits' bit layouts upcast to
/// the element).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CopyAtom {
    /// The CuTe name of the operation (`SM75_U32x4_LDSM_N`, `UniversalCopy<uint128_t>`).
    pub name: String,
    /// `ThrID`.
    pub thr_id: Layout,
    /// `ValLayoutSrc`.
    pub layout_src: Layout,
    /// `ValLayoutDst`.
    pub layout_dst: Layout,
    /// `ValLayoutRef`.
    pub layout_ref: Layout,
}

/// `Copy_Traits` of CuTe 4.2 in bits: `(name, ThrID, Src, Dst, Ref)`.
type CopyRow = (&'static str, &'static str, &'static str, &'static str, &'static str);

const COPIES: &[CopyRow] = &[
    ("SM75_U32x1_LDSM_N", "32:1", "((8,4),128):((128,0),1)", "(32,32):(32,1)", "(32,32):(32,1)"),
    ("SM75_U32x2_LDSM_N", "32:1", "((16,2),128):((128,0),1)", "(32,(32,2)):(32,(1,1024))", "(32,(32,2)):(32,(1,1024))"),
    ("SM75_U32x4_LDSM_N", "32:1", "(32,128):(128,1)", "(32,(32,4)):(32,(1,1024))", "(32,(32,4)):(32,(1,1024))"),
    (
        "SM75_U16x2_LDSM_T",
        "32:1",
        "((8,4),128):((128,0),1)",
        "((4,8),(16,2)):((256,16),(1,128))",
        "((4,8),(16,2)):((256,16),(1,128))",
    ),
    (
        "SM75_U16x4_LDSM_T",
        "32:1",
        "((16,2),128):((128,0),1)",
        "((4,8),(16,2,2)):((256,16),(1,128,1024))",
        "((4,8),(16,2,2)):((256,16),(1,128,1024))",
    ),
    (
        "SM75_U16x8_LDSM_T",
        "32:1",
        "(32,128):(128,1)",
        "((4,8),(16,2,4)):((256,16),(1,128,1024))",
        "((4,8),(16,2,4)):((256,16),(1,128,1024))",
    ),
];

/// The ldmatrix row of an SM90 stmatrix atom's name (`SM90_U32x4_STSM_N` -> `SM75_U32x4_LDSM_N`).
fn stsm(name: &str) -> Option<&'static CopyRow> {
    let ldsm = name.strip_prefix("SM90_").filter(|r| r.contains("_STSM_"))?.replacen("_STSM_", "_LDSM_", 1);
    COPIES.iter().find(|c| c.0.strip_prefix("SM75_") == Some(ldsm.as_str()))
}

impl CopyAtom {
    /// `Copy_Atom<Op, T>` for elements of `value_bits` bits: `Op` one of the SM75 `ldmatrix`
    /// atoms above, their SM90 `stmatrix` reversals (`SM90_U32x4_STSM_N`, ...), or
    /// `UniversalCopy<uintN_t>` / `SM80_CP_ASYNC_CACHEALWAYS<uintN_t>` (one thread moving `N`
    /// bits, N in 8..=128).
    ///
    /// # Errors
    /// `InvalidArgument` for an unknown name; those of `upcast` (an element that does not
    /// divide the atom's bits).
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::copy::CopyAtom;
    /// // ldmatrix.x4 of 16-bit elements: 32 threads, 8 values each (CuTe C++ 4.2)
    /// let a = CopyAtom::new("SM75_U32x4_LDSM_N", 16)?;
    /// assert_eq!(a.layout_dst.to_string(), "(32,(2,4)):(2,(1,64))");
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn new(name: &str, value_bits: i64) -> Result<CopyAtom> {
        let universal = ["UniversalCopy<", "SM80_CP_ASYNC_CACHEALWAYS<"].iter().find_map(|p| name.strip_prefix(p));
        let bits = universal.and_then(|r| r.strip_prefix("uint")?.strip_suffix("_t>")?.parse::<i64>().ok());
        let row = COPIES.iter().find(|c| c.0 == name).map(|r| (r, false)).or_else(|| stsm(name).map(|r| (r, true)));
        let (thr, src, dst, rf) = match (bits, row) {
            (Some(b @ (8 | 16 | 32 | 64 | 128)), _) => {
                let l = alloc::format!("(1,{b}):(0,1)");
                (String::from("1:0"), l.clone(), l.clone(), l)
            }
            (_, Some((&(_, t, s, d, r), false))) => (t.into(), s.into(), d.into(), r.into()),
            // `Copy_Traits<SM90_..._STSM_...>` (C++ 4.2's copy_traits_sm90.hpp): the ldmatrix
            // atom's reversed, its source the ldmatrix destination (registers) and its
            // reference that source.
            (_, Some((&(_, t, s, d, _), true))) => (t.into(), d.into(), s.into(), d.into()),
            _ => {
                return Err(Error::InvalidArgument {
                    op: "copy atom",
                    reason: alloc::format!("unknown atom {name}: UniversalCopy<uintN_t>, SM80_CP_ASYNC_CACHEALWAYS<uintN_t>, an SM75 ldmatrix or an SM90 stmatrix"),
                })
            }
        };
        let val = |bits: &str| -> Result<Layout> { upcast(&bits.parse::<Layout>()?.to_static(), value_bits) };
        Ok(CopyAtom {
            name: name.into(),
            thr_id: thr.parse::<Layout>()?.to_static(),
            layout_src: val(&src)?,
            layout_dst: val(&dst)?,
            layout_ref: val(&rf)?,
        })
    }
}

/// CuTe's `TiledCopy`: an atom over a thread-value layout `(thread, value) -> (m, n)` of a tile
/// of shape `tiler_mn`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TiledCopy {
    atom: CopyAtom,
    layout_tv: Layout,
    tiler_mn: IntTuple,
}

impl TiledCopy {
    /// `make_tiled_copy(atom, thr_layout, val_layout)`: the tile `raked_product(thr, val)`,
    /// `(m,n) -> (thread, value)`, its right inverse as the thread-value layout.
    ///
    /// # Errors
    /// Those of the product and the inverse; `InvalidArgument` where the atom needs more
    /// threads or values than the tiling gives (C++'s static_asserts).
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::copy::{CopyAtom, TiledCopy};
    /// // 128-bit copies of 16-bit elements: 32x4 threads (row-major), 8 values each in a row
    /// let t = TiledCopy::new(CopyAtom::new("UniversalCopy<uint128_t>", 16)?, &"(32,4):(4,1)".parse()?, &"(1,8):(0,1)".parse()?)?;
    /// assert_eq!(t.tiler_mn().to_string(), "(32,32)"); // CuTe C++ 4.2
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn new(atom: CopyAtom, thr_layout: &Layout, val_layout: &Layout) -> Result<TiledCopy> {
        let layout_mn = raked_product(thr_layout, val_layout)?;
        let shape = Tuple::Node(vec![Tuple::Leaf(thr_layout.size()?), Tuple::Leaf(val_layout.size()?)]);
        let layout_tv = composition(&right_inverse(&layout_mn)?, &Tiler::Layout(make_layout_left(&shape)?))?;
        let tiler_mn = int_tuple::product_each(&layout_mn.shape())?;
        TiledCopy::from_tv(atom, layout_tv, tiler_mn)
    }

    /// `make_tiled_copy_impl(atom, layout_tv, tiler)`: an atom over a given thread-value
    /// layout of a tile.
    ///
    /// # Errors
    /// `InvalidArgument` where the tiling's threads or values are not a multiple of the atom's.
    pub fn from_tv(atom: CopyAtom, layout_tv: Layout, tiler_mn: IntTuple) -> Result<TiledCopy> {
        for (mode, what) in [(0, "threads"), (1, "values")] {
            let (tiled, of_atom) = (layout_tv.get(mode)?.size()?.value(), atom.layout_ref.get(mode)?.size()?.value());
            if of_atom == 0 || tiled % of_atom != 0 {
                return Err(Error::InvalidArgument {
                    op: "make_tiled_copy",
                    reason: alloc::format!(
                        "{tiled} {what} are not a multiple of the atom's {of_atom} (C++: too few {what} for the atom)"
                    ),
                });
            }
        }
        Ok(TiledCopy { atom, layout_tv, tiler_mn })
    }

    /// `make_tiled_copy_A(atom, mma)`: the atom over the MMA's A thread-value layout and its
    /// `(M,K)` tile, so that a copy's destination partition is the MMA's A fragment.
    ///
    /// # Errors
    /// As [`TiledCopy::from_tv`]; those of [`crate::mma::TiledMma::layout_a_tv`].
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::{copy::{CopyAtom, TiledCopy}, mma::{MmaAtom, TiledMma}, Int, Notation, Style, Tiler};
    /// // CUTLASS's SM80 GEMM: ldmatrix.x4 feeding a 2x2 tiled mma.sync 16x8x16, tile 32x32x16.
    /// let perm = [32, 32, 16].map(|n| Tiler::Int(Int::st(n)));
    /// let mma = TiledMma::new(MmaAtom::named("SM80_16x8x16_F32F16F16F32_TN")?, &"(2,2,1):(1,2,0)".parse()?, &perm)?;
    /// let copy = TiledCopy::for_mma_a(CopyAtom::new("SM75_U32x4_LDSM_N", 16)?, &mma)?;
    /// // CuTe C++ 4.2: each thread's ldmatrix reads 8 consecutive halves of a row of the 32x16 tile
    /// assert_eq!(copy.layout_s_tv()?.to_styled(Style::Cpp), "((_16,_2,_2,_2),(_8,_1)):((_1,_256,_16,_0),(_32,_0))");
    /// // and a thread's A fragment, retiled for the copy: 8 values per ldmatrix, 2x2 of them
    /// let frg = mma.partition_fragment_a(&"(64,32):(1,64)".parse()?, Int::dy(90))?;
    /// assert_eq!(frg.to_styled(Style::Cpp), "((_2,_2,_2),_2,_2):((_1,_2,_4),_8,_16)");
    /// assert_eq!(copy.retile(&frg)?.to_styled(Style::Cpp), "((_8,_1),_2,_2):((_1,_0),_8,_16)");
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn for_mma_a(atom: CopyAtom, mma: &crate::mma::TiledMma) -> Result<TiledCopy> {
        TiledCopy::from_tv(atom, mma.layout_a_tv()?, mma.tile_shape(0, 2)?)
    }

    /// `make_tiled_copy_B(atom, mma)`: over the MMA's B thread-value layout and `(N,K)` tile.
    ///
    /// # Errors
    /// As [`TiledCopy::for_mma_a`].
    pub fn for_mma_b(atom: CopyAtom, mma: &crate::mma::TiledMma) -> Result<TiledCopy> {
        TiledCopy::from_tv(atom, mma.layout_b_tv()?, mma.tile_shape(1, 2)?)
    }

    /// `make_tiled_copy_C(atom, mma)`: over the MMA's C thread-value layout and `(M,N)` tile.
    ///
    /// # Errors
    /// As [`TiledCopy::for_mma_a`].
    pub fn for_mma_c(atom: CopyAtom, mma: &crate::mma::TiledMma) -> Result<TiledCopy> {
        TiledCopy::from_tv(atom, mma.layout_c_tv()?, mma.tile_shape(0, 1)?)
    }

    /// The atom.
    pub fn atom(&self) -> &CopyAtom {
        &self.atom
    }

    /// `(thread, value) -> (m, n)`, `TiledLayout_TV`.
    pub fn layout_tv(&self) -> &Layout {
        &self.layout_tv
    }

    /// The tile's shape, `Tiler_MN`.
    pub fn tiler_mn(&self) -> &IntTuple {
        &self.tiler_mn
    }

    /// `tidfrg_S`: an `(M,N,...)` source layout as `(Thr,(FrgV,FrgX),(RestM,RestN,...))`.
    ///
    /// # Errors
    /// Those of the algebra.
    pub fn tidfrg_s(&self, s: &Layout) -> Result<Layout> {
        self.tile2thrfrg(&zipped_divide(s, &Tiler::from_shape(&self.tiler_mn))?, &self.atom.layout_src)
    }

    /// `tidfrg_D`: an `(M,N,...)` destination layout as `(Thr,(FrgV,FrgX),(RestM,RestN,...))`.
    ///
    /// # Errors
    /// Those of the algebra.
    pub fn tidfrg_d(&self, d: &Layout) -> Result<Layout> {
        self.tile2thrfrg(&zipped_divide(d, &Tiler::from_shape(&self.tiler_mn))?, &self.atom.layout_dst)
    }

    /// `tile2thrfrg`: the tile mode of `((TileM,TileN),(RestM,...))` seen through the tiled
    /// thread-value layout, the atom's reference threads and values mapped to `target`'s.
    fn tile2thrfrg(&self, tiled: &Layout, target: &Layout) -> Result<Layout> {
        let rf = &self.atom.layout_ref;
        let ref2trg = composition(&right_inverse(rf)?, &Tiler::Layout(target.clone()))?;
        let atom_tv = zipped_divide(
            &self.layout_tv,
            &Tiler::ByMode(vec![Tiler::Int(rf.get(0)?.size()?), Tiler::Int(rf.get(1)?.size()?)]),
        )?;
        let trg_tv = composition(&atom_tv, &Tiler::ByMode(vec![Tiler::Layout(ref2trg), Tiler::Under]))?;
        let zipped = Layout::new(int_tuple::zip1(&trg_tv.shape())?, int_tuple::zip1(&trg_tv.stride())?)?;
        let profile: IntTuple =
            Tuple::Node(vec![IntTuple::int(1), Tuple::Node(vec![IntTuple::int(1), IntTuple::int(1)])]);
        let thrval2mn = coalesce_by(&zipped, &profile)?;
        let tv = composition(tiled, &Tiler::ByMode(vec![Tiler::Layout(thrval2mn), Tiler::Under]))?;
        tv.slice(&Tuple::Node(vec![Tuple::Node(vec![Tuple::Leaf(None), Tuple::Leaf(None)]), Tuple::Leaf(None)]))
    }

    /// `get_layoutS_TV`: `(thread, value) -> (m, n)` of the source tile.
    ///
    /// # Errors
    /// Those of the algebra.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::copy::{CopyAtom, TiledCopy};
    /// use cute_dyn::{Notation, Style};
    /// let t = TiledCopy::new(CopyAtom::new("UniversalCopy<uint128_t>", 16)?, &"(32,4):(4,1)".parse()?, &"(1,8):(0,1)".parse()?)?;
    /// // CuTe C++ 4.2's get_layoutS_TV(): thread t reads 8 elements along a row of the 32x32 tile
    /// assert_eq!(t.layout_s_tv()?.to_styled(Style::Cpp), "((_4,_32),(_8,_1)):((_256,_1),(_32,_0))");
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn layout_s_tv(&self) -> Result<Layout> {
        self.layout_x_tv(&self.atom.layout_src)
    }

    /// `get_layoutD_TV`: `(thread, value) -> (m, n)` of the destination tile.
    ///
    /// # Errors
    /// Those of the algebra.
    pub fn layout_d_tv(&self) -> Result<Layout> {
        self.layout_x_tv(&self.atom.layout_dst)
    }

    fn layout_x_tv(&self, target: &Layout) -> Result<Layout> {
        let reference = make_layout_left(&Tuple::Node(vec![self.tiler_mn.clone(), IntTuple::int(1)]))?;
        let frg = self.tile2thrfrg(&reference, target)?;
        frg.slice(&Tuple::Node(vec![Tuple::Leaf(None), Tuple::Leaf(None), Tuple::Leaf(Some(Int::st(0)))]))
    }

    /// `get_slice(thr).partition_S(s)`: thread `thr`'s part of an `(M,N,...)` source,
    /// `((FrgV,FrgX),RestM,RestN,...)`, and its offset.
    ///
    /// # Errors
    /// Those of the algebra.
    pub fn partition_s(&self, s: &Layout, thr: Int) -> Result<(Layout, Int)> {
        partition(&self.tidfrg_s(s)?, s.rank(), thr)
    }

    /// `get_slice(thr).partition_D(d)`: thread `thr`'s part of an `(M,N,...)` destination.
    ///
    /// # Errors
    /// As [`TiledCopy::partition_s`].
    pub fn partition_d(&self, d: &Layout, thr: Int) -> Result<(Layout, Int)> {
        partition(&self.tidfrg_d(d)?, d.rank(), thr)
    }
}

impl TiledCopy {
    /// `retile_S` / `retile_D`: a thread's fragment `(V, RestM, RestN, ...)` (an MMA's
    /// register fragment) seen as the copy's `((AtomV, RestV), RestM, RestN, ...)`, the values
    /// grouped as the copy's atom moves them.
    ///
    /// # Errors
    /// Those of the algebra (a fragment whose value count the tiling does not divide).
    pub fn retile(&self, frg: &Layout) -> Result<Layout> {
        let v = frg.get(0)?.size()?;
        let threads = self.layout_tv.get(0)?.size()?;
        let inverse = right_inverse(&self.layout_tv)?;
        let by_mn = composition(&inverse, &Tiler::Layout(make_layout_left(&self.tiler_mn)?))?;
        let frg_mn = upcast(&by_mn, threads.checked_mul(v)?.value())?;
        let values = crate::product::logical_product(
            &make_layout_left(&Tuple::Leaf(v))?,
            &Tiler::Layout(right_inverse(&frg_mn)?),
        )?;
        let atom_vals = make_layout_left(&Tuple::Leaf(self.atom.layout_ref.get(1)?.size()?))?;
        let frg_v = zipped_divide(&values, &Tiler::Layout(atom_vals))?;
        let tile = int_tuple::product_each(&frg_mn.shape())?.prepend(Tuple::Leaf(v));
        let tiled = zipped_divide(frg, &Tiler::from_shape(&tile))?;
        let v_tensor = composition(&tiled, &Tiler::ByMode(vec![Tiler::Layout(frg_v), Tiler::Under]))?;
        let rest = IntTuple::int(0).map(&mut |x| Some(*x)).append_to(frg.rank(), Tuple::Leaf(None))?;
        v_tensor.slice(&Tuple::Node(vec![Tuple::Leaf(None), rest]))
    }
}

/// `thr_tensor(thr, _, repeat<rank>(_))`.
fn partition(frg: &Layout, rank: usize, thr: Int) -> Result<(Layout, Int)> {
    let rest = int_tuple::repeat_under(rank);
    frg.slice_and_offset(&Tuple::Node(vec![Tuple::Leaf(Some(thr)), Tuple::Leaf(None), rest]))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// stmatrix is ldmatrix reversed (C++ 4.2's `Copy_Traits<SM90_U32x4_STSM_N>`: `SrcLayout`
    /// the ldmatrix `DstLayout`, `DstLayout` its `SrcLayout`, `RefLayout` the source).
    #[test]
    fn stmatrix_is_ldmatrix_reversed() {
        use alloc::string::ToString;
        for (st, ld) in [("SM90_U32x4_STSM_N", "SM75_U32x4_LDSM_N"), ("SM90_U16x8_STSM_T", "SM75_U16x8_LDSM_T")] {
            let (st, ld) = (CopyAtom::new(st, 16).unwrap(), CopyAtom::new(ld, 16).unwrap());
            assert_eq!(
                (&st.layout_src, &st.layout_dst, &st.layout_ref),
                (&ld.layout_dst, &ld.layout_src, &ld.layout_dst)
            );
        }
        let st = CopyAtom::new("SM90_U32x4_STSM_N", 16).unwrap();
        assert_eq!(
            (st.layout_src.to_string(), st.layout_dst.to_string()),
            ("(32,(2,4)):(2,(1,64))".into(), "(32,8):(8,1)".into())
        );
    }

    /// Bad input is an error, never a panic: element sizes that are not positive (others
    /// upcast as C++ does, rounding up), an unknown atom, thread counts the atom does not
    /// divide; an empty fragment or operand and a thread past the threads do not panic.
    #[test]
    fn bad_input_is_an_error() {
        for bits in [0, -16] {
            assert!(CopyAtom::new("UniversalCopy<uint128_t>", bits).is_err(), "{bits} bits");
        }
        assert!(CopyAtom::new("UniversalCopy<uint24_t>", 8).is_err());
        assert!(CopyAtom::new("SM75_U32x4_LDSM_X", 16).is_err());
        for name in ["SM90_U32x4_LDSM_N", "SM75_U32x4_STSM_N", "SM90_U32x3_STSM_N"] {
            assert!(CopyAtom::new(name, 16).is_err(), "{name}");
        }
        let atom = CopyAtom::new("SM75_U32x4_LDSM_N", 16).unwrap();
        // 16 threads cannot run a 32-thread ldmatrix.
        assert!(
            TiledCopy::new(atom.clone(), &"(16,1):(1,0)".parse().unwrap(), &"(1,8):(0,1)".parse().unwrap()).is_err()
        );
        let t = TiledCopy::new(atom, &"(32,1):(1,0)".parse().unwrap(), &"(1,8):(0,1)".parse().unwrap()).unwrap();
        let _ = t.retile(&"(0,1):(1,0)".parse().unwrap());
        let _ = t.partition_s(&"(0,0):(1,0)".parse().unwrap(), Int::dy(-1));
    }
}
