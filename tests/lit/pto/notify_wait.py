# RUN: ptodist compile %s --emit=pto | FileCheck %s
# notify: a PIPE_ALL barrier right before tnotify with its notify op; wait: twait with its comparison,
# then a whole-GM invalidate before the data is read.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Handshake:
    @pl.function(type=pl.FunctionType.InCore)
    def handshake(
        self,
        signal: pl.InOut[pld.DistributedTensor[[4, 1], pl.INT32]],
        data: pld.DistributedTensor[[1, 64], pl.FP32],
        out: pl.Out[pl.Tensor[[1, 64], pl.FP32]],
    ):
        ctx = pld.get_comm_ctx(signal)
        me = pld.rank(ctx)
        peer = (me + 1) % pld.nranks(ctx)
        pld.system.notify(signal, peer=peer, offsets=[me, 0], value=1, op=pld.NotifyOp.Set)
        pld.system.notify(signal, peer=peer, offsets=[me, 0], value=1, op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, offsets=[peer, 0], expected=2, cmp=pld.WaitCmp.Ge)
        pld.system.wait(signal, offsets=[peer, 0], expected=2, cmp=pld.WaitCmp.Eq)
        t = pl.load(data, [0, 0], [1, 64])
        out = pl.store(t, [0, 0], out)


# CHECK: func.func @handshake(%arg0: !pto.ptr<i32>, %arg1: !pto.ptr<i64>, %arg2: !pto.ptr<f32>, %arg3: !pto.ptr<i64>, %arg4: !pto.ptr<f32>)
# CHECK: %signal_peer = pto.partition_view %signal_peer_view, offsets = [%{{[a-z0-9_]+}}, %c0], sizes = [%c1, %c1]
# CHECK-NEXT: pto.barrier <PIPE_ALL>
# CHECK-NEXT: pto.comm.tnotify(%signal_peer, %c1_i32) {notifyOp = #pto<notify_op set>} : (!pto.partition_tensor_view<1x1xi32>, i32)
# CHECK: pto.barrier <PIPE_ALL>
# CHECK-NEXT: pto.comm.tnotify(%signal_peer_1, %c1_i32) {notifyOp = #pto<notify_op atomic_add>}
# CHECK: pto.comm.twait(%signal_local, %c2_i32) {cmp = #pto<wait_cmp ge>} : (!pto.partition_tensor_view<1x1xi32>, i32)
# CHECK: pto.comm.twait(%signal_local_1, %c2_i32) {cmp = #pto<wait_cmp eq>}
# CHECK-NEXT: pto.cmo.cacheinvalid all #pto.address_space<gm>
# CHECK-NOT: pto.cmo.cacheinvalid all
# CHECK: pto.tload ins(%data_pview
