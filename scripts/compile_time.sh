#!/usr/bin/env bash
# Compile time of the type-level algebra: for each operation, a crate making 80 distinct calls
# (distinct shapes, so that nothing is shared between them) is built in release mode; the
# time of the same crate with no calls is subtracted; ms per call is printed. Static calls and,
# where cute-static takes run-time leaves, mixed ones (`{m}` extents; `stride_*`: static extents
# with a run-time stride).
#   scripts/compile_time.sh [N] [OP...]   (N calls per operation, default 80; OPs default to all)
# The same calls through CuTe C++ and g++: scripts/compile_time_cxx.sh.
# Wall time on a shared 2-core machine varies by 10-20% from run to run; for comparing two
# versions of the type-level code, count rustc's instructions instead (valgrind's callgrind,
# the same from run to run; type checking only, `--emit=metadata`; N defaults to 10 there):
#   scripts/compile_time.sh --instructions [N] [OP...]   (millions of instructions per call)
# An OP may also be `repeated_OP` (OP's first call made N times: the same shapes throughout),
# or `=EXPR`, an expression of type usize in which `$a` and `$b` (two small numbers distinct
# per call) are substituted: to measure one piece of an operation, e.g.
#   scripts/compile_time.sh --instructions 10 '=layout!(($a,{m}):(1,$a)).complement(m).map_or(0, |l| l.size())'
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
instructions=false
if [ "${1:-}" = --instructions ]; then
    instructions=true
    shift
fi
n=${1:-$($instructions && echo 10 || echo 80)}
shift || true
ops=("$@")
[ ${#ops[@]} -gt 0 ] || ops=(coalesce composition logical_divide zipped_divide logical_product blocked_product
    mixed_logical_divide mixed_zipped_divide mixed_composition composition_2mode stride_composition stride_logical_divide)
work="$root/target/compile_time"
mkdir -p "$work/src"
cat > "$work/Cargo.toml" <<TOML
[package]
name = "compile-time"
version = "0.0.0"
edition = "2021"
publish = false
[dependencies]
cute-static = { path = "$root/cute-static" }
[profile.release]
debug = false
[workspace]
TOML

# One call per line, for call index i (a, b distinct small numbers).
gen() {
    local op=$1 i a b same=false
    # repeated_OP: OP's call with the same shapes every time (what a kernel that uses one tile
    # shape in many places costs; rustc's trait cache answers the repeats)
    [[ $op != repeated_* ]] || { op=${op#repeated_}; same=true; }
    echo "#![allow(unused)]"
    echo "use cute_static::*;"
    echo "use cute_static::typenum::{U2, U4096};"
    echo "pub fn calls(m: usize, n: usize) -> usize { let mut s = 0;"
    for ((i = 0; i < n_calls; i++)); do
        a=$((i % 9 + 2)); b=$((i / 9 + 2))
        ! $same || { a=2; b=2; }
        case $op in
            none) ;;
            # any expression, `$a`, `$b` (and arithmetic on them) substituted per call
            =*) eval "echo \"s += ${op#=};\"" ;;
            coalesce) echo "s += coalesce(layout!(($a,(1,$b)):(1,($((a * b)),$a)))).size();" ;;
            composition) echo "s += composition(layout!(($((2 * a)),$b):(1,$((2 * a)))), layout!(($a,2):(2,1))).size();" ;;
            logical_divide) echo "s += logical_divide(layout!(($((4 * a)),$((2 * b))):(1,$((4 * a)))), tiler!(<4,2>)).size();" ;;
            zipped_divide) echo "s += zipped_divide(layout!(($((4 * a)),$((2 * b))):(1,$((4 * a)))), tiler!(<4,2>)).size();" ;;
            logical_product) echo "s += logical_product(layout!((2,$a):(1,2)), layout!(($b,2):(1,$b))).size();" ;;
            blocked_product) echo "s += blocked_product(layout!((2,$a):($a,1)), layout!((3,$b):(1,3))).size();" ;;
            # logical_product's mixed case and its static twin (the same layouts, the run-time
            # extent static)
            twin_logical_product) echo "s += logical_product(layout!(($a,$((b + 5))):(1,$a)), layout!(($b,2):(1,$b))).size();" ;;
            mixed_logical_product) echo "s += logical_product(layout!(($a,{m}):(1,$a)), layout!(($b,2):(1,$b))).checked().map_or(0, |l| l.size());" ;;
            mixed_blocked_product) echo "s += blocked_product(layout!((2,$a):($a,1)), layout!((3,{m}):(1,3))).checked().map_or(0, |l| l.size());" ;;
            method_logical_product) echo "s += layout!((2,$a):(1,2)).logical_product(layout!(($b,2):(1,$b))).size();" ;;
            mixed_logical_divide) echo "s += logical_divide(layout!(({m},{n}):(1,{m})), tiler!(<$a,$b>)).checked().map_or(0, |l| l.size());" ;;
            mixed_zipped_divide) echo "s += zipped_divide(layout!(({m},{n}):(1,{m})), tiler!(<$a,$b>)).checked().map_or(0, |l| l.size());" ;;
            mixed_composition) echo "s += layout!(({m},{n}):(1,{m})).composition(tiler!(<$a,$b>)).checked().map_or(0, |l| l.size());" ;;
            # static extents, a run-time stride {m}; composition_2mode is stride_composition with
            # that stride static and not coalescing (composition's A above coalesces to one mode)
            composition_2mode) echo "s += composition(layout!(($((2 * a)),$b):(1,$((2 * a + 1)))), layout!(($a,2):(2,1))).size();" ;;
            stride_composition) echo "s += composition(layout!(($((2 * a)),$b):(1,{m})), layout!(($a,2):(2,1))).checked().map_or(0, |l| l.size());" ;;
            # the same calls as methods of the operation traits (what generic code calls)
            method_logical_divide) echo "s += layout!(($((4 * a)),$((2 * b))):(1,$((4 * a)))).logical_divide(tiler!(<4,2>)).size();" ;;
            method_blocked_product) echo "s += layout!((2,$a):($a,1)).blocked_product(layout!((3,$b):(1,3))).size();" ;;
            method_composition) echo "s += layout!(($((2 * a)),$b):(1,$((2 * a + 1)))).composition(layout!(($a,2):(2,1))).size();" ;;
            # complement of a layout with static strides and a run-time extent, and the same static
            complement) echo "s += complement(layout!(($a,$b):(1,$((2 * a)))), U4096::default()).size();" ;;
            complement_cosize) echo "s += complement_cosize(layout!(($a,$b):(1,$((2 * a))))).size();" ;;
            mixed_complement_cosize) echo "s += complement_cosize(layout!(($a,{m}):(1,$((2 * a))))).checked().map_or(0, |l| l.size());" ;;
            coalesce_by) echo "s += coalesce_by(layout!(($a,(1,$b)):(1,($((a * b)),$a))), shape!((1,1))).size();" ;;
            mixed_coalesce_by) echo "s += coalesce_by(layout!(($a,({m},$b)):(1,($((a * b)),$a))), shape!((1,1))).checked().map_or(0, |l| l.size());" ;;
            mixed_complement) echo "s += complement(layout!(($a,{m}):(1,$((2 * a)))), U4096::default()).checked().map_or(0, |l| l.size());" ;;
            # a vector of run-time length by one layout, and the same with the length static
            vector_zipped_divide) echo "s += zipped_divide(layout!({m}:1), layout!(($a,$b):(1,$a))).checked().map_or(0, |l| l.size());" ;;
            static_vector_zipped_divide) echo "s += zipped_divide(layout!($((64 * a * b)):1), layout!(($a,$b):(1,$a))).size();" ;;
            # a static block over a static shape, and over one with a run-time extent
            tile_to_shape) echo "s += tile_to_shape(layout!((2,$a):(1,2)), shape!(($((2 * b)),$((3 * a * b))))).size();" ;;
            mixed_tile_to_shape) echo "s += tile_to_shape(layout!((2,$a):(1,2)), shape!(({m},$((3 * a * b))))).checked().map_or(0, |l| l.size());" ;;
            stride_logical_divide) echo "s += logical_divide(layout!(($((4 * a)),$((2 * b))):(1,{m})), tiler!(<4,2>)).checked().map_or(0, |l| l.size());" ;;
            # the inverses of a static layout, and of the same with an extent run-time
            right_inverse) echo "s += right_inverse(layout!(($a,$((b + 11))):($b,1))).size();" ;;
            mixed_right_inverse) echo "s += right_inverse(layout!(($a,{m}):($b,1))).checked().map_or(0, |l| l.size());" ;;
            left_inverse) echo "s += left_inverse(layout!(($a,$b):($b,1))).size();" ;;
            mixed_left_inverse) echo "s += left_inverse(layout!(($a,{m}):($b,1))).checked().map_or(0, |l| l.size());" ;;
            # upcast of a static column-major matrix, and of the same with the extents run-time
            upcast) echo "s += upcast(layout!(($((2 * a)),$b):(1,$((2 * a)))), U2::default()).size();" ;;
            mixed_upcast) echo "s += upcast(layout!(({m},$b):(1,{m})), U2::default()).checked().map_or(0, |l| l.size());" ;;
            # a static layout by a right operand with run-time leaves; run-time tile sizes
            static_by_mixed_composition) echo "s += composition(layout!(($((2 * a)),$b):(1,$((2 * a)))), layout!((2,{m}):(1,2))).checked().map_or(0, |l| l.size());" ;;
            run_time_tile_zipped_divide) echo "s += zipped_divide(layout!(({m},{n}):(1,{m})), tiler!(<{n},$a>)).checked().map_or(0, |l| l.size());" ;;
        esac
    done
    echo "s }"
}

build() {
    n_calls=$2 gen "$1" > "$work/src/lib.rs"
    touch "$work/src/lib.rs"
    local t0 t1
    t0=$(date +%s%N)
    (cd "$work" && cargo build --release -q)
    t1=$(date +%s%N)
    echo $(((t1 - t0) / 1000000))
}

n_calls=0 gen none > "$work/src/lib.rs"
(cd "$work" && cargo build --release -q) # dependencies, once

if $instructions; then
    command -v valgrind > /dev/null || { echo "compile_time.sh --instructions needs valgrind" >&2; exit 1; }
    # rustc type-checking the crate under callgrind, with the command line cargo gives it.
    rustc_cmd=$(cd "$work" && touch src/lib.rs && cargo build --release -v 2>&1 |
        sed -n 's/^ *Running `\(.*--crate-name compile_time .*\)`$/\1/p')
    rustc_cmd=${rustc_cmd/--emit=dep-info,metadata,link/--emit=metadata}
    count() {
        n_calls=$2 gen "$1" > "$work/src/lib.rs"
        (cd "$work" && eval "valgrind --tool=callgrind --callgrind-out-file=/dev/null $rustc_cmd" 2>&1 |
            sed -n 's/.*Collected : //p')
    }
    base=$(count none 0)
    printf '%-22s %10s\n' operation "Minstr/call"
    for op in "${ops[@]}"; do
        t=$(count "$op" "$n")
        printf '%-22s %10.1f\n' "$op" "$(awk -v t="$t" -v b="$base" -v n="$n" 'BEGIN { print (t - b) / n / 1e6 }')"
    done
    exit 0
fi

base=$(n_calls=0 build none 0)
printf '%-22s %8s %10s\n' operation "ms/call" "total ms"
for op in "${ops[@]}"; do
    t=$(build "$op" "$n")
    printf '%-22s %8.1f %10d\n' "$op" "$(awk -v t="$t" -v b="$base" -v n="$n" 'BEGIN { print (t - b) / n }')" "$t"
done
echo "(baseline, no calls: $base ms)"
