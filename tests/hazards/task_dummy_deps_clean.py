# pl.system.task_dummy(deps=[...]) in a manual scope: a task id with no work, complete once the tasks
# it joins are. `shift` depends on a dummy that joins `scale` (through a second dummy, and one of none,
# as pypto-lib's gate seeds its chain with deps=[]), so its store is ordered after scale's: clean over
# 50 seeds, and the result is shift's. concurrent_kernels_one_tensor.py is the same pair without deps.
# RUN: rm -rf %t && mkdir -p %t
# RUN: %expect-exit 0 ptodist run %s --ranks 2 --mode check --seed 1 --runs 50 | FileCheck %s
# RUN: %python -c "import numpy as np; np.save('%t/x.npy', np.arange(128, dtype=np.float32).reshape(2, 1, 64) / 4)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --out-dir %t
# RUN: %python -c "import numpy as np; x = np.load('%t/x.npy'); y = np.load('%t/y.npy'); assert np.array_equal(y, x + 1), (x, y); print('golden ok')" | FileCheck %s --check-prefix=GOLD
# CHECK: no hazard
# CHECK-NOT: error
# GOLD: golden ok
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


@pl.program
class TwoKernels:
    @pl.function(type=pl.FunctionType.AIV)
    def scale(
        self,
        x: pl.Tensor[[1, SIZE], pl.FP32],
        y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    ) -> pl.Tensor[[1, SIZE], pl.FP32]:
        row = pl.load(x, [0, 0], [1, SIZE])
        doubled = pl.muls(row, 2.0)
        y = pl.store(doubled, [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.AIV)
    def shift(
        self,
        x: pl.Tensor[[1, SIZE], pl.FP32],
        y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    ) -> pl.Tensor[[1, SIZE], pl.FP32]:
        row = pl.load(x, [0, 0], [1, SIZE])
        moved = pl.adds(row, 1.0)
        y = pl.store(moved, [0, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(
        self,
        x: pl.Tensor[[1, SIZE], pl.FP32],
        y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    ) -> pl.Tensor[[1, SIZE], pl.FP32]:
        with pl.manual_scope():
            seed = pl.system.task_dummy(deps=[])
            y, t1 = pl.spmd_submit(self.scale, x, y, core_num=1, deps=[seed])
            joined = pl.system.task_dummy(deps=[t1, seed])
            again = pl.system.task_dummy(deps=[joined])
            y, t2 = pl.spmd_submit(self.shift, x, y, core_num=1, deps=[again])
        return y

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(
        self,
        x: pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32],
        y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]],
    ):
        for r in pl.range(pld.world_size()):
            self.chip(x[r], y[r], device=r)
