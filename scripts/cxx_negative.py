#!/usr/bin/env python3
"""Differential run of `cute eval` against CuTe C++ 4.2's headers on random layouts with
negative strides (issue "The floor, round 4"): composition, logical_divide, logical_product,
blocked_product, left_inverse, right_inverse, coalesce. Each input is static C++ (`Int<>`); an
input C++ refuses with a static_assert is dropped from the build and counted as refused.

Every answer is classified:
  same          both answer, the same function (equal text, or equal at every index)
  differ        both answer, different functions (a bug on one side; listed)
  cxx-only      C++ answers, we refuse; C++'s answer is checked against the operation's law
                (lawful: a refusal CuTe does not make, listed; unlawful: our refusal stands)
  ours-only     we answer, C++ refuses; our answer is checked against the law (listed if not)
  both-refuse

    python3 scripts/cxx_negative.py <cutlass include> <cccl> <cuda_runtime> <cuda_nvcc> [N] [SEED]

Needs g++ and a release build of `cute` (target/release/cute). Prints the counts and the cases
worth reading.
"""
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "data"))
from cxx_driver import build_dropping, cpp_layout, split_layout  # noqa: E402

OPS = ["composition", "logical_divide", "logical_product", "blocked_product", "left_inverse", "right_inverse",
       "coalesce"]


def rand_layout(r):
    rank = r.choice([1, 1, 2, 2, 3])
    shape = [r.choice([1, 2, 2, 3, 4, 5, 6, 8]) for _ in range(rank)]
    stride = [r.choice([-8, -6, -4, -3, -2, -1, -1, 0, 1, 1, 2, 3, 4, 6, 8, 12]) for _ in range(rank)]
    if rank == 1:
        return f"{shape[0]}:{stride[0]}"
    return "(" + ",".join(map(str, shape)) + "):(" + ",".join(map(str, stride)) + ")"


# ------------------------------------------------------------ layouts as functions (C++ semantics)

def parse_tuple(s):
    s = s.strip().replace("_", "")
    pos = 0

    def walk():
        nonlocal pos
        if s[pos] == "(":
            pos += 1
            items = []
            while True:
                items.append(walk())
                if s[pos] == ",":
                    pos += 1
                    continue
                pos += 1  # ')'
                return items
        m = re.match(r"-?\d+", s[pos:])
        pos += len(m.group(0))
        return int(m.group(0))

    return walk()


def parse_layout(s):
    shape, stride = split_layout(s)
    return parse_tuple(shape), parse_tuple(stride)


def size(t):
    if isinstance(t, int):
        return t
    p = 1
    for x in t:
        p *= size(x)
    return p


def tdiv(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def crd2idx(i, shape, stride):
    """C++'s layout(i) for an integer i (truncating division: odd at negative i)."""
    if isinstance(shape, int):
        return i * stride
    total = 0
    for k, (s, d) in enumerate(zip(shape, stride)):
        if k == len(shape) - 1:
            total += crd2idx(i, s, d)
        else:
            n = size(s)
            r = i - tdiv(i, n) * n if n else 0
            total += crd2idx(r, s, d)
            i = tdiv(i, n) if n else 0
    return total


def call(l, i):
    return crd2idx(i, *l)


def image(l):
    return [call(l, i) for i in range(size(l[0]))]


def extents(t):
    return [t] if isinstance(t, int) else [x for y in t for x in extents(y)]


def lawful(op, a, b, r, rest=None):
    """Whether `r` (C++'s or ours) meets the operation's law for (a, b). A negative extent is
    not a layout (C++ computes some from negative strides)."""
    if any(x < 0 for x in extents(r[0])):
        return False
    if op == "composition":
        return size(r[0]) == size(b[0]) and all(call(r, i) == call(a, call(b, i)) for i in range(size(b[0])))
    if op == "coalesce":
        return image(r) == image(a)
    if op == "left_inverse":
        return all(call(a, call(r, call(a, i))) == call(a, i) for i in range(size(a[0])))
    if op == "right_inverse":
        return all(call(a, call(r, i)) == i for i in range(size(r[0])))
    if op in ("logical_product", "blocked_product"):
        ia, ib, ir = set(image(a)), set(image(b)), set(image(r))
        return size(r[0]) == size(a[0]) * size(b[0]) and len(ir) == len(ia) * len(ib)
    if op == "logical_divide":
        # The definition: R == A o (B, C), C = complement(B, size(A)) (ours: `rest`, None
        # where we refuse it, as for a B that walks down: then unchecked, counted unlawful).
        if rest is None:
            return False
        nb, nc = size(b[0]), size(rest[0])
        return size(r[0]) == nb * nc and all(
            call(r, i) == call(a, call(b, i % nb) + call(rest, i // nb)) for i in range(nb * nc))
    return True


def main():
    inc = sys.argv[1:5]
    n = int(sys.argv[5]) if len(sys.argv) > 5 else 1000
    r = random.Random(int(sys.argv[6]) if len(sys.argv) > 6 else 58)
    cases = []
    while len(cases) < n:
        op = r.choice(OPS)
        a = rand_layout(r)
        b = rand_layout(r) if op in ("composition", "logical_divide", "logical_product", "blocked_product") else None
        if not re.search(r":.*-", a + (b or "")):
            continue
        cases.append((op, a, b))
    work = "/tmp/cxx_negative"
    os.makedirs(work, exist_ok=True)
    cpp, binary = f"{work}/neg.cpp", f"{work}/neg"

    def write(dropped):
        out = ["#include <cute/tensor.hpp>", "#include <cstdio>", "#include <unistd.h>", "#include <sys/wait.h>",
               "using namespace cute;"]
        for k, (op, a, b) in enumerate(cases):
            if f"case{k}" in dropped:
                continue
            args = cpp_layout(a) + ("," + cpp_layout(b) if b else "")
            out.append(f'void case{k}() {{ printf("{k}\\t"); print({op}({args})); printf("\\n"); }}')
        out.append("int main() {")
        # Each case in a child: one that faults at run time (C++ divides by a zero it computed)
        # prints nothing, and counts as refused.
        out += [f"  {{ fflush(stdout); pid_t p = fork(); if (p == 0) {{ case{k}(); fflush(stdout); _exit(0); }} "
                f"int st; waitpid(p, &st, 0); }}" for k in range(len(cases)) if f"case{k}" not in dropped]
        out.append("}")
        open(cpp, "w").write("\n".join(out) + "\n")

    dropped = build_dropping(write, cpp, binary, sum((["-I", p] for p in inc), []))
    cxx = {}
    for line in subprocess.run([binary], capture_output=True, text=True, check=True).stdout.splitlines():
        k, _, v = line.partition("\t")
        if v:
            cxx[int(k)] = v
    exprs = "\n".join(f"{op}({a}{',' + b if b else ''})" for op, a, b in cases) + "\n"
    cute = os.path.join(HERE, "..", "target", "release", "cute")
    ours = subprocess.run([cute, "eval", "--style", "cpp"], input=exprs, capture_output=True, text=True).stdout
    ours = ours.splitlines()
    assert len(ours) == len(cases), (len(ours), len(cases))
    # complement(B, size(A)) of each divide, for its definition (ours; C++'s where B's strides
    # are positive: the corpus checks them equal).
    rests = "\n".join(f"complement({b},{size(parse_layout(a)[0])})" if op == "logical_divide" else "0"
                       for op, a, b in cases) + "\n"
    rests = subprocess.run([cute, "eval", "--style", "cpp"], input=rests, capture_output=True, text=True).stdout
    rests = [None if x.startswith("error") or ":" not in x else parse_layout(x) for x in rests.splitlines()]
    counts, notes = {}, []
    for k, (op, a, b) in enumerate(cases):
        o, c = ours[k], cxx.get(k)
        la, lb = parse_layout(a), (parse_layout(b) if b else None)
        if o.startswith("error") and c is None:
            kind = "both-refuse"
        elif o.startswith("error") and op.endswith("product") and re.search(r":.*-", b):
            # Decided (docs/deviations.md): a product whose tiler walks down is refused as its
            # composition complement o B is.
            kind = "cxx-only (tiler walks down: refused as its composition)"
        elif o.startswith("error"):
            try:
                ok = lawful(op, la, lb, parse_layout(c), rests[k])
            except (ValueError, ZeroDivisionError, RecursionError):
                ok = False
            kind = "cxx-only (lawful)" if ok else "cxx-only (unlawful)"
            if ok:
                notes.append(f"{op}({a}{',' + b if b else ''}): C++ {c}, ours {o}")
        elif c is None:
            ok = lawful(op, la, lb, parse_layout(o), rests[k])
            kind = "ours-only" if ok else "ours-only (UNLAWFUL)"
            if not ok:
                notes.append(f"{op}({a}{',' + b if b else ''}): ours {o} breaks the law")
        else:
            lo, lc = parse_layout(o), parse_layout(c)
            if o.replace("_", "") == c.replace("_", "") or (size(lo[0]) == size(lc[0]) and image(lo) == image(lc)):
                kind = "same"
            elif op == "left_inverse" and all(
                    call(lo, call(la, i)) == call(lc, call(la, i)) for i in range(size(la[0]))):
                # C++'s inverse of a layout that walks down has a negative extent; compared
                # where a left inverse is read, at L's indices (docs/deviations.md).
                kind = "same at L's indices (C++ has a negative extent)"
            elif any(x < 0 for x in extents(lc[0])):
                kind = "C++ not a layout (a negative extent)"
            else:
                kind = "differ"
                notes.append(f"{op}({a}{',' + b if b else ''}): C++ {c}, ours {o}")
        counts[kind] = counts.get(kind, 0) + 1
    print(f"{len(cases)} inputs with negative strides, {len(dropped)} refused by C++ at compile time, "
          f"{len(cases) - len(dropped) - len(cxx)} faulted at run time")
    for kind, v in sorted(counts.items()):
        print(f"  {kind}: {v}")
    for line in notes[:60]:
        print("   ", line)


if __name__ == "__main__":
    main()
