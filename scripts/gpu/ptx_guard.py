#!/usr/bin/env python3
"""Zero cost, kept: each layout-indexed kernel of gpu/kernels.ptx against its hand-indexed twin.

    python3 scripts/gpu/ptx_guard.py [gpu/kernels.ptx] [--tolerance 0.02]

For every pair (layout kernel, twin) it counts the PTX instructions of the entry's body
(directives, labels and braces are not instructions) and fails when the layout kernel has more
than `tolerance` (2%) more than its twin, or when it calls a function more often than its twin
does (every call left in a kernel after inlining is a `core` panic path: `panic_fmt`,
`expect_failed`, ...; a twin's are the kernel's own checks). It prints each kernel's count and calls, so a failure says where to look.
CI runs it after scripts/gpu/build.sh (.ci/run).
"""
import argparse
import re
import sys

# (layout-indexed kernel, its hand-indexed twin)
PAIRS = [
    ("transpose_padded", "transpose_padded_by_hand"),
    ("sgemm_layouts", "sgemm_by_hand"),
    ("sgemm_ld", "sgemm_by_hand"),
    ("sgemm_static_4096", "sgemm_by_hand"),
    ("hgemm", "hgemm_by_hand"),
    ("hgemm_static_4096", "hgemm_by_hand"),
    ("hgemm_sm90", "hgemm_sm90_by_hand"),
    # The e4m3 kernel is hgemm_sm90's body with 8-bit stages and atoms (a 128-byte k-tile, the
    # same instructions a stage): the 16-bit twin is its reference too.
    ("fp8_gemm_sm90", "hgemm_sm90_by_hand"),
    ("hgemm_sm90_tma_epi", "hgemm_sm90_tma_epi_by_hand"),
    # The e4m3 kernel whose epilogue goes through shared memory: the same body again.
    ("fp8_gemm_sm90_tma_epi", "hgemm_sm90_tma_epi_by_hand"),
    # The cluster kernels (2x1 multicasting B, 1x2 multicasting A) have no twin of their own:
    # the same body plus a cluster barrier and the multicast's rank, held to the single-block
    # twin, which their layout-derived code must not outgrow either.
    ("hgemm_sm90_tma_epi_cluster", "hgemm_sm90_tma_epi_by_hand"),
    ("hgemm_sm90_tma_epi_cluster1x2", "hgemm_sm90_tma_epi_by_hand"),
    # The ping-pong kernel: the same body with one consumer a stage and the turns' named
    # barriers, held to the same twin.
    ("hgemm_sm90_pingpong", "hgemm_sm90_tma_epi_by_hand"),
    ("attention_fwd", "attention_fwd_by_hand"),
    # The pinned kernel (the measured faster one, docs/gpu.md): the same body plus the pin's
    # predicated store, held to the same twin.
    ("attention_fwd_pinned", "attention_fwd_by_hand"),
    # The pinned kernel whose epilogue goes through shared memory (stmatrix, a TMA store a
    # tile): its register stores replaced, held to the same twin.
    ("attention_fwd_pinned_epi", "attention_fwd_by_hand"),
    # The persistent kernels (the fastest, docs/gpu.md): the same body plus the tile scheduler
    # and the rings run on across tiles, held to the same twin (no panic path since the
    # scheduler's division by the query blocks cannot be by zero).
    ("attention_fwd_persistent_overlap_pinned", "attention_fwd_by_hand"),
    ("attention_fwd_persistent_overlap_pinned_epi", "attention_fwd_by_hand"),
    # `O += P·V` in one 64x128 atom (`_wide`): one `wgmma` a k-block where the twin has two,
    # held to the same twin.
    ("attention_fwd_wide_persistent_overlap_pinned_epi", "attention_fwd_by_hand"),
]


def entries(ptx):
    """{name: (instruction count, {called function: call sites})} of every `.entry` and `.func`."""
    out, name, depth = {}, None, 0
    for line in ptx.splitlines():
        code = line.split("//")[0].strip()
        head = re.match(r"^(?:\.visible\s+)?\.(?:entry|func)\s+(?:\([^)]*\)\s*)?([\w$]+)", code)
        if head and depth == 0:
            name = head.group(1)
            out[name] = [0, {}]
            continue
        if name is None or not code:
            continue
        if code.startswith("{") or code.startswith("}"):
            depth += code.count("{") - code.count("}")
            if depth == 0 and code.startswith("}"):
                name = None
            continue
        if depth > 0 and code.endswith(";") and not code.startswith("."):
            out[name][0] += 1
            call = re.search(r"\bcall(?:\.uni)?\s+(?:\([^)]*\)\s*,\s*)?([\w$]+)", code)
            if call:
                calls = out[name][1]
                calls[call.group(1)] = calls.get(call.group(1), 0) + 1
    return {k: (v[0], v[1]) for k, v in out.items()}


def short(symbol):
    """The readable tail of a mangled `core` symbol (`panic_fmt`, `expect_failed`)."""
    parts = re.findall(r"\d+([A-Za-z_]\w*?)(?=\d|$)", symbol)
    return parts[-1] if parts else symbol


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("ptx", nargs="?", default="gpu/kernels.ptx")
    p.add_argument("--tolerance", type=float, default=0.02)
    args = p.parse_args()
    found = entries(open(args.ptx).read())
    failures = []
    for layout, hand in PAIRS:
        if layout not in found or hand not in found:
            failures.append(f"{layout} / {hand}: missing from {args.ptx}")
            continue
        (nl, cl), (nh, ch) = found[layout], found[hand]
        limit = nh * (1 + args.tolerance)
        extra = sorted(f for f in cl if cl[f] > ch.get(f, 0))
        ok = nl <= limit and not extra
        calls = lambda c: ", ".join(f"{short(f)} x{k}" for f, k in sorted(c.items())) or "none"
        print(f"{'ok  ' if ok else 'FAIL'} {layout}: {nl} PTX instructions, calls {calls(cl)}; "
              f"{hand}: {nh}, calls {calls(ch)}; {100 * (nl / nh - 1):+.1f}% (limit {100 * args.tolerance:+.0f}%)")
        if nl > limit:
            failures.append(f"{layout} has {nl} instructions, more than {hand}'s {nh} + {100 * args.tolerance:.0f}%")
        if extra:
            failures.append(f"{layout} calls {', '.join(short(f) for f in extra)} more often than {hand}")
    for f in failures:
        print(f"ptx_guard: {f}", file=sys.stderr)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
