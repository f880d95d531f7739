# Elementwise results written over their dead operands' buffers: three 128x128 FP32 tiles would need
# 192 KiB of UB (over a2a3's 184 KiB), but each result takes an operand's buffer, as in PyPTO, and the
# runtime places the tiles at those planned addresses. f = 3 * (a + b) - b, g = a + b (the operands
# computed inside the call); the golden is computed in runtime_e2e_test.cpp.
import pypto.language as pl


@pl.program
class InPlace:
    @pl.function(type=pl.FunctionType.InCore)
    def chained(
        self,
        a: pl.Tensor[[128, 128], pl.FP32],
        b: pl.Tensor[[128, 128], pl.FP32],
        f: pl.Out[pl.Tensor[[128, 128], pl.FP32]],
    ) -> pl.Tensor[[128, 128], pl.FP32]:
        tile_a = pl.load(a, [0, 0], [128, 128])
        tile_b = pl.load(b, [0, 0], [128, 128])
        tile_c = pl.add(tile_a, tile_b)
        tile_e = pl.muls(tile_c, 3.0)
        tile_f = pl.sub(tile_e, tile_b)
        return pl.store(tile_f, [0, 0], f)

    @pl.function(type=pl.FunctionType.InCore)
    def nested(
        self,
        a: pl.Tensor[[128, 128], pl.FP32],
        b: pl.Tensor[[128, 128], pl.FP32],
        g: pl.Out[pl.Tensor[[128, 128], pl.FP32]],
    ) -> pl.Tensor[[128, 128], pl.FP32]:
        return pl.store(pl.add(pl.load(a, [0, 0], [128, 128]), pl.load(b, [0, 0], [128, 128])), [0, 0], g)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_orch(
        self,
        a: pl.Tensor[[128, 128], pl.FP32],
        b: pl.Tensor[[128, 128], pl.FP32],
        f: pl.Out[pl.Tensor[[128, 128], pl.FP32]],
        g: pl.Out[pl.Tensor[[128, 128], pl.FP32]],
    ) -> tuple[pl.Tensor[[128, 128], pl.FP32], pl.Tensor[[128, 128], pl.FP32]]:
        f = self.chained(a, b, f)
        g = self.nested(a, b, g)
        return f, g

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(
        self,
        a: pl.Tensor[[128, 128], pl.FP32],
        b: pl.Tensor[[128, 128], pl.FP32],
        f: pl.Out[pl.Tensor[[128, 128], pl.FP32]],
        g: pl.Out[pl.Tensor[[128, 128], pl.FP32]],
    ) -> tuple[pl.Tensor[[128, 128], pl.FP32], pl.Tensor[[128, 128], pl.FP32]]:
        out_f, out_g = self.chip_orch(a, b, f, g)
        return out_f, out_g
