# RUN: ptodist compile %s -p specialize,lower-collectives --emit=tile-ir --ranks 4 | FileCheck %s
# The put_async rule of lower-collectives (docs/collectives.md): a pushed row of at least 256 KiB goes
# on the DMA engine (put_async, then its wait, on one session the kernel builds first); a smaller one is
# a staged put in 64 KiB pieces; a kernel with a session of its own keeps the staged put.
import pypto.language as pl
import pypto.language.distributed as pld


# 65535 FP32 = 262140 bytes, just under the threshold.
# CHECK-LABEL: def below(
@pl.jit.incore
def below(
    row: pl.Tensor[[1, 65535], pl.FP32],
    gathered: pld.DistributedTensor[[4, 65535], pl.FP32],
    sig: pld.DistributedTensor[[4], pl.INT32],
):
    # CHECK-NOT: async_session
    # CHECK:      for chunk in pl.range(3):
    # CHECK-NEXT:     pld.tensor.put(
    # CHECK:              shape=[1, 16384],
    # CHECK:          pld.tensor.put(
    # CHECK-NEXT:         gathered, peer, row, dst_offsets=[my_rank, 49152], src_offsets=[0, 49152], shape=[1, 16383]
    # CHECK-NOT: put_async
    gathered = pld.tensor.allgather(row, gathered, sig)


# 65536 FP32 = 262144 bytes, the threshold.
# CHECK-LABEL: def at_threshold(
@pl.jit.incore
def at_threshold(
    row: pl.Tensor[[1, 65536], pl.FP32],
    gathered: pld.DistributedTensor[[4, 65536], pl.FP32],
    table: pl.Tensor[[4, 65536], pl.FP32],
    swapped: pld.DistributedTensor[[4, 65536], pl.FP32],
    sig: pld.DistributedTensor[[4], pl.INT32],
):
    # CHECK:      ):
    # CHECK-NEXT: coll_session = pld.system.async_session()
    # CHECK:      coll_event = pld.tensor.put_async(
    # CHECK-NEXT:     gathered, peer, row, coll_session, dst_offsets=[my_rank, 0], src_offsets=[0, 0], shape=[1, 65536]
    # CHECK-NEXT: )
    # CHECK-NEXT: pld.system.wait_async_event(coll_event, coll_session)
    # CHECK-NEXT: for step_1 in pl.range(1, nranks):
    gathered = pld.tensor.allgather(row, gathered, sig)
    # CHECK:      coll_event_1 = pld.tensor.put_async(
    # CHECK-NEXT:     swapped,
    # CHECK:          src_offsets=[peer_4, 0],
    # CHECK-NEXT:     shape=[1, 65536],
    # CHECK-NEXT: )
    # CHECK-NEXT: pld.system.wait_async_event(coll_event_1, coll_session)
    swapped = pld.tensor.all_to_all(table, swapped, sig)


# CHECK-LABEL: def own_session(
@pl.jit.incore
def own_session(
    row: pl.Tensor[[1, 65536], pl.FP32],
    gathered: pld.DistributedTensor[[4, 65536], pl.FP32],
    sig: pld.DistributedTensor[[4], pl.INT32],
):
    sess = pld.system.async_session()
    # CHECK-NOT: put_async
    # CHECK:      for chunk in pl.range(4):
    # CHECK-NEXT:     pld.tensor.put(
    gathered = pld.tensor.allgather(row, gathered, sig)
