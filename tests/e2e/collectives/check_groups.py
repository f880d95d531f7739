"""Runs groups.py (two overlapping communication groups) and compares with a reference computed here,
then runs group_mismatch.py and expects the hang to be reported (exit 3) with the waited window's group.

Usage: check_groups.py PTODIST OUT_DIR [--runs K]
"""
import argparse
import os
import subprocess
import sys

from check_collectives import compare, flat, read_npy, value, write_npy

HERE = os.path.dirname(os.path.abspath(__file__))
SIZE = 64
GROUPS = [[0, 1, 2], [1, 2, 3]]


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
    return p.returncode, p.stdout.decode(errors="replace")


def check_two_groups(args, mode):
    work = os.path.join(args.out_dir, "two_groups." + mode)
    os.makedirs(work, exist_ok=True)
    x = [[[value(r, 0, j, 12) for j in range(SIZE)]] for r in range(4)]
    write_npy(os.path.join(work, "in_x.npy"), [4, 1, SIZE], flat(x), "<f4")
    cmd = [args.ptodist, "run", os.path.join(HERE, "groups.py"), "--ranks", "4", "--out-dir", work,
           "--in", "x=" + os.path.join(work, "in_x.npy")]
    if mode == "check":
        cmd += ["--mode", "check", "--runs", str(args.runs)]
    rc, out = run(cmd)
    if rc != 0:
        return f"exit {rc}: {out.strip()[-600:]}"
    want_out, want_ids = [], []
    for members in GROUPS:
        total = [sum(x[m][0][j] for m in members) for j in range(SIZE)]
        want_out.append([[total] if r in members else [[0.0] * SIZE] for r in range(4)])
        want_ids.append([[[members.index(r), len(members)]] if r in members else [[0, 0]] for r in range(4)])
    for name, want in (("out", want_out), ("ids", want_ids)):
        _, got = read_npy(os.path.join(work, name + ".npy"))
        err = compare(name, got, flat(want))
        if err:
            return err
    return None


def check_mismatch(args, mode):
    cmd = [args.ptodist, "run", os.path.join(HERE, "group_mismatch.py"), "--ranks", "3"]
    cmd += ["--mode", "check"] if mode == "check" else ["--watchdog", "1"]
    rc, out = run(cmd)
    expected = "waits in pld.system.wait on signal[0] (group of devices {0, 1})" if mode == "check" else \
        "blocked in pld.system.wait at"
    if rc != 3 or expected not in out or "(group of devices {0, 1})" not in out:
        return f"expected exit 3 and a report naming group {{0, 1}}, got exit {rc}: {out.strip()[-600:]}"
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ptodist")
    ap.add_argument("out_dir")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    failures = 0
    for name, fn in (("two overlapping groups", check_two_groups), ("wait across groups", check_mismatch)):
        for mode in ("fast", "check"):
            err = fn(args, mode)
            print(f"{'ok  ' if not err else 'FAIL'} {name} ({mode}){': ' + err if err else ''}", flush=True)
            failures += bool(err)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
