"""A load that vector work hides, for `ptodist predict`'s pipe model (tests/e2e/predict_test.py).

One vector core loads a [1, cols] FP32 tile (MTE2) while it fills and doubles another `adds` times
(vector); the two have no data in common, so on the device the MTE2 and vector pipes run them at once.
Then it adds the two (vector, after both) and stores the sum (MTE3). Predicted kernel time:
max(load, (adds + 1) * vec) + vec + store, not load + (adds + 2) * vec + store.
Output: y == x + 2 ** adds."""

import pypto.language as pl
import pypto.language.distributed as pld


def make_program(world_size, cols=4096, adds=3):
    @pl.program
    class PipesOverlap:
        @pl.function(type=pl.FunctionType.InCore)
        def hide_load(
            self, x: pl.Tensor[[1, cols], pl.FP32], y: pl.Out[pl.Tensor[[1, cols], pl.FP32]]
        ) -> pl.Tensor[[1, cols], pl.FP32]:
            a = pl.load(x, [0, 0], [1, cols])
            s = pl.full([1, cols], dtype=pl.FP32, value=1.0)
            for k in pl.range(adds):
                s = pl.add(s, s)
            b = pl.add(a, s)
            y = pl.store(b, [0, 0], y)
            return y

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip_orch(
            self, x: pl.Tensor[[1, cols], pl.FP32], y: pl.Out[pl.Tensor[[1, cols], pl.FP32]]
        ) -> pl.Tensor[[1, cols], pl.FP32]:
            return self.hide_load(x, y)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host_orch(
            self,
            x: pl.Tensor[[world_size, 1, cols], pl.FP32],
            y: pl.Out[pl.Tensor[[world_size, 1, cols], pl.FP32]],
        ) -> pl.Tensor[[world_size, 1, cols], pl.FP32]:
            for r in pl.range(pld.world_size()):
                self.chip_orch(x[r], y[r], device=r)
            return y

    return PipesOverlap
