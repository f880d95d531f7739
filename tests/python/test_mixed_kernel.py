"""A mixed cube/vector kernel through PyPTO's API: ir.compile splits it (expand-mixed-kernel), the
split program runs in fast and check mode with torch tensors, and output_dir holds both halves' PTO
and the Group in the manifest."""

import json

import pytest
import torch
from pypto import ir

from mixed_programs import K, M, N, ScaledMatmul


def inputs():
    # Small integers / 4: every product and sum is exact in FP32.
    a = (torch.arange(M * K).reshape(M, K) * 5 % 9 - 4).float() / 4
    b = (torch.arange(K * N).reshape(K, N) * 3 % 7 - 3).float() / 4
    bias = (torch.arange(M * N).reshape(M, N) % 5 - 2).float()
    return a, b, bias


@pytest.mark.parametrize("ptodist_platform", ["ptodist", "ptodist-check"])
def test_split_kernel_computes_the_mixed_kernel(tmp_path, ptodist_platform):
    compiled = ir.compile(ScaledMatmul, output_dir=tmp_path / "out", platform=ptodist_platform)
    a, b, bias = inputs()
    z = torch.zeros(M, N)
    compiled(a, b, bias, z)
    assert torch.equal(z, (2 * a) @ b + bias)


def test_split_kernel_pto_and_manifest(tmp_path):
    ir.compile(ScaledMatmul, output_dir=tmp_path / "out", platform="ptodist")
    out = tmp_path / "out"
    cube, vector = (out / "scaled_mm_aic.pto").read_text(), (out / "scaled_mm_aiv.pto").read_text()
    assert "pto.tpop_from_aiv" in cube and "pto.tpush_to_aiv" in cube and "pto.tmatmul" in cube
    assert "pto.tpush_to_aic" in vector and "pto.tpop_from_aic" in vector and "pto.tmatmul" not in vector
    groups = json.loads((out / "manifest.json").read_text())["groups"]
    assert groups == [{"name": "scaled_mm", "kernels": ["scaled_mm_aic", "scaled_mm_aiv"]}]
