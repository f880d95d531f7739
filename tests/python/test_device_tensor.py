"""Worker-resident tensors of a prepared handle (PyPTO's DeviceTensor / StackedDeviceTensor): uploaded
once, passed by address on every dispatch, read back with copy_from / copy_stacked_from."""

import pypto.language as pl
import pytest
import torch
from pypto import ir
from pypto.ir.distributed_compiled_program import DistributedConfig
from pypto.runtime import DeviceTensor, StackedDeviceTensor

N = 32


@pl.program
class AddResident:
    @pl.function(type=pl.FunctionType.InCore)
    def add(
        self,
        a: pl.Tensor[[1, N], pl.FP32],
        w: pl.Tensor[[1, N], pl.FP32],
        f: pl.Out[pl.Tensor[[1, N], pl.FP32]],
    ) -> pl.Tensor[[1, N], pl.FP32]:
        return pl.store(pl.add(pl.load(a, [0, 0], [1, N]), pl.load(w, [0, 0], [1, N])), [0, 0], f)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(
        self,
        a: pl.Tensor[[1, N], pl.FP32],
        w: pl.Tensor[[1, N], pl.FP32],
        f: pl.Out[pl.Tensor[[1, N], pl.FP32]],
    ) -> pl.Tensor[[1, N], pl.FP32]:
        return self.add(a, w, f)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(
        self,
        a: pl.Tensor[[2, 1, N], pl.FP32],
        w: pl.Tensor[[2, 1, N], pl.FP32],
        f: pl.Out[pl.Tensor[[2, 1, N], pl.FP32]],
    ) -> pl.Tensor[[2, 1, N], pl.FP32]:
        for r in pl.range(2):
            self.chip(a[r], w[r], f[r], device=r)
        return f


def compiled():
    return ir.compile(AddResident, distributed_config=DistributedConfig(device_ids=[0, 1]))


def test_resident_tensor_is_uploaded_once():
    prog = compiled()
    weight_host = torch.randn(2, 1, N)
    a, f = torch.randn(2, 1, N), torch.zeros(2, 1, N)
    with prog.prepare() as rt:
        w = rt.alloc_tensor((2, 1, N), torch.float32, init=weight_host)
        assert isinstance(w, DeviceTensor) and w.nbytes == 2 * N * 4
        expected, uploaded = a + weight_host, weight_host.clone()
        weight_host.zero_()  # the upload was a copy: later host writes do not reach the worker
        rt.submit(prog, a, w, f).result()
        assert torch.equal(f, expected)
        back = torch.zeros(2, 1, N)
        rt.copy_from(back.data_ptr(), w.data_ptr, w.nbytes)
        assert torch.equal(back, uploaded)
        rt.free_tensor(w)
        with pytest.raises(ValueError, match="not memory allocated"):
            rt.copy_from(back.data_ptr(), w.data_ptr, w.nbytes)


def test_stacked_tensor_shards_are_views_of_one_block():
    prog = compiled()
    host_w = torch.stack([torch.full((1, N), 10.0), torch.full((1, N), 20.0)])
    a, f = torch.ones(2, 1, N), torch.zeros(2, 1, N)
    with prog.prepare() as rt:
        w = rt.alloc_stacked_tensor(host_w, worker_ids=[1, 0])
        assert isinstance(w, StackedDeviceTensor) and w.worker_ids == (1, 0) and w[1].shape == (1, N)
        host_w.zero_()
        for _ in range(2):
            rt(a, w, f)
            assert torch.equal(f, torch.stack([torch.full((1, N), 11.0), torch.full((1, N), 21.0)]))
        readback = torch.zeros(2, 1, N)
        rt.copy_stacked_from(w, readback)
        assert torch.equal(readback[1], torch.full((1, N), 20.0))


def test_device_tensor_is_checked():
    with pytest.raises(ValueError, match="positive int"):
        DeviceTensor(0, (1,), torch.float32)
    with pytest.raises(ValueError, match="all positive"):
        DeviceTensor(64, (1, 0), torch.float32)
    with pytest.raises(TypeError, match="no memory behind it"):
        compiled()(torch.ones(2, 1, N), DeviceTensor(64, (2, 1, N), torch.float32), torch.zeros(2, 1, N))
