# RUN: ptodist compile %s -p specialize,convert-tensor-to-tile,bind-async-scratch,plan-memory --emit=tile-ir | FileCheck %s
# plan-memory records each tile's offset on its type (printed in the annotation of its first
# definition): dead tiles' buffers are reused (a, b and c share one); the async scratch is live from its
# session to its last wait, so the tile computed between issue and wait is in another buffer.
import pypto.language as pl
import pypto.language.distributed as pld


# CHECK-LABEL: def kernel(
@pl.jit.incore
def kernel(
    x: pl.Tensor[[128, 256], pl.FP32],
    y: pl.Out[pl.Tensor[[128, 256], pl.FP32]],
    row: pld.DistributedTensor[[1, 256], pl.FP32],
    xr: pl.Tensor[[1, 256], pl.FP32],
):
    ctx = pld.get_comm_ctx(row)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    # CHECK: a: pl.Tile{{\[\[}}16, 256], pl.FP32, pl.Mem.Vec, addr=0] = pl.load(
    a = pl.load(x, [0, 0], [16, 256])
    y = pl.store(a, [0, 0], y)
    # CHECK: scratch: pl.Tile{{\[\[}}1, 256], pl.INT8, pl.Mem.Vec, addr=16384] = pl.create_tile(
    sess = pld.system.async_session()
    evt = pld.tensor.put_async(row, peer, xr, sess)
    # CHECK: b: pl.Tile{{\[\[}}16, 256], pl.FP32, pl.Mem.Vec, addr=0] = pl.load(
    b = pl.load(x, [16, 0], [16, 256])
    y = pl.store(b, [16, 0], y)
    pld.system.wait_async_event(evt, sess)
    # CHECK: c: pl.Tile{{\[\[}}16, 256], pl.FP32, pl.Mem.Vec, addr=0] = pl.load(
    c = pl.load(x, [32, 0], [16, 256])
    y = pl.store(c, [32, 0], y)
