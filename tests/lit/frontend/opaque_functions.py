# RUN: ptodist compile %s --emit=ir --program Opaque | FileCheck %s
# PyPTO's default function type is Opaque (`@pl.function` with no type, or type=Opaque). Its
# OutlineIncoreScopes pass promotes an Opaque function whose body holds an InCore scope (a
# `pl.at(level=pl.Level.CORE_GROUP)` or a pl.spmd scope) to an orchestration and outlines each scope
# into a kernel. optimizations=[pl.split(...), pl.cross_core_slot(...)] only divide the work between
# cores, so the scope runs whole.
import pypto.language as pl

N = 16


@pl.program
class Opaque:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        x: pl.Tensor[[4, N], pl.FP32],
        out: pl.Out[pl.Tensor[[4, N], pl.FP32]],
    ) -> pl.Tensor[[4, N], pl.FP32]:
        with pl.at(
            level=pl.Level.CORE_GROUP,
            optimizations=[pl.split(pl.SplitMode.UP_DOWN), pl.cross_core_slot(slot_num=4)],
        ):
            y = pl.abs(x)
            out = pl.assemble(out, y, [0, 0])
        return out

    @pl.function
    def bare(self, x: pl.Tensor[[4, N], pl.FP32], out: pl.Out[pl.Tensor[[4, N], pl.FP32]]):
        for i in pl.spmd(4, optimizations=[pl.split(pl.SplitMode.LEFT_RIGHT)]):
            t = pl.load(x, [i, 0], [1, N])
            out = pl.store(t, [i, 0], out)


# CHECK-LABEL: @pl.function(type=pl.FunctionType.Orchestration)
# CHECK-NEXT: def main(
# CHECK: out = self.main_incore_0(x, out)
# CHECK-LABEL: @pl.function(type=pl.FunctionType.Orchestration)
# CHECK-NEXT: def bare(
# CHECK: pl.spmd_submit(
