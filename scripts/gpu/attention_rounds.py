#!/usr/bin/env python3
"""The attention kernels and PyTorch's scaled_dot_product_attention backends, timed in the
same process in interleaved rounds (issue #61: ratios that one call's clocks and temperature
cannot move apart). Each kernel is given as FILE:NAME, a PTX file (trimmed with ptx_subset.py:
the JIT then takes a second) and a kernel of the `attention_kernel!` signature; a name with
`_persistent` runs on a grid of one block a multiprocessor and takes `heads`, one with `_n176`
takes key blocks of 176 (its maps of K and V have 176-row boxes), one with `_hd256` key blocks
of 80 (--d 256: every kernel and backend of the run takes that head dimension), one with
`_cluster` runs in clusters of 2 (an even grid; each block loads half of each K and V box), one
with `_epi` stores O with the TMA and takes O's map of rank 3 last.

    python3 scripts/gpu/attention_rounds.py --rounds 7 --json OUT.json \\
        new.ptx:attention_fwd old.ptx:attention_fwd new.ptx:attention_fwd_persistent

Checks first: every kernel against PyTorch's math backend in fp32 (O and the log-sum-exp) on
ragged and causal cases, and on the first sequence of each timed shape. Then R rounds: in each,
every shape and mask, every kernel and backend in turn, each the median of --reps launches
after 200 ms of its own (steady.py). A figure is the median of its rounds. --dtype bf16 runs
the bf16 kernels (and backends) instead. --launch-only N: N launches each, no timing (for
Nsight Compute).
"""
import argparse, ctypes, json, math, statistics, sys, time

import cupy as cp
import numpy as np
import torch
import torch.nn.functional as F
from torch.nn.attention import SDPBackend, sdpa_kernel

import steady

P = argparse.ArgumentParser()
P.add_argument("kernels", nargs="+", help="FILE:KERNEL")
P.add_argument("--rounds", type=int, default=5)
P.add_argument("--reps", type=int, default=20)
P.add_argument("--dtype", default="fp16", choices=["fp16", "bf16"])
P.add_argument("--d", type=int, default=128, choices=[64, 128, 256], help="head dimension")
P.add_argument("--shapes", default="64x4096,32x8192,16x16384", help="batch*heads x seq, comma-separated")
P.add_argument("--causal", default="0,1")
P.add_argument("--backends", default="cudnn,flash", help="PyTorch backends timed beside (cudnn, flash, efficient)")
P.add_argument("--launch-only", type=int, default=0)
P.add_argument("--steady", type=float, default=0,
               help="seconds: each run alone for this long (wall-clock times printed, for nvidia-smi's samples), no checks")
P.add_argument("--json")
args = P.parse_args()

D, BM, THREADS, SMEM = args.d, 128, 384, 227 * 1024
DT = {"fp16": (torch.float16, 6), "bf16": (torch.bfloat16, 9)}[args.dtype]
SMS = cp.cuda.runtime.getDeviceProperties(0)["multiProcessorCount"]
device = torch.cuda.get_device_name(0)
print(f"{device}, {SMS} SMs, torch {torch.__version__}, {args.dtype}, head dimension {D}")

libcuda = ctypes.CDLL("libcuda.so.1")


def encode(x, dims, strides, box):
    """The TMA map of the 16-bit tensor `x`: `dims` and `box` innermost first, `strides` (bytes)
    of the dimensions after the first, 128-byte swizzle, L2 promotion 128B, in device memory."""
    n = len(dims)
    buf = (ctypes.c_uint64 * 16)()
    u64, u32 = ctypes.c_uint64, ctypes.c_uint32
    status = libcuda.cuTensorMapEncodeTiled(
        ctypes.byref(buf), DT[1], n, ctypes.c_void_p(x.data_ptr()), (u64 * n)(*dims), (u64 * (n - 1))(*strides),
        (u32 * n)(*box), (u32 * n)(*[1] * n), 0, 3, 2, 0)
    if status != 0:
        sys.exit(f"cuTensorMapEncodeTiled: error {status} (dims {dims}, box {box})")
    return cp.asarray(np.frombuffer(bytes(buf), dtype=np.uint64))


def tensor_map(x, box_rows):
    """The map of `x`, a (rows, D) row-major tensor, 64 x `box_rows` boxes (as cute-gpu encodes
    it from the kernel's `Half`)."""
    return encode(x, (D, x.numel() // D), (D * 2,), (64, box_rows))


def tensor_map_o(x, bh, seq):
    """O's map for the `_epi` kernels' TMA stores: `x` (bh, seq, D) as rank 3, innermost first
    (D, seq, bh), 64 x 64 x 1 boxes (as cute-gpu encodes it from the kernel's `OTile`): a box
    stops at its head's last row."""
    return encode(x, (D, seq, bh), (D * 2, seq * D * 2), (64, 64, 1))


class Problem:
    """`bh` sequences of `seq` tokens: Q, K, V in [-1, 1), O and the log-sum-exps."""

    def __init__(self, bh, seq, causal, seed=0):
        g = torch.Generator(device="cuda").manual_seed(seed)
        self.q, self.k, self.v = (torch.rand(bh, seq, D, device="cuda", generator=g).mul(2).sub(1).to(DT[0])
                                  for _ in range(3))
        self.o = torch.zeros_like(self.q)
        self.lse = torch.zeros(bh, seq, device="cuda", dtype=torch.float32)
        # A persistent kernel's tile scheduler: two zero words, each launch leaves them zero.
        self.counters = torch.zeros(2, device="cuda", dtype=torch.int32)
        # Q's map (128-row boxes), then K's and V's for each key block.
        self.maps = {n: [tensor_map(self.q, BM)] + [tensor_map(x, n) for x in (self.k, self.v)]
                     for n in (128, 176, 64, 88, 80)}
        self.map_o = tensor_map_o(self.o, bh, seq)
        self.bh, self.seq, self.causal = bh, seq, causal
        self.flops = 4 * bh * seq * seq * D / (2 if causal else 1)

    def launch(self, f, persistent, keys=128, cluster=1, epi=False):
        scale = np.float32(1 / math.sqrt(D) * math.log2(math.e))
        a = [np.uint64(self.seq), scale, np.uint32(self.causal), *self.maps[keys // cluster],
             np.uint64(self.o.data_ptr()), np.uint64(self.lse.data_ptr())]
        q_blocks = -(-self.seq // BM)
        o_map = [self.map_o] if epi else []
        if persistent:
            f((min(SMS, q_blocks * self.bh),), (THREADS,),
              (*a, np.uint64(self.bh), np.uint64(self.counters.data_ptr()), *o_map), shared_mem=SMEM)
        else:
            f((-(-q_blocks // cluster) * cluster, self.bh), (THREADS,), (*a, *o_map), shared_mem=SMEM)

    def sdpa(self, backend):
        q, k, v = (x.view(1, self.bh, self.seq, D) for x in (self.q, self.k, self.v))
        with sdpa_kernel(backend):
            return F.scaled_dot_product_attention(q, k, v, is_causal=self.causal)

    def errors(self, heads):
        """Largest |O - ref| and |lse - ref| over the first `heads` sequences, the reference
        PyTorch's math backend in fp32 (and the log-sum-exp of the same scaled scores)."""
        q, k, v = (x[:heads].float() for x in (self.q, self.k, self.v))
        with sdpa_kernel(SDPBackend.MATH):
            want = F.scaled_dot_product_attention(q, k, v, is_causal=self.causal)
        s = q @ k.transpose(1, 2) / math.sqrt(D)
        if self.causal:
            s = s.masked_fill(torch.ones_like(s, dtype=torch.bool).triu(1), float("-inf"))
        want_lse = torch.logsumexp(s, -1)
        eo = (self.o[:heads].float() - want).abs().max().item()
        el = (self.lse[:heads] - want_lse).abs().max().item()
        return eo, el


modules = {}
kernels = []
for spec in args.kernels:
    path, name = spec.rsplit(":", 1)
    if path not in modules:
        modules[path] = cp.RawModule(path=path)
    f = modules[path].get_function(name)
    f.max_dynamic_shared_size_bytes = SMEM
    kernels.append((spec, f, ("_persistent" in name, 176 if "_n176" in name else 80 if "_hd256" in name else 128,
                                     2 if "_cluster" in name else 1, "_epi" in name)))
BACKENDS = {"cudnn": SDPBackend.CUDNN_ATTENTION, "flash": SDPBackend.FLASH_ATTENTION,
            "efficient": SDPBackend.EFFICIENT_ATTENTION}
backends = [(b, BACKENDS[b]) for b in args.backends.split(",") if b]
shapes = [tuple(map(int, s.split("x"))) for s in args.shapes.split(",")]
masks = [bool(int(c)) for c in args.causal.split(",")]
out = {"device": device, "torch": torch.__version__, "dtype": args.dtype, "d": D, "checks": [], "rows": []}
failures = []
tol = 4e-3 if args.dtype == "fp16" else 2e-2


def runs_of(p):
    """`(name, launch)` of every kernel on `p`, then of every backend that takes it."""
    runs = [(spec, lambda f=f, fl=flags: p.launch(f, *fl)) for spec, f, flags in kernels]
    for name, b in backends:
        try:
            p.sdpa(b)
            runs.append((name, lambda b=b: p.sdpa(b)))
        except RuntimeError as e:
            print(f"  {name}: {str(e).splitlines()[0][:100]}")
    return runs


def check(p, spec, f, flags, heads):
    """One launch of `f` on `p` (`flags`: persistent, keys a block, cluster, epi) against the reference over
    its first `heads` sequences; a persistent kernel's scheduler must also leave its counters
    zero for the next launch."""
    p.o.zero_(), p.lse.zero_()
    p.launch(f, *flags)
    eo, el = p.errors(heads)
    ok = eo <= tol and el <= tol and not p.counters.any().item()
    if not ok:
        failures.append(f"{spec} {p.bh}x{p.seq} causal {p.causal}")
    out["checks"].append({"kernel": spec, "bh": p.bh, "seq": p.seq, "causal": p.causal, "heads": heads,
                          "err_o": eo, "err_lse": el, "ok": ok})
    return ok, eo, el


if args.launch_only:
    for bh, seq in shapes:
        for causal in masks:
            p = Problem(bh, seq, causal)
            for spec, f, flags in kernels:
                for _ in range(args.launch_only):
                    p.launch(f, *flags)
            torch.cuda.synchronize()
            print(f"{bh}x{seq} causal {causal}: launched")
    raise SystemExit

if args.steady:
    for bh, seq in shapes:
        for causal in masks:
            p = Problem(bh, seq, causal)
            for name, run in runs_of(p):
                t0, n = time.time(), 0
                while time.time() - t0 < args.steady:
                    for _ in range(10):
                        run()
                    torch.cuda.synchronize()
                    n += 10
                print(f"steady {bh}x{seq} causal {causal} {name}: {t0:.3f} .. {time.time():.3f}, {n} launches", flush=True)
            time.sleep(1)
    raise SystemExit

# Checks: ragged lengths (keys past seq masked, queries past it not stored), causal and not.
for bh, seq in ((1, 128), (2, 300), (1, 77), (3, 1000)):
    for causal in (False, True):
        p = Problem(bh, seq, causal, seed=seq)
        for spec, f, flags in kernels:
            ok, eo, el = check(p, spec, f, flags, bh)
            print(f"{'close' if ok else 'WRONG'} {spec} {bh}x{seq} causal {causal}: |O - ref| {eo:.1e}, |lse - ref| {el:.1e}")

for bh, seq in shapes:
    for causal in masks:
        p = Problem(bh, seq, causal)
        for spec, f, flags in kernels:
            check(p, spec, f, flags, 1)
        runs = runs_of(p)
        rounds = {name: [] for name, _ in runs}
        for _ in range(args.rounds):
            for name, run in runs:
                rounds[name].append(steady.timed(run, args.reps))
        row = {"bh": bh, "seq": seq, "causal": causal, "runs": {}}
        best = max((p.flops / statistics.median(rounds[n]) / 1e9 for n, _ in backends if n in rounds), default=None)
        print(f"{bh}x{seq} causal {causal}:")
        for name, t in rounds.items():
            ms = statistics.median(t)
            tf = p.flops / ms / 1e9
            row["runs"][name] = {"ms": ms, "TFLOP/s": tf, "rounds": t}
            vs = f" ({tf / best:.1%} of the best backend)" if best else ""
            print(f"  {name}: {ms:.4f} ms, {tf:.0f} TFLOP/s{vs}; rounds {', '.join(f'{x:.4f}' for x in t)}")
        out["rows"].append(row)
        if args.json:  # after each shape: a run cut short keeps what it measured
            json.dump(out, open(args.json, "w"), indent=1)
        del p
        torch.cuda.empty_cache()

if args.json:
    json.dump(out, open(args.json, "w"), indent=1)
if failures:
    sys.exit(f"{len(failures)} wrong results: {'; '.join(failures)}")
