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

macro_rules! agree {
    ($v:ty, $bits:expr, $thr:tt, $val:tt, $($l:tt),+) => {{
        let copy = TiledCopy::<UniversalCopy<$v>, Layout!$thr, Layout!$val>::new();
        let (thr, val) = (<Layout!$thr>::default(), <Layout!$val>::default());
        let atom = dy::copy::CopyAtom::new(&format!("UniversalCopy<uint{}_t>", $bits * <$v as cute::cute_static::typenum::Unsigned>::USIZE), $bits).unwrap();
        let d = dy::copy::TiledCopy::new(atom, &thr.to_dyn().unwrap(), &val.to_dyn().unwrap()).unwrap();
        assert_eq!(copy.layout_tv().to_styled(Style::Cpp).unwrap(), d.layout_tv().to_styled(Style::Cpp));
        assert_eq!(copy.tiler_mn().to_string(), dy::Tiler::from_shape(d.tiler_mn()).to_string());
        let pair = |(l, o): (dy::Layout, Int)| (l.to_styled(Style::Cpp), o.value() as usize);
        $({
            let l = layout!$l;
            let ld = l.to_dyn().unwrap();
            assert_eq!(cpp(&copy.tidfrg_s(l)), d.tidfrg_s(&ld).unwrap().to_styled(Style::Cpp), "tidfrg_s {}", ld);
            assert_eq!(cpp(&copy.tidfrg_d(l)), d.tidfrg_d(&ld).unwrap().to_styled(Style::Cpp), "tidfrg_d {}", ld);
            for t in 0..thr.size() {
                let (p, o) = copy.partition_s(l, t).unwrap();
                assert_eq!((cpp(&p), o), pair(d.partition_s(&ld, Int::dy(t as i64)).unwrap()), "partition_s {} {t}", ld);
                let (p, o) = copy.partition_d(l, t).unwrap();
                assert_eq!((cpp(&p), o), pair(d.partition_d(&ld, Int::dy(t as i64)).unwrap()), "partition_d {} {t}", ld);
            }
            assert!(copy.partition_s(l, thr.size()).is_err());
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
