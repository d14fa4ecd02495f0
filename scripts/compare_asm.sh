#!/usr/bin/env bash
# Compare the release assembly of a loop over a static layout with the hand-written loop
# (examples/static_eval_asm.rs). When the two functions compile to the same machine code, LLVM
# merges them into one symbol and `main` calls that symbol for both: that is reported as
# IDENTICAL. Otherwise both bodies are printed with a diff.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo rustc --quiet --release --example static_eval_asm -- --emit asm -C "llvm-args=-x86-asm-syntax=intel" >/dev/null
asm=$(ls -t target/release/examples/static_eval_asm-*.s | head -n 1)
body() {
  # The instructions of one function, from its label to its .cfi_endproc, labels renamed.
  awk -v f="$1" '$0 ~ "^_?[A-Za-z0-9_]*"f"[A-Za-z0-9_]*:$" {on=1; next} on && /\.cfi_endproc/ {exit} on' "$asm" \
    | grep -v '^\s*\.' | sed -E 's/\.LBB[0-9_]+/L/g; s/#.*//; s/[[:space:]]+$//' | grep -v '^$' || true
}
body sum_static > /tmp/cute_static_asm.txt
body sum_hand > /tmp/cute_hand_asm.txt
echo "== sum_static (the layout (8,(4,8)):(32,(1,4))): $(wc -l < /tmp/cute_static_asm.txt) instructions"
cat /tmp/cute_static_asm.txt
if [ ! -s /tmp/cute_hand_asm.txt ]; then
  calls=$(grep -c 'call.*sum_static' "$asm" || true)
  echo "== sum_hand has no body of its own; main calls sum_static $calls times"
  [ "$calls" -ge 2 ] && echo "IDENTICAL: LLVM merged the hand-written loop into the layout's (same code)"
elif diff -q /tmp/cute_static_asm.txt /tmp/cute_hand_asm.txt >/dev/null; then
  echo "IDENTICAL"
else
  echo "== sum_hand: $(wc -l < /tmp/cute_hand_asm.txt) instructions"; cat /tmp/cute_hand_asm.txt
  echo "DIFFERENT:"; diff /tmp/cute_static_asm.txt /tmp/cute_hand_asm.txt || true
fi
# The swizzled layouts (cute-static's Swizzle composed with a layout), the same way.
scripts/compare_swizzle_asm.sh
