# RUN: ptodist compile %s --emit=pto | FileCheck %s
# Synchronous get mirrors put: the peer's view is the source, tget has no atomic type, and the region
# the transfer wrote (the local destination) is invalidated before the fence. insert-comm-fence treats a
# get as a write it cannot address (a whole-GM invalidate, then the fence); the fence is not doubled.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Pull:
    @pl.function(type=pl.FunctionType.InCore)
    def pull(
        self,
        dst: pl.Out[pl.Tensor[[1, 512], pl.FP32]],
        src: pld.DistributedTensor[[1, 512], pl.FP32],
    ):
        pld.tensor.get(dst, peer=0, src=src)


# CHECK: func.func @pull(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: !pto.ptr<i64>)
# CHECK: %src_peer_ptr = pto.addptr %arg1, %src_delta_elems
# CHECK: %src_peer = pto.partition_view %src_peer_view
# CHECK-NEXT: pto.barrier <PIPE_ALL>
# CHECK-NEXT: pto.comm.tget(%dst_local, %src_peer, buf(%{{[a-z0-9_]+}})) : (
# CHECK-NOT: atomicType
# CHECK-NEXT: pto.barrier <PIPE_ALL>
# CHECK-NEXT: pto.cmo.cacheinvalid %dst_local single_cache_line
# CHECK-NEXT: pto.cmo.cacheinvalid all #pto.address_space<gm>
# CHECK-NEXT: pto.fence.barrier_all #pto.fence_scope<gm>
# CHECK-NOT: pto.fence.barrier_all
