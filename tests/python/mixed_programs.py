"""A mixed kernel the Python tests compile: a vector prologue, a matmul on the cube, a vector epilogue
(expand-mixed-kernel splits it into an AIC and an AIV kernel joined by a cross-core pipe)."""

import pypto.language as pl

M, K, N = 16, 32, 16


@pl.program
class ScaledMatmul:
    @pl.function(type=pl.FunctionType.InCore)
    def scaled_mm(
        self,
        a: pl.Tensor[[M, K], pl.FP32],
        b: pl.Tensor[[K, N], pl.FP32],
        bias: pl.Tensor[[M, N], pl.FP32],
        z: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        aa = pl.muls(pl.load(a, [0, 0], [M, K]), 2.0)
        al = pl.move(aa, target_memory=pl.Mem.Left)
        br = pl.move(pl.load(b, [0, 0], [K, N], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
        acc = pl.matmul(al, br)
        zz = pl.add(pl.move(acc, target_memory=pl.Mem.Vec), pl.load(bias, [0, 0], [M, N]))
        z = pl.store(zz, [0, 0], z)
        return z

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        a: pl.Tensor[[M, K], pl.FP32],
        b: pl.Tensor[[K, N], pl.FP32],
        bias: pl.Tensor[[M, N], pl.FP32],
        z: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    ) -> pl.Tensor[[M, N], pl.FP32]:
        z = self.scaled_mm(a, b, bias, z)
        return z
