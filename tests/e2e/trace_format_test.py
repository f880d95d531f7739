"""Traces open in Perfetto: `run --trace` and `predict --trace` write Chrome trace-event JSON.

Checks the file against the trace-event format (an object with a traceEvents list; "X" complete
events with name, pid, tid, ts and a non-negative dur; "M" metadata naming every process and thread;
"s"/"f" flow events in pairs with one id), that spans on one track nest (two spans either do not
overlap or one contains the other), that there is a process per rank and a track per core, and that
flow arrows go from notifies or transfers to waits. Usage: trace_format_test.py PTODIST SOURCE_DIR WORKDIR
"""
import json
import os
import subprocess
import sys
from collections import defaultdict

EPS = 0.002  # the writer rounds times to 1 ns


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def check_trace(path, ranks, want_flows=True):
    with open(path) as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        fail(f"{path}: not an object with a traceEvents list")
    spans = defaultdict(list)
    names = {}
    flows = defaultdict(list)
    pids = set()
    for e in doc["traceEvents"]:
        ph = e.get("ph")
        if ph not in ("X", "M", "s", "f"):
            fail(f"{path}: unexpected phase {ph!r} in {e}")
        if ph == "M":
            if e.get("name") in ("process_name", "thread_name") and not e.get("args", {}).get("name"):
                fail(f"{path}: metadata without a name: {e}")
            if e["name"] == "thread_name":
                names[(e["pid"], e["tid"])] = e["args"]["name"]
            continue
        for key in ("pid", "tid", "ts", "name"):
            if key not in e:
                fail(f"{path}: {ph} event without {key}: {e}")
        pids.add(e["pid"])
        if ph == "X":
            if not isinstance(e.get("dur"), (int, float)) or e["dur"] < 0:
                fail(f"{path}: span with a bad dur: {e}")
            spans[(e["pid"], e["tid"])].append((e["ts"], e["ts"] + e["dur"], e["name"]))
        else:
            flows[e["id"]].append(e)
    if pids != set(range(ranks)):
        fail(f"{path}: processes {sorted(pids)}, expected one per rank 0..{ranks - 1}")
    for track in spans:
        if track not in names:
            fail(f"{path}: track {track} has no thread_name")
    # Nesting: sorted by start (longest first), each span must end inside every open span it starts in.
    for track, list_ in spans.items():
        list_.sort(key=lambda s: (s[0], -s[1]))
        stack = []
        for start, end, name in list_:
            while stack and start >= stack[-1][1] - EPS:
                stack.pop()
            if stack and end > stack[-1][1] + EPS:
                fail(f"{path}: on {names[track]} of rank {track[0]}, '{name}' [{start}, {end}] overlaps "
                     f"'{stack[-1][2]}' [{stack[-1][0]}, {stack[-1][1]}] without nesting")
            stack.append((start, end, name))
    for fid, pair in flows.items():
        if sorted(e["ph"] for e in pair) != ["f", "s"]:
            fail(f"{path}: flow {fid} is not one s and one f: {pair}")
    if want_flows and not flows:
        fail(f"{path}: no flow arrows from notifies/transfers to waits")
    tracks = set(names.values())
    if not any(t.startswith("vector core") or t.startswith("cube core") for t in tracks):
        fail(f"{path}: no core tracks in {sorted(tracks)}")
    return doc, names, spans


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stdout}\n{p.stderr}")
    return p.stdout


def main():
    ptodist, src, work = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    gemm = os.path.join(src, "examples", "allgather_gemm.py")
    real = os.path.join(work, "real.json")
    run([ptodist, "run", gemm, "--ranks", "4", "--trace", real])
    check_trace(real, 4)
    virtual = os.path.join(work, "predicted.json")
    run([ptodist, "predict", gemm, "--ranks", "4", "--trace", virtual])
    doc, names, spans = check_trace(virtual, 4)
    tracks = set(names.values())
    if not any(t.startswith("SDMA") or t.startswith("link") for t in tracks):
        fail(f"{virtual}: no DMA engine or link track in {sorted(tracks)}")
    # The overlap shows: on some rank, a transfer or link span runs while a cube core computes.
    by_rank = defaultdict(lambda: ([], []))
    for (pid, tid), list_ in spans.items():
        kind = names[(pid, tid)]
        if kind.startswith("SDMA") or kind.startswith("link"):
            by_rank[pid][0].extend(list_)
        elif kind.startswith("cube core"):
            by_rank[pid][1].extend(s for s in list_ if "matmul" in s[2])
    overlapped = any(a[0] < b[1] and b[0] < a[1] for comm, comp in by_rank.values() for a in comm for b in comp)
    if not overlapped:
        fail(f"{virtual}: no transfer overlaps a matmul on any rank")
    bench = os.path.join(work, "bench.json")
    run([ptodist, "bench", gemm, "--ranks", "2", "--warmup", "0", "--rounds", "2", "--trace", bench])
    check_trace(bench, 2)
    print("ok: run, predict and bench traces are valid and nest")


if __name__ == "__main__":
    main()
