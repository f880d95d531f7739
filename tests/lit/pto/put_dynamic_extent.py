# RUN: ptodist compile %s --emit=pto | FileCheck %s
# A put whose region has a run-time row count (pypto-lib's prefill all-gather): the staging tile is the
# static chunk, the partition views carry the extent as an index value and `?` in their type, so pto-isa
# slides the transfer through the chunk at run time. A full-slice get of a dynamic tensor takes the
# tensor's own dims.
import pypto.language as pl
import pypto.language.distributed as pld

T = pl.dynamic("T")


@pl.program
class DynamicPut:
    @pl.function(type=pl.FunctionType.InCore)
    def push(
        self,
        src: pl.Tensor[[T, 64], pl.BF16],
        window: pl.InOut[pld.DistributedTensor[[1024, 64], pl.BF16]],
        me: pl.Scalar[pl.INT32],
    ):
        rows = pl.cast(pl.tensor.dim(src, 0), pl.INT32)
        pld.tensor.put(dst=window, peer=1, src=src, dst_offsets=[me * rows, 0], src_offsets=[0, 0],
                       shape=[rows, 64], chunk_rows=8, chunk_cols=64)

    @pl.function(type=pl.FunctionType.InCore)
    def pull(
        self,
        dst: pl.Out[pld.DistributedTensor[[T, 64], pl.BF16]],
        src: pld.DistributedTensor[[T, 64], pl.BF16],
    ):
        pld.tensor.get(dst, 1, src, chunk_rows=4, chunk_cols=64)


# CHECK-LABEL: func.func @push(
# CHECK: %[[ROWS:[a-z0-9_]+]] = arith.index_cast %{{[a-z0-9_]+}} : i32 to index
# CHECK: %window_peer = pto.partition_view %window_peer_view, offsets = [%{{[a-z0-9_]+}}, %c0], sizes = [%[[ROWS]], %c64] : !pto.tensor_view<?x?xbf16> -> !pto.partition_tensor_view<?x64xbf16>
# CHECK: %src_local = pto.partition_view %src_view, offsets = [%c0, %c0], sizes = [%[[ROWS]], %c64] : !pto.tensor_view<?x?xbf16> -> !pto.partition_tensor_view<?x64xbf16>
# CHECK: pto.comm.tput(%window_peer, %src_local, buf(%{{[a-z0-9_]+}})) {{.*}} : (!pto.partition_tensor_view<?x64xbf16>, !pto.partition_tensor_view<?x64xbf16>, !pto.tile_buf<loc=vec, dtype=bf16, rows=8, cols=64
# CHECK-LABEL: func.func @pull(
# CHECK: %dst_local = pto.partition_view %dst_view, offsets = [%c0, %c0], sizes = [%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}] : !pto.tensor_view<?x?xbf16> -> !pto.partition_tensor_view<?x64xbf16>
# CHECK: pto.comm.tget(%dst_local, %src_peer, buf(%{{[a-z0-9_]+}})) : (!pto.partition_tensor_view<?x64xbf16>, !pto.partition_tensor_view<?x64xbf16>, !pto.tile_buf<loc=vec, dtype=bf16, rows=4, cols=64
