# RUN: ptodist compile %s --emit=tile-ir --ranks 4 | FileCheck %s
# RUN: ptodist compile %s --emit=tile-ir --ranks 4 -D cols=32 | FileCheck %s --check-prefix=COLS
# A factory written as PyPTO's tests write them: keyword-only and positional-only markers, annotations,
# defaults of every constant kind (a dtype, a string, None, a tuple, a negative number), one default
# the command line cannot evaluate (unused, so harmless), and the rank count as `n_ranks`, bound from
# --ranks.
import pypto.language as pl
import pypto.language.distributed as pld


def _build(n_ranks: int, /, cols: int = 16, *, dtype=pl.FP32, tag: str = "x", extra=None,
           pair=(1, 2), shift: int = -1, reduce_op=some_module.SUM, **options):
    DTYPE = dtype
    COLS = cols + shift + 1

    @pl.program
    class Scaled:
        # CHECK: def kernel(self, x: pl.Tensor{{\[\[}}4, 16], pl.FP32], y: pl.Out[pl.Tensor{{\[\[}}4, 16], pl.FP32]])
        # COLS: def kernel(self, x: pl.Tensor{{\[\[}}4, 32], pl.FP32], y: pl.Out[pl.Tensor{{\[\[}}4, 32], pl.FP32]])
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, x: pl.Tensor[[n_ranks, COLS], DTYPE], y: pl.Out[pl.Tensor[[n_ranks, COLS], DTYPE]]):
            t = pl.load(x, [0, 0], [n_ranks, COLS])
            y = pl.store(t, [0, 0], y)
            return y

    return Scaled
