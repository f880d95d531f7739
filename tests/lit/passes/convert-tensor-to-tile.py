# RUN: ptodist compile %s -p specialize,convert-tensor-to-tile --emit=tile-ir | FileCheck %s
# convert-tensor-to-tile: a put gets a staging Vec tile (the transfer flattened to
# [prod(leading dims), last dim], capped by chunk_rows/chunk_cols; two with pipeline=True); put_async
# gets none; a session gets its [1, 256] INT8 scratch.
import pypto.language as pl
import pypto.language.distributed as pld


# CHECK-LABEL: def kernel(
@pl.jit.incore
def kernel(
    x: pl.Tensor[[4, 8, 256], pl.FP16],
    dst: pld.DistributedTensor[[4, 8, 256], pl.FP16],
    row: pld.DistributedTensor[[1, 256], pl.FP32],
    xr: pl.Tensor[[1, 256], pl.FP32],
):
    ctx = pld.get_comm_ctx(dst)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    # CHECK:      stage = pl.create_tile([32, 256], pl.FP16, target_memory=pl.Mem.Vec)
    # CHECK-NEXT: pld.tile.put(dst, peer, x, stage)
    pld.tensor.put(dst, peer, x)
    # CHECK-NEXT: stage_1 = pl.create_tile([8, 128], pl.FP16, target_memory=pl.Mem.Vec)
    # CHECK-NEXT: stage_2 = pl.create_tile([8, 128], pl.FP16, target_memory=pl.Mem.Vec)
    # CHECK-NEXT: pld.tile.put(dst, peer, x, stage_1, stage2=stage_2)
    pld.tensor.put(dst, peer, x, chunk_rows=8, chunk_cols=128, pipeline=True)
    # CHECK-NEXT: stage_3 = pl.create_tile([2, 64], pl.FP16, target_memory=pl.Mem.Vec)
    # CHECK-NEXT: pld.tile.get(
    pld.tensor.get(x, peer, dst, dst_offsets=[0, 0, 0], src_offsets=[1, 0, 0], shape=[1, 2, 64])
    # CHECK-NEXT: scratch = pl.create_tile([1, 256], pl.INT8, target_memory=pl.Mem.Vec)
    # CHECK-NEXT: sess = pld.tile.async_session(scratch, sync_id=2, block_bytes=4096)
    sess = pld.system.async_session(sync_id=2, block_bytes=4096)
    # CHECK-NEXT: evt = pld.tile.put_async(row, peer, xr, sess)
    evt = pld.tensor.put_async(row, peer, xr, sess)
    # The wait is bind-async-scratch's job.
    # CHECK-NEXT: pld.system.wait_async_event(evt, sess)
    pld.system.wait_async_event(evt, sess)
