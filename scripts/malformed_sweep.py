#!/usr/bin/env python3
"""A malformed-input sweep of `cute eval` over `gmma_desc`, `tma_desc` and `tile_to_shape`
(issue "The floor, round 4"): random inputs near the valid ones (wrong ranks, zero, negative and
huge extents, strides that walk down or skip, tiles that do not divide, bad coordinates, element
types, multicast counts, orders). Each answer must be an answer or an error; an error must not
name an internal step instead of the input (the phrases in INTERNAL, the messages the issue
listed). Prints the counts and every message that names an internal step.

    python3 scripts/malformed_sweep.py [N] [SEED]        (needs target/release/cute)
"""
import os
import random
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CUTE = os.path.join(HERE, "..", "target", "release", "cute")

# Messages of an internal step (the twelve classes the issue found, by their phrases).
INTERNAL = ["rank mismatch in append", "rank mismatch in composition", "modes overlap in composition",
            "division by zero in ceil_div", "got an integer", "walks 1:0", "arithmetic overflow in multiply",
            "(below 16384)", "past the range of a basis layout", "index out of range in get"]

ATOMS = ["Layout_K_SW128_Atom<half_t>", "Layout_K_SW64_Atom<half_t>", "Layout_K_SW32_Atom<bfloat16_t>",
         "Layout_K_INTER_Atom<half_t>", "Layout_MN_SW128_Atom<half_t>", "Layout_K_SW128_Atom<float_e4m3_t>",
         "Layout_MN_SW64_Atom<tfloat32_t>"]
TYPES = ["half_t", "bfloat16_t", "float", "tfloat32_t", "uint8_t", "double", "int64_t", "float16", "quad"]
EXTENTS = [0, 1, 4, 8, 16, 24, 48, 64, 128, 256, 3000000000, 4294967297, 4611686018427387904, -8]


def shape(r, rank=None):
    rank = rank or r.choice([1, 2, 2, 2, 3, 3, 4, 5, 6])
    return "(" + ",".join(str(r.choice(EXTENTS[:10] if r.random() < .8 else EXTENTS)) for _ in range(rank)) + ")"


def layout(r):
    rank = r.choice([1, 2, 2, 2, 3, 5, 6])
    s = [r.choice([1, 4, 8, 16, 64, 0, 3000000000]) for _ in range(rank)]
    d = [r.choice([1, 1, 8, 64, 512, -1, 0, 3, 1024]) for _ in range(rank)]
    dyn = lambda x: f"{{{x}}}" if x not in (0, 1) and r.random() < .5 and x > 0 else str(x)
    return "(" + ",".join(map(dyn, s)) + "):(" + ",".join(map(dyn, d)) + ")"


def smem(r):
    if r.random() < .6:
        return f"tile_to_shape({r.choice(ATOMS)},{shape(r, r.choice([2, 2, 3]))})"
    return layout(r)


def case(r):
    k = r.randrange(3)
    if k == 0:
        args = [r.choice(["K", "MN", "K", "X"]), r.choice(TYPES + ["16", "-16"]), smem(r)]
        if r.random() < .6:
            args += [shape(r, r.choice([2, 2, 3])), shape(r, r.choice([2, 2, 3, 1]))]
            if r.random() < .3:
                args.append(str(r.choice([0, -32, 8, 1024, 1 << 40])))
        return f"gmma_desc({','.join(args)})"
    if k == 1:
        args = [r.choice(TYPES), layout(r), smem(r)]
        if r.random() < .3:
            args.append(str(r.choice([1, 2, 4, 3, 0, -1, 1 << 33])))
        return f"tma_desc({','.join(args)})"
    args = [r.choice(ATOMS + [layout(r)]), shape(r)]
    if r.random() < .3:
        args.append(shape(r))
    return f"tile_to_shape({','.join(args)})"


def main():
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    r = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 58)
    exprs = [case(r) for _ in range(n)]
    out = subprocess.run([CUTE, "eval"], input="\n".join(exprs) + "\n", capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"cute eval exited with {out.returncode}: {out.stderr[-2000:]}")
    lines = out.stdout.splitlines()
    assert len(lines) == n, (len(lines), n)
    answers = sum(not x.startswith("error") for x in lines)
    internal = [(e, x) for e, x in zip(exprs, lines) if any(p in x for p in INTERNAL)]
    by_op = {}
    for e, x in zip(exprs, lines):
        op = e.split("(")[0]
        a, b = by_op.get(op, (0, 0))
        by_op[op] = (a + 1, b + x.startswith("error"))
    print(f"{n} inputs: {answers} answered, {n - answers} refused, {len(internal)} naming an internal step")
    for op, (a, b) in sorted(by_op.items()):
        print(f"  {op}: {a} inputs, {b} refused")
    for e, x in internal[:40]:
        print("   ", e, "->", x)


if __name__ == "__main__":
    main()
