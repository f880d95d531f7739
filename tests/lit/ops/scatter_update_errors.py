# RUN: ptodist check %s --verify-diagnostics
# What pl.scatter_update rejects, as PyPTO's Deduce{Tile,Tensor}ScatterUpdateType do: an input that is
# not 2-D or 4-D, a dim other than -2, an index that is not a 2-D integer operand, a src of another rank,
# dtype or row length, tiles mixed with tensors, and PyPTO's (input, index, src) order without dim.
import pypto.language as pl


@pl.program
class Errors:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        base: pl.Tensor[[32, 16], pl.FP32],
        base3: pl.Tensor[[2, 32, 16], pl.FP32],
        idx: pl.Tensor[[2, 4], pl.INT32],
        fidx: pl.Tensor[[2, 4], pl.FP32],
        src: pl.Tensor[[8, 16], pl.FP32],
        src16: pl.Tensor[[8, 16], pl.FP16],
        src_short: pl.Tensor[[8, 8], pl.FP32],
    ):
        b = pl.load(base, [0, 0], [32, 16])
        i = pl.load(idx, [0, 0], [2, 4])
        s = pl.load(src, [0, 0], [8, 16])
        # expected-error@+1 {{pl.scatter_update: 'input' must be 2-D [rows, d] or 4-D [blocks, block_size, 1, d], got pl.Tensor[[2, 32, 16], pl.FP32]}}
        a = pl.scatter_update(base3, -2, idx, src)
        # expected-error@+1 {{pl.scatter_update: 'dim' must be -2 (whole rows are replaced; the only dim PyPTO supports), got -1}}
        c = pl.scatter_update(base, -1, idx, src)
        # expected-error@+1 {{pl.scatter_update: 'index' must be a 2-D [b, s] integer tensor, got pl.Tensor[[2, 4], pl.FP32]}}
        d = pl.scatter_update(base, -2, fidx, src)
        # expected-error@+1 {{pl.scatter_update: 'src' dtype pl.FP16 must match 'input' dtype pl.FP32}}
        e = pl.scatter_update(base, -2, idx, src16)
        # expected-error@+1 {{pl.scatter_update: 'src' rows must have the input's 16 elements (the last dim), got pl.Tensor[[8, 8], pl.FP32]}}
        f = pl.scatter_update(base, -2, idx, src_short)
        # expected-error@+1 {{pl.tile.scatter_update: 'index' must be a tile}}
        g = pl.tile.scatter_update(b, -2, idx, s)
        # expected-error@+1 {{pl.scatter_update: 'dim' must be -2 (whole rows are replaced; the only dim PyPTO supports), got idx}}
        h = pl.scatter_update(base, idx, src)
        # expected-error@+1 {{pl.tensor.scatter_update: 'input' must be a tensor in GM (pl.Tensor or pld.DistributedTensor), got pl.Tile[[32, 16], pl.FP32, pl.Mem.Vec]}}
        k = pl.tensor.scatter_update(b, -2, idx, src)
