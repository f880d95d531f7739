# pl.arange (PyPTO's ci): an integer ramp along one row, ascending or descending, INT32 or INT16; the
# pl.tile. spelling makes a tile (pto.tci), pl.arange / pl.tensor.arange a GM tensor, as the rope tables
# of pypto-lib's models build it (pl.cast(pl.arange(0, [1, D], dtype=pl.INT32), target_type=pl.FP32)).
# Golden values from numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/base.npy "np.array([[5], [-7]], dtype=np.int32)"
# RUN: ptodist run %s --ranks 2 --in base=%t/base.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t up "np.tile(np.arange(3, 11, dtype=np.int32), (2, 1, 1))"
# RUN: %numpy %S/Inputs/npy.py check %t down "(base[:, :, None] - np.arange(8, dtype=np.int32)).astype(np.int32)"
# RUN: %numpy %S/Inputs/npy.py check %t half "np.tile(np.arange(-2, 14, dtype=np.int16), (2, 1, 1))"
# RUN: %numpy %S/Inputs/npy.py check %t rope "np.tile(np.arange(8, dtype=np.float32) * 0.5, (2, 1, 1))"
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
# Both forms lower to pto.tci: convert-tensor-to-tile makes the tensor ramp a tile (PyPTO's tensor.ci
# conversion), so the rope table is a tci, a cast, a muls and a store.
# RUN: ptodist compile %s --emit=pto | FileCheck %s --check-prefix=PTO
# PTO: pto.tci ins(%c3_i32 : i32) outs(%a :
# PTO: pto.tci ins(%base_val : i32) outs(%d : {{.*}} {descending = true}
# PTO: pto.tci ins(%cneg2_i16 : i16) outs(%h :
# PTO: pto.tci ins(%c0_i32 : i32) outs(%ar :
# PTO-NEXT: pto.tcvt ins(%ar
# PTO-NEXT: pto.tmuls
# PTO-NEXT: pto.partition_view %rope_view
# PTO-NEXT: pto.tstore
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
N = 8


@pl.jit.incore
def ramps(
    base: pl.Tensor[[1], pl.INT32],
    up: pl.Out[pl.Tensor[[1, N], pl.INT32]],
    down: pl.Out[pl.Tensor[[1, N], pl.INT32]],
    half: pl.Out[pl.Tensor[[1, 2 * N], pl.INT16]],
    rope: pl.Out[pl.Tensor[[1, N], pl.FP32]],
):
    # IR: a = pl.tile.arange(3, [1, N])
    a = pl.tile.arange(3, [1, N])
    up = pl.store(a, [0, 0], up)
    b0 = pl.read(base, [0])
    # IR: d = pl.tile.ci(b0, [1, N], dtype=pl.INT32, descending=True)
    d = pl.tile.ci(b0, [1, N], dtype=pl.INT32, descending=True)
    down = pl.store(d, [0, 0], down)
    # A constant start is an int in PyPTO's Python, so it takes the ramp's dtype (INT16 here).
    # IR: h = pl.tile.arange(-2, [1, 2 * N], dtype=pl.INT16)
    h = pl.tile.arange(2 * N - 18, [1, 2 * N], dtype=pl.INT16)
    half = pl.store(h, [0, 0], half)
    # IR: ar = pl.arange(0, [1, N], dtype=pl.INT32)
    ar = pl.arange(0, [1, N], dtype=pl.INT32)
    r = pl.cast(ar, target_type=pl.FP32)
    rope = pl.assemble(rope, pl.muls(r, 0.5), [0, 0])
    return up, down, half, rope


@pl.jit
def per_rank(
    base: pl.Tensor[[1], pl.INT32],
    up: pl.Out[pl.Tensor[[1, N], pl.INT32]],
    down: pl.Out[pl.Tensor[[1, N], pl.INT32]],
    half: pl.Out[pl.Tensor[[1, 2 * N], pl.INT16]],
    rope: pl.Out[pl.Tensor[[1, N], pl.FP32]],
):
    return ramps(base, up, down, half, rope)


@pl.jit.host
def arange(
    base: pl.Tensor[[N_RANKS, 1], pl.INT32],
    up: pl.Out[pl.Tensor[[N_RANKS, 1, N], pl.INT32]],
    down: pl.Out[pl.Tensor[[N_RANKS, 1, N], pl.INT32]],
    half: pl.Out[pl.Tensor[[N_RANKS, 1, 2 * N], pl.INT16]],
    rope: pl.Out[pl.Tensor[[N_RANKS, 1, N], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(base[r], up[r], down[r], half[r], rope[r], device=r)
