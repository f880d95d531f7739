"""Programs with SubWorker methods (host Python between chip tasks): chip work before a SubWorker call
must have finished when it runs, and chip work after it reads what it wrote."""

import pypto.language as pl
import torch

N = 64


@pl.program
class ScaleThenShift:
    """doubled = 2 * x (chip), shifted = doubled + 1 (SubWorker, torch), out = shifted + x (chip)."""

    @pl.function(type=pl.FunctionType.InCore)
    def twice(self, x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
        t = pl.load(x, [0, 0], [1, N])
        return pl.store(pl.add(t, t), [0, 0], y)

    @pl.function(type=pl.FunctionType.InCore)
    def plus(
        self,
        a: pl.Tensor[[1, N], pl.FP32],
        b: pl.Tensor[[1, N], pl.FP32],
        y: pl.Out[pl.Tensor[[1, N], pl.FP32]],
    ) -> pl.Tensor[[1, N], pl.FP32]:
        return pl.store(pl.add(pl.load(a, [0, 0], [1, N]), pl.load(b, [0, 0], [1, N])), [0, 0], y)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_twice(self, x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
        return self.twice(x, y)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_plus(
        self,
        a: pl.Tensor[[1, N], pl.FP32],
        b: pl.Tensor[[1, N], pl.FP32],
        y: pl.Out[pl.Tensor[[1, N], pl.FP32]],
    ) -> pl.Tensor[[1, N], pl.FP32]:
        return self.plus(a, b, y)

    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
    def shift(src: pl.Tensor[[1, N], pl.FP32], dst: pl.Out[pl.Tensor[[1, N], pl.FP32]]):
        if torch.count_nonzero(src) == 0:
            raise AssertionError("shift ran before chip_twice had written its input")
        dst[:] = src + 1.0

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(
        self,
        x: pl.Tensor[[1, N], pl.FP32],
        doubled: pl.Out[pl.Tensor[[1, N], pl.FP32]],
        out: pl.Out[pl.Tensor[[1, N], pl.FP32]],
    ) -> pl.Tensor[[1, N], pl.FP32]:
        shifted: pl.Tensor[[1, N], pl.FP32] = pl.create_tensor([1, N], dtype=pl.FP32)
        d = self.chip_twice(x, doubled)
        s = self.shift(d, shifted)
        return self.chip_plus(s, x, out)


@pl.program
class Checked:
    """A SubWorker that asserts on the chip result; `limit` decides whether it passes."""

    @pl.function(type=pl.FunctionType.InCore)
    def copy(self, x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
        return pl.store(pl.load(x, [0, 0], [1, N]), [0, 0], y)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_copy(self, x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
        return self.copy(x, y)

    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
    def at_most_ten(y: pl.Tensor[[1, N], pl.FP32]):
        if y.max().item() > 10.0:
            raise AssertionError(f"value above ten: {y.max().item()}")

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
        r = self.chip_copy(x, y)
        self.at_most_ten(r)
        return r


@pl.program
class Abstract:
    """A SubWorker with a `...` body: bound at prepare(callbacks=...)."""

    @pl.function(type=pl.FunctionType.InCore)
    def copy(self, x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
        return pl.store(pl.load(x, [0, 0], [1, N]), [0, 0], y)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_copy(self, x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
        return self.copy(x, y)

    @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
    def sample(y: pl.Tensor[[1, N], pl.FP32], picked: pl.Out[pl.Tensor[[1, N], pl.FP32]]):
        """Bound by the caller."""
        ...

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(
        self,
        x: pl.Tensor[[1, N], pl.FP32],
        y: pl.Out[pl.Tensor[[1, N], pl.FP32]],
        picked: pl.Out[pl.Tensor[[1, N], pl.FP32]],
    ) -> pl.Tensor[[1, N], pl.FP32]:
        r = self.chip_copy(x, y)
        return self.sample(r, picked)
