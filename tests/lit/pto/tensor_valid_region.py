# pl.set_validshape and pl.fillpad of a computed tensor in a kernel are their tile ops on the tile
# convert-tensor-to-tile makes of it (PyPTO converts tensor.set_validshape and tensor.fillpad so), as
# pypto-lib's expert_routed.py pads the rows past a block's valid count: the whole chain from the GM
# slice to the assemble becomes tiles and lowers to PTO. The CPU run is checked against numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/../ops/Inputs/npy.py save %t/g.npy "np.arange(8*32, dtype=np.int32).reshape(8, 32) - 100"
# RUN: ptodist run %s --entry orch --in g=%t/g.npy --out-dir %t
# RUN: %numpy %S/../ops/Inputs/npy.py check %t out "np.concatenate([np.where(np.arange(8)[:, None] < 3 + b, np.maximum(g[:, 16 * b:16 * b + 16].astype(np.float32) * 0.5, 0), 0) for b in range(2)], axis=1).astype(np.float32)"
# RUN: ptodist compile %s --emit=tile-ir -p specialize,convert-tensor-to-tile | FileCheck %s --check-prefix=TILE
# RUN: ptodist compile %s --emit=pto | FileCheck %s
import pypto.language as pl


@pl.program
class PadRows:
    @pl.function(type=pl.FunctionType.InCore)
    def act(
        self,
        g: pl.Tensor[[8, 32], pl.INT32],
        b: pl.Scalar[pl.INDEX],
        out: pl.Out[pl.Tensor[[8, 32], pl.FP32]],
    ) -> pl.Tensor[[8, 32], pl.FP32]:
        c0 = b * 16
        # TILE: x = pl.cast(pl.load(g, [0, c0], [8, 16]), pl.FP32
        x = pl.cast(g[:, c0 : c0 + 16], target_type=pl.FP32, mode="none")
        y = pl.maximum(pl.mul(x, 0.5), 0.0)
        # TILE: v = pl.set_validshape(y, b + 3, 16)
        # CHECK: pto.set_validshape %y, %{{[a-z_0-9]+}}, %c16 :
        v = pl.set_validshape(y, b + 3, 16)
        # TILE: out = pl.assemble(out, pl.fillpad(v, pad_value=pl.PadValue.zero), [0, c0])
        # CHECK: pto.tfillpad ins(%y : {{.*}}) outs(%{{[a-z_0-9]+}} : !pto.tile_buf<{{.*}}pad=1>)
        # CHECK: pto.tstore
        out[:, c0 : c0 + 16] = pl.fillpad(v, pad_value=pl.PadValue.zero)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(
        self,
        g: pl.Tensor[[8, 32], pl.INT32],
        out: pl.Out[pl.Tensor[[8, 32], pl.FP32]],
    ) -> pl.Tensor[[8, 32], pl.FP32]:
        for b in pl.range(2):
            out = self.act(g, b, out)
        return out
