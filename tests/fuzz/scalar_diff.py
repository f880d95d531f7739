#!/usr/bin/env python3
"""Differential tester of scalar semantics: random expressions against Python.

Generates expressions over ints, floats and bools with every operator, comparison, `and`/`or` and
ternary from a seed, and has ptodist evaluate each one twice: folded at compile time (literal leaves)
and at run time (leaves read from input tensors). Python is the reference, with ptodist's two
documented rules (docs/language.md, "Scalar semantics"): an integer outside 64 bits is an error, and at
run time an integer power with a negative exponent is an error. Any other divergence fails.

usage: scalar_diff.py PTODIST [--seed S] [--count N] [--batch B] [--depth D] [--keep DIR] [--progress]
                      [--timeout SECONDS]
"""
import argparse
import math
import os
import random
import re
import shutil
import struct
import subprocess
import sys
import tempfile

INT_MIN, INT_MAX = -(2**63), 2**63 - 1
BINARY = ["+", "-", "*", "/", "//", "%", "**", "&", "|", "^", "<<", ">>"]
BIT_OPS = {"&", "|", "^", "<<", ">>"}
COMPARE = ["==", "!=", "<", "<=", ">", ">="]
# ptodist prints at most 50 errors and a rejected write gives two (the error, then the write's missing value).
ERRORS_PER_PROGRAM = 20
TIMEOUT_SECONDS = 120  # per ptodist process; --timeout (a starved `nice -n 19` run needs more)


class PyError(Exception):
    """What Python raises, or what ptodist's rules make an error."""


class PyTypeError(PyError):
    """An operator applied to a type it does not take (Python's TypeError)."""


# ---------------------------------------------------------------------------------------------------
# Expressions: (kind, ...) tuples. A leaf is ("int", v) / ("float", v) / ("bool", v).


def random_int(rng):
    pick = rng.random()
    if pick < 0.55:
        return rng.randint(-9, 9)
    if pick < 0.8:
        return rng.randint(-(2**20), 2**20)
    if pick < 0.9:
        return rng.choice([2**31, -(2**31), 2**62, 2**63 - 1, -(2**63), 63, 64, 65, -1, -64])
    return rng.randint(-(2**40), 2**40)


def random_float(rng):
    # Exactly representable in FP32, so the run-time leaf (read from an FP32 tensor) is the same number.
    pick = rng.random()
    if pick < 0.7:
        return rng.randint(-40, 40) / 4.0
    return as_fp32(rng.choice([0.0, -0.0, 0.5, 1e10, -1e10, 3.0e38, 1.5e-5, 2.0**-30, 65504.0]))


def random_leaf(rng):
    pick = rng.random()
    if pick < 0.55:
        return ("int", random_int(rng))
    if pick < 0.85:
        return ("float", random_float(rng))
    return ("bool", rng.random() < 0.5)


def static_float(e):
    """ptodist's static type rule: is the expression typed as a float (docs/language.md)?"""
    kind = e[0]
    if kind in ("int", "bool"):
        return False
    if kind == "float":
        return True
    if kind == "bin":
        return e[1] == "/" or static_float(e[2]) or static_float(e[3])
    if kind == "un":
        return e[1] != "not" and static_float(e[2])
    if kind == "cmp":
        return False
    if kind == "boolop":
        return static_float(e[2]) or static_float(e[3])
    if kind == "ifexp":
        return static_float(e[2]) or static_float(e[3])
    raise AssertionError(kind)


def random_expr(rng, depth):
    if depth == 0 or rng.random() < 0.25:
        return random_leaf(rng)
    pick = rng.random()
    if pick < 0.55:
        op = rng.choice(BINARY)
        lhs, rhs = random_expr(rng, depth - 1), random_expr(rng, depth - 1)
        if op in BIT_OPS and (static_float(lhs) or static_float(rhs)):
            op = rng.choice(["+", "-", "*", "//", "%"])  # a bit op on a float is a static type error
        if op in ("<<", ">>", "**") and rng.random() < 0.7:
            rhs = ("int", rng.randint(-2, 70))
        return ("bin", op, lhs, rhs)
    if pick < 0.65:
        op = rng.choice(["-", "+", "~", "not"])
        x = random_expr(rng, depth - 1)
        if op == "~" and static_float(x):
            op = "-"
        return ("un", op, x)
    if pick < 0.8:
        return ("cmp", rng.choice(COMPARE), random_expr(rng, depth - 1), random_expr(rng, depth - 1))
    if pick < 0.92:
        return ("boolop", rng.choice(["and", "or"]), random_expr(rng, depth - 1), random_expr(rng, depth - 1))
    return ("ifexp", random_expr(rng, depth - 1), random_expr(rng, depth - 1), random_expr(rng, depth - 1))


# ---------------------------------------------------------------------------------------------------
# The reference: Python's own operators, node by node, with ptodist's two rules on top.


def check_int(v):
    if isinstance(v, int) and not isinstance(v, bool) and not INT_MIN <= v <= INT_MAX:
        raise PyError("integer overflow")
    if isinstance(v, complex):
        raise PyError("complex result")
    return v


def py_binary(op, a, b, run_time):
    ints = not isinstance(a, float) and not isinstance(b, float)
    # Guards against results Python would take unbounded time or memory to build; both overflow.
    if op == "**" and ints and b > 64 and abs(a) >= 2:
        raise PyError("integer overflow")
    if op == "<<" and ints and b > 64 and a != 0:
        raise PyError("integer overflow")
    if op == "**" and ints and b < 0 and run_time:
        raise PyError("integer power with a negative exponent at run time")
    try:
        return check_int(eval(f"a {op} b", {"a": a, "b": b}))  # noqa: S307 - our own operands
    except TypeError as exc:
        raise PyTypeError(str(exc)) from exc
    except (ZeroDivisionError, OverflowError, ValueError) as exc:
        raise PyError(str(exc)) from exc


def type_check_skipped(e, run_time):
    """ptodist types every operand of `and`/`or`/ternary, also the one Python skips: a type error there
    (e.g. `>>` of a folded float such as 2 ** -1) is a compile-time error although Python never
    evaluates it. Value errors on the skipped side (a division by zero) are not: it is not run."""
    try:
        py_eval(e, run_time)
    except PyTypeError as exc:
        raise PyTypeError(f"type error on a branch Python skips: {exc}") from exc
    except PyError:
        pass


def py_eval(e, run_time):
    kind = e[0]
    if kind in ("int", "float", "bool"):
        return e[1]
    if kind == "bin":
        return py_binary(e[1], py_eval(e[2], run_time), py_eval(e[3], run_time), run_time)
    if kind == "un":
        x = py_eval(e[2], run_time)
        try:
            return check_int({"-": lambda: -x, "+": lambda: +x, "~": lambda: ~x, "not": lambda: not x}[e[1]]())
        except TypeError as exc:
            raise PyTypeError(str(exc)) from exc
    if kind == "cmp":
        return eval(f"a {e[1]} b", {"a": py_eval(e[2], run_time), "b": py_eval(e[3], run_time)})  # noqa: S307
    if kind == "boolop":
        lhs = py_eval(e[2], run_time)
        if (e[1] == "and") != bool(lhs):
            type_check_skipped(e[3], run_time)
            return lhs
        return py_eval(e[3], run_time)
    if kind == "ifexp":
        taken, skipped = (e[2], e[3]) if py_eval(e[1], run_time) else (e[3], e[2])
        type_check_skipped(skipped, run_time)
        return py_eval(taken, run_time)
    raise AssertionError(kind)


# ---------------------------------------------------------------------------------------------------
# Source text: literal leaves (folded) or tensor reads (run time).


class Leaves:
    """Collects run-time leaves into the int and float input tensors."""

    def __init__(self):
        self.ints, self.floats = [], []

    def text(self, e):
        kind, v = e
        if kind == "float":
            self.floats.append(v)
            return f"pl.read(xf, [0, {len(self.floats) - 1}])"
        self.ints.append(int(v))
        read = f"pl.read(xi, [0, {len(self.ints) - 1}])"
        return f"({read} != 0)" if kind == "bool" else read


def literal_text(e):
    kind, v = e
    if kind == "int":
        return "(-9223372036854775807 - 1)" if v == INT_MIN else f"({v})"
    if kind == "float":
        return f"({v!r})"
    return repr(v)


def source(e, leaf):
    kind = e[0]
    if kind in ("int", "float", "bool"):
        return leaf(e)
    if kind == "bin":
        return f"({source(e[2], leaf)} {e[1]} {source(e[3], leaf)})"
    if kind == "un":
        sep = " " if e[1] == "not" else ""
        return f"({e[1]}{sep}{source(e[2], leaf)})"
    if kind == "cmp":
        return f"({source(e[2], leaf)} {e[1]} {source(e[3], leaf)})"
    if kind == "boolop":
        return f"({source(e[2], leaf)} {e[1]} {source(e[3], leaf)})"
    return f"({source(e[2], leaf)} if {source(e[1], leaf)} else {source(e[3], leaf)})"


PROGRAM = """import pypto.language as pl
import pypto.language.distributed as pld


def make_program(world_size):
    @pl.program
    class ScalarDiff:
        @pl.function(type=pl.FunctionType.AIV)
        def kernel(self, xi: pl.Tensor[[1, {ni}], pl.INT64], xf: pl.Tensor[[1, {nf}], pl.FP32], oi: pl.Out[pl.Tensor[[1, {n}], pl.INT64]], of: pl.Out[pl.Tensor[[1, {n}], pl.FP32]]) -> pl.Tensor[[1, {n}], pl.FP32]:
{body}
            return of

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(self, xi: pl.Tensor[[1, {ni}], pl.INT64], xf: pl.Tensor[[1, {nf}], pl.FP32], oi: pl.Out[pl.Tensor[[1, {n}], pl.INT64]], of: pl.Out[pl.Tensor[[1, {n}], pl.FP32]]) -> pl.Tensor[[1, {n}], pl.FP32]:
            of = self.kernel(xi, xf, oi, of)
            return of

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self, xi: pl.Tensor[[world_size, 1, {ni}], pl.INT64], xf: pl.Tensor[[world_size, 1, {nf}], pl.FP32], oi: pl.Out[pl.Tensor[[world_size, 1, {n}], pl.INT64]], of: pl.Out[pl.Tensor[[world_size, 1, {n}], pl.FP32]]):
            for r in pl.range(pld.world_size()):
                self.chip(xi[r], xf[r], oi[r], of[r], device=r)

    return ScalarDiff
"""
BODY_FIRST_LINE = 10  # the line of the kernel's first statement in PROGRAM


# ---------------------------------------------------------------------------------------------------
# .npy files (no numpy on a bare Debian): 2-D, little-endian, C order.


def write_npy(path, fmt, descr, values):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': (1, 1, %d), }" % (descr, len(values))
    header += " " * ((64 - (10 + len(header) + 1) % 64) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(struct.pack("<%d%s" % (len(values), fmt), *values))


def read_npy(path, fmt):
    with open(path, "rb") as f:
        data = f.read()
    hlen = struct.unpack("<H", data[8:10])[0]
    body = data[10 + hlen :]
    return list(struct.unpack("<%d%s" % (len(body) // struct.calcsize(fmt), fmt), body))


def as_fp32(v):
    try:
        return struct.unpack("<f", struct.pack("<f", float(v)))[0]
    except OverflowError:
        return math.copysign(math.inf, v)


# ---------------------------------------------------------------------------------------------------
# Running ptodist on a batch and comparing.


class Case:
    def __init__(self, index, expr, run_time):
        self.index, self.expr, self.run_time = index, expr, run_time
        try:
            self.expected, self.error = py_eval(expr, run_time), None
        except PyError as exc:
            self.expected, self.error = None, str(exc)

    def to_float_tensor(self):
        # A case Python rejects has no value: its static type picks the tensor, so the error ptodist
        # must report is the expression's own, not a float narrowed into the INT64 tensor.
        if self.run_time or self.error is not None:
            return static_float(self.expr)
        return isinstance(self.expected, float)


def build(cases, workdir, tag):
    leaves = Leaves()
    lines = []
    for k, c in enumerate(cases):
        leaf = leaves.text if c.run_time else literal_text
        target = "of" if c.to_float_tensor() else "oi"
        lines.append(f"            pl.write({target}, [0, {k}], {source(c.expr, leaf)})")
    ni, nf = max(1, len(leaves.ints)), max(1, len(leaves.floats))
    path = os.path.join(workdir, tag + ".py")
    with open(path, "w") as f:
        f.write(PROGRAM.format(ni=ni, nf=nf, n=len(cases), body="\n".join(lines)))
    write_npy(os.path.join(workdir, tag + "_xi.npy"), "q", "<i8", leaves.ints or [0])
    write_npy(os.path.join(workdir, tag + "_xf.npy"), "f", "<f4", leaves.floats or [0.0])
    return path


def run(ptodist, cases, workdir, tag):
    path = build(cases, workdir, tag)
    out = os.path.join(workdir, tag + "_out")
    os.makedirs(out, exist_ok=True)
    cmd = [ptodist, "run", path, "--ranks", "1", "--out-dir", out,
           "--in", "xi=" + os.path.join(workdir, tag + "_xi.npy"),
           "--in", "xf=" + os.path.join(workdir, tag + "_xf.npy")]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_SECONDS)
    except subprocess.TimeoutExpired:  # a hang is a finding, reported with the program like any other
        p = subprocess.CompletedProcess(cmd, 124, "", f"timed out after {TIMEOUT_SECONDS} s")
    return p, out, path


def describe(c):
    mode = "run time" if c.run_time else "folded"
    want = f"error ({c.error})" if c.error else repr(c.expected)
    return f"[{mode}] {source(c.expr, literal_text)}\n    python: {want}"


def compare_values(cases, out):
    ints, floats = read_npy(os.path.join(out, "oi.npy"), "q"), read_npy(os.path.join(out, "of.npy"), "f")
    failures = []
    for k, c in enumerate(cases):
        got = floats[k] if c.to_float_tensor() else ints[k]
        want = as_fp32(c.expected) if c.to_float_tensor() else int(c.expected)
        same = (math.isnan(got) and math.isnan(want)) if isinstance(want, float) and math.isnan(want) else got == want
        if not same:
            failures.append(describe(c) + f"\n    ptodist: {got!r}")
    return failures


def error_lines(stderr, path):
    """The program lines that `path:LINE:COL: error:` diagnostics of stderr point at."""
    pattern = re.compile(re.escape(os.path.basename(path)) + r":(\d+):\d+: error:")
    return {int(m.group(1)) for m in pattern.finditer(stderr)}


def folded_errors_together(ptodist, cases, workdir, tag):
    """Folded cases Python rejects, checked in one program: compile-time errors are all reported, so
    each case's line must carry one. Returns the cases not confirmed that way (each then runs alone):
    one process instead of one per case, as the process start is most of a small run's cost."""
    alone = []
    for first in range(0, len(cases), ERRORS_PER_PROGRAM):
        group = cases[first : first + ERRORS_PER_PROGRAM]
        if len(group) < 2:
            alone += group
            continue
        p, _, path = run(ptodist, group, workdir, f"{tag}_errs{first}")
        if p.returncode != 1 or "internal" in p.stderr:
            alone += group
            continue
        lines = error_lines(p.stderr, path)
        alone += [c for k, c in enumerate(group) if BODY_FIRST_LINE + k not in lines]
    return alone


def check_batch(ptodist, cases, workdir, tag):
    """Cases Python evaluates run together. Cases Python rejects must fail with a located error: folded
    ones are first checked together (folded_errors_together), the rest run alone."""
    failures = []
    good = [c for c in cases if c.error is None]
    if good:
        p, out, path = run(ptodist, good, workdir, tag)
        if p.returncode != 0:
            failures.append(f"ptodist failed (exit {p.returncode}) on {path}:\n{p.stderr.strip()[:2000]}")
            for line in p.stderr.splitlines():
                for k, c in enumerate(good):
                    if f"{tag}.py:{BODY_FIRST_LINE + k}:" in line:
                        failures.append(describe(c) + "\n    ptodist: " + line)
        else:
            failures += compare_values(good, out)
    rejected = [c for c in cases if c.error is not None]
    if rejected and not rejected[0].run_time:
        rejected = folded_errors_together(ptodist, rejected, workdir, tag)
    for k, c in enumerate(rejected):
        p, _, path = run(ptodist, [c], workdir, f"{tag}_err{k}")
        located = f":{BODY_FIRST_LINE}:" in p.stderr and "error:" in p.stderr
        if p.returncode != 1 or not located or "internal" in p.stderr:
            failures.append(describe(c) + f"\n    ptodist: exit {p.returncode}: {p.stderr.strip()[:500]}")
    return failures


def main():
    global TIMEOUT_SECONDS
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ptodist")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=200, help="expressions, each evaluated in both modes")
    ap.add_argument("--batch", type=int, default=200)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--keep", help="keep the generated programs in this directory")
    ap.add_argument("--progress", action="store_true", help="print a line to stderr after every batch")
    ap.add_argument("--timeout", type=int, default=TIMEOUT_SECONDS, help="seconds per ptodist process")
    args = ap.parse_args()
    TIMEOUT_SECONDS = args.timeout
    rng = random.Random(args.seed)
    workdir = args.keep or tempfile.mkdtemp(prefix="scalar_diff_")
    os.makedirs(workdir, exist_ok=True)
    failures, done, errors = [], 0, 0
    try:
        while done < args.count:
            n = min(args.batch, args.count - done)
            exprs = [random_expr(rng, args.depth) for _ in range(n)]
            for run_time in (False, True):
                cases = [Case(done + k, e, run_time) for k, e in enumerate(exprs)]
                errors += sum(c.error is not None for c in cases)
                tag = f"b{done}_{'run' if run_time else 'fold'}"
                failures += check_batch(args.ptodist, cases, workdir, tag)
            done += n
            if args.progress:
                print(f"scalar_diff: seed {args.seed}: {done} of {args.count} expressions, {errors} expected "
                      f"errors, {len(failures)} divergences", file=sys.stderr, flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(workdir, ignore_errors=True)
    print(f"scalar_diff: seed {args.seed}: {args.count} expressions x 2 modes, {errors} expected errors, "
          f"{len(failures)} divergences")
    for f in failures[:20]:
        print("DIVERGENCE " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
