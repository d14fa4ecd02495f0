#!/usr/bin/env python3
"""Differential cases from the CuTe Python DSL (nvidia-cutlass-dsl 4.8.1) for dynamic and mixed
layouts: the corpus's inputs with random leaves made dynamic (some with a known divisor through
cute.assume), run through the DSL. For each case it records the DSL's trace-time print (static
values, `?`, `?{div=N}`) and its run-time values (cute.printf).

Needs the DSL: python3 -m venv v && v/bin/pip install 'nvidia-cutlass-dsl[cu13]==4.8.1'.
Run: v/bin/python tests/data/gen_dsl.py > tests/data/dsl_cases.tsv
Output lines: EXPR<TAB>DSL_PRINT<TAB>VALUES   (EXPR in this project's notation, {v} / {v:d} dynamic)
"""
import io, json, os, random, re, sys, contextlib
import cutlass
import cutlass.cute as cute

here = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(7)
NARGS = 24


def parse(s):
    """The corpus notation (ints and tuples) into Python nested tuples."""
    s = s.replace("(", "[").replace(")", "]")
    return json.loads(re.sub(r"\[\]", "[]", s), parse_int=int)


def to_tuple(x):
    return tuple(to_tuple(y) for y in x) if isinstance(x, list) else x


def leaves(t):
    return [y for x in t for y in leaves(x)] if isinstance(t, tuple) else [t]


def refill(t, it):
    return tuple(refill(x, it) for x in t) if isinstance(t, tuple) else next(it)


def dynamize(t, p):
    """Each leaf: ('s', v) or ('d', v, div)."""
    def leaf(v):
        if v >= 0 and rng.random() < p:
            divs = [d for d in (2, 4, 8) if v % d == 0 and v > 0]
            return ("d", v, rng.choice(divs) if divs and rng.random() < 0.4 else 1)
        return ("s", v)
    return refill(t, iter([leaf(v) for v in leaves(t)]))


def text(t):
    if isinstance(t, tuple) and t and isinstance(t[0], str):
        if t[0] == "s":
            return str(t[1])
        return "{%d}" % t[1] if t[2] == 1 else "{%d:%d}" % (t[1], t[2])
    return "(" + ",".join(text(x) for x in t) + ")"


def is_leaf(t):
    return isinstance(t, tuple) and t and isinstance(t[0], str)


def build(t, args, counter):
    if is_leaf(t):
        if t[0] == "s":
            return t[1]
        a = args[counter[0]]
        counter[0] += 1
        return cute.assume(a, divby=t[2]) if t[2] > 1 else a
    return tuple(build(x, args, counter) for x in t)


def dyn_values(*trees):
    out = []
    for t in trees:
        def walk(x):
            if is_leaf(x):
                if x[0] == "d":
                    out.append(x[1])
            else:
                for y in x:
                    walk(y)
        walk(t)
    return out


def run(op, trees):
    """Trace and run one case; return (trace print, printf values) or None on a DSL error."""
    vals = dyn_values(*trees)
    if len(vals) > NARGS:
        return None
    trace = []

    @cute.jit
    def kern(a0: cutlass.Int32, a1: cutlass.Int32, a2: cutlass.Int32, a3: cutlass.Int32, a4: cutlass.Int32,
             a5: cutlass.Int32, a6: cutlass.Int32, a7: cutlass.Int32, a8: cutlass.Int32, a9: cutlass.Int32,
             a10: cutlass.Int32, a11: cutlass.Int32, a12: cutlass.Int32, a13: cutlass.Int32, a14: cutlass.Int32,
             a15: cutlass.Int32, a16: cutlass.Int32, a17: cutlass.Int32, a18: cutlass.Int32, a19: cutlass.Int32,
             a20: cutlass.Int32, a21: cutlass.Int32, a22: cutlass.Int32, a23: cutlass.Int32):
        args = [a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12, a13, a14, a15, a16, a17, a18, a19, a20, a21, a22, a23]
        c = [0]
        built = [build(t, args, c) for t in trees]
        layouts = [cute.make_layout(built[i], stride=built[i + 1]) for i in range(0, len(built), 2)]
        r = getattr(cute, op)(*layouts)
        trace.append(str(r))
        cute.printf("{}", r)

    # cute.printf writes from compiled code to file descriptor 1: capture the descriptor.
    import ctypes, tempfile
    libc = ctypes.CDLL(None)
    sys.stdout.flush()
    saved = os.dup(1)
    with tempfile.TemporaryFile(mode="w+b") as tmp:
        os.dup2(tmp.fileno(), 1)
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                kern(*[cutlass.Int32(v) for v in vals + [0] * (NARGS - len(vals))])
            ok = True
        except Exception:
            ok = False
        libc.fflush(None)
        os.dup2(saved, 1)
        os.close(saved)
        tmp.seek(0)
        out = tmp.read().decode(errors="replace")
    if not ok:
        return None
    lines = [l for l in out.splitlines() if l.strip()]
    if not trace or not lines:
        return None
    return trace[0], lines[-1]


class Worker:
    """A child process that runs cases one at a time: the DSL can die on some inputs (SIGFPE
    seen in 4.8.1); a dead worker is replaced and its case skipped."""

    def __init__(self):
        self.p = None

    def ask(self, op, trees):
        import subprocess
        if self.p is None or self.p.poll() is not None:
            self.p = subprocess.Popen([sys.executable, __file__, "--worker"], stdin=subprocess.PIPE,
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            self.p.stdin.write(json.dumps([op, trees]) + "\n")
            self.p.stdin.flush()
            line = self.p.stdout.readline()
        except BrokenPipeError:
            line = ""
        if not line:
            self.p = None
            return None
        got = json.loads(line)
        return tuple(got) if got else None


def untuple(x):
    return tuple(untuple(y) for y in x) if isinstance(x, list) else x


def worker():
    for line in sys.stdin:
        op, trees = json.loads(line)
        trees = [untuple(t) for t in trees]
        try:
            got = run(op, trees)
        except Exception:
            got = None
        print(json.dumps(got), flush=True)


def corpus(op):
    out = []
    for line in open(os.path.join(here, "conformance", "cases.jsonl")):
        c = json.loads(line)
        if c["op"] == op and "error" not in c and "quirk" not in c and all(isinstance(a, str) and "<" not in a for a in c["args"]):
            out.append(c["args"])
    return out


def main(per_op=60):
    w = Worker()
    for op in ("coalesce", "composition", "logical_divide", "zipped_divide", "tiled_divide", "filter"):
        n = 0
        for args in corpus(op):
            if n >= per_op:
                break
            if any("-" in a or ":" not in a for a in args):
                continue
            trees = []
            for a in args:
                s, d = a.split(":")
                trees += [dynamize(to_tuple(parse(s)), 0.5), dynamize(to_tuple(parse(d)), 0.5)]
            if op in ("logical_divide", "zipped_divide", "tiled_divide"):
                # the tiler static: the DSL's complement of a dynamic tiler is a known fault
                trees[2:] = [staticize(t) for t in trees[2:]]
            got = w.ask(op, trees)
            if got is None:
                continue
            layouts = [text(trees[i]) + ":" + text(trees[i + 1]) for i in range(0, len(trees), 2)]
            print(f"{op}({','.join(layouts)})\t{got[0]}\t{got[1]}")
            sys.stdout.flush()
            n += 1


def staticize(t):
    return ("s", t[1]) if is_leaf(t) else tuple(staticize(x) for x in t)


if __name__ == "__main__":
    if sys.argv[1:] == ["--worker"]:
        worker()
    else:
        main(int(sys.argv[1]) if len(sys.argv) > 1 else 60)
