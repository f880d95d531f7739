# RUN: ptodist compile %s --emit=ir | FileCheck %s
# PyPTO's unified pld.remote_store(src, target, peer, offsets, *, atomic) dispatches on `src`: a tile
# is pld.tile.remote_store, a GM tensor pld.tensor.remote_store (distributed/op/unified_ops.py). The
# namespaced ops take PyPTO's keyword names (pld.get_comm_ctx(dist_tensor=), pld.tile.remote_store(src_tile=)).
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class UnifiedRemoteStore:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[2, 64], pl.FP32],
        acc: pl.InOut[pld.DistributedTensor[[8, 64], pl.FP32]],
    ):
        ctx = pld.get_comm_ctx(acc)
        me = pld.rank(ctx)
        t = pl.load(x, [0, 0], [2, 64])
        # CHECK: pld.tile.remote_store(t, acc, 0, [me * 2, 0])
        pld.remote_store(t, acc, 0, [me * 2, 0])
        # CHECK: pld.tile.remote_store(t, acc, 1, [0, 0], atomic=pld.AtomicType.Add)
        pld.remote_store(src=t, target=acc, peer=1, offsets=[0, 0], atomic=pld.AtomicType.Add)
        # CHECK: pld.tensor.remote_store(x, acc, 1, [2, 0])
        pld.remote_store(x, acc, 1, [2, 0])
        # CHECK: ctx2 = pld.get_comm_ctx(acc)
        ctx2 = pld.get_comm_ctx(dist_tensor=acc)
        # CHECK: pld.tile.remote_store(t, acc, pld.rank(ctx2), [0, 0])
        pld.tile.remote_store(src_tile=t, target=acc, peer=pld.rank(ctx2), offsets=[0, 0])
