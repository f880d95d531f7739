# pl.tile.mrgsort / pl.tensor.mrgsort in a loop that carries the merged row, with a block_len computed
# from the loop index (PyPTO's iterative 4-way merge): 16 sorted blocks of 32, merged by 4 with
# block_len 64, then by 4 again with 256. The carried row and the merge's result may share a buffer,
# so the merge must read its source before it writes. numpy's stable argsort is the golden.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "((np.arange(2*512).reshape(2, 1, 512) * 37) %% 1009 - 500).astype(np.float32)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t vals "-np.sort(-x, axis=-1)"
# RUN: %numpy %S/Inputs/npy.py check %t idx "np.argsort(-x, axis=-1, kind='stable').astype(np.uint32)"
# RUN: %numpy %S/Inputs/npy.py check %t tvals "-np.sort(-x, axis=-1)"
# The device's merge cannot run in place, and moving the result into the carried buffer is not written
# yet: PTO is a located error, not an in-place tmrgsort.
# RUN: not ptodist compile %s --emit=pto 2>&1 | FileCheck %s --check-prefix=PTO
# PTO: mrgsort_loop.py:[[@LINE+18]]:{{[0-9]+}}: error: pl.tile.mrgsort: the result shares the buffer of 'src0' (a variable carries the merged row around a loop), and the device's merge cannot run in place
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
NS = 512


@pl.jit.incore
def merge_loop(
    x: pl.Tensor[[1, NS], pl.FP32],
    vals: pl.Out[pl.Tensor[[1, NS], pl.FP32]],
    idx: pl.Out[pl.Tensor[[1, NS], pl.UINT32]],
):
    ramp = pl.tile.arange(0, [1, NS], dtype=pl.UINT32)
    sorted_tile: pl.Tile[[1, 2 * NS], pl.FP32] = pl.tile.sort32(pl.load(x, [0, 0], [1, NS]), ramp)
    for i, (row,) in pl.range(2, init_values=(sorted_tile,)):
        block_len = 1 << (6 + i * 2)
        merged: pl.Tile[[1, 2 * NS], pl.FP32] = pl.tile.mrgsort(row, block_len=block_len)
        result = pl.yield_(merged)
    vals = pl.store(pl.tile.gather_mask(result, mask_pattern=pl.tile.MaskPattern.P0101), [0, 0], vals)
    got = pl.tile.gather_mask(result, mask_pattern=pl.tile.MaskPattern.P1010, output_dtype=pl.UINT32)
    idx = pl.store(got, [0, 0], idx)
    return vals, idx


@pl.jit.incore
def tensor_merge_loop(
    x: pl.Tensor[[1, NS], pl.FP32],
    tvals: pl.Out[pl.Tensor[[1, NS], pl.FP32]],
):
    ramp = pl.arange(0, [1, NS], dtype=pl.UINT32)
    s = pl.tensor.sort32(x, ramp)
    for i, (row,) in pl.range(2, init_values=(s,)):
        merged = pl.tensor.mrgsort(row, block_len=1 << (6 + i * 2))
        result = pl.yield_(merged)
    tvals = pl.assemble(tvals, pl.tensor.gather(result, mask_pattern=pl.tile.MaskPattern.P0101), [0, 0])
    return tvals


@pl.jit
def per_rank(
    x: pl.Tensor[[1, NS], pl.FP32],
    vals: pl.Out[pl.Tensor[[1, NS], pl.FP32]],
    idx: pl.Out[pl.Tensor[[1, NS], pl.UINT32]],
    tvals: pl.Out[pl.Tensor[[1, NS], pl.FP32]],
):
    merge_loop(x, vals, idx)
    return tensor_merge_loop(x, tvals)


@pl.jit.host
def mrgsort_loop(
    x: pl.Tensor[[N_RANKS, 1, NS], pl.FP32],
    vals: pl.Out[pl.Tensor[[N_RANKS, 1, NS], pl.FP32]],
    idx: pl.Out[pl.Tensor[[N_RANKS, 1, NS], pl.UINT32]],
    tvals: pl.Out[pl.Tensor[[N_RANKS, 1, NS], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], vals[r], idx[r], tvals[r], device=r)
