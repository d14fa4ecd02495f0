//! Tiled MMAs against CuTe C++ 4.2 (tests/data/mma/: `gen_mma.py` writes and runs the g++
//! driver `gen_cxx_mma.cpp`): for 35 tiled MMAs over the SM75/SM80 `mma.sync` atoms (F16,
//! BF16, TF32, F64 and its complex forms, S8/U8, S4/U4, B1), SM90 warpgroup MMAs and the universal FMA, with atom layouts and
//! permutations, the atoms' layouts, `thr_layout_vmnk`, `tile_size_mnk`, the A/B/C
//! thread-value layouts and random threads' `partition_A/B/C` of column- and row-major operands
//! with run-time extents (layout, static flags included, and data offset) equal C++'s. And the
//! definition: the C thread-value layout of every tiled MMA is a bijection onto its tile. And
//! `cute eval`'s MMA operations (`tiled_mma`, `layout_c_tv`, `partition_a`, ...) on the same lines.

use cute::cute_dyn::copy::{CopyAtom, TiledCopy};
use cute::cute_dyn::mma::{MmaAtom, TiledMma};
use cute::cute_dyn::{parse_styled, Int, Layout, Notation, Style, Tiler};

const ANSWERS: &str = include_str!("data/mma/cxx_mma.tsv");

/// The tiled MMA `atom;atom_layout;perm perm perm` of a line.
fn tiled(key: &str) -> TiledMma {
    let mut f = key.split(';');
    let (atom, layout, perms) = (f.next().unwrap(), f.next().unwrap(), f.next().unwrap());
    let perms: Vec<Tiler> = match perms {
        "_" => vec![],
        p => p
            .split(' ')
            .map(|x| match x {
                "_" => Tiler::Under,
                x if x.contains(':') => Tiler::Layout(x.parse().unwrap()),
                x => Tiler::Int(Int::st(x.parse().unwrap())),
            })
            .collect(),
    };
    TiledMma::new(MmaAtom::named(atom).unwrap(), &layout.parse().unwrap(), &perms).unwrap()
}

fn cpp(l: &Layout) -> String {
    l.to_styled(Style::Cpp)
}

/// The tiled copy `copy:atom;bits;thr_layout;val_layout` of a line.
fn tiled_copy(key: &str) -> TiledCopy {
    let f: Vec<&str> = key.strip_prefix("copy:").unwrap().split(';').collect();
    let atom = CopyAtom::new(f[0], f[1].parse().unwrap()).unwrap();
    TiledCopy::new(atom, &f[2].parse().unwrap(), &f[3].parse().unwrap()).unwrap()
}

/// `partition_X thr layout`: the thread and the operand (C++'s print: run-time extents).
fn operand(what: &str) -> (&str, Int, Layout) {
    let mut p = what.splitn(3, ' ');
    let (op, thr, layout) = (p.next().unwrap(), p.next().unwrap(), p.next().unwrap());
    (op, Int::dy(thr.parse().unwrap()), parse_styled(layout, Style::Cpp).unwrap())
}

fn with_offset((l, off): (Layout, Int)) -> String {
    format!("[{},_{}]", cpp(&l), off.value())
}

/// The tiled copy `copymma:atom;bits;mma atom;mma layout;perms;operand` of a line
/// (`make_tiled_copy_A/B/C`).
fn copy_for_mma(key: &str) -> TiledCopy {
    let f: Vec<&str> = key.strip_prefix("copymma:").unwrap().split(';').collect();
    let atom = CopyAtom::new(f[0], f[1].parse().unwrap()).unwrap();
    let m = tiled(&f[2..5].join(";"));
    match f[5] {
        "A" => TiledCopy::for_mma_a(atom, &m),
        "B" => TiledCopy::for_mma_b(atom, &m),
        _ => TiledCopy::for_mma_c(atom, &m),
    }
    .unwrap()
}

/// A tiled copy's answer for `what`.
fn copy_answer(key: &str, what: &str) -> String {
    let c = if key.starts_with("copymma:") { copy_for_mma(key) } else { tiled_copy(key) };
    if let Some(frg) = what.strip_prefix("retile ") {
        return cpp(&c.retile(&parse_styled(frg, Style::Cpp).unwrap()).unwrap());
    }
    match what {
        "atom_src" => cpp(&c.atom().layout_src),
        "atom_dst" => cpp(&c.atom().layout_dst),
        "atom_ref" => cpp(&c.atom().layout_ref),
        "layout_tv" => cpp(c.layout_tv()),
        "tiler_mn" => c.tiler_mn().to_styled(Style::Cpp),
        "layout_s_tv" => cpp(&c.layout_s_tv().unwrap()),
        "layout_d_tv" => cpp(&c.layout_d_tv().unwrap()),
        w => {
            let (op, thr, l) = operand(w);
            with_offset(if op == "partition_S" { c.partition_s(&l, thr) } else { c.partition_d(&l, thr) }.unwrap())
        }
    }
}

#[test]
fn every_answer_of_cxx_is_ours() {
    let mut n = 0;
    for line in ANSWERS.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let (key, what, cxx) = (f[0], f[1], f[2]);
        if key.starts_with("copy:") || key.starts_with("copymma:") {
            assert_eq!(copy_answer(key, what), cxx, "{key} {what}");
            n += 1;
            continue;
        }
        let m = tiled(key);
        let ours = match what {
            "atom_thr_id" => cpp(&m.atom().thr_id),
            "atom_a_tv" => cpp(&m.atom().layout_a_tv),
            "atom_b_tv" => cpp(&m.atom().layout_b_tv),
            "atom_c_tv" => cpp(&m.atom().layout_c_tv),
            "thr_layout_vmnk" => cpp(m.thr_layout_vmnk()),
            "tile_size_mnk" => format!(
                "(_{},_{},_{})",
                m.tile_size_mnk(0).unwrap(),
                m.tile_size_mnk(1).unwrap(),
                m.tile_size_mnk(2).unwrap()
            ),
            "layout_a_tv" => cpp(&m.layout_a_tv().unwrap()),
            "layout_b_tv" => cpp(&m.layout_b_tv().unwrap()),
            "layout_c_tv" => cpp(&m.layout_c_tv().unwrap()),
            w => {
                let (op, thr, l) = operand(w);
                match op {
                    "partition_A" => with_offset(m.partition_a(&l, thr).unwrap()),
                    "partition_B" => with_offset(m.partition_b(&l, thr).unwrap()),
                    "partition_C" => with_offset(m.partition_c(&l, thr).unwrap()),
                    "partition_fragment_A" => cpp(&m.partition_fragment_a(&l, thr).unwrap()),
                    "partition_fragment_B" => cpp(&m.partition_fragment_b(&l, thr).unwrap()),
                    "partition_fragment_C" => cpp(&m.partition_fragment_c(&l, thr).unwrap()),
                    _ => panic!("{what}"),
                }
            }
        };
        assert_eq!(ours, cxx, "{key} {what}");
        n += 1;
    }
    assert!(n >= 300, "{n} answers");
}

/// The tiled MMA of a line as a `cute eval` expression: `tiled_mma(ATOM, layout, perms...)`.
fn eval_tiled(key: &str) -> String {
    let mut f = key.split(';');
    let (atom, layout, perms) = (f.next().unwrap(), f.next().unwrap(), f.next().unwrap());
    let perms = if perms == "_" { String::new() } else { format!(",{}", perms.replace(' ', ",")) };
    format!("tiled_mma({atom},{layout}{perms})")
}

/// `cute eval EXPR` in the cpp style is the driver's answer `cxx`. A partition's data offset is
/// a run-time value here (the thread is); the driver prints its value as `_N`.
fn assert_eval(expr: &str, cxx: &str) {
    let ours = cute_cli::eval::eval(expr, Style::Cpp).unwrap_or_else(|e| panic!("{expr}: {e}"));
    let split = |x: &str| x.rsplit_once(',').map(|(l, o)| (l.to_string(), o.trim_end_matches(']').replace('_', "")));
    if ours.starts_with('[') {
        assert_eq!(split(&ours), split(cxx), "{expr}");
    } else {
        assert_eq!(ours, cxx, "{expr}");
    }
}

/// `cute eval`'s MMA operations give C++'s answers too: every tiled-MMA line of the driver's
/// output, as an expression (the operands' run-time extents written `{v}`).
#[test]
fn cute_eval_gives_the_same_answers() {
    let mut n = 0;
    for line in ANSWERS.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let (key, what, cxx) = (f[0], f[1], f[2]);
        if key.starts_with("copy") || what.starts_with("atom_") {
            continue;
        }
        let m = eval_tiled(key);
        let expr = match what.split_once(' ') {
            None => format!("{what}({m})"),
            Some(_) => {
                let (op, thr, l) = operand(what);
                format!("{}({m},{},{})", op.to_lowercase(), l.to_styled(Style::Values), thr.value())
            }
        };
        assert_eval(&expr, cxx);
        n += 1;
    }
    assert!(n >= 280, "{n} answers");
}

/// Every (thread, value) of a tiled MMA's C layout is one element of the `(M,N)` tile, each
/// once: the threads own the accumulator tile without overlap (where no atoms tile K: those
/// threads hold partial sums of the same C).
#[test]
fn the_c_layout_covers_the_tile_once() {
    let keys: std::collections::BTreeSet<&str> =
        ANSWERS.lines().map(|l| l.split('\t').next().unwrap()).filter(|k| !k.starts_with("copy")).collect();
    let mut n = 0;
    for key in keys {
        let m = tiled(key);
        if m.thr_layout_vmnk().get(3).unwrap().size().unwrap().value() != 1 {
            continue;
        }
        n += 1;
        let c = m.layout_c_tv().unwrap();
        let (tm, tn) = (m.tile_size_mnk(0).unwrap(), m.tile_size_mnk(1).unwrap());
        let mut seen = vec![0; (tm * tn) as usize];
        for i in 0..c.size().unwrap().value() {
            seen[c.call(i).unwrap() as usize] += 1;
        }
        assert!(seen.iter().all(|&k| k == 1), "{key}");
    }
    assert!(n >= 20, "{n} tiled MMAs");
}

/// `SM80_16x8x128_S32U1U1S32_TN_*`, whose A layout C++ 4.2 cannot use (its value stride
/// `((16,8))` is not congruent with the shape `(32,2)`): ours is a bijection from (thread, value)
/// onto the `(16,128)` tile, and equal, on every (thread, value), to C++'s 16x8x256 A layout
/// (`atom_a_tv` in the driver's answers) at the first K half, as the instruction is.
#[test]
fn the_one_bit_16x8x128_atom_is_the_first_k_half_of_16x8x256() {
    let a128 = MmaAtom::named("SM80_16x8x128_S32U1U1S32_TN_XORPOPC").unwrap().layout_a_tv;
    let line = ANSWERS
        .lines()
        .find(|l| l.starts_with("SM80_16x8x256_S32U1U1S32_TN_ANDPOPC;") && l.contains("\tatom_a_tv\t"))
        .expect("the driver's 16x8x256 atom");
    let a256: Layout = parse_styled(line.split('\t').nth(2).unwrap(), Style::Cpp).unwrap();
    let mut seen = vec![0; 16 * 128];
    for t in 0..32 {
        for v in 0..64 {
            // 16x8x256's values are (32,2,2): the first 64 are those of K < 128.
            let (x, y) = (a128.call(t + 32 * v).unwrap(), a256.call(t + 32 * v).unwrap());
            assert_eq!(x, y, "thread {t} value {v}");
            seen[x as usize] += 1;
        }
    }
    assert!(seen.iter().all(|&k| k == 1));
}

/// `cute eval`'s tiled-copy operations give C++'s answers too: every tiled-copy line of the
/// driver's output, as an expression (`tiled_copy(ATOM,bits,thr,val)`,
/// `tiled_copy_a(ATOM,bits,tiled_mma(...))`, then `layout_tv`, `partition_s`, `retile`, ...).
#[test]
fn cute_eval_gives_the_same_copy_answers() {
    let mut n = 0;
    for line in ANSWERS.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        let (key, what, cxx) = (f[0], f[1], f[2]);
        let copy = if let Some(k) = key.strip_prefix("copy:") {
            let g: Vec<&str> = k.split(';').collect();
            format!("tiled_copy({},{},{},{})", g[0], g[1], g[2], g[3])
        } else if let Some(k) = key.strip_prefix("copymma:") {
            let g: Vec<&str> = k.split(';').collect();
            format!("tiled_copy_{}({},{},{})", g[5].to_lowercase(), g[0], g[1], eval_tiled(&g[2..5].join(";")))
        } else {
            continue;
        };
        if what.starts_with("atom_") {
            continue;
        }
        let expr = if let Some(frg) = what.strip_prefix("retile ") {
            format!("retile({copy},{})", parse_styled::<Layout>(frg, Style::Cpp).unwrap().to_styled(Style::Values))
        } else if let Some((_, _)) = what.split_once(' ') {
            let (op, thr, l) = operand(what);
            format!("{}({copy},{},{})", op.to_lowercase(), l.to_styled(Style::Values), thr.value())
        } else {
            format!("{what}({copy})")
        };
        assert_eval(&expr, cxx);
        n += 1;
    }
    assert!(n >= 120, "{n} answers");
}
