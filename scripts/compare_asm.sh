#!/usr/bin/env bash
# Zero cost on the host: the release x86-64 assembly of cute-static's index arithmetic (a static
# layout, run-time matrices at run-time coordinates, a pointer tensor's tile, swizzled tiles)
# beside the same arithmetic written by hand, both printed. The comparison is a test
# (tests/zero_cost.rs, cases in tests/data/zero_cost/lib.rs): it fails when a layout function
# has more instructions than its twin or calls anything its twin does not.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test --release --test zero_cost -- --nocapture
