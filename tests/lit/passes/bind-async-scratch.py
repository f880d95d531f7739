# RUN: ptodist compile %s -p specialize,convert-tensor-to-tile,bind-async-scratch --emit=tile-ir | FileCheck %s
# bind-async-scratch: every wait (and test) on a session carries that session's scratch, also in loops
# and branches, so the scratch stays live to the last wait.
import pypto.language as pl
import pypto.language.distributed as pld


# CHECK-LABEL: def kernel(
@pl.jit.incore
def kernel(
    xr: pl.Tensor[[1, 256], pl.FP32],
    row: pld.DistributedTensor[[1, 256], pl.FP32],
    n: pl.Scalar[pl.INT64],
):
    ctx = pld.get_comm_ctx(row)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    # CHECK: scratch = pl.create_tile([1, 256], pl.INT8, target_memory=pl.Mem.Vec)
    # CHECK-NEXT: sess = pld.tile.async_session(scratch)
    sess = pld.system.async_session()
    s2 = sess
    for i in pl.range(n):
        evt = pld.tensor.put_async(row, peer, xr, sess)
        # CHECK: done = pld.tile.test_async_event(evt, sess, scratch=scratch)
        done = pld.system.test_async_event(evt, sess)
        if n > 1:
            # CHECK: pld.tile.wait_async_event(evt, s2, scratch=scratch)
            pld.system.wait_async_event(evt, s2)
        else:
            # CHECK: pld.tile.wait_async_event(evt, sess, scratch=scratch)
            pld.system.wait_async_event(evt, sess)
