#!/usr/bin/env python3
"""The pinned attention kernels' SASS keeps the softmax beside the product (issue #61).

In the overlap schedule's loop a consumer issues `S_j` and `O += P_{j-1}·V_{j-1}`, waits for
`S_j` (`WARPGROUP.DEPBAR.LE gsb0, 0x2`: the product's two groups, one a 64-wide half of the
head dimension; 0x4 for head dimension 256, 0x1 for the `_wide` kernels' one group), runs the softmax (its `MUFU.EX2`s), then waits for
the product (`WARPGROUP.DEPBAR.LE gsb0, 0x0`). `ptxas` hoists that second wait to the top of
its basic block, above the softmax, unless something pins it (`body`'s `PIN`, docs/gpu.md).
This assembles each kernel (`ptxas -arch=sm_90a`), disassembles it (`cuobjdump -sass`) and
counts the `EX2`s between the two waits: a pinned kernel must have its whole softmax there
(at least `--min-ex2`, 64 for 128-key blocks: a thread's scores); the others are reported.
The head dimension 256 kernels (`_hd256`) are all pinned and are checked too.

    python3 scripts/gpu/sass_guard.py gpu/kernels.ptx [--ptxas P] [--cuobjdump C]
"""
import argparse, os, re, subprocess, sys, tempfile

import ptx_subset

P = argparse.ArgumentParser()
P.add_argument("ptx")
P.add_argument("--ptxas", default=os.environ.get("PTXAS", "ptxas"))
P.add_argument("--cuobjdump", default=os.environ.get("CUOBJDUMP", "cuobjdump"))
P.add_argument("--pinned", help="comma-separated kernels (default: every kernel of the PTX named *_pinned* or *_hd256*)")
P.add_argument("--report", default="attention_fwd,attention_fwd_persistent_overlap")
P.add_argument("--min-ex2", type=int, default=64)
args = P.parse_args()


def softmax_beside_product(kernel):
    """The `EX2` count between each `S` wait and the product's wait after it, in SASS order,
    and the local-memory accesses (`LDL`/`STL`: spills) there. The `S` wait leaves the
    product's groups in flight, one a 64-wide part of the head dimension (the `_wide`
    kernels': one)."""
    groups = 4 if "_hd256" in kernel else 1 if "_wide" in kernel else 2
    s_wait = re.compile(r"WARPGROUP\.DEPBAR\.LE\s+gsb0,\s*0x%d\b" % groups)
    with tempfile.TemporaryDirectory() as d:
        ptx, cubin = os.path.join(d, "k.ptx"), os.path.join(d, "k.cubin")
        ptx_subset.write(args.ptx, [kernel], ptx)
        subprocess.run([args.ptxas, "-arch=sm_90a", ptx, "-o", cubin], check=True)
        sass = subprocess.run([args.cuobjdump, "-sass", cubin], check=True, capture_output=True, text=True).stdout
    counts, ex2, local = [], None, 0
    for line in sass.splitlines():
        if s_wait.search(line):
            ex2 = 0
        elif ex2 is not None and "MUFU.EX2" in line:
            ex2 += 1
        elif ex2 is not None and re.search(r"\b(LDL|STL)\b", line):
            local += 1
        elif ex2 is not None and re.search(r"WARPGROUP\.DEPBAR\.LE\s+gsb0,\s*0x0", line):
            counts.append(ex2)
            ex2 = None
    return counts, local


failures = []
pinned = args.pinned.split(",") if args.pinned else sorted(
    k for k in ptx_subset.kernels(args.ptx) if "_pinned" in k or "_hd256" in k)
for kernel in pinned:
    counts, local = softmax_beside_product(kernel)
    # A thread's scores: --min-ex2 for 128-key blocks, in proportion for the _n176 kernels' 176
    # and the _hd256 kernels' 80; and no spill there (the registers are budgeted for it).
    need = args.min_ex2 * (176 if "_n176" in kernel else 80 if "_hd256" in kernel else 128) // 128
    ok = bool(counts) and min(counts) >= need and local == 0
    print(f"{'ok  ' if ok else 'FAIL'} {kernel}: EX2s between the S wait and the P·V wait: {counts} "
          f"(at least {need}), spills there: {local}")
    if not ok:
        failures.append(kernel)
for kernel in args.report.split(","):
    print(f"     {kernel} (not pinned): {softmax_beside_product(kernel)[0]}")
if failures:
    sys.exit(f"the product's wait is above the softmax, or a spill beside it, in {', '.join(failures)}")
