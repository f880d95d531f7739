# RUN: ptodist check %s --verify-diagnostics
# pl.slice(valid_shape=) outside a kernel: the runtime's view would read the whole window, so it is a
# located error; in a kernel it is a partially valid tile load (passes/convert-tensor-to-tile-mixed.py).
import pypto.language as pl


@pl.jit.incore
def copy_rows(src: pl.Tensor[[8, 16], pl.FP32], out: pl.Out[pl.Tensor[[8, 16], pl.FP32]]):
    out = pl.store(pl.load(src, [0, 0], [8, 16]), [0, 0], out)
    return out


@pl.jit
def chip(x: pl.Tensor[[12, 16], pl.FP32], out: pl.Out[pl.Tensor[[8, 16], pl.FP32]]):
    # expected-error@+1 {{pl.slice: 'valid_shape' is supported in kernels only, where the slice becomes a partially valid tile load; outside one the view would read the whole window}}
    tail = pl.slice(x, [8, 16], [8, 0], valid_shape=[4, 16])
    out = copy_rows(tail, out)
    return out
