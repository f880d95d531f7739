"""Inputs and independent references for the MPI end-to-end cases (mpi_e2e_test.sh), in plain Python
(the tests must not need numpy).

  reference.py inputs CASE NP DIR [M_LOCAL K N]     writes DIR/<name>.npy for every input of CASE
  reference.py check CASE NP DIR OUT [M_LOCAL K N]  compares OUT/<name>.npy with the result computed
                                                    here from DIR
CASE: put, put_async (ring_shuffle_put*.py), overlap (put_async_overlap.py), gemm (allgather_gemm.py,
whose sizes default to mpi_e2e_test.sh's -D values). Used by mpi_e2e_test.sh, cli_test.sh and
check_cli_test.sh.

Values are small multiples of 1/2, so every sum and product the programs make is exact in FP32 and
the comparison is exact. The GEMM is checked on a fixed sample of 2000 elements of every rank's C
(a full GEMM in Python would take too long), the shuffles and the overlap's compute in full.
"""
import ast
import struct
import sys

SIZE = 1024  # ring_shuffle_put*.py
OVERLAP_ELEMS, OVERLAP_TILE, OVERLAP_ITERS = 262144, 4096, 64  # mpi_e2e_test.sh's -D and the defaults
M_LOCAL, K, N = 128, 256, 256  # mpi_e2e_test.sh's -D for allgather_gemm.py


def write_npy(path, shape, values, descr):
    header = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, tuple(shape))
    header += " " * (63 - (len(header) + 10) % 64) + "\n"
    code = {"<f4": "f", "<f2": "e"}[descr]
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1"))
        f.write(struct.pack("<%d%s" % (len(values), code), *values))


def read_npy(path):
    raw = open(path, "rb").read()
    hlen = struct.unpack("<H", raw[8:10])[0]
    header = ast.literal_eval(raw[10:10 + hlen].decode("latin1"))
    code = {"<f4": "f", "<f2": "e"}[header["descr"]]
    data = raw[10 + hlen:]
    return list(header["shape"]), list(struct.unpack("<%d%s" % (len(data) // struct.calcsize(code), code), data))


def value(i, salt, span=9):
    # -2 .. 2 in steps of 1/2: sums of products stay exact.
    return ((i * 7 + salt * 13) % span - span // 2) / 2


def inputs(case, n):
    if case in ("put", "put_async"):
        return {"x": ([n, 1, SIZE], [value(i, 1) for i in range(n * SIZE)], "<f4")}
    if case == "overlap":
        return {"x": ([n, 1, OVERLAP_ELEMS], [value(i, 2) for i in range(n * OVERLAP_ELEMS)], "<f4")}
    if case == "gemm":
        return {"inputs": ([n, M_LOCAL, K], [value(i, 3, 5) for i in range(n * M_LOCAL * K)], "<f2"),
                "weight": ([K, N], [value(i, 4, 5) for i in range(K * N)], "<f2")}
    sys.exit(f"unknown case {case}")


def ring_expect(x, n, row):
    # y[r] = x[(r - 1) % n]
    return [v for r in range(n) for v in x[((r - 1) % n) * row:((r - 1) % n + 1) * row]]


def check(case, n, in_dir, out_dir):
    ins = {name: read_npy(f"{in_dir}/{name}.npy")[1] for name in inputs(case, n)}
    expected = {}
    if case in ("put", "put_async"):
        x = ins["x"]
        expected["y"] = ring_expect(x, n, SIZE)
        if case == "put_async":
            expected["z"] = [(v + v) * v for v in x]
    elif case == "overlap":
        x = ins["x"]
        expected["y"] = ring_expect(x, n, OVERLAP_ELEMS)
        expected["z"] = [x[r * OVERLAP_ELEMS + j] + OVERLAP_ITERS for r in range(n) for j in range(OVERLAP_TILE)]
    failures = 0
    for name, want in expected.items():
        got = read_npy(f"{out_dir}/{name}.npy")[1]
        bad = [i for i, (g, w) in enumerate(zip(got, want)) if g != w]
        if len(got) != len(want) or bad:
            print(f"FAIL: {name}: {len(bad)} elements differ from the reference (first at {bad[:1]}), "
                  f"{len(got)} vs {len(want)} elements")
            failures += 1
    if case == "gemm":
        a, w = ins["inputs"], ins["weight"]
        c = read_npy(f"{out_dir}/outputs.npy")[1]
        m = n * M_LOCAL
        for s in range(2000):
            r, i, j = s % n, (s * 37) % m, (s * 101) % N
            want = sum(a[i * K + l] * w[l * N + j] for l in range(K))
            got = c[(r * m + i) * N + j]
            if got != want:
                print(f"FAIL: outputs[{r}, {i}, {j}] = {got}, reference {want}")
                failures += 1
                break
    if failures == 0:
        print(f"{out_dir}: matches the reference ({', '.join(sorted(expected) or ['outputs (2000 samples)'])})")
    return failures == 0


def main():
    global M_LOCAL, K, N
    args = sys.argv
    if len(args) in (8, 9) and args[2] == "gemm":
        M_LOCAL, K, N = (int(v) for v in args[-3:])
        args = args[:-3]
    sys.argv = args
    if len(sys.argv) == 5 and sys.argv[1] == "inputs":
        case, n, d = sys.argv[2], int(sys.argv[3]), sys.argv[4]
        for name, (shape, values, descr) in inputs(case, n).items():
            write_npy(f"{d}/{name}.npy", shape, values, descr)
            print(f"--in {name}={d}/{name}.npy")
        return 0
    if len(sys.argv) == 6 and sys.argv[1] == "check":
        return 0 if check(sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]) else 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
