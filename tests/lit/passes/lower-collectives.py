# RUN: ptodist compile %s -p specialize,lower-collectives --emit=tile-ir --ranks 4 | FileCheck %s
# lower-collectives: PyPTO's self-clearing credit barrier (central on a signal of more than 2 cells,
# mesh on 2), a push allgather, a pull allreduce with a barrier per chunk, and the rebinding of the
# call's target to the result window.
import pypto.language as pl
import pypto.language.distributed as pld


# CHECK-LABEL: def kernel(
@pl.jit.incore
def kernel(
    one: pl.Tensor[[1, 64], pl.FP32],
    gathered: pld.DistributedTensor[[4, 64], pl.FP32],
    sig: pld.DistributedTensor[[4, 1], pl.INT32],
    other: pld.DistributedTensor[[4], pl.INT32],
):
    # A signal of 4 cells: the central barrier (rank 0 gathers every credit, then releases each rank).
    # CHECK:      comm_ctx = pld.get_comm_ctx(sig)
    # CHECK-NEXT: my_rank = pld.rank(comm_ctx)
    # CHECK-NEXT: nranks = pld.nranks(comm_ctx)
    # CHECK-NEXT: if my_rank == 0:
    # CHECK-NEXT:     for rank in pl.range(1, nranks):
    # CHECK-NEXT:         pld.system.wait(sig, [rank, 0], 1, cmp=pld.WaitCmp.Ge)
    # CHECK-NEXT:     for rank_1 in pl.range(1, nranks):
    # CHECK-NEXT:         pld.system.notify(sig, rank_1, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
    # CHECK-NEXT: else:
    # CHECK-NEXT:     pld.system.notify(sig, 0, [my_rank, 0], 1, op=pld.NotifyOp.AtomicAdd)
    # CHECK-NEXT:     pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
    # The epilogue takes back only the credits this rank's cells received.
    # CHECK-NEXT: if my_rank == 0:
    # CHECK-NEXT:     for rank_2 in pl.range(1, nranks):
    # CHECK-NEXT:         pld.system.notify(sig, my_rank, [rank_2, 0], -1, op=pld.NotifyOp.AtomicAdd)
    # CHECK-NEXT: else:
    # CHECK-NEXT:     pld.system.notify(sig, my_rank, [0, 0], -1, op=pld.NotifyOp.AtomicAdd)
    sig = pld.tensor.barrier(sig)
    # The push: every rank, itself included, gets my chunk in row my_rank; then one generation.
    # CHECK:      for step in pl.range(nranks_1):
    # CHECK-NEXT:     peer = (my_rank_1 + step) % nranks_1
    # CHECK-NEXT:     pld.tensor.put(gathered, peer, one, dst_offsets=[my_rank_1, 0], src_offsets=[0, 0], shape=[1, 64])
    # CHECK-NEXT: if my_rank_1 == 0:
    # CHECK:          pld.system.notify(sig, 0, [my_rank_1, 0], 1, op=pld.NotifyOp.AtomicAdd)
    # CHECK:          pld.system.notify(sig, my_rank_1, [0, 0], -1, op=pld.NotifyOp.AtomicAdd)
    gathered = pld.tensor.allgather(one, gathered, sig)
    # A 1-D signal has cells [src]; the chunk's barrier (generation 2) comes before its store.
    # CHECK:      acc = pl.load(gathered, [0, 0], [4, 64])
    # CHECK:          recv = pld.tile.remote_load(gathered, peer_{{[0-9]+}}, [0, 0], [4, 64])
    # CHECK-NEXT:     acc = pl.maximum(acc, recv)
    # CHECK:              pld.system.wait(other, [rank_{{[0-9]+}}], 2, cmp=pld.WaitCmp.Ge)
    # CHECK:          pld.system.wait(other, [0], 2, cmp=pld.WaitCmp.Ge)
    # CHECK:      pl.store(acc, [0, 0], gathered)
    # CHECK:              pld.system.notify(other, my_rank_2, [rank_{{[0-9]+}}], -2, op=pld.NotifyOp.AtomicAdd)
    # CHECK:          pld.system.notify(other, my_rank_2, [0], -2, op=pld.NotifyOp.AtomicAdd)
    # CHECK:      result = gathered
    result = pld.tensor.allreduce(gathered, other, op=pld.ReduceOp.Max)


# A signal of 2 cells: the mesh barrier (each rank credits the other, then waits for its credit).
# CHECK-LABEL: def pair(
@pl.jit.incore
def pair(sig: pld.DistributedTensor[[2, 1], pl.INT32]):
    # CHECK:      for step in pl.range(1, nranks):
    # CHECK-NEXT:     peer = (my_rank + step) % nranks
    # CHECK-NEXT:     pld.system.notify(sig, peer, [my_rank, 0], 1, op=pld.NotifyOp.AtomicAdd)
    # CHECK-NEXT: for step_1 in pl.range(1, nranks):
    # CHECK-NEXT:     peer_1 = (my_rank + step_1) % nranks
    # CHECK-NEXT:     pld.system.wait(sig, [peer_1, 0], 1, cmp=pld.WaitCmp.Ge)
    # CHECK-NEXT: for step_2 in pl.range(1, nranks):
    # CHECK-NEXT:     peer_2 = (my_rank + step_2) % nranks
    # CHECK-NEXT:     pld.system.notify(sig, my_rank, [peer_2, 0], -1, op=pld.NotifyOp.AtomicAdd)
    sig = pld.tensor.barrier(sig)
