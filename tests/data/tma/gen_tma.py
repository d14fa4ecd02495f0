#!/usr/bin/env python3
"""Generator of tests/data/tma/cxx_tma.tsv: the tensor-map parameters CuTe C++ 4.2's
`make_tma_copy(SM90_TMA_LOAD{}, gtensor, slayout)` passes to `cuTensorMapEncodeTiled`, which
the driver defines itself (with `CUTLASS_ENABLE_DIRECT_CUDA_DRIVER_CALL`, and
`__CUDACC_VER_MAJOR__` 12 so that CuTe encodes on a host build) and prints. Each case runs in a
child process: a case C++ refuses with an `assert` is recorded as `refused`.

Each line: `ELEM	GLOBAL	SMEM	MULTICAST	PARAMS	TMA TENSOR`, GLOBAL the global layout in the notation (run-time
extents and strides `{v}`), SMEM the shared tile (`KIND MAJOR SHAPE`: `tile_to_shape` of a
GMMA atom, or a layout), PARAMS `dtype=.. rank=.. gdim=.. gstride=.. box=.. estride=..
interleave=.. swizzle=.. l2=.. oob=..` and the layout of `get_tma_tensor(shape(gtensor))`
(its scaled-basis strides: the TMA coordinates of each global coordinate), or `refused`. Run from this directory:

    python3 gen_tma.py <cutlass include> <cccl include> <cuda_runtime include> <cuda_nvcc include>
"""
import subprocess
import sys

# (element, global layout (ours), global layout (C++ with ints), smem (ours), smem (C++))
def atom(major, kind, elem, shape):
    cxx = f"tile_to_shape(SM90::GMMA::Layout_{major}_{kind}_Atom<{elem}>{{}}, Shape<{','.join('_' + x for x in shape.strip('()').split(','))}>{{}})"
    return f"{kind} {major} {shape}", cxx


def glayout(shape, stride):
    """A global layout of run-time extents and strides (`1` static): ours and C++'s."""
    ours = "(" + ",".join(f"{{{s}}}" for s in shape) + "):(" + ",".join("1" if d == 1 else f"{{{d}}}" for d in stride) + ")"
    # 64-bit extents and strides where an int cannot hold them (TMA's extents reach 2^32).
    wide = any(x >= 1 << 31 for x in (*shape, *stride))
    t = "int64_t" if wide else "int"
    cxx = "make_layout(make_shape(" + ",".join(f"{t}({s})" for s in shape) + "), make_stride(" + ",".join(
        "Int<1>{}" if d == 1 else f"{t}({d})" for d in stride) + "))"
    return ours, cxx


CASES = []
def case(elem, g, s, multicast=1):
    CASES.append((elem, *g, *s, multicast))

M, K, L = 1000, 512, 3
case("half_t", glayout((M, K), (K, 1)), atom("K", "SW128", "half_t", "(128,64)"))
case("half_t", glayout((M, K), (K, 1)), atom("K", "SW64", "half_t", "(128,32)"))
case("half_t", glayout((M, K), (K, 1)), atom("K", "SW32", "half_t", "(64,16)"))
case("half_t", glayout((M, K), (K, 1)), atom("K", "INTER", "half_t", "(64,8)"))
case("half_t", glayout((M, K), (K, 1)), atom("K", "SW128", "half_t", "(128,128)"))
case("half_t", glayout((M, K), (1, 1024)), atom("MN", "SW128", "half_t", "(128,64)"))
case("half_t", glayout((M, K), (1, 1024)), atom("MN", "SW64", "half_t", "(64,32)"))
case("half_t", glayout((M, K), (1, 1024)), atom("MN", "SW32", "half_t", "(64,16)"))
case("bfloat16_t", glayout((M, K), (K, 1)), atom("K", "SW128", "bfloat16_t", "(256,64)"))
case("tfloat32_t", glayout((M, K), (K, 1)), atom("K", "SW128", "tfloat32_t", "(128,32)"))
case("uint8_t", glayout((M, K), (K, 1)), atom("K", "SW128", "uint8_t", "(128,128)"))
case("half_t", glayout((M, K, L), (K, 1, M * K)), atom("K", "SW128", "half_t", "(128,64)"))
case("half_t", glayout((M, K, L), (1, 1024, 1024 * K)), atom("MN", "SW128", "half_t", "(128,64)"))
case("half_t", glayout((M, K), (K, 1)), ("(64,32):(32,1)", "make_layout(Shape<_64,_32>{}, Stride<_32,_1>{})"))
case("float", glayout((M, K), (K, 1)), ("(32,64):(64,1)", "make_layout(Shape<_32,_64>{}, Stride<_64,_1>{})"))
case("float", glayout((M, K), (1, 1024)), ("(32,8):(1,32)", "make_layout(Shape<_32,_8>{}, Stride<_1,_32>{})"))
# Multicast to 2 and 4 CTAs of a cluster (the box divided, last mode first).
case("half_t", glayout((M, K), (K, 1)), atom("K", "SW128", "half_t", "(128,64)"), 2)
case("half_t", glayout((M, K), (K, 1)), atom("K", "SW128", "half_t", "(128,64)"), 4)
case("half_t", glayout((M, K), (1, 1024)), atom("MN", "SW128", "half_t", "(128,64)"), 2)
case("half_t", glayout((M, K, L), (K, 1, M * K)), atom("K", "SW128", "half_t", "(128,64)"), 2)
# TMA's full range: 5 dimensions, and extents past 2^31 (the driver takes up to 2^32).
case("half_t", glayout((M, K, 2, 3, 4), (K, 1, M * K, 2 * M * K, 6 * M * K)), atom("K", "SW128", "half_t", "(128,64)"))
case("half_t", glayout((M, K, 2, 3, 4), (1, 1024, 1024 * K, 2048 * K, 6144 * K)), atom("MN", "SW128", "half_t", "(128,64)"))
case("half_t", glayout((3000000000, 64), (64, 1)), atom("K", "SW128", "half_t", "(128,64)"))
# Rank 6: C++ groups the trailing modes into TMA's fifth.
case("half_t", glayout((M, K, 2, 3, 4, 5), (K, 1, M * K, 2 * M * K, 6 * M * K, 24 * M * K)), atom("K", "SW128", "half_t", "(128,64)"))
case("uint8_t", glayout((4294967296, 2), (1, 4294967296)), ("(256,2):(1,256)", "make_layout(Shape<_256,_2>{}, Stride<_1,_256>{})"))
case("half_t", glayout((3000000000, 2, 2), (1, 3000000000, 6000000000)), atom("MN", "SW128", "half_t", "(128,64)"))
# Refusals: majorness, a stride that is not 16-byte aligned, a box past 256.
case("half_t", glayout((M, K), (1, 1024)), atom("K", "SW128", "half_t", "(128,64)"))
case("half_t", glayout((M, 1001), (1001, 1)), atom("K", "SW128", "half_t", "(128,64)"))
case("half_t", glayout((M, K), (K, 1)), ("(512,8):(8,1)", "make_layout(Shape<_512,_8>{}, Stride<_8,_1>{})"))


def source():
    out = ["#define CUTLASS_ENABLE_DIRECT_CUDA_DRIVER_CALL 1",
           "#include <cuda.h>", "#include <cstdio>", "#include <unistd.h>", "#include <sys/wait.h>",
           'extern "C" CUresult CUDAAPI cuTensorMapEncodeTiled(CUtensorMap *m, CUtensorMapDataType dt, cuuint32_t rank, void *addr, const cuuint64_t *gdim, const cuuint64_t *gstr, const cuuint32_t *box, const cuuint32_t *estr, CUtensorMapInterleave il, CUtensorMapSwizzle sw, CUtensorMapL2promotion l2, CUtensorMapFloatOOBfill oob) {',
           '  printf("dtype=%d rank=%u gdim=", (int)dt, rank);',
           '  for (unsigned i = 0; i < rank; ++i) printf("%s%llu", i ? "," : "", (unsigned long long)gdim[i]);',
           '  printf(" gstride=");',
           '  for (unsigned i = 0; i + 1 < rank; ++i) printf("%s%llu", i ? "," : "", (unsigned long long)gstr[i]);',
           '  printf(" box=");',
           '  for (unsigned i = 0; i < rank; ++i) printf("%s%u", i ? "," : "", box[i]);',
           '  printf(" estride=");',
           '  for (unsigned i = 0; i < rank; ++i) printf("%s%u", i ? "," : "", estr[i]);',
           '  printf(" interleave=%d swizzle=%d l2=%d oob=%d", (int)il, (int)sw, (int)l2, (int)oob);',
           "  return CUDA_SUCCESS;", "}",
           "#include <cute/tensor.hpp>", "#include <cute/atom/copy_traits_sm90_tma.hpp>",
           "#include <cute/atom/mma_traits_sm90_gmma.hpp>", "using namespace cute;",
           "alignas(128) static unsigned char gmem[1 << 26];"]
    calls = []
    for n, (elem, g, gc, s, sc, mc) in enumerate(CASES):
        key = f"{elem}\\t{g}\\t{s}\\t{mc}\\t"
        op = "SM90_TMA_LOAD{}, g, s" if mc == 1 else f"SM90_TMA_LOAD_MULTICAST{{}}, g, s, Int<{mc}>{{}}"
        out.append(f"void case{n}() {{ auto g = make_tensor(make_gmem_ptr(reinterpret_cast<{elem}*>(gmem)), {gc}); "
                   f"auto s = {sc}; printf(\"%s\", \"{key}\"); fflush(stdout); "
                   f"auto t = make_tma_copy({op}); printf(\"\\t\"); print(t.get_tma_tensor(shape(g)).layout()); printf(\"\\n\"); }}")
        calls.append(n)
    out.append("int main() {")
    for n in calls:
        out.append(f"  {{ fflush(stdout); pid_t p = fork(); if (p == 0) {{ fclose(stderr); case{n}(); fflush(stdout); _exit(0); }} "
                   f"int st; waitpid(p, &st, 0); if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) printf(\"refused\\n\"); }}")
    out.append("}")
    return "\n".join(out) + "\n"


def main():
    inc = sum((["-I", p] for p in sys.argv[1:]), [])
    open("gen_cxx_tma.cpp", "w").write(source())
    subprocess.run(["g++", "-std=c++17", "-O0", "-D__CUDACC_VER_MAJOR__=12", "-D__CUDACC_VER_MINOR__=9", *inc,
                    "gen_cxx_tma.cpp", "-o", "/tmp/gen_cxx_tma"], check=True)
    out = subprocess.run(["/tmp/gen_cxx_tma"], capture_output=True, text=True, check=True).stdout
    open("cxx_tma.tsv", "w").write(out)
    print(f"{len(out.splitlines())} cases")


if __name__ == "__main__":
    main()
