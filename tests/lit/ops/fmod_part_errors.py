# RUN: ptodist check %s --verify-diagnostics
# What pl.fmod / pl.fmods and the partial combines reject: fmod is defined on floats (pto.tfmod), a
# pl.tile.fmod takes two tiles (PyPTO's; pl.fmod of a tile and a scalar is pl.fmods), and the partial
# combines take two tiles of one shape and dtype, like pl.add.
import pypto.language as pl


@pl.program
class Errors:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[4, 16], pl.FP32],
        i: pl.Tensor[[4, 16], pl.INT32],
        h: pl.Tensor[[4, 16], pl.FP16],
    ):
        t = pl.load(x, [0, 0], [4, 16])
        n = pl.load(i, [0, 0], [4, 16])
        f = pl.load(h, [0, 0], [4, 16])
        # expected-error@+1 {{pl.fmod: 'lhs' must be pl.FP16, pl.BF16 or pl.FP32, got pl.Tile[[4, 16], pl.INT32, pl.Mem.Vec]}}
        a = pl.fmod(n, n)
        # expected-error@+1 {{pl.fmods: 'lhs' must be pl.FP16, pl.BF16 or pl.FP32}}
        b = pl.fmod(n, 3)
        # expected-error@+1 {{pl.tile.fmod: 'rhs' must be a tile}}
        c = pl.tile.fmod(t, 2.0)
        # expected-error@+1 {{pl.tile.part_add: 'src1' dtype pl.FP16 must match 'src0' dtype pl.FP32; use pl.cast}}
        d = pl.tile.part_add(t, f)
        # expected-error@+1 {{pl.part_max: 'rhs' shape [2, 16] must match 'lhs' shape [4, 16]}}
        e = pl.part_max(t, pl.load(x, [0, 0], [2, 16]))
