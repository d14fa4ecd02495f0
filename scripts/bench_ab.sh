#!/usr/bin/env bash
# Compare criterion bench binaries, run in turn (A B A B ...) so that the machine's drift (up to
# 30% over minutes on the shared 2-core machine) falls on all of them alike. Prints, per case,
# each binary's criterion median in every round, and the minimum over the rounds, in ns.
#   scripts/bench_ab.sh ROUNDS BIN... [-- CRITERION_ARGS...]
# A binary is what `cargo bench --bench algebra --no-run` reports as its executable; copy it
# away before building the other version. CRITERION_ARGS default to
# `--warm-up-time 0.3 --measurement-time 1` (a filter may follow them).
set -euo pipefail
rounds=$1
shift
bins=()
while [ $# -gt 0 ] && [ "$1" != -- ]; do
    bins+=("$1")
    shift
done
[ "${1:-}" != -- ] || shift
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--warm-up-time 0.3 --measurement-time 1)
for ((r = 0; r < rounds; r++)); do
    for b in "${bins[@]}"; do
        # criterion prints `group/name` then, on the same or the next line, `time: [lo med hi]`
        "$b" --bench --noplot "${args[@]}" 2> /dev/null |
            awk -v bin="$(basename "$b")" '
                /^[^ ]+\// { name = $0; sub(/ +time:.*/, "", name); sub(/^[^\/]+\//, "", name) }
                /time:/ { sub(/.*time: +\[/, ""); u = $4
                          x = $3 * (u == "ps" ? 0.001 : u == "µs" || u == "us" ? 1000 : u == "ms" ? 1e6 : 1)
                          printf "%s\t%s\t%s\n", bin, name, x }'
    done
done | awk -F'\t' '
    { k = $2; seen[k] = 1; bins[$1] = 1; all[$1, k] = all[$1, k] " " $3
      if (!(($1, k) in lo) || $3 + 0 < lo[$1, k]) lo[$1, k] = $3 + 0 }
    END { for (k in seen) { print k; for (b in bins) printf "  %-24s min %8.2f ns  rounds:%s\n", b, lo[b, k], all[b, k] } }'
