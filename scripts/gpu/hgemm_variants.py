#!/usr/bin/env python3
"""`hgemm_static_4096` (or `--kernel hgemm`, 4096^3) of several PTX files, side by side (issue
#59: the static kernel's PTX against an earlier one's). The first file is the reference: every
other file's output must equal it bit for bit.

    python3 scripts/gpu/hgemm_variants.py --time 7 --json OUT.json new.ptx old.ptx v1.ptx ...

Trim each file to the two kernels first (`scripts/gpu/ptx_subset.py F hgemm_static_4096,hgemm
OUT`): the JIT then takes a second a file, not the whole module's time.

--time R: R rounds, each timing every file in turn (median of --reps launches after 200 ms of
the same kernel alone, as run.py's `timed`); a file's figure is the median of its rounds.
Without --time each file's kernel is launched three times, for Nsight Compute:

    ncu -k regex:hgemm_static_4096 -c 6 --section WarpStateStats --section SchedulerStats \\
        --section MemoryWorkloadAnalysis_Tables --csv --page details \\
        python3 scripts/gpu/hgemm_variants.py gpu/kernels.ptx old.ptx
"""
import argparse, json, statistics, sys

import cupy as cp
import numpy as np

import steady

P = argparse.ArgumentParser()
P.add_argument("ptx", nargs="+")
P.add_argument("--kernel", default="hgemm_static_4096", choices=["hgemm_static_4096", "hgemm"])
P.add_argument("--time", type=int, default=0)
P.add_argument("--reps", type=int, default=30)
P.add_argument("--json")
args = P.parse_args()

S = 4096
a = cp.random.randint(-1, 2, (S, S)).astype(cp.float16)
b = cp.random.randint(-1, 2, (S, S)).astype(cp.float16)
c = cp.zeros((S, S), dtype=cp.float16)
x = (a, b, c) if args.kernel == "hgemm_static_4096" else (np.uint64(S),) * 3 + (a, b, c)
fs = {p: cp.RawModule(path=p).get_function(args.kernel) for p in args.ptx}


def launch(f):
    f((S // 128, S // 128), (256,), x)


if not args.time:
    for p, f in fs.items():
        for _ in range(3):
            launch(f)
        cp.cuda.Device().synchronize()
        print(p, "launched")
    raise SystemExit

# Integer-valued inputs in {-1, 0, 1}: every sum is exact, so the files must agree bit for bit.
want, differ = None, []
for p, f in fs.items():
    c.fill(0)
    launch(f)
    got = cp.asnumpy(c)
    want = got if want is None else want
    if not (got == want).all():
        differ.append(p)
    print(f"{p}: {'DIFFERS from' if p in differ else 'equal to'} {args.ptx[0]}")
rounds = {p: [] for p in fs}
for _ in range(args.time):
    for p, f in fs.items():
        rounds[p].append(steady.timed(lambda f=f: launch(f), args.reps))
ref = statistics.median(rounds[args.ptx[0]])
out = {"device": cp.cuda.runtime.getDeviceProperties(0)["name"].decode(), "kernel": args.kernel, "files": {}}
for p, t in rounds.items():
    ms = statistics.median(t)
    out["files"][p] = {"ms": ms, "rounds": t, "vs first": ms / ref}
    print(f"{p}: {ms:.4f} ms ({ms / ref - 1:+.1%} against {args.ptx[0]}), rounds {', '.join(f'{r:.4f}' for r in t)}")
if args.json:
    json.dump(out, open(args.json, "w"), indent=1)
if differ:
    sys.exit(f"outputs differ from {args.ptx[0]}: {', '.join(differ)}")
