"""Tensor values inside tile arithmetic, shaped like pypto-lib's hc_pre rms scope: per token tile of
`x`, sum over K chunks of row_sum(chunk * chunk), where `chunk` is a GM slice (a whole tile, or on the
tail tile a `pl.slice(..., valid_shape=)` of the rows that exist) and the running sum a tile from
pl.full. convert-tensor-to-tile makes the slices tile loads and the tensor ops tile ops.

out[r, 0] = sum_k x[r, k] ** 2 for each of the ROWS rows of x.
"""

import pypto.language as pl

ROWS = 12  # one whole token tile and a tail of 4 rows
COLS = 32
T_TILE = 8
K_CHUNK = 16
TILES = (ROWS + T_TILE - 1) // T_TILE


@pl.jit
def sum_squares_chip(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    out: pl.Out[pl.Tensor[[TILES * T_TILE, 1], pl.FP32]],
):
    for t in pl.spmd(TILES, name_hint="sum_squares"):
        t0 = t * T_TILE
        valid_rows = pl.min(T_TILE, ROWS - t0)
        sq_sum = pl.full([1, T_TILE], dtype=pl.FP32, value=0.0)
        for kb in pl.range(COLS // K_CHUNK):
            k0 = kb * K_CHUNK
            if valid_rows == T_TILE:
                chunk = x[t0:t0 + T_TILE, k0:k0 + K_CHUNK]
                sq_sum = pl.add(sq_sum, pl.reshape(pl.row_sum(pl.mul(chunk, chunk)), [1, T_TILE]))
            else:
                tail = pl.slice(x, [T_TILE, K_CHUNK], [t0, k0], valid_shape=[valid_rows, K_CHUNK])
                sq_sum = pl.add(sq_sum, pl.reshape(pl.row_sum(pl.mul(tail, tail)), [1, T_TILE]))
        out = pl.assemble(out, pl.reshape(sq_sum, [T_TILE, 1]), [t0, 0])
    return out


@pl.jit.host
def sum_squares(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    out: pl.Out[pl.Tensor[[TILES * T_TILE, 1], pl.FP32]],
):
    result = sum_squares_chip(x, out)
    return result
