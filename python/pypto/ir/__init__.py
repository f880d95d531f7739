"""`pypto.ir` on ptodist: compile() and the compiled program classes."""

from .compile import compile  # noqa: A004
from .compiled_program import CompiledProgram
from .distributed_compiled_program import DistributedCompiledProgram, DistributedConfig

__all__ = ["compile", "CompiledProgram", "DistributedCompiledProgram", "DistributedConfig"]
