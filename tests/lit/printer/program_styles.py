# RUN: ptodist compile %s --emit=ir | FileCheck %s
# RUN: ptodist compile %s --emit=ir > %t.py && ptodist compile %t.py --emit=ir > %t2.py && diff %t.py %t2.py
# A factory-built class-style program and a jit-style program in one file.
# FileCheck reads "[[" as a variable, so the CHECK lines spell it {{\[\[}}.
import pypto.language as pl
import pypto.language.distributed as pld

COLS = 64

# CHECK: import pypto.language as pl
# CHECK-NEXT: import pypto.language.distributed as pld
# CHECK-EMPTY:
# CHECK-NEXT: COLS = 64
# CHECK-EMPTY:
# CHECK-EMPTY:
# CHECK-NEXT: def make_program(world_size, cores=4):
# CHECK-NEXT:     ROWS = world_size * 2
# CHECK-EMPTY:
# CHECK-NEXT:     @pl.program
# CHECK-NEXT:     class ClassStyle:
# CHECK-NEXT:         @pl.function(type=pl.FunctionType.AIV)
# CHECK-NEXT:         def kernel(
# CHECK-NEXT:             self,
# CHECK-NEXT:             x: pl.Tensor{{\[\[}}ROWS, COLS], pl.FP32],
# CHECK-NEXT:             y: pl.Out[pl.Tensor{{\[\[}}ROWS, COLS], pl.FP32]],
# CHECK-NEXT:         ) -> pl.Tensor{{\[\[}}ROWS, COLS], pl.FP32]:
# CHECK-NEXT:             t = pl.load(x, [0, 0], [ROWS, COLS])
# CHECK-NEXT:             y = pl.store(t, [0, 0], y)
# CHECK-NEXT:             return y
# CHECK-EMPTY:
# CHECK-NEXT:         @pl.function(type=pl.FunctionType.Orchestration)
# CHECK-NEXT:         def chip(
# CHECK-NEXT:             self,
# CHECK-NEXT:             x: pl.Tensor{{\[\[}}ROWS, COLS], pl.FP32],
# CHECK-NEXT:             y: pl.Out[pl.Tensor{{\[\[}}ROWS, COLS], pl.FP32]],
# CHECK-NEXT:         ) -> pl.Tensor{{\[\[}}ROWS, COLS], pl.FP32]:
# CHECK-NEXT:             with pl.manual_scope():
# CHECK-NEXT:                 y, _ = pl.spmd_submit(self.kernel, x, y, core_num=cores)
# CHECK-NEXT:             return y
# CHECK-EMPTY:
# CHECK-NEXT:         @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
# CHECK-NEXT:         def host(
# CHECK-NEXT:             self,
# CHECK-NEXT:             xs: pl.Tensor{{\[\[}}pl.dynamic("NR"), ROWS, COLS], pl.FP32],
# CHECK-NEXT:             ys: pl.Out[pl.Tensor{{\[\[}}pl.dynamic("NR"), ROWS, COLS], pl.FP32]],
# CHECK-NEXT:         ):
# CHECK-NEXT:             for r in pl.range(pld.world_size()):
# CHECK-NEXT:                 self.chip(xs[r], ys[r], device=r)
# CHECK-EMPTY:
# CHECK-NEXT:     return ClassStyle
# CHECK-EMPTY:
# CHECK-EMPTY:
# CHECK-NEXT: @pl.jit.incore
# CHECK-NEXT: def jit_kernel(
# CHECK-NEXT:     x: pl.Tensor{{\[\[}}1, COLS], pl.FP32],
# CHECK-NEXT:     y: pl.Out[pl.Tensor{{\[\[}}1, COLS], pl.FP32]],
# CHECK-NEXT: ) -> pl.Tensor{{\[\[}}1, COLS], pl.FP32]:
# CHECK-NEXT:     t = pl.exp(pl.load(x, [0, 0], [1, COLS]))
# CHECK-NEXT:     y = pl.store(t, [0, 0], y)
# CHECK-NEXT:     return y
# CHECK-EMPTY:
# CHECK-EMPTY:
# CHECK-NEXT: @pl.jit
# CHECK-NEXT: def jit_chip(
# CHECK-NEXT:     x: pl.Tensor{{\[\[}}1, COLS], pl.FP32],
# CHECK-NEXT:     y: pl.Out[pl.Tensor{{\[\[}}1, COLS], pl.FP32]],
# CHECK-NEXT: ) -> pl.Tensor{{\[\[}}1, COLS], pl.FP32]:
# CHECK-NEXT:     return jit_kernel(x, y)
# CHECK-EMPTY:
# CHECK-EMPTY:
# CHECK-NEXT: @pl.jit.host
# CHECK-NEXT: def jit_host(
# CHECK-NEXT:     xs: pl.Tensor{{\[\[}}pl.dynamic("NR"), 1, COLS], pl.FP32],
# CHECK-NEXT:     ys: pl.Out[pl.Tensor{{\[\[}}pl.dynamic("NR"), 1, COLS], pl.FP32]],
# CHECK-NEXT: ):
# CHECK-NEXT:     for r in pl.range(pld.world_size()):
# CHECK-NEXT:         jit_chip(xs[r], ys[r], device=r)


def make_program(world_size, cores=4):
    ROWS = world_size * 2

    @pl.program
    class ClassStyle:
        @pl.function(type=pl.FunctionType.AIV)
        def kernel(self, x: pl.Tensor[[ROWS, COLS], pl.FP32], y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]):
            t = pl.load(x, [0, 0], [ROWS, COLS])
            y = pl.store(t, [0, 0], y)
            return y

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(self, x: pl.Tensor[[ROWS, COLS], pl.FP32], y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]]):
            with pl.manual_scope():
                y, _ = pl.spmd_submit(self.kernel, x, y, core_num=cores)
            return y

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self, xs: pl.Tensor[[pl.dynamic("NR"), ROWS, COLS], pl.FP32],
                 ys: pl.Out[pl.Tensor[[pl.dynamic("NR"), ROWS, COLS], pl.FP32]]):
            for r in pl.range(pld.world_size()):
                self.chip(xs[r], ys[r], device=r)

    return ClassStyle


@pl.jit.incore
def jit_kernel(x: pl.Tensor[[1, COLS], pl.FP32], y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]]):
    t = pl.exp(pl.load(x, [0, 0], [1, COLS]))
    y = pl.store(t, [0, 0], y)
    return y


@pl.jit
def jit_chip(x: pl.Tensor[[1, COLS], pl.FP32], y: pl.Out[pl.Tensor[[1, COLS], pl.FP32]]):
    return jit_kernel(x, y)


@pl.jit.host
def jit_host(xs: pl.Tensor[[pl.dynamic("NR"), 1, COLS], pl.FP32], ys: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, COLS], pl.FP32]]):
    for r in pl.range(pld.world_size()):
        jit_chip(xs[r], ys[r], device=r)
