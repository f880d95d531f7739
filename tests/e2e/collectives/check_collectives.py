"""Runs collectives.py's programs and compares every output with a reference computed here, in plain
Python (no numpy), from the inputs this script writes.

Usage: check_collectives.py PTODIST OUT_DIR [--ranks 2,3,4,8] [--programs A,B] [--mode fast|check]
                            [--runs K] [-D name=value ...]
Exit 0 when every output matches; prints one line per program and rank count.
"""
import argparse
import array
import ast
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM_FILE = os.path.join(HERE, "collectives.py")


def write_npy(path, shape, values, descr):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, tuple(shape))
    header += " " * (63 - (len(header) + 10) % 64) + "\n"
    data = array.array("f" if descr == "<f4" else "i", values)
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header.encode("latin1"))
        f.write(data.tobytes())


def read_npy(path):
    raw = open(path, "rb").read()
    hlen = int.from_bytes(raw[8:10], "little")
    header = ast.literal_eval(raw[10:10 + hlen].decode("latin1"))
    data = array.array("f" if header["descr"] == "<f4" else "i", raw[10 + hlen:])
    return list(header["shape"]), list(data)


def flat(nested):
    if isinstance(nested, list):
        return [x for item in nested for x in flat(item)]
    return [nested]


def f32(x):
    return array.array("f", [x])[0]


def value(r, i, j, salt):
    # Small integers and halves: sums and products of a few of them are exact in FP32.
    return float(((r * 7 + i * 3 + j * 5 + salt) % 11) - 5) / 2


# Each case: (inputs {name: (shape, nested values, descr)}, expected {name: nested values}).
def case_allreduce(n, size, rows, **_):
    first = [[[value(r, i, j, 1) for j in range(size)] for i in range(rows)] for r in range(n)]
    second = [[[value(r, i, j, 2) for j in range(size)] for i in range(rows)] for r in range(n)]

    def reduce(fn):
        return [[fn([second[r][i][j] for r in range(n)]) for j in range(size)] for i in range(rows)]

    block = reduce(sum) + reduce(max) + reduce(min) + reduce(sum) + reduce(max)  # mesh x3, ring x2
    return ({"x": ([2, n, rows, size], [first, second], "<f4")},
            {"out": [block] * n})


def case_allgather(n, size, **_):
    first = [[[value(r, 0, j, 3) for j in range(size)]] for r in range(n)]
    second = [[[value(r, 0, j, 4) for j in range(size)]] for r in range(n)]
    gathered = [second[s][0] for s in range(n)]
    return ({"x": ([2, n, 1, size], [first, second], "<f4")},
            {"out": [gathered] * n})


def case_reduce_scatter(n, size, **_):
    first = [[[value(r, c, j, 5) for j in range(size)] for c in range(n)] for r in range(n)]
    second = [[[value(r, c, j, 6) for j in range(size)] for c in range(n)] for r in range(n)]
    out = [[[sum(second[s][r][j] for s in range(n)) for j in range(size)]] for r in range(n)]
    return ({"x": ([2, n, n, size], [first, second], "<f4")},
            {"out": out})


def case_broadcast(n, size, rows, root, **_):
    root %= n
    first = [[[value(r, i, j, 7) for j in range(size)] for i in range(rows)] for r in range(n)]
    second = [[[value(r, i, j, 8) for j in range(size)] for i in range(rows)] for r in range(n)]
    return ({"x": ([2, n, rows, size], [first, second], "<f4")},
            {"out": [second[root]] * n})


def case_all_to_all(n, size, **_):
    first = [[[value(r, d, j, 9) for j in range(size)] for d in range(n)] for r in range(n)]
    second = [[[value(r, d, j, 10) for j in range(size)] for d in range(n)] for r in range(n)]
    out = [[second[s][r] for s in range(n)] for r in range(n)]
    return ({"x": ([2, n, n, size], [first, second], "<f4")},
            {"out": out})


def case_all_to_all_v(n, size, max_recv, **_):
    mr = max_recv
    x = [[[value(r, i, j, 11) for j in range(size)] for i in range(n * mr)] for r in range(n)]
    counts = [[[(r + 2 * d) % (mr + 2)] for d in range(n)] for r in range(n)]
    recv = [[[min(counts[s][r][0], mr)] for s in range(n)] for r in range(n)]
    # Only the valid rows are defined; the rest of each block is compared as None (skipped).
    out = [[x[s][r * mr + i] if i < recv[r][s][0] else [None] * size for s in range(n) for i in range(mr)]
           for r in range(n)]
    return ({"x": ([n, n * mr, size], x, "<f4"), "counts": ([n, n, 1], counts, "<i4")},
            {"out": out, "recv": recv})


def case_barrier(n, **_):
    return ({}, {"out": [[[0] for _ in range(n)] for _ in range(n)]})


CASES = {
    "AllReduce": case_allreduce,
    "AllGather": case_allgather,
    "ReduceScatter": case_reduce_scatter,
    "Broadcast": case_broadcast,
    "AllToAll": case_all_to_all,
    "AllToAllV": case_all_to_all_v,
    "Barrier": case_barrier,
}


def compare(name, got, want):
    bad = [k for k, (g, w) in enumerate(zip(got, want)) if w is not None and abs(g - f32(w)) > 1e-4]
    if len(got) != len(want):
        return f"{name}: {len(got)} elements, expected {len(want)}"
    if bad:
        k = bad[0]
        return f"{name}: {len(bad)} of {len(got)} elements differ (first at {k}: {got[k]} vs {want[k]})"
    return None


def factory_params(defines):
    """The programs' factory arguments: the defaults, overridden by each -D NAME=INT."""
    params = {"size": 64, "rows": 2, "root": 1, "max_recv": 3}
    for d in defines:
        k, v = d.split("=")
        params[k] = int(v)
    return params


def run_case(args, program, n, params):
    work = os.path.join(args.out_dir, f"{program}.{n}")
    os.makedirs(work, exist_ok=True)
    inputs, expected = CASES[program](n, **params)
    cmd = [args.ptodist, "run", PROGRAM_FILE, "--program", program, "--ranks", str(n), "--out-dir", work]
    for d in args.D:
        cmd += ["-D", d]
    for name, (shape, nested, descr) in inputs.items():
        path = os.path.join(work, f"in_{name}.npy")
        write_npy(path, shape, flat(nested), descr)
        cmd += ["--in", f"{name}={path}"]
    if args.mode == "check":
        cmd += ["--mode", "check", "--runs", str(args.runs)]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    if p.returncode != 0:
        return f"exit {p.returncode}: {p.stdout.decode(errors='replace').strip()[-600:]}"
    for name, want in expected.items():
        _, got = read_npy(os.path.join(work, f"{name}.npy"))
        err = compare(name, got, flat(want))
        if err:
            return err
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ptodist")
    ap.add_argument("out_dir")
    ap.add_argument("--ranks", default="2,3,4,8")
    ap.add_argument("--programs", default=",".join(CASES))
    ap.add_argument("--mode", default="fast")
    ap.add_argument("--runs", type=int, default=1)
    ap.add_argument("-D", action="append", default=[])
    args = ap.parse_args()
    params = factory_params(args.D)
    failures = 0
    for program in args.programs.split(","):
        for n in [int(x) for x in args.ranks.split(",")]:
            err = run_case(args, program, n, params)
            print(f"{'ok  ' if not err else 'FAIL'} {program} --ranks {n} ({args.mode}){': ' + err if err else ''}",
                  flush=True)
            failures += bool(err)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
