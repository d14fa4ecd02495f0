#!/usr/bin/env python3
"""Launch `hgemm_static_4096` of each PTX file given, three times each, in order: the kernels
for Nsight Compute to compare (issue #59: the new PTX's static kernel is ~3% slower than the
old one's with the same SASS instruction mix). On the GPU machine:

    ncu -k regex:hgemm_static_4096 -c 6 --section WarpStateStats --section SchedulerStats \
        --section MemoryWorkloadAnalysis_Tables --csv --page details \
        python3 scripts/gpu/ncu_static.py gpu/kernels.ptx old.ptx
"""
import sys

import cupy as cp

S = 4096
a = cp.random.randint(-1, 2, (S, S)).astype(cp.float16)
b = cp.random.randint(-1, 2, (S, S)).astype(cp.float16)
for path in sys.argv[1:]:
    c = cp.zeros((S, S), dtype=cp.float16)
    f = cp.RawModule(path=path).get_function("hgemm_static_4096")
    for _ in range(3):
        f((S // 128, S // 128), (256,), (a, b, c))
    cp.cuda.Device().synchronize()
    print(path, "launched")
