# RUN: ptodist check %s --verify-diagnostics
# A computed tile cannot be the source of an async put: the DMA engine copies GM to GM.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.incore
def kernel(
    x: pl.Tensor[[1, 256], pl.FP32],
    row: pld.DistributedTensor[[1, 256], pl.FP32],
):
    ctx = pld.get_comm_ctx(row)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    t = pl.load(x, [0, 0], [1, 256])
    sess = pld.system.async_session()
    # expected-error@+1 {{pld.tensor.put_async: 'src' must be a tensor in GM, got a computed tile}}
    evt = pld.tensor.put_async(row, peer, t, sess)
    pld.system.wait_async_event(evt, sess)
