#!/usr/bin/env python3
"""PyTorch's scaled_dot_product_attention on the GPU machine, each backend it has (flash,
cuDNN, efficient), on the attention kernel's shapes: fp16, head dimension 128, batch*heads
sequences of seq tokens (the FlashAttention-3 paper's 16k tokens a batch), causal and not.
Medians of CUDA-event timings (each backend after 200 ms of its own launches); FLOPs as FlashAttention counts them (4*b*h*s^2*d, half causal).

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


def timed_all(fs, warm_ms=200.0):
    """Median milliseconds of each function, each in its own steady state: it alone keeps the
    GPU busy for warm_ms, then args.launches launches are timed, as the Rust host (`cute-gpu`)
    times its kernels."""
    out = []
    for f in fs:
        warm = 0.0
        while warm < warm_ms:
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            f()
            b.record()
            b.synchronize()
            warm += a.elapsed_time(b)
        ms = []
        for _ in range(args.launches):
            a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            a.record()
            f()
            b.record()
            b.synchronize()
            ms.append(a.elapsed_time(b))
        out.append(statistics.median(ms))
    return out


BACKENDS = (("flash", SDPBackend.FLASH_ATTENTION), ("cudnn", SDPBackend.CUDNN_ATTENTION),
            ("efficient", SDPBackend.EFFICIENT_ATTENTION))
for bh, seq in ((64, 4096), (32, 8192), (16, 16384)):
    q, k, v = (torch.rand(bh // 16, 16, seq, D, device="cuda", dtype=torch.float16) * 2 - 1 for _ in range(3))
    for causal in (False, True):
        flops = 4 * bh * seq * seq * D / (2 if causal else 1)
        row = {"bh": bh, "seq": seq, "causal": causal}
        runs = []
        for name, backend in BACKENDS:
            def run(backend=backend):
                with sdpa_kernel(backend):
                    return F.scaled_dot_product_attention(q, k, v, is_causal=causal)
            try:
                run()
                runs.append((name, run))
            except RuntimeError as e:
                row[name] = {"error": str(e).splitlines()[0][:120]}
        for (name, _), ms in zip(runs, timed_all([f for _, f in runs])):
            row[name] = {"ms": ms, "TFLOP/s": flops / ms / 1e9}
        results["rows"].append(row)
        print(f"batch*heads {bh}, seq {seq}, causal {causal}: " + ", ".join(
            f"{n} {r['ms']:.3f} ms ({r['TFLOP/s']:.0f} TFLOP/s)" if "ms" in r else f"{n}: {r['error']}"
            for n, r in row.items() if isinstance(r, dict)))

if args.json:
    json.dump(results, open(args.json, "w"), indent=1)
