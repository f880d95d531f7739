"""PyPTO's API on ptodist: ir.compile with a DistributedConfig, the compiled program called with torch
tensors, runtime.run / RunConfig / benchmark, and the platform names."""

import pytest
import torch
from pypto import ir
from pypto.ir.distributed_compiled_program import DistributedConfig
from pypto.runtime import BenchmarkStats, RunConfig, benchmark, run

import ptodist
import ring_programs


def test_ir_compile_and_call(tmp_path):
    compiled = ir.compile(
        ring_programs.make_ring(64),
        output_dir=tmp_path / "out",
        platform="ptodist",
        distributed_config=DistributedConfig(device_ids=[0, 1, 2, 3]),
    )
    inputs = torch.randn(4, 4, 64)
    outputs = torch.zeros(4, 4, 64)
    assert compiled(inputs, outputs) is None
    assert torch.equal(outputs, torch.roll(inputs, 1, dims=0))
    assert (tmp_path / "out" / "manifest.json").is_file()
    assert (tmp_path / "out" / "step.pto").is_file()


def test_return_style_allocates_outputs():
    compiled = ir.compile(
        ring_programs.make_ring(64), platform="ptodist", distributed_config=DistributedConfig(device_ids=[0, 1])
    )
    with pytest.raises(ValueError, match="dynamic"):
        compiled(torch.randn(2, 4, 64))  # NR is a dynamic dim: PyPTO refuses to allocate it too


def test_check_platform_raises_the_hazard():
    program = ring_programs.make_read_before_wait()
    compiled = ir.compile(program, platform="ptodist-check", distributed_config=DistributedConfig(device_ids=[0, 1]))
    inputs = torch.ones(2, 1, 64)
    outputs = torch.zeros(2, 1, 64)
    with pytest.raises(ptodist.HazardError, match="unordered read of window data"):
        for _ in range(20):  # the runtime keeps its seeded scheduler across rounds
            compiled(inputs, outputs)


@pytest.mark.parametrize("platform", ["a2a3sim", "npu"])
def test_unknown_platform_lists_ours(platform):
    with pytest.raises(ValueError, match="'ptodist' \\(fast mode\\), 'ptodist-check' \\(check mode\\)"):
        ir.compile(ring_programs.make_ring(64), platform=platform)


def test_distributed_config_is_checked():
    with pytest.raises(ValueError, match="distinct"):
        DistributedConfig(device_ids=[0, 0])


def test_runtime_run_and_benchmark():
    inputs = torch.randn(2, 4, 64)
    outputs = torch.zeros(2, 4, 64)
    config = RunConfig(platform="ptodist", distributed_config=DistributedConfig(device_ids=[0, 1]))
    compiled = run(ring_programs.make_ring(64), inputs, outputs, config=config)
    assert torch.equal(outputs, torch.roll(inputs, 1, dims=0))
    stats = benchmark(compiled, [inputs, outputs], rounds=5, warmup=1)
    assert isinstance(stats, BenchmarkStats)
    assert len(stats.device_wall_us) == 5 and stats.device_us_min > 0
    assert stats.rounds == 5 and stats.warmup == 1
    # A distributed program's headline is the slowest rank's round, as PyPTO's L3 one; the round's wall
    # ("union") spans every rank's.
    ranks = stats.per_rank("device")
    assert sorted(ranks) == [0, 1] and all(len(v) == 5 for v in ranks.values())
    assert stats.per_rank("effective") == ranks == stats.per_rank("host")
    union = stats.per_round("union")
    for k in range(5):
        assert stats.device_wall_us[k] == max(v[k] for v in ranks.values()) <= union[k]
    assert not stats.fallback_flattened
    with pytest.raises(ValueError, match="unknown metric 'cpu'"):
        stats.per_rank("cpu")
    assert stats.device_us_median <= stats.device_us_max


def test_compiled_program_metadata():
    # PyPTO's metadata of the orchestration a program is called through: its parameter names, the
    # pure Out parameters (allocated by a call with the inputs only) and whether it returns values.
    compiled = ir.compile(ring_programs.make_ring(64), distributed_config=DistributedConfig(device_ids=[0, 1]))
    assert compiled.param_names == ["inputs", "outputs"]
    assert compiled.output_indices == [1]
    assert compiled.has_return is True
