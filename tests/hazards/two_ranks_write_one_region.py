# Hazard 2 (write/write race): an all-gather whose put uses the receiver's slot instead of the
# sender's, so each rank's put lands on the row the receiver stores itself. The slot is a run-time
# value: no pass can see the overlap, only check mode.
# RUN: %expect-exit 3 ptodist run %s --ranks 2 --mode check --seed 1 --runs 20 > %t
# RUN: FileCheck %s < %t
# RUN: FileCheck %s --check-prefix=LINE < %t
# CHECK: error: check: write/write race on window data: rank 1, vector core 0 (block 0/1 of gather_step) writes bytes [256, 512) of 'gathered' in rank 1's window
# CHECK-NEXT: gathered = pl.store(own, [my_rank, 0], gathered)
# CHECK: note: also written by rank 0, vector core 0 (block 0/1 of gather_step) (pld.tile.put), unordered with this write
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64
NSLOTS = 2


@pl.jit.incore
def gather_step(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[NSLOTS, SIZE], pl.FP32]],
    gathered: pld.DistributedTensor[[NSLOTS, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(gathered)
    my_rank = pld.rank(ctx)
    peer = (my_rank + 1) % pld.nranks(ctx)
    own = pl.load(x, [0, 0], [1, SIZE])
    # LINE-DAG: two_ranks_write_one_region.py:[[@LINE+1]]:16: error: check: write/write race on window data
    gathered = pl.store(own, [my_rank, 0], gathered)
    # Bug: the slot is the peer's rank; it should be my_rank.
    # LINE-DAG: two_ranks_write_one_region.py:[[@LINE+1]]:5: note: also written by rank 0
    pld.tensor.put(gathered, peer=peer, src=x, dst_offsets=[peer, 0], src_offsets=[0, 0], shape=[1, SIZE])
    pld.system.notify(signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
    rows = pl.load(gathered, [0, 0], [NSLOTS, SIZE])
    y = pl.store(rows, [0, 0], y)
    return y


@pl.jit
def gather_chip(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[NSLOTS, SIZE], pl.FP32]],
    gathered: pld.DistributedTensor[[NSLOTS, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    return gather_step(x, y, gathered, signal)


@pl.jit.host
def gather(
    x: pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[pl.dynamic("NR"), NSLOTS, SIZE], pl.FP32]],
):
    gathered_buf = pld.alloc_window_buffer([NSLOTS, SIZE], dtype=pl.FP32)
    signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        gathered = pld.window(gathered_buf, [NSLOTS, SIZE], dtype=pl.FP32)
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        gather_chip(x[r], y[r], gathered, signal, device=r)
