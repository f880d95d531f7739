"""A function-style program over two files, shaped like pypto-lib's distributed models: a dataclass
config read at import time, dynamic row counts bound with `bind_dynamic`, an @pl.jit.incore without a
return annotation that returns two values, and an @pl.jit.inline and an @pl.jit.incore imported from
the sibling module jit_helpers.py.

Every rank r holds LOCAL rows x[r]; afterwards every rank's out[r] holds all ranks' rows in rank order
(an all-gather), plus OFFSET of this file (10.0) and then OFFSET of jit_helpers.py (1.0).
"""

from dataclasses import dataclass

import pypto.language as pl
import pypto.language.distributed as pld

from jit_helpers import add_offset, group_barrier


@dataclass(frozen=True)
class Config:
    ranks: int = 2
    cols: int = 16
    capacity: int = 64


CFG = Config()
NR = CFG.ranks
COLS = CFG.cols
CAP = CFG.capacity
OFFSET = 10.0
LOCAL = pl.dynamic("LOCAL_ROWS")
GROUP = pl.dynamic("GROUP_ROWS")


@pl.jit.incore
def gather_step(
    x: pl.Tensor[[LOCAL, COLS], pl.FP32],
    out: pl.InOut[pl.Tensor[[GROUP, COLS], pl.FP32]],
    window: pld.DistributedTensor[[CAP, COLS], pl.FP32],
    signal: pld.DistributedTensor[[NR, 1], pl.INT32],
    me: pl.Scalar[pl.INT32],
):
    rows = pl.tensor.dim(x, 0)
    local = pl.cast(rows, pl.INT32)
    for peer in pl.range(NR):
        pld.tensor.put(dst=window, peer=peer, src=x, dst_offsets=[me * local, 0], src_offsets=[0, 0],
                       shape=[local, COLS], chunk_rows=4, chunk_cols=COLS)
    signal = group_barrier(signal, me, pl.cast(1, pl.INT32))
    for r in pl.range(NR * rows):
        t = pl.load(window, [r, 0], [1, COLS])
        out = pl.store(pl.adds(t, OFFSET), [r, 0], out)
    signal = group_barrier(signal, me, pl.cast(2, pl.INT32))
    return out, signal


@pl.jit
def gather_chip(
    x: pl.Tensor[[LOCAL, COLS], pl.FP32],
    out: pl.InOut[pl.Tensor[[GROUP, COLS], pl.FP32]],
    window: pld.DistributedTensor[[CAP, COLS], pl.FP32],
    signal: pld.DistributedTensor[[NR, 1], pl.INT32],
    me: pl.Scalar[pl.INT32],
):
    x.bind_dynamic(0, LOCAL)
    out.bind_dynamic(0, GROUP)
    out, signal = gather_step(x, out, window, signal, me)
    shifted = add_offset(out)
    return shifted


@pl.jit.host
def gather_host(
    x: pl.Tensor[[NR, LOCAL, COLS], pl.FP32],
    out: pl.InOut[pl.Tensor[[NR, GROUP, COLS], pl.FP32]],
):
    x.bind_dynamic(1, LOCAL)
    out.bind_dynamic(1, GROUP)
    window_buf = pld.alloc_window_buffer([CAP, COLS], dtype=pl.FP32)
    signal_buf = pld.alloc_window_buffer([NR, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        window = pld.window(window_buf, [CAP, COLS], dtype=pl.FP32)
        signal = pld.window(signal_buf, [NR, 1], dtype=pl.INT32)
        gather_chip(x[r], out[r], window, signal, r, device=r)
