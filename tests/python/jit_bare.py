"""Function-style kernels with bare `pl.Tensor` parameters (PyPTO's @pl.jit style): the shapes come
from the tensors passed. `scaled_sum` (host) -> `scaled_sum_chip` -> `add_tiles` and `scale_tile`,
where `scale_tile` reads the tensor `add_tiles` wrote, which it knows through add_tiles' Out parameter.
out = (a + b) * 2 on a [ROWS, COLS] tile of each tensor."""

import pypto.language as pl

TILE_ROWS = 4


@pl.jit.incore
def add_tiles(a: pl.Tensor, b: pl.Tensor, out: pl.Out[pl.Tensor]):
    t = pl.add(pl.load(a, [0, 0], [TILE_ROWS, a.shape[1]]), pl.load(b, [0, 0], [TILE_ROWS, b.shape[1]]))
    return pl.store(t, [0, 0], out)


@pl.jit.incore
def scale_tile(x: pl.Tensor, out: pl.Out[pl.Tensor]):
    t = pl.load(x, [0, 0], [TILE_ROWS, x.shape[1]])
    return pl.store(pl.mul(t, 2.0), [0, 0], out)


@pl.jit
def scaled_sum_chip(a: pl.Tensor, b: pl.Tensor, tmp: pl.Out[pl.Tensor], out: pl.Out[pl.Tensor]):
    summed = add_tiles(a, b, tmp)
    result = scale_tile(summed, out)
    return result


@pl.jit.host
def scaled_sum(a: pl.Tensor, b: pl.Tensor, tmp: pl.Out[pl.Tensor], out: pl.Out[pl.Tensor]):
    result = scaled_sum_chip(a, b, tmp, out)
    return result


@pl.jit
def twice_add(a: pl.Tensor, b: pl.Tensor, small: pl.Out[pl.Tensor], big: pl.Out[pl.Tensor]):
    add_tiles(a, a, small)
    add_tiles(b, b, big)
    return big


@pl.jit
def sum_then_scale(a: pl.Tensor, b: pl.Tensor, out: pl.Out[pl.Tensor]):
    # The intermediate's type comes from pl.create_tensor, with dims bound in this module.
    tmp = pl.create_tensor([TILE_ROWS * 2, 16], dtype=pl.FP32)
    tmp = add_tiles(a, b, tmp)
    out = scale_tile(tmp, out)
    return out


@pl.jit.inline
def add_one_inline(x: pl.Tensor, dst: pl.Tensor):
    # `dst` is not pl.Out: a call's result takes the type of the parameter the return names.
    with pl.at(level=pl.Level.CORE_GROUP):
        pl.store(pl.add(pl.load(x, [0, 0], [TILE_ROWS, 16]), 1.0), [0, 0], dst)
    return dst


@pl.jit.inline
def double_inline(x: pl.Tensor, dst: pl.Tensor):
    with pl.at(level=pl.Level.CORE_GROUP):
        pl.store(pl.mul(pl.load(x, [0, 0], [TILE_ROWS, 16]), 2.0), [0, 0], dst)
    return dst


@pl.jit
def inline_chain(a: pl.Tensor, out: pl.Out[pl.Tensor]):
    mid = pl.create_tensor([TILE_ROWS * 2, 16], dtype=pl.FP32)
    mid = add_one_inline(a, mid)
    out = double_inline(mid, out)
    return out
