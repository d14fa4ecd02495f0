#!/usr/bin/env bash
# PTX for sm_90 from the kernel crate gpu/ (outside the main workspace): gpu/kernels.ptx.
# Needs scripts/gpu/setup.sh's toolchain. RUSTC_BOOTSTRAP=1 lets the stable Debian compiler
# use the unstable features Rust on GPUs needs today (abi_ptx, stdarch_nvptx, asm on nvptx,
# build-std): the price of Rust kernels, said plainly.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
export PATH="$here:$PATH"
export RUSTC_BOOTSTRAP=1 RUSTC=/usr/bin/rustc
# Kernels unroll their fixed-count register loops: the FMA block of a GEMM step is larger
# than LLVM's default unroll threshold, and rolled, it runs 8x the loop overhead.
export RUSTFLAGS="-C target-cpu=${SM:-sm_90} -C llvm-args=-unroll-threshold=2000"
export CARGO_TARGET_DIR="$root/target/gpu"
cd "$root/gpu"
/usr/bin/cargo build --release --target nvptx64-nvidia-cuda -Z build-std=core "$@"
cp "$CARGO_TARGET_DIR/nvptx64-nvidia-cuda/release/cute_gpu.ptx" "$root/gpu/kernels.ptx"
echo "gpu/kernels.ptx: $(grep -c '^.visible .entry' "$root/gpu/kernels.ptx") kernels"
