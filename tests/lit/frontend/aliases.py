# RUN: ptodist compile %s --emit=ir | FileCheck %s
# Any import alias maps to the canonical `pl` / `pld` spelling; host imports and host code are skipped.
from __future__ import annotations

import numpy as np
from pypto import language as L
import pypto.language.distributed as D

N = 64
# CHECK: BYTES = N * 4
BYTES = N * L.FP32.get_byte()

# CHECK-NEXT: SIZE_OF_ROW = 256
SIZE_OF_ROW = 256
host_data = np.zeros((4, N))


# CHECK-LABEL: def kernel(
# CHECK: x: pl.Tensor{{\[\[}}1, N], pl.FP32]
# CHECK: s: pld.DistributedTensor{{\[\[}}1, 1], pl.INT32]
@L.jit.incore
def kernel(x: L.Tensor[[1, N], L.FP32], y: L.Out[L.Tensor[[1, N], L.FP32]], s: D.DistributedTensor[[1, 1], L.INT32]):
    # CHECK: pl.load(x, [0, 0], [1, N], target_memory=pl.Mem.Vec)
    t = L.load(x, [0, 0], [1, N], target_memory=L.MemorySpace.Vec)
    # CHECK: pld.system.notify(s, 0, [0, 0], 1, op=pld.NotifyOp.Set)
    D.system.notify(s, 0, [0, 0], 1, op=D.NotifyOp.Set)
    y = L.store(t, [0, 0], y)
    return y


def host_main():
    data = np.ones((4, N))
    return data.sum()


if __name__ == "__main__":
    host_main()
