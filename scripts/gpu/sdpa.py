#!/usr/bin/env python3
"""PyTorch's scaled_dot_product_attention on the GPU machine, each backend it has (flash,
cuDNN, efficient), on the attention kernel's shapes: fp16, head dimension 128, batch*heads
sequences of seq tokens (the FlashAttention-3 paper's 16k tokens a batch), causal and not.
Medians of CUDA-event timings; FLOPs as FlashAttention counts them (4*b*h*s^2*d, half causal).

    python3 scripts/gpu/sdpa.py [--launches N] [--json OUT.json]
"""
import argparse, json, statistics

import torch
from torch.nn.attention import SDPBackend, sdpa_kernel
import torch.nn.functional as F

P = argparse.ArgumentParser()
P.add_argument("--launches", type=int, default=30)
P.add_argument("--json")
args = P.parse_args()

D = 128
results = {"device": torch.cuda.get_device_name(0), "torch": torch.__version__, "rows": []}
print(f"{results['device']}, torch {torch.__version__}")


def timed(f):
    f()
    torch.cuda.synchronize()
    ms = []
    for _ in range(args.launches):
        a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        a.record()
        f()
        b.record()
        b.synchronize()
        ms.append(a.elapsed_time(b))
    return statistics.median(ms)


for bh, seq in ((64, 4096), (32, 8192), (16, 16384)):
    q, k, v = (torch.rand(bh // 16, 16, seq, D, device="cuda", dtype=torch.float16) * 2 - 1 for _ in range(3))
    for causal in (False, True):
        flops = 4 * bh * seq * seq * D / (2 if causal else 1)
        row = {"bh": bh, "seq": seq, "causal": causal}
        for name, backend in (("flash", SDPBackend.FLASH_ATTENTION), ("cudnn", SDPBackend.CUDNN_ATTENTION),
                              ("efficient", SDPBackend.EFFICIENT_ATTENTION)):
            try:
                with sdpa_kernel(backend):
                    ms = timed(lambda: F.scaled_dot_product_attention(q, k, v, is_causal=causal))
                row[name] = {"ms": ms, "TFLOP/s": flops / ms / 1e9}
            except RuntimeError as e:
                row[name] = {"error": str(e).splitlines()[0][:120]}
        results["rows"].append(row)
        print(f"batch*heads {bh}, seq {seq}, causal {causal}: " + ", ".join(
            f"{n} {r['ms']:.3f} ms ({r['TFLOP/s']:.0f} TFLOP/s)" if "ms" in r else f"{n}: {r['error']}"
            for n, r in row.items() if isinstance(r, dict)))

if args.json:
    json.dump(results, open(args.json, "w"), indent=1)
