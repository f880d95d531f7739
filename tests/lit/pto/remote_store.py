# RUN: ptodist compile %s --emit=pto | FileCheck %s
# A computed tile written into a peer's window: peer view, tstore (atomic add when asked), the peer-region
# invalidate and the fence, like a put. A store into our own window is published with the invalidate of
# exactly the stored region and the fence insert-comm-fence places.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Scatter:
    @pl.function(type=pl.FunctionType.InCore)
    def scatter(
        self,
        x: pl.Tensor[[2, 64], pl.FP32],
        acc: pl.InOut[pld.DistributedTensor[[8, 64], pl.FP32]],
        mine: pl.InOut[pld.DistributedTensor[[2, 64], pl.FP32]],
    ):
        ctx = pld.get_comm_ctx(acc)
        me = pld.rank(ctx)
        t = pl.load(x, [0, 0], [2, 64])
        t = pl.muls(t, 2.0)
        pld.tile.remote_store(t, target=acc, peer=0, offsets=[me * 2, 0], atomic=pld.AtomicType.Add)
        mine = pl.store(t, [0, 0], mine)


# CHECK: func.func @scatter(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: !pto.ptr<i64>, %arg3: !pto.ptr<f32>, %arg4: !pto.ptr<i64>)
# CHECK: pto.tmuls ins(%t, %cst : !pto.tile_buf<{{.*}}>, f32) outs(%t : !pto.tile_buf<
# CHECK: %acc_peer_ptr = pto.addptr %arg1, %acc_delta_elems : !pto.ptr<f32> -> !pto.ptr<f32>
# CHECK: %acc_peer = pto.partition_view %acc_peer_view, offsets = [%{{[a-z0-9_]+}}, %c0], sizes = [%c2, %c64]
# CHECK-NEXT: pto.tstore ins(%t : !pto.tile_buf<{{.*}}>) outs(%acc_peer : !pto.partition_tensor_view<2x64xf32>) {atomicType = #pto<atomic_type atomic_add>}
# CHECK-NEXT: pto.cmo.cacheinvalid %acc_peer single_cache_line : !pto.partition_tensor_view<2x64xf32>
# CHECK-NEXT: pto.fence.barrier_all #pto.fence_scope<gm>
# CHECK: pto.tstore ins(%t : !pto.tile_buf<{{.*}}>) outs(%mine_pview : !pto.partition_tensor_view<2x64xf32>)
# CHECK-NEXT: %mine_region = pto.partition_view %mine_view, offsets = [%c0, %c0], sizes = [%c2, %c64]
# CHECK-NEXT: pto.cmo.cacheinvalid %mine_region single_cache_line : !pto.partition_tensor_view<2x64xf32>
# CHECK-NEXT: pto.fence.barrier_all #pto.fence_scope<gm>
