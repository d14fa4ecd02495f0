#!/usr/bin/env bash
# The tests that touch unsafe code (the tensors' unchecked indexing) under Miri. Needs a nightly
# toolchain with the miri component (rustup toolchain install nightly -c miri).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo +nightly miri test -p cute-static --lib tensor
cargo +nightly miri test -p cute-dyn --lib tensor
# The inline small vector under every cute-dyn layout (its unsafe: the initialized prefix).
cargo +nightly miri test -p cute-dyn --lib small
# Layout::build's and Layout::written's slot, written by a call and read back (every operation
# and every clone returns through it).
cargo +nightly miri test -p cute-dyn --lib build_returns
cargo +nightly miri test -p cute-dyn --lib clones_and_maps
cargo +nightly miri test -p cute-kernels -- dot_product transpose residue_tiles
