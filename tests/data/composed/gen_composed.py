#!/usr/bin/env python3
"""Generator of tests/data/composed/cxx_composed.tsv: CuTe C++ 4.2's answers for the operations
on swizzled (composed) layouts `Sw<B,M,S> o 0 o L` over random swizzles and shared-memory-like
layouts (row-major, column-major, and row-major with a split row mode).

It writes gen_cxx_composed.cpp (one function per case and operation, the expression that
`cute eval` takes as its name), compiles it against the CuTe 4.2 headers (DESIGN 6) and runs it.
Then 15 nested compositions `Sw1 o 0 o Sw o 0 o L` through the operations C++ defines on them.
An operation C++ refuses (a static_assert) does not compile: its function is dropped and its
expression written to cxx_refused.txt, and the build retried. Run from this directory:

    python3 gen_composed.py <cutlass include> <cccl include> <cuda_runtime include> <cuda_nvcc include>
"""
import os
import random
import re
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cxx_driver import build_dropping, cpp_layout, cpp_tuple  # noqa: E402

random.seed(20261130)
CASES = 60
NESTED = 15
GENERAL = 20
OFFSET = 12


def layouts():
    p2 = [8, 16, 32, 64, 128]
    kind = random.choice(["row", "col", "split"])
    r, c = random.choice(p2), random.choice(p2)
    if kind == "row":
        return f"({r},{c}):({c},1)", (r, c)
    if kind == "col":
        return f"({r},{c}):(1,{r})", (r, c)
    r0 = random.choice([2, 4, 8])
    r = max(r, 2 * r0)
    return f"(({r0},{r // r0}),{c}):(({c},{r0 * c}),1)", (r, c)


def swizzle():
    b = random.choice([1, 2, 3])
    m = random.choice([0, 1, 2, 3, 4])
    s = random.choice([b, b, b + 1, b + 2]) * random.choice([1, 1, 1, -1])
    return b, m, s


def cpp_coord(text):
    """`(3,_)` as a static CuTe coordinate."""
    return cpp_tuple(text, "make_coord")


def ops_on(cl, tr, tc):
    """The operation builders for the composed layout `cl` (C++: `c`) and the tile <tr,tc>:
    each gives (style, the `cute eval` expression, the C++ expression)."""
    tile = f"make_tile(Int<{tr}>{{}},Int<{tc}>{{}})"
    return (
        lambda op: ("cpp", f"{op}({cl})", f"{op}(c)"),
        lambda op: ("cpp", f"{op}({cl},<{tr},{tc}>)", f"{op}(c, {tile})"),
        lambda op, crd: ("cpp", f"{op}({crd},{cl})", f"{op}({cpp_coord(crd)}, c)"),
    )


def algebra(cl, r, c, mode, tr=None, tc=None):
    """The operations every composed layout `cl` (rows r, columns c) goes through: coalesce,
    composition with the tile <tr,tc>, get<mode>, the divides, products, tile_to_shape,
    up/downcast and the inverses."""
    unary, on_tile, _ = ops_on(cl, tr, tc)
    return [
        unary("coalesce"),
        on_tile("composition"),
        ("cpp", f"get({cl},{mode})", f"get<{mode}>(c)"),
        *[on_tile(op) for op in ["logical_divide", "zipped_divide", "tiled_divide", "flat_divide"]],
        *[on_product(op, cl) for op in ["logical_product", "blocked_product", "raked_product"]],
        on_shape(cl, r, c),
        ("cpp", f"upcast({cl},2)", "upcast<2>(c)"),
        ("cpp", f"downcast({cl},2)", "downcast<2>(c)"),
        unary("right_inverse"),
        unary("left_inverse"),
    ]


def on_product(op, cl):
    return ("cpp", f"{op}({cl},(2,2):(1,2))", f"{op}(c, Layout<Shape<_2,_2>,Stride<_1,_2>>{{}})")


def on_shape(cl, r, c):
    return ("cpp", f"tile_to_shape({cl},({2 * r},{2 * c}))", f"tile_to_shape(c, make_shape(Int<{2 * r}>{{}},Int<{2 * c}>{{}}))")


def cases():
    out = []
    for k in range(CASES):
        text, (r, c) = layouts()
        b, m, s = swizzle()
        sw = f"Sw<{b},{m},{s}>"
        cl = f"{sw} o 0 o {text}"
        C = f"composition(Swizzle<{b},{m},{s}>{{}}, {cpp_layout(text)})"
        tr, tc = random.choice([d for d in [2, 4, 8] if r % d == 0]), random.choice([d for d in [2, 4, 8, 16] if c % d == 0])
        i, j = random.randrange(r), random.randrange(c)
        unary, on_tile, on_coord = ops_on(cl, tr, tc)
        split = text.startswith("((")
        ops = [
            ("cpp", f"composition({sw},{text})", "c"),
            # the image at every index, for tiles of at most 2048 elements
            *([("values", f"image({cl})", "IMAGE")] if r * c <= 2048 else []),
            *algebra(cl, r, c, 0, tr, tc),
            on_coord("slice_and_offset", f"(({i % int(text[2:].split(',')[0])},_),_)" if split else f"({i},_)"),
            on_coord("slice_and_offset", f"((_,_),{j})" if split else f"(_,{j})"),
            on_coord("domain_offset", f"(({i % 2},0),{j})" if split else f"({i % 2},{j})"),
            unary("max_alignment"),
            ("cpp", f"max_common_vector({cl},{text})", f"max_common_vector(c, {cpp_layout(text)})"),
            unary("make_fragment_like"),
            # the transpose of the codomain composed with C: the swizzle moves left
            ("cpp", f"composition(({c},{r}):({r},1),{cl})", f"composition({cpp_layout(f'({c},{r}):({r},1)')}, c)"),
            ("cpp", f"filter({cl},(1,1))", "filter(c, make_shape(_1{},_1{}))"),
            ("cpp", f"coalesce({cl},(1,1))", "coalesce(c, make_shape(_1{},_1{}))"),
            ("cpp", f"recast_layout({cl},16,32)", "recast_layout<uint16_t, uint32_t>(c)"),
            ("cpp", f"recast_layout({cl},32,8)", "recast_layout<uint32_t, uint8_t>(c)"),
            ("cpp", f"zip(logical_divide({cl},<{tr},{tc}>))", f"zip(logical_divide(c, make_tile(Int<{tr}>{{}},Int<{tc}>{{}})))"),
            # C as the tiler of a product ("ComposedLayout as second argument", swizzle_layout.hpp)
            ("cpp", f"logical_product((2,2):(1,2),{cl})", "logical_product(Layout<Shape<_2,_2>,Stride<_1,_2>>{}, c)"),
        ]
        out.append((k, C, ops))
    # Nested compositions Sw1 o 0 o Sw o 0 o L (C++'s ComposedLayout<Sw1, _0, ComposedLayout<...>>).
    for k in range(CASES, CASES + NESTED):
        text, (r, c) = layouts()
        (b, m, s), (b1, m1, s1) = swizzle(), swizzle()
        cl = f"Sw<{b1},{m1},{s1}> o 0 o Sw<{b},{m},{s}> o 0 o {text}"
        C = f"composition(Swizzle<{b1},{m1},{s1}>{{}}, Int<0>{{}}, composition(Swizzle<{b},{m},{s}>{{}}, {cpp_layout(text)}))"
        tr, tc = random.choice([d for d in [2, 4, 8] if r % d == 0]), random.choice([d for d in [2, 4, 8, 16] if c % d == 0])
        unary, on_tile, on_coord = ops_on(cl, tr, tc)
        split = text.startswith("((")
        ops = [
            on_tile("composition"),
            *([("values", f"image({cl})", "IMAGE")] if r * c <= 2048 else []),
            *[on_tile(op) for op in ["logical_divide", "zipped_divide", "flat_divide"]],
            on_product("blocked_product", cl),
            on_shape(cl, r, c),
            unary("coalesce"),
            ("cpp", f"upcast({cl},2)", "upcast<2>(c)"),
            ("cpp", f"downcast({cl},2)", "downcast<2>(c)"),
            unary("max_alignment"),
            unary("right_inverse"),
            unary("left_inverse"),
            on_coord("domain_offset", "((1,0),2)" if split else "(1,2)"),
            ("cpp", f"max_common_vector({cl},{text})", f"max_common_vector(c, {cpp_layout(text)})"),
            unary("make_fragment_like"),
            unary("nullspace"),
            on_coord("slice_and_offset", "((1,_),_)" if split else "(1,_)"),
        ]
        out.append((k, C, ops))
    # A layout as the outer function: A o O o B (C++'s composition(LayoutA, Offset, LayoutB)).
    for k in range(CASES + NESTED, CASES + NESTED + GENERAL):
        a, (ra, ca) = layouts()
        b, (r, c) = small_layout()
        o = random.choice([0, 0, 1, 2, 8, 17])
        cl = f"{a} o {o} o {b}"
        C = f"composition({cpp_layout(a)}, Int<{o}>{{}}, {cpp_layout(b)})"
        tr, tc = random.choice([d for d in [1, 2, 4] if r % d == 0]), random.choice([d for d in [1, 2, 4] if c % d == 0])
        unary, on_tile, on_coord = ops_on(cl, tr, tc)
        ops = [
            ("cpp", cl, "c"),
            ("values", f"image({cl})", "IMAGE"),
            *algebra(cl, r, c, 1, tr, tc),
            on_coord("slice_and_offset", f"({random.randrange(r)},_)"),
            on_coord("slice_and_offset", f"(_,{random.randrange(c)})"),
            on_coord("domain_offset", f"({random.randrange(r)},{random.randrange(c)})"),
            unary("max_alignment"),
            unary("make_fragment_like"),
            unary("nullspace"),
            ("cpp", f"filter({cl},(1,1))", "filter(c, make_shape(_1{},_1{}))"),
            ("cpp", f"zip(logical_divide({cl},<{tr},{tc}>))", f"zip(logical_divide(c, make_tile(Int<{tr}>{{}},Int<{tc}>{{}})))"),
            ("cpp", f"composition((4,{ra * ca // 4}):({ra * ca // 4},1),{cl})", f"composition({cpp_layout(f'(4,{ra * ca // 4}):({ra * ca // 4},1)')}, c)"),
            ("cpp", f"recast_layout({cl},16,32)", "recast_layout<uint16_t, uint32_t>(c)"),
            *[("cpp", f"call(right_inverse({cl}),{i})", f"right_inverse(c)(Int<{i}>{{}})") for i in random.sample(range(ra * ca), 3)],
        ]
        out.append((k, C, ops))
    # A swizzle with an offset: its inverses are layouts composed with the swizzle,
    # C++'s `right_inverse(L) o -O o Sw`, evaluated at a few indices.
    for k in range(CASES + NESTED + GENERAL, CASES + NESTED + GENERAL + OFFSET):
        text, (r, c) = layouts()
        b, m, s = swizzle()
        o = random.choice([8, 16, 64, 3, 128])
        cl = f"Sw<{b},{m},{s}> o {o} o {text}"
        C = f"composition(Swizzle<{b},{m},{s}>{{}}, Int<{o}>{{}}, {cpp_layout(text)})"
        tr, tc = random.choice([d for d in [2, 4, 8] if r % d == 0]), random.choice([d for d in [2, 4, 8, 16] if c % d == 0])
        unary, on_tile, on_coord = ops_on(cl, tr, tc)
        ops = [
            ("cpp", cl, "c"),
            *([("values", f"image({cl})", "IMAGE")] if r * c <= 2048 else []),
            unary("right_inverse"),
            unary("left_inverse"),
            *[("cpp", f"call({inv}({cl}),{i})", f"{inv}(c)(Int<{i}>{{}})") for inv in ["right_inverse", "left_inverse"] for i in random.sample(range(r * c), 3)],
            ("cpp", f"composition(right_inverse({cl}),(2,2):(1,2))", "composition(right_inverse(c), Layout<Shape<_2,_2>,Stride<_1,_2>>{})"),
            on_tile("logical_divide"),
            ("cpp", f"upcast({cl},2)", "upcast<2>(c)"),
            unary("max_alignment"),
            on_coord("slice_and_offset", f"({random.randrange(r)},_)" if not text.startswith("((") else "((1,_),_)"),
            on_coord("domain_offset", "((1,0),2)" if text.startswith("((") else "(1,2)"),
            ("cpp", f"composition(({c},{r}):({r},1),{cl})", f"composition({cpp_layout(f'({c},{r}):({r},1)')}, c)"),
        ]
        out.append((k, C, ops))
    return out


def small_layout():
    """A small rank-2 layout B for A o O o B: row- or column-major, or strided."""
    r, c = random.choice([2, 4, 8]), random.choice([2, 4, 8])
    kind = random.choice(["row", "col", "strided"])
    if kind == "row":
        return f"({r},{c}):({c},1)", (r, c)
    if kind == "col":
        return f"({r},{c}):(1,{r})", (r, c)
    return f"({r},{c}):(2,{2 * r})", (r, c)


def source(all_cases, dropped):
    lines = [
        "// generated by gen_composed.py; CuTe C++ 4.2 on swizzled layouts (see its docstring)",
        "#include <cute/tensor.hpp>",
        "#include <iostream>",
        "#include <sstream>",
        "using namespace cute;",
        "template <class T> void show(char const* style, char const* expr, T const& r) {",
        "  std::cout << style << '\\t' << expr << '\\t' << r << '\\n';",
        "}",
        "template <class A, class B> void show(char const* style, char const* expr, cute::tuple<A, B> const& r) {",
        "  std::cout << style << '\\t' << expr << \"\\t[\" << get<0>(r) << ',' << get<1>(r) << \"]\\n\";",
        "}",
        "template <class C> void image(char const* expr, C const& c) {",
        "  std::cout << \"values\\t\" << expr << \"\\t(\";",
        "  for (int i = 0; i < int(size(c)); ++i) std::cout << (i ? \",\" : \"\") << c(i);",
        "  std::cout << \")\\n\";",
        "}",
    ]
    calls = []
    for k, C, ops in all_cases:
        for n, (style, expr, cxx) in enumerate(ops):
            name = f"case{k}_op{n}"
            if name in dropped:
                continue
            lines.append(f"void {name}() {{")
            lines.append(f"  auto c = {C};")
            if cxx == "IMAGE":
                lines.append(f'  image("{expr}", c);')
            else:
                lines.append(f'  show("{style}", "{expr}", {cxx});')
            lines.append("}")
            calls.append(f"  {name}();")
    lines.append("int main() {")
    lines += calls
    lines.append("}")
    return "\n".join(lines) + "\n"


def main():
    inc = sum((["-I", p] for p in sys.argv[1:]), [])
    all_cases = cases()
    exprs = {f"case{k}_op{n}": expr for k, _, ops in all_cases for n, (_, expr, _) in enumerate(ops)}
    dropped = build_dropping(lambda d: open("gen_cxx_composed.cpp", "w").write(source(all_cases, d)),
                             "gen_cxx_composed.cpp", "/tmp/gen_cxx_composed", inc)
    out = subprocess.run(["/tmp/gen_cxx_composed"], capture_output=True, text=True, check=True).stdout
    open("cxx_composed.tsv", "w").write(out)
    open("cxx_refused.txt", "w").write("".join(exprs[d] + "\n" for d in sorted(dropped, key=lambda x: [int(v) for v in re.findall(r"\d+", x)])))
    print(f"{out.count(chr(10))} answers, {len(dropped)} refusals", file=sys.stderr)


if __name__ == "__main__":
    main()
