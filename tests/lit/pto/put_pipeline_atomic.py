# RUN: ptodist compile %s --emit=pto | FileCheck %s
# A pipelined, atomic put of a sub-region: two staging tiles in one buf(...), atomic_add, the region's
# offsets on both views.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class PipelinedPut:
    @pl.function(type=pl.FunctionType.InCore)
    def push(
        self,
        src: pl.Tensor[[64, 128], pl.FP32],
        dst: pl.InOut[pld.DistributedTensor[[128, 128], pl.FP32]],
    ):
        pld.tensor.put(dst, peer=1, src=src, dst_offsets=[64, 0], src_offsets=[0, 0], shape=[64, 128],
                       atomic=pld.AtomicType.Add, chunk_rows=16, chunk_cols=128, pipeline=True)


# CHECK: func.func @push(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: !pto.ptr<i64>)
# CHECK: %dst_peer = pto.partition_view %dst_peer_view, offsets = [%c64, %c0], sizes = [%c64, %c128] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<64x128xf32>
# CHECK: pto.barrier <PIPE_ALL>
# CHECK-NEXT: pto.comm.tput(%dst_peer, %src_local, buf(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}})) {atomicType = #pto<atomic_type atomic_add>} : ({{.*}}, !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=128{{.*}}>, !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=128
# CHECK-NEXT: pto.barrier <PIPE_ALL>
# CHECK-NEXT: pto.cmo.cacheinvalid %dst_peer single_cache_line
# CHECK-NEXT: pto.fence.barrier_all #pto.fence_scope<gm>
