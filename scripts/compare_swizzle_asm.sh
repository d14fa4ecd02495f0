#!/usr/bin/env bash
# Zero cost of cute-static's swizzled layouts: the release x86-64 assembly of evaluating
# `Sw<3,3,3> o 0 o (8,64):(64,1)` (and `Sw<5,0,5> o 0 o (32,32):(32,1)`) at an index, beside
# the shifts, masks and xor written by hand. Prints both and whether they are identical.
#   scripts/compare_swizzle_asm.sh (also run by scripts/compare_asm.sh)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work="$root/target/compare_asm"
mkdir -p "$work/src"
cat > "$work/Cargo.toml" <<TOML
[package]
name = "compare-asm"
version = "0.0.0"
edition = "2021"
publish = false
[dependencies]
cute-static = { path = "$root/cute-static", default-features = false }
[profile.release]
debug = false
[workspace]
TOML
cat > "$work/src/lib.rs" <<'RS'
use cute_static::typenum::{P3, P5, U0, U3, U5};
use cute_static::{layout, Composition, Swizzle};

#[no_mangle]
pub extern "C" fn sw333_layout(i: usize) -> usize {
    Swizzle::<U3, U3, P3>::new().composition(layout!((8,64):(64,1))).call(i)
}
#[no_mangle]
pub extern "C" fn sw333_by_hand(i: usize) -> usize {
    // (i % 8, i / 8) in (8,64):(64,1); the last mode takes the rest of the index, as CuTe's.
    let o = (i % 8) * 64 + i / 8;
    o ^ ((o >> 3) & 0b111_000)
}
#[no_mangle]
pub extern "C" fn sw505_layout(r: usize, c: usize) -> usize {
    Swizzle::<U5, U0, P5>::new().composition(layout!((32,32):(32,1))).call_coord(&cute_static::shape!(({r},{c})))
}
#[no_mangle]
pub extern "C" fn sw505_by_hand(r: usize, c: usize) -> usize {
    let o = r * 32 + c;
    o ^ ((o >> 5) & 31)
}
RS
(cd "$work" && cargo rustc --release -q -- --emit asm -C "llvm-args=-x86-asm-syntax=intel")
asm=$(ls "$work"/target/release/deps/compare_asm-*.s | head -1)
body() { # the instructions of function $1 (or of the function it is an alias of)
    local f=$1 alias
    alias=$(awk -v f="$f" '$1 == f && $2 == "=" {print $3}' "$asm")
    [ -n "$alias" ] && f=$alias
    awk -v f="$f" '$0 == f":" {on=1; next} on && /^\.Lfunc_end/ {exit} on && /^\t[a-z]/ {print}' "$asm"
}
status=0
for pair in "sw333_layout sw333_by_hand" "sw505_layout sw505_by_hand"; do
    set -- $pair
    echo "== $1"; body "$1"
    echo "== $2"; body "$2"
    if [ "$(body "$1")" = "$(body "$2")" ]; then echo "identical: yes"; else echo "identical: no"; status=1; fi
done
exit $status
