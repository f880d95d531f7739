# RUN: ptodist check %s --verify-diagnostics
# pl.slice of a tile: what its contract rejects (slice_of_tile.py has what it accepts).
import pypto.language as pl


@pl.jit.incore
def errors(x: pl.Tensor[[8, 16], pl.FP32]):
    t = pl.load(x, [0, 0], [8, 16])
    # expected-error@+1 {{pl.slice: region [6, 10) in dim 0 is out of bounds of 'input' (size 8)}}
    a = pl.slice(t, [4, 16], [6, 0])
    # expected-error@+1 {{pl.slice: 'valid_shape' dim 1 (17) must lie in [0, 16]: the valid region narrows the tile, it cannot widen it}}
    b = pl.slice(t, [4, 16], [0, 0], valid_shape=[4, 17])
    # expected-error@+1 {{pl.slice: 'pad_value' (padding) is not supported by ptodist yet}}
    c = pl.slice(t, [4, 16], [0, 0], pad_value=pl.PadValue.zero)
    # expected-error@+1 {{pl.tile.slice: 'tile' must be a tile, got}}
    d = pl.tile.slice(x, [4, 16], [0, 0])
    # expected-error@+1 {{pl.tensor.slice: 'tensor' must be a tensor, got}}
    e = pl.tensor.slice(t, [4, 16], [0, 0])
