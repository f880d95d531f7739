# RUN: ptodist compile %s -p specialize,convert-tensor-to-tile,bind-async-scratch,print-async-events --emit=tile-ir | FileCheck %s
# print-async-events shows the may-be-outstanding facts of the async-event dataflow (line:col, point,
# state per event).
import pypto.language as pl
import pypto.language.distributed as pld


# CHECK-LABEL: // async events of kernel 'kernel':
@pl.jit.incore
def kernel(
    x: pl.Tensor[[1, 256], pl.FP32],
    dst: pld.DistributedTensor[[1, 256], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
    n: pl.Scalar[pl.INT64],
):
    ctx = pld.get_comm_ctx(dst)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    sess = pld.system.async_session()
    # CHECK-NEXT: //   [[@LINE+1]]:5 issue evt: {evt: pending}
    evt = pld.tensor.put_async(dst, peer, x, sess)
    # CHECK-NEXT: //   [[@LINE+1]]:5 after if: {evt: drained}
    if n > 0:
        # CHECK-NEXT: //   [[@LINE+1]]:9 wait evt: {evt: drained}
        pld.system.wait_async_event(evt, sess)
    else:
        # CHECK-NEXT: //   [[@LINE+1]]:9 wait evt: {evt: drained}
        pld.system.wait_async_event(evt, sess)
    # CHECK-NEXT: //   [[@LINE+1]]:5 after for: {evt: drained}
    for i in pl.range(n):
        # CHECK-NEXT: //   [[@LINE+1]]:9 issue evt: {evt: pending}
        evt = pld.tensor.put_async(dst, peer, x, sess)
        # CHECK-NEXT: //   [[@LINE+1]]:9 wait evt: {evt: drained}
        pld.system.wait_async_event(evt, sess)
    # CHECK-NEXT: //   [[@LINE+2]]:5 notify: {evt: drained}
    # CHECK-NEXT: //   [[@LINE+1]]:5 end of kernel: {evt: drained}
    pld.system.notify(signal, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
