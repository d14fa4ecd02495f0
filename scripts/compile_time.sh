#!/usr/bin/env bash
# Time `cargo build` of generated crates with N static operations (type-level OP of N
# distinct corpus cases, printed), for N = 0, 50, 200: the per-operation cost is
# (t(N) - t(0)) / N. OP is coalesce (the default), composition or logical_divide.
# Usage: scripts/compile_time.sh [--release] [OP]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
profile=""
op=coalesce
for a in "$@"; do
  case "$a" in
    --release) profile=--release ;;
    *) op="$a" ;;
  esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Distinct corpus cases of OP without negative values, as Rust expressions.
python3 - "$root" "$op" > "$work/lits.txt" <<'PY'
import sys, re
root, op = sys.argv[1], sys.argv[2]
# The cases where C++ is not a composition do not compile here (tests/conformance.rs).
deviations = set(re.findall(r'expr: "([^"]+)"', open(f"{root}/tests/conformance.rs").read()))
seen = []
for line in open(f"{root}/tests/data/conformance.tsv"):
    expr, expected, _ = (line.rstrip("\n").split("\t") + ["", ""])[:3]
    if not expr.startswith(op + "(") or expected == "error" or expr in deviations or not re.fullmatch(r"[0-9(),:<>_]+", expr[len(op) + 1:-1]):
        continue
    arg, depth, cut = expr[len(op) + 1:-1], 0, None
    for i, c in enumerate(arg):
        depth += c in "(<"
        depth -= c in ")>"
        if c == "," and depth == 0:
            cut = i
            break
    if op == "coalesce":
        if cut is not None or ":" not in arg:
            continue
        call = f"coalesce(layout!({arg}))"
    else:
        if cut is None:
            continue
        a, b = arg[:cut], arg[cut + 1:]
        if ":" not in a:
            continue
        rhs = f"tiler!({b})" if b.startswith("<") else f"layout!({b})"
        call = f"{op}(layout!({a}), {rhs})"
    if call not in seen:
        seen.append(call)
print("\n".join(seen[:200]))
PY
mkdir -p "$work/crate/src"
cat > "$work/crate/Cargo.toml" <<TOML
[package]
name = "cute-compile-time"
version = "0.0.0"
edition = "2021"
[dependencies]
cute-static = { path = "$root/cute-static" }
[workspace]
TOML
export CARGO_TARGET_DIR="$work/target"
for n in 0 50 200; do
  {
    echo "#![allow(unused_imports)]"
    echo "use cute_static::{coalesce, composition, layout, logical_divide, tiler};"
    echo "fn main() {"
    head -n "$n" "$work/lits.txt" | sed 's/.*/    println!("{}", &);/'
    echo "}"
  } > "$work/crate/src/main.rs"
  # Dependencies are built once, before the timed runs.
  (cd "$work/crate" && cargo build -q $profile 2>/dev/null || true)
  touch "$work/crate/src/main.rs"
  start=$(date +%s.%N)
  (cd "$work/crate" && cargo build -q $profile)
  end=$(date +%s.%N)
  t=$(echo "$end - $start" | bc)
  dir=debug; [ -n "$profile" ] && dir=release
  lines=$("$work/target/$dir/cute-compile-time" | wc -l)
  echo "$op ops=$n seconds=$t (the binary prints $lines layouts)"
  [ "$n" = 0 ] && base=$t
  if [ "$n" != 0 ]; then echo "  per op: $(echo "($t - $base) * 1000 / $lines" | bc) ms"; fi
done
