# RUN: ptodist compile %s -p specialize,lower-collectives --emit=tile-ir --ranks 3 | FileCheck %s
# lower-collectives, mode="ring": PyPTO's ring schedule on a [2*(NR-1), NR] signal: NR-1 reduce-scatter
# steps folding the left neighbour's segment (column ranges 0:21, 21:42, 42:64 of 64 columns at 3
# ranks, each in its own static arm), NR-1 allgather steps copying it, one barrier per step on the
# step's row, a last barrier on row 0, and every row cleared.
import pypto.language as pl
import pypto.language.distributed as pld


# CHECK-LABEL: def kernel(
@pl.jit.incore
def kernel(
    data: pld.DistributedTensor[[1, 64], pl.FP32],
    sig: pld.DistributedTensor[[4, 3], pl.INT32],
):
    data = pld.tensor.allreduce(data, sig, mode="ring")
# CHECK:      for rs_step in pl.range(2):
# CHECK:          pld.system.notify(sig, peer, [rs_step, my_rank], 1, op=pld.NotifyOp.AtomicAdd)
# CHECK:          pld.system.wait(sig, [rs_step, peer_1], 1, cmp=pld.WaitCmp.Ge)
# CHECK-NEXT:     segment = (my_rank - (rs_step + 2) + 6) % 3
# CHECK-NEXT:     left = (my_rank - 1 + 6) % 3
# CHECK-NEXT:     if segment == 0:
# CHECK-NEXT:         recv = pld.tile.remote_load(data, left, [0, 0], [1, 21])
# CHECK-NEXT:         acc = pl.load(data, [0, 0], [1, 21])
# CHECK-NEXT:         acc = pl.add(acc, recv)
# CHECK-NEXT:         pl.store(acc, [0, 0], data)
# CHECK:          if segment == 2:
# CHECK-NEXT:         recv_2 = pld.tile.remote_load(data, left, [0, 42], [1, 22])
# CHECK:      for ag_step in pl.range(2):
# CHECK:          pld.system.wait(sig, [ag_step + 2, peer_3], 1, cmp=pld.WaitCmp.Ge)
# CHECK-NEXT:     segment_1 = (my_rank - (ag_step + 1) + 6) % 3
# CHECK:          if segment_1 == 0:
# CHECK-NEXT:         recv_3 = pld.tile.remote_load(data, left_1, [0, 0], [1, 21])
# CHECK-NEXT:         pl.store(recv_3, [0, 0], data)
# CHECK:      pld.system.wait(sig, [0, peer_5], 2, cmp=pld.WaitCmp.Ge)
# CHECK:      pld.system.notify(sig, my_rank, [0, peer_6], -2, op=pld.NotifyOp.AtomicAdd)
# CHECK:      pld.system.notify(sig, my_rank, [3, peer_9], -1, op=pld.NotifyOp.AtomicAdd)
