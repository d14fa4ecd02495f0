"""Timing in steady state, shared by the CuPy scripts (run.py, hgemm_variants.py): each run
after WARM_MS of its own launches, so that a kernel is not timed on the clocks its predecessor
left (as `cute-gpu` times each run: docs/gpu.md, "How a figure is timed")."""
import statistics

import cupy as cp

WARM_MS = 200.0


def launch_ms(f):
    """Milliseconds of one `f()` on the current stream (CUDA events)."""
    start, stop = cp.cuda.Event(), cp.cuda.Event()
    start.record()
    f()
    stop.record()
    stop.synchronize()
    return cp.cuda.get_elapsed_time(start, stop)


def timed(f, reps):
    """Median milliseconds of `f()` over `reps` launches, after WARM_MS of `f` alone."""
    warm = 0.0
    while warm < WARM_MS:
        warm += launch_ms(f)
    return statistics.median(launch_ms(f) for _ in range(reps))
