"""What the g++ drivers share (composed/gen_composed.py, partition/gen_partition.py): the
notation written as static CuTe C++, and the build loop. Each case is a function `caseN...()`;
an operation C++ refuses with a static_assert does not compile, so its function is dropped and
the build retried until it succeeds."""
import re
import subprocess
import sys


def modes(t):
    """The top-level modes of `(a,(b,c),d)`."""
    parts, depth, cur = [], 0, ""
    for ch in t[1:-1]:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    parts.append(cur)
    return parts


def cpp_tuple(t, maker="make_tuple"):
    """`(4,(2,_))` as static CuTe C++: `maker` of `Int<>` and `_`."""
    t = t.strip()
    if t == "_":
        return "_"
    if t.startswith("("):
        return maker + "(" + ",".join(cpp_tuple(p, maker) for p in modes(t)) + ")"
    return f"Int<{t}>{{}}"


def split_layout(text):
    """`(8,(2,4)):(1,(8,16))` as its shape and stride texts."""
    depth = 0
    for i, ch in enumerate(text):
        depth += ch == "("
        depth -= ch == ")"
        if ch == ":" and depth == 0:
            return text[:i], text[i + 1:]
    raise ValueError(f"not a layout: {text}")


def cpp_layout(text):
    """`(8,(2,4)):(1,(8,16))` as a static CuTe C++ expression."""
    shape, stride = split_layout(text)
    return f"make_layout({cpp_tuple(shape)},{cpp_tuple(stride)})"


def build_dropping(write_source, cpp, binary, inc):
    """Compile `cpp` (written by `write_source(dropped)`) into `binary`, dropping the case
    functions that fail to compile. Returns the set of dropped function names."""
    dropped = set()
    while True:
        write_source(dropped)
        r = subprocess.run(["g++", "-std=c++17", "-O0", "-fmax-errors=400", *inc, cpp, "-o", binary],
                           capture_output=True, text=True)
        if r.returncode == 0:
            return dropped
        failing = set(re.findall(r"In function 'void (case\d+(?:_op\d+)?)\(\)'", r.stderr))
        failing |= set(re.findall(r"required from here.*\n?.*?(case\d+(?:_op\d+)?)", r.stderr))
        src = open(cpp).read().split("\n")
        for m in re.finditer(re.escape(cpp) + r":(\d+):", r.stderr):
            for back in range(int(m.group(1)) - 1, -1, -1):
                fm = re.match(r"void (case\d+(?:_op\d+)?)\(\)", src[back])
                if fm:
                    failing.add(fm.group(1))
                    break
        if not failing - dropped:
            sys.stderr.write(r.stderr[-4000:])
            raise SystemExit("the C++ build fails outside any case")
        dropped |= failing
        print(f"dropped {len(failing)} (C++ refuses), retrying", file=sys.stderr)
