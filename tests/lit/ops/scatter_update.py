# pl.scatter_update (PyPTO's tile.scatter_update / tensor.scatter_update): a copy of the input whose row
# idx[k] (k over the [b, s] index, row-major) is src's row k, a repeated row keeping the last write; on
# Vec tiles (FP32, FP16) and on GM tensors, 2-D and 4-D ([blocks, block_size, 1, d], a paged KV cache's
# layout, whose rows count over its first two dims). Golden values from numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/base.npy "-(np.arange(2*32*16, dtype=np.float32).reshape(2, 32, 16) + 1)"
# RUN: %numpy %S/Inputs/npy.py save %t/idx.npy "np.array([[[31, 5, 20, 3], [5, 0, 9, 30]]] * 2, dtype=np.int32)"
# RUN: %numpy %S/Inputs/npy.py save %t/src.npy "np.arange(2*8*16, dtype=np.float32).reshape(2, 8, 16) + 100"
# RUN: ptodist run %s --ranks 2 --in base=%t/base.npy --in idx=%t/idx.npy --in src=%t/src.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t tiled "(lambda o: ([o[r].__setitem__(idx[r].reshape(-1)[k], src[r, k]) for r in range(2) for k in range(8)], o)[1])(base.copy())"
# RUN: %numpy %S/Inputs/npy.py check %t tiled16 "(lambda o: ([o[r].__setitem__(idx[r].reshape(-1)[k], src[r, k]) for r in range(2) for k in range(8)], o)[1])(base.copy()).astype(np.float16)"
# RUN: %numpy %S/Inputs/npy.py check %t tensor2d "(lambda o: ([o[r].__setitem__(idx[r].reshape(-1)[k], src[r, k]) for r in range(2) for k in range(8)], o)[1])(base.copy())"
# RUN: %numpy %S/Inputs/npy.py check %t paged "(lambda o: ([o[r].__setitem__(idx[r].reshape(-1)[k], src[r, k]) for r in range(2) for k in range(8)], o)[1])(base.copy()).reshape(2, 4, 8, 1, 16)"
# RUN: ptodist run %s --ranks 2 --in base=%t/base.npy --in idx=%t/idx.npy --in src=%t/src.npy --mode check
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
# An index outside the input's rows is a located run-time error, never a write past it.
# RUN: %numpy %S/Inputs/npy.py save %t/bad.npy "np.full((2, 2, 4), 32, dtype=np.int32)"
# RUN: not ptodist run %s --ranks 2 --in base=%t/base.npy --in idx=%t/bad.npy --in src=%t/src.npy --out-dir %t/bad 2>&1 | FileCheck %s --check-prefix=BAD
# BAD: scatter_update.py:[[@LINE+21]]:{{[0-9]+}}: error: pl.tile.scatter_update: index 32 at [0, 0] is outside [0, 32)
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2


@pl.jit.incore
def update_rows(
    base: pl.Tensor[[32, 16], pl.FP32],
    idx: pl.Tensor[[2, 4], pl.INT32],
    src: pl.Tensor[[8, 16], pl.FP32],
    tiled: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
    tiled16: pl.Out[pl.Tensor[[32, 16], pl.FP16]],
    tensor2d: pl.Out[pl.Tensor[[32, 16], pl.FP32]],
    paged: pl.Out[pl.Tensor[[4, 8, 1, 16], pl.FP32]],
):
    b = pl.load(base, [0, 0], [32, 16])
    i = pl.load(idx, [0, 0], [2, 4])
    s = pl.load(src, [0, 0], [8, 16])
    # IR: t = pl.tile.scatter_update(b, dim=-2, index=i, src=s)
    t = pl.tile.scatter_update(b, dim=-2, index=i, src=s)
    tiled = pl.store(t, [0, 0], tiled)
    h = pl.tile.scatter_update(pl.cast(b, pl.FP16), -2, i, pl.cast(s, pl.FP16))
    tiled16 = pl.store(h, [0, 0], tiled16)
    # IR: u = pl.scatter_update(base, dim=-2, index=idx, src=src)
    u = pl.scatter_update(base, -2, idx, src)
    tensor2d = pl.assemble(tensor2d, u, [0, 0])
    cache = pl.reshape(base, [4, 8, 1, 16])
    rows = pl.reshape(src, [2, 4, 1, 16])
    # IR: p = pl.tensor.scatter_update(cache, dim=-2, index=idx, src=rows)
    p = pl.tensor.scatter_update(cache, -2, idx, rows)
    paged = pl.assemble(paged, p, [0, 0, 0, 0])
    return tiled, tiled16, tensor2d, paged


@pl.jit.host
def scatter_update(
    base: pl.Tensor[[N_RANKS, 32, 16], pl.FP32],
    idx: pl.Tensor[[N_RANKS, 2, 4], pl.INT32],
    src: pl.Tensor[[N_RANKS, 8, 16], pl.FP32],
    tiled: pl.Out[pl.Tensor[[N_RANKS, 32, 16], pl.FP32]],
    tiled16: pl.Out[pl.Tensor[[N_RANKS, 32, 16], pl.FP16]],
    tensor2d: pl.Out[pl.Tensor[[N_RANKS, 32, 16], pl.FP32]],
    paged: pl.Out[pl.Tensor[[N_RANKS, 4, 8, 1, 16], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        update_rows(base[r], idx[r], src[r], tiled[r], tiled16[r], tensor2d[r], paged[r], device=r)
