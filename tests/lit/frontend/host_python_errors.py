# RUN: ptodist check %s --verify-diagnostics
# What only a Python interpreter can evaluate is reported where a kernel uses it, with the line that binds
# it and the Python entry point, never as an undefined name.
import dataclasses

import pypto.language as pl
import pypto.language.distributed as pld
from model_config import HIDDEN


@dataclasses.dataclass
class Config:
    rows: int = 1


CFG = Config(rows=2)
FIRST = 1; SECOND = helper(1)


def helper(x):
    return x + 1


def _build(n_ranks, size, *, reduce_op=other.Sum, **options):
    if size == 1:
        cols = 1
    else:
        cols = helper(size)

    @pl.program
    class UsesHost:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, x: pl.Tensor[[1, 16], pl.FP32], n: pl.Scalar[pl.INT32]):
            # expected-error@+1 {{'cols' is assigned by host Python (line 26); the command line cannot evaluate it without a Python interpreter: run the program from Python instead, where ptodist's `pypto` package evaluates the module and hands the kernels to this compiler (docs/python.md)}}
            a = n + cols
            # expected-error@+1 {{'reduce_op' is a parameter of factory '_build' whose default value is not a constant (line 24)}}
            b = reduce_op
            # expected-error@+1 {{'options' is the '**' parameter of factory '_build', which only a Python caller can fill}}
            c = options
            # expected-error@+1 {{'HIDDEN' is imported from module 'model_config', which is not a kernel file beside this one (line 8)}}
            d = n + HIDDEN
            # expected-error@+1 {{'CFG' is assigned a value that is not a constant expression (line 16)}}
            e = CFG.rows
            # expected-error@+1 {{'SECOND' is assigned by host Python (line 17)}}
            h = SECOND
            # expected-error@+1 {{'helper' is a host Python function (line 20)}}
            f = helper(n)
            # expected-error@+1 {{'Config' is a host Python class (line 12)}}
            g = Config(rows=1)

        @pl.function(level=pl.Level.HOST, role=pl.Role.SubWorker)
        def verify(f: pl.Tensor[[1, 16], pl.FP32]):
            expected = torch.full((1, 16), 5.0)
            assert torch.allclose(f, expected)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self, x: pl.Tensor[[1, 16], pl.FP32]):
            # expected-error@+1 {{'verify' is a pl.Role.SubWorker method, whose body is host Python (line 52); the command line does not run host Python: run the program from Python instead, where ptodist's `pypto` package runs SubWorker methods between the chip tasks (docs/python.md)}}
            self.verify(x)

    return UsesHost
