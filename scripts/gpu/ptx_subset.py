#!/usr/bin/env python3
"""A PTX file with only the named kernels (and every declaration and non-kernel function), so
that the driver's JIT on the GPU machine compiles a few kernels in seconds, not all of them:

    python3 scripts/gpu/ptx_subset.py gpu/kernels.ptx hgemm_static_4096,hgemm out.ptx

The file is split at LLVM's `// .globl` markers, one a function; a kernel left out keeps the
declarations before its `.entry` and whatever follows its closing brace (LLVM's non-kernel
functions, such as `panic_fmt`'s body, come after the last kernel).
"""
import re
import sys

ENTRY = r"(?m)^\.visible \.entry (\w+)\("


def kernels(src):
    """The kernels of the PTX file `src`, in order."""
    return re.findall(ENTRY, open(src).read())


def write(src, names, dst):
    """Writes `src`'s declarations and the kernels `names` to `dst`; returns how many it kept."""
    names = set(names)
    parts = re.split(r"(?m)^(?=\t// \.globl\t)", open(src).read())
    out, kept = [parts[0]], set()
    for part in parts[1:]:
        m = re.search(ENTRY, part)
        if m is None or m.group(1) in names:
            out.append(part)
            kept.update([m.group(1)] if m else [])
            continue
        # The entry's body ends at the first column-0 brace after LLVM's end-of-function comment.
        close = part.index("\n}\n", part.index("// -- End function", m.start())) + 3
        out.append(part[: m.start()] + part[close:])
    missing = names - kept
    if missing:
        sys.exit(f"{src} has no kernel {', '.join(sorted(missing))}")
    open(dst, "w").write("".join(out))
    return len(kept)


if __name__ == "__main__":
    src, names, dst = sys.argv[1], sys.argv[2].split(","), sys.argv[3]
    print(f"{dst}: {write(src, names, dst)} kernels of {src}")
