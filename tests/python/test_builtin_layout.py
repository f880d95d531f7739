"""Collectives called from the host orchestrator: ptodist generates a kernel for each, and
`ir.compile`'s output folder puts its PTO where PyPTO puts the built-in it stands for,
next_levels/builtin.tensor.<op>[__<reduce op>|__root<r>]__<dtype>/ (kernels/ and kernel_config.py),
one folder per variant; the results are those of the collectives."""

import runpy

import pypto.language as pl
import pypto.language.distributed as pld
import torch
from pypto import ir
from pypto.ir.distributed_compiled_program import DistributedConfig

N = 32


@pl.program
class HostCollectives:
    @pl.function(type=pl.FunctionType.InCore)
    def publish(
        self,
        x: pl.Tensor[[1, N], pl.FP16],
        data: pl.InOut[pld.DistributedTensor[[1, N], pl.FP16]],
    ) -> pld.DistributedTensor[[1, N], pl.FP16]:
        return pl.store(pl.load(x, [0, 0], [1, N]), [0, 0], data)

    @pl.function(type=pl.FunctionType.Orchestration)
    def publish_orch(
        self,
        x: pl.Tensor[[1, N], pl.FP16],
        data: pl.InOut[pld.DistributedTensor[[1, N], pl.FP16]],
    ) -> pld.DistributedTensor[[1, N], pl.FP16]:
        return self.publish(x, data)

    @pl.function(type=pl.FunctionType.InCore)
    def fetch(
        self,
        data: pld.DistributedTensor[[1, N], pl.FP16],
        out: pl.Out[pl.Tensor[[1, N], pl.FP16]],
    ) -> pl.Tensor[[1, N], pl.FP16]:
        return pl.store(pl.load(data, [0, 0], [1, N]), [0, 0], out)

    @pl.function(type=pl.FunctionType.Orchestration)
    def fetch_orch(
        self,
        data: pld.DistributedTensor[[1, N], pl.FP16],
        out: pl.Out[pl.Tensor[[1, N], pl.FP16]],
    ) -> pl.Tensor[[1, N], pl.FP16]:
        return self.fetch(data, out)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(
        self,
        x: pl.Tensor[[2, 1, N], pl.FP16],
        out: pl.Out[pl.Tensor[[2, 1, N], pl.FP16]],
    ) -> pl.Tensor[[2, 1, N], pl.FP16]:
        data_buf = pld.alloc_window_buffer([1, N], dtype=pl.FP16)
        sig_buf = pld.alloc_window_buffer([2, 1], dtype=pl.INT32)
        for r in pl.range(2):
            data = pld.window(data_buf, [1, N], dtype=pl.FP16)
            self.publish_orch(x[r], data, device=r)
        signal = pld.window(sig_buf, [2, 1], dtype=pl.INT32)
        data = pld.window(data_buf, [1, N], dtype=pl.FP16)
        pld.tensor.barrier(signal)
        data = pld.tensor.allreduce(data, signal, op=pld.ReduceOp.Max)
        for r in pl.range(2):
            data = pld.window(data_buf, [1, N], dtype=pl.FP16)
            self.fetch_orch(data, out[r], device=r)
        return out


def test_each_host_collective_has_its_built_in_folder(tmp_path):
    compiled = ir.compile(HostCollectives, output_dir=tmp_path / "out",
                          distributed_config=DistributedConfig(device_ids=[0, 1]))
    x = torch.randn(2, 1, N).to(torch.float16)
    out = torch.zeros(2, 1, N, dtype=torch.float16)
    compiled(x, out)
    assert torch.equal(out[0], torch.maximum(x[0], x[1])) and torch.equal(out[1], out[0])

    next_levels = compiled.output_dir / "next_levels"
    assert sorted(p.name for p in next_levels.iterdir()) == [
        "builtin.tensor.allreduce__max__fp16",
        "builtin.tensor.barrier__fp32",
    ]
    for variant in next_levels.iterdir():
        config = runpy.run_path(str(variant / "kernel_config.py"))
        assert config["BUILTIN"] == variant.name
        (kernel,) = config["KERNELS"]
        text = open(kernel["source"]).read()
        assert f"func.func @{kernel['name']}" in text
    allreduce = runpy.run_path(str(next_levels / "builtin.tensor.allreduce__max__fp16" / "kernel_config.py"))
    assert "pto.tmax" in open(allreduce["KERNELS"][0]["source"]).read()
