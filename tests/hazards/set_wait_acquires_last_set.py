# Hazard 1 (unordered read), Set signals: two producers put their rows into rank 0's window and raise
# the same cell with a Set notify; rank 0 waits for the cell to equal 1. A Set does not count
# arrivals: the wait acquires only the last Set it sees, so one producer's row is not ordered before
# rank 0 reads it (counting with AtomicAdd and waiting for 2 would be right).
# RUN: %expect-exit 3 ptodist run %s --ranks 3 --mode check --seed 1 --runs 20 > %t
# RUN: FileCheck %s < %t
# RUN: FileCheck %s --check-prefix=LINE < %t
# CHECK: error: check: unordered read of window data: rank 0, vector core 0 (block 0/1 of gather_step) reads bytes [512, 768) of 'rows' in rank 0's window
# CHECK: note: written by rank 2, vector core 0 (block 0/1 of gather_step) (pld.tile.put); nothing orders that write before the read: no wait acquires it
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


@pl.jit.incore
def gather_step(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[3, SIZE], pl.FP32]],
    rows: pld.DistributedTensor[[3, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(rows)
    my_rank = pld.rank(ctx)
    if my_rank != 0:
        # LINE-DAG: set_wait_acquires_last_set.py:[[@LINE+1]]:9: note: written by rank 2
        pld.tensor.put(rows, peer=0, src=x, dst_offsets=[my_rank, 0], src_offsets=[0, 0], shape=[1, SIZE])
        # Bug: Set overwrites the other producer's arrival instead of counting it.
        pld.system.notify(signal, peer=0, offsets=[0, 0], value=1, op=pld.NotifyOp.Set)
    else:
        pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Eq)
        # LINE-DAG: set_wait_acquires_last_set.py:[[@LINE+1]]:15: error: check: unordered read of window data
        got = pl.load(rows, [0, 0], [3, SIZE])
        y = pl.store(got, [0, 0], y)
    return y


@pl.jit
def gather_chip(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[3, SIZE], pl.FP32]],
    rows: pld.DistributedTensor[[3, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    return gather_step(x, y, rows, signal)


@pl.jit.host
def gather_to_rank0(
    x: pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 3, SIZE], pl.FP32]],
):
    rows_buf = pld.alloc_window_buffer([3, SIZE], dtype=pl.FP32)
    signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        rows = pld.window(rows_buf, [3, SIZE], dtype=pl.FP32)
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        gather_chip(x[r], y[r], rows, signal, device=r)
