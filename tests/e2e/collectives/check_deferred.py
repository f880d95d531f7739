"""Runs deferred.py (pld.system.defer_wait at vector-core saturation) at 2, 3 and 4 ranks, in fast and
check mode, and compares every consumer's row with the left neighbour's payload, computed here; then
runs it with rank 0's notify missing and expects the never-satisfied condition to be reported (exit 3)
with the defer_wait line, not a hang.

Usage: check_deferred.py PTODIST OUT_DIR [--runs K]
"""
import argparse
import os
import subprocess
import sys

from check_collectives import compare, read_npy, write_npy

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAM = os.path.join(HERE, "deferred.py")
WIDTH = 16
WAITERS = 48  # the a2a3 profile's vector cores: blocking waiters would hold all of them


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
    return p.returncode, p.stdout.decode(errors="replace")


def payload(r, epoch):
    # Lane 0 carries the epoch (the threshold every waiter registers), the rest a rank tag.
    return [epoch] + [100 * (r + 1) + j for j in range(1, WIDTH)]


def check_ring(args, n, mode, epoch=3):
    work = os.path.join(args.out_dir, f"ring{n}.{mode}")
    os.makedirs(work, exist_ok=True)
    x = [payload(r, epoch) for r in range(n)]
    write_npy(os.path.join(work, "in_x.npy"), [n, 1, WIDTH], [v for row in x for v in row], "<i4")
    cmd = [args.ptodist, "run", PROGRAM, "--ranks", str(n), "--out-dir", work,
           "--in", "x=" + os.path.join(work, "in_x.npy")]
    if mode == "check":
        cmd += ["--mode", "check", "--runs", str(args.runs)]
    rc, out = run(cmd)
    if rc != 0:
        return f"exit {rc}: {out.strip()[-600:]}"
    # Rank r's consumers all read what its left neighbour (r - 1) put.
    want = [v for r in range(n) for _ in range(WAITERS) for v in x[(r - 1) % n]]
    _, got = read_npy(os.path.join(work, "out.npy"))
    return compare("out", got, want)


def check_never_satisfied(args, mode):
    work = os.path.join(args.out_dir, "missing." + mode)
    os.makedirs(work, exist_ok=True)
    write_npy(os.path.join(work, "in_x.npy"), [2, 1, WIDTH], payload(0, 1) + payload(1, 1), "<i4")
    cmd = [args.ptodist, "run", PROGRAM, "--ranks", "2", "-D", "waiters=2", "-D", "missing=1",
           "--in", "x=" + os.path.join(work, "in_x.npy")]
    cmd += ["--mode", "check"] if mode == "check" else ["--watchdog", "1"]
    rc, out = run(cmd)
    expected = "pld.system.defer_wait on signal[0, 0]" if mode == "check" else "blocked in pld.system.defer_wait at"
    if rc != 3 or expected not in out:
        return f"expected exit 3 and a report with '{expected}', got exit {rc}: {out.strip()[-800:]}"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ptodist")
    ap.add_argument("out_dir")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    failures = 0
    checks = [(f"ring of {n} ranks", lambda mode, n=n: check_ring(args, n, mode)) for n in (2, 3, 4)]
    checks.append(("condition never satisfied", lambda mode: check_never_satisfied(args, mode)))
    for name, fn in checks:
        for mode in ("fast", "check"):
            err = fn(mode)
            print(f"{'ok  ' if not err else 'FAIL'} {name} ({mode}){': ' + err if err else ''}", flush=True)
            failures += bool(err)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
