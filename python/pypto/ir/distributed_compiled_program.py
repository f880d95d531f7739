"""`pypto.ir.distributed_compiled_program`: DistributedConfig and the compiled program ir.compile returns.

A compiled program here is ptodist's: compiled by its C++ compiler for len(device_ids) in-process ranks
and run over the caller's torch tensors (or numpy arrays) in place. Its `output_dir` holds the PTO text
of every kernel and the manifest (docs/pto.md).
"""

from dataclasses import dataclass, field
from pathlib import Path

from ptodist import buffers
from ptodist.errors import REPORTS

from .._platforms import mode_of, resolve


@dataclass
class DistributedConfig:
    """PyPTO's L3 configuration; `device_ids` sets the rank count (one in-process rank per id)."""

    device_ids: list = field(default_factory=lambda: [0])
    num_sub_workers: int = 0
    runtime: str = "tensormap_and_ringbuffer"
    aicpu_thread_num: int = 0

    def __post_init__(self):
        if not self.device_ids:
            raise ValueError("DistributedConfig.device_ids must not be empty")
        if any(d < 0 for d in self.device_ids):
            raise ValueError(
                f"DistributedConfig.device_ids must be non-negative device indices, got {self.device_ids}"
            )
        if len(set(self.device_ids)) != len(self.device_ids):
            raise ValueError(f"DistributedConfig.device_ids must be distinct, got {self.device_ids}")
        if self.num_sub_workers < 0:
            raise ValueError(
                f"DistributedConfig.num_sub_workers must be non-negative, got {self.num_sub_workers}"
            )
        if self.aicpu_thread_num < 0 or self.aicpu_thread_num == 1:
            raise ValueError(
                "DistributedConfig.aicpu_thread_num must be 0 (architecture default) or at least 2, "
                f"got {self.aicpu_thread_num}"
            )


class DistributedCompiledProgram:
    """A program compiled for ptodist: `compiled(*tensors)` runs it once on every rank."""

    __test__ = False
    _entry = ""  # the chip orchestration an L2 program runs through ("": its only one)
    _l3 = True  # a distributed (L3) program: its benchmark headline is the slowest rank's round

    def __init__(self, program, output_dir, *, platform=None, distributed_config=None):
        self._program = program
        self._output_dir = Path(output_dir).resolve()
        self._platform = platform or resolve(None)
        self._distributed_config = distributed_config or DistributedConfig()
        self.ranks = len(self._distributed_config.device_ids)
        self._mode = mode_of(self._platform)
        self._native(self._mode)  # compile now: errors belong to ir.compile

    def _native(self, mode, persistent=False):
        return self._program.compile(ranks=self.ranks, mode=mode, entry=self._entry, persistent=persistent)

    @property
    def output_dir(self):
        return self._output_dir

    # PyPTO's metadata of the orchestration function the program is called through.
    @property
    def param_names(self):
        return [p[0] for p in self._native(self._mode).params]

    @property
    def output_indices(self):
        """The pure Out parameters, which a call with the inputs only allocates."""
        return [i for i, p in enumerate(self._native(self._mode).params) if p[3] == "out"]

    @property
    def has_return(self):
        return self._native(self._mode).native.results() > 0

    @property
    def program(self):
        return self._program

    @property
    def platform(self):
        return self._platform

    def __str__(self):
        return str(self._output_dir)

    def __repr__(self):
        return f"{type(self).__name__}({self._output_dir!s})"

    def __fspath__(self):
        return str(self._output_dir)

    def _full_args(self, compiled, args):
        params = compiled.params
        if len(args) == len(params):
            return list(args), None
        outs = [i for i, p in enumerate(params) if p[3] == "out"]
        if len(args) != len(params) - len(outs) or not outs:
            names = [p[0] for p in params]
            raise TypeError(
                f"{type(self).__name__} expects {len(params)} (in-place) arguments, got {len(args)}. "
                f"Parameters: {names}"
            )
        full, it = [], iter(args)
        for i, (name, dtype, shape, _direction) in enumerate(params):
            if i in outs:
                if any(d is None for d in shape):
                    raise ValueError(f"Cannot allocate output tensor {name!r}: shape has dynamic dimensions.")
                import torch  # noqa: PLC0415

                full.append(torch.zeros(shape, dtype=buffers.torch_dtype(dtype)))
            else:
                full.append(next(it))
        return full, outs

    def __call__(self, *args, config=None):
        """Runs the program once over host tensors (in place); with the inputs only, returns the outputs."""
        __tracebackhide__ = True
        from pypto.runtime import distributed_runner  # noqa: PLC0415

        try:
            return distributed_runner.execute_distributed(self, list(args), config)
        except REPORTS as e:
            raise e.with_traceback(None) from None

    def _execute(self, args, config, persistent=False):
        __tracebackhide__ = True
        mode = mode_of(config.platform) if config is not None and config.platform else mode_of(self._platform)
        compiled = self._native(mode, persistent)
        full, outs = self._full_args(compiled, args)
        compiled(*full)
        if outs is None:
            return None
        result = [full[i] for i in outs]
        return result[0] if len(result) == 1 else tuple(result)

    def prepare(  # noqa: PLR0913
        self,
        config=None,
        *,
        extra_compiled=(),
        persistent=False,
        reset_persistent_windows=None,
        callbacks=None,
        sub_worker_overrides=None,
        **_options,
    ):
        """A reusable handle (`with compiled.prepare() as rt: rt(*tensors)`); with `persistent=True,
        reset_persistent_windows=False` window contents carry over from one call to the next.
        `callbacks={name: fn}` binds SubWorkers (required for those declared with a `...` body)."""
        from pypto.runtime.distributed_runner import DistributedWorker  # noqa: PLC0415

        return DistributedWorker(
            [self, *extra_compiled],
            config,
            persistent=persistent,
            reset_persistent_windows=reset_persistent_windows,
            callbacks=callbacks,
            sub_worker_overrides=sub_worker_overrides,
        )
