"""`pypto.runtime.benchmark` on ptodist: wall time of repeated runs of a compiled program.

The figures are real time of the in-process runtime (host_wall_us: the whole call from Python;
device_wall_us: the round itself, as the runtime times it), not a predicted device time.
"""

import statistics
import time
from dataclasses import dataclass, field


@dataclass
class BenchmarkStats:
    device_wall_us: list = field(default_factory=list)
    host_wall_us: list = field(default_factory=list)
    rank_wall_us: dict = field(default_factory=dict)  # rank -> per-round wall of its chip orchestration

    @property
    def samples(self):
        return self.device_wall_us

    @property
    def device_us_median(self):
        return statistics.median(self.device_wall_us) if self.device_wall_us else 0.0

    @property
    def device_us_min(self):
        return min(self.device_wall_us, default=0.0)

    @property
    def device_us_max(self):
        return max(self.device_wall_us, default=0.0)

    @property
    def device_us_mean(self):
        return statistics.fmean(self.device_wall_us) if self.device_wall_us else 0.0

    @property
    def device_us_stdev(self):
        return statistics.stdev(self.device_wall_us) if len(self.device_wall_us) > 1 else 0.0

    @property
    def all_zero_device(self):
        return bool(self.device_wall_us) and all(v == 0 for v in self.device_wall_us)

    def per_round(self, metric="device"):
        return list(self.host_wall_us if metric == "host" else self.device_wall_us)

    def per_rank(self, metric="device"):
        return {r: list(v) for r, v in self.rank_wall_us.items()}


def benchmark(compiled, args, *, rounds=100, warmup=3, platform=None, device_id=None, config=None, **_options):
    """Runs `compiled(*args)` `warmup` times untimed, then `rounds` timed times."""
    __tracebackhide__ = True
    from .runner import RunConfig  # noqa: PLC0415

    if platform is not None:
        config = RunConfig(platform=platform)
    stats = BenchmarkStats()
    native = compiled._native(_mode(compiled, config))
    full, _outs = compiled._full_args(native, list(args))
    for _ in range(warmup):
        native(*full)
    for _ in range(rounds):
        t0 = time.perf_counter()
        r = native(*full)
        stats.host_wall_us.append((time.perf_counter() - t0) * 1e6)
        stats.device_wall_us.append(r.seconds * 1e6)
        for rank, s in enumerate(r.rank_seconds):
            stats.rank_wall_us.setdefault(rank, []).append(s * 1e6)
    return stats


def _mode(compiled, config):
    from .._platforms import mode_of  # noqa: PLC0415

    return mode_of(config.platform if config is not None and config.platform else compiled.platform)
