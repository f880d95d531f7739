"""The timing model's sensitivity table (docs/timing.md): predicted device time of the examples on
the a2a3 profile, with 2x link bandwidth, 2x link and SDMA bandwidth, and 0.5x cube throughput.
Usage: python3 scripts/timing_sensitivity.py build/ptodist > table.md
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
CASES = [
    ("ring_shuffle_put.py", 4, []),
    ("ring_shuffle_put_async.py", 4, []),
    ("allgather_gemm.py", 4, []),
    ("allgather_gemm.py", 8, []),
    ("put_async_overlap.py", 2, ["-D", "transfer_elems=2097152"]),
]
VARIANTS = [
    ("a2a3", {}),
    ("2x link", {"link_bandwidth_gbps": 2}),
    ("2x link + SDMA", {"link_bandwidth_gbps": 2, "sdma_bandwidth_gbps": 2}),
    ("0.5x cube", {"cube_flops_per_cycle_fp16": 0.5, "cube_flops_per_cycle_fp32": 0.5, "cube_flops_per_cycle_int8": 0.5}),
]


def profile(scale, directory):
    p = json.load(open(os.path.join(ROOT, "profiles", "a2a3.json")))
    for k, f in scale.items():
        p["timing"][k]["value"] *= f
    path = os.path.join(directory, "a2a3_%d.json" % len(os.listdir(directory)))
    json.dump(p, open(path, "w"))
    return path


def predict(ptodist, prof, f, ranks, extra):
    out = subprocess.run([ptodist, "predict", os.path.join(ROOT, "examples", f), "--ranks", str(ranks), "--profile", prof,
                          "--json", *extra], capture_output=True, text=True, check=True).stdout
    return {name: r["wall_us"] for name, r in json.loads(out).items()}


def main():
    ptodist = sys.argv[1]
    with tempfile.TemporaryDirectory() as d:
        profs = [(name, profile(scale, d)) for name, scale in VARIANTS]
        print("| example | ranks | program | " + " | ".join(n for n, _ in VARIANTS) + " |")
        print("|---|---|---|" + "---|" * len(VARIANTS))
        for f, ranks, extra in CASES:
            cols = [predict(ptodist, p, f, ranks, extra) for _, p in profs]
            for program in cols[0]:
                base = cols[0][program]
                cells = ["%.2f us" % base] + ["%.2f us (%+.0f%%)" % (c[program], 100 * (c[program] / base - 1)) for c in cols[1:]]
                label = f + (" " + " ".join(extra) if extra else "")
                print(f"| {label} | {ranks} | {program} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
