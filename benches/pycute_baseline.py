#!/usr/bin/env python3
"""Time NVIDIA's pycute on the inputs of benches/algebra.rs (the anchor for "1000x faster").

pycute is not part of this repository: point PYCUTE_PATH at a folder holding `pycute/`
(`pip download --no-deps nvidia-cutlass==4.2.0.0`, unzip 'pycute/*').
Run: PYCUTE_PATH=/path python3 benches/pycute_baseline.py   (prints the median of 7 runs)
"""
import os, sys, statistics, timeit
sys.path.insert(0, os.environ.get("PYCUTE_PATH", "."))
from pycute import *  # noqa: F401,F403

cases = [
    ("coalesce (2,(1,6)):(1,(6,2))", lambda: coalesce(Layout((2, (1, 6)), (1, (6, 2))))),
    ("coalesce ((2,(3,4)),(3,2),1):((4,(8,24)),(2,6),12)",
     lambda: coalesce(Layout(((2, (3, 4)), (3, 2), 1), ((4, (8, 24)), (2, 6), 12)))),
    ("composition rank-2 (6,2):(8,2) o (4,3):(3,1)", lambda: composition(Layout((6, 2), (8, 2)), Layout((4, 3), (3, 1)))),
    ("composition rank-3 (4,6,8):(1,4,24) o (2,3,4):(1,8,48)",
     lambda: composition(Layout((4, 6, 8), (1, 4, 24)), Layout((2, 3, 4), (1, 8, 48)))),
    ("complement rank-1 4:2 24", lambda: complement(Layout(4, 2), 24)),
    ("complement rank-2 (2,2):(1,6) 24", lambda: complement(Layout((2, 2), (1, 6)), 24)),
    ("logical_divide (4,2,3):(2,1,8) / 4:2", lambda: logical_divide(Layout((4, 2, 3), (2, 1, 8)), Layout(4, 2))),
    ("logical_divide (9,(4,8)):(59,(13,1)) / <3:3,(2,4):(1,8)>",
     lambda: logical_divide(Layout((9, (4, 8)), (59, (13, 1))), (Layout(3, 3), Layout((2, 4), (1, 8))))),
    ("logical_product (2,2):(4,1) x 6:1", lambda: logical_product(Layout((2, 2), (4, 1)), Layout(6, 1))),
]
for name, f in cases:
    n = 2000
    runs = [min(timeit.repeat(f, number=n, repeat=1)) / n for _ in range(7)]
    print(f"{name}\t{statistics.median(runs) * 1e9:.0f} ns")
