#!/usr/bin/env python3
"""Generator of tests/data/partition/cxx_partition.tsv: CuTe C++ 4.2's `local_tile`,
`local_partition`, `inner_partition` and `outer_partition` of tensors over random hierarchical
layouts, tilers (dividing or not), coordinates (full, short, with `_`, flat integers) and
projections (`Step<_1,X,_1>`, written `(1,_,1)`); then the tensor layer's layout helpers
(`make_layout_like`, `coshape`, `make_fragment_like`, `round_up`, `compact_col_major`,
`compact_row_major`, `domain_offset`, `ceil_div(shape, layout)`) on random layouts.

Each case builds `make_tensor(counting_iterator<int>(0), L)` and prints the result's layout and
its data offset as `[layout,_offset]` (the form `cute eval` prints with every input static),
after the `cute eval` expression that asks the same; a case C++ refuses (a static_assert) goes
to cxx_refused.txt. Run from this directory:

    python3 gen_partition.py <cutlass include> <cccl include> <cuda_runtime include> <cuda_nvcc include>
"""
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cxx_driver import build_dropping, cpp_layout, cpp_tuple  # noqa: E402

random.seed(20261201)


def mode():
    """A mode of a tensor: a leaf, or (rarely) a pair of leaves; its size."""
    if random.random() < 0.25:
        a, b = random.choice([2, 4]), random.choice([2, 3, 4])
        return [a, b], a * b
    s = random.choice([2, 3, 4, 6, 8, 12, 16])
    return s, s


def layout(rank):
    """A compact layout of `rank` modes, column- or row-major over its leaves."""
    modes = [mode() for _ in range(rank)]
    leaves = [x for m, _ in modes for x in (m if isinstance(m, list) else [m])]
    order = list(range(len(leaves)))
    if random.random() < 0.4:
        order.reverse()
    elif random.random() < 0.3:
        random.shuffle(order)
    strides, acc = [0] * len(leaves), 1
    for i in order:
        strides[i] = acc
        acc *= leaves[i]
    it = iter(strides)
    shape_t, stride_t = [], []
    for m, _ in modes:
        if isinstance(m, list):
            shape_t.append("(" + ",".join(map(str, m)) + ")")
            stride_t.append("(" + ",".join(str(next(it)) for _ in m) + ")")
        else:
            shape_t.append(str(m))
            stride_t.append(str(next(it)))
    text = f"({','.join(shape_t)}):({','.join(stride_t)})"
    return text, [size for _, size in modes]


def tile_of(size):
    """A tile extent for a mode: usually a divisor, sometimes not (a residue tile)."""
    divisors = [d for d in range(1, size + 1) if size % d == 0]
    if random.random() < 0.2:
        return random.choice([d for d in range(2, size + 2) if size % d != 0] or divisors)
    return random.choice(divisors)


def coord_for(grid):
    """A coordinate into the grid of tiles: full, short (C++ appends `_`), with a `_`."""
    c = [str(random.randrange(g)) for g in grid]
    kind = random.random()
    if kind < 0.2 and len(c) > 1:
        c = c[: random.randrange(1, len(c))]
    elif kind < 0.4:
        c[random.randrange(len(c))] = "_"
    return "(" + ",".join(c) + ")"


def cases():
    out = []
    for _ in range(90):
        rank = random.choice([2, 2, 3])
        text, sizes = layout(rank)
        k = random.randrange(1, rank + 1)
        tiles = [tile_of(s) for s in sizes[:k]]
        grid = [-(-s // t) for s, t in zip(sizes, tiles)] + sizes[k:]
        if random.random() < 0.15:
            coord = str(random.randrange(max(1, grid[0] * grid[-1])))
        else:
            coord = coord_for(grid)
        tiler = "<" + ",".join(map(str, tiles)) + ">"
        cxx_tiler = "make_shape(" + ",".join(f"Int<{t}>{{}}" for t in tiles) + ")"
        out.append(on_tensor(f"local_tile({text},{tiler},{coord})", f"local_tile(t, {cxx_tiler}, {cpp_tuple(coord)})", text))
    # Projections: a CTA tiler (BM,BN,BK) over A (M,K), B (N,K) and C (M,N).
    for _ in range(40):
        text, sizes = layout(2)
        proj = random.choice([["1", "_", "1"], ["_", "1", "1"], ["1", "1", "_"]])
        kept = iter(sizes)
        tiles = [tile_of(next(kept)) if p == "1" else random.choice([2, 4, 8]) for p in proj]
        kept = iter(sizes)
        grid = [-(-next(kept) // t) if p == "1" else 3 for p, t in zip(proj, tiles)]
        coord = "(" + ",".join("_" if i == 2 and random.random() < 0.5 else str(random.randrange(g)) for i, g in enumerate(grid)) + ")"
        p = "(" + ",".join(proj) + ")"
        tiler = "<" + ",".join(map(str, tiles)) + ">"
        cxx_tiler = "make_shape(" + ",".join(f"Int<{t}>{{}}" for t in tiles) + ")"
        step = "Step<" + ",".join("_1" if x == "1" else "X" for x in proj) + ">{}"
        out.append(on_tensor(f"local_tile({text},{tiler},{coord},{p})", f"local_tile(t, {cxx_tiler}, {cpp_tuple(coord)}, {step})", text))
    # Threads: compact thread layouts, each thread's part.
    for _ in range(60):
        text, sizes = layout(2)
        thr_sizes = [random.choice([d for d in [1, 2, 3, 4, 8] if d <= s]) for s in sizes]
        row = random.random() < 0.5
        strides = [thr_sizes[1], 1] if row else [1, thr_sizes[0]]
        thr = f"({thr_sizes[0]},{thr_sizes[1]}):({strides[0]},{strides[1]})"
        idx = random.randrange(thr_sizes[0] * thr_sizes[1])
        out.append(on_tensor(f"local_partition({text},{thr},{idx})", f"local_partition(t, {cpp_layout(thr)}, {idx})", text))
    for _ in range(20):
        text, sizes = layout(2)
        a, b = random.choice([1, 2, 4]), random.choice([1, 2, 4, 8])
        thr = random.choice([f"({a},{b},1):({b},1,0)", f"({a},1,{b}):(1,0,{a})", f"(1,{a},{b}):(0,1,{a})"])
        proj = random.choice(["(1,_,1)", "(_,1,1)", "(1,1,_)"])
        idx = random.randrange(a * b)
        step = "Step<" + ",".join("_1" if x == "1" else "X" for x in proj[1:-1].split(",")) + ">{}"
        out.append(on_tensor(f"local_partition({text},{thr},{idx},{proj})", f"local_partition(t, {cpp_layout(thr)}, {idx}, {step})", text))
    # inner_partition / outer_partition with flat integer coordinates.
    for _ in range(20):
        text, sizes = layout(2)
        tiles = [tile_of(s) for s in sizes]
        op = random.choice(["inner_partition", "outer_partition"])
        n = tiles[0] * tiles[1] if op == "outer_partition" else -(-sizes[0] // tiles[0]) * -(-sizes[1] // tiles[1])
        coord = str(random.randrange(n))
        tiler = "<" + ",".join(map(str, tiles)) + ">"
        cxx_tiler = "make_shape(" + ",".join(f"Int<{t}>{{}}" for t in tiles) + ")"
        out.append(on_tensor(f"{op}({text},{tiler},{coord})", f"{op}(t, {cxx_tiler}, {cpp_tuple(coord)})", text))
    # The tensor layer's layout helpers, on random layouts (some with 0 or negative strides).
    for _ in range(40):
        text, sizes = layout(random.choice([2, 3]))
        shape = text[: text.index(":")]
        strides = text[text.index(":") + 1:]
        if random.random() < 0.4:
            # one stride made 0 or negative
            k = random.randrange(len(re.findall(r"\d+", strides)))
            zero = random.random() < 0.5
            count = iter(range(1000))
            strides = re.sub(r"\d+", lambda m: ("0" if zero else "-" + m.group()) if next(count) == k else m.group(), strides)
        lt = f"{shape}:{strides}"
        c = cpp_layout(lt)
        a = "(" + ",".join(str(random.randrange(1, 200)) for _ in sizes) + ")"
        b = "(" + ",".join(str(random.choice([2, 4, 8, 16, 32, 64])) for _ in sizes[: random.randrange(1, len(sizes) + 1)]) + ")"
        cur = random.choice([1, 2, 3, 8])
        tile = f"({random.choice([2, 3, 4])},{random.choice([2, 4])}):(1,{random.choice([4, 8, 16])})"
        crd = "(" + ",".join(str(random.randrange(s)) for s in sizes) + ")"
        out += [
            (f"make_layout_like({lt})", f'show("make_layout_like({lt})", make_layout_like({c}));'),
            (f"coshape({lt})", f'show("coshape({lt})", coshape({c}));'),
            (f"make_fragment_like({lt})", f'show("make_fragment_like({lt})", make_fragment_like({c}));'),
            (f"round_up({a},{b})", f'show("round_up({a},{b})", round_up({cpp_tuple(a)}, {cpp_tuple(b)}));'),
            (f"compact_col_major({shape},{cur})", f'show("compact_col_major({shape},{cur})", compact_col_major({cpp_tuple(shape)}, Int<{cur}>{{}}));'),
            (f"compact_row_major({shape})", f'show("compact_row_major({shape})", compact_row_major({cpp_tuple(shape)}));'),
            (f"domain_offset({crd},{lt})", f'show_pair("domain_offset({crd},{lt})", domain_offset({cpp_tuple(crd)}, {c}));'),
            (f"ceil_div({a},{tile})", f'show("ceil_div({a},{tile})", ceil_div({cpp_tuple(a)}, {cpp_layout(tile)}));'),
        ]
    return out


def on_tensor(expr, cxx, text):
    """The case `cxx` on the counting tensor over the layout `text`."""
    return (expr, f'auto t = make_tensor(counting_iterator<int>(0), {cpp_layout(text)}); show_tensor("{expr}", {cxx});')


def source(all_cases, dropped):
    lines = [
        "// generated by gen_partition.py; CuTe C++ 4.2's partitions of tensors (see its docstring)",
        "#include <cute/tensor.hpp>",
        "#include <iostream>",
        "using namespace cute;",
        "template <class T> void show_tensor(char const* expr, T const& r) {",
        "  std::cout << expr << \"\\t[\" << r.layout() << \",_\" << r.data().n_ << \"]\\n\";",
        "}",
        "template <class T> void show(char const* expr, T const& r) { std::cout << expr << '\\t' << r << '\\n'; }",
        "template <class A, class B> void show_pair(char const* expr, cute::tuple<A, B> const& r) {",
        "  std::cout << expr << \"\\t[\" << get<0>(r) << ',' << get<1>(r) << \"]\\n\";",
        "}",
    ]
    calls = []
    for k, (expr, body) in enumerate(all_cases):
        if f"case{k}" in dropped:
            continue
        lines.append(f"void case{k}() {{ {body} }}")
        calls.append(f"  case{k}();")
    return "\n".join(lines + ["int main() {", *calls, "}"]) + "\n"


def main():
    inc = sum((["-I", p] for p in sys.argv[1:]), [])
    all_cases = cases()
    dropped = build_dropping(lambda d: open("gen_cxx_partition.cpp", "w").write(source(all_cases, d)),
                             "gen_cxx_partition.cpp", "/tmp/gen_cxx_partition", inc)
    out = subprocess.run(["/tmp/gen_cxx_partition"], capture_output=True, text=True, check=True).stdout
    open("cxx_partition.tsv", "w").write(out)
    refused = [all_cases[int(d[4:])][0] for d in sorted(dropped, key=lambda d: int(d[4:]))]
    open("cxx_refused.txt", "w").write("".join(e + "\n" for e in refused))
    print(f"{out.count(chr(10))} answers, {len(dropped)} refusals", file=sys.stderr)


if __name__ == "__main__":
    main()
