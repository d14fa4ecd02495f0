//! Tiled MMAs (CuTe's `cute/atom/mma_atom.hpp`): an MMA atom's thread-value layouts of its A,
//! B and C fragments, tiled over a layout of atoms and permuted, and the per-thread partitions
//! a CuTe GEMM is written with. Only layouts: the atoms' instructions are the kernel's.

use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use crate::composition::composition;
use crate::divide::{logical_divide, zipped_divide};
use crate::error::{Error, Result};
use crate::int::Int;
use crate::int_tuple::{Coord, Tuple};
use crate::inverse::right_inverse;
use crate::layout::{make_layout, make_layout_left, Layout};
use crate::product::tiled_product;
use crate::tiler::Tiler;

/// An MMA atom: one instruction's `(M,N,K)` shape, the threads it takes (`ThrID`) and the
/// thread-value layouts of its operands, `(thread, value) -> index` in the column-major
/// `(M,K)`, `(N,K)` and `(M,N)` tiles (CuTe's `MMA_Traits`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct MmaAtom {
    /// The CuTe name of the operation (`SM80_16x8x16_F32F16F16F32_TN`).
    pub name: String,
    /// `Shape_MNK`.
    pub shape_mnk: [i64; 3],
    /// `ThrID`: the atom's threads.
    pub thr_id: Layout,
    /// `ALayout`, `(thread, value) -> (m, k)`.
    pub layout_a_tv: Layout,
    /// `BLayout`, `(thread, value) -> (n, k)`.
    pub layout_b_tv: Layout,
    /// `CLayout`, `(thread, value) -> (m, n)`.
    pub layout_c_tv: Layout,
}

/// One row of the atom table: `(name, (M,N,K), ThrID, A, B, C)`, the layouts in the notation.
type AtomRow = (&'static str, [i64; 3], &'static str, &'static str, &'static str, &'static str);

/// The atoms of `MMA_Traits` in CuTe 4.2 with fixed layouts.
const ATOMS: &[AtomRow] = {
    const SM80_16X8_ROW: &str = "((4,8),(2,2)):((32,1),(16,8))";
    const SM80_8X8_ROW: &str = "((4,8),2):((16,1),8)";
    const A16: &str = "((4,8),(2,2,2)):((32,1),(16,8,128))";
    const B16: &str = "((4,8),(2,2)):((16,1),(8,64))";
    const SM80_8X4: &str = "((4,8),1):((8,1),0)";
    &[
        // fp64 (and the complex fp64 MMAs built of it: the same layouts).
        ("SM80_8x8x4_F64F64F64F64_TN", [8, 8, 4], "32:1", SM80_8X4, SM80_8X4, SM80_8X8_ROW),
        ("SM80_8x8x4_C64C64C64C64_TN", [8, 8, 4], "32:1", SM80_8X4, SM80_8X4, SM80_8X8_ROW),
        ("SM80_8x8x4_GC64C64C64GC64_TN", [8, 8, 4], "32:1", SM80_8X4, SM80_8X4, SM80_8X8_ROW),
        ("UniversalFMA", [1, 1, 1], "1:0", "(1,1):(0,0)", "(1,1):(0,0)", "(1,1):(0,0)"),
        ("SM75_16x8x8_F32F16F16F32_TN", [16, 8, 8], "32:1", SM80_16X8_ROW, SM80_8X8_ROW, SM80_16X8_ROW),
        ("SM80_16x8x8_F16F16F16F16_TN", [16, 8, 8], "32:1", SM80_16X8_ROW, SM80_8X8_ROW, SM80_16X8_ROW),
        ("SM80_16x8x8_F32F16F16F32_TN", [16, 8, 8], "32:1", SM80_16X8_ROW, SM80_8X8_ROW, SM80_16X8_ROW),
        ("SM80_16x8x8_F32BF16BF16F32_TN", [16, 8, 8], "32:1", SM80_16X8_ROW, SM80_8X8_ROW, SM80_16X8_ROW),
        ("SM80_16x8x16_F16F16F16F16_TN", [16, 8, 16], "32:1", A16, B16, SM80_16X8_ROW),
        ("SM80_16x8x16_F32F16F16F32_TN", [16, 8, 16], "32:1", A16, B16, SM80_16X8_ROW),
        ("SM80_16x8x16_F32BF16BF16F32_TN", [16, 8, 16], "32:1", A16, B16, SM80_16X8_ROW),
        (
            "SM80_16x8x4_F32TF32TF32F32_TN",
            [16, 8, 4],
            "32:1",
            "((4,8),2):((16,1),8)",
            "((4,8),1):((8,1),0)",
            SM80_16X8_ROW,
        ),
        (
            "SM80_16x8x8_F32TF32TF32F32_TN",
            [16, 8, 8],
            "32:1",
            "((4,8),(2,2)):((16,1),(8,64))",
            "((4,8),2):((8,1),32)",
            SM80_16X8_ROW,
        ),
    ]
};

/// SM80's 8-bit integer atoms (`S32 += S8/U8 * S8/U8`, each also `_SATURATE`: the same
/// layouts), from `mma_traits_sm80.hpp`.
const INT8: [AtomRow; 24] = {
    const C8X8: &str = "((4,8),2):((16,1),8)";
    const C16X8: &str = "((4,8),(2,2)):((32,1),(16,8))";
    const SM80_8X16_ROW: &str = "((4,8),4):((32,1),8)";
    const A16: &str = "((4,8),(4,2)):((64,1),(16,8))";
    const A32: &str = "((4,8),(4,2,2)):((64,1),(16,8,256))";
    const B32: &str = "((4,8),(4,2)):((32,1),(8,128))";
    macro_rules! int8 {
        ($($ab:literal),*) => {[$(
            (concat!("SM80_8x8x16_S32", $ab, "S32_TN"), [8, 8, 16], "32:1", SM80_8X16_ROW, SM80_8X16_ROW, C8X8),
            (concat!("SM80_8x8x16_S32", $ab, "S32_TN_SATURATE"), [8, 8, 16], "32:1", SM80_8X16_ROW, SM80_8X16_ROW, C8X8),
            (concat!("SM80_16x8x16_S32", $ab, "S32_TN"), [16, 8, 16], "32:1", A16, SM80_8X16_ROW, C16X8),
            (concat!("SM80_16x8x16_S32", $ab, "S32_TN_SATURATE"), [16, 8, 16], "32:1", A16, SM80_8X16_ROW, C16X8),
            (concat!("SM80_16x8x32_S32", $ab, "S32_TN"), [16, 8, 32], "32:1", A32, B32, C16X8),
            (concat!("SM80_16x8x32_S32", $ab, "S32_TN_SATURATE"), [16, 8, 32], "32:1", A32, B32, C16X8),
        )*]};
    }
    int8!("S8S8", "S8U8", "U8S8", "U8U8")
};

/// SM80's 4-bit integer atoms (`S32 += S4/U4 * S4/U4`, each also `_SATURATE`), from
/// `mma_traits_sm80.hpp`.
const INT4: [AtomRow; 24] = {
    const C8X8: &str = "((4,8),2):((16,1),8)";
    const C16X8: &str = "((4,8),(2,2)):((32,1),(16,8))";
    const AB8X32: &str = "((4,8),(8)):((64,1),(8))";
    const A16X32: &str = "((4,8),(8,2)):((128,1),(16,8))";
    const B8X32: &str = "((4,8),(8)):((32,1),(8))";
    const A16X64: &str = "((4,8),(8,2,2)):((128,1),(16,8,512))";
    const B8X64: &str = "((4,8),(8,2)):((64,1),(8,256))";
    macro_rules! int4 {
        ($($ab:literal),*) => {[$(
            (concat!("SM80_8x8x32_S32", $ab, "S32_TN"), [8, 8, 32], "32:1", AB8X32, AB8X32, C8X8),
            (concat!("SM80_8x8x32_S32", $ab, "S32_TN_SATURATE"), [8, 8, 32], "32:1", AB8X32, AB8X32, C8X8),
            (concat!("SM80_16x8x32_S32", $ab, "S32_TN"), [16, 8, 32], "32:1", A16X32, B8X32, C16X8),
            (concat!("SM80_16x8x32_S32", $ab, "S32_TN_SATURATE"), [16, 8, 32], "32:1", A16X32, B8X32, C16X8),
            (concat!("SM80_16x8x64_S32", $ab, "S32_TN"), [16, 8, 64], "32:1", A16X64, B8X64, C16X8),
            (concat!("SM80_16x8x64_S32", $ab, "S32_TN_SATURATE"), [16, 8, 64], "32:1", A16X64, B8X64, C16X8),
        )*]};
    }
    int4!("S4S4", "S4U4", "U4S4", "U4U4")
};

/// SM80's 1-bit atoms (`S32 += popc(A ^ B)` and `popc(A & B)`), from `mma_traits_sm80.hpp`.
/// The 16x8x128 A layout is the one the instruction has, `((4,8),(32,2)):((512,1),(16,8))` (the
/// 16x8x256 atom's first K half): CuTe 4.2 writes its value stride `((16,8))`, not congruent
/// with the shape `(32,2)`, and C++ cannot build a TiledMMA of it (`docs/deviations.md`).
const BINARY: [AtomRow; 6] = {
    const C8X8: &str = "((4,8),2):((16,1),8)";
    const C16X8: &str = "((4,8),(2,2)):((32,1),(16,8))";
    const AB8X128: &str = "((4,8),32):((256,1),8)";
    const A16X128: &str = "((4,8),(32,2)):((512,1),(16,8))";
    const A16X256: &str = "((4,8),(32,2,2)):((512,1),(16,8,2048))";
    const B8X256: &str = "((4,8),(32,2)):((256,1),(8,1024))";
    macro_rules! binary {
        ($($op:literal),*) => {[$(
            (concat!("SM80_8x8x128_S32U1U1S32_TN_", $op), [8, 8, 128], "32:1", AB8X128, AB8X128, C8X8),
            (concat!("SM80_16x8x128_S32U1U1S32_TN_", $op), [16, 8, 128], "32:1", A16X128, AB8X128, C16X8),
            (concat!("SM80_16x8x256_S32U1U1S32_TN_", $op), [16, 8, 256], "32:1", A16X256, B8X256, C16X8),
        )*]};
    }
    binary!("XORPOPC", "ANDPOPC")
};

/// Every atom with a fixed layout.
fn fixed_atoms() -> impl Iterator<Item = &'static AtomRow> {
    ATOMS.iter().chain(&INT8).chain(&INT4).chain(&BINARY)
}

impl MmaAtom {
    /// The atom CuTe names `name`: the table above, and the SM90 warpgroup MMAs
    /// `SM90_64xNx16_F32F16F16_SS` and `_RS`, and their bf16 twins `SM90_64xNx16_F32BF16BF16_SS`
    /// and `_RS` (K-major A and B), and the 8-bit float ones `SM90_64xNx32_F32E4M3E4M3_SS_TN`
    /// (`E4M3` or `E5M2` each of A and B, `_SS_TN` or `_RS_TN`), for N a multiple of 8 up to
    /// 256.
    ///
    /// # Errors
    /// `InvalidArgument` for a name not in the set.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::mma::MmaAtom;
    /// let a = MmaAtom::named("SM80_16x8x16_F32F16F16F32_TN")?;
    /// assert_eq!(a.layout_a_tv.to_string(), "((4,8),(2,2,2)):((32,1),(16,8,128))");
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn named(name: &str) -> Result<MmaAtom> {
        if let Some(&(_, shape, thr, a, b, c)) = fixed_atoms().find(|t| t.0 == name) {
            return MmaAtom::of(name, shape, thr, a, b, c);
        }
        if let Some(atom) = gmma(name) {
            return atom;
        }
        Err(Error::InvalidArgument {
            op: "mma atom",
            reason: alloc::format!("unknown atom {name}; known: {}", MmaAtom::names().join(", ")),
        })
    }

    /// The names [`MmaAtom::named`] knows (the SM90 ones for N = 8, 64, 128, 256).
    pub fn names() -> Vec<String> {
        let mut v: Vec<String> = fixed_atoms().map(|t| String::from(t.0)).collect();
        for n in [8, 64, 128, 256] {
            for t in ["F16F16", "BF16BF16"] {
                v.push(alloc::format!("SM90_64x{n}x16_F32{t}_SS"));
                v.push(alloc::format!("SM90_64x{n}x16_F32{t}_RS"));
            }
            for t in ["E4M3E4M3", "E4M3E5M2", "E5M2E4M3", "E5M2E5M2"] {
                v.push(alloc::format!("SM90_64x{n}x32_F32{t}_SS_TN"));
                v.push(alloc::format!("SM90_64x{n}x32_F32{t}_RS_TN"));
            }
        }
        v
    }

    fn of(name: &str, shape_mnk: [i64; 3], thr: &str, a: &str, b: &str, c: &str) -> Result<MmaAtom> {
        let st = |l: Layout| l.to_static();
        Ok(MmaAtom {
            name: String::from(name),
            shape_mnk,
            thr_id: st(thr.parse()?),
            layout_a_tv: st(a.parse()?),
            layout_b_tv: st(b.parse()?),
            layout_c_tv: st(c.parse()?),
        })
    }
}

/// `SM90_64xNx16_F32F16F16_SS` / `_RS` (and `F32BF16BF16`): a warpgroup (128 threads) MMA; A and B read from shared
/// memory by every thread (`SS`, stride-0 thread modes) or A from registers (`RS`, laid out as C).
/// The 8-bit float family `SM90_64xNx32_F32{A}{B}_SS_TN` / `_RS_TN` (A and B each `E4M3` or
/// `E5M2`): K = 32, K-major only; its `RS` A layout holds four elements a register.
fn gmma(name: &str) -> Option<Result<MmaAtom>> {
    let rest = name.strip_prefix("SM90_64x")?;
    // f16 and bf16 operands: the same layouts; the 8-bit floats: K = 32, `_TN` only.
    let (n, kind, k) =
        if let Some((n, kind)) = rest.split_once("x16_F32F16F16_").or_else(|| rest.split_once("x16_F32BF16BF16_")) {
            (n, kind, 16)
        } else {
            let (n, tail) = rest.split_once("x32_F32")?;
            let (types, kind) = tail.split_at_checked(8)?;
            if !matches!(types, "E4M3E4M3" | "E4M3E5M2" | "E5M2E4M3" | "E5M2E5M2") {
                return None;
            }
            (n, kind.strip_prefix('_')?.strip_suffix("_TN")?, 32)
        };
    let n: i64 = n.parse().ok()?;
    if n <= 0 || n > 256 || n % 8 != 0 || !matches!(kind, "SS" | "RS") {
        return None;
    }
    let c = alloc::format!("((4,8,4),(2,2,{})):((128,1,16),(64,8,512))", n / 8);
    let a = match (kind, k) {
        ("SS", _) => alloc::format!("(128,(64,{k})):(0,(1,64))"),
        (_, 16) => String::from("((4,8,4),(2,2,2)):((128,1,16),(64,8,512))"),
        _ => String::from("((4,8,4),(4,2,2)):((256,1,16),(64,8,1024))"),
    };
    let b = alloc::format!("(128,({n},{k})):(0,(1,{n}))");
    Some(MmaAtom::of(name, [64, n, k], "128:1", &a, &b, &c))
}

/// CuTe's `TiledMMA`: an atom tiled over a layout of atoms `(M,N,K)` (`thr_layout_vmnk =
/// tiled_product(ThrID, atom_layout)`) with a permutation of each of M, N and K (`_` for none).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TiledMma {
    atom: MmaAtom,
    thr_layout_vmnk: Layout,
    permutation_mnk: [Tiler; 3],
}

impl TiledMma {
    /// `make_tiled_mma(atom, atom_layout, permutations)`: `atom_layout` appended to rank 3 with
    /// `1:0`, `permutations` to three with `_` (C++).
    ///
    /// # Errors
    /// `RankMismatch` for more than three modes or permutations; those of `tiled_product`.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::mma::{MmaAtom, TiledMma};
    /// // 2x2 atoms of SM80 16x8x16: 128 threads over a 32x16x16 tile (CuTe C++ 4.2)
    /// let t = TiledMma::new(MmaAtom::named("SM80_16x8x16_F32F16F16F32_TN")?, &"(2,2,1):(1,2,0)".parse()?, &[])?;
    /// assert_eq!(t.thr_layout_vmnk().to_string(), "(32,2,2,1):(1,32,64,0)");
    /// assert_eq!((0..3).map(|i| t.tile_size_mnk(i).unwrap()).collect::<Vec<_>>(), [32, 16, 16]);
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn new(atom: MmaAtom, atom_layout: &Layout, permutations: &[Tiler]) -> Result<TiledMma> {
        if atom_layout.rank() > 3 || permutations.len() > 3 {
            return Err(Error::RankMismatch {
                op: "make_tiled_mma",
                expected: "at most 3 modes (M,N,K) and 3 permutations".into(),
                found: atom_layout.rank().max(permutations.len()),
            });
        }
        let mut modes = atom_layout.modes();
        modes.resize(3, Layout::leaf(Int::st(1), Int::st(0)));
        let mnk = Layout::from_modes(modes);
        let thr_layout_vmnk = tiled_product(&atom.thr_id, &Tiler::Layout(mnk))?;
        let perm = |i: usize| permutations.get(i).cloned().unwrap_or(Tiler::Under);
        Ok(TiledMma { atom, thr_layout_vmnk, permutation_mnk: [perm(0), perm(1), perm(2)] })
    }

    /// The atom.
    pub fn atom(&self) -> &MmaAtom {
        &self.atom
    }

    /// `(ThrV, ThrM, ThrN, ThrK) -> thread index`.
    pub fn thr_layout_vmnk(&self) -> &Layout {
        &self.thr_layout_vmnk
    }

    /// `PermutationMNK`: the permutation of M, N and K as given (`_` for none).
    pub fn permutation_mnk(&self) -> &[Tiler; 3] {
        &self.permutation_mnk
    }

    /// The number of threads.
    ///
    /// # Errors
    /// `Overflow`.
    pub fn size(&self) -> Result<i64> {
        Ok(self.thr_layout_vmnk.size()?.value())
    }

    /// `permutation_mnk<i>`: the permutation, or for `_` the extent `atom_shape[i] *
    /// size<i+1>(thr_layout_vmnk)`.
    fn permutation(&self, i: usize) -> Result<Tiler> {
        Ok(match &self.permutation_mnk[i] {
            Tiler::Under => {
                let threads = self.thr_layout_vmnk.get(i + 1)?.size()?;
                Tiler::Int(Int::st(self.atom.shape_mnk[i]).checked_mul(threads)?)
            }
            p => p.clone(),
        })
    }

    /// `tile_size_mnk<i>`: the extent of the tile in M, N or K.
    ///
    /// # Errors
    /// `IndexOutOfRange` for `i > 2`; `Overflow`.
    pub fn tile_size_mnk(&self, i: usize) -> Result<i64> {
        if i > 2 {
            return Err(Error::IndexOutOfRange { op: "tile_size_mnk", index: i as i64, rank: 3 });
        }
        Ok(match self.permutation(i)? {
            Tiler::Int(n) => n.value(),
            Tiler::Layout(l) => l.size()?.value(),
            t => tiler_size(&t)?,
        })
    }

    /// `thrfrg_C`: an `(M,N,...)` layout as `((ThrV,(ThrM,ThrN)),(FrgV,(RestM,RestN,...)))`.
    ///
    /// # Errors
    /// Those of the divides and compositions.
    pub fn thrfrg_c(&self, c: &Layout) -> Result<Layout> {
        self.thrfrg(c, [0, 1], &self.atom.layout_c_tv)
    }

    /// `thrfrg_A`: an `(M,K,...)` layout as `((ThrV,(ThrM,ThrK)),(FrgV,(RestM,RestK,...)))`.
    ///
    /// # Errors
    /// As [`TiledMma::thrfrg_c`].
    pub fn thrfrg_a(&self, a: &Layout) -> Result<Layout> {
        self.thrfrg(a, [0, 2], &self.atom.layout_a_tv)
    }

    /// `thrfrg_B`: an `(N,K,...)` layout as `((ThrV,(ThrN,ThrK)),(FrgV,(RestN,RestK,...)))`.
    ///
    /// # Errors
    /// As [`TiledMma::thrfrg_c`].
    pub fn thrfrg_b(&self, b: &Layout) -> Result<Layout> {
        self.thrfrg(b, [1, 2], &self.atom.layout_b_tv)
    }

    /// The permuted layout tiled by the atom (modes `dims` of MNK), its atom mode seen through
    /// the atom's thread-value layout, and the thread mode tiled by the atom layout.
    fn thrfrg(&self, l: &Layout, [x, y]: [usize; 2], tv: &Layout) -> Result<Layout> {
        let permuted = logical_divide(l, &Tiler::ByMode(vec![self.permutation(x)?, self.permutation(y)?]))?;
        let atom =
            |i: usize| Ok::<_, Error>(Tiler::Layout(make_layout_left(&Tuple::Leaf(Int::st(self.atom.shape_mnk[i])))?));
        let tiled = zipped_divide(&permuted, &Tiler::ByMode(vec![atom(x)?, atom(y)?]))?;
        let tv_tiled = composition(&tiled, &Tiler::ByMode(vec![Tiler::Layout(tv.clone()), Tiler::Under]))?;
        let threads = |i: usize| -> Result<Tiler> {
            Ok(Tiler::Layout(make_layout_left(&Tuple::Leaf(self.thr_layout_vmnk.get(i + 1)?.size()?))?))
        };
        zipped_divide(&tv_tiled, &Tiler::ByMode(vec![Tiler::Under, Tiler::ByMode(vec![threads(x)?, threads(y)?])]))
    }

    /// `thr_idx -> (ThrV,ThrM,ThrN,ThrK)`: `(size, 1):(1, 0)` composed with the right inverse of
    /// `(thr_layout_vmnk, its complement)`.
    fn thridx_to_thrid(&self) -> Result<Layout> {
        let v = &self.thr_layout_vmnk;
        let n = v.size()?;
        let rest = crate::complement::complement(v, &Tuple::Leaf(v.cosize()?))?;
        let inverse = right_inverse(&make_layout(&[v.clone(), rest]))?;
        let first = Layout::new(
            Tuple::Node(vec![Tuple::Leaf(n), Tuple::Leaf(Int::st(1))]),
            Tuple::Node(vec![Tuple::Leaf(Int::st(1)), Tuple::Leaf(Int::st(0))]),
        )?;
        composition(&first, &Tiler::Layout(inverse))
    }

    /// `get_layoutC_TV`: `(thread, value) -> (m, n)` index of the column-major `(M,N)` tile.
    ///
    /// # Errors
    /// Those of the algebra.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::{mma::{MmaAtom, TiledMma}, Style, Notation};
    /// let t = TiledMma::new(MmaAtom::named("SM80_16x8x16_F32F16F16F32_TN")?, &"(2,2,1):(1,2,0)".parse()?, &[])?;
    /// // CuTe C++ 4.2's print of get_layoutC_TV()
    /// assert_eq!(t.layout_c_tv()?.to_styled(Style::Cpp), "((_4,_8,_2,_2),((_2,_2),(_1,_1))):((_64,_1,_16,_256),((_32,_8),(_0,_0)))");
    /// assert_eq!(t.layout_a_tv()?.to_styled(Style::Cpp), "((_4,_8,_2,_2),((_2,_2,_2),(_1,_1))):((_64,_1,_16,_0),((_32,_8,_256),(_0,_0)))");
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn layout_c_tv(&self) -> Result<Layout> {
        let reference = self.reference(0, 1)?;
        let thr = self.thridx_to_thrid()?;
        composition(&self.thrfrg_c(&reference)?, &Tiler::ByMode(vec![Tiler::Layout(thr), Tiler::Under]))
    }

    /// `get_layoutA_TV`: `(thread, value) -> (m, k)` index of the column-major `(M,K)` tile;
    /// the threads that tile N read the same A (stride 0).
    ///
    /// # Errors
    /// Those of the algebra.
    pub fn layout_a_tv(&self) -> Result<Layout> {
        self.operand_tv(0, 2, [1, 0], Self::thrfrg_a)
    }

    /// `get_layoutB_TV`: `(thread, value) -> (n, k)` index of the column-major `(N,K)` tile;
    /// the threads that tile M read the same B (stride 0).
    ///
    /// # Errors
    /// Those of the algebra.
    pub fn layout_b_tv(&self) -> Result<Layout> {
        self.operand_tv(1, 2, [0, 1], Self::thrfrg_b)
    }

    /// The `(M,K)` or `(N,K)` thread-value layout: the thread mode `(ThrM,ThrK)` or `(ThrN,ThrK)`
    /// widened to `(ThrM,ThrN,ThrK)` by a stride-0 mode, then indexed by thread.
    fn operand_tv(
        &self,
        x: usize,
        y: usize,
        strides: [i64; 2],
        thrfrg: fn(&Self, &Layout) -> Result<Layout>,
    ) -> Result<Layout> {
        let reference = self.reference(x, y)?;
        let v = &self.thr_layout_vmnk;
        let widen = Layout::new(
            Tuple::Node(vec![Tuple::Leaf(v.get(1)?.size()?), Tuple::Leaf(v.get(2)?.size()?)]),
            Tuple::Node(vec![Tuple::Leaf(Int::st(strides[0])), Tuple::Leaf(Int::st(strides[1]))]),
        )?;
        let tile = Tiler::ByMode(vec![Tiler::Under, Tiler::ByMode(vec![Tiler::Layout(widen), Tiler::Under])]);
        let widened = composition(&thrfrg(self, &reference)?, &Tiler::ByMode(vec![tile, Tiler::Under]))?;
        composition(&widened, &Tiler::ByMode(vec![Tiler::Layout(self.thridx_to_thrid()?), Tiler::Under]))
    }

    /// `make_shape(tile_size<x>, tile_size<y>)`: the `(M,N)`, `(M,K)` or `(N,K)` tile.
    ///
    /// # Errors
    /// As [`TiledMma::tile_size_mnk`].
    pub fn tile_shape(&self, x: usize, y: usize) -> Result<crate::IntTuple> {
        Ok(Tuple::Node(vec![
            Tuple::Leaf(Int::st(self.tile_size_mnk(x)?)),
            Tuple::Leaf(Int::st(self.tile_size_mnk(y)?)),
        ]))
    }

    /// The compact `(tile_size<x>, tile_size<y>)` layout.
    fn reference(&self, x: usize, y: usize) -> Result<Layout> {
        make_layout_left(&self.tile_shape(x, y)?)
    }

    /// `get_slice(thr).partition_C(c)`: thread `thr`'s part of an `(M,N,...)` layout,
    /// `(FrgV,RestM,RestN,...)`, and its offset.
    ///
    /// # Errors
    /// As [`crate::layout::Layout::flat_coord`]; those of the algebra.
    ///
    /// # Examples
    /// ```
    /// use cute_dyn::{mma::{MmaAtom, TiledMma}, parse_styled, Int, Layout, Style, Notation};
    /// let t = TiledMma::new(MmaAtom::named("SM80_16x8x16_F32F16F16F32_TN")?, &"(2,2,1):(1,2,0)".parse()?, &[])?;
    /// // A 64x32 column-major C with run-time extents, thread 120 (CuTe C++ 4.2's answer)
    /// let c: Layout = parse_styled("(64,32):(_1,64)", Style::Cpp)?;
    /// let (part, off) = t.partition_c(&c, Int::dy(120))?;
    /// assert_eq!((part.to_styled(Style::Cpp), off.value()), ("((_2,_2),2,2):((64,_8),_32,1024)".to_string(), 534));
    /// # Ok::<(), cute_dyn::Error>(())
    /// ```
    pub fn partition_c(&self, c: &Layout, thr: Int) -> Result<(Layout, Int)> {
        self.partition(&self.thrfrg_c(c)?, thr, [1, 2])
    }

    /// `get_slice(thr).partition_A(a)`: thread `thr`'s part of an `(M,K,...)` layout.
    ///
    /// # Errors
    /// As [`TiledMma::partition_c`].
    pub fn partition_a(&self, a: &Layout, thr: Int) -> Result<(Layout, Int)> {
        self.partition(&self.thrfrg_a(a)?, thr, [1, 3])
    }

    /// `get_slice(thr).partition_B(b)`: thread `thr`'s part of an `(N,K,...)` layout.
    ///
    /// # Errors
    /// As [`TiledMma::partition_c`].
    pub fn partition_b(&self, b: &Layout, thr: Int) -> Result<(Layout, Int)> {
        self.partition(&self.thrfrg_b(b)?, thr, [2, 3])
    }

    /// `get_slice(thr).partition_fragment_C(c)`: the register fragment for thread `thr`'s part
    /// of `c`, `make_fragment_like` of [`TiledMma::partition_c`] (C++'s `make_fragment_C`).
    ///
    /// # Errors
    /// As [`TiledMma::partition_c`].
    pub fn partition_fragment_c(&self, c: &Layout, thr: Int) -> Result<Layout> {
        crate::product::make_fragment_like(&self.partition_c(c, thr)?.0)
    }

    /// `get_slice(thr).partition_fragment_A(a)`: the register fragment of thread `thr`'s A.
    ///
    /// # Errors
    /// As [`TiledMma::partition_a`]; `InvalidArgument` for an atom that reads A from shared
    /// memory (`_SS`: C++'s fragment is a matrix descriptor, not a layout).
    pub fn partition_fragment_a(&self, a: &Layout, thr: Int) -> Result<Layout> {
        self.registers("A", self.atom.name.ends_with("_SS"))?;
        crate::product::make_fragment_like(&self.partition_a(a, thr)?.0)
    }

    /// `get_slice(thr).partition_fragment_B(b)`: the register fragment of thread `thr`'s B.
    ///
    /// # Errors
    /// As [`TiledMma::partition_fragment_a`], for the SM90 atoms (B always from shared memory).
    pub fn partition_fragment_b(&self, b: &Layout, thr: Int) -> Result<Layout> {
        self.registers("B", self.atom.name.starts_with("SM90_"))?;
        crate::product::make_fragment_like(&self.partition_b(b, thr)?.0)
    }

    fn registers(&self, operand: &str, descriptor: bool) -> Result<()> {
        if descriptor {
            return Err(Error::InvalidArgument {
                op: "partition_fragment",
                reason: alloc::format!(
                    "{} reads {operand} from shared memory through a descriptor, not a register fragment",
                    self.atom.name
                ),
            });
        }
        Ok(())
    }

    /// The thread's slice `((v,(x,y)), (_, (_,...)))` of a `thrfrg` layout.
    fn partition(&self, frg: &Layout, thr: Int, [x, y]: [usize; 2]) -> Result<(Layout, Int)> {
        let vmnk = self.thr_layout_vmnk.flat_coord(thr)?.modes();
        let leaf = |t: &crate::IntTuple| t.map(&mut |x| Some(*x));
        let thread: Coord = Tuple::Node(vec![leaf(&vmnk[0]), Tuple::Node(vec![leaf(&vmnk[x]), leaf(&vmnk[y])])]);
        let rest = frg.get(1)?.get(1)?.rank();
        let values = Tuple::Node(vec![Tuple::Leaf(None), crate::int_tuple::repeat_under(rest)]);
        frg.slice_and_offset(&Tuple::Node(vec![thread, values]))
    }
}

/// The size a tiler spans (the product of its modes' sizes).
fn tiler_size(t: &Tiler) -> Result<i64> {
    match t {
        Tiler::Layout(l) => Ok(l.size()?.value()),
        Tiler::Int(n) => Ok(n.value()),
        Tiler::Under => Ok(1),
        Tiler::ByMode(v) => v.iter().try_fold(1i64, |acc, t| {
            acc.checked_mul(tiler_size(t)?).ok_or_else(|| Error::Overflow { op: "tile_size_mnk" })
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Bad input is an error, never a panic: unknown atoms, too many modes, a thread index
    /// past the threads, operands of size 0.
    #[test]
    fn bad_input_is_an_error() {
        for name in ["SM90_64x7x16_F32F16F16_SS", "SM90_64x264x16_F32F16F16_SS", "SM90_64x8x16_F32F16F16_XS", "X"] {
            assert!(MmaAtom::named(name).is_err(), "{name}");
        }
        let atom = MmaAtom::named("SM80_16x8x16_F32F16F16F32_TN").unwrap();
        assert!(TiledMma::new(atom.clone(), &"(2,2,1,1):(1,2,0,0)".parse().unwrap(), &[]).is_err());
        let t = TiledMma::new(atom, &"(2,2,1):(1,2,0)".parse().unwrap(), &[]).unwrap();
        let c: Layout = "(64,32):(1,64)".parse().unwrap();
        for thr in [-1, 128, 1 << 40, i64::MAX, i64::MIN] {
            let _ = t.partition_c(&c, Int::dy(thr));
        }
        let _ = t.partition_a(&"(0,0):(1,0)".parse().unwrap(), Int::dy(3));
        assert!(t.partition_fragment_b(&"(16,16):(1,16)".parse().unwrap(), Int::dy(0)).is_ok());
        // A picture of an empty tile is an error, not a division by zero.
        let (c, a, b) = (t.layout_c_tv().unwrap(), t.layout_a_tv().unwrap(), t.layout_b_tv().unwrap());
        assert!(crate::render::latex_mma(&c, &a, &b, [0, 16, 16], crate::Style::Cpp).is_err());
    }
}
