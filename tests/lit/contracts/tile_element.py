# RUN: ptodist check %s --verify-diagnostics
# pl.tile.read(tile, indices) / pl.tile.write(tile, indices, value) after PyPTO's DeduceTileReadType and
# DeduceTileWriteType: a Vec tile, one integer index per dim (one integer for a 1-D tile), the value
# of the tile's dtype; the unified pl.read / pl.write of a tile are these ops.
import pypto.language as pl


@pl.program
class Contract:
    @pl.function(type=pl.FunctionType.AIV)
    def kernel(
        self,
        x: pl.Tensor[[2, 8], pl.FP32],
        y: pl.Out[pl.Tensor[[2, 8], pl.FP32]],
    ) -> pl.Tensor[[2, 8], pl.FP32]:
        t = pl.load(x, [0, 0], [2, 8])
        m = pl.load(x, [0, 0], [2, 8], target_memory=pl.Mem.Mat)
        row = pl.tile.full([8], dtype=pl.INT32, value=0)
        a = pl.tile.read(t, [1, 7])
        b = pl.read(t, [0, 1])
        c = pl.tile.read(tile=t, indices=[0, 2])
        pl.tile.write(row, 3, pl.cast(a, pl.INT32))
        pl.write(row, 4, 7)
        pl.tile.write(t, [0, 0], b + c)
        # expected-error@+1 {{pl.tile.read: region [8, 9) in dim 1 is out of bounds of 'tile' (size 8)}}
        d = pl.tile.read(t, [0, 8])
        # expected-error@+1 {{pl.tile.read: 'indices' must be a list of 2 integers (the rank of 'tile'), got a list of 1 element}}
        e = pl.tile.read(t, [0])
        # expected-error@+1 {{pl.tile.read: 'tile' must be a tile in pl.Mem.Vec, got}}
        f = pl.tile.read(m, [0, 0])
        # expected-error@+1 {{pl.tile.write: 'value' is pl.Scalar[pl.INT32] but 'tile' holds pl.FP32; use pl.cast(value, pl.FP32)}}
        pl.tile.write(t, [0, 0], pl.cast(a, pl.INT32))
        # expected-error@+1 {{pl.tile.write: 'value' is pl.Scalar[pl.FP32] but 'tile' holds pl.INT32; use pl.cast(value, pl.INT32)}}
        pl.write(row, 0, 1.5)
        # expected-error@+1 {{pl.tile.write: unexpected keyword argument 'offset'}}
        pl.tile.write(t, offset=[0, 0], value=b)
        # expected-error@+1 {{pl.tile.read: 'tile' must be a tile, got pl.Tensor[[2, 8], pl.FP32]}}
        g = pl.tile.read(x, [0, 0])
        y = pl.store(t, [0, 0], y)
        return y
