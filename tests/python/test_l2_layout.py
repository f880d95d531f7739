"""ir.compile's artifacts for an L2 program of two chip orchestrations: PyPTO's per-orchestration layout
next_levels/<orch>/kernels/ holds exactly the kernels that orchestration reaches."""

import json

import pypto.language as pl
import torch
from pypto import ir

N = 32


@pl.program
class TwoOrch:
    @pl.function(type=pl.FunctionType.InCore)
    def negate(self, x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
        t = pl.load(x, [0, 0], [1, N])
        return pl.store(pl.sub(pl.sub(t, t), t), [0, 0], y)

    @pl.function(type=pl.FunctionType.InCore)
    def double(self, x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
        t = pl.load(x, [0, 0], [1, N])
        return pl.store(pl.add(t, t), [0, 0], y)

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_negate(self, x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
        return self.negate(x, y)

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch_both(self, x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
        t = self.double(x, y)
        return self.negate(t, y)


def test_per_orchestration_kernels(tmp_path):
    compiled = ir.compile(TwoOrch, output_dir=tmp_path)
    levels = tmp_path / "next_levels"
    found = {d.name: sorted(p.name for p in (d / "kernels").glob("*.pto")) for d in levels.iterdir()}
    assert found == {"orch_negate": ["negate.pto"], "orch_both": ["double.pto", "negate.pto"]}
    manifest = json.loads((levels / "orch_negate" / "kernels" / "manifest.json").read_text())
    assert [k["name"] for k in manifest["kernels"]] == ["negate"]
    x, y = torch.arange(N, dtype=torch.float32).reshape(1, N), torch.zeros(1, N)
    compiled["orch_both"](x, y)
    assert torch.equal(y, -2 * x)


@pl.program
class Unannotated:
    @pl.function(type=pl.FunctionType.InCore)
    def double(self, x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]) -> pl.Tensor[[1, N], pl.FP32]:
        t = pl.load(x, [0, 0], [1, N])
        return pl.store(pl.add(t, t), [0, 0], y)

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(self, x: pl.Tensor[[1, N], pl.FP32], y: pl.Out[pl.Tensor[[1, N], pl.FP32]]):
        y = self.double(x, y)
        return y


def test_metadata_of_the_chip_orchestration(tmp_path):
    # An L2 program is called through its chip orchestration: its parameters, and, with no annotation,
    # its return statement, as PyPTO's has_return of a @pl.jit function's `return c`.
    compiled = ir.compile(Unannotated, output_dir=tmp_path)
    assert compiled.param_names == ["x", "y"] and compiled.output_indices == [1]
    assert compiled.has_return is True
    assert ir.compile(TwoOrch, output_dir=tmp_path / "two")["orch_negate"].has_return is True
