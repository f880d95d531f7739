# RUN: ptodist compile %s --emit=ir | FileCheck %s
# RUN: ptodist compile %s --emit=ir > %t.py && ptodist compile %t.py --emit=ir > %t2.py && diff %t.py %t2.py
# A deferred waiter exists only as the body of a `with pl.at(level=pl.Level.CORE_GROUP)` scope (a
# declared kernel calling pld.system.defer_wait is rejected, in PyPTO as here), so the printer prints an
# outlined waiter back as that scope, with its name, deps= and `as`, and not as a declared kernel. Other
# pl.at scopes keep the declared-kernel form.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Waiters:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(
        self,
        signal: pl.InOut[pld.DistributedTensor[[1, 4], pl.INT32]],
        data: pl.InOut[pld.DistributedTensor[[1, 64], pl.INT32]],
        epochs: pl.Tensor[[1, 8], pl.INT32],
    ):
        # CHECK:      self.publish(data)
        # CHECK-NEXT: with pl.at(level=pl.Level.CORE_GROUP, name_hint="chip_incore_1"):
        # CHECK-NEXT:     pld.system.defer_wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        # CHECK-NEXT: with pl.at(level=pl.Level.CORE_GROUP, name_hint="gated") as wait_tid:
        # CHECK-NEXT:     epoch: pl.Scalar[pl.INT32] = pl.read(epochs, [0, 0])
        # CHECK-NEXT:     pld.system.defer_wait(signal, [0, 1], epoch, cmp=pld.WaitCmp.Ge)
        # CHECK-NEXT: _, _ = pl.spmd_submit(self.consumer, data, deps=[wait_tid])
        # CHECK-NEXT: with pl.manual_scope():
        # CHECK-NEXT:     for i in pl.range(2):
        # CHECK-NEXT:         with pl.at(level=pl.Level.CORE_GROUP, name_hint="in_manual"):
        # CHECK-NEXT:             pld.system.defer_wait(signal, [0, 2], i, cmp=pld.WaitCmp.Ge)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="publish"):
            t = pl.load(data, [0, 0], [1, 64])
            data = pl.store(t, [0, 0], data)
        with pl.at(level=pl.Level.CORE_GROUP):
            pld.system.defer_wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="gated") as wait_tid:
            epoch: pl.Scalar[pl.INT32] = pl.read(epochs, [0, 0])
            pld.system.defer_wait(signal, offsets=[0, 1], expected=epoch, cmp=pld.WaitCmp.Ge)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="consumer", deps=[wait_tid]):
            t = pl.load(data, [0, 0], [1, 64])
        with pl.manual_scope():
            for i in pl.range(2):
                with pl.at(level=pl.Level.CORE_GROUP, name_hint="in_manual"):
                    pld.system.defer_wait(signal, offsets=[0, 2], expected=i, cmp=pld.WaitCmp.Ge)


# The kernels that are not waiters are declared; no waiter is.
# CHECK:     def publish(
# CHECK-NOT: def chip_incore_1
# CHECK-NOT: def gated
# CHECK:     def consumer(
# CHECK-NOT: def in_manual
