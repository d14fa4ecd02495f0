//! Hopper's GMMA shared-memory atoms and `wgmma` descriptors against CuTe C++ 4.2
//! (tests/data/gmma/: `gen_gmma.py` writes and runs the g++ driver `gen_cxx_gmma.cpp`, with a
//! host definition of `__cvta_generic_to_shared` so that start addresses are real):
//! - every atom `GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>` for 8-, 16- and 32-bit
//!   `T`: the same layout, and the same function of the element offset (C++'s swizzle acts on
//!   byte addresses, ours on element offsets);
//! - `make_gmma_desc<Major>` of an MMA's tile (`local_tile` of a stage) of `tile_to_shape` of
//!   each atom, and of hand-written layouts: the same 64-bit descriptor, where C++ gives one;
//! - C++'s refusals (`static_assert`s) refused too, and MN-major 8- and 32-bit tiles (which C++
//!   describes and `wgmma` cannot transpose) refused with the PTX ISA's reason.

use cute::cute_dyn::gmma::{gmma_desc_of_tile, gmma_layout_atom, LayoutType, Major};
use cute::cute_dyn::swizzle::{ComposedLayout, MaybeComposed, Swizzle};
use cute::cute_dyn::{parse_styled, tile_to_shape, Layout, Style};

const ANSWERS: &str = include_str!("data/gmma/cxx_gmma.tsv");
const REFUSED: &str = include_str!("data/gmma/cxx_refused.txt");

fn major(s: &str) -> Major {
    match s {
        "K" => Major::K,
        "MN" => Major::MN,
        _ => panic!("major {s}"),
    }
}

/// A case's shared-memory layout: `tile_to_shape(atom, shape, order)`, or a layout as written.
fn smem(m: Major, bits: i64, source: &str, shape: &str, order: &str) -> MaybeComposed {
    let Some(t) = LayoutType::of_atom_name(source) else {
        return MaybeComposed::Layout(source.parse().unwrap());
    };
    let order = (order != "_").then(|| order.parse().unwrap());
    let tiled = |l: &Layout| tile_to_shape(l, &shape.parse().unwrap(), order.as_ref()).unwrap();
    match gmma_layout_atom(m, t, bits).unwrap() {
        MaybeComposed::Layout(l) => MaybeComposed::Layout(tiled(&l)),
        MaybeComposed::Composed(c) => MaybeComposed::Composed(c.with_layout(tiled(c.layout().unwrap()))),
    }
}

/// The descriptor of a case's line (its fields after `desc`).
fn desc(f: &[&str]) -> cute::cute_dyn::Result<u64> {
    let (m, bits) = (major(f[0]), f[1].parse().unwrap());
    let l = smem(m, bits, f[2], f[3], f[4]);
    let tile: Vec<i64> = f[5].trim_matches(|c| c == '(' || c == ')').split(',').map(|x| x.parse().unwrap()).collect();
    let coord = match f[6] {
        "_" => f[7].to_string(),
        stage => format!("{},{stage})", f[7].trim_end_matches(')')),
    };
    gmma_desc_of_tile(m, bits, &l, (tile[0], tile[1]), &coord.parse().unwrap(), f[8].parse().unwrap())
        .map(|d| d.to_u64())
}

#[test]
fn every_atom_is_cxx_s() {
    let mut n = 0;
    for line in ANSWERS.lines().filter(|l| l.starts_with("atom\t")) {
        let f: Vec<&str> = line.split('\t').collect();
        let (m, bits, kind, cxx) = (major(f[1]), f[2].parse::<i64>().unwrap(), f[3], f[4]);
        // C++: `Sw<B,4,3> o smem_ptr[Nb](unset) o LAYOUT`, the swizzle on bytes.
        let (sw, rest) = cxx.split_once(" o smem_ptr[").unwrap();
        let p: Vec<i64> =
            sw.trim_start_matches("Sw<").trim_end_matches('>').split(',').map(|x| x.parse().unwrap()).collect();
        let sw = Swizzle::new(p[0], p[1], p[2]).unwrap();
        let cxx_layout: Layout = parse_styled(rest.split_once(" o ").unwrap().1, Style::Cpp).unwrap();
        let ours = gmma_layout_atom(m, LayoutType::of_atom_name(kind).unwrap(), bits).unwrap();
        let (our_layout, our_sw) = match &ours {
            MaybeComposed::Layout(l) => (l.clone(), None),
            MaybeComposed::Composed(c) => (c.layout().unwrap().clone(), Some(c.clone())),
        };
        assert_eq!(our_layout.to_styled(Style::Cpp), cxx_layout.to_styled(Style::Cpp), "{line}");
        let bytes = bits / 8;
        for i in 0..cxx_layout.size().unwrap().value() {
            // C++: the element at byte address sw(L(i) * bytes).
            let cxx_offset = sw.apply(cxx_layout.call(i).unwrap() * bytes).unwrap() / bytes;
            let our_offset = match &our_sw {
                None => our_layout.call(i).unwrap(),
                Some(c) => c.call_index(i).unwrap(),
            };
            assert_eq!(our_offset, cxx_offset, "{line}: element {i}");
        }
        assert_eq!(our_sw.is_none(), kind == "INTER", "{line}");
        n += 1;
    }
    assert_eq!(n, 24);
}

#[test]
fn every_descriptor_is_cxx_s() {
    let (mut equal, mut refused_mn) = (0, 0);
    for line in ANSWERS.lines().filter(|l| l.starts_with("desc\t")) {
        let f: Vec<&str> = line.split('\t').collect();
        let cxx = u64::from_str_radix(f[10].trim_start_matches("0x"), 16).unwrap();
        if f[1] == "MN" && f[2] != "16" {
            // C++ describes it; wgmma cannot transpose it.
            let e = desc(&f[1..]).unwrap_err().to_string();
            assert!(e.contains("transposes only 16-bit operands"), "{line}: {e}");
            refused_mn += 1;
            continue;
        }
        assert_eq!(
            desc(&f[1..]).unwrap_or_else(|e| panic!("{line}: {e}")),
            cxx,
            "{line}: ours 0x{:016x}",
            desc(&f[1..]).unwrap()
        );
        equal += 1;
    }
    assert_eq!((equal, refused_mn), (47, 16));
}

/// What C++ refuses with a `static_assert`, we refuse with a reason naming the numbers.
#[test]
fn cxx_s_refusals_are_ours() {
    let mut n = 0;
    for line in REFUSED.lines().filter(|l| !l.is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        let e = desc(&f).expect_err(line).to_string();
        assert!(e.chars().any(|c| c.is_ascii_digit()), "{line}: {e}");
        n += 1;
    }
    assert!(n >= 5, "{n} refusals");
}

/// The error texts of the conditions, each naming what the layout has.
#[test]
fn a_non_canonical_tile_says_why() {
    let k = |l: &str| {
        let l = match l.parse::<ComposedLayout>() {
            Ok(c) => MaybeComposed::Composed(c),
            Err(_) => MaybeComposed::Layout(l.parse().unwrap()),
        };
        cute::cute_dyn::gmma::make_gmma_desc(Major::K, 16, &l, 0).unwrap_err().to_string()
    };
    // SW128 rows are 64 halves; a 32-half row.
    let e = k("Sw<3,3,3> o 0 o ((8,8),(16,1)):((32,256),(1,0))");
    assert!(e.contains("128 bytes apart") && e.contains("64 bytes apart"), "{e}");
    // A swizzle wgmma does not walk.
    let e = k("Sw<2,3,2> o 0 o (64,16):(16,1)");
    assert!(e.contains("Sw<2,4,2> on bytes"), "{e}");
    // K of 24 halves.
    let e = k("(64,24):(24,1)");
    assert!(e.contains("3 (24 elements)"), "{e}");
    // An MN extent of 60.
    let e = k("(60,16):(16,1)");
    assert!(e.contains("multiple of 8; this one's is 60"), "{e}");
    // A start address that is not 16-byte aligned.
    let e = k("Sw<3,3,3> o 4 o ((8,8),(64,1)):((64,512),(1,0))");
    assert!(e.contains("byte 8, not a multiple of 16"), "{e}");
}

/// `cute eval`'s `gmma_desc` gives C++'s descriptors too: every 16-bit and K-major line, as an
/// expression over C++'s atom names (`Layout_K_SW128_Atom<half_t>`).
#[test]
fn cute_eval_gives_the_same_descriptors() {
    let mut n = 0;
    for line in ANSWERS.lines().filter(|l| l.starts_with("desc\t")) {
        let f: Vec<&str> = line.split('\t').collect();
        if LayoutType::of_atom_name(f[3]).is_none() || (f[1] == "MN" && f[2] != "16") {
            continue;
        }
        let ty = match f[2] {
            "8" => "float_e4m3_t",
            "16" => "bfloat16_t",
            _ => "tfloat32_t",
        };
        let order = if f[5] == "_" { String::new() } else { format!(",{}", f[5]) };
        let coord = match f[7] {
            "_" => f[8].to_string(),
            stage => format!("{},{stage})", f[8].trim_end_matches(')')),
        };
        let expr = format!(
            "gmma_desc({},{ty},tile_to_shape(Layout_{}_{}_Atom<{ty}>,{}{order}),{},{coord},{})",
            f[1], f[1], f[3], f[4], f[6], f[9]
        );
        let ours = cute_cli::eval::eval(&expr, Style::Cpp).unwrap_or_else(|e| panic!("{expr}: {e}"));
        assert!(
            ours.starts_with(&format!("GmmaDescriptor 0x{:016x} ", u64::from_str_radix(&f[10][2..], 16).unwrap())),
            "{expr}: {ours}"
        );
        n += 1;
    }
    assert_eq!(n, 44);
}

/// cute-static computes the same descriptors at compile time: the driver's lines for tiles of
/// `tile_to_shape` of each atom kind, K- and MN-major, 8-, 16- and 32-bit, stages and offsets.
#[test]
fn cute_static_gives_the_same_descriptors() {
    use cute_static::gmma::{gmma_desc_of_tile, Inter, LayoutAtom, Sw128, Sw32, Sw64, K, MN};
    use cute_static::typenum::{U16, U32, U8};
    use cute_static::{shape, tile_to_shape, tiler, Cons, Nil};
    let cxx = |key: &str| {
        let line = ANSWERS.lines().find(|l| l.starts_with(key)).unwrap_or_else(|| panic!("{key}"));
        u64::from_str_radix(&line.rsplit('\t').next().unwrap()[2..], 16).unwrap()
    };
    let c3 = |i: usize, j: usize, s: usize| Cons(i, Cons(j, Cons(s, Nil)));
    let c2 = |i: usize, j: usize| Cons(i, Cons(j, Nil));
    macro_rules! check {
        ($major:ty, $kind:ty, $bits:ty, $shape:tt, [$($tile:tt)*], $coord:expr, $start:expr, $key:expr) => {{
            let smem = tile_to_shape(LayoutAtom::<$major, $kind, $bits>::default(), shape!($shape));
            let d = gmma_desc_of_tile::<$major, $bits, _, _, _>(smem, tiler!($($tile)*), &$coord, $start);
            assert_eq!(d, cxx($key), "{}: ours 0x{d:016x}", $key);
        }};
    }
    check!(K, Sw128, U16, (128,128,2), [<64,16>], c3(1, 7, 1), 0, "desc\tK\t16\tSW128\t(128,128,2)\t_\t(64,16)\t1\t(1,7)\t0\t");
    check!(K, Sw64, U8, (128,128,2), [<64,32>], c3(1, 3, 1), 0, "desc\tK\t8\tSW64\t(128,128,2)\t_\t(64,32)\t1\t(1,3)\t0\t");
    check!(K, Sw32, U32, (64,16), [<64,8>], c2(0, 1), 2048, "desc\tK\t32\tSW32\t(64,16)\t_\t(64,8)\t_\t(0,1)\t2048\t");
    check!(K, Inter, U16, (128,32,2), [<64,16>], c3(1, 1, 1), 0, "desc\tK\t16\tINTER\t(128,32,2)\t_\t(64,16)\t1\t(1,1)\t0\t");
    check!(K, Sw128, U32, (64,64), [<64,8>], c2(0, 1), 2048, "desc\tK\t32\tSW128\t(64,64)\t_\t(64,8)\t_\t(0,1)\t2048\t");
    check!(MN, Sw128, U16, (128,64,3), [<64,16>], c3(1, 1, 2), 0, "desc\tMN\t16\tSW128\t(128,64,3)\t_\t(64,16)\t2\t(1,1)\t0\t");
    check!(MN, Sw64, U16, (64,64,3), [<64,16>], c3(0, 1, 2), 0, "desc\tMN\t16\tSW64\t(64,64,3)\t_\t(64,16)\t2\t(0,1)\t0\t");
    check!(MN, Sw32, U16, (64,64,3), [<64,16>], c3(0, 1, 2), 0, "desc\tMN\t16\tSW32\t(64,64,3)\t_\t(64,16)\t2\t(0,1)\t0\t");
    check!(MN, Inter, U16, (64,64,3), [<64,16>], c3(0, 1, 2), 0, "desc\tMN\t16\tINTER\t(64,64,3)\t_\t(64,16)\t2\t(0,1)\t0\t");
}
