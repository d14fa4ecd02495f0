//! Composed layouts `A o O o B` against CuTe C++ 4.2 (tests/data/composed/: `gen_composed.py`
//! writes and runs the g++ driver `gen_cxx_composed.cpp`): 60 random swizzles over
//! shared-memory-like layouts `Sw<B,M,S> o 0 o L`, 29 operations each; 15 nested compositions
//! `Sw1 o 0 o Sw o 0 o L`; 20 layouts as the outer function `A o O o B` (C++'s
//! `composition(LayoutA, Offset, LayoutB)`), 28 operations each; 12 swizzles with an offset,
//! whose inverses are C++'s `R o -O o Sw` (a swizzle innermost), evaluated. Every answer C++
//! gives is ours, printed in the cpp style, unless C++'s answer breaks the operation's own law
//! (then we refuse, or give the answer that keeps it, and the test shows C++'s broken); every
//! operation C++ refuses with a static_assert we refuse too. And the laws: a swizzle is a
//! bijection on its domain and its own inverse; slicing then evaluating is evaluating then
//! restricting; parse o print round-trips.

mod common;

use common::args;
use cute::cute_dyn::{
    self, parse_styled, ComposedLayout, Coord, Error, IntTuple, Layout, MaybeComposed, Notation, Style, Swizzle, Tuple,
};
use cute_cli::eval::{eval, eval_value, Value};
use proptest::prelude::*;
use std::ops::Not;

const ANSWERS: &str = include_str!("data/composed/cxx_composed.tsv");
const REFUSED: &str = include_str!("data/composed/cxx_refused.txt");

/// `op(C)` for an inverse (`right_inverse` / `left_inverse`) and C's text.
fn inverse_operand(expr: &str) -> Option<(&str, &str)> {
    ["right_inverse", "left_inverse"]
        .into_iter()
        .find_map(|op| Some((op, expr.strip_prefix(op)?.strip_prefix('(')?.strip_suffix(')')?)))
}

/// `logical_product(A, Sw o 0 o L)`'s operands.
fn product_operands(expr: &str) -> Option<(Layout, ComposedLayout)> {
    let args = expr.strip_prefix("logical_product(")?.strip_suffix(')')?;
    let split = args.find(",Sw<")?;
    Some((args[..split].parse().ok()?, args[split + 1..].parse().ok()?))
}

/// `composition(A, Sw o 0 o L)`'s operands.
fn composition_operands(expr: &str) -> Option<(Layout, ComposedLayout)> {
    let args = expr.strip_prefix("composition(")?.strip_suffix(')')?;
    let split = args.find(",Sw<")?;
    Some((args[..split].parse().ok()?, args[split + 1..].parse().ok()?))
}

/// Where C++'s inverse is not one: the first index at which its law fails. A right inverse
/// `R` must give `C(R(i)) == i` for every `i < size(R)` (CuTe's `@post`); where `C` has an
/// offset its image does not start at 0 and no `R` can, so there for the `i < size(R)` that `C`
/// reaches. A left inverse must give `R(C(i)) == i` for every `i < size(C)`.
fn law_breaks(op: &str, c: &ComposedLayout, r: &ComposedLayout) -> Option<i64> {
    let (n, m) = (c.domain().unwrap(), r.domain().unwrap());
    if op == "left_inverse" {
        return (0..n).find(|&i| c.call_index(i).and_then(|x| r.call_index(x)).is_ok_and(|x| x == i).not());
    }
    let offsets = c.outer().iter().any(|&(o, _)| o.value() != 0);
    let reached: std::collections::HashSet<i64> = (0..n).map(|i| c.call_index(i).unwrap()).collect();
    (0..m)
        .filter(|i| !offsets || reached.contains(i))
        .find(|&i| r.call_index(i).and_then(|x| c.call_index(x)).is_ok_and(|x| x == i).not())
}

/// Where `[R, off] = domain_offset(c, X)` (the answer's text) breaks the definition `R(d) + off
/// == X(c + d)`, for a flat coordinate `c` and every `d` with `c + d` in X's flat shape: the
/// first such `d`.
fn domain_offset_law_breaks(expr: &str, answer: &str) -> Option<Vec<i64>> {
    let a = args(expr);
    let x: ComposedLayout = a[1].parse().unwrap();
    let c: Vec<i64> = a[0].parse::<IntTuple>().unwrap().leaves().iter().map(|v| v.value()).collect();
    let (text, off) = answer.trim_matches(['[', ']']).rsplit_once(',').unwrap();
    let r: ComposedLayout = text.replace('_', "").parse().unwrap();
    let off: i64 = off.trim_start_matches('_').parse().unwrap();
    let profile = x.layout().unwrap().shape();
    let shape: Vec<i64> = profile.leaves().iter().map(|v| v.value()).collect();
    // A flat coordinate, nested as the shape.
    let coord = |v: &[i64]| -> Coord { IntTuple::ints(v).unflatten(&profile).unwrap().to_coord() };
    let mut d = vec![0i64; c.len()];
    loop {
        let cd: Vec<i64> = c.iter().zip(&d).map(|(a, b)| a + b).collect();
        if r.call(&coord(&d)).ok().map(|v| v + off) != x.call(&coord(&cd)).ok() {
            return Some(d);
        }
        // The next d, colexicographically, with c + d inside the shape.
        let mut k = 0;
        loop {
            if k == d.len() {
                return None;
            }
            d[k] += 1;
            if c[k] + d[k] < shape[k] {
                break;
            }
            d[k] = 0;
            k += 1;
        }
    }
}

#[test]
fn every_answer_of_cxx_is_ours_or_breaks_its_law() {
    let cxx_of: std::collections::HashMap<&str, &str> =
        ANSWERS.lines().map(|l| l.split('\t').collect::<Vec<_>>()).map(|f| (f[1], f[2])).collect();
    let (mut same, mut cxx_wrong) = (0, 0);
    for line in ANSWERS.lines() {
        let mut f = line.split('\t');
        let (style, expr, cxx) = (f.next().unwrap(), f.next().unwrap(), f.next().unwrap());
        let style = if style == "cpp" { Style::Cpp } else { Style::Values };
        match eval(expr, style) {
            Ok(ours) if ours != cxx && expr.starts_with("slice_and_offset(") => {
                // C++ folds a swizzle's offset into the fixed bits with an xor: where that is
                // not the sum its answer is not the slice, and ours is C++'s general rule.
                let (text, off) = cxx.trim_matches(['[', ']']).rsplit_once(',').unwrap();
                let slice = match eval_value(&text.replace('_', "")).unwrap() {
                    Value::Layout(l) => MaybeComposed::Layout(l),
                    Value::Composed(k) => MaybeComposed::Composed(k),
                    v => panic!("{v:?}"),
                };
                let off = off.trim_start_matches('_').parse().unwrap();
                assert!(slice_law_breaks(expr, &slice, off).is_some(), "{expr}: C++'s {cxx} is the slice, ours {ours}");
                cxx_wrong += 1;
            }
            Ok(ours) if ours != cxx && expr.starts_with("domain_offset(") => {
                // C++ adds a nested chain's inner value to the outermost offset (issue #48):
                // ours keeps the definition; C++'s breaks it, or is the same function where
                // the outer swizzle happens to commute with that offset.
                assert_eq!(domain_offset_law_breaks(expr, &ours), None, "{expr}: ours {ours}");
                match domain_offset_law_breaks(expr, cxx) {
                    Some(_) => cxx_wrong += 1,
                    None => same += 1,
                }
            }
            Ok(ours) => {
                assert_eq!(ours, cxx, "{expr}");
                // Parse o print round-trips (nested compositions too), in C++'s own style.
                if ours.contains(" o ") && !ours.starts_with('[') {
                    let back: ComposedLayout = parse_styled(&ours, Style::Cpp).unwrap();
                    assert_eq!(back.to_styled(Style::Cpp), ours, "{expr}");
                }
                same += 1;
            }
            Err(e @ Error::Postcondition { .. }) => {
                // C++ moves a swizzle "in simple cases" (swizzle_layout.hpp): its answer must
                // be shown to break the operation's law. `call(inverse(C), i)` evaluates an
                // inverse the driver also asks for.
                let (expr, cxx) = match expr.strip_prefix("call(") {
                    Some(_) => (args(expr)[0], cxx_of[args(expr)[0]]),
                    None => (expr, cxx),
                };
                let r: ComposedLayout = cxx.replace('_', "").parse().unwrap();
                let at = if let Some((op, c)) = inverse_operand(expr) {
                    law_breaks(op, &c.parse().unwrap(), &r)
                } else if let Some((a, t)) = product_operands(expr) {
                    // logical_product(A, Sw o 0 o L) = (A, C o Sw o L), C = complement(A, size(A) * cosize(L))
                    let n = a.size().unwrap().value();
                    let cot = n * t.layout().unwrap().cosize().unwrap().value();
                    let c = cute_dyn::complement(&a, &IntTuple::int(cot)).unwrap();
                    let want = |k: i64| Some(a.call(k % n).ok()? + c.call(t.call_index(k / n).ok()?).ok()?);
                    (0..r.size().unwrap().value()).find(|&k| r.call_index(k).ok() != want(k))
                } else {
                    let (a, c) = composition_operands(expr).unwrap_or_else(|| panic!("{expr}: {e}"));
                    let n = c.size().unwrap().value();
                    (0..n).find(|&i| r.call_index(i).ok() != c.call_index(i).and_then(|x| a.call(x)).ok())
                };
                assert!(at.is_some(), "{expr}: C++'s {cxx} keeps the law, and we refused: {e}");
                cxx_wrong += 1;
            }
            Err(e) => panic!("{expr}: C++ answers {cxx}, we refuse: {e}"),
        }
    }
    eprintln!("{same} answers of C++ are ours, {cxx_wrong} break their law");
    assert!(same >= 2500, "{same} answers compared");
    // 80 before the nested chains' domain_offset (issue #48), whose C++ answers are each shown
    // above to break the definition.
    assert!(cxx_wrong <= 90, "{cxx_wrong} answers of C++ break their law");
}

#[test]
fn every_refusal_of_cxx_is_ours() {
    let mut n = 0;
    for expr in REFUSED.lines() {
        assert!(eval(expr, Style::Cpp).is_err(), "{expr}: C++ refuses it (static_assert)");
        n += 1;
    }
    assert!(n > 0);
}

/// `coord` with its `_` modes filled from `fill` (the coordinates of the slice's modes, in
/// order).
fn fill_under(coord: &Coord, fill: &mut impl Iterator<Item = IntTuple>) -> Coord {
    match coord {
        Tuple::Leaf(None) => fill.next().expect("a mode per `_`").map(&mut |x| Some(*x)),
        Tuple::Leaf(Some(x)) => Tuple::Leaf(Some(*x)),
        Tuple::Node(v) => Tuple::Node(v.iter().map(|c| fill_under(c, fill)).collect()),
    }
}

/// The pair a `slice_and_offset` gives.
fn slice_pair(v: Value) -> (MaybeComposed, i64) {
    let Value::Pair(s, off) = v else { panic!("a pair") };
    let (Value::Int(off), slice) = (*off, *s) else { panic!("an offset") };
    let slice = match slice {
        Value::Layout(l) => MaybeComposed::Layout(l),
        Value::Composed(k) => MaybeComposed::Composed(k),
        v => panic!("{v:?}"),
    };
    (slice, off.value())
}

/// Where `off + slice(j)` is not `C` at the coordinate with its `_` modes at `j`, for the
/// expression `slice_and_offset(coord, C)`: the first such `j`.
fn slice_law_breaks(expr: &str, slice: &MaybeComposed, off: i64) -> Option<i64> {
    let (coord, c): (Coord, ComposedLayout) = (args(expr)[0].parse().unwrap(), args(expr)[1].parse().unwrap());
    let modes = cute_dyn::slice(&coord, &c.layout().unwrap().shape()).unwrap();
    (0..slice.size().unwrap().value()).find(|&j| {
        let crd = cute_dyn::idx2crd(&IntTuple::int(j), &modes).unwrap();
        let full = fill_under(&coord, &mut crd.modes().into_iter());
        off + slice.call_index(j).unwrap() != c.call(&full).unwrap()
    })
}

#[test]
fn slicing_then_evaluating_is_evaluating_then_restricting() {
    let mut n = 0;
    for line in ANSWERS.lines().filter(|l| l.contains("\tslice_and_offset(")) {
        let expr = line.split('\t').nth(1).unwrap();
        let (slice, off) = slice_pair(eval_value(expr).unwrap());
        assert_eq!(slice_law_breaks(expr, &slice, off), None, "{expr}");
        n += 1;
    }
    assert!(n >= 100, "{n} slices");
}

proptest! {
    /// A swizzle permutes `[0, 2^(B+M+|S|))` and is its own inverse (it xors bits with bits
    /// it leaves alone); every index past the domain keeps its high bits.
    #[test]
    fn a_swizzle_is_an_involution_and_a_bijection(b in 0i64..4, m in 0i64..5, s in 0i64..6, neg in any::<bool>()) {
        prop_assume!(s >= b);
        let sw = Swizzle::new(b, m, if neg { -s } else { s }).unwrap();
        let n = 1i64 << (b + m + s);
        let mut seen = vec![false; n as usize];
        for x in 0..n {
            let y = sw.apply(x).unwrap();
            prop_assert!((0..n).contains(&y));
            prop_assert!(!seen[y as usize], "{} maps two offsets to {}", sw, y);
            seen[y as usize] = true;
            prop_assert_eq!(sw.apply(y).unwrap(), x);
            prop_assert_eq!(sw.apply(x + 3 * n).unwrap(), y + 3 * n);
        }
    }

    /// Evaluation of a composed layout is the swizzle of the offset plus the inner layout, at
    /// every index, for random row-major tiles.
    #[test]
    fn composed_evaluation_is_the_outer_of_the_inner(b in 1i64..4, m in 0i64..4, s in 1i64..5, r in 1u32..5, c in 1u32..6) {
        prop_assume!(s >= b);
        let (r, c) = (1i64 << r, 1i64 << c);
        let l: Layout = format!("({r},{c}):({c},1)").parse().unwrap();
        let sw = Swizzle::new(b, m, s).unwrap();
        let k = ComposedLayout::compose(sw, &l).unwrap();
        for i in 0..r * c {
            prop_assert_eq!(k.call_index(i).unwrap(), sw.apply(l.call(i).unwrap()).unwrap());
        }
    }
}

/// `domain_offset(c, X)` by its definition, `R(d) + off == X(c + d)`, on nested chains
/// (issue #48: the inner chain's value was added to the outer offset, image `(6,7,8,9)` where
/// the definition gives `(3,4,5,6)`), rank-1 layouts at integer coordinates.
#[test]
fn domain_offset_of_nested_chains_is_its_definition() {
    for (expr, c) in [
        ("8:1 o 0 o 8:1 o 3 o 4:1", 0),
        ("8:1 o 0 o 8:1 o 3 o 4:1", 1),
        ("Sw<1,0,1> o 0 o Sw<1,0,1> o 0 o 4:1", 1),
        ("Sw<1,0,1> o 0 o Sw<2,0,2> o 2 o 8:1", 3),
        ("Sw<3,3,3> o 0 o 512:1", 70),
    ] {
        let x: ComposedLayout = expr.parse().unwrap();
        let (r, off) = x.domain_offset(&Coord::Leaf(Some(cute::cute_dyn::Int::st(c)))).unwrap();
        let n = x.size().unwrap().value();
        for d in 0..n - c {
            assert_eq!(
                r.call_index(d).unwrap() + off.value(),
                x.call_index(c + d).unwrap(),
                "domain_offset({c}, {expr}) = {r} at {d}"
            );
        }
    }
    let x: ComposedLayout = "8:1 o 0 o 8:1 o 3 o 4:1".parse().unwrap();
    let (r, _) = x.domain_offset(&Coord::Leaf(Some(cute::cute_dyn::Int::st(0)))).unwrap();
    let image: Vec<i64> = (0..4).map(|d| r.call_index(d).unwrap()).collect();
    assert_eq!(image, [3, 4, 5, 6]);
}

/// A run-time offset stays a run-time integer through every operation and print style (issue
/// #48, item 4): C++ prints `Sw<1,3,-1> o 256 o ...` (an `int`, not `_256`), the DSL `?`; and
/// `max_alignment` reads what is known of it, its divisor, not the value a kernel may not have.
#[test]
fn a_run_time_offset_keeps_its_flag() {
    let text = "Sw<1,3,-1> o {256} o (16,32):(1,16)";
    let c: ComposedLayout = text.parse().unwrap();
    assert!(c.to_styled(Style::Cpp).starts_with("Sw<1,3,-1> o 256 o "), "{}", c.to_styled(Style::Cpp));
    assert!(c.to_styled(Style::Dsl).starts_with("Sw<1,3,-1> o ? o "), "{}", c.to_styled(Style::Dsl));
    // Every operation that keeps the composition keeps the offset's flag (`o {v} o` in the
    // values style), and its values are the static offset's answer's.
    let values = |text: &str| -> String {
        // `{v}` and `{v:d}` read as `v`.
        let mut out = String::new();
        let mut braced = None::<String>;
        for ch in text.chars() {
            match (ch, &mut braced) {
                ('{', _) => braced = Some(String::new()),
                ('}', Some(v)) => {
                    out.push_str(v.split(':').next().unwrap());
                    braced = None;
                }
                (_, Some(v)) => v.push(ch),
                (_, None) => out.push(ch),
            }
        }
        out
    };
    for expr in [
        "composition(C, (4,8):(1,16))",
        "logical_divide(C, <4,8>)",
        "zipped_divide(C, <4,8>)",
        "tile_to_shape(C, (32,64))",
        "coalesce(C)",
        "domain_offset((1,0), C)",
        "upcast(C, 2)",
        "downcast(C, 2)",
        "slice((_,3), C)", // the swizzle decays into strides here: a layout, run-time strides
    ] {
        let dynamic = eval(&expr.replace('C', text), Style::Values).unwrap();
        let fixed = eval(&expr.replace('C', &text.replace("{256}", "256")), Style::Values).unwrap();
        assert!(dynamic.contains(" o {") || expr.starts_with("slice"), "{expr}: {dynamic}");
        assert!(dynamic.contains('{'), "{expr}: {dynamic}");
        assert_eq!(values(&dynamic), fixed, "{expr}");
    }
    // The offset 4 at run time: its divisor is not known, so it aligns nothing.
    let at = |text: &str| eval(&format!("max_alignment({text})"), Style::Values).unwrap();
    assert_eq!(at("Sw<1,1,1> o {4} o 4:1"), "1");
    assert_eq!(at("Sw<1,1,1> o 4 o 4:1"), "2");
    assert_eq!(at("Sw<1,1,1> o 0 o 4:{1}"), "1");
}

/// A layout over a swizzled layout, sliced (issue #48, item 4): C++ slices the inner swizzle by
/// its rule and moves the offset out; CuTe C++ 4.2's answer, which is the slice (checked on
/// every index here too).
#[test]
fn a_layout_over_a_swizzle_slices_as_cxx() {
    let text = "(32,4):(4,1) o 0 o Sw<2,0,3> o 0 o (8,8,2):(1,8,64)";
    let got = eval(&format!("slice_and_offset((3,_,_), {text})"), Style::Cpp).unwrap();
    assert_eq!(got, "[(_32,_4):(_4,_1) o _3 o ((_4,_2),_2):((_7,_32),_64),_0]");
    let x: ComposedLayout = text.parse().unwrap();
    for row in 0..8 {
        let c: Coord = format!("({row},_,_)").parse().unwrap();
        let (r, off) = x.slice_and_offset(&c).unwrap();
        for j in 0..16 {
            let (b, k) = (j % 8, j / 8);
            let at: Coord = format!("({row},{b},{k})").parse().unwrap();
            assert_eq!(r.call_index(j).unwrap() + off.value(), x.call(&at).unwrap(), "row {row} at {j}");
        }
    }
}

/// The inverses of a layout over a swizzled layout (issue #48, item 4: refused before): C++'s
/// `composition(inverse(Sw o 0 o L), -O, inverse(A))`, each checked here by its law on every
/// index.
#[test]
fn a_layout_over_a_swizzle_has_inverses() {
    for text in [
        "(16,32):(32,1) o 0 o Sw<2,4,3> o 0 o (16,32):(1,16)",
        "(8,64):(64,1) o 0 o Sw<3,3,3> o 0 o (64,8):(1,64)",
        "(4,8):(8,1) o 0 o Sw<1,2,3> o 0 o (8,4):(4,1)",
    ] {
        let x: ComposedLayout = text.parse().unwrap();
        let n = x.size().unwrap().value();
        let right = x.right_inverse().unwrap_or_else(|e| panic!("right_inverse({text}): {e}"));
        let left = x.left_inverse().unwrap_or_else(|e| panic!("left_inverse({text}): {e}"));
        let offset = x.outer().iter().any(|(o, _)| o.value() != 0);
        for i in 0..n {
            assert_eq!(left.call_index(x.call_index(i).unwrap()).unwrap(), i, "left_inverse({text}) at {i}");
            // With an offset the image of X does not start at 0: the law where X reaches i.
            let reached = !offset || (0..n).any(|c| x.call_index(c).unwrap() == i);
            if reached && i < right.size().unwrap().value() {
                assert_eq!(x.call_index(right.call_index(i).unwrap()).unwrap(), i, "right_inverse({text}) at {i}");
            }
        }
    }
}

/// A run-time coordinate that fixes no Y/Z bit of the swizzle leaves the slice's strides
/// static, as C++'s (issue #48, item 4): `slice_and_offset((_,{7}), Sw<1,4,4> o 0 o
/// (16,16):(16,1))` is CuTe C++ 4.2's `[(_16):(_16),7]`, and the slice.
#[test]
fn a_run_time_coordinate_off_the_swizzle_bits_keeps_cxx_form() {
    let text = "Sw<1,4,4> o 0 o (16,16):(16,1)";
    assert_eq!(eval(&format!("slice_and_offset((_,{{7}}), {text})"), Style::Cpp).unwrap(), "[(_16):(_16),7]");
    let x: ComposedLayout = text.parse().unwrap();
    for col in 0..16 {
        let (r, off) = x.slice_and_offset(&format!("(_,{{{col}}})").parse().unwrap()).unwrap();
        for row in 0..16 {
            let at: Coord = format!("({row},{col})").parse().unwrap();
            assert_eq!(r.call_index(row).unwrap() + off.value(), x.call(&at).unwrap(), "column {col}, row {row}");
        }
    }
}
