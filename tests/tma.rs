//! TMA tensor maps against CuTe C++ 4.2 (tests/data/tma/: `gen_tma.py` writes and runs the g++
//! driver `gen_cxx_tma.cpp`, which defines `cuTensorMapEncodeTiled` itself and prints the
//! arguments CuTe's `make_tma_copy(SM90_TMA_LOAD{}, gtensor, slayout)` passes): for row- and
//! column-major and batched global tensors of run-time extents (TMA's 5 dimensions, a rank-6
//! tensor grouped into them, and
//! extents past 2^31), loads multicast to 2 and 4 CTAs, shared tiles of every GMMA
//! atom kind and plain tiles, 8-, 16- and 32-bit elements, every parameter equal; the inputs
//! C++ refuses with an `assert` (majorness, a stride not a multiple of 16 bytes, a box past 256)
//! refused with the condition. And the TMA tensor's layout, `get_tma_tensor(shape(gtensor))`:
//! the global shape with the scaled-basis strides that give each coordinate's TMA coordinate.

use cute::cute_dyn::gmma::{gmma_layout_atom, LayoutType, Major};
use cute::cute_dyn::swizzle::MaybeComposed;
use cute::cute_dyn::tile_to_shape;
use cute::cute_dyn::tma::{make_tma_copy_desc, make_tma_copy_desc_multicast, tma_data_type, TmaDesc};

const ANSWERS: &str = include_str!("data/tma/cxx_tma.tsv");

/// A case's shared tile: `KIND MAJOR SHAPE` (`tile_to_shape` of a GMMA atom) or a layout.
fn smem(text: &str, elem: &str) -> MaybeComposed {
    let f: Vec<&str> = text.split(' ').collect();
    let [kind, major, shape] = f[..] else { return MaybeComposed::Layout(text.parse().unwrap()) };
    let major = if major == "K" { Major::K } else { Major::MN };
    let bits = tma_data_type(elem).unwrap().1;
    let tiled = |l: &cute::cute_dyn::Layout| tile_to_shape(l, &shape.parse().unwrap(), None).unwrap();
    match gmma_layout_atom(major, LayoutType::of_atom_name(kind).unwrap(), bits).unwrap() {
        MaybeComposed::Layout(l) => MaybeComposed::Layout(tiled(&l)),
        MaybeComposed::Composed(c) => MaybeComposed::Composed(c.with_layout(tiled(c.layout().unwrap()))),
    }
}

/// The driver's print of the parameters.
fn params(d: &TmaDesc) -> String {
    let list = |v: Vec<String>| v.join(",");
    format!(
        "dtype={} rank={} gdim={} gstride={} box={} estride={} interleave={} swizzle={} l2={} oob={}",
        d.data_type,
        d.rank(),
        list(d.global_dim.iter().map(|x| x.to_string()).collect()),
        list(d.global_strides.iter().map(|x| x.to_string()).collect()),
        list(d.box_dim.iter().map(|x| x.to_string()).collect()),
        list(d.element_strides.iter().map(|x| x.to_string()).collect()),
        d.interleave,
        d.swizzle,
        d.l2_promotion,
        d.oob_fill
    )
}

#[test]
fn every_tensor_map_is_cxx_s() {
    let (mut equal, mut refused) = (0, 0);
    for line in ANSWERS.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let (elem, global, tile, multicast, cxx) = (f[0], f[1], f[2], f[3].parse().unwrap(), f[4]);
        let ours = make_tma_copy_desc_multicast(&global.parse().unwrap(), elem, &smem(tile, elem), multicast);
        if cxx == "refused" {
            let e = ours.expect_err(line).to_string();
            assert!(e.chars().any(|c| c.is_ascii_digit()), "{line}: {e}");
            refused += 1;
        } else {
            let ours = ours.unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(params(&ours), cxx, "{line}");
            // get_tma_tensor(shape(gtensor)): C++'s scaled-basis strides.
            assert_eq!(ours.coordinates.to_styled(cute::cute_dyn::Style::Cpp), f[5], "{line}");
            equal += 1;
        }
    }
    assert_eq!((equal, refused), (26, 3));
}

/// A swizzle whose span is narrower than the box's inner row: C++ passes it to the driver,
/// which refuses the map; we refuse it first, with the numbers.
#[test]
fn a_box_row_wider_than_its_swizzle_is_refused() {
    let smem = MaybeComposed::Composed("Sw<1,3,3> o 0 o (8,64):(64,1)".parse().unwrap());
    let e = make_tma_copy_desc(&"({1000},{512}):({512},1)".parse().unwrap(), "half_t", &smem).unwrap_err();
    assert!(e.to_string().contains("128 bytes, wider than the 32-byte span"), "{e}");
}

/// `cute eval`'s `tma_desc` gives C++'s tensor maps too, over C++'s atom names.
#[test]
fn cute_eval_gives_the_same_tensor_maps() {
    let mut n = 0;
    for line in ANSWERS.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let (elem, global, tile, multicast, cxx) = (f[0], f[1], f[2], f[3], f[4]);
        let smem = match tile.split(' ').collect::<Vec<_>>()[..] {
            [kind, major, shape] => format!("tile_to_shape(Layout_{major}_{kind}_Atom<{elem}>,{shape})"),
            _ => tile.to_string(),
        };
        let expr = format!("tma_desc({elem},{global},{smem},{multicast})");
        let ours = cute_cli::eval::eval(&expr, cute::cute_dyn::Style::Cpp);
        if cxx == "refused" {
            assert!(ours.is_err(), "{expr}");
        } else {
            let field = |k: &str| cxx.split(' ').find_map(|p| p.strip_prefix(k)).unwrap().to_string();
            let want = format!(
                "globalDim: ({}), globalStrides: ({}), boxDim: ({})",
                field("gdim="),
                field("gstride="),
                field("box=")
            );
            let ours = ours.unwrap_or_else(|e| panic!("{expr}: {e}"));
            assert!(
                ours.contains(&want) && ours.contains(&format!("swizzle: {}", field("swizzle="))),
                "{expr}: {ours}"
            );
        }
        n += 1;
    }
    assert_eq!(n, 29);
}

/// cute-static's tiles (types) give the same tensor maps: the driver's lines for a K-major, an
/// MN-major and a batched global tensor.
#[test]
fn cute_static_tiles_give_the_same_tensor_maps() {
    use cute_static::gmma::{LayoutAtom, Sw128, Sw64, K, MN};
    use cute_static::typenum::U16;
    use cute_static::{layout, shape, tile_to_shape};
    let cxx = |key: &str| {
        let line = ANSWERS.lines().find(|l| l.starts_with(key)).unwrap_or_else(|| panic!("{key}"));
        line.split('\t').nth(4).unwrap().to_string()
    };
    let (m, k, l) = (1000usize, 512usize, 3usize);
    let d = cute_static::tma::make_tma_copy_desc(
        layout!(({m},{k}):({k},1)),
        "half_t",
        &tile_to_shape(LayoutAtom::<K, Sw128, U16>::default(), shape!((128, 64))),
    )
    .unwrap();
    assert_eq!(params(&d), cxx("half_t\t({1000},{512}):({512},1)\tSW128 K (128,64)\t1\t"));
    let d = cute_static::tma::make_tma_copy_desc(
        layout!(({m},{k}):(1,{1024})),
        "half_t",
        &tile_to_shape(LayoutAtom::<MN, Sw64, U16>::default(), shape!((64, 32))),
    )
    .unwrap();
    assert_eq!(params(&d), cxx("half_t\t({1000},{512}):(1,{1024})\tSW64 MN (64,32)\t1\t"));
    let d = cute_static::tma::make_tma_copy_desc(
        layout!(({m},{k},{l}):({k},1,{m * k})),
        "half_t",
        &tile_to_shape(LayoutAtom::<K, Sw128, U16>::default(), shape!((128, 64))),
    )
    .unwrap();
    assert_eq!(params(&d), cxx("half_t\t({1000},{512},{3}):({512},1,{512000})\tSW128 K (128,64)\t1\t"));
    let d = cute_static::tma::make_tma_copy_desc_multicast(
        layout!(({m},{k}):({k},1)),
        "half_t",
        &tile_to_shape(LayoutAtom::<K, Sw128, U16>::default(), shape!((128, 64))),
        4,
    )
    .unwrap();
    assert_eq!(params(&d), cxx("half_t\t({1000},{512}):({512},1)\tSW128 K (128,64)\t4\t"));
}
