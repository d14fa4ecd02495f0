#!/usr/bin/env python3
"""The atom layer's row reductions and accumulator relabelling on the GPU (gpu/src/probes.rs),
checked against the PTX ISA's wgmma register fragments (D: 64xN f32; A: 64x16 f16):

    python3 scripts/gpu/probe_rows.py gpu/kernels.ptx
"""
import cupy as cp, numpy as np, sys
mod = cp.RawModule(path=sys.argv[1])
f = mod.get_function("rows_probe")
rows = cp.zeros(128 * 4, dtype=cp.float32); frag = cp.zeros(128 * 32, dtype=cp.uint32)
f((1,), (128,), (rows, frag))
rows = rows.get().reshape(128, 4); frag = frag.get().reshape(128, 8, 4)
S = np.zeros((64, 128), dtype=np.float32)
for t in range(128):
    for v in range(64):
        r = 16 * (t // 32) + (t % 32) // 4 + 8 * (v // 2 % 2); c = 8 * (v // 4) + 2 * (t % 4) + v % 2
        S[r, c] = (t * 131 + v * 17) % 97
bad = 0
for t in range(128):
    for lr in range(2):
        r = 16 * (t // 32) + (t % 32) // 4 + 8 * lr
        if rows[t, lr] != S[r].max() or rows[t, 2 + lr] != S[r].sum(): bad += 1
halves = frag.view(np.uint16).reshape(128, 8, 8).view(np.float16)
for t in range(128):
    for kb in range(8):
        for j in range(8):
            m = 16 * (t // 32) + (t % 32) // 4 + 8 * (j // 2 % 2); k = 2 * (t % 4) + j % 2 + 8 * (j // 4)
            if halves[t, kb, j] != np.float16(S[m, 16 * kb + k]): bad += 1
print("rows_probe:", "exact" if bad == 0 else f"{bad} WRONG", "(128 threads: 2 row maxima and sums each, 8 k-blocks of 8 halves each)")
sys.exit(1 if bad else 0)
