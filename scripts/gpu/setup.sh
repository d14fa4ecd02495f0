#!/usr/bin/env bash
# The GPU toolchain from Debian's registry (rustup cannot fetch the nvptx64 standard library
# here): rustc 1.96 with the nvptx64-nvidia-cuda target, its library sources for
# `-Z build-std=core`, and LLVM 22 for the bitcode linker (scripts/gpu/llvm-bitcode-linker).
set -eu
if [ -x /usr/bin/rustc ] && /usr/bin/rustc --print target-list | grep -q nvptx64 \
    && [ -d /usr/lib/rustlib/src/rust/library ] && [ -x /usr/lib/llvm-22/bin/llc ]; then
    exit 0
fi
SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq rustc-web cargo-web rust-web-src llvm-22 >/dev/null
