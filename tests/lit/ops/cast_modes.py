# pl.cast's rounding modes (PyPTO's names and codes) on tiles: float32 to int32, float16 and bfloat16,
# on values at ties, past the int32, float16 and bfloat16 ranges, NaN, and in fp16's subnormals.
# Golden values from numpy (Inputs/cast_modes_golden.py); a few by hand below.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "np.array([[0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 0.3, -0.7, 3e9, -3e9, 1.00048828125, -1.00146484375, 65519.0, 65520.0, 1e-8, 2049.0, np.nan, 1e10, -1e10, 1.00390625, -1.00390625, 1.01171875, 3.4028235e38, -3.4028235e38, 0.1, -0.1, 1 / 3, 1e-40, 16777216.0, 7.0, -0.0, 2.5e-5]] * 2, dtype=np.float32).reshape(2, 1, 32)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --out-dir %t
# RUN: %numpy %S/Inputs/cast_modes_golden.py %t | FileCheck %s --check-prefix=GOLDEN
# GOLDEN: ok ints
# GOLDEN-NEXT: ok halves
# GOLDEN-NEXT: ok bhalves
# By hand: 'none' truncates to an integer; round sends ties away from zero, rint to even; 3e9 and 1e10
# saturate, NaN gives 0; 2049 is a tie in fp16 (2048 or 2050); trunc keeps 65520 finite where rint and
# round overflow; ceil and odd keep 1e-8 off zero; 1 + 2^-8 is a tie in bf16 (0x3F80 or 0x3F81).
# RUN: %numpy -c "import numpy as np; i = np.load('%t/ints.npy'); assert (i[:, 2, :10] == [1, 2, 3, -1, -2, -3, 0, -1, 2**31 - 1, -2**31]).all(), i[0, 2]; assert (i[:, 1, :6] == [0, 2, 2, 0, -2, -2]).all(), i[0, 1]; assert (i[:, 0, :8] == [0, 1, 2, 0, -1, -2, 0, 0]).all(), i[0, 0]; assert (i[:, :, 16] == 0).all() and (i[:, :, 17] == 2**31 - 1).all() and (i[:, :, 18] == -2**31).all()"
# RUN: %numpy -c "import numpy as np; h = np.load('%t/halves.npy').astype(np.float64); assert (h[:, 1, 15] == 2048).all() and (h[:, 2, 15] == 2050).all(); assert np.isinf(h[:, 1, 13]).all() and (h[:, 5, 13] == 65504).all(); assert (h[:, 1, 14] == 0).all() and (h[:, 4, 14] > 0).all() and (h[:, 6, 14] > 0).all(), h[0, :, 14]"
# RUN: %numpy -c "import numpy as np; b = np.load('%t/bhalves.npy'); assert (b[:, :, 19] == [0x3F80, 0x3F80, 0x3F81, 0x3F80, 0x3F81, 0x3F80, 0x3F81]).all(), b[0, :, 19]; assert (b[:, 1, 22] == 0x7F80).all() and (b[:, 5, 22] == 0x7F7F).all(), b[0, :, 22]"
# RUN: ptodist compile %s --emit=pto | FileCheck %s --check-prefix=PTO
# PTO: pto.tcvt ins(%{{[a-z0-9_]+}} {rmode = #pto<round_mode NONE>} :
# PTO: pto.tcvt ins(%{{[a-z0-9_]+}} {rmode = #pto<round_mode RINT>} :
# PTO: pto.tcvt ins(%{{[a-z0-9_]+}} {rmode = #pto<round_mode ROUND>} :
# PTO: pto.tcvt ins(%{{[a-z0-9_]+}} {rmode = #pto<round_mode FLOOR>} :
# PTO: pto.tcvt ins(%{{[a-z0-9_]+}} {rmode = #pto<round_mode CEIL>} :
# PTO: pto.tcvt ins(%{{[a-z0-9_]+}} {rmode = #pto<round_mode TRUNC>} :
# PTO: pto.tcvt ins(%{{[a-z0-9_]+}} {rmode = #pto<round_mode ODD>} :
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
COLS = 32


@pl.jit.incore
def cast_tiles(
    x: pl.Tensor[[1, COLS], pl.FP32],
    ints: pl.Out[pl.Tensor[[6, COLS], pl.INT32]],
    halves: pl.Out[pl.Tensor[[7, COLS], pl.FP16]],
    bhalves: pl.Out[pl.Tensor[[7, COLS], pl.BF16]],
):
    t = pl.load(x, [0, 0], [1, COLS])
    ints = pl.store(pl.cast(t, pl.INT32, mode="none"), [0, 0], ints)
    ints = pl.store(pl.cast(t, pl.INT32, mode=1), [1, 0], ints)
    ints = pl.store(pl.cast(t, pl.INT32), [2, 0], ints)
    ints = pl.store(pl.cast(t, pl.INT32, mode="floor"), [3, 0], ints)
    ints = pl.store(pl.tile.cast(t, pl.INT32, mode="ceil"), [4, 0], ints)
    ints = pl.store(pl.cast(t, target_type=pl.INT32, mode="trunc"), [5, 0], ints)
    halves = pl.store(pl.cast(t, pl.FP16, mode=0), [0, 0], halves)
    halves = pl.store(pl.cast(t, pl.FP16, mode="rint"), [1, 0], halves)
    halves = pl.store(pl.cast(t, pl.FP16, mode="round"), [2, 0], halves)
    halves = pl.store(pl.cast(t, pl.FP16, mode="floor"), [3, 0], halves)
    halves = pl.store(pl.cast(t, pl.FP16, mode="ceil"), [4, 0], halves)
    halves = pl.store(pl.cast(t, pl.FP16, mode="trunc"), [5, 0], halves)
    halves = pl.store(pl.cast(t, pl.FP16, mode="odd"), [6, 0], halves)
    bhalves = pl.store(pl.cast(t, pl.BF16, mode="none"), [0, 0], bhalves)
    bhalves = pl.store(pl.cast(t, pl.BF16, mode="rint"), [1, 0], bhalves)
    bhalves = pl.store(pl.cast(t, pl.BF16), [2, 0], bhalves)
    bhalves = pl.store(pl.cast(t, pl.BF16, mode=3), [3, 0], bhalves)
    bhalves = pl.store(pl.cast(t, pl.BF16, mode="ceil"), [4, 0], bhalves)
    bhalves = pl.store(pl.cast(t, pl.BF16, mode="trunc"), [5, 0], bhalves)
    bhalves = pl.store(pl.cast(t, pl.BF16, mode="odd"), [6, 0], bhalves)
    return ints, halves, bhalves


@pl.jit
def per_rank(
    x: pl.Tensor[[1, COLS], pl.FP32],
    ints: pl.Out[pl.Tensor[[6, COLS], pl.INT32]],
    halves: pl.Out[pl.Tensor[[7, COLS], pl.FP16]],
    bhalves: pl.Out[pl.Tensor[[7, COLS], pl.BF16]],
):
    return cast_tiles(x, ints, halves, bhalves)


@pl.jit.host
def cast_modes(
    x: pl.Tensor[[N_RANKS, 1, COLS], pl.FP32],
    ints: pl.Out[pl.Tensor[[N_RANKS, 6, COLS], pl.INT32]],
    halves: pl.Out[pl.Tensor[[N_RANKS, 7, COLS], pl.FP16]],
    bhalves: pl.Out[pl.Tensor[[N_RANKS, 7, COLS], pl.BF16]],
):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], ints[r], halves[r], bhalves[r], device=r)
