#!/usr/bin/env bash
# The C++ side of scripts/compile_time.sh: the same calls (the same shapes, 80 distinct calls per
# operation, or one call repeated with `repeated_OP`) through CuTe C++ 4.2's headers and g++ -O2,
# ms per call after subtracting the headers alone. The headers come from PyPI wheels (CUTLASS
# 4.2 and the three CUDA header wheels it includes), downloaded into target/ and never committed.
#   scripts/compile_time_cxx.sh [N] [OP...]
# OPs: coalesce composition logical_divide zipped_divide logical_product blocked_product, each
# also as repeated_OP.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-80}
shift || true
ops=("$@")
[ ${#ops[@]} -gt 0 ] || ops=(coalesce composition logical_divide zipped_divide logical_product blocked_product)
work="$root/target/compile_time_cxx"
mkdir -p "$work"
if [ ! -d "$work/x/cutlass_library" ]; then
    pip download --no-deps -q -d "$work/wheels" nvidia-cutlass==4.2.0.0 nvidia-cuda-cccl-cu12==12.9.27 \
        nvidia-cuda-runtime-cu12==12.9.79 nvidia-cuda-nvcc-cu12==12.9.86
    for w in "$work"/wheels/*.whl; do unzip -q -o "$w" -d "$work/x"; done
fi
x="$work/x"
flags=(-std=c++17 -O2 -c -o /dev/null -I"$x/cutlass_library/source/include" -I"$x/nvidia/cuda_cccl/include"
    -I"$x/nvidia/cuda_runtime/include" -I"$x/nvidia/cuda_nvcc/include")

# The calls of scripts/compile_time.sh, written in CuTe C++ (a, b as there).
gen() {
    local op=$1 i a b same=false
    [[ $op != repeated_* ]] || { op=${op#repeated_}; same=true; }
    echo "#include <cute/layout.hpp>"
    echo "using namespace cute;"
    echo "int calls() { int s = 0;"
    for ((i = 0; i < n_calls; i++)); do
        a=$((i % 9 + 2)); b=$((i / 9 + 2))
        ! $same || { a=2; b=2; }
        case $op in
            none) ;;
            coalesce) echo "s += size(coalesce(Layout<Shape<Int<$a>,Shape<Int<1>,Int<$b>>>,Stride<Int<1>,Stride<Int<$((a * b))>,Int<$a>>>>{}));" ;;
            composition) echo "s += size(composition(Layout<Shape<Int<$((2 * a))>,Int<$b>>,Stride<Int<1>,Int<$((2 * a))>>>{}, Layout<Shape<Int<$a>,Int<2>>,Stride<Int<2>,Int<1>>>{}));" ;;
            logical_divide) echo "s += size(logical_divide(Layout<Shape<Int<$((4 * a))>,Int<$((2 * b))>>,Stride<Int<1>,Int<$((4 * a))>>>{}, Tile<Layout<Int<4>>,Layout<Int<2>>>{}));" ;;
            zipped_divide) echo "s += size(zipped_divide(Layout<Shape<Int<$((4 * a))>,Int<$((2 * b))>>,Stride<Int<1>,Int<$((4 * a))>>>{}, Tile<Layout<Int<4>>,Layout<Int<2>>>{}));" ;;
            logical_product) echo "s += size(logical_product(Layout<Shape<Int<2>,Int<$a>>,Stride<Int<1>,Int<2>>>{}, Layout<Shape<Int<$b>,Int<2>>,Stride<Int<1>,Int<$b>>>{}));" ;;
            blocked_product) echo "s += size(blocked_product(Layout<Shape<Int<2>,Int<$a>>,Stride<Int<$a>,Int<1>>>{}, Layout<Shape<Int<3>,Int<$b>>,Stride<Int<1>,Int<3>>>{}));" ;;
            *) echo "unknown operation $op" >&2; exit 1 ;;
        esac
    done
    echo "return s; }"
}

build() {
    n_calls=$2 gen "$1" > "$work/calls.cpp"
    local t0 t1
    t0=$(date +%s%N)
    g++ "${flags[@]}" "$work/calls.cpp"
    t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000000))
}

base=$(build none 0)
printf '%-26s %8s %10s\n' operation "ms/call" "total ms"
for op in "${ops[@]}"; do
    t=$(build "$op" "$n")
    printf '%-26s %8.1f %10d\n' "$op" "$(awk -v t="$t" -v b="$base" -v n="$n" 'BEGIN { print (t - b) / n }')" "$t"
done
echo "(baseline, the headers alone: $base ms)"
