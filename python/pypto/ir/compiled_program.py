"""`pypto.ir.compiled_program`: the single-chip (L2) compiled program; ptodist runs it on one rank.

An L2 program with several chip orchestrations is run through one chosen by name, as in PyPTO:
`compiled["chip_orch_add"](a, b, f)` or `compiled.chip_orch_add(a, b, f)`.
"""

from .distributed_compiled_program import DistributedCompiledProgram


class CompiledProgram(DistributedCompiledProgram):
    """An L2 program: `compiled(*tensors)` runs its chip orchestration on one rank."""

    __test__ = False
    _l3 = False

    @property
    def orchestration_names(self):
        return list(self._native(self._mode).native.orchestrations())

    def __getitem__(self, name):
        names = self.orchestration_names
        if name not in names:
            raise KeyError(f"no chip orchestration {name!r}; the program has: {', '.join(names)}")
        return OrchestrationCallable(self, name)

    def __getattr__(self, name):
        if not name.startswith("_") and name in self.orchestration_names:
            return self[name]
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def _execute(self, args, config, persistent=False):
        __tracebackhide__ = True
        names = self.orchestration_names
        if len(names) > 1:
            raise TypeError(
                f"program {self._program.name!r} has several chip orchestrations ({', '.join(names)}); "
                f"select one explicitly: compiled[{names[0]!r}](...)"
            )
        return super()._execute(args, config, persistent)


class OrchestrationCallable(DistributedCompiledProgram):
    """One chip orchestration of an L2 program, run on one rank with its parameters as the tensors."""

    __test__ = False
    _l3 = False

    def __init__(self, parent, name):
        self.name = name
        self._entry = name
        super().__init__(parent._program, parent.output_dir / "next_levels" / name, platform=parent.platform)

