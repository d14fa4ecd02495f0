#!/usr/bin/env python3
"""Generator of tests/data/mma/cxx_mma.tsv: CuTe C++ 4.2's tiled MMAs,
`make_tiled_mma(Atom{}, atom_layout, permutations)`, over the atoms cute-dyn knows: for each,
the atom's own layouts, `thr_layout_vmnk`, `tile_size_mnk`, `get_layoutA/B/C_TV()` and a random
thread's `partition_A/B/C` of column- and row-major operands (layout and data offset). Then
tiled copies, `make_tiled_copy(Copy_Atom<Op,T>{}, thr_layout, val_layout)`: the atom's
element layouts, `TiledLayout_TV`, `Tiler_MN`, `get_layoutS/D_TV()` and `partition_S/D`.

Each line: the tiled MMA (`atom;atom_layout;permutations`) or copy
(`copy:atom;element bits;thr_layout;val_layout`), what is printed, and C++'s print.
Run from this directory:

    python3 gen_mma.py <cutlass include> <cccl include> <cuda_runtime include> <cuda_nvcc include>
"""
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cxx_driver import build_dropping, cpp_layout  # noqa: E402

random.seed(20261202)

CXX_ATOM = {
    "UniversalFMA": "UniversalFMA<float,float,float,float>",
    "SM90_64x8x16_F32F16F16_SS": "SM90::GMMA::MMA_64x8x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>",
    "SM90_64x64x16_F32F16F16_SS": "SM90::GMMA::MMA_64x64x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>",
    "SM90_64x128x16_F32F16F16_SS": "SM90::GMMA::MMA_64x128x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>",
    "SM90_64x256x16_F32F16F16_SS": "SM90::GMMA::MMA_64x256x16_F32F16F16_SS<GMMA::Major::K,GMMA::Major::K>",
    "SM90_64x64x16_F32F16F16_RS": "SM90::GMMA::MMA_64x64x16_F32F16F16_RS<GMMA::Major::K,GMMA::Major::K>",
}

# (atom, atom layout, permutations: each "_", an integer, or a layout)
TILED = [
    ("UniversalFMA", "(16,16,1):(1,16,0)", []),
    ("UniversalFMA", "(16,16,1):(16,1,0)", []),
    ("UniversalFMA", "(8,32,1):(1,8,0)", ["16", "64", "_"]),
    ("SM80_16x8x16_F32F16F16F32_TN", "(1,1,1):(0,0,0)", []),
    ("SM80_16x8x16_F32F16F16F32_TN", "(2,2,1):(1,2,0)", []),
    ("SM80_16x8x16_F32F16F16F32_TN", "(2,2,1):(1,2,0)", ["32", "32", "16"]),
    ("SM80_16x8x16_F32F16F16F32_TN", "(2,2,1):(1,2,0)", ["(2,4,4):(1,8,2)", "_", "_"]),
    ("SM80_16x8x16_F16F16F16F16_TN", "(1,4,1):(0,1,0)", []),
    ("SM80_16x8x16_F32F16F16F32_TN", "(2,2,2):(1,2,4)", []),
    ("SM80_16x8x16_F32BF16BF16F32_TN", "(4,1,1):(1,0,0)", ["64", "16", "16"]),
    ("SM80_16x8x8_F16F16F16F16_TN", "(2,4,1):(4,1,0)", []),
    ("SM80_16x8x8_F32F16F16F32_TN", "(2,2,1):(1,2,0)", []),
    ("SM80_16x8x8_F32BF16BF16F32_TN", "(4,2,1):(2,1,0)", []),
    ("SM80_16x8x8_F32TF32TF32F32_TN", "(2,2,1):(1,2,0)", []),
    ("SM80_16x8x4_F32TF32TF32F32_TN", "(1,2,1):(0,1,0)", []),
    ("SM75_16x8x8_F32F16F16F32_TN", "(2,1,1):(1,0,0)", []),
    ("SM90_64x8x16_F32F16F16_SS", "(1,1,1):(0,0,0)", []),
    ("SM90_64x64x16_F32F16F16_SS", "(1,1,1):(0,0,0)", []),
    ("SM90_64x128x16_F32F16F16_SS", "(2,1,1):(1,0,0)", []),
    ("SM90_64x256x16_F32F16F16_SS", "(1,1,1):(0,0,0)", []),
    ("SM90_64x64x16_F32F16F16_RS", "(1,1,1):(0,0,0)", []),
    # SM80's fp64 and integer atoms (issue #48): the fp64 NT layouts need negative strides.
    ("SM80_8x8x4_F64F64F64F64_TN", "(2,2,1):(1,2,0)", []),
    ("SM80_8x8x4_F64F64F64F64_TN", "(4,2,1):(1,4,0)", ["32", "16", "8"]),
    ("SM80_8x8x4_C64C64C64C64_TN", "(1,1,1):(0,0,0)", []),
    ("SM80_8x8x4_GC64C64C64GC64_TN", "(2,1,1):(1,0,0)", []),
    ("SM80_8x8x16_S32S8S8S32_TN", "(2,2,1):(1,2,0)", []),
    ("SM80_16x8x16_S32S8S8S32_TN", "(2,2,1):(1,2,0)", []),
    ("SM80_16x8x32_S32S8S8S32_TN", "(2,2,1):(1,2,0)", []),
    ("SM80_16x8x32_S32U8U8S32_TN_SATURATE", "(1,2,1):(0,1,0)", []),
    # The 4-bit and 1-bit atoms. SM80_16x8x128_S32U1U1S32_TN_* is left out: CuTe 4.2's ALayout is
    # not congruent and C++ cannot build its TiledMMA (tests/mma.rs checks ours by the 16x8x256's).
    ("SM80_8x8x32_S32S4S4S32_TN", "(2,2,1):(1,2,0)", []),
    ("SM80_16x8x32_S32U4S4S32_TN", "(2,2,1):(1,2,0)", []),
    ("SM80_16x8x64_S32S4U4S32_TN_SATURATE", "(2,1,1):(1,0,0)", []),
    ("SM80_16x8x64_S32U4U4S32_TN", "(1,2,1):(0,1,0)", ["16", "16", "128"]),
    ("SM80_8x8x128_S32U1U1S32_TN_XORPOPC", "(2,2,1):(1,2,0)", []),
    ("SM80_16x8x256_S32U1U1S32_TN_ANDPOPC", "(2,2,1):(1,2,0)", []),
]


# (atom, element type, its bits, thread layout, value layout)
TILED_COPIES = [
    ("UniversalCopy<uint128_t>", "half_t", 16, "(32,4):(4,1)", "(1,8):(0,1)"),
    ("UniversalCopy<uint128_t>", "half_t", 16, "(16,8):(1,16)", "(8,1):(1,0)"),
    ("UniversalCopy<uint32_t>", "float", 32, "(32,8):(8,1)", "(1,1):(0,0)"),
    ("UniversalCopy<uint64_t>", "float", 32, "(8,32):(1,8)", "(2,1):(1,0)"),
    ("SM80_CP_ASYNC_CACHEALWAYS<uint128_t>", "half_t", 16, "(16,8):(8,1)", "(1,8):(0,1)"),
    ("UniversalCopy<uint128_t>", "float", 32, "(32,4):(4,1)", "(1,4):(0,1)"),
    ("UniversalCopy<uint16_t>", "half_t", 16, "(8,8):(8,1)", "(1,1):(0,0)"),
    ("UniversalCopy<uint128_t>", "uint8_t", 8, "(16,16):(16,1)", "(1,16):(0,1)"),
    ("UniversalCopy<uint64_t>", "half_t", 16, "(16,4):(1,16)", "(4,1):(1,0)"),
    ("UniversalCopy<uint128_t>", "half_t", 16, "(8,16):(16,1)", "(1,8):(0,1)"),
    ("UniversalCopy<uint32_t>", "half_t", 16, "(32,4):(1,32)", "(2,1):(1,0)"),
    ("SM75_U32x1_LDSM_N", "half_t", 16, "(32,1):(1,0)", "(1,2):(0,1)"),
    ("SM75_U32x2_LDSM_N", "half_t", 16, "(32,1):(1,0)", "(1,4):(0,1)"),
    ("SM75_U32x4_LDSM_N", "half_t", 16, "(32,1):(1,0)", "(1,8):(0,1)"),
    ("SM75_U16x8_LDSM_T", "half_t", 16, "(32,1):(1,0)", "(1,8):(0,1)"),
]


# make_tiled_copy_A/B/C(Copy_Atom<atom, T>, tiled_mma): (atom, T, bits, index in TILED, operand)
COPIES_FOR_MMA = [
    ("SM75_U32x4_LDSM_N", "half_t", 16, 5, "A"),
    ("SM75_U32x4_LDSM_N", "half_t", 16, 5, "B"),
    ("SM75_U32x2_LDSM_N", "half_t", 16, 4, "B"),
    ("SM75_U16x8_LDSM_T", "half_t", 16, 5, "B"),
    ("UniversalCopy<uint32_t>", "float", 32, 5, "C"),
    ("UniversalCopy<uint64_t>", "float", 32, 4, "C"),
    ("SM75_U32x1_LDSM_N", "half_t", 16, 10, "A"),
    ("UniversalCopy<uint32_t>", "float", 32, 0, "C"),
]


def static_operand(op, major):
    """C++: a static (2x tile) operand layout for the MMA `m` (fragments need static sizes)."""
    x, y = {"A": (0, 2), "B": (1, 2), "C": (0, 1)}[op]
    return ("make_layout(make_shape(Int<2 * decltype(m.tile_size_mnk<%d>())::value>{}, Int<2 * decltype(m.tile_size_mnk<%d>())::value>{}), %s{})"
            % (x, y, major))


def fragments(k):
    """C++ printing a random thread's partition_fragment_A/B/C of static operands."""
    r = random.Random(1000 + k)
    sm90 = TILED[k][0].startswith("SM90")
    stmts = []
    for op in ("A", "B", "C"):
        if sm90 and op != "C":
            continue
        stmts.append(
            "{ auto l = %s; int thr = %d %% int(size(m)); auto t = make_tensor(counting_iterator<int>(0), l); "
            "auto f = m.get_slice(thr).partition_fragment_%s(t); "
            "std::cout << k << '\\t' << \"partition_fragment_%s \" << thr << ' ' << l << '\\t' << f.layout() << '\\n'; }"
            % (static_operand(op, "LayoutLeft"), r.randrange(1 << 20), op, op))
    return " ".join(stmts)


def copy_mma_cases():
    out = []
    for n, (atom, t, bits, mma, op) in enumerate(COPIES_FOR_MMA):
        matom, mlayout, perms = TILED[mma]
        key = f"copymma:{atom};{bits};{matom};{mlayout};{' '.join(perms) or '_'};{op}"
        body = [f"auto m = {make_mma(matom, mlayout, perms)};",
                f"auto c = make_tiled_copy_{op}(Copy_Atom<{atom}, {t}>{{}}, m);", f'std::string k = "{key}";',
                "using TC = decltype(c);",
                'p(k, "layout_tv", typename TC::TiledLayout_TV{});',
                'p(k, "tiler_mn", typename TC::Tiler_MN{});',
                'p(k, "layout_s_tv", c.get_layoutS_TV());',
                'p(k, "layout_d_tv", c.get_layoutD_TV());']
        thr = random.Random(2000 + n).randrange(1 << 20)
        if not (matom.startswith("SM90") and op != "C"):
            body.append(
                "{ auto l = %s; int thr = %d %% int(size(m)); auto t = make_tensor(counting_iterator<int>(0), l); "
                "auto f = m.get_slice(thr).partition_fragment_%s(t); auto r = c.get_slice(thr).retile_D(f); "
                "std::cout << k << '\\t' << \"retile \" << f.layout() << '\\t' << r.layout() << '\\n'; }"
                % (static_operand(op, "LayoutLeft"), thr, op))
        out.append(body)
    return out


def make_mma(atom, layout, perms):
    """The C++ `make_tiled_mma(...)` of a TILED row."""
    cxx_atom = CXX_ATOM.get(atom, atom)
    perm = "Tile<" + ",".join(f"decltype({cpp_perm(p)})" if p != "_" else "Underscore" for p in perms) + ">{}" if perms else None
    return f"make_tiled_mma({cxx_atom}{{}}, {cpp_layout(layout)}{', ' + perm if perm else ''})"


def copy_cases():
    out = []
    for atom, t, bits, thr, val in TILED_COPIES:
        key = f"copy:{atom};{bits};{thr};{val}"
        c = f"Copy_Atom<{atom}, {t}>"
        body = [f"auto m = make_tiled_copy({c}{{}}, {cpp_layout(thr)}, {cpp_layout(val)});", f'std::string k = "{key}";',
                "using TC = decltype(m);",
                'p(k, "atom_src", typename TC::AtomLayoutSrc{});',
                'p(k, "atom_dst", typename TC::AtomLayoutDst{});',
                'p(k, "atom_ref", typename TC::AtomLayoutRef{});',
                'p(k, "layout_tv", typename TC::TiledLayout_TV{});',
                'p(k, "tiler_mn", typename TC::Tiler_MN{});',
                'p(k, "layout_s_tv", m.get_layoutS_TV());',
                'p(k, "layout_d_tv", m.get_layoutD_TV());']
        r = random.Random(len(out))
        for op in ("S", "D"):
            for major in ("LayoutLeft", "LayoutRight"):
                body.append(
                    "{ auto l = make_layout(make_shape(2 * size<0>(typename TC::Tiler_MN{}), 2 * size<1>(typename TC::Tiler_MN{})), %s{}); "
                    "int thr = %d %% int(size<0>(typename TC::TiledLayout_TV{})); auto t = make_tensor(counting_iterator<int>(0), l); "
                    "auto r = m.get_slice(thr).partition_%s(t); "
                    "std::cout << k << '\\t' << \"partition_%s \" << thr << ' ' << l << '\\t' << '[' << r.layout() << \",_\" << r.data().n_ << \"]\\n\"; }"
                    % (major, r.randrange(1 << 20), op, op))
        out.append(body)
    return out


def cpp_perm(p):
    if p == "_":
        return "_"
    if ":" in p:
        return cpp_layout(p)
    return f"Int<{p}>{{}}"


def cases():
    out = []
    for atom, layout, perms in TILED:
        cxx_atom = CXX_ATOM.get(atom, atom)
        key = f"{atom};{layout};{' '.join(perms) or '_'}"
        body = [f"auto m = {make_mma(atom, layout, perms)};", f'std::string k = "{key}";',
                "p(k, \"atom_thr_id\", typename MMA_Traits<" + cxx_atom + ">::ThrID{});",
                "p(k, \"atom_a_tv\", typename MMA_Traits<" + cxx_atom + ">::ALayout{});",
                "p(k, \"atom_b_tv\", typename MMA_Traits<" + cxx_atom + ">::BLayout{});",
                "p(k, \"atom_c_tv\", typename MMA_Traits<" + cxx_atom + ">::CLayout{});",
                'p(k, "thr_layout_vmnk", m.get_thr_layout_vmnk());',
                'p(k, "tile_size_mnk", make_shape(m.tile_size_mnk<0>(), m.tile_size_mnk<1>(), m.tile_size_mnk<2>()));',
                'p(k, "layout_a_tv", m.get_layoutA_TV());',
                'p(k, "layout_b_tv", m.get_layoutB_TV());',
                'p(k, "layout_c_tv", m.get_layoutC_TV());']
        out.append(body)
    return out


def source(all_cases, dropped):
    lines = [
        "// generated by gen_mma.py; CuTe C++ 4.2's tiled MMAs (see its docstring)",
        "#include <cute/tensor.hpp>",
        "#include <cute/atom/mma_atom.hpp>",
        "#include <cute/atom/mma_traits_sm75.hpp>",
        "#include <cute/atom/mma_traits_sm80.hpp>",
        "#include <cute/atom/mma_traits_sm90_gmma.hpp>",
        "#include <cute/atom/copy_atom.hpp>",
        "#include <cute/atom/copy_traits_sm75.hpp>",
        "#include <cute/atom/copy_traits_sm80.hpp>",
        "#include <iostream>",
        "#include <string>",
        "using namespace cute;",
        "template <class T> void p(std::string const& k, char const* what, T const& v) { std::cout << k << '\\t' << what << '\\t' << v << '\\n'; }",
    ]
    calls = []
    for k, body in enumerate(all_cases):
        if f"case{k}" in dropped:
            continue
        tail = partitions(k) + " " + fragments(k) if k < len(TILED) else ""
        lines.append(f"void case{k}() {{ " + " ".join(body) + " " + tail + " }")
        calls.append(f"  case{k}();")
    return "\n".join(lines + ["int main() {", *calls, "}"]) + "\n"


def partitions(k):
    """C++ printing a random thread's partition_A/B/C of (2x tile) operands, column- and
    row-major: `partition_X thr layout` then `[layout,_offset]`."""
    r = random.Random(k)
    stmts = []
    for op, (x, y) in (("A", (0, 2)), ("B", (1, 2)), ("C", (0, 1))):
        for major in ("col", "row"):
            stmts.append(
                "{ auto s0 = 2 * m.tile_size_mnk<%d>(); auto s1 = 2 * m.tile_size_mnk<%d>(); "
                "auto l = make_layout(make_shape(s0, s1), %s); int thr = %d %% int(size(m)); "
                "auto t = make_tensor(counting_iterator<int>(0), l); auto r = m.get_slice(thr).partition_%s(t); "
                "std::cout << k << '\\t' << \"partition_%s \" << thr << ' ' << l << '\\t' << '[' << r.layout() << \",_\" << r.data().n_ << \"]\\n\"; }"
                % (x, y, "LayoutLeft{}" if major == "col" else "LayoutRight{}", r.randrange(1 << 20), op, op)
            )
    return " ".join(stmts)


def main():
    inc = sum((["-I", p] for p in sys.argv[1:]), [])
    all_cases = cases() + copy_cases() + copy_mma_cases()
    dropped = build_dropping(lambda d: open("gen_cxx_mma.cpp", "w").write(source(all_cases, d)),
                             "gen_cxx_mma.cpp", "/tmp/gen_cxx_mma", inc)
    if dropped:
        raise SystemExit(f"C++ refuses {sorted(dropped)}: every tiled MMA here must build")
    out = subprocess.run(["/tmp/gen_cxx_mma"], capture_output=True, text=True, check=True).stdout
    open("cxx_mma.tsv", "w").write(out)
    print(f"{out.count(chr(10))} answers", file=sys.stderr)


if __name__ == "__main__":
    main()
