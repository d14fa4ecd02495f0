#!/usr/bin/env bash
# Time `cargo build` of generated crates with N static operations (type-level coalesce of N
# distinct corpus layouts, printed), for N = 0, 50, 200: the per-operation cost is
# (t(N) - t(0)) / N. Usage: scripts/compile_time.sh [--release]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
profile="${1:-}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Distinct non-negative layout literals from the corpus.
python3 - "$root" > "$work/lits.txt" <<'PY'
import json, sys, re
root = sys.argv[1]
seen = []
for line in open(f"{root}/tests/data/conformance/cases.jsonl"):
    c = json.loads(line)
    for a in c["args"]:
        if isinstance(a, str) and ":" in a and re.fullmatch(r"[0-9(),:]+", a) and a not in seen:
            seen.append(a)
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
    echo "use cute_static::{coalesce, layout};"
    echo "fn main() {"
    head -n "$n" "$work/lits.txt" | sed 's/.*/    println!("{}", coalesce(layout!(&)));/'
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
  echo "ops=$n seconds=$t (the binary prints $lines coalesced layouts)"
  [ "$n" = 0 ] && base=$t
  if [ "$n" != 0 ]; then echo "  per op: $(echo "($t - $base) * 1000 / $n" | bc) ms"; fi
done
