# RUN: ptodist compile %s --emit=pto | FileCheck %s
# An explicit block size is kept, typed; sync_id defaults to 0. get_async mirrors put_async: the local
# destination is what the wait invalidates.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Pull:
    @pl.function(type=pl.FunctionType.InCore)
    def pull(
        self,
        dst: pl.InOut[pld.DistributedTensor[[1, 512], pl.FP16]],
        src: pld.DistributedTensor[[1, 512], pl.FP16],
    ):
        sess = pld.system.async_session(block_bytes=65536)
        evt = pld.tensor.get_async(dst, 1, src, sess)
        pld.system.wait_async_event(evt, sess)


# CHECK: pto.comm.build_async_session(%{{[a-z0-9_]+}}, %arg4) {sync_id = 0 : i32, block_bytes = 65536 : i64}
# CHECK: pto.barrier <PIPE_ALL>
# CHECK-NEXT: %evt = pto.comm.tget_async(%dst_local, %src_peer, %sess)
# CHECK-NEXT: %{{[a-z0-9_]+}} = pto.comm.wait_async_event(%evt, %sess)
# CHECK-NEXT: pto.cmo.cacheinvalid %dst_local single_cache_line
# CHECK-NEXT: pto.fence.barrier_all #pto.fence_scope<gm>
