//! cute-static's tiled MMAs (computed by the type checker) against cute-dyn's (checked against
//! CuTe C++ 4.2 in tests/mma.rs): for every atom cute-static defines, over several atom
//! layouts, `thr_layout_vmnk`, `layout_a/b/c_tv`, `thrfrg_a/b/c` and every thread's `partition_a/b/c` and
//! `partition_fragment_a/b/c` of column- and row-major operands are the same layouts (static
//! flags included) and offsets.

use cute::cute_dyn::{self as dy, Int, Style};
use cute::cute_static::mma::{
    MmaAtom, NoPermutation, SM80_16x8x16_F32BF16BF16F32_TN, SM80_16x8x16_F32F16F16F32_TN,
    SM80_16x8x256_S32U1U1S32_TN_XORPOPC, SM80_16x8x32_S32S8S8S32_TN, SM80_16x8x64_S32S4S4S32_TN,
    SM80_16x8x8_F32F16F16F32_TN, SM80_16x8x8_F32TF32TF32F32_TN, SM80_8x8x32_S32S4S4S32_TN, SM80_8x8x4_F64F64F64F64_TN,
    TiledMma, UniversalFMA,
};
use cute::cute_static::{layout, Congruent, IntTuple, Layout, Tiler};

fn cpp<S: Congruent<D>, D: IntTuple>(l: &Layout<S, D>) -> String {
    l.to_styled(Style::Cpp).unwrap()
}

macro_rules! agree {
    ($atom:ty, $atom_layout:tt, $atom_layout_dyn:expr, c: $c:tt, a: $a:tt, b: $b:tt) => {
        agree!($atom, $atom_layout, $atom_layout_dyn, perm: NoPermutation, [], c: $c, a: $a, b: $b)
    };
    ($atom:ty, $atom_layout:tt, $atom_layout_dyn:expr, perm: $perm:ty, [$($p:expr),*], c: $c:tt, a: $a:tt, b: $b:tt) => {{
        let mma = TiledMma::<$atom, Layout!$atom_layout, $perm>::default();
        let perms: Vec<dy::Tiler> = vec![$($p.parse().unwrap()),*];
        let d = dy::mma::TiledMma::new(dy::mma::MmaAtom::named(<$atom as MmaAtom>::NAME).unwrap(), &$atom_layout_dyn.parse().unwrap(), &perms).unwrap();
        let vmnk = mma.thr_layout_vmnk();
        assert_eq!(cpp(&vmnk), d.thr_layout_vmnk().to_styled(Style::Cpp));
        assert_eq!(cpp(&mma.layout_c_tv()), d.layout_c_tv().unwrap().to_styled(Style::Cpp), "layout_c_tv");
        assert_eq!(cpp(&mma.layout_a_tv()), d.layout_a_tv().unwrap().to_styled(Style::Cpp), "layout_a_tv");
        assert_eq!(cpp(&mma.layout_b_tv()), d.layout_b_tv().unwrap().to_styled(Style::Cpp), "layout_b_tv");
        let (c, a, b) = (layout!$c, layout!$a, layout!$b);
        let (cd, ad, bd) = (c.to_dyn().unwrap(), a.to_dyn().unwrap(), b.to_dyn().unwrap());
        assert_eq!(cpp(&mma.thrfrg_c(c)), d.thrfrg_c(&cd).unwrap().to_styled(Style::Cpp));
        assert_eq!(cpp(&mma.thrfrg_a(a)), d.thrfrg_a(&ad).unwrap().to_styled(Style::Cpp));
        assert_eq!(cpp(&mma.thrfrg_b(b)), d.thrfrg_b(&bd).unwrap().to_styled(Style::Cpp));
        partitions_agree!(mma, d, vmnk, c, a, b);
    }};
}

/// Every thread's `partition_a/b/c` and `partition_fragment_a/b/c` of `$c`, `$a`, `$b` equal
/// cute-dyn's; a thread past the tiled MMA's is an error, as cute-dyn's.
macro_rules! partitions_agree {
    ($mma:expr, $d:expr, $vmnk:expr, $c:expr, $a:expr, $b:expr) => {{
        let (mma, d, c, a, b) = (&$mma, &$d, $c, $a, $b);
        let (cd, ad, bd) = (c.to_dyn().unwrap(), a.to_dyn().unwrap(), b.to_dyn().unwrap());
        let pair = |(l, o): (dy::Layout, Int)| (l.to_styled(Style::Cpp), o.value() as usize);
        for thr in 0..$vmnk.size() {
            let t = Int::dy(thr as i64);
            let (p, o) = mma.partition_c(c, thr).unwrap();
            assert_eq!((cpp(&p), o), pair(d.partition_c(&cd, t).unwrap()), "C {cd} thread {thr}");
            let (p, o) = mma.partition_a(a, thr).unwrap();
            assert_eq!((cpp(&p), o), pair(d.partition_a(&ad, t).unwrap()), "A {ad} thread {thr}");
            let (p, o) = mma.partition_b(b, thr).unwrap();
            assert_eq!((cpp(&p), o), pair(d.partition_b(&bd, t).unwrap()), "B {bd} thread {thr}");
            assert_eq!(
                cpp(&mma.partition_fragment_c(c, thr).unwrap()),
                d.partition_fragment_c(&cd, t).unwrap().to_styled(Style::Cpp)
            );
            assert_eq!(
                cpp(&mma.partition_fragment_a(a, thr).unwrap()),
                d.partition_fragment_a(&ad, t).unwrap().to_styled(Style::Cpp)
            );
            assert_eq!(
                cpp(&mma.partition_fragment_b(b, thr).unwrap()),
                d.partition_fragment_b(&bd, t).unwrap().to_styled(Style::Cpp)
            );
        }
        assert!(mma.partition_c(c, $vmnk.size()).is_err());
        assert!(d.partition_c(&cd, Int::dy($vmnk.size() as i64)).is_err());
    }};
}

#[test]
fn universal_fma() {
    // CuTe C++ 4.2's print of thrfrg_C and thrfrg_A (g++ over the 4.2 headers).
    let mma = TiledMma::<UniversalFMA, Layout![(8,16,1):(1,8,0)]>::new();
    assert_eq!(
        cpp(&mma.thrfrg_c(layout!((64,128):(1,64)))),
        "((_1,(_8,_16)),(_1,(_8,_8))):((_0,(_1,_64)),(_0,(_8,_1024)))"
    );
    assert_eq!(
        cpp(&mma.thrfrg_a(layout!((64,32):(32,1)))),
        "((_1,(_8,_1)),(_1,(_8,_32))):((_0,(_32,_0)),(_0,(_256,_1)))"
    );
    agree!(UniversalFMA, [(8,16,1):(1,8,0)], "(8,16,1):(1,8,0)",
        c: ((64,128):(1,64)), a: ((64,32):(32,1)), b: ((128,32):(1,128)));
    agree!(UniversalFMA, [(4,2,1):(2,1,0)], "(4,2,1):(2,1,0)",
        c: ((8,(2,4)):(8,(1,2))), a: ((16,4):(1,16)), b: ((4,4):(4,1)));
}

#[test]
fn sm80_f16() {
    agree!(SM80_16x8x16_F32F16F16F32_TN, [(2,2,1):(1,2,0)], "(2,2,1):(1,2,0)",
        c: ((64,32):(1,64)), a: ((64,32):(32,1)), b: ((32,64):(1,32)));
    agree!(SM80_16x8x16_F32BF16BF16F32_TN, [(2,1,1):(1,0,0)], "(2,1,1):(1,0,0)",
        c: ((32,16):(1,32)), a: ((32,16):(16,1)), b: ((16,16):(1,16)));
    agree!(SM80_16x8x8_F32F16F16F32_TN, [(1,2,1):(0,1,0)], "(1,2,1):(0,1,0)",
        c: ((32,32):(32,1)), a: ((32,16):(1,32)), b: ((32,16):(16,1)));
}

#[test]
fn sm80_tf32() {
    agree!(SM80_16x8x8_F32TF32TF32F32_TN, [(2,1,1):(1,0,0)], "(2,1,1):(1,0,0)",
        c: ((32,16):(1,32)), a: ((32,8):(8,1)), b: ((16,16):(1,16)));
}

/// SM80's 4-bit and 1-bit atoms (C++'s in tests/mma.rs).
#[test]
fn sm80_int4_and_binary() {
    agree!(SM80_8x8x32_S32S4S4S32_TN, [(2,1,1):(1,0,0)], "(2,1,1):(1,0,0)",
        c: ((16,8):(1,16)), a: ((16,32):(32,1)), b: ((8,32):(32,1)));
    agree!(SM80_16x8x64_S32S4S4S32_TN, [(1,2,1):(0,1,0)], "(1,2,1):(0,1,0)",
        c: ((16,16):(16,1)), a: ((16,64):(64,1)), b: ((16,64):(64,1)));
    agree!(SM80_16x8x256_S32U1U1S32_TN_XORPOPC, [(2,1,1):(1,0,0)], "(2,1,1):(1,0,0)",
        c: ((32,8):(1,32)), a: ((32,256):(256,1)), b: ((8,256):(256,1)));
}

/// SM80's fp64 and 8-bit integer atoms (C++'s in tests/mma.rs).
#[test]
fn sm80_fp64_and_int8() {
    agree!(SM80_8x8x4_F64F64F64F64_TN, [(2,2,1):(1,2,0)], "(2,2,1):(1,2,0)",
        c: ((16,16):(1,16)), a: ((16,4):(1,16)), b: ((16,4):(4,1)));
    agree!(SM80_16x8x32_S32S8S8S32_TN, [(2,2,1):(1,2,0)], "(2,2,1):(1,2,0)",
        c: ((32,16):(16,1)), a: ((32,32):(32,1)), b: ((16,32):(32,1)));
}

/// The SM90 warpgroup MMA family (one `paste` macro in cute-static): every atom's thread and
/// A, B, C layouts are cute-dyn's (C++ 4.2's for the f16 names of tests/data/mma, checked in
/// tests/mma.rs; bf16 operands have the same layouts in `mma_traits_sm90_gmma.hpp`), and tiled
/// over two warpgroups C partitions as cute-dyn's.
#[test]
fn sm90_warpgroup_atoms() {
    use cute::cute_static::mma::*;
    macro_rules! atoms_agree {
        ($($atom:ty),* $(,)?) => {$({
            let d = dy::mma::MmaAtom::named(<$atom as MmaAtom>::NAME).unwrap();
            assert_eq!(cpp(&<$atom as MmaAtom>::ThrId::default()), d.thr_id.to_styled(Style::Cpp), "{}", <$atom as MmaAtom>::NAME);
            assert_eq!(cpp(&<$atom as MmaAtom>::ALayout::default()), d.layout_a_tv.to_styled(Style::Cpp), "{}", <$atom as MmaAtom>::NAME);
            assert_eq!(cpp(&<$atom as MmaAtom>::BLayout::default()), d.layout_b_tv.to_styled(Style::Cpp), "{}", <$atom as MmaAtom>::NAME);
            assert_eq!(cpp(&<$atom as MmaAtom>::CLayout::default()), d.layout_c_tv.to_styled(Style::Cpp), "{}", <$atom as MmaAtom>::NAME);
        })*};
    }
    macro_rules! family {
        ($($n:literal),*) => {paste::paste! { atoms_agree!($(
            [<SM90_64x $n x16_F32F16F16_SS>], [<SM90_64x $n x16_F32F16F16_RS>],
            [<SM90_64x $n x16_F32BF16BF16_SS>], [<SM90_64x $n x16_F32BF16BF16_RS>],
        )*); }};
    }
    family!(8, 16, 32, 64, 80, 96, 128, 176, 192, 256);
    // The accumulator the Hopper HGEMM keeps (gpu/src/hgemm_sm90/tiles.rs) is the atom's C:
    // C++ 4.2's atom_c_tv of SM90_64x256x16_F32F16F16_SS (tests/data/mma/cxx_mma.tsv).
    assert_eq!(
        cpp(&<SM90_64x256x16_F32F16F16_SS as MmaAtom>::CLayout::default()),
        "((_4,_8,_4),(_2,_2,_32)):((_128,_1,_16),(_64,_8,_512))"
    );
    // Tiled over two warpgroups: the same thread layout and C partition as cute-dyn's.
    let mma = TiledMma::<SM90_64x128x16_F32BF16BF16_RS, Layout![(2,1,1):(1,0,0)], NoPermutation>::default();
    let d = dy::mma::TiledMma::new(
        dy::mma::MmaAtom::named("SM90_64x128x16_F32BF16BF16_RS").unwrap(),
        &"(2,1,1):(1,0,0)".parse().unwrap(),
        &[],
    )
    .unwrap();
    assert_eq!(cpp(&mma.thr_layout_vmnk()), d.thr_layout_vmnk().to_styled(Style::Cpp));
    assert_eq!(cpp(&mma.layout_c_tv()), d.layout_c_tv().unwrap().to_styled(Style::Cpp));
    let c = layout!((128,128):(1,128));
    assert_eq!(cpp(&mma.thrfrg_c(c)), d.thrfrg_c(&c.to_dyn().unwrap()).unwrap().to_styled(Style::Cpp));
    // An RS atom's A is a register fragment in both crates, the same for every thread. Its B
    // (and an SS atom's A) is a descriptor: cute-dyn refuses the fragment, and cute-static does
    // not compile it (ui-tests/kernel/fragment_of_a_descriptor_operand).
    let a = layout!((128,64):(64,1));
    for thr in 0..256 {
        let t = Int::dy(thr as i64);
        assert_eq!(
            cpp(&mma.partition_fragment_a(a, thr).unwrap()),
            d.partition_fragment_a(&a.to_dyn().unwrap(), t).unwrap().to_styled(Style::Cpp),
            "thread {thr}"
        );
    }
    assert!(d.partition_fragment_b(&layout!((128,64):(64,1)).to_dyn().unwrap(), Int::dy(0)).is_err());
}

/// The SM90 8-bit float warpgroup MMAs (`SM90_64xNx32_F32{E4M3,E5M2}{E4M3,E5M2}_{SS,RS}_TN`,
/// one `paste` macro in cute-static): every atom's shape, threads and A, B, C layouts are CuTe
/// C++ 4.2's (`tests/data/mma/cxx_gmma_fp8.tsv`, printed by `gen_cxx_gmma_fp8.cpp` over the
/// 4.2 headers), in cute-static and in cute-dyn.
#[test]
fn sm90_fp8_warpgroup_atoms_are_cxx() {
    use cute::cute_static::mma::*;
    use cute::cute_static::typenum::Unsigned;
    let cxx: std::collections::HashMap<&str, Vec<&str>> = include_str!("data/mma/cxx_gmma_fp8.tsv")
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[0], f[1..].to_vec())
        })
        .collect();
    let mut seen = 0;
    macro_rules! atoms_are_cxx {
        ($($atom:ty),* $(,)?) => {$({
            let name = <$atom as MmaAtom>::NAME;
            let want = &cxx[name];
            let mnk = format!("(_{},_{},_{})", <<$atom as MmaAtom>::M as Unsigned>::USIZE,
                <<$atom as MmaAtom>::N as Unsigned>::USIZE, <<$atom as MmaAtom>::K as Unsigned>::USIZE);
            let got = [mnk, cpp(&<$atom as MmaAtom>::ThrId::default()), cpp(&<$atom as MmaAtom>::ALayout::default()),
                cpp(&<$atom as MmaAtom>::BLayout::default()), cpp(&<$atom as MmaAtom>::CLayout::default())];
            assert_eq!(got.to_vec(), *want, "{name}");
            let d = dy::mma::MmaAtom::named(name).unwrap();
            let shape = d.shape_mnk.map(|x| format!("_{x}"));
            assert_eq!(format!("({})", shape.join(",")), want[0], "{name}");
            let dyn_layouts = [&d.thr_id, &d.layout_a_tv, &d.layout_b_tv, &d.layout_c_tv].map(|l| l.to_styled(Style::Cpp));
            assert_eq!(dyn_layouts.to_vec(), want[1..].to_vec(), "{name} (cute-dyn)");
            seen += 1;
        })*};
    }
    macro_rules! family {
        ($($n:literal),*) => {paste::paste! { atoms_are_cxx!($(
            [<SM90_64x $n x32_F32E4M3E4M3_SS_TN>], [<SM90_64x $n x32_F32E4M3E4M3_RS_TN>],
            [<SM90_64x $n x32_F32E4M3E5M2_SS_TN>], [<SM90_64x $n x32_F32E4M3E5M2_RS_TN>],
            [<SM90_64x $n x32_F32E5M2E4M3_SS_TN>], [<SM90_64x $n x32_F32E5M2E4M3_RS_TN>],
            [<SM90_64x $n x32_F32E5M2E5M2_SS_TN>], [<SM90_64x $n x32_F32E5M2E5M2_RS_TN>],
        )*); }};
    }
    family!(8, 16, 32, 64, 96, 128, 192, 256);
    assert_eq!(seen, cxx.len(), "every atom of the C++ table");
}

/// Permuted tiled MMAs (`make_tiled_mma(atom, layout, Tile<...>)`): CUTLASS's SM80 GEMM tile
/// 32x32x16 of 2x2 `mma.sync` 16x8x16 (N permuted to 32: each warp takes two atoms in N), and a
/// layout permutation of M.
#[test]
fn permuted() {
    agree!(SM80_16x8x16_F32F16F16F32_TN, [(2,2,1):(1,2,0)], "(2,2,1):(1,2,0)", perm: Tiler![<32,32,16>], ["32", "32", "16"],
        c: ((64,64):(1,64)), a: ((64,32):(32,1)), b: ((64,32):(1,64)));
    agree!(UniversalFMA, [(4,2,1):(1,4,0)], "(4,2,1):(1,4,0)", perm: Tiler![<(2,4):(4,1),_,_>], ["(2,4):(4,1)", "_", "_"],
        c: ((16,8):(1,16)), a: ((16,4):(1,16)), b: ((8,4):(4,1)));
}

/// A CTA's tiles of global A, B and C (static extents, run-time leading dimensions) partitioned
/// by a tiled MMA, every thread: the same parts (static flags included), offsets and register
/// fragments as cute-dyn's partitions of the same tiles.
#[test]
fn partitions_of_run_time_stride_tiles_agree_with_cute_dyn() {
    macro_rules! agree_mixed {
        ($ld:ident; $atom:ty, $atom_layout:tt, $atom_layout_dyn:expr, c: $c:tt, a: $a:tt, b: $b:tt) => {{
            let mma = TiledMma::<$atom, Layout!$atom_layout>::default();
            let d = dy::mma::TiledMma::new(dy::mma::MmaAtom::named(<$atom as MmaAtom>::NAME).unwrap(), &$atom_layout_dyn.parse().unwrap(), &[]).unwrap();
            let vmnk = mma.thr_layout_vmnk();
            for $ld in [64usize, 100, 1 << 20] {
                partitions_agree!(mma, d, vmnk, layout!$c, layout!$a, layout!$b);
            }
        }};
    }
    agree_mixed!(ld; UniversalFMA, [(8,16,1):(1,8,0)], "(8,16,1):(1,8,0)",
        c: ((64,128):(1,{ld})), a: ((64,32):({ld},1)), b: ((128,32):(1,{ld})));
    agree_mixed!(ld; SM80_16x8x16_F32F16F16F32_TN, [(2,2,1):(1,2,0)], "(2,2,1):(1,2,0)",
        c: ((64,32):(1,{ld})), a: ((64,32):({ld},1)), b: ((32,64):(1,{ld})));
    agree_mixed!(ld; SM80_16x8x8_F32TF32TF32F32_TN, [(2,1,1):(1,0,0)], "(2,1,1):(1,0,0)",
        c: ((32,16):({ld},1)), a: ((32,8):(1,{ld})), b: ((16,16):({ld},1)));
}
