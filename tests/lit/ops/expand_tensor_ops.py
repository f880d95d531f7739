# The tensor-level forms of the broadcast family, as pypto-lib's RMSNorm writes them:
# pl.col_expand_mul(pl.row_expand_mul(x, inv_rms), gamma) on GM tensors. Golden values from numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "(np.arange(2*4*8, dtype=np.float32).reshape(2, 4, 8) % 5 + 1) / 4"
# RUN: %numpy %S/Inputs/npy.py save %t/s.npy "np.arange(2*4, dtype=np.float32).reshape(2, 4, 1) + 1"
# RUN: %numpy %S/Inputs/npy.py save %t/g.npy "np.arange(2*8, dtype=np.float32).reshape(2, 1, 8) / 8"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in s=%t/s.npy --in g=%t/g.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t y "x * s * g + (s + 0 * x) - np.exp(x - g)"
# In PTO the tensor-level forms compute on tiles (convert-tensor-to-tile): each GM operand is loaded,
# each op is its tile op, and the assembled value is stored.
# RUN: ptodist compile %s --emit=pto | FileCheck %s --check-prefix=PTO
# PTO: pto.tload ins(%x_pview : !pto.partition_tensor_view<4x8xf32>) outs(%tile :
# PTO: pto.tload ins(%s_pview : !pto.partition_tensor_view<4x1xf32>) outs(%tile_1 :
# PTO-NEXT: pto.trowexpandmul ins(%tile, %tile_1 : {{.*}}) outs(%tile_2 :
# PTO: pto.tload ins(%g_pview : !pto.partition_tensor_view<1x8xf32>) outs(%tile_3 :
# PTO-NEXT: pto.tcolexpandmul ins(%tile_2, %tile_3 : {{.*}}) outs(%normed :
# PTO: pto.trowexpand ins(%tile_5 : {{.*}}) outs(%spread :
# PTO: pto.tcolexpandexpdif ins(%tile_6, %tile_7 : {{.*}}) outs(%e :
# PTO-NEXT: pto.tadd ins(%normed, %spread : {{.*}}) outs(%tile_8 :
# PTO-NEXT: pto.tsub ins(%tile_8, %e : {{.*}}) outs(%tile_9 :
# PTO-NEXT: %y_pview = pto.partition_view %y_view, offsets = [%c0, %c0], sizes = [%c4, %c8]
# PTO-NEXT: pto.tstore ins(%tile_9 : {{.*}}) outs(%y_pview : !pto.partition_tensor_view<4x8xf32>)
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
ROWS = 4
COLS = 8


@pl.jit.incore
def expand_tensors(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    s: pl.Tensor[[ROWS, 1], pl.FP32],
    g: pl.Tensor[[1, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    normed = pl.col_expand_mul(pl.row_expand_mul(x, s), g)
    spread = pl.tensor.row_expand(x, s)
    e = pl.tensor.col_expand_expdif(x, g)
    y = pl.assemble(y, pl.sub(pl.add(normed, spread), e), [0, 0])
    return y


@pl.jit
def per_rank(
    x: pl.Tensor[[ROWS, COLS], pl.FP32],
    s: pl.Tensor[[ROWS, 1], pl.FP32],
    g: pl.Tensor[[1, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[ROWS, COLS], pl.FP32]],
):
    return expand_tensors(x, s, g, y)


@pl.jit.host
def expand_tensor_ops(
    x: pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32],
    s: pl.Tensor[[N_RANKS, ROWS, 1], pl.FP32],
    g: pl.Tensor[[N_RANKS, 1, COLS], pl.FP32],
    y: pl.Out[pl.Tensor[[N_RANKS, ROWS, COLS], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], s[r], g[r], y[r], device=r)
