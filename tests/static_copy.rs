//! cute-static's tiled copies (computed by the type checker) against cute-dyn's (checked
//! against CuTe C++ 4.2 in tests/mma.rs): `layout_tv`, `tiler_mn`, `tidfrg_s/d` and every
//! thread's `partition_s/d` of column- and row-major layouts are the same layouts (static flags
//! included) and offsets.

use cute::cute_dyn::{self as dy, Int, Style};
use cute::cute_static::copy::{TiledCopy, UniversalCopy};
use cute::cute_static::typenum::{U1, U2, U4, U8};
use cute::cute_static::{layout, Congruent, IntTuple, Layout};

fn cpp<S: Congruent<D>, D: IntTuple>(l: &Layout<S, D>) -> String {
    l.to_styled(Style::Cpp).unwrap()
}

/// The tiled copy `TiledCopy<UniversalCopy<$v>, $thr, $val>` and cute-dyn's, for `$bits`-bit
/// elements, and the thread layout.
macro_rules! copies {
    ($v:ty, $bits:expr, $thr:tt, $val:tt) => {{
        let copy = TiledCopy::<UniversalCopy<$v>, Layout!$thr, Layout!$val>::new();
        let (thr, val) = (<Layout!$thr>::default(), <Layout!$val>::default());
        let atom = dy::copy::CopyAtom::new(&format!("UniversalCopy<uint{}_t>", $bits * <$v as cute::cute_static::typenum::Unsigned>::USIZE), $bits).unwrap();
        let d = dy::copy::TiledCopy::new(atom, &thr.to_dyn().unwrap(), &val.to_dyn().unwrap()).unwrap();
        (copy, d, thr)
    }};
}

/// Every thread's `partition_s/d` of `$l` equals cute-dyn's; a thread past the copy's is an error.
macro_rules! partitions_agree {
    ($copy:expr, $d:expr, $thr:expr, $l:expr) => {{
        let (l, ld) = ($l, $l.to_dyn().unwrap());
        let pair = |(l, o): (dy::Layout, Int)| (l.to_styled(Style::Cpp), o.value() as usize);
        for t in 0..$thr.size() {
            let (p, o) = $copy.partition_s(l, t).unwrap();
            assert_eq!((cpp(&p), o), pair($d.partition_s(&ld, Int::dy(t as i64)).unwrap()), "partition_s {} {t}", ld);
            let (p, o) = $copy.partition_d(l, t).unwrap();
            assert_eq!((cpp(&p), o), pair($d.partition_d(&ld, Int::dy(t as i64)).unwrap()), "partition_d {} {t}", ld);
        }
        assert!($copy.partition_s(l, $thr.size()).is_err());
    }};
}

macro_rules! agree {
    ($v:ty, $bits:expr, $thr:tt, $val:tt, $($l:tt),+) => {{
        let (copy, d, thr) = copies!($v, $bits, $thr, $val);
        assert_eq!(copy.layout_tv().to_styled(Style::Cpp).unwrap(), d.layout_tv().to_styled(Style::Cpp));
        assert_eq!(copy.tiler_mn().to_string(), dy::Tiler::from_shape(d.tiler_mn()).to_string());
        $({
            let l = layout!$l;
            let ld = l.to_dyn().unwrap();
            assert_eq!(cpp(&copy.tidfrg_s(l)), d.tidfrg_s(&ld).unwrap().to_styled(Style::Cpp), "tidfrg_s {}", ld);
            assert_eq!(cpp(&copy.tidfrg_d(l)), d.tidfrg_d(&ld).unwrap().to_styled(Style::Cpp), "tidfrg_d {}", ld);
            partitions_agree!(copy, d, thr, l);
        })+
    }};
}

#[test]
fn universal_copies_agree_with_cute_dyn() {
    // 128-bit copies of 16-bit elements, 32x4 threads row-major (the C++ driver's first case).
    agree!(U8, 16, [(32,4):(4,1)], [(1,8):(0,1)], ((64,64):(1,64)), ((64,64):(64,1)), ((32,32):(32,1)));
    // 128-bit copies of 16-bit elements down columns, 16x8 threads column-major.
    agree!(U8, 16, [(16,8):(1,16)], [(8,1):(1,0)], ((256,16):(1,256)), ((128,8):(8,1)));
    // 32-bit copies of floats, one value per thread.
    agree!(U1, 32, [(32,8):(8,1)], [(1,1):(0,0)], ((64,16):(1,64)), ((32,8):(8,1)));
    // 64-bit copies of 16-bit elements, 2x2 values per thread.
    agree!(U4, 16, [(8,4):(1,8)], [(2,2):(1,2)], ((32,16):(1,32)), ((16,8):(8,1)));
    // 32-bit copies of 16-bit elements (2 values), a rank-3 layout.
    agree!(U2, 16, [(4,8):(8,1)], [(2,1):(1,0)], ((16,16,2):(1,16,256)));
}

/// The ldmatrix and stmatrix atoms' layouts (16-bit elements) are cute-dyn's (upcast from CuTe's bit
/// layouts, checked against C++ 4.2), and `make_tiled_copy_A/B/C` of a static tiled MMA equal
/// cute-dyn's `for_mma_a/b/c`: the thread-value layout, the tile, and every thread's source and
/// destination partitions, and `retile` of the MMA's fragment.
#[test]
fn tiled_copies_for_mmas_agree_with_cute_dyn() {
    use cute::cute_static::copy::{
        CopyAtom, SM75_U16x2_LDSM_T, SM75_U16x4_LDSM_T, SM75_U16x8_LDSM_T, SM75_U32x1_LDSM_N, SM75_U32x2_LDSM_N,
        SM75_U32x4_LDSM_N, SM90_U16x2_STSM_T, SM90_U16x4_STSM_T, SM90_U16x8_STSM_T, SM90_U32x1_STSM_N,
        SM90_U32x2_STSM_N, SM90_U32x4_STSM_N,
    };
    use cute::cute_static::mma::{
        MmaAtom, SM80_16x8x16_F32F16F16F32_TN, SM80_16x8x8_F32F16F16F32_TN, TiledMma, UniversalFMA,
    };
    macro_rules! atom {
        ($($a:ty),*) => {$({
            let d = dy::copy::CopyAtom::new(<$a as CopyAtom>::NAME, 16).unwrap();
            assert_eq!(cpp(&<<$a as CopyAtom>::Src>::default()), d.layout_src.to_styled(Style::Cpp));
            assert_eq!(cpp(&<<$a as CopyAtom>::Dst>::default()), d.layout_dst.to_styled(Style::Cpp));
            assert_eq!(cpp(&<<$a as CopyAtom>::Ref>::default()), d.layout_ref.to_styled(Style::Cpp));
        })*};
    }
    atom!(
        SM75_U32x1_LDSM_N,
        SM75_U32x2_LDSM_N,
        SM75_U32x4_LDSM_N,
        SM75_U16x2_LDSM_T,
        SM75_U16x4_LDSM_T,
        SM75_U16x8_LDSM_T,
        SM90_U32x1_STSM_N,
        SM90_U32x2_STSM_N,
        SM90_U32x4_STSM_N,
        SM90_U16x2_STSM_T,
        SM90_U16x4_STSM_T,
        SM90_U16x8_STSM_T
    );

    macro_rules! for_mma {
        ($copy:ty, $bits:expr, $name:expr, $mma:ty, $al:tt, $make:ident, $for:ident, $fragment:ident, $($l:tt),+) => {{
            let mma = TiledMma::<$mma, Layout!$al>::new();
            let dm = dy::mma::TiledMma::new(dy::mma::MmaAtom::named(<$mma as MmaAtom>::NAME).unwrap(), &<Layout!$al>::default().to_dyn().unwrap(), &[]).unwrap();
            let copy = mma.$make::<$copy>();
            let d = dy::copy::TiledCopy::$for(dy::copy::CopyAtom::new($name, $bits).unwrap(), &dm).unwrap();
            assert_eq!(copy.layout_tv().to_styled(Style::Cpp).unwrap(), d.layout_tv().to_styled(Style::Cpp), "{}", $name);
            assert_eq!(copy.tiler_mn().to_string(), dy::Tiler::from_shape(d.tiler_mn()).to_string());
            let pair = |(l, o): (dy::Layout, Int)| (l.to_styled(Style::Cpp), o.value() as usize);
            $({
                let l = layout!$l;
                let ld = l.to_dyn().unwrap();
                // retile of the MMA's fragment of this operand (thread 0's; every thread's has the
                // same layout).
                let frg = mma.$fragment(l, 0).unwrap();
                let dfrg = dm.$fragment(&ld, Int::dy(0)).unwrap();
                assert_eq!(cpp(&copy.retile(frg)), d.retile(&dfrg).unwrap().to_styled(Style::Cpp), "{} retile", $name);
                for t in 0..dm.size().unwrap() as usize {
                    let (p, o) = copy.partition_s(l, t).unwrap();
                    assert_eq!((cpp(&p), o), pair(d.partition_s(&ld, Int::dy(t as i64)).unwrap()), "{} partition_s {} {t}", $name, ld);
                    let (p, o) = copy.partition_d(l, t).unwrap();
                    assert_eq!((cpp(&p), o), pair(d.partition_d(&ld, Int::dy(t as i64)).unwrap()), "{} partition_d {} {t}", $name, ld);
                }
            })+
        }};
    }
    for_mma!(SM75_U32x1_LDSM_N, 16, "SM75_U32x1_LDSM_N", SM80_16x8x8_F32F16F16F32_TN, [(2,4,1):(4,1,0)], make_tiled_copy_a, for_mma_a, partition_fragment_a, ((64,32):(32,1)));
    for_mma!(SM75_U32x2_LDSM_N, 16, "SM75_U32x2_LDSM_N", SM80_16x8x16_F32F16F16F32_TN, [(2,2,1):(1,2,0)], make_tiled_copy_b, for_mma_b, partition_fragment_b, ((32,32):(32,1)));
    for_mma!(SM75_U32x4_LDSM_N, 16, "SM75_U32x4_LDSM_N", SM80_16x8x16_F32F16F16F32_TN, [(2,2,1):(1,2,0)], make_tiled_copy_a, for_mma_a, partition_fragment_a, ((32,16):(16,1)), ((64,32):(1,64)));
    // (ldmatrix.x4.trans moves 8 values a thread: more than this B fragment has, a compile error.)
    for_mma!(SM75_U16x4_LDSM_T, 16, "SM75_U16x4_LDSM_T", SM80_16x8x16_F32F16F16F32_TN, [(2,2,1):(1,2,0)], make_tiled_copy_b, for_mma_b, partition_fragment_b, ((16,16):(1,16)));
    for_mma!(UniversalCopy<U2>, 32, "UniversalCopy<uint64_t>", SM80_16x8x16_F32F16F16F32_TN, [(2,2,1):(1,2,0)], make_tiled_copy_c, for_mma_c, partition_fragment_c, ((32,16):(1,32)));
    for_mma!(UniversalCopy<U1>, 32, "UniversalCopy<uint32_t>", UniversalFMA, [(16,16,1):(1,16,0)], make_tiled_copy_c, for_mma_c, partition_fragment_c, ((32,32):(1,32)));
}

/// A CTA's tile of a global tensor (static extents, run-time leading dimension) partitioned by
/// a tiled copy, every thread: the same layouts (static flags included) and offsets as cute-dyn's
/// partition of the same tile; the strides the leading dimension reaches are run-time.
#[test]
fn partitions_of_run_time_stride_tiles_agree_with_cute_dyn() {
    macro_rules! agree_mixed {
        ($ld:ident; $v:ty, $bits:expr, $thr:tt, $val:tt, $($l:tt),+) => {{
            let (copy, d, thr) = copies!($v, $bits, $thr, $val);
            for $ld in [64usize, 100, 4096] {
                $(partitions_agree!(copy, d, thr, layout!$l);)+
            }
        }};
    }
    agree_mixed!(ld; U8, 16, [(32,4):(4,1)], [(1,8):(0,1)], ((64,64):(1,{ld})), ((64,64):({ld},1)), ((32,32):({ld},1)));
    agree_mixed!(ld; U8, 16, [(16,8):(1,16)], [(8,1):(1,0)], ((256,16):(1,{ld})));
    agree_mixed!(ld; U4, 16, [(8,4):(1,8)], [(2,2):(1,2)], ((32,16):(1,{ld})), ((16,8):({ld},1)));
    agree_mixed!(ld; U2, 16, [(4,8):(8,1)], [(2,1):(1,0)], ((16,16,2):(1,{ld},{ld})));
}
