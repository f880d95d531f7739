# RUN: ptodist compile %s -p specialize,lower-collectives --emit=tile-ir --ranks 4 | FileCheck %s
# lower-collectives turns each collective into puts, counting notifies and a wait on its signal.
import pypto.language as pl
import pypto.language.distributed as pld


# CHECK-LABEL: def kernel(
@pl.jit.incore
def kernel(
    x: pl.Tensor[[4, 64], pl.FP32],
    gathered: pld.DistributedTensor[[16, 64], pl.FP32],
    part: pld.DistributedTensor[[16, 64], pl.FP32],
    sig: pld.DistributedTensor[[1, 1], pl.INT32],
    sig2: pld.DistributedTensor[[1, 1], pl.INT32],
):
    # CHECK:      coll_ctx = pld.get_comm_ctx(sig)
    # CHECK-NEXT: coll_rank = pld.rank(coll_ctx)
    # CHECK-NEXT: for peer in pl.range(4):
    # CHECK-NEXT:     pld.system.notify(sig, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
    # CHECK-NEXT: pld.system.wait(sig, [0, 0], 4, cmp=pld.WaitCmp.Ge)
    pld.tensor.barrier(sig)
    # CHECK:      for peer_1 in pl.range(4):
    # CHECK-NEXT:     pld.tensor.put(
    # CHECK-NEXT:         gathered, peer_1, x, dst_offsets=[coll_rank_1 * 4, 0], src_offsets=[0, 0], shape=[4, 64]
    # CHECK-NEXT:     )
    # CHECK-NEXT:     pld.system.notify(sig2, peer_1, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
    # CHECK-NEXT: pld.system.wait(sig2, [0, 0], 4, cmp=pld.WaitCmp.Ge)
    pld.tensor.allgather(gathered, x, sig2)
    # A second barrier on the same signal waits for the running total.
    # CHECK: pld.system.wait(sig, [0, 0], 8, cmp=pld.WaitCmp.Ge)
    pld.tensor.barrier(sig)
