# RUN: ptodist compile %s --emit=ir | FileCheck %s
# pld.tile.put/get bind positionally as PyPTO's: the fifth argument is the second staging tile, and a
# region list written there (after a single stage, as PyPTO's printer writes it) is the region.
import pypto.language as pl
import pypto.language.distributed as pld


# CHECK-LABEL: def kernel(
@pl.jit.incore
def kernel(
    x: pl.Tensor[[8, 256], pl.FP16],
    dst: pld.DistributedTensor[[8, 256], pl.FP16],
):
    ctx = pld.get_comm_ctx(dst)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    s1 = pl.create_tile([4, 256], pl.FP16, target_memory=pl.Mem.Vec)
    s2 = pl.create_tile([4, 256], pl.FP16, target_memory=pl.Mem.Vec)
    # CHECK: pld.tile.put(dst, peer, x, s1, stage2=s2)
    pld.tile.put(dst, peer, x, s1, s2)
    # CHECK: pld.tile.put(dst, peer, x, s1, dst_offsets=[4, 0], src_offsets=[0, 0], shape=[4, 256])
    pld.tile.put(dst, peer, x, s1, [4, 0], [0, 0], [4, 256])
    # CHECK: pld.tile.get(x, peer, dst, s1, stage2=s2, dst_offsets=[0, 0], src_offsets=[4, 0], shape=[4, 256])
    pld.tile.get(x, peer, dst, s1, s2, [0, 0], [4, 0], [4, 256])
    # CHECK: pld.tile.get(x, peer, dst, s1, dst_offsets=[4, 0], src_offsets=[0, 0], shape=[4, 256])
    pld.tile.get(x, peer, dst, s1, [4, 0], [0, 0], [4, 256])
