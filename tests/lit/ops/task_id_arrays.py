# Arrays of task ids in a manual scope (PyPTO's per-slot dependency carriers): `pl.array.create(n,
# pl.TASK_ID)` starts with every slot the invalid task id, `tids[b] = tid` records a submit, and
# `deps=[tids]` waits for every slot that holds one (the invalid ones order nothing). A bare `None` in
# orchestration code is the invalid task id, so `prev_tid = None` seeds a chain that `... as prev_tid`
# carries through a loop. Each second phase reads a block another branch wrote in the first, so only the
# whole-array dependency orders it: check mode is clean with it and reports the race without it.
# Golden from numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t/phases %t/chain
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "np.arange(64*16, dtype=np.float32).reshape(64, 16) * 0.5 - 7"
# RUN: cp %t/x.npy %t/phases/x.npy && cp %t/x.npy %t/chain/x.npy
# RUN: ptodist run %s --entry phases --in x=%t/x.npy --out-dir %t/phases
# RUN: %numpy %S/Inputs/npy.py check %t/phases out "np.roll(x * 2, -16, axis=0) + 1"
# RUN: ptodist run %s --entry phases --in x=%t/x.npy --mode check --runs 3
# RUN: ptodist run %s --entry chain --in x=%t/x.npy --out-dir %t/chain
# RUN: %numpy %S/Inputs/npy.py check %t/chain out "x + 4"
# RUN: ptodist run %s --entry chain --in x=%t/x.npy --mode check --runs 3
# RUN: not ptodist run %s --entry unordered --in x=%t/x.npy --mode check --runs 3 2>&1 | FileCheck %s --check-prefix=RACE
# RACE: error: check: unordered read of local GM data
# RUN: ptodist compile %s --emit=ir | FileCheck %s
import pypto.language as pl

T = 16
B = 4
STEPS = 4


@pl.program
class TaskIdArrays:
    @pl.function(type=pl.FunctionType.InCore)
    def double(
        self,
        x: pl.Tensor[[T * B, T], pl.FP32],
        scratch: pl.Out[pl.Tensor[[T * B, T], pl.FP32]],
        row: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[T * B, T], pl.FP32]:
        t = pl.load(x, [row, 0], [T, T])
        return pl.store(pl.add(t, t), [row, 0], scratch)

    @pl.function(type=pl.FunctionType.InCore)
    def inc(
        self,
        src: pl.Tensor[[T * B, T], pl.FP32],
        dst: pl.Out[pl.Tensor[[T * B, T], pl.FP32]],
        src_row: pl.Scalar[pl.INDEX],
        dst_row: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[T * B, T], pl.FP32]:
        t = pl.load(src, [src_row, 0], [T, T])
        return pl.store(pl.add(t, 1.0), [dst_row, 0], dst)

    # Phase 2's branch b reads the block branch b + 1 wrote in phase 1: it waits for every slot.
    @pl.function(type=pl.FunctionType.Orchestration)
    def phases(
        self,
        x: pl.Tensor[[T * B, T], pl.FP32],
        out: pl.Out[pl.Tensor[[T * B, T], pl.FP32]],
    ) -> pl.Tensor[[T * B, T], pl.FP32]:
        scratch: pl.Tensor[[T * B, T], pl.FP32] = pl.create_tensor([T * B, T], dtype=pl.FP32)
        with pl.manual_scope():
            # CHECK: tids = pl.array.create(B, pl.TASK_ID)
            tids = pl.array.create(B, pl.TASK_ID)
            for b in pl.parallel(B):
                # CHECK: scratch, tid = pl.submit(self.double, x, scratch, b * T, deps=[tids])
                # CHECK-NEXT: tids = pl.array.update_element(tids, b, tid)
                scratch, tid = pl.submit(self.double, x, scratch, b * T, deps=[tids])
                tids[b] = tid
            for b in pl.parallel(B):
                out, _ = pl.submit(self.inc, scratch, out, (b + 1) % B * T, b * T, deps=[tids])
        return out

    # One block rewritten STEPS times, each step after the last: the carry starts as None.
    @pl.function(type=pl.FunctionType.Orchestration)
    def chain(
        self,
        x: pl.Tensor[[T * B, T], pl.FP32],
        out: pl.Out[pl.Tensor[[T * B, T], pl.FP32]],
    ) -> pl.Tensor[[T * B, T], pl.FP32]:
        with pl.manual_scope():
            for b in pl.parallel(B):
                # CHECK: prev_tid = pl.system.task_invalid()
                prev_tid = None
                out, prev_tid = pl.submit(self.inc, x, out, b * T, b * T, deps=[prev_tid])
                for step in pl.range(STEPS - 1):
                    with pl.at(level=pl.Level.CORE_GROUP, name_hint="step", deps=[prev_tid]) as prev_tid:
                        t = pl.load(out, [b * T, 0], [T, T])
                        out = pl.store(pl.add(t, 1.0), [b * T, 0], out)
        return out

    # The near miss: the second phase waits for one slot only (tids[0]).
    @pl.function(type=pl.FunctionType.Orchestration)
    def unordered(
        self,
        x: pl.Tensor[[T * B, T], pl.FP32],
        out: pl.Out[pl.Tensor[[T * B, T], pl.FP32]],
    ) -> pl.Tensor[[T * B, T], pl.FP32]:
        scratch: pl.Tensor[[T * B, T], pl.FP32] = pl.create_tensor([T * B, T], dtype=pl.FP32)
        with pl.manual_scope():
            tids = pl.array.create(B, pl.TASK_ID)
            for b in pl.parallel(B):
                scratch, tid = pl.submit(self.double, x, scratch, b * T)
                tids[b] = tid
            for b in pl.parallel(B):
                out, _ = pl.submit(self.inc, scratch, out, (b + 1) % B * T, b * T, deps=[tids[0]])
        return out
