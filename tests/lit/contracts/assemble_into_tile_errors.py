# RUN: ptodist check %s --verify-diagnostics
# pl.assemble into a tile: what its contract rejects (assemble_into_tile.py has what it accepts).
import pypto.language as pl


@pl.jit.incore
def errors(x: pl.Tensor[[1, 8], pl.FP32], h: pl.Tensor[[1, 8], pl.FP16]):
    grid = pl.full([8, 8], dtype=pl.FP32, value=0.0)
    # expected-error@+1 {{pl.assemble: 'source' of an assemble into a tile must be a tile, got pl.Tensor[[1, 8], pl.FP32]; load it with pl.load first}}
    grid = pl.assemble(grid, x, [0, 0])
    # expected-error@+1 {{pl.assemble: 'source' dtype pl.FP16 must match 'target' dtype pl.FP32; use pl.cast first}}
    grid = pl.assemble(grid, pl.load(h, [0, 0], [1, 8]), [0, 0])
    # expected-error@+1 {{pl.assemble: region [8, 9) in dim 0 is out of bounds of 'target' (size 8)}}
    grid = pl.assemble(grid, pl.load(x, [0, 0], [1, 8]), [8, 0])
    # expected-error@+1 {{pl.tile.assemble: 'target' must be a tile, got}}
    x = pl.tile.assemble(x, pl.load(x, [0, 0], [1, 8]), [0, 0])
    # expected-error@+1 {{pl.tensor.assemble: 'target' must be a tensor, got}}
    grid = pl.tensor.assemble(grid, pl.load(x, [0, 0], [1, 8]), [0, 0])
