# pl.tile.extract (PyPTO's tile.extract, ISA TEXTRACT): a [rows, cols] window of a 2-D tile at
# (index_row, index_col), repacked dense into target_memory. Windows at constant and loop-variable
# offsets, a transposed strip turned into a row scale (PyPTO's st test_trans idiom), and a window of a
# partially valid tile, which is valid where the source is (the store writes those rows only).
# Golden values from numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "(np.arange(2*16*32).reshape(2, 16, 32) % 97 - 40).astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py save %t/s.npy "(np.arange(2*16*8).reshape(2, 16, 8) % 13 - 6).astype(np.float32)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in s=%t/s.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t fixed "x[:, 4:12, 8:24]"
# RUN: %numpy %S/Inputs/npy.py check %t moving "np.concatenate([x[:, 0:8, 16:32], x[:, 8:16, 16:32]], 2)"
# RUN: %numpy %S/Inputs/npy.py check %t scaled "x * s[:, :, 0:1]"
# RUN: %numpy %S/Inputs/npy.py check %t narrow "np.concatenate([x[:, 4:10, 0:16], np.zeros((2, 2, 16), np.float32)], 1)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in s=%t/s.npy --mode check
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
# RUN: ptodist compile %s --emit=pto -o %t/pto
# RUN: FileCheck %s --check-prefix=PTO < %t/pto/windows.pto
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
M = 16
K = 32


@pl.jit.incore
def windows(
    x: pl.Tensor[[M, K], pl.FP32],
    s: pl.Tensor[[M, 8], pl.FP32],
    fixed: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
    moving: pl.Out[pl.Tensor[[8, 32], pl.FP32]],
    scaled: pl.Out[pl.Tensor[[M, K], pl.FP32]],
    narrow: pl.Out[pl.Tensor[[8, 16], pl.FP32]],
):
    t = pl.load(x, [0, 0], [M, K])
    # IR: a = pl.tile.extract(t, 4, 8, [8, 16], target_memory=pl.Mem.Vec)
    # PTO: pto.textract ins(%{{[a-z0-9_]+}}, %{{[a-z0-9_]+}}, %{{[a-z0-9_]+}} : !pto.tile_buf<{{.*}}rows=16, cols=32{{.*}}>, index, index) outs(%{{[a-z0-9_]+}} : !pto.tile_buf<{{.*}}rows=8, cols=16{{.*}}>)
    a = pl.tile.extract(t, 4, 8, [8, 16], target_memory=pl.Mem.Vec)
    fixed = pl.store(a, [0, 0], fixed)
    for i in pl.range(2):
        # PTO: scf.for
        # PTO: pto.textract
        b = pl.tile.extract(t, i * 8, 16, [8, 16], target_memory=pl.MemorySpace.Vec)
        moving = pl.store(b, [0, i * 16], moving)
    strip = pl.load(s, [0, 0], [M, 8])
    strip_t = pl.transpose(strip, axis1=0, axis2=1)
    row = pl.tile.extract(strip_t, 0, 0, [1, M], target_memory=pl.Mem.Vec)
    col = pl.reshape(row, [M, 1])
    scaled = pl.store(pl.row_expand_mul(t, col), [0, 0], scaled)
    part = pl.load(x, [0, 0], [M, K], valid_shape=[10, K])
    # IR: c = pl.tile.extract(part, 4, 0, [8, 16], target_memory=pl.Mem.Vec)
    c = pl.tile.extract(part, 4, 0, [8, 16], target_memory=pl.Mem.Vec)
    narrow = pl.store(c, [0, 0], narrow)
    return fixed, moving, scaled, narrow


@pl.jit.host
def extract(
    x: pl.Tensor[[N_RANKS, M, K], pl.FP32],
    s: pl.Tensor[[N_RANKS, M, 8], pl.FP32],
    fixed: pl.Out[pl.Tensor[[N_RANKS, 8, 16], pl.FP32]],
    moving: pl.Out[pl.Tensor[[N_RANKS, 8, 32], pl.FP32]],
    scaled: pl.Out[pl.Tensor[[N_RANKS, M, K], pl.FP32]],
    narrow: pl.Out[pl.Tensor[[N_RANKS, 8, 16], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        windows(x[r], s[r], fixed[r], moving[r], scaled[r], narrow[r], device=r)
