#!/usr/bin/env python3
"""Run the PTX kernels of gpu/ on the GPU machine: check every kernel against NumPy/PyTorch
(integer-valued inputs where exactness matters, ragged sizes included), time them with CUDA
events (median of repeated launches) and compare with a device-to-device copy and cuBLAS.

    python3 scripts/gpu/run.py [--ptx gpu/kernels.ptx] [--json OUT.json] [--sass DIR]

--sass DIR: assemble the PTX with ptxas (registers, spills: `ptxas -v`), dump the SASS with
cuobjdump and compare the instruction counts of each layout-indexed kernel with its
hand-indexed twin.
"""
import argparse, json, os, re, statistics, subprocess, sys

import cupy as cp
import numpy as np
import torch

import steady

P = argparse.ArgumentParser()
P.add_argument("--ptx", default=os.path.join(os.path.dirname(__file__), "../../gpu/kernels.ptx"))
P.add_argument("--json")
P.add_argument("--sass")
P.add_argument("--reps", type=int, default=20)
P.add_argument("--baseline", help="an earlier PTX whose mma.sync HGEMMs are timed in turn with these, same process")
args = P.parse_args()

mod = cp.RawModule(path=args.ptx)
K = {name: mod.get_function(name) for name in [
    "dot_product", "transpose_naive", "transpose_padded", "transpose_swizzled", "transpose_padded_by_hand",
    "sgemm_layouts", "sgemm_by_hand", "sgemm_ld", "sgemm_blocked", "sgemm_static_4096", "sgemm_cta64", "hgemm", "hgemm_by_hand", "hgemm_static_4096", "hgemm_cta128x64"]}
results = {"device": torch.cuda.get_device_name(0)}
failures = []


def check(name, ok, detail=""):
    print(f"  {'ok  ' if ok else 'FAIL'} {name} {detail}")
    if not ok:
        failures.append(name)


def timed_pair(fs, rounds=3):
    """Median milliseconds of each of `fs`, measured in turn `rounds` times (the twins of a
    comparison see the same clocks and temperature); each the median of its rounds."""
    times = {name: [] for name in fs}
    for _ in range(rounds):
        for name, f in fs.items():
            times[name].append(timed(f))
    return {name: statistics.median(t) for name, t in times.items()}


def timed(f, reps=None):
    """Median milliseconds of `f()` over `reps` (default --reps) launches, in its own steady
    state (`steady.timed`)."""
    return steady.timed(f, reps or args.reps)


def copy_bandwidth(nbytes):
    """GB/s of a device-to-device copy of `nbytes` (read + write counted)."""
    src = cp.ones(nbytes // 4, dtype=cp.float32)
    dst = cp.empty_like(src)
    ms = timed(lambda: cp.copyto(dst, src))
    return 2 * nbytes / ms / 1e6


u64 = np.uint64

# ---------------------------------------------------------------- dot product
print("dot product")
dot = K["dot_product"]
THREADS = 256


def run_dot(a, b, blocks):
    out = cp.zeros(1, dtype=cp.float32)
    dot((blocks,), (THREADS,), (a, b, out, u64(a.size)))
    return out


x = cp.arange(8, dtype=cp.float32)
v = float(run_dot(x, x, 1)[0])
check("puzzle input [0,8)·[0,8) = 140.0", v == 140.0, f"(got {v})")
results["dot_puzzle"] = v
rng = np.random.default_rng(0)
for n in (1_000_003, 1 << 20):  # ragged (scalar path) and a multiple of 4 (vector path)
    a = rng.integers(-1, 2, n).astype(np.float32)
    b = rng.integers(-1, 2, n).astype(np.float32)
    v = float(run_dot(cp.asarray(a), cp.asarray(b), 264)[0])
    want = float(np.dot(a.astype(np.int64), b.astype(np.int64)))
    check(f"n={n} integer-valued, exact", v == want, f"({v} vs {want})")
n = 1 << 26
a = cp.random.rand(n, dtype=cp.float32)
b = cp.random.rand(n, dtype=cp.float32)
blocks = 132 * 8
v = float(run_dot(a, b, blocks)[0])
want = float(cp.dot(a.astype(cp.float64), b.astype(cp.float64)))
check("n=2^26 random, relative error < 1e-4", abs(v - want) / want < 1e-4, f"({v} vs {want})")
out = cp.zeros(1, dtype=cp.float32)
ms = timed(lambda: dot((blocks,), (THREADS,), (a, b, out, u64(n))))
gbs = 2 * n * 4 / ms / 1e6
copy = copy_bandwidth(2 * n * 4)
results["dot_2^26"] = {"ms": ms, "GB/s": gbs, "copy GB/s": copy, "fraction of copy": gbs / copy}
print(f"  2^26: {ms:.3f} ms, {gbs:.0f} GB/s read; copy of the same bytes {copy:.0f} GB/s: {gbs / copy:.0%}")

# ---------------------------------------------------------------- transpose
print("transpose")


def transpose_grid(name, m, n):
    return ((n + 31) // 32, (m + 31) // 32)


def run_transpose(name, a):
    m, n = a.shape
    out = cp.empty((n, m), dtype=cp.float32)
    K[name](transpose_grid(name, m, n), (32, 8), (a, out, u64(m), u64(n)))
    return out


names = ["transpose_naive", "transpose_padded", "transpose_swizzled", "transpose_padded_by_hand"]
for m, n in ((1000, 999), (33, 65), (4096, 4096)):
    a = cp.arange(m * n, dtype=cp.float32).reshape(m, n)
    for name in names:
        check(f"{name} {m}x{n} exact", bool((run_transpose(name, a) == a.T).all()))
m = n = 8192
a = cp.random.rand(m, n, dtype=cp.float32)
out = cp.empty((n, m), dtype=cp.float32)
copy = copy_bandwidth(m * n * 4)
results["transpose_8192"] = {"copy GB/s": copy}
tms = timed_pair({name: (lambda f=K[name], grid=transpose_grid(name, m, n): f(grid, (32, 8), (a, out, u64(m), u64(n))))
                  for name in names})
for name in names:
    ms = tms[name]
    gbs = 2 * m * n * 4 / ms / 1e6
    results["transpose_8192"][name] = {"ms": ms, "GB/s": gbs, "fraction of copy": gbs / copy}
    print(f"  {name} 8192x8192: {ms:.3f} ms, {gbs:.0f} GB/s, {gbs / copy:.0%} of copy ({copy:.0f} GB/s)")

# ---------------------------------------------------------------- sgemm
print("sgemm")
torch.backends.cuda.matmul.allow_tf32 = False
torch.backends.cudnn.allow_tf32 = False


# Block tile of each SGEMM entry point (16x16 threads each).
SGEMM_TILE = {"sgemm_cta64": 64}


def run_sgemm(name, a, b):
    m, k = a.shape
    n = b.shape[1]
    c = cp.empty((m, n), dtype=cp.float32)
    t = SGEMM_TILE.get(name, 128)
    K[name](((n + t - 1) // t, (m + t - 1) // t), (16, 16), (u64(m), u64(n), u64(k), a, b, c))
    return c


for m, n, k in ((1000, 1004, 996), (129, 4, 8), (256, 256, 260)):
    a = cp.asarray(rng.integers(-2, 3, (m, k)).astype(np.float32))
    b = cp.asarray(rng.integers(-2, 3, (k, n)).astype(np.float32))
    want = (a.astype(cp.float64) @ b.astype(cp.float64)).astype(cp.float32)
    for name in ("sgemm_layouts", "sgemm_by_hand", "sgemm_blocked", "sgemm_cta64"):
        check(f"{name} {m}x{n}x{k} integer-valued, exact", bool((run_sgemm(name, a, b) == want).all()))
    # The same product on sub-matrices of padded ones (leading dimensions past the extents).
    pa = cp.zeros((m, k + 12), dtype=cp.float32)
    pb = cp.zeros((k, n + 8), dtype=cp.float32)
    pc = cp.full((m, n + 4), -7.0, dtype=cp.float32)
    pa[:, :k], pb[:, :n] = a, b
    K["sgemm_ld"](((n + 127) // 128, (m + 127) // 128), (16, 16),
                  (u64(m), u64(n), u64(k), u64(k + 12), u64(n + 8), u64(n + 4), pa, pb, pc))
    check(f"sgemm_ld {m}x{n}x{k} (lda {k + 12}, ldb {n + 8}, ldc {n + 4}) exact, padding untouched",
          bool((pc[:, :n] == want).all()) and bool((pc[:, n:] == -7.0).all()))
s = 4096
ta = torch.rand(s, s, device="cuda", dtype=torch.float32)
tb = torch.rand(s, s, device="cuda", dtype=torch.float32)
a, b = cp.asarray(ta), cp.asarray(tb)
tc = ta @ tb
c = run_sgemm("sgemm_layouts", a, b)
err = float(cp.abs(c - cp.asarray(tc)).max())
check("sgemm_layouts 4096^3 vs torch.matmul (fp32), max abs error < 1e-2", err < 1e-2, f"({err:.2e})")
cs = cp.empty((s, s), dtype=cp.float32)
K["sgemm_static_4096"]((s // 128, s // 128), (16, 16), (a, b, cs))
check("sgemm_static_4096 equals sgemm_layouts bit for bit", bool((cs == c).all()))
flop = 2 * s ** 3
ms_torch = timed(lambda: torch.matmul(ta, tb))
results["sgemm_4096"] = {"torch ms": ms_torch, "torch TFLOP/s": flop / ms_torch / 1e9}
c = cp.empty((s, s), dtype=cp.float32)
SGEMMS = ("sgemm_layouts", "sgemm_by_hand", "sgemm_static_4096", "sgemm_ld", "sgemm_blocked", "sgemm_cta64")

def sgemm_args(name):
    """The 4096^3 arguments of each SGEMM entry point's signature."""
    if name == "sgemm_static_4096":
        return (a, b, c)
    if name == "sgemm_ld":
        return (u64(s),) * 6 + (a, b, c)
    return (u64(s),) * 3 + (a, b, c)


sms = timed_pair({name: (lambda f=K[name], x=sgemm_args(name), t=SGEMM_TILE.get(name, 128): f((s // t, s // t), (16, 16), x))
                  for name in SGEMMS})
for name in SGEMMS:
    ms = sms[name]
    results["sgemm_4096"][name] = {"ms": ms, "TFLOP/s": flop / ms / 1e9, "fraction of cuBLAS": ms_torch / ms}
    print(f"  {name} 4096^3: {ms:.3f} ms, {flop / ms / 1e9:.1f} TFLOP/s, {ms_torch / ms:.0%} of torch.matmul fp32 "
          f"({flop / ms_torch / 1e9:.1f} TFLOP/s)")

# ---------------------------------------------------------------- hgemm
print("hgemm")


# Block tile (m, n) and threads of each HGEMM entry point.
HGEMM_TILE = {"hgemm_cta128x64": (128, 64, 128)}


def hgemm_launch(name, m, n):
    tm, tn, threads = HGEMM_TILE.get(name, (128, 128, 256))
    return ((n + tn - 1) // tn, (m + tm - 1) // tm), (threads,)


def run_hgemm(a, b, name="hgemm"):
    m, k = a.shape
    n = b.shape[1]
    c = cp.empty((m, n), dtype=cp.float16)
    K[name](*hgemm_launch(name, m, n), (u64(m), u64(n), u64(k), a, b, c))
    return c


for m, n, k in ((1000, 1000, 1000), (129, 8, 8), (256, 384, 520), (77, 136, 2040)):
    # Entries in {-1, 0, 1}: every sum is an integer of magnitude <= k <= 2048, exact in fp16.
    a = cp.asarray(rng.integers(-1, 2, (m, k)).astype(np.float16))
    b = cp.asarray(rng.integers(-1, 2, (k, n)).astype(np.float16))
    want = (a.astype(cp.float64) @ b.astype(cp.float64)).astype(cp.float16)
    for name in ("hgemm", "hgemm_by_hand", "hgemm_cta128x64"):
        check(f"{name} {m}x{n}x{k} integer-valued, exact", bool((run_hgemm(a, b, name) == want).all()))
ta = torch.rand(s, s, device="cuda", dtype=torch.float16)
tb = torch.rand(s, s, device="cuda", dtype=torch.float16)
a, b = cp.asarray(ta), cp.asarray(tb)
want = (ta.float() @ tb.float())
c = torch.as_tensor(run_hgemm(a, b), device="cuda")
rel = float(((c.float() - want).abs() / want.abs()).max())
check("hgemm 4096^3 vs fp32 matmul of the same inputs, relative error < 2e-3", rel < 2e-3, f"({rel:.2e})")
cs = cp.empty((s, s), dtype=cp.float16)
K["hgemm_static_4096"]((s // 128, s // 128), (256,), (a, b, cs))
check("hgemm_static_4096 equals hgemm bit for bit", bool((cs == cp.asarray(c)).all()))
ms_torch = timed(lambda: torch.matmul(ta, tb))
c = cp.empty((s, s), dtype=cp.float16)
HGEMMS = ("hgemm", "hgemm_by_hand", "hgemm_static_4096", "hgemm_cta128x64")
c_new = cp.asarray(run_hgemm(a, b))
base = cp.RawModule(path=args.baseline) if args.baseline else None
if base:
    for name in HGEMMS:
        ca = cp.empty((s, s), dtype=cp.float16)
        f, x = base.get_function(name), (a, b, ca) if name == "hgemm_static_4096" else (u64(s),) * 3 + (a, b, ca)
        f(*hgemm_launch(name, s, s), x)
        check(f"baseline {name} 4096^3 equals this PTX's hgemm bit for bit", bool((ca == c_new).all()))
hms = timed_pair({pre + name: (lambda f=ptx.get_function(name), x=(a, b, c) if name == "hgemm_static_4096" else (u64(s),) * 3 + (a, b, c),
                               g=hgemm_launch(name, s, s): f(*g, x))
                  for pre, ptx in (("", mod), ("baseline ", base)) if ptx for name in HGEMMS})
results["hgemm_4096"] = {"torch ms": ms_torch, "torch TFLOP/s": flop / ms_torch / 1e9}
for name, ms in hms.items():
    results["hgemm_4096"][name] = {"ms": ms, "TFLOP/s": flop / ms / 1e9, "fraction of cuBLAS": ms_torch / ms}
    print(f"  {name} 4096^3: {ms:.3f} ms, {flop / ms / 1e9:.1f} TFLOP/s, {ms_torch / ms:.0%} of torch.matmul fp16 "
          f"({flop / ms_torch / 1e9:.1f} TFLOP/s)")

# ---------------------------------------------------------------- SASS
if args.sass:
    os.makedirs(args.sass, exist_ok=True)
    cubin = os.path.join(args.sass, "kernels.cubin")
    v = subprocess.run(["ptxas", "-arch=sm_90a", "-O3", "-v", args.ptx, "-o", cubin],
                       capture_output=True, text=True, check=True)
    open(os.path.join(args.sass, "ptxas.txt"), "w").write(v.stderr)
    sass = subprocess.run(["cuobjdump", "--dump-sass", cubin], capture_output=True, text=True, check=True).stdout
    open(os.path.join(args.sass, "kernels.sass"), "w").write(sass)
    counts = {}
    for fn, body in re.findall(r"Function : (\w+)\n(.*?)(?=\n\s*Function :|\Z)", sass, re.S):
        ops = re.findall(r"/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", body)
        counts[fn] = {"instructions": len(ops), "by opcode": {}}
        for op in ops:
            base = op.split(".")[0]
            counts[fn]["by opcode"][base] = counts[fn]["by opcode"].get(base, 0) + 1
    usage = {}
    for fn, regs in re.findall(r"Compiling entry function '(\w+)'.*?Used (\d+) registers", v.stderr, re.S):
        usage[fn] = int(regs)
    spills = {fn: int(st) + int(ld) for fn, st, ld in
              re.findall(r"Compiling entry function '(\w+)'.*?(\d+) bytes spill stores, (\d+) bytes spill loads", v.stderr, re.S)}
    results["sass"] = {"instructions": {f: c["instructions"] for f, c in counts.items()}, "registers": usage,
                       "spill bytes": spills, "any spills": any(spills.values())}
    for layouts, hand in (("transpose_padded", "transpose_padded_by_hand"), ("sgemm_layouts", "sgemm_by_hand"),
                          ("sgemm_ld", "sgemm_by_hand"), ("hgemm", "hgemm_by_hand"),
                          ("hgemm_sm90", "hgemm_sm90_by_hand")):
        cl, ch = counts[layouts], counts[hand]
        same = cl["by opcode"] == ch["by opcode"]
        print(f"  SASS {layouts}: {cl['instructions']} instructions, {usage.get(layouts)} registers; "
              f"{hand}: {ch['instructions']}, {usage.get(hand)}; same opcode counts: {same}")
        if not same:
            diff = {op: (cl["by opcode"].get(op, 0), ch["by opcode"].get(op, 0))
                    for op in set(cl["by opcode"]) | set(ch["by opcode"])
                    if cl["by opcode"].get(op, 0) != ch["by opcode"].get(op, 0)}
            print(f"    differences (layouts, by hand): {diff}")
    print(f"  spill bytes: {spills}")

if args.json:
    json.dump(results, open(args.json, "w"), indent=1)
print("FAILED: " + ", ".join(failures) if failures else "all checks passed")
sys.exit(1 if failures else 0)
