#!/usr/bin/env python3
"""The kernels each of PyTorch's SDPA backends launches for the attention shapes of issue #61,
with their launch shapes (grid, block, registers, shared memory) from the profiler's trace:
their names carry the tiles (cuDNN's, for instance), which tells what our kernels compete with.

    python3 scripts/gpu/sdpa_kernels.py [--seq 4096] [--bh 64]
"""
import argparse, json, os, tempfile

import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel
from torch.profiler import ProfilerActivity, profile

P = argparse.ArgumentParser()
P.add_argument("--seq", type=int, default=4096)
P.add_argument("--bh", type=int, default=64)
args = P.parse_args()
print(torch.cuda.get_device_name(0), torch.__version__)
for causal in (False, True):
    q, k, v = (torch.randn(1, args.bh, args.seq, 128, device="cuda", dtype=torch.float16) for _ in range(3))
    for backend in (SDPBackend.CUDNN_ATTENTION, SDPBackend.FLASH_ATTENTION, SDPBackend.EFFICIENT_ATTENTION):
        with sdpa_kernel(backend):
            F.scaled_dot_product_attention(q, k, v, is_causal=causal)
            torch.cuda.synchronize()
            with profile(activities=[ProfilerActivity.CUDA]) as p:
                F.scaled_dot_product_attention(q, k, v, is_causal=causal)
                torch.cuda.synchronize()
        with tempfile.TemporaryDirectory() as d:
            trace = os.path.join(d, "trace.json")
            p.export_chrome_trace(trace)
            events = json.load(open(trace))["traceEvents"]
        for e in events:
            if e.get("cat") == "kernel":
                a = e.get("args", {})
                launch = {k: a.get(k) for k in ("grid", "block", "registers per thread", "shared memory")}
                print(f"causal {causal} {backend.name}: {e['name'][:160]} {launch}")
