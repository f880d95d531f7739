"""`ptodist predict` end to end (docs/timing.md).

- every example predicts, in text and in --json, and the same figures every time;
- the put_async overlap kernel at its published size (8 MiB, 64 vector adds): the async transfer's
  time, the async-vs-sync saving and the hidden fraction equal what the model's rules give by hand
  from profiles/a2a3.json's figures (computed here, independently of the C++);
- with enough compute the transfer is fully hidden;
- a core's MTE2 and vector pipes overlap where the data allow (tests/e2e/programs/pipes_overlap.py);
- a deferred waiter's consumer starts once every condition holds (tests/e2e/programs/deferred_predict.py);
- a profile without timing parameters is a one-line error.
Usage: predict_test.py PTODIST SOURCE_DIR WORKDIR
"""
import json
import os
import subprocess
import sys


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def predict(ptodist, *args, expect=0):
    p = subprocess.run([ptodist, "predict", *args], capture_output=True, text=True)
    if p.returncode != expect:
        fail(f"predict {' '.join(args)} exited {p.returncode} (expected {expect}):\n{p.stdout}\n{p.stderr}")
    return p


def close(name, got, want, tol=0.02):
    if abs(got - want) > tol:
        fail(f"{name}: got {got:.4f} us, expected {want:.4f} us by hand")
    print(f"ok: {name} = {got:.3f} us (by hand {want:.3f} us)")


def main():
    ptodist, src, work = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(work, exist_ok=True)
    ex = os.path.join(src, "examples")
    for f in ("ring_shuffle_put.py", "ring_shuffle_put_async.py", "allgather_gemm.py", "put_async_overlap.py"):
        predict(ptodist, os.path.join(ex, f), "--ranks", "4")
        json.loads(predict(ptodist, os.path.join(ex, f), "--ranks", "4", "--json").stdout)

    # The same program predicts the same figures every time, however the recording run's threads
    # interleaved (which blocks shared a CPU core, which actor reported first): five runs of the
    # all-gather + GEMM, whose blocks wait on shared signal cells, give one JSON.
    gemm = [predict(ptodist, os.path.join(ex, "allgather_gemm.py"), "--ranks", "4", "--json").stdout for _ in range(5)]
    if len(set(gemm)) != 1:
        fail(f"allgather_gemm.py on 4 ranks: {len(set(gemm))} different predictions in 5 runs")
    print("ok: five predictions of allgather_gemm.py on 4 ranks are identical")

    # Async transfers are matched to their waits by session: on 8 ranks a finished block's session
    # was once freed and the next block's made at its address, whose wait then matched no transfer
    # (about 1 run in 25 answered differently). The ring is symmetric, so every rank of every run
    # must predict the same wall time, and all runs one answer.
    ring = [predict(ptodist, os.path.join(ex, "ring_shuffle_put_async.py"), "--ranks", "8", "--json").stdout
            for _ in range(40)]
    if len(set(ring)) != 1:
        fail(f"ring_shuffle_put_async.py on 8 ranks: {len(set(ring))} different predictions in 40 runs")
    for program, figures in json.loads(ring[0]).items():
        walls = {round(r["wall_us"], 6) for r in figures["ranks"]}
        if len(walls) != 1:
            fail(f"ring_shuffle_put_async.py {program} on 8 ranks: ranks differ in wall time {sorted(walls)}")
    print("ok: 40 predictions of ring_shuffle_put_async.py on 8 ranks are identical, every rank alike")

    t = {k: v["value"] for k, v in json.load(open(os.path.join(src, "profiles", "a2a3.json")))["timing"].items()}
    clock_mhz = t["clock_ghz"] * 1e3  # cycles per us

    def mte(nbytes, rate):  # a load or store: its pipe time or its HBM share, whichever is longer
        return max(nbytes / rate / clock_mhz, nbytes / (t["hbm_bandwidth_gbps"] * 1e3))

    B = 2097152 * 4  # the published transfer: 2 Mi FP32
    tile = 4096 * 4  # the [1, 4096] FP32 compute tile
    vec = tile / t["vector_bytes_per_cycle"] / clock_mhz
    scalar = t["scalar_op_cycles"] / clock_mhz
    link = B / (t["link_bandwidth_gbps"] * 1e3)
    # Between the issue and the wait: load, full, 64 adds, store. The full (vector pipe) shares no data
    # with the load (MTE2), so the two run at once.
    compute = max(mte(tile, t["gm_to_ub_bytes_per_cycle"]), vec) + 64 * vec + mte(tile, t["ub_to_gm_bytes_per_cycle"])
    transfer = t["sdma_startup_us"] + B / (min(t["sdma_bandwidth_gbps"], t["link_bandwidth_gbps"]) * 1e3) + t["link_latency_us"]
    # The sync twin stages through UB (GM->UB at the MTE2 rate, then the link) before computing; the
    # async kernel builds its session and issues (a scalar op each), computes, and its wait ends when
    # the transfer lands. Everything else (the notify, the wait for the peer, the read-back) is alike.
    sync_put = B / t["gm_to_ub_bytes_per_cycle"] / clock_mhz + link + t["link_latency_us"]
    saving = (sync_put + compute) - (2 * scalar + max(transfer, compute) + t["wait_wake_us"])

    overlap = os.path.join(ex, "put_async_overlap.py")
    out = json.loads(predict(ptodist, overlap, "--ranks", "2", "-D", "transfer_elems=2097152", "--json").stdout)
    a, s = out["PutAsyncOverlap"], out["PutSyncOverlap"]
    close("async transfer (issue to landing)", a["ranks"][0]["transfer_us"], transfer)
    close("async-vs-sync saving", s["wall_us"] - a["wall_us"], saving)
    close("hidden by compute", a["ranks"][0]["hidden_us"], compute)
    print(f"ok: hidden fraction {a['ranks'][0]['hidden_fraction']:.4f} (by hand {compute / transfer:.4f})")

    big = json.loads(predict(ptodist, overlap, "--ranks", "2", "--program", "PutAsyncOverlap", "-D", "transfer_elems=2097152",
                             "-D", "compute_iters=8192", "--json").stdout)
    frac = big["PutAsyncOverlap"]["ranks"][0]["hidden_fraction"]
    if abs(frac - 1.0) > 1e-9:
        fail(f"8192 adds ({8192 * vec:.1f} us) should hide the {transfer:.1f} us transfer fully, hidden fraction {frac}")
    print("ok: 8192 adds hide the transfer fully")

    # A core's pipes overlap where the data allow: a load hidden by independent vector work.
    pipes = os.path.join(src, "tests", "e2e", "programs", "pipes_overlap.py")
    for adds in (3, 0):
        k = json.loads(predict(ptodist, pipes, "--ranks", "1", "-D", f"adds={adds}", "--json").stdout)
        span = k["program"]["ranks"][0]["kernels"]["hide_load"]["span_us"]
        load = mte(tile, t["gm_to_ub_bytes_per_cycle"])
        want = max(load, (adds + 1) * vec) + vec + mte(tile, t["ub_to_gm_bytes_per_cycle"])
        close(f"load beside {adds + 1} vector ops (pipes overlap)", span, want, tol=1e-6)

    # Deferred completion: the waiter's task completes, and its consumer (deps=[wait_tid]) starts, only
    # once both of its conditions hold: after the publisher's later notify has arrived and been noticed,
    # whichever cell the waiter registered first (tests/e2e/programs/deferred_predict.py).
    deferred = os.path.join(src, "tests", "e2e", "programs", "deferred_predict.py")
    for late in (0, 1):
        trace = os.path.join(work, f"deferred_late{late}.json")
        predict(ptodist, deferred, "--ranks", "1", "-D", f"late={late}", "--trace", trace)
        spans = {e["name"]: e for e in json.load(open(trace))["traceEvents"] if e.get("cat") == "kernel"}
        pub, cons = spans["publisher (block 0)"], spans["consumer (block 0)"]
        close(f"publisher: notify, full + 64 adds, notify (late cell {late})", pub["dur"], 2 * scalar + 65 * vec, tol=2e-3)
        close(f"consumer starts after the later notify (late cell {late})", cons["ts"] - pub["ts"],
              pub["dur"] + t["notify_latency_us"] + t["wait_wake_us"], tol=2e-3)  # ts in ns

    bad = os.path.join(work, "no_timing.json")
    with open(bad, "w") as f:
        json.dump({"name": "bare", "cube_cores": 2, "vector_cores": 4}, f)
    p = predict(ptodist, overlap, "--ranks", "2", "--profile", bad, expect=2)
    if "no \"timing\" object" not in p.stderr or p.stderr.count("\n") != 1:
        fail(f"a profile without timing parameters: expected one line naming the missing object, got {p.stderr!r}")
    print("ok: a profile without timing parameters is a one-line error")


if __name__ == "__main__":
    main()
