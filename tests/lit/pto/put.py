# RUN: ptodist compile %s --emit=pto | FileCheck %s
# Synchronous put: peer view inline, a PIPE_ALL barrier, tput through the staging tile with its atomic
# type, a second barrier, the invalidate of the peer region, then the GM fence of insert-comm-fence.
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 256


@pl.program
class RingPut:
    @pl.function(type=pl.FunctionType.InCore)
    def put_kernel(
        self,
        src: pl.Tensor[[1, SIZE], pl.FP16],
        dst: pl.InOut[pld.DistributedTensor[[1, SIZE], pl.FP16]],
    ):
        ctx = pld.get_comm_ctx(dst)
        peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
        pld.tensor.put(dst, peer=peer, src=src, atomic=pld.AtomicType.None_)


# CHECK-LABEL: // kernel: put_kernel
# CHECK: func.func @put_kernel(%arg0: !pto.ptr<f16>, %arg1: !pto.ptr<f16>, %arg2: !pto.ptr<i64>)
# CHECK: [[STAGE:%[a-z0-9_]+]] = pto.alloc_tile addr = %{{[a-z0-9_]+}} : !pto.tile_buf<loc=vec, dtype=f16, rows=1, cols=256
# CHECK: %dst_peer_ptr = pto.addptr %arg1, %dst_delta_elems : !pto.ptr<f16> -> !pto.ptr<f16>
# CHECK: %dst_peer = pto.partition_view %dst_peer_view, offsets = [%c0, %c0], sizes = [%c1, %c256]
# CHECK-NEXT: %src_local = pto.partition_view %src_view
# CHECK-NEXT: pto.barrier <PIPE_ALL>
# CHECK-NEXT: pto.comm.tput(%dst_peer, %src_local, buf([[STAGE]])) {atomicType = #pto<atomic_type atomic_none>} : (!pto.partition_tensor_view<1x256xf16>, !pto.partition_tensor_view<1x256xf16>, !pto.tile_buf<loc=vec, dtype=f16
# CHECK-NEXT: pto.barrier <PIPE_ALL>
# CHECK-NEXT: pto.cmo.cacheinvalid %dst_peer single_cache_line : !pto.partition_tensor_view<1x256xf16>
# CHECK-NEXT: pto.fence.barrier_all #pto.fence_scope<gm>
# CHECK-NOT: pto.fence.barrier_all
# CHECK: return
