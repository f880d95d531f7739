"""Tensors reach the kernels by address, with no copy, wherever the layout allows: the SubWorker of
sub_worker_programs.Abstract runs mid-round on the runtime's own host tensors, so the address it sees
is the address the kernels used. A dense row of a larger tensor (a view with a storage offset) is such
a layout (so is a transposed [N, 1], which is dense); a view with a stride is not, and goes through a
dense copy that is written back."""

import numpy as np
import torch
from pypto import ir
from pypto.ir.distributed_compiled_program import DistributedConfig
from pypto.runtime.distributed_runner import _tensor_from_continuous

import sub_worker_programs as progs


def run_seeing_addresses(x, y, picked):
    compiled = ir.compile(progs.Abstract, distributed_config=DistributedConfig(device_ids=[0]))
    seen = []

    def sample(args):
        src, dst = (_tensor_from_continuous(a) for a in args)
        seen.append((src.data_ptr(), dst.data_ptr()))
        dst[:] = src * 2

    with compiled.prepare(callbacks={"sample": sample}) as rt:
        rt(x, y, picked)
    return seen


def test_views_with_an_offset_are_run_in_place():
    big_in = torch.arange(4 * progs.N, dtype=torch.float32).reshape(4, progs.N)
    big_out = torch.full((4, progs.N), -1.0)
    x, y = big_in[1:2], big_out[2:3]  # dense rows inside larger buffers: storage offsets, no copy needed
    picked = np.zeros((1, progs.N), dtype=np.float32)
    seen = run_seeing_addresses(x, y, picked)
    # The chip kernel wrote y, and the SubWorker read it and wrote `picked`, at the caller's addresses.
    assert seen == [(y.data_ptr(), picked.ctypes.data)]
    assert y.data_ptr() == big_out.data_ptr() + 2 * progs.N * 4
    assert torch.equal(big_out[2], big_in[1])
    assert torch.equal(big_out[[0, 1, 3]], torch.full((3, progs.N), -1.0))  # the other rows untouched
    np.testing.assert_array_equal(picked, 2 * big_in[1:2].numpy())


def test_a_strided_output_goes_through_a_copy_written_back():
    x = torch.randn(1, progs.N)
    y = torch.zeros(1, 2 * progs.N)[:, ::2]  # [1, N] over every other element: needs a dense copy
    picked = torch.zeros(1, progs.N)
    seen = run_seeing_addresses(x, y, picked)
    assert seen[0][0] != y.data_ptr() and seen[0][1] == picked.data_ptr()
    assert torch.equal(y, x)  # copied back after the round
    assert torch.equal(picked, 2 * x)
