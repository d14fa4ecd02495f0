//! The tensor layer's partitions on layouts (`local_tile`, `local_partition`, `inner_partition`,
//! `outer_partition`, with projections) against CuTe C++ 4.2 (tests/data/partition/:
//! `gen_partition.py` writes and runs the g++ driver `gen_cxx_partition.cpp` over random
//! hierarchical tensors, dividing and residue tilers, full, short, `_` and flat coordinates,
//! projections and compact thread layouts): every answer C++ gives is ours, layout and data
//! offset, and every case C++ refuses we refuse. And the definitions, by proptest: a tile is the
//! block of the tensor at its coordinate; a thread's part is every element at its coordinate of
//! every thread block; the tiles, and the threads' parts, cover the tensor once.

mod common;

use common::args;
use cute::cute_dyn::{self, tensor, Error, Int, IntTuple, Layout};
use cute_cli::eval::eval;
use cute_dyn::Style;
use proptest::prelude::*;

const ANSWERS: &str = include_str!("data/partition/cxx_partition.tsv");
const REFUSED: &str = include_str!("data/partition/cxx_refused.txt");

#[test]
fn every_answer_of_cxx_is_ours_or_breaks_its_law() {
    let (mut same, mut cxx_wrong) = (0, 0);
    for line in ANSWERS.lines() {
        let (expr, cxx) = line.split_once('\t').unwrap();
        match eval(expr, Style::Cpp) {
            Ok(ours) if ours == cxx => same += 1,
            // ceil_div(shape, tiler) is the shape of complement(tiler, shape). CuTe's complement
            // divides a shape cotarget mode by mode and can cover less than the shape
            // (docs/deviations.md); ours takes the rest as one mode and covers it.
            ours if expr.starts_with("ceil_div(") => {
                let (target, tiler): (IntTuple, Layout) =
                    (args(expr)[0].parse().unwrap(), args(expr)[1].parse().unwrap());
                let covers = |tiles: &str| {
                    let tiles: IntTuple = tiles.replace('_', "").parse().unwrap();
                    cute_dyn::product(&tiles).unwrap().value() * tiler.size().unwrap().value()
                        >= cute_dyn::product(&target).unwrap().value()
                };
                assert!(!covers(cxx), "{expr}: C++'s {cxx} covers the shape, ours is {ours:?}");
                assert!(
                    ours.as_deref().is_ok_and(covers) || matches!(ours, Err(Error::Postcondition { .. })),
                    "{expr}: {ours:?}"
                );
                cxx_wrong += 1;
            }
            Ok(ours) => panic!("{expr}: C++ answers {cxx}, we {ours}"),
            Err(e) => panic!("{expr}: C++ answers {cxx}, we refuse: {e}"),
        }
    }
    eprintln!("{same} answers of C++ are ours, {cxx_wrong} break their law");
    assert!(same >= 500, "{same} answers");
}

#[test]
fn every_refusal_of_cxx_is_ours() {
    for expr in REFUSED.lines() {
        assert!(eval(expr, Style::Cpp).is_err(), "{expr}: C++ refuses it (static_assert)");
    }
}

/// A rank-2 layout `(m,n)`, column- or row-major.
fn matrix(m: i64, n: i64, row: bool) -> Layout {
    let text = if row { format!("({m},{n}):({n},1)") } else { format!("({m},{n}):(1,{m})") };
    text.parse().unwrap()
}

fn at(l: &Layout, i: i64, j: i64) -> i64 {
    l.call_coord(&format!("({i},{j})").parse().unwrap()).unwrap().value()
}

proptest! {
    /// The tile at (x, y) of an (m, n) tensor by <t0, t1> is its block of rows x*t0.. and
    /// columns y*t1..; the tiles cover the tensor once.
    #[test]
    fn a_tile_is_the_block_at_its_coordinate(t0 in 1i64..5, t1 in 1i64..5, gx in 1i64..4, gy in 1i64..4, row in any::<bool>()) {
        let (m, n) = (t0 * gx, t1 * gy);
        let l = matrix(m, n, row);
        let mut seen = vec![0; (m * n) as usize];
        for x in 0..gx {
            for y in 0..gy {
                let coord = format!("({x},{y})").parse().unwrap();
                let (t, off) = tensor::local_tile(&l, &format!("<{t0},{t1}>").parse().unwrap(), &coord, None).unwrap();
                for a in 0..t0 {
                    for b in 0..t1 {
                        let got = off.value() + at(&t, a, b);
                        prop_assert_eq!(got, at(&l, x * t0 + a, y * t1 + b));
                        seen[got as usize] += 1;
                    }
                }
            }
        }
        prop_assert!(seen.iter().all(|&c| c == 1));
    }

    /// Thread `k` of a compact (p, q) thread layout, at coordinate (i, j), holds element
    /// (i + p*a, j + q*b) of the tensor as its element (a, b); the threads' parts cover the
    /// tensor once.
    #[test]
    fn a_part_is_every_element_at_the_thread_coordinate(p in 1i64..5, q in 1i64..5, gx in 1i64..4, gy in 1i64..4, row in any::<bool>(), trow in any::<bool>()) {
        let (m, n) = (p * gx, q * gy);
        let l = matrix(m, n, row);
        let threads = matrix(p, q, trow);
        let mut seen = vec![0; (m * n) as usize];
        for i in 0..p {
            for j in 0..q {
                let k = at(&threads, i, j);
                let (part, off) = tensor::local_partition(&l, &threads, Int::st(k), None).unwrap();
                for a in 0..gx {
                    for b in 0..gy {
                        let got = off.value() + at(&part, a, b);
                        prop_assert_eq!(got, at(&l, i + p * a, j + q * b));
                        seen[got as usize] += 1;
                    }
                }
            }
        }
        prop_assert!(seen.iter().all(|&c| c == 1));
    }
}
