# RUN: ptodist compile %s -p specialize,convert-tensor-to-tile,print-async-events --emit=tile-ir | FileCheck %s
# The deferred-registration fact of the async-event dataflow: "registered|none" where only some paths
# have registered a pld.system.defer_wait condition (after it, a waiter may not pl.read).
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit
def chip(
    signal: pl.InOut[pld.DistributedTensor[[1, 4], pl.INT32]],
    n: pl.Scalar[pl.INT32],
):
    # CHECK-LABEL: // async events of kernel 'waiter':
    with pl.at(level=pl.Level.CORE_GROUP, name_hint="waiter"):
        # CHECK-NEXT: //   [[@LINE+1]]:9 after if: {defer_wait: registered|none}
        if n > 0:
            # CHECK-NEXT: //   [[@LINE+1]]:13 defer_wait: {defer_wait: registered}
            pld.system.defer_wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
        # CHECK-NEXT: //   [[@LINE+2]]:9 defer_wait: {defer_wait: registered}
        # CHECK-NEXT: //   [[@LINE+1]]:9 end of kernel: {defer_wait: registered}
        pld.system.defer_wait(signal, offsets=[0, 1], expected=1, cmp=pld.WaitCmp.Ge)
