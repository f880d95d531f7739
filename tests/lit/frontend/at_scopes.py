# RUN: ptodist compile %s --emit=ir --program Outlined | FileCheck %s
# `with pl.at(level=...)` outlines its body into a function of that level and calls it in place, as
# PyPTO's parser and outlining passes do: parameters are the outer variables the body mentions (a
# name the body redefines first is not one), results are what the body assigns and the code after the
# scope reads; a tensor stored or assembled into is Out (InOut when also read, always for windows). A
# CORE_GROUP scope with `as tid`, deps= or inside a manual scope is a one-block pl.spmd_submit.
import pypto.language as pl
import pypto.language.distributed as pld

N = 16


@pl.program
class Outlined:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(
        self,
        x: pl.Tensor[[4, N], pl.FP32],
        y: pl.Out[pl.Tensor[[4, N], pl.FP32]],
        sig: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]],
    ) -> pl.Tensor[[4, N], pl.FP32]:
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [0, 0], [1, N])
            y = pl.store(t, [0, 0], y)
        with pl.manual_scope():
            for i in pl.range(2):
                with pl.at(pl.Level.CORE_GROUP, name_hint="waiter") as tid:
                    pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
                with pl.at(level=pl.Level.CORE_GROUP, deps=[tid]):
                    t = pl.load(x, [i, 0], [1, N])
                    y = pl.store(t, [i, 0], y)
        return y

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(
        self,
        a: pl.Tensor[[4, N], pl.FP32],
        b: pl.Out[pl.Tensor[[4, N], pl.FP32]],
    ) -> pl.Tensor[[4, N], pl.FP32]:
        with pl.at(level=pl.Level.CHIP, role=pl.Role.Orchestrator):
            with pl.at(level=pl.Level.CORE_GROUP):
                total = pl.assemble(b, pl.add(a, a), [0, 0])
        return total


# CHECK-LABEL: def chip(
# CHECK: y = self.chip_incore_0(x, y)
# CHECK-NEXT: with pl.manual_scope():
# CHECK-NEXT: for i in pl.range(2):
# CHECK-NEXT: _, tid = pl.spmd_submit(self.waiter, sig)
# CHECK-NEXT: y, _ = pl.spmd_submit(self.chip_incore_2, x, i, y, deps=[tid])
# CHECK-LABEL: def chip_incore_0(
# CHECK-NEXT: self,
# CHECK-NEXT: x: pl.Tensor{{\[\[}}4, N], pl.FP32],
# CHECK-NEXT: y: pl.Out[pl.Tensor{{\[\[}}4, N], pl.FP32]],
# CHECK-NEXT: ) -> pl.Tensor{{\[\[}}4, N], pl.FP32]:
# CHECK: return y
# CHECK-LABEL: def waiter(self, sig: pl.InOut[pld.DistributedTensor{{\[\[}}1, 1], pl.INT32]]):
# CHECK-NEXT: pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Ge)
# CHECK-LABEL: def chip_incore_2(
# CHECK-NEXT: self,
# CHECK-NEXT: x: pl.Tensor{{\[\[}}4, N], pl.FP32],
# CHECK-NEXT: i: pl.Scalar[pl.INT64],
# CHECK-NEXT: y: pl.Out[pl.Tensor{{\[\[}}4, N], pl.FP32]],
# CHECK-NEXT: ) -> pl.Tensor{{\[\[}}4, N], pl.FP32]:
# CHECK-LABEL: def host(
# CHECK: total = self.host_chip_orch_0(b, a)
# CHECK-NEXT: return total
# CHECK-LABEL: def host_chip_orch_0_incore_0(
# CHECK-NEXT: self,
# CHECK-NEXT: b: pl.Out[pl.Tensor{{\[\[}}4, N], pl.FP32]],
# CHECK-NEXT: a: pl.Tensor{{\[\[}}4, N], pl.FP32],
# CHECK-NEXT: ) -> pl.Tensor{{\[\[}}4, N], pl.FP32]:
# CHECK-NEXT: total = pl.assemble(b, pl.add(a, a), [0, 0])
# CHECK-NEXT: return total
# CHECK-LABEL: def host_chip_orch_0(
# CHECK-NEXT: self,
# CHECK-NEXT: b: pl.Out[pl.Tensor{{\[\[}}4, N], pl.FP32]],
# CHECK-NEXT: a: pl.Tensor{{\[\[}}4, N], pl.FP32],
# CHECK-NEXT: ) -> pl.Tensor{{\[\[}}4, N], pl.FP32]:
# CHECK-NEXT: total = self.host_chip_orch_0_incore_0(b, a)
# CHECK-NEXT: return total
