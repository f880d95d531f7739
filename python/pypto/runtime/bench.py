"""`pypto.runtime.benchmark` on ptodist: wall time of repeated runs of a compiled program.

The figures are real time of the in-process runtime, not a predicted device time: host_wall_us is the
whole call from Python; device_wall_us the round as the runtime times it, or, for a distributed
program (PyPTO's L3), the slowest rank's chip orchestration of the round, as PyPTO's headline is the
per-round maximum across ranks. Per rank, ptodist has one clock (the CPU runs both sides), so a rank's
"device", "host" and "effective" series are the same wall of its chip orchestration, and a round's
"union" (PyPTO's cross-rank host window) is the round's wall, which spans every rank's.
"""

import statistics
import time
from dataclasses import dataclass, field


@dataclass
class BenchmarkStats:
    device_wall_us: list = field(default_factory=list)
    host_wall_us: list = field(default_factory=list)
    rank_wall_us: dict = field(default_factory=dict)  # rank -> per-round wall of its chip orchestration
    rounds: int = 0  # measured runs (PyPTO's field)
    warmup: int = 0  # leading runs not measured
    round_wall_us: list = field(default_factory=list)  # each round's wall, across every rank
    # PyPTO's L3 flags: ptodist segments every round exactly (one chip orchestration per rank per round).
    fallback_flattened: bool = False
    unstable_dispatch_slots: bool = False

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
        """One value per measured round: "device", "host", "effective" (the slowest rank's wall for a
        distributed program, else the device headline) or "union" (distributed programs only)."""
        _check_metric(metric, ("device", "host", "effective", "union"), "per_round()")
        if metric == "host":
            return list(self.host_wall_us)
        if metric == "union":
            return list(self.round_wall_us) if self.rank_wall_us else []
        return list(self.device_wall_us)

    def per_rank(self, metric="device"):
        """{rank: [one value per round]} for a distributed program, {} otherwise."""
        _check_metric(metric, ("device", "host", "effective"), "per_rank()")
        return {r: list(v) for r, v in self.rank_wall_us.items()}


def _check_metric(metric, known, caller):
    if metric not in known:
        raise ValueError(f"{caller}: unknown metric {metric!r}; expected one of {', '.join(known)}")


def benchmark(compiled, args, *, rounds=100, warmup=3, platform=None, device_id=None, config=None, **_options):
    """Runs `compiled(*args)` `warmup` times untimed, then `rounds` timed times."""
    __tracebackhide__ = True
    from .runner import RunConfig  # noqa: PLC0415

    if platform is not None:
        config = RunConfig(platform=platform)
    stats = BenchmarkStats(rounds=rounds, warmup=warmup)
    native = compiled._native(_mode(compiled, config))
    full, _outs = compiled._full_args(native, list(args))
    for _ in range(warmup):
        native(*full)
    distributed = getattr(compiled, "_l3", False)
    for _ in range(rounds):
        t0 = time.perf_counter()
        r = native(*full)
        stats.host_wall_us.append((time.perf_counter() - t0) * 1e6)
        stats.round_wall_us.append(r.seconds * 1e6)
        ranks = [s * 1e6 for s in r.rank_seconds]
        stats.device_wall_us.append(max(ranks) if distributed and ranks else r.seconds * 1e6)
        if distributed:
            for rank, wall in enumerate(ranks):
                stats.rank_wall_us.setdefault(rank, []).append(wall)
    return stats


def _mode(compiled, config):
    from .._platforms import mode_of  # noqa: PLC0415

    return mode_of(config.platform if config is not None and config.platform else compiled.platform)
