#!/usr/bin/env bash
# Run the grammar-based fuzz tests (tests/fuzz.rs) for as long as asked: rounds of
# CUTE_FUZZ_CASES cases per property, a fresh random seed each round, until SECONDS pass.
# A failure stops the run; proptest prints the minimal input and saves it to
# tests/fuzz.proptest-regressions (commit it with the fix).
#   scripts/fuzz.sh [SECONDS=3600] [CASES_PER_ROUND=20000]
set -euo pipefail
cd "$(dirname "$0")/.."
limit=${1:-3600}
cases=${2:-20000}
cargo test --release --test fuzz --no-run
start=$(date +%s)
rounds=0
while (( $(date +%s) - start < limit )); do
  CUTE_FUZZ_CASES=$cases cargo test --release --test fuzz -q 2>&1 | tail -3
  rounds=$((rounds + 1))
  echo "round $rounds: $((rounds * cases)) inputs per property, $(( $(date +%s) - start )) s"
done
echo "fuzz: $rounds rounds x $cases inputs x 4 properties (x3 styles for expressions), no failure"
