"""Runs large_allgather.py (256 KiB rows: allgather, all_to_all and all_to_all_v take the put_async
form, broadcast the get_async one) at 2 and 3 ranks, fast and check mode, and compares with a reference computed here.

Usage: check_large.py PTODIST OUT_DIR [--runs K]
"""
import argparse
import os
import subprocess
import sys

from check_collectives import compare, read_npy, write_npy

HERE = os.path.dirname(os.path.abspath(__file__))
SIZE = 65536


def val(r, i, j):
    return float(((r * 7 + i * 3 + j) % 13) - 6)


def check(args, n, mode):
    work = os.path.join(args.out_dir, f"large{n}.{mode}")
    os.makedirs(work, exist_ok=True)
    x = [[val(r, 0, j) for j in range(SIZE)] for r in range(n)]
    table = [[[val(r, d + 1, j) for j in range(SIZE)] for d in range(n)] for r in range(n)]
    write_npy(os.path.join(work, "x.npy"), [n, 1, SIZE], [v for row in x for v in row], "<f4")
    vtable = [[[val(r, 100 + d, j) for j in range(SIZE)] for d in range(2 * n)] for r in range(n)]
    write_npy(os.path.join(work, "t.npy"), [n, n, SIZE], [v for r in table for row in r for v in row], "<f4")
    write_npy(os.path.join(work, "v.npy"), [n, 2 * n, SIZE], [v for r in vtable for row in r for v in row], "<f4")
    # The counts only say how many rows are valid: the whole MAX_RECV-row block moves either way.
    write_npy(os.path.join(work, "c.npy"), [n, n], [(r + d) % 3 for r in range(n) for d in range(n)], "<i4")
    cmd = [args.ptodist, "run", os.path.join(HERE, "large_allgather.py"), "--ranks", str(n), "--out-dir", work,
           "--in", "x=" + os.path.join(work, "x.npy"), "--in", "table=" + os.path.join(work, "t.npy"),
           "--in", "vtable=" + os.path.join(work, "v.npy"), "--in", "counts=" + os.path.join(work, "c.npy")]
    if mode == "check":
        cmd += ["--mode", "check", "--runs", str(args.runs)]
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    if p.returncode != 0:
        return f"exit {p.returncode}: {p.stdout.decode(errors='replace').strip()[-600:]}"
    # Rank r: rows 0..n-1 are every rank's x; rows n+s are rank s's table row r; rows 2n+2s+k are rank
    # s's vtable row 2r+k; row 4n is rank 1's x.
    want = []
    for r in range(n):
        for s in range(n):
            want += x[s]
        for s in range(n):
            want += table[s][r]
        for s in range(n):
            want += vtable[s][2 * r] + vtable[s][2 * r + 1]
        want += x[1]  # the broadcast from rank 1
    _, got = read_npy(os.path.join(work, "out.npy"))
    return compare("out", got, want)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ptodist")
    ap.add_argument("out_dir")
    ap.add_argument("--runs", type=int, default=2)
    args = ap.parse_args()
    failures = 0
    for n in (2, 3):
        for mode in ("fast", "check"):
            err = check(args, n, mode)
            print(f"{'ok  ' if not err else 'FAIL'} 256 KiB rows at {n} ranks ({mode}){': ' + err if err else ''}",
                  flush=True)
            failures += bool(err)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
