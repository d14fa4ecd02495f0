//! Identity tensors (scaled-basis strides) against CuTe C++ 4.2 (tests/data/identity/:
//! `gen_identity.py` writes and runs the g++ driver `gen_cxx_identity.cpp`): `local_tile` and
//! `local_partition` of `make_identity_tensor(shape)` for random flat shapes with run-time and
//! static extents, dividing and residue tilers, coordinates with `_`, projections and thread
//! layouts; the tile's layout (strides `_1@0`, static flags included) equal to C++'s print and
//! its origin coordinate equal in value. And the definition of predication: tiled and
//! partitioned as a data tensor over the same shape, every element of the identity tile is the
//! coordinate of the data tile's element, residue tiles included.

use cute::cute_dyn::basis::{elem_less, IdentityTensor};
use cute::cute_dyn::tensor::{local_partition, local_tile};
use cute::cute_dyn::{make_layout_left, Coord, Int, IntTuple, Layout, Style, Tiler};

const ANSWERS: &str = include_str!("data/identity/cxx_identity.tsv");

/// The operation of a line on a tensor: the identity tensor's result, and the data layout's
/// `(tile layout, offset)`.
fn apply(shape: &IntTuple, op: &str) -> (IdentityTensor, (Layout, Int)) {
    let id = IdentityTensor::new(shape).unwrap();
    let data = make_layout_left(shape).unwrap();
    let f: Vec<&str> = op.split(' ').collect();
    match f[0] {
        "local_tile" => {
            let tiler: Tiler = f[1].parse().unwrap();
            let coord: Coord = f[2].parse().unwrap();
            let proj: Option<Coord> = f.get(3).map(|p| p.parse().unwrap());
            let t = id.local_tile(&tiler, &coord, proj.as_ref()).unwrap_or_else(|e| panic!("{op}: {e}"));
            (t, local_tile(&data, &tiler, &coord, proj.as_ref()).unwrap())
        }
        _ => {
            let threads: Layout = f[1].parse().unwrap();
            let idx: Int = f[2].parse().unwrap();
            let t = id.local_partition(&threads, idx, None).unwrap_or_else(|e| panic!("{op}: {e}"));
            (t, local_partition(&data, &threads, idx, None).unwrap())
        }
    }
}

fn values(t: &IntTuple) -> Vec<i64> {
    t.leaves().iter().map(|x| x.value()).collect()
}

#[test]
fn every_answer_of_cxx_is_ours() {
    let mut n = 0;
    for line in ANSWERS.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let (shape, op, cxx) = (f[0], f[1], f[2]);
        let (t, _) = apply(&shape.parse().unwrap(), op);
        let ours = t.to_styled(Style::Cpp);
        let (o_origin, o_layout) = ours.split_once(" o ").unwrap();
        let (c_origin, c_layout) = cxx.split_once(" o ").unwrap();
        assert_eq!(o_layout, c_layout, "{shape} {op}");
        // The origin's values (C++ keeps a static flag per mode; here one for the offset).
        let digits = |s: &str| s.replace('_', "");
        assert_eq!(digits(o_origin), digits(c_origin), "{shape} {op}");
        n += 1;
    }
    assert!(n >= 200, "{n} answers");
}

/// `cute eval` gives the same answers: `local_tile(make_identity_tensor(SHAPE), ...)`.
#[test]
fn cute_eval_gives_the_same_answers() {
    for line in ANSWERS.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let (shape, op, cxx) = (f[0], f[1], f[2]);
        let args: Vec<&str> = op.split(' ').collect();
        let expr = format!("{}(make_identity_tensor({shape}),{})", args[0], args[1..].join(","));
        let ours = cute_cli::eval::eval(&expr, Style::Cpp).unwrap_or_else(|e| panic!("{expr}: {e}"));
        let (o_origin, o_layout) = ours.split_once(" o ").unwrap();
        let (c_origin, c_layout) = cxx.split_once(" o ").unwrap();
        assert_eq!(o_layout, c_layout, "{expr}");
        assert_eq!(o_origin.replace('_', ""), c_origin.replace('_', ""), "{expr}");
    }
}

/// Predication's definition: element `j` of the identity tile is the coordinate `c` of element
/// `j` of the data tile, `off + L(j) == data(c)` (`data` column-major over the shape, linear in
/// `c` even past the shape); `elem_less(c, shape)` exactly for the data tile's elements inside
/// the tensor.
#[test]
fn identity_tiles_are_the_data_tiles_coordinates() {
    let mut checked = 0;
    for line in ANSWERS.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let shape: IntTuple = f[0].parse().unwrap();
        let (t, (l, off)) = apply(&shape, f[1]);
        let data = make_layout_left(&shape).unwrap();
        let strides = values(&data.stride());
        let extents = values(&shape);
        let size = t.size().unwrap().value();
        assert_eq!(size, l.size().unwrap().value(), "{line}");
        for j in 0..size {
            let c = values(&t.get(j).unwrap());
            let linear: i64 = c.iter().zip(&strides).map(|(x, d)| x * d).sum();
            assert_eq!(off.value() + l.call(j).unwrap(), linear, "{line} at {j}: {c:?}");
            let inside = c.iter().zip(&extents).all(|(x, e)| x < e);
            assert_eq!(elem_less(&t.get(j).unwrap(), &shape).unwrap(), inside);
            checked += 1;
        }
    }
    assert!(checked > 10_000, "{checked}");
}

/// Out of range is an error, not an aliased coordinate: a basis layout with more coordinate
/// modes than it can encode, a nested shape, a tile past the coordinate range.
#[test]
fn refusals_are_errors() {
    use cute::cute_dyn::basis::{make_identity_layout, BasisLayout};
    // TMA's 5 dimensions (C++'s E<4>), 2^12 per coordinate; not 6.
    assert!(make_identity_layout(&"(2,2,2,2,2,2)".parse().unwrap()).is_err());
    assert!(make_identity_layout(&"(4095,2,2,2,2)".parse().unwrap()).is_ok());
    assert!(make_identity_layout(&"(4097,2,2,2,2)".parse().unwrap()).is_err());
    assert!(make_identity_layout(&"((2,3),4)".parse().unwrap()).is_err());
    // Three modes have 2^20 per coordinate: an extent of 2^21 does not fit.
    assert!(make_identity_layout(&"(2097152,2,2)".parse().unwrap()).is_err());
    assert!(make_identity_layout(&"(1048575,2,2)".parse().unwrap()).is_ok());
    // Past the last mode the identity goes on (CuTe's layouts extend their last mode): index
    // 2^30 is (0, 2^29), inside the 2^31 range of two modes; 2^32 is (0, 2^31), past it.
    let id = BasisLayout::parse("(2,3):(1@0,1@1)", Style::Values).unwrap();
    let far = id.composition(&"4:1073741824".parse().unwrap()).unwrap();
    assert_eq!(far.call(1).unwrap().to_string(), "(0,536870912)");
    assert!(id.composition(&"4:4294967296".parse().unwrap()).is_err());
    for bad in ["(2,3):(1@0,1@7)", "(2,3):(1,1@1)", "(2,3):(1@0)", "(2,3):(1@_,1@1)", "(4,6):(-1@0,1@1)"] {
        assert!(BasisLayout::parse(bad, Style::Values).is_err(), "{bad}");
    }
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// The predicated transpose (`cute_kernels::predicated_copy::transpose_dyn`) of random
    /// ragged sizes with random tiles: every element where the naive loop puts it.
    #[test]
    fn predicated_transpose_of_ragged_sizes(m in 1i64..90, n in 1i64..90, bm in 1i64..40, bn in 1i64..40) {
        let src: Vec<f32> = (0..m * n).map(|i| i as f32).collect();
        let mut dst = vec![-1.0f32; (m * n) as usize];
        cute_kernels::predicated_copy::transpose_dyn(&src, &mut dst, (m, n), (bm, bn)).unwrap();
        for r in 0..m {
            for c in 0..n {
                proptest::prop_assert_eq!(dst[(r + c * m) as usize], src[(r * n + c) as usize]);
            }
        }
    }
}

/// A rank-1 identity tensor: its coordinates are leaves, compared with the rank-1 shape.
#[test]
fn rank_one_identity() {
    let shape: IntTuple = "({5})".parse().unwrap();
    let t = IdentityTensor::new(&shape)
        .unwrap()
        .local_tile(&"<2>".parse().unwrap(), &"({2})".parse().unwrap(), None)
        .unwrap();
    let inside: Vec<bool> = (0..2).map(|j| elem_less(&t.get(j).unwrap(), &shape).unwrap()).collect();
    assert_eq!(inside, [true, false]); // coordinates 4 and 5 of 5
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

    /// The gemm example's kernel for random sizes, multiples of its block tile or not: every
    /// element of C as the naive triple loop's (the inputs are small integers, so both are exact).
    #[test]
    fn predicated_gemm_of_ragged_sizes(m in 1usize..150, n in 1usize..150, k in 1usize..300) {
        let (c, d) = cute_kernels::gemm::run(m, n, k);
        proptest::prop_assert_eq!(c, d);
    }
}
