"""Every collective on the MPI backend: runs the programs of tests/e2e/collectives/ (collectives.py,
groups.py) and allreduce_prod.py under `mpirun -np N ... --backend mpi` and compares each output with
the independent reference that check_collectives.py / check_groups.py compute in plain Python (no
numpy). The programs and references are reused, not copied: only the launcher differs.

Usage: check_collectives_mpi.py PTODIST OUT_DIR [--np 2,4] [--programs A,B] [--groups] [-D name=value]
                                [--mpirun-flags "..."]
Exit 0 when every output matches, 77 when mpirun is absent; one line per program and rank count.
"""
import argparse
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "collectives"))
import check_collectives as cc  # noqa: E402  (the cases and their references)
import check_groups as cg  # noqa: E402

PROD_FILE = os.path.join(HERE, "allreduce_prod.py")
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")


def case_allreduce_prod(n, size, **_):
    # Halves in -2.5 .. 2.5: a product of up to 8 of them is exact in FP32, whatever the order.
    first = [[[cc.value(r, 0, j, 13) for j in range(size)]] for r in range(n)]
    second = [[[cc.value(r, 0, j, 14) for j in range(size)]] for r in range(n)]
    prod = []
    for j in range(size):
        p = 1.0
        for r in range(n):
            p *= second[r][0][j]
        prod.append(p)
    return ({"x": ([2, n, 1, size], [first, second], "<f4")}, {"out": [[prod]] * n})


CASES = dict(cc.CASES, AllReduceProd=case_allreduce_prod)


def mpi_command(cmd, np, flags):
    """`ptodist run FILE ... --ranks N ...` -> the same under mpirun -np N with --backend mpi."""
    watchdog = [] if "--watchdog" in cmd else ["--watchdog", "20"]
    return ["timeout", "120", "mpirun", "-np", str(np), "--oversubscribe"] + flags + cmd + ["--backend", "mpi"] + watchdog


def run(cmd, np, flags):
    p = subprocess.run(mpi_command(cmd, np, flags), stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=ENV,
                       timeout=300)
    return p.returncode, p.stdout.decode(errors="replace")


def run_case(args, program, n, params):
    work = os.path.join(args.out_dir, f"{program}.{n}")
    os.makedirs(work, exist_ok=True)
    inputs, expected = CASES[program](n, **params)
    source = PROD_FILE if program == "AllReduceProd" else cc.PROGRAM_FILE
    cmd = [args.ptodist, "run", source, "--program", program, "--out-dir", work]
    for d in args.D:
        cmd += ["-D", d]
    for name, (shape, nested, descr) in inputs.items():
        path = os.path.join(work, f"in_{name}.npy")
        cc.write_npy(path, shape, cc.flat(nested), descr)
        cmd += ["--in", f"{name}={path}"]
    rc, out = run(cmd, n, args.flags)
    if rc != 0:
        return f"exit {rc}: {out.strip()[-600:]}"
    for name, want in expected.items():
        _, got = cc.read_npy(os.path.join(work, f"{name}.npy"))
        err = cc.compare(name, got, cc.flat(want))
        if err:
            return err
    return None


def check_groups(args):
    """groups.py's two overlapping groups at np 4 and group_mismatch.py's wait across groups at np 3
    (the watchdog names the waited window's group, exit 3), through check_groups' own checks."""
    def mpi_run(cmd):
        ranks = int(cmd[cmd.index("--ranks") + 1])
        return run(cmd, ranks, args.flags)
    cg.run = mpi_run
    return [(name, fn(args, "fast")) for name, fn in (("two overlapping groups -np 4", cg.check_two_groups),
                                                      ("wait across groups -np 3", cg.check_mismatch))]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("ptodist")
    ap.add_argument("out_dir")
    ap.add_argument("--np", default="2,4")
    ap.add_argument("--programs", default=",".join(CASES))
    ap.add_argument("--groups", action="store_true", help="also the two overlapping groups (np 4)")
    ap.add_argument("--mpirun-flags", default="")
    ap.add_argument("-D", action="append", default=[])
    args = ap.parse_args()
    if not shutil.which("mpirun"):
        print("SKIP: mpirun is not installed")
        sys.exit(77)
    args.flags = args.mpirun_flags.split()
    params = cc.factory_params(args.D)
    failures = 0
    for program in args.programs.split(","):
        for n in [int(x) for x in args.np.split(",")]:
            err = run_case(args, program, n, params)
            print(f"{'ok  ' if not err else 'FAIL'} {program} -np {n} (mpi){': ' + err if err else ''}", flush=True)
            failures += bool(err)
    for name, err in check_groups(args) if args.groups else []:
        print(f"{'ok  ' if not err else 'FAIL'} {name} (mpi){': ' + err if err else ''}", flush=True)
        failures += bool(err)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
