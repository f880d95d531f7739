# RUN: ptodist compile %s --emit=ir | FileCheck %s
# RUN: ptodist compile %s --emit=ir > %t.py && ptodist compile %t.py --emit=ir > %t2.py && diff %t.py %t2.py
# Loops, branches (elif), annotated assignments and canonical op calls.
import pypto.language as pl
import pypto.language.distributed as pld

N = 4


@pl.program
class Statements:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[4, 64], pl.FP32],
        y: pl.Out[pl.Tensor[[4, 64], pl.FP32]],
        signal: pld.DistributedTensor[[1, 8], pl.INT32],
    ) -> pl.Tensor[[4, 64], pl.FP32]:
        """Docstrings are kept."""
        ctx = pld.get_comm_ctx(signal)
        me = pld.rank(ctx)
        # CHECK: for r in pl.range(N):
        for r in pl.range(0, N, 1):
            # CHECK-NEXT: t = pl.load(x, [r, 0], [1, 64], target_memory=pl.Mem.Vec)
            t = pl.load(x, [r, 0], [1, 64], target_memory=pl.Mem.Vec)
            # CHECK-NEXT: y = pl.store(t, [r, 0], y)
            y = pl.store(output_tensor=y, tile=t, offsets=[r, 0])
        # CHECK: for r in pl.range(1, N, 2):
        for r in pl.range(1, N, 2):
            pass
        # CHECK: for r in pl.unroll(2, N):
        for r in pl.unroll(2, N):
            pass
        # CHECK: for r in pl.parallel(N):
        for r in pl.parallel(N):
            pass
        # CHECK: for r in pl.pipeline(N, stage=2):
        for r in pl.pipeline(N, stage=2):
            pass
        # CHECK: if me == 0:
        # CHECK-NEXT: pld.system.notify(signal, 1, [0, 0], 1, op=pld.NotifyOp.Set)
        # CHECK-NEXT: elif me == 1:
        # CHECK-NEXT: pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Ge)
        # CHECK-NEXT: else:
        # CHECK-NEXT: pass
        if me == 0:
            pld.system.notify(target=signal, peer=1, offsets=[0, 0], value=1, op=pld.NotifyOp.Set)
        elif me == 1:
            pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
        else:
            pass
        # CHECK: v: pl.Scalar[pl.INT32] = pl.read(signal, [0, 0])
        v: pl.Scalar[pl.INT32] = pl.read(signal, [0, 0])
        # CHECK-NEXT: pl.write(signal, [0, 1], v + 1)
        pl.write(signal, [0, 1], v + 1)
        # CHECK-NEXT: return y
        return y
