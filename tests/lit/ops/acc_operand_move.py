# A matmul's Acc result read by vector arithmetic is moved to Vec first, as PyPTO's InferTileMemorySpace
# inserts tile.move for an operand outside the memory its op takes: `pl.add(mm, bias)` is
# `pl.add(pl.move(mm, target_memory=pl.Mem.Vec), bias)` (the cube-to-vector hand-off of a mixed kernel,
# as PyPTO's cross_core/test_spmd.py writes it). Golden from numpy: x @ w + bias, then exp of it / 16.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "((np.arange(32*16).reshape(32, 16) * 5) % 9 - 4).astype(np.float32) / 4"
# RUN: %numpy %S/Inputs/npy.py save %t/w.npy "((np.arange(16*16).reshape(16, 16) * 3) % 7 - 3).astype(np.float32) / 4"
# RUN: %numpy %S/Inputs/npy.py save %t/bias.npy "(np.arange(32*16).reshape(32, 16) % 5).astype(np.float32)"
# RUN: ptodist run %s --entry orchestrator --in x=%t/x.npy --in w=%t/w.npy --in bias=%t/bias.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t out "x @ w + bias"
# RUN: %numpy %S/Inputs/npy.py check %t scaled "np.exp((x @ w) / 16)"
# RUN: ptodist run %s --entry orchestrator --in x=%t/x.npy --in w=%t/w.npy --in bias=%t/bias.npy --mode check
# RUN: ptodist compile %s --emit=ir | FileCheck %s
import pypto.language as pl


@pl.program
class AccOperands:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[32, 16], pl.FP32],
        w: pl.Tensor[[16, 16], pl.FP32],
        bias: pl.Tensor[[32, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
        scaled: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
    ):
        a = pl.move(pl.load(x, [0, 0], [32, 16], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
        b = pl.move(pl.load(w, [0, 0], [16, 16], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
        mm = pl.matmul(a, b)
        # CHECK: r = pl.add(pl.move(mm, pl.Mem.Vec), t)
        t = pl.load(bias, [0, 0], [32, 16])
        r = pl.add(mm, t)
        out = pl.store(r, [0, 0], out)
        # CHECK: e = pl.exp(pl.muls(pl.move(mm, pl.Mem.Vec), 0.0625))
        e = pl.exp(pl.muls(mm, 0.0625))
        scaled = pl.store(e, [0, 0], scaled)

    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestrator(
        self,
        x: pl.Tensor[[32, 16], pl.FP32],
        w: pl.Tensor[[16, 16], pl.FP32],
        bias: pl.Tensor[[32, 16], pl.FP32],
        out: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
        scaled: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
    ):
        self.kernel(x, w, bias, out, scaled)
