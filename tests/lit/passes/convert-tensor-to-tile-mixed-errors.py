# RUN: ptodist check %s --verify-diagnostics
# What convert-tensor-to-tile cannot make a tile is a located error, never dropped: a tensor operand of
# tile arithmetic too large for UB, and a partially valid slice whose value stays a tensor.
import pypto.language as pl


@pl.jit.incore
def kernel(
    big: pl.Tensor[[512, 512], pl.FP32],
    x: pl.Tensor[[12, 32], pl.FP32],
    out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
):
    acc = pl.full([512, 512], dtype=pl.FP32, value=0.0)
    # expected-error@+1 {{this tensor is an operand of tile arithmetic, but ptodist cannot load it into a tile: its shape pl.Tensor[[512, 512], pl.FP32] must be static and fit in UB (188416 bytes); pl.load a static region of it instead}}
    acc = pl.add(acc, big)
    # expected-error@+1 {{pl.slice: a slice with 'valid_shape' must be used as a tile (an operand of tile arithmetic, or an assemble's source) or be read by tensor-level arithmetic only; here its value stays a tensor}}
    tail = pl.slice(x, [8, 32], [8, 0], valid_shape=[4, 32])
    t = pl.load(tail, [0, 0], [8, 32])
    out = pl.store(t, [0, 0], out)
    return out
