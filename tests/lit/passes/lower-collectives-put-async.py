# RUN: ptodist compile %s -p specialize,lower-collectives --emit=tile-ir --ranks 4 | FileCheck %s
# The put_async rule of lower-collectives (docs/collectives.md): a pushed row of at least 256 KiB goes
# on the DMA engine (put_async on one session the kernel builds first; with at most 16 rows in all,
# every transfer before the first wait, else per peer a put_async and its wait); a smaller one is a
# staged put in 64 KiB pieces; a kernel with a session of its own keeps the staged put. broadcast's
# pull follows the same rule with get_async.
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
    # Every rank's transfer in flight before the first wait, unrolled over the 4 rows of the target.
    # CHECK:      ):
    # CHECK-NEXT: coll_session = pld.system.async_session()
    # CHECK:      peer = my_rank % 4
    # CHECK-NEXT: coll_event = pld.tensor.put_async(
    # CHECK-NEXT:     gathered, peer, row, coll_session, dst_offsets=[my_rank, 0], src_offsets=[0, 0], shape=[1, 65536]
    # CHECK-NEXT: )
    # CHECK-NEXT: peer_1 = (my_rank + 1) % 4
    # CHECK-NEXT: coll_event_1 = pld.tensor.put_async(
    # CHECK:      peer_3 = (my_rank + 3) % 4
    # CHECK-NEXT: coll_event_3 = pld.tensor.put_async(
    # CHECK-NEXT:     gathered, peer_3, row,
    # CHECK-NEXT: )
    # CHECK-NEXT: pld.system.wait_async_event(coll_event, coll_session)
    # CHECK-NEXT: pld.system.wait_async_event(coll_event_1, coll_session)
    # CHECK-NEXT: pld.system.wait_async_event(coll_event_2, coll_session)
    # CHECK-NEXT: pld.system.wait_async_event(coll_event_3, coll_session)
    # CHECK-NEXT: if my_rank == 0:
    gathered = pld.tensor.allgather(row, gathered, sig)
    # CHECK:      peer_7 = (my_rank_1 + 3) % 4
    # CHECK-NEXT: coll_event_7 = pld.tensor.put_async(
    # CHECK-NEXT:     swapped,
    # CHECK-NEXT:     peer_7,
    # CHECK-NEXT:     table,
    # CHECK-NEXT:     coll_session,
    # CHECK-NEXT:     dst_offsets=[my_rank_1, 0],
    # CHECK-NEXT:     src_offsets=[peer_7, 0],
    # CHECK-NEXT:     shape=[1, 65536],
    # CHECK-NEXT: )
    # CHECK-NEXT: pld.system.wait_async_event(coll_event_4, coll_session)
    # CHECK:      pld.system.wait_async_event(coll_event_7, coll_session)
    # CHECK-NEXT: if my_rank_1 == 0:
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


# all_to_all_v with MAX_RECV = 2 rows of 256 KiB: the counts first (no notify while a transfer is in
# flight), then one put_async per row, 8 in flight.
# CHECK-LABEL: def by_rows(
@pl.jit.incore
def by_rows(
    table: pl.Tensor[[8, 65536], pl.FP32],
    swapped: pld.DistributedTensor[[8, 65536], pl.FP32],
    sig: pld.DistributedTensor[[4], pl.INT32],
    counts: pl.Tensor[[4], pl.INT32],
    recv: pld.DistributedTensor[[4, 1], pl.INT32],
):
    # CHECK:      pld.system.notify(recv, peer, [my_rank, 0], send_count if send_count < 2 else 2, op=pld.NotifyOp.Set)
    # CHECK-NOT:  pld.system.notify(
    # CHECK:      peer_1 = my_rank % 4
    # CHECK-NEXT: coll_event = pld.tensor.put_async(
    # CHECK-NEXT:     swapped,
    # CHECK-NEXT:     peer_1,
    # CHECK-NEXT:     table,
    # CHECK-NEXT:     coll_session,
    # CHECK-NEXT:     dst_offsets=[my_rank * 2, 0],
    # CHECK-NEXT:     src_offsets=[peer_1 * 2, 0],
    # CHECK-NEXT:     shape=[1, 65536],
    # CHECK-NEXT: )
    # CHECK-NEXT: coll_event_1 = pld.tensor.put_async(
    # CHECK-NEXT:     swapped,
    # CHECK-NEXT:     peer_1,
    # CHECK-NEXT:     table,
    # CHECK-NEXT:     coll_session,
    # CHECK-NEXT:     dst_offsets=[my_rank * 2 + 1, 0],
    # CHECK-NEXT:     src_offsets=[peer_1 * 2 + 1, 0],
    # CHECK:      pld.system.wait_async_event(coll_event_7, coll_session)
    # CHECK-NEXT: if my_rank == 0:
    swapped = pld.tensor.all_to_all_v(table, swapped, sig, counts, recv)


# 17 rows: more than 16 transfers, so per peer a put_async and its wait.
# CHECK-LABEL: def many(
@pl.jit.incore
def many(
    table: pl.Tensor[[17, 65536], pl.FP32],
    swapped: pld.DistributedTensor[[17, 65536], pl.FP32],
    sig: pld.DistributedTensor[[17], pl.INT32],
):
    # CHECK:      for step in pl.range(nranks):
    # CHECK-NEXT:     peer = (my_rank + step) % nranks
    # CHECK-NEXT:     coll_event = pld.tensor.put_async(
    # CHECK:          pld.system.wait_async_event(coll_event, coll_session)
    # CHECK-NEXT: if my_rank == 0:
    swapped = pld.tensor.all_to_all(table, swapped, sig)


# broadcast pulls root's window: from 256 KiB in all, one get_async of the whole window (window to
# window, no stage tile) and its wait before the epilogue; below it, staged gets of 64 KiB pieces.
# CHECK-LABEL: def pull_at_threshold(
@pl.jit.incore
def pull_at_threshold(
    data: pld.DistributedTensor[[64, 1024], pl.FP32],
    sig: pld.DistributedTensor[[4, 1], pl.INT32],
):
    # CHECK:      coll_session = pld.system.async_session()
    # CHECK:      if my_rank != 0:
    # CHECK-NEXT:     coll_event = pld.tensor.get_async(data, 0, data, coll_session)
    # CHECK-NEXT:     pld.system.wait_async_event(coll_event, coll_session)
    # CHECK-NOT:  pld.tensor.get(
    data = pld.tensor.broadcast(data, sig, root=0)


# CHECK-LABEL: def pull_below(
@pl.jit.incore
def pull_below(
    data: pld.DistributedTensor[[63, 1024], pl.FP32],
    sig: pld.DistributedTensor[[4, 1], pl.INT32],
):
    # CHECK-NOT:  async_session
    # CHECK:      if my_rank != 0:
    # CHECK-NEXT:     for row_block in pl.range(7):
    # CHECK-NEXT:         pld.tensor.get(
    # CHECK-NOT:  get_async
    data = pld.tensor.broadcast(data, sig, root=0)
