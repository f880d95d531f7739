# RUN: ptodist compile %s --emit=pto | FileCheck %s
# RUN: rm -rf %t.d && ptodist compile %s --emit=pto -o %t.d && FileCheck %s --check-prefix=MANIFEST < %t.d/manifest.json
# defer_wait: no twait; as in PyPTO, the kernel gets a hidden raw-dispatch-args parameter and calls the
# module-level adapter with it, the signal's base pointer, the cell's bounds-checked flat offset and the
# threshold.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Waiter:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(
        self,
        signal: pl.InOut[pld.DistributedTensor[[2, 4], pl.INT32]],
        epochs: pl.Tensor[[1, 8], pl.INT32],
    ):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="waiter"):
            epoch: pl.Scalar[pl.INT32] = pl.read(epochs, [0, 0])
            pld.system.defer_wait(signal, offsets=[1, 3], expected=epoch, cmp=pld.WaitCmp.Ge)


# CHECK:      func.func private @pypto_register_counter_completion(!pto.ptr<i64>, !pto.ptr<i32>, i64, i64)
# CHECK-NEXT: func.func @waiter(%arg0: !pto.ptr<i32>, %arg1: !pto.ptr<i32>, %arg2: !pto.ptr<i64>, %arg3: !pto.ptr<i64>)
# CHECK-NOT:  pto.comm.twait
# CHECK:      %past = arith.cmpi sge, %c1, %c2 : index
# CHECK:      %term = arith.muli %c1, %c4 : index
# CHECK:      %past_1 = arith.cmpi sge, %c3, %c4 : index
# CHECK:      %cell = arith.select %oob_2, %cneg1, %flat_1 : index
# CHECK-NEXT: %cell_i64 = arith.index_cast %cell : index to i64
# CHECK-NEXT: %cv = arith.extsi %epochs_val : i32 to i64
# CHECK-NEXT: func.call @pypto_register_counter_completion(%arg3, %arg1, %cell_i64, %cv) : (!pto.ptr<i64>, !pto.ptr<i32>, i64, i64) -> ()
# CHECK-NOT:  pto.comm.twait
# MANIFEST: "deferred_completion": true
# MANIFEST: "kind": "DeferredRawArgs"
