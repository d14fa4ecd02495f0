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
export RUSTFLAGS="-C target-cpu=${SM:-sm_90a} -C llvm-args=-unroll-threshold=2000"
export CARGO_TARGET_DIR="$root/target/gpu"
cd "$root/gpu"
/usr/bin/cargo build --release --target nvptx64-nvidia-cuda -Z build-std=core "$@"
# Launch bounds (CUDA's __launch_bounds__, which Rust cannot spell): `.maxntid` and
# `.minnctapersm` before a kernel's body let ptxas budget registers for that many blocks per SM.
# hgemm and its hand twin: 256 threads, 2 blocks per SM (at most 128 registers a thread).
awk -v bounds="hgemm:256:2 hgemm_by_hand:256:2 hgemm_static_4096:256:2 hgemm_cta128x64:128:4 hgemm_sm90:384:1 hgemm_sm90_by_hand:384:1 hgemm_sm90_bf16:384:1 hgemm_sm90_cluster:384:1 hgemm_sm90_tma_epi:384:1 hgemm_sm90_tma_epi_by_hand:384:1 hgemm_sm90_bf16_tma_epi:384:1 hgemm_sm90_tma_epi_cluster:384:1 hgemm_sm90_bf16_tma_epi_cluster:384:1 hgemm_sm90_tma_epi_cluster1x2:384:1 hgemm_sm90_bf16_tma_epi_cluster1x2:384:1 fp8_gemm_sm90:384:1 fp8_gemm_sm90_tma_epi:384:1 fp8_gemm_sm90_tma_epi_cluster:384:1 fp8_gemm_sm90_tma_epi_cluster1x2:384:1 hgemm_sm90_pingpong:384:1 hgemm_sm90_bf16_pingpong:384:1 fp8_gemm_sm90_pingpong:384:1 attention_fwd:384:1 attention_fwd_serial:384:1 attention_fwd_pingpong:384:1 attention_fwd_serial_pingpong:384:1 attention_fwd_bf16:384:1 attention_fwd_by_hand:384:1 attention_fwd_hd64:384:1 attention_fwd_persistent:384:1 attention_fwd_persistent_overlap:384:1 attention_fwd_pinned:384:1 attention_fwd_persistent_overlap_pinned:384:1 attention_fwd_bf16_pinned:384:1 attention_fwd_bf16_persistent_overlap_pinned:384:1 attention_fwd_n176_pinned:384:1 attention_fwd_n176_persistent_overlap_pinned:384:1 attention_fwd_bf16_n176_pinned:384:1 attention_fwd_bf16_n176_persistent_overlap_pinned:384:1 attention_fwd_n176_pinned_cluster:384:1 attention_fwd_pinned_cluster:384:1 attention_fwd_hd256:384:1 attention_fwd_bf16_hd256:384:1 attention_fwd_pinned_epi:384:1 attention_fwd_persistent_overlap_pinned_epi:384:1 attention_fwd_bf16_pinned_epi:384:1 attention_fwd_bf16_persistent_overlap_pinned_epi:384:1 attention_fwd_persistent_overlap_pingpong_pinned_epi:384:1 attention_fwd_wide_pinned_epi:384:1 attention_fwd_wide_persistent_overlap_pinned_epi:384:1 attention_fwd_n176_wide_persistent_overlap_pinned:384:1 attention_fwd_bf16_wide_pinned_epi:384:1 attention_fwd_bf16_wide_persistent_overlap_pinned_epi:384:1 attention_fwd_bf16_n176_wide_persistent_overlap_pinned:384:1 attention_fwd_n176_persistent_overlap_pinned_epi:384:1 attention_fwd_n176_wide_persistent_overlap_pinned_epi:384:1 attention_fwd_bf16_n176_wide_persistent_overlap_pinned_epi:384:1 attention_fwd_wide_persistent_overlap_pingpong_pinned_epi:384:1" '
    BEGIN { n = split(bounds, list, " "); for (i = 1; i <= n; i++) { split(list[i], f, ":"); t[f[1]] = f[2]; b[f[1]] = f[3] } }
    /^\.visible \.entry / { name = $3; sub(/\(.*/, "", name); pending = (name in t) ? name : "" }
    pending != "" && /^\{/ { print ".maxntid " t[pending] ", 1, 1"; print ".minnctapersm " b[pending]; if (pending ~ /_cluster(1x2)?$/) print ".reqnctapercluster 2, 1, 1"; pending = "" }
    { print }
' "$CARGO_TARGET_DIR/nvptx64-nvidia-cuda/release/cute_gpu.ptx" > "$root/gpu/kernels.ptx"
echo "gpu/kernels.ptx: $(grep -c '^.visible .entry' "$root/gpu/kernels.ptx") kernels"
