# RUN: ptodist compile %s -p specialize,convert-tensor-to-tile,bind-async-scratch,insert-comm-fence --emit=tile-ir | FileCheck %s
# Idempotent: a second run changes nothing.
# RUN: ptodist compile %s -p specialize,convert-tensor-to-tile,bind-async-scratch,insert-comm-fence --emit=tile-ir > %t.once
# RUN: ptodist compile %s -p specialize,convert-tensor-to-tile,bind-async-scratch,insert-comm-fence,insert-comm-fence --emit=tile-ir > %t.twice
# RUN: diff %t.once %t.twice
import pypto.language as pl
import pypto.language.distributed as pld


# CHECK-LABEL: def kernel(
@pl.jit.incore
def kernel(
    x: pl.Tensor[[1, 256], pl.FP32],
    win: pld.DistributedTensor[[1, 256], pl.FP32],
    signal: pld.DistributedTensor[[1, 2], pl.INT32],
    n: pl.Scalar[pl.INT64],
):
    ctx = pld.get_comm_ctx(win)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    t = pl.load(x, [0, 0], [1, 256])
    # Publishing store into a window: invalidate exactly its region, then fence.
    # CHECK:      win = pl.store(t, [0, 0], win)
    # CHECK-NEXT: pl.system.cacheinvalid(tensor=win, shapes=[1, 256], offsets=[0, 0])
    # CHECK-NEXT: pl.system.fence()
    win = pl.store(t, [0, 0], win)
    # Synchronous remote write: the fence only.
    # CHECK:      pld.tile.put(win, peer, x, stage)
    # CHECK-NEXT: pl.system.fence()
    pld.tensor.put(win, peer, x)
    sess = pld.system.async_session()
    # An async put's issue gets nothing, also in a bare `if`; its wait gets the fence.
    # CHECK:      evt = pld.tile.put_async(win, peer, x, sess)
    # CHECK-NEXT: if n > 0:
    evt = pld.tensor.put_async(win, peer, x, sess)
    if n > 0:
        # CHECK-NEXT: evt2 = pld.tile.put_async(win, peer, x, sess)
        # CHECK-NEXT: pld.tile.wait_async_event(evt2, sess, scratch=scratch)
        # CHECK-NEXT: pl.system.fence()
        evt2 = pld.tensor.put_async(win, peer, x, sess)
        pld.system.wait_async_event(evt2, sess)
    # CHECK-NEXT: pld.tile.wait_async_event(evt, sess, scratch=scratch)
    # CHECK-NEXT: pl.system.fence()
    # CHECK-NEXT: pld.system.notify(
    pld.system.wait_async_event(evt, sess)
    pld.system.notify(signal, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
    # Consume side: one whole-GM invalidate after a run of waits.
    # CHECK-NEXT: pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Eq)
    # CHECK-NEXT: pld.system.wait(signal, [0, 1], 1, cmp=pld.WaitCmp.Eq)
    # CHECK-NEXT: pl.system.cacheinvalid()
    # CHECK-NEXT: r = pl.load(win, [0, 0], [1, 256])
    pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Eq)
    pld.system.wait(signal, [0, 1], 1, cmp=pld.WaitCmp.Eq)
    r = pl.load(win, [0, 0], [1, 256])


# A store in a return statement publishes too: it is named, fenced, then returned.
# CHECK-LABEL: def publish_in_return(
@pl.jit.incore
def publish_in_return(x: pl.Tensor[[1, 256], pl.FP32], win: pld.DistributedTensor[[1, 256], pl.FP32]):
    t = pl.load(x, [0, 0], [1, 256])
    # CHECK:      ret = pl.store(t, [0, 0], win)
    # CHECK-NEXT: pl.system.cacheinvalid(tensor=win, shapes=[1, 256], offsets=[0, 0])
    # CHECK-NEXT: pl.system.fence()
    # CHECK-NEXT: return ret
    return pl.store(t, [0, 0], win)
