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


# Two-level full-row reduction, as pypto-lib's gate (ffn_norm) writes it: row_sum of x as [8, 8], the
# eight partial sums assembled into row 0 of a tile (`grid[0:1, :] = ...`, PyPTO's tile.assemble), the
# grid narrowed to that row, summed again, and the total stored with `shapes=[1, 1]`. On the way, slices
# of the [8, 8] tile (PyPTO's tile.slice, as pypto-lib's expert_shared takes rows of a tile): rows 2:4
# whole, and rows 4:8 valid in their first two rows only.
# partials[0, j] = sum(x[0, 8j:8j+8]); total[0, 0] = sum(x); middle = x[0, 16:32] as [2, 8];
# tail[0:2] = x[0, 32:48] as [2, 8], tail[2:4] untouched.
@pl.jit
def two_level_sum_chip(
    x: pl.Tensor[[1, 64], pl.FP32],
    partials: pl.Out[pl.Tensor[[1, 8], pl.FP32]],
    total: pl.Out[pl.Tensor[[1, 1], pl.FP32]],
    middle: pl.Out[pl.Tensor[[2, 8], pl.FP32]],
    tail: pl.Out[pl.Tensor[[4, 8], pl.FP32]],
):
    for _ in pl.spmd(1, name_hint="two_level_sum"):
        rows = pl.reshape(pl.load(x, [0, 0], [1, 64]), [8, 8])
        pl.tile.store(rows[2:4, :], [0, 0], middle)
        pl.tile.store(pl.slice(rows, [4, 8], [4, 0], valid_shape=[2, 8]), [0, 0], tail)
        partial = pl.row_sum(rows)
        grid = pl.full([8, 8], dtype=pl.FP32, value=0.0)
        grid[0:1, :] = pl.reshape(partial, [1, 8])
        grid = pl.set_validshape(grid, 1, 8)
        pl.tile.store(grid, [0, 0], partials, shapes=[1, 8])
        sums = pl.row_sum(grid)
        sums = pl.set_validshape(pl.reshape(sums, [1, 8]), 1, 1)
        pl.tile.store(sums, [0, 0], total, shapes=[1, 1])
    return partials, total, middle, tail


@pl.jit.host
def two_level_sum(
    x: pl.Tensor[[1, 64], pl.FP32],
    partials: pl.Out[pl.Tensor[[1, 8], pl.FP32]],
    total: pl.Out[pl.Tensor[[1, 1], pl.FP32]],
    middle: pl.Out[pl.Tensor[[2, 8], pl.FP32]],
    tail: pl.Out[pl.Tensor[[4, 8], pl.FP32]],
):
    partials, total, middle, tail = two_level_sum_chip(x, partials, total, middle, tail)
    return partials, total, middle, tail
