#!/usr/bin/env python3
"""Generator of tests/data/gmma/cxx_gmma.tsv: CuTe C++ 4.2's SM90 GMMA shared-memory layout atoms
(`GMMA::Layout_{K,MN}_{INTER,SW32,SW64,SW128}_Atom<T>`) and the wgmma descriptors
`GMMA::make_gmma_desc<Major>` reads off a tile of a shared-memory layout, for 8-, 16- and 32-bit
elements. Shared-memory addresses come from a host definition of `__cvta_generic_to_shared`
(the byte offset into one aligned array), so start addresses are real.

Each line: `atom` lines (`atom	MAJOR	BITS	KIND	C++'s print`) and `desc` lines
(`desc	MAJOR	BITS	SOURCE	SHAPE	ORDER	TILE	STAGE	COORD	START	0xDESC`), SOURCE an atom kind
(the layout is `tile_to_shape(atom, SHAPE, ORDER)`) or a layout in the notation. Cases C++
refuses (a static_assert) are listed in cxx_refused.txt. Run from this directory:

    python3 gen_gmma.py <cutlass include> <cccl include> <cuda_runtime include> <cuda_nvcc include>
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from cxx_driver import build_dropping, cpp_layout, cpp_tuple  # noqa: E402

TYPES = {8: "uint8_t", 16: "half_t", 32: "tfloat32_t"}
KINDS = ["INTER", "SW32", "SW64", "SW128"]
WIDTH = {"INTER": 1, "SW32": 2, "SW64": 4, "SW128": 8}

# (major, bits, source, shape, order, tile (mn,k), stage, coord (i,j), start byte)
CASES = []
for bits in (8, 16, 32):
    k_elems = 256 // bits  # an MMA's K: 32 bytes
    for kind in KINDS:
        row = 16 * WIDTH[kind] * 8 // bits  # the atom's extent along its contiguous mode, elements
        kx = max(2 * row, 2 * k_elems)  # a block's K: two atoms or two MMAs, whichever is more
        # K-major: atoms (8, row) tiled to (128, kx, stages); the MMA tiles (64, K).
        CASES.append(("K", bits, kind, f"(128,{kx},2)", "_", (64, k_elems), 1, (1, kx // k_elems - 1), 0))
        CASES.append(("K", bits, kind, f"(64,{kx})", "_", (64, k_elems), None, (0, 1), 2048))
        CASES.append(("K", bits, kind, f"(128,{kx})", "(2,1)", (64, k_elems), None, (1, 1), 0))
        # MN-major: atoms (row, 8) tiled to (mn, 4K, stages) and (mn, 2K); the MMA tiles (64, K).
        mn = max(64, 2 * row)
        CASES.append(("MN", bits, kind, f"({mn},{4 * k_elems},3)", "_", (64, k_elems), 2, (mn // 64 - 1, 1), 0))
        CASES.append(("MN", bits, kind, f"({mn},{2 * k_elems})", "(2,1)", (64, k_elems), None, (0, 1), 1024))
# Layouts that are not tiled atoms: K-major row-major and interleaved core matrices, MN-major
# column-major (C++ refuses some: the refusals are the cases).
for bits in (16,):
    CASES.append(("K", 16, "(64,16):(16,1)", "_", "_", (64, 16), None, (0, 0), 0))
    CASES.append(("K", 16, "((8,8),(8,2)):((8,64),(1,512))", "_", "_", (64, 16), None, (0, 0), 0))
    CASES.append(("K", 16, "((8,8),(8,2)):((8,128),(1,64))", "_", "_", (64, 16), None, (0, 0), 0))
    CASES.append(("MN", 16, "(64,16):(1,64)", "_", "_", (64, 16), None, (0, 0), 0))
    CASES.append(("MN", 16, "((8,8),(8,2)):((1,64),(8,512))", "_", "_", (64, 16), None, (0, 0), 0))
    CASES.append(("K", 16, "(64,32):(32,1)", "_", "_", (64, 32), None, (0, 0), 0))
    CASES.append(("K", 16, "(60,16):(16,1)", "_", "_", (60, 16), None, (0, 0), 0))
    CASES.append(("MN", 16, "(64,8):(1,64)", "_", "_", (64, 8), None, (0, 0), 0))


def atom(major, bits, kind):
    return f"GMMA::Layout_{major}_{kind}_Atom<{TYPES[bits]}>{{}}"


def source(cases, dropped):
    out = ["#include <cstddef>",
           "alignas(1024) static unsigned char smem_base[1 << 20];",
           "#define CUTE_CVTA_GENERIC_TO_SHARED_ACTIVATED 1",
           "inline size_t __cvta_generic_to_shared(const void* p) { return (size_t)((const unsigned char*)p - smem_base); }",
           "#include <cute/tensor.hpp>",
           "#include <cute/atom/mma_traits_sm90_gmma.hpp>",
           "#include <iostream>",
           "using namespace cute;",
           "using namespace cute::SM90;",
           "template <class L> void pa(const char* k, L l) { std::cout << k << '\\t'; print(l); std::cout << '\\n'; }",
           "template <GMMA::Major M, class T> void pd(const char* k, T t) {",
           "  GmmaDescriptor d = GMMA::make_gmma_desc<M>(t);",
           "  std::cout << k << \"\\t0x\" << std::hex << d.desc_ << std::dec << '\\n'; }"]
    calls = []
    n = 0
    for bits in (8, 16, 32):
        for major in ("K", "MN"):
            for kind in KINDS:
                n += 1
                name = f"case{n}"
                if name not in dropped:
                    out.append(f'void {name}() {{ pa("atom\\t{major}\\t{bits}\\t{kind}", {atom(major, bits, kind)}); }}')
                    calls.append(name)
    for (major, bits, src, shape, order, tile, stage, coord, start) in cases:
        n += 1
        name = f"case{n}"
        key = "\\t".join(["desc", major, str(bits), src, shape, order, f"({tile[0]},{tile[1]})",
                          "_" if stage is None else str(stage), f"({coord[0]},{coord[1]})", str(start)])
        if src in KINDS:
            ordr = "" if order == "_" else ", Step<" + ",".join(f"_{x}" for x in order.strip("()").split(",")) + ">{}"
            lay = f"tile_to_shape({atom(major, bits, src)}, {cpp_tuple(shape, 'make_shape')}{ordr})"
        else:
            lay = cpp_layout(src)
        t = f"make_tensor(make_smem_ptr(reinterpret_cast<{TYPES[bits]}*>(smem_base + {start})), {lay})"
        body = f"auto t = {t}; "
        if stage is not None:
            body += f"auto ts = t(_,_,{stage}); "
        else:
            body += "auto ts = t; "
        body += (f"auto tile = local_tile(ts, make_shape(Int<{tile[0]}>{{}}, Int<{tile[1]}>{{}}), make_coord({coord[0]}, {coord[1]})); "
                 f'pd<GMMA::Major::{major}>("{key}", tile);')
        if name not in dropped:
            out.append(f"void {name}() {{ {body} }}")
            calls.append(name)
    out.append("int main() { " + " ".join(f"{c}();" for c in calls) + " }")
    return "\n".join(out) + "\n"


def main():
    inc = sum((["-I", p] for p in sys.argv[1:]), [])
    dropped = build_dropping(lambda d: open("gen_cxx_gmma.cpp", "w").write(source(CASES, d)),
                             "gen_cxx_gmma.cpp", "/tmp/gen_cxx_gmma", inc)
    out = subprocess.run(["/tmp/gen_cxx_gmma"], capture_output=True, text=True, check=True).stdout
    open("cxx_gmma.tsv", "w").write(out)
    src = open("gen_cxx_gmma.cpp").read()
    refused = []
    n = 24
    for c in CASES:
        n += 1
        if f"case{n}" in dropped:
            refused.append("\t".join([c[0], str(c[1]), c[2], c[3], c[4], f"({c[5][0]},{c[5][1]})",
                                      "_" if c[6] is None else str(c[6]), f"({c[7][0]},{c[7][1]})", str(c[8])]))
    open("cxx_refused.txt", "w").write("\n".join(refused) + "\n")
    print(f"{len(out.splitlines())} answers, {len(refused)} refused; {len(src)} bytes of driver")


if __name__ == "__main__":
    main()
