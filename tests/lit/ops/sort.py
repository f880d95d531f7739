# pl.sort32 and pl.mrgsort as pypto-lib's deepseek gate.py takes its top-k: sort32 of a [1, 256] row with
# a pl.UINT32 index ramp gives 8 sorted blocks of (value, index) pairs, mrgsort(block_len=64) merges
# each 4 of them, and a 2-way mrgsort the two halves; the tile forms do the same with a tmp tile. Ties
# keep their order (ptodist's rule, docs/language.md), so numpy's stable argsort is the golden. Also
# pl.transpose of tiles and tensors.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "((np.arange(2*256).reshape(2, 1, 256) * 37) % 101 - 50).astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py save %t/m.npy "np.arange(2*4*8, dtype=np.float32).reshape(2, 4, 8)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in m=%t/m.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t blocks "(np.argsort(-x.reshape(2, 8, 32), axis=-1, kind='stable') + np.arange(8)[:, None] * 32).reshape(2, 1, 256).astype(np.int32)"
# RUN: %numpy %S/Inputs/npy.py check %t runs "(np.argsort(-x.reshape(2, 2, 128), axis=-1, kind='stable') + np.arange(2)[:, None] * 128).reshape(2, 1, 256).astype(np.int32)"
# RUN: %numpy %S/Inputs/npy.py check %t idx "np.argsort(-x, axis=-1, kind='stable').astype(np.int32)"
# RUN: %numpy %S/Inputs/npy.py check %t vals "-np.sort(-x, axis=-1)"
# RUN: %numpy %S/Inputs/npy.py check %t tidx "np.argsort(-x, axis=-1, kind='stable').astype(np.int32)"
# RUN: %numpy %S/Inputs/npy.py check %t tvals "-np.sort(-x, axis=-1)"
# RUN: %numpy %S/Inputs/npy.py check %t mt "m.transpose(0, 2, 1)"
# RUN: %numpy %S/Inputs/npy.py check %t mtt "m.transpose(0, 2, 1) * 2"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in m=%t/m.npy --mode check --runs 2
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
NS = 256


@pl.jit.incore
def tensor_topk(
    x: pl.Tensor[[1, NS], pl.FP32],
    blocks: pl.Out[pl.Tensor[[1, NS], pl.INT32]],
    runs: pl.Out[pl.Tensor[[1, NS], pl.INT32]],
    idx: pl.Out[pl.Tensor[[1, NS], pl.INT32]],
    vals: pl.Out[pl.Tensor[[1, NS], pl.FP32]],
):
    ramp = pl.arange(0, [1, NS], dtype=pl.UINT32)
    # IR: s = pl.sort32(x, ramp)
    s = pl.sort32(x, ramp)
    blocks = pl.assemble(blocks, pl.gather(s, mask_pattern=pl.tile.MaskPattern.P1010, output_dtype=pl.INT32), [0, 0])
    # IR: s = pl.mrgsort(s, block_len=64)
    s = pl.mrgsort(s, block_len=64)
    runs = pl.assemble(runs, pl.gather(s, mask_pattern=pl.tile.MaskPattern.P1010, output_dtype=pl.INT32), [0, 0])
    # A new name: the merged row's [1, 512] is not yet known equal to [1, NS * 2] when the file is parsed.
    # IR: merged = pl.mrgsort(pl.slice(s, [1, 256], [0, 0]), src1=pl.slice(s, [1, 256], [0, 256]))
    merged = pl.mrgsort(s[:, 0:256], s[:, 256:512])
    idx = pl.assemble(idx, pl.gather(merged, mask_pattern=pl.tile.MaskPattern.P1010, output_dtype=pl.INT32), [0, 0])
    vals = pl.assemble(vals, pl.gather(merged, mask_pattern=pl.tile.MaskPattern.P0101), [0, 0])
    return blocks, runs, idx, vals


@pl.jit.incore
def tile_topk(
    x: pl.Tensor[[1, NS], pl.FP32],
    m: pl.Tensor[[4, 8], pl.FP32],
    tidx: pl.Out[pl.Tensor[[1, NS], pl.INT32]],
    tvals: pl.Out[pl.Tensor[[1, NS], pl.FP32]],
    mt: pl.Out[pl.Tensor[[8, 4], pl.FP32]],
    mtt: pl.Out[pl.Tensor[[8, 4], pl.FP32]],
):
    r0 = pl.tile.arange(0, [1, NS // 2], dtype=pl.UINT32)
    r1 = pl.tile.arange(128, [1, NS // 2], dtype=pl.UINT32)
    h0 = pl.tile.mrgsort(pl.tile.sort32(pl.load(x, [0, 0], [1, NS // 2]), r0), block_len=64)
    h1 = pl.tile.mrgsort(pl.tile.sort32(pl.load(x, [0, NS // 2], [1, NS // 2]), r1), block_len=64)
    tmp = pl.tile.create([1, 2 * NS], pl.FP32)
    # IR: s = pl.tile.mrgsort(h0, src1=h1, tmp=tmp)
    s = pl.tile.mrgsort(h0, h1, tmp=tmp)
    ti = pl.tile.gather_mask(s, pl.tile.MaskPattern.P1010, output_dtype=pl.INT32)
    tidx = pl.store(ti, [0, 0], tidx)
    tvals = pl.store(pl.tile.gather_mask(s, pl.tile.MaskPattern.P0101), [0, 0], tvals)
    mt = pl.assemble(mt, pl.transpose(m, axis1=0, axis2=1), [0, 0])
    # IR: t = pl.tile.transpose(pl.load(m, [0, 0], [4, 8]), -1, 0)
    t = pl.tile.transpose(pl.load(m, [0, 0], [4, 8]), -1, 0)
    mtt = pl.store(pl.mul(t, 2.0), [0, 0], mtt)
    return tidx, tvals, mt, mtt


@pl.jit
def per_rank(
    x: pl.Tensor[[1, NS], pl.FP32],
    m: pl.Tensor[[4, 8], pl.FP32],
    blocks: pl.Out[pl.Tensor[[1, NS], pl.INT32]],
    runs: pl.Out[pl.Tensor[[1, NS], pl.INT32]],
    idx: pl.Out[pl.Tensor[[1, NS], pl.INT32]],
    vals: pl.Out[pl.Tensor[[1, NS], pl.FP32]],
    tidx: pl.Out[pl.Tensor[[1, NS], pl.INT32]],
    tvals: pl.Out[pl.Tensor[[1, NS], pl.FP32]],
    mt: pl.Out[pl.Tensor[[8, 4], pl.FP32]],
    mtt: pl.Out[pl.Tensor[[8, 4], pl.FP32]],
):
    tensor_topk(x, blocks, runs, idx, vals)
    return tile_topk(x, m, tidx, tvals, mt, mtt)


@pl.jit.host
def sort(
    x: pl.Tensor[[N_RANKS, 1, NS], pl.FP32],
    m: pl.Tensor[[N_RANKS, 4, 8], pl.FP32],
    blocks: pl.Out[pl.Tensor[[N_RANKS, 1, NS], pl.INT32]],
    runs: pl.Out[pl.Tensor[[N_RANKS, 1, NS], pl.INT32]],
    idx: pl.Out[pl.Tensor[[N_RANKS, 1, NS], pl.INT32]],
    vals: pl.Out[pl.Tensor[[N_RANKS, 1, NS], pl.FP32]],
    tidx: pl.Out[pl.Tensor[[N_RANKS, 1, NS], pl.INT32]],
    tvals: pl.Out[pl.Tensor[[N_RANKS, 1, NS], pl.FP32]],
    mt: pl.Out[pl.Tensor[[N_RANKS, 8, 4], pl.FP32]],
    mtt: pl.Out[pl.Tensor[[N_RANKS, 8, 4], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], m[r], blocks[r], runs[r], idx[r], vals[r], tidx[r], tvals[r], mt[r], mtt[r], device=r)
