# RUN: ptodist compile %s -p specialize,lower-collectives --emit=tile-ir --ranks 4 | FileCheck %s
# A mesh allreduce of more than one chunk (3 rows of 8 KiB: a chunk per row): chunk k belongs to rank
# k % nranks, which reduces it from every copy and stores the result into every copy; two barrier
# generations in all (ready, closing), none per chunk.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.incore
def kernel(
    data: pld.DistributedTensor[[3, 2048], pl.FP32],
    sig: pld.DistributedTensor[[4, 1], pl.INT32],
):
    # CHECK:          pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
    # CHECK-NEXT: for row_block in pl.range(3):
    # CHECK-NEXT:     if row_block % nranks == my_rank:
    # CHECK-NEXT:         acc = pl.load(data, [0 + row_block, 0], [1, 2048])
    # CHECK-NEXT:         for step in pl.range(1, nranks):
    # CHECK-NEXT:             peer = (my_rank + step) % nranks
    # CHECK-NEXT:             recv = pld.tile.remote_load(data, peer, [0 + row_block, 0], [1, 2048])
    # CHECK-NEXT:             acc = pl.add(acc, recv)
    # CHECK-NEXT:         pl.store(acc, [0 + row_block, 0], data)
    # CHECK-NEXT:         for step_1 in pl.range(1, nranks):
    # CHECK-NEXT:             peer_1 = (my_rank + step_1) % nranks
    # CHECK-NEXT:             pld.tile.remote_store(acc, data, peer_1, [0 + row_block, 0])
    # CHECK-NEXT: if my_rank == 0:
    # CHECK-NEXT:     for rank_2 in pl.range(1, nranks):
    # CHECK-NEXT:         pld.system.wait(sig, [rank_2, 0], 2, cmp=pld.WaitCmp.Ge)
    # CHECK:          pld.system.wait(sig, [0, 0], 2, cmp=pld.WaitCmp.Ge)
    # CHECK-NEXT: if my_rank == 0:
    # CHECK-NEXT:     for rank_4 in pl.range(1, nranks):
    # CHECK-NEXT:         pld.system.notify(sig, my_rank, [rank_4, 0], -2, op=pld.NotifyOp.AtomicAdd)
    # CHECK-NEXT: else:
    # CHECK-NEXT:     pld.system.notify(sig, my_rank, [0, 0], -2, op=pld.NotifyOp.AtomicAdd)
    # CHECK-NOT:  pld.system.wait
    data = pld.tensor.allreduce(data, sig)
