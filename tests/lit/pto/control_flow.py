# RUN: ptodist compile %s --emit=pto | FileCheck %s
# Loops are scf.for over index; a scalar a loop rebinds is an iter_arg, one both branches define is an
# scf.if result. Tiles are buffers: a tile rebound in a loop keeps its one planned buffer.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Flow:
    @pl.function(type=pl.FunctionType.InCore)
    def ring(
        self,
        x: pl.Tensor[[4, 64], pl.FP32],
        signal: pl.InOut[pld.DistributedTensor[[1, 4], pl.INT32]],
        y: pl.Out[pl.Tensor[[1, 64], pl.FP32]],
    ):
        ctx = pld.get_comm_ctx(signal)
        me = pld.rank(ctx)
        n = pld.nranks(ctx)
        peer = me
        acc = pl.load(x, [0, 0], [1, 64])
        for i in pl.range(1, 4):
            peer = (peer + 1) % n
            t = pl.load(x, [i, 0], [1, 64])
            acc = pl.add(acc, t)
        if me == 0:
            target = peer
        else:
            target = 0
        pld.system.notify(signal, peer=target, offsets=[0, me], value=1, op=pld.NotifyOp.AtomicAdd)
        y = pl.store(acc, [0, 0], y)


# CHECK: func.func @ring(
# CHECK: %peer = scf.for %i = %c1 to %c4 step %c1 iter_args(%peer_1 = %me) -> (index) {
# CHECK: %x_pview{{.*}} = pto.partition_view %x_view, offsets = [%i, %c0], sizes = [%c1, %c64]
# CHECK: pto.tadd ins(%acc, %t : {{.*}}) outs(%acc : !pto.tile_buf<
# CHECK: scf.yield %{{[a-z0-9_]+}} : index
# CHECK-NEXT: }
# CHECK: %target = scf.if %{{[a-z0-9_]+}} -> (index) {
# CHECK-NEXT: scf.yield %peer : index
# CHECK-NEXT: } else {
# CHECK-NEXT: scf.yield %c0 : index
# CHECK-NEXT: }
# CHECK: arith.addi %c4, %target : index
# CHECK: pto.comm.tnotify(
