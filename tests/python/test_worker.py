"""A prepared DistributedWorker's explicit-dispatch surface, as PyPTO defines it (pypto.runtime.Worker):
register -> RegistrationHandle, run(compiled, ...), several programs on one worker, DeviceTensor
ownership (`_owned_tensors`) and what close() does to each."""

import pypto.language as pl
import pytest
import torch
from pypto import ir
from pypto.ir.distributed_compiled_program import DistributedConfig
from pypto.runtime import DistributedWorker, RegistrationHandle, Worker

N = 16


def make(sign):
    """A one-rank program f = a + sign * b."""
    @pl.program
    class Elementwise:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(
            self,
            a: pl.Tensor[[1, N], pl.FP32],
            b: pl.Tensor[[1, N], pl.FP32],
            f: pl.Out[pl.Tensor[[1, N], pl.FP32]],
        ) -> pl.Tensor[[1, N], pl.FP32]:
            ta, tb = pl.load(a, [0, 0], [1, N]), pl.load(b, [0, 0], [1, N])
            return pl.store(pl.add(ta, pl.mul(tb, sign)), [0, 0], f)

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(
            self,
            a: pl.Tensor[[1, N], pl.FP32],
            b: pl.Tensor[[1, N], pl.FP32],
            f: pl.Out[pl.Tensor[[1, N], pl.FP32]],
        ) -> pl.Tensor[[1, N], pl.FP32]:
            return self.kernel(a, b, f)

    return ir.compile(Elementwise, distributed_config=DistributedConfig(device_ids=[0]))


def test_register_returns_a_handle_that_dispatches_until_close():
    compiled = make(1.0)
    a, b, f = torch.full((1, N), 2.0), torch.full((1, N), 3.0), torch.zeros(1, N)
    rt = compiled.prepare()
    assert isinstance(rt, Worker)
    handle = rt.register(compiled)
    assert isinstance(handle, RegistrationHandle) and handle.compiled is compiled and handle.cid == 0
    handle(a, b, f)
    assert torch.equal(f, torch.full((1, N), 5.0))
    f.zero_()
    rt.run(compiled, a, b, f)
    assert torch.equal(f, torch.full((1, N), 5.0))
    rt.close()
    assert handle.closed
    with pytest.raises(RuntimeError, match="unregistered"):
        handle(a, b, f)
    with pytest.raises(RuntimeError, match=r"DistributedWorker\.register\(\) called after close\(\)"):
        rt.register(compiled)
    with pytest.raises(RuntimeError, match=r"DistributedWorker\.run\(\) called after close\(\)"):
        rt.run(compiled, a, b, f)


def test_unregister_closes_only_that_handle():
    compiled = make(1.0)
    with compiled.prepare() as rt:
        first, second = rt.register(compiled), rt.register(compiled)
        first.unregister()
        assert first.closed and not second.closed
        f = torch.zeros(1, N)
        second(torch.ones(1, N), torch.ones(1, N), f)
        assert torch.equal(f, torch.full((1, N), 2.0))


def test_two_programs_on_one_worker_share_a_resident_tensor():
    add, sub = make(1.0), make(-1.0)
    rt = DistributedWorker([add, sub])
    try:
        kept = rt.alloc_tensor((1, N), torch.float32, init=torch.full((1, N), 10.0))
        x, f = torch.full((1, N), 4.0), torch.zeros(1, N)
        with pytest.raises(TypeError, match="ambiguous"):
            rt(x, kept, f)
        rt.run(sub, kept, x, f)
        assert torch.equal(f, torch.full((1, N), 6.0))
        rt.run(add, kept, x, f)
        assert torch.equal(f, torch.full((1, N), 14.0))
        with pytest.raises(ValueError, match="registered when this worker was constructed"):
            rt.run(make(2.0), kept, x, f)
    finally:
        rt.close()


def test_close_reclaims_the_tensors_the_caller_did_not_free():
    compiled = make(1.0)
    rt = compiled.prepare()
    kept = rt.alloc_tensor((1, N), torch.float32)
    freed = rt.alloc_tensor((1, N), torch.float32)
    assert set(rt._owned_tensors) == {(0, kept.data_ptr), (0, freed.data_ptr)}
    rt.free_tensor(freed)
    rt.free_tensor(freed)  # a second free is a no-op
    assert list(rt._owned_tensors.values()) == [kept]
    rt.close()
    assert rt._owned_tensors == {} and rt.committed_device_memory() == 0
    rt.close()  # closing twice is harmless
    with pytest.raises(RuntimeError, match="called after close"):
        rt.alloc_tensor((1, N), torch.float32)


def test_free_tensor_against_the_wrong_worker_is_an_error():
    with make(1.0).prepare() as rt:
        t = rt.alloc_tensor((1, N), torch.float32, worker_id=0)
        with pytest.raises(ValueError, match=r"does not match the owning worker .* \[0\]"):
            rt.free_tensor(t, worker_id=1)
        rt.free_tensor(t, worker_id=0)
        assert rt._owned_tensors == {}
