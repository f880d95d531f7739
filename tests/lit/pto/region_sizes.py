# RUN: ptodist compile %s --program Static --emit=pto | FileCheck %s
# RUN: not ptodist compile %s --program RunTime --emit=pto 2>&1 | FileCheck %s --check-prefix=ERR
# The static regions of loads, remote loads, cache invalidates and async transfers: each size is an
# index constant of the partition view (region_sizes); a run-time size where the op needs a static one is
# a located error at the shape.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Static:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[16, 64], pl.FP32],
        win: pld.DistributedTensor[[16, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 64], pl.FP32]],
        peer: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[16, 64], pl.FP32]:
        s = pld.system.async_session()
        # CHECK: %x_pview = pto.partition_view %x_view, offsets = [%c4, %c0], sizes = [%c2, %c64] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<2x64xf32>
        t = pl.load(x, [4, 0], [2, 64])
        # CHECK: %win_peer = pto.partition_view %win_peer_view, offsets = [%c0, %c0], sizes = [%c2, %c64] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<2x64xf32>
        u = pld.tile.remote_load(win, peer, [0, 0], [2, 64])
        # CHECK: %win_region = pto.partition_view %win_view, offsets = [%c8, %c0], sizes = [%c8, %c32] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<8x32xf32>
        # CHECK-NEXT: pto.cmo.cacheinvalid %win_region single_cache_line : !pto.partition_tensor_view<8x32xf32>
        pl.system.cacheinvalid(win, [8, 32], [8, 0])
        # Without a shape, the region is the whole tensor.
        # CHECK: %win_peer_1 = pto.partition_view %win_peer_view_1, offsets = [%c0, %c0], sizes = [%c16, %c64] : !pto.tensor_view<?x?xf32> -> !pto.partition_tensor_view<16x64xf32>
        # CHECK-NEXT: %x_local = pto.partition_view %x_view, offsets = [%c0, %c0], sizes = [%c16, %c64]
        e = pld.tensor.put_async(dst=win, peer=peer, src=x, session=s)
        pld.system.wait_async_event(e, s)
        out = pl.store(pl.add(t, u), [0, 0], out)
        return out


@pl.program
class RunTime:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[pl.dynamic("R"), 64], pl.FP32],
        win: pld.DistributedTensor[[pl.dynamic("R"), 64], pl.FP32],
        peer: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[pl.dynamic("R"), 64], pl.FP32]:
        n = pl.tensor.dim(x, 0)
        s = pld.system.async_session()
        # ERR: region_sizes.py:[[@LINE+4]]:40: error: pld.tile.put_async: the region of 'win' needs a constant shape of rank 2 (run specialize)
        # ERR-NEXT: shape=[n, 64]
        # ERR-NEXT: ^~~~~~~
        e = pld.tensor.put_async(dst=win, peer=peer, src=x, session=s, dst_offsets=[0, 0], src_offsets=[0, 0],
                                 shape=[n, 64])
        pld.system.wait_async_event(e, s)
        return x
