"""The sibling module of jit_model.py: jit functions that file imports, with constants of their own.

OFFSET here is 1.0 and jit_model.py's OFFSET is 10.0: a function of this file must see its own.
"""

import pypto.language as pl
import pypto.language.distributed as pld

NR = 2
COLS = 16
OFFSET = 1.0
ROWS = pl.dynamic("GROUP_ROWS")


@pl.jit.inline
def group_barrier(
    signal: pld.DistributedTensor[[NR, 1], pl.INT32],
    me: pl.Scalar[pl.INT32],
    expected: pl.Scalar[pl.INT32],
):
    """Every rank tells each peer it got here, then waits until each peer told it `expected` times."""
    for peer in pl.range(NR):
        if peer != me:
            pld.system.notify(target=signal, peer=peer, offsets=[me, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    for source in pl.range(NR):
        if source != me:
            pld.system.wait(signal=signal, offsets=[source, 0], expected=expected, cmp=pld.WaitCmp.Ge)
    return signal


@pl.jit.incore
def add_offset(out: pl.InOut[pl.Tensor[[ROWS, COLS], pl.FP32]]):
    """out += OFFSET, row by row (this file's OFFSET)."""
    rows = pl.tensor.dim(out, 0)
    for r in pl.range(rows):
        t = pl.load(out, [r, 0], [1, COLS])
        out = pl.store(pl.adds(t, OFFSET), [r, 0], out)
    return out
