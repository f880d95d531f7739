# RUN: ptodist compile %s --emit=pto | FileCheck %s
# The async put family: the session with both attributes typed (block_bytes defaulted to 1 MiB), the
# issue preceded only by the leading PIPE_ALL barrier, nothing of the transfer between issue and wait,
# then after the wait the peer-region invalidate deferred from the issue and the GM fence. The scratch
# operand of the tile-level wait is not printed. The kernel takes the SDMA workspace as its last argument.
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 1024


@pl.program
class Overlap:
    @pl.function(type=pl.FunctionType.AIV)
    def overlap(
        self,
        x: pl.Tensor[[1, SIZE], pl.FP32],
        z: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
        dst: pl.InOut[pld.DistributedTensor[[1, SIZE], pl.FP32]],
    ):
        ctx = pld.get_comm_ctx(dst)
        peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
        sess = pld.system.async_session(sync_id=2)
        evt = pld.tensor.put_async(dst, peer, x, sess)
        t = pl.load(x, [0, 0], [1, SIZE])
        t = pl.add(t, t)
        z = pl.store(t, [0, 0], z)
        pld.system.wait_async_event(evt, sess)


# CHECK: func.func @overlap(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: !pto.ptr<f32>, %arg3: !pto.ptr<i64>, %arg4: !pto.ptr<i8>)
# CHECK: [[SCRATCH:%[a-z0-9_]+]] = pto.alloc_tile addr = %{{[a-z0-9_]+}} : !pto.tile_buf<loc=vec, dtype=i8, rows=1, cols=256
# CHECK: %sess = pto.comm.build_async_session([[SCRATCH]], %arg4) {sync_id = 2 : i32, block_bytes = 1048576 : i64} : (!pto.tile_buf<loc=vec, dtype=i8, rows=1, cols=256, {{.*}}>, !pto.ptr<i8>) -> !pto.async_session
# CHECK: %x_local = pto.partition_view
# CHECK-NEXT: pto.barrier <PIPE_ALL>
# CHECK-NEXT: %evt = pto.comm.tput_async(%dst_peer, %x_local, %sess) : (!pto.partition_tensor_view<1x1024xf32>, !pto.partition_tensor_view<1x1024xf32>, !pto.async_session) -> !pto.async_event
# CHECK-NOT: pto.barrier
# CHECK-NOT: pto.cmo.cacheinvalid
# CHECK-NOT: pto.fence
# CHECK: pto.tadd
# CHECK-NOT: pto.barrier
# CHECK-NOT: pto.cmo.cacheinvalid
# CHECK-NOT: pto.fence
# CHECK: = pto.comm.wait_async_event(%evt, %sess) : (!pto.async_event, !pto.async_session) -> i1
# CHECK-NEXT: pto.cmo.cacheinvalid %dst_peer single_cache_line : !pto.partition_tensor_view<1x1024xf32>
# CHECK-NEXT: pto.fence.barrier_all #pto.fence_scope<gm>
# CHECK-NOT: pto.fence.barrier_all
# CHECK: return
