#!/usr/bin/env python3
"""Generate tests/static_algebra_1.rs and _2.rs: the corpus's coalesce (also by profile), filter, get, make_layout_left/right, right_inverse, left_inverse, composition, complement (also of cosize),
logical_divide, zipped/tiled/flat_divide, logical_product, zipped/tiled/flat_product, blocked_product and raked_product cases (no profile, no negative stride:
cute-static leaves are unsigned) through cute-static's type-level coalesce, against the expected
text (C++'s where the recheck gives one), and each case again with every other leaf made a
run-time `{v}`, against cute-dyn's coalesce of the same literal (static flags included).
Run: python3 tests/data/gen_static_algebra.py
"""
import os, re
here = os.path.dirname(os.path.abspath(__file__))
# The corpus cases where C++ 4.2 returns a layout that is not the composition (tests/conformance.rs
# lists and proves them): we reject those, at compile time here.
deviations = set(re.findall(r'expr: "([^"]+)"', open(os.path.join(here, "..", "conformance.rs")).read()))
# The operations with a layout and a right-hand side (a layout or a by-mode tiler).
TWO = ("composition", "logical_divide", "logical_product", "zipped_divide", "tiled_divide", "flat_divide",
       "zipped_product", "tiled_product", "flat_product", "blocked_product", "raked_product")
# Static-only operations on one layout (no mixed-leaf variant).
ONE = ("right_inverse", "left_inverse")
def top_level_comma(arg):
    """The index of the first comma outside parentheses, or None."""
    depth = 0
    for i, c in enumerate(arg):
        depth += c == "("
        depth -= c == ")"
        if c == "," and depth == 0:
            return i
    return None

cases = []
for line in open(os.path.join(here, "conformance.tsv")):
    if line.startswith("#"):
        continue
    expr, expected, origin = line.rstrip("\n").split("\t")
    op = expr[:expr.index("(")]
    if op not in ("coalesce", "filter", "complement", "get", "make_layout_left", "make_layout_right") + ONE + TWO or expected == "error" or "-" in expr or expr in deviations:
        continue
    if op == "get":
        lay, _, i = expr[len(op) + 1:-1].rpartition(",")
        if ":" in lay and re.fullmatch(r"[0-9(),:]+", lay):
            cases.append((op, f"layout!({lay}).get::<{i}>", expected, None))
        continue
    if op in ("make_layout_left", "make_layout_right"):
        arg = expr[len(op) + 1:-1]
        if re.fullmatch(r"[0-9(),]+", arg):
            cases.append((op, f"shape!({arg})", expected, arg))
        continue
    if op == "complement":
        arg = expr[len(op) + 1:-1]
        if not re.fullmatch(r"[0-9(),:]+", arg):
            continue
        if top_level_comma(arg) is None:
            cases.append(("complement_cosize", f"layout!({arg})", expected, None))
            continue
        lay, _, cot = arg.rpartition(",")
        if ":" not in lay or ":" in cot or not cot.isdigit():
            continue  # the default cotarget (cosize) is not yet type-level
        cases.append((op, f"layout!({lay}), shape!({cot})", expected, None))
        continue
    arg = expr[len(op) + 1:-1]
    if op not in TWO and (arg.count(":") != 1 or not re.fullmatch(r"[0-9(),:]+", arg)):
        continue
    if op in TWO and not re.fullmatch(r"[0-9(),:<>_]+", arg):
        continue
    if op in TWO:
        # two layout arguments, split at the top-level comma
        depth = 0
        for i, c in enumerate(arg):
            depth += c == "("
            depth -= c == ")"
            if c == "," and depth == 0:
                a, b = arg[:i], arg[i + 1:]
                break
        if b.startswith("<") and op in ("blocked_product", "raked_product"):
            continue
        rhs = f"tiler!({b})" if b.startswith("<") else f"layout!({b})"
        cases.append((op, f"layout!({a}), {rhs}", expected, None))
        continue
    # a profile argument would follow the layout at depth 0
    depth, top_comma = 0, False
    for c in arg:
        depth += c == "("
        depth -= c == ")"
        top_comma |= c == "," and depth == 0
    if top_comma:
        if op == "coalesce":
            i = top_level_comma(arg)
            lay, prof = arg[:i], arg[i + 1:]
            if ":" not in prof:
                cases.append(("coalesce_by", f"layout!({lay}), shape!({prof})", expected, None))
        continue
    cases.append((op, f"layout!({arg})", expected, None if op in ONE else arg))

import random

def mixed(lit):
    """Each leaf made run-time (`{v}`) or left static at random (seeded by the literal, so the
    generated file is stable)."""
    rng = random.Random(lit)
    return re.sub(r"\d+", lambda m: "{%s}" % m.group(0) if rng.random() < 0.5 else m.group(0), lit)

fns = []
for j in range(0, len(cases), 40):
    chunk = cases[j:j + 40]
    body = "\n".join(f'    assert_eq!({a}().to_string(), "{e}");' if op == "get" else f'    assert_eq!({op}({a}).to_string(), "{e}");' for op, a, e, _ in chunk)
    fns.append(f"#[test]\nfn static_{j // 40}() {{\n{body}\n}}\n")
    # Mixed leaves (random static/run-time choices) for the operations that take them.
    def mixed_check(op, r):
        m = mixed(r)
        if op.startswith("make_layout"):
            # cute-static's run-time leaves carry no known divisor (cute-dyn's products do):
            # compare values and static flags (the cpp style), not divisors.
            return (f"    assert_eq!({op}(shape!({m})).to_styled(dy::Style::Cpp)?, "
                    f"dy::{op}(&int_tuple_dyn!({m})?)?.to_styled(dy::Style::Cpp));")
        return f"    assert_eq!({op}(layout!({m})).to_dyn()?, dy::{op}(&layout_dyn!({m})?)?);"
    body = "\n".join(mixed_check(op, r) for op, _, _, r in chunk if r is not None)
    fns.append(f"#[test]\nfn mixed_{j // 40}() -> Result<(), dy::Error> {{\n{body}\n    Ok(())\n}}\n")
HEADER = """// generated by tests/data/gen_static_algebra.py from the conformance corpus; do not edit
//! cute-static's type-level algebra against the corpus, and (random static/run-time leaf
//! choices) coalesce, filter and make_layout_left/right against cute-dyn.
#![allow(clippy::all)]
// Each of the two crates uses some of the operations.
#![allow(unused_imports)]
use cute::cute_dyn as dy;
use cute::cute_static::{blocked_product, raked_product, coalesce, coalesce_by, complement_cosize, complement, composition, filter, int_tuple_dyn, layout, left_inverse, make_layout_left, make_layout_right, right_inverse, layout_dyn, logical_divide, logical_product, shape, tiled_divide, tiler, zipped_divide, flat_divide, zipped_product, tiled_product, flat_product};

"""
# Two test crates, so that their (long) type checking runs on two cores.
half = (len(fns) + 1) // 2
for part, chunk in ((1, fns[:half]), (2, fns[half:])):
    src = HEADER + "\n".join(chunk)
    open(os.path.join(here, "..", f"static_algebra_{part}.rs"), "w").write(src)
from collections import Counter
print(len(cases), "cases:", ", ".join(f"{op} {n}" for op, n in sorted(Counter(c[0] for c in cases).items())))
