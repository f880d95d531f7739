# RUN: ptodist compile %s --emit=tile-ir --ranks 4 | FileCheck %s
# RUN: ptodist compile %s --emit=tile-ir --ranks 4 -D cols=32 | FileCheck %s --check-prefix=COLS
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
# A factory written as PyPTO's tests write them: keyword-only and positional-only markers, annotations,
# defaults of every constant kind (a dtype, a string, None, a tuple, a negative number), one default
# the command line cannot evaluate (unused, so harmless), and the rank count as `n_ranks`, bound from
# --ranks. Constants chosen by an if/elif/else on constants, and min(), fold once parameters are bound
# (cols=16: WIDTH = 16; cols=32: WIDTH = min(32, 24) = 24).
import pypto.language as pl
import pypto.language.distributed as pld


def _build(n_ranks: int, /, cols: int = 16, *, dtype=pl.FP32, tag: str = "x", extra=None,
           pair=(1, 2), shift: int = -1, reduce_op=some_module.SUM, **options):
    DTYPE = dtype
    if cols < 0:
        raise ValueError("validation code is skipped")
    if cols > 20:
        WIDTH = min(cols, 24)
    elif cols == 7:
        EIGHT = 4 + 4
        WIDTH = EIGHT
    else:
        WIDTH = cols
    COLS = WIDTH + shift + 1

    # IR: WIDTH = (cols if cols <= 24 else 24) if cols > 20 else EIGHT if cols == 7 else cols
    @pl.program
    class Scaled:
        # CHECK: def kernel(
        # CHECK-NEXT: self,
        # CHECK-NEXT: x: pl.Tensor{{\[\[}}4, 16], pl.FP32],
        # CHECK-NEXT: y: pl.Out[pl.Tensor{{\[\[}}4, 16], pl.FP32]],
        # COLS: def kernel(
        # COLS-NEXT: self,
        # COLS-NEXT: x: pl.Tensor{{\[\[}}4, 24], pl.FP32],
        # COLS-NEXT: y: pl.Out[pl.Tensor{{\[\[}}4, 24], pl.FP32]],
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, x: pl.Tensor[[n_ranks, COLS], DTYPE], y: pl.Out[pl.Tensor[[n_ranks, COLS], DTYPE]]):
            t = pl.load(x, [0, 0], [n_ranks, COLS])
            y = pl.store(t, [0, 0], y)
            return y

    return Scaled
