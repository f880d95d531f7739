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
    # CHECK:      pld.system.wait(sig, [peer_1, 0], 1, cmp=pld.WaitCmp.Ge)
    # CHECK-NEXT: for row_block in pl.range(3):
    # CHECK-NEXT:     if row_block % nranks == my_rank:
    # CHECK-NEXT:         acc = pl.load(data, [0 + row_block, 0], [1, 2048])
    # CHECK-NEXT:         for step_2 in pl.range(1, nranks):
    # CHECK-NEXT:             peer_2 = (my_rank + step_2) % nranks
    # CHECK-NEXT:             recv = pld.tile.remote_load(data, peer_2, [0 + row_block, 0], [1, 2048])
    # CHECK-NEXT:             acc = pl.add(acc, recv)
    # CHECK-NEXT:         pl.store(acc, [0 + row_block, 0], data)
    # CHECK-NEXT:         for step_3 in pl.range(1, nranks):
    # CHECK-NEXT:             peer_3 = (my_rank + step_3) % nranks
    # CHECK-NEXT:             pld.tile.remote_store(acc, data, peer_3, [0 + row_block, 0])
    # CHECK-NEXT: for step_4 in pl.range(1, nranks):
    # CHECK-NEXT:     peer_4 = (my_rank + step_4) % nranks
    # CHECK-NEXT:     pld.system.notify(sig, peer_4, [my_rank, 0], 1, op=pld.NotifyOp.AtomicAdd)
    # CHECK-NEXT: for step_5 in pl.range(1, nranks):
    # CHECK-NEXT:     peer_5 = (my_rank + step_5) % nranks
    # CHECK-NEXT:     pld.system.wait(sig, [peer_5, 0], 2, cmp=pld.WaitCmp.Ge)
    # CHECK-NEXT: for step_6 in pl.range(1, nranks):
    # CHECK-NEXT:     peer_6 = (my_rank + step_6) % nranks
    # CHECK-NEXT:     pld.system.notify(sig, my_rank, [peer_6, 0], -2, op=pld.NotifyOp.AtomicAdd)
    # CHECK-NOT:  pld.system.wait
    data = pld.tensor.allreduce(data, sig)
