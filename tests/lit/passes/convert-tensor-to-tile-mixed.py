# RUN: ptodist compile %s -p specialize,convert-tensor-to-tile --emit=tile-ir | FileCheck %s
# convert-tensor-to-tile on tensor values inside tile arithmetic (PyPTO's ConvertTensorToTileOps, where
# pl.full is a tensor too): a unified op with a tile and a tensor operand computes on tiles, the tensor
# side (a slice, a variable bound to one, a chain of tensor-level ops, a reduction, a reshape) loaded
# and converted; a slice with valid_shape is a partially valid load.
import pypto.language as pl


# CHECK-LABEL: def kernel(
@pl.jit.incore
def kernel(
    x: pl.Tensor[[12, 32], pl.FP32],
    out: pl.Out[pl.Tensor[[16, 1], pl.FP32]],
):
    # CHECK: acc = pl.full([1, 8], pl.FP32, 0.0)
    acc = pl.full([1, 8], dtype=pl.FP32, value=0.0)
    # A slice bound to a name whose uses all take tiles is a load where it is bound.
    # CHECK-NEXT: chunk = pl.load(x, [0, 0], [8, 16])
    # CHECK-NEXT: acc = pl.add(acc, pl.reshape(pl.row_sum(pl.mul(chunk, chunk)), [1, 8]))
    chunk = x[0:8, 0:16]
    acc = pl.add(acc, pl.reshape(pl.row_sum(pl.mul(chunk, chunk)), [1, 8]))
    # valid_shape: a partially valid load.
    # CHECK-NEXT: tail = pl.load(x, [8, 16], [8, 16], valid_shape=[4, 16])
    # CHECK-NEXT: acc = pl.add(acc, pl.reshape(pl.row_sum(pl.mul(tail, tail)), [1, 8]))
    tail = pl.slice(x, [8, 16], [8, 16], valid_shape=[4, 16])
    acc = pl.add(acc, pl.reshape(pl.row_sum(pl.mul(tail, tail)), [1, 8]))
    # The tensor first, inline: the result is still a tile.
    # CHECK-NEXT: acc = pl.sub(pl.reshape(pl.row_max(pl.load(x, [0, 0], [8, 16])), [1, 8]), acc)
    acc = pl.sub(pl.reshape(pl.row_max(x[0:8, 0:16]), [1, 8]), acc)
    # A broadcast of a tensor by a tile row vector.
    # CHECK-NEXT: wide = pl.row_expand_mul(pl.load(x, [0, 0], [8, 16]), pl.reshape(acc, [8, 1]))
    wide = pl.row_expand_mul(x[0:8, 0:16], pl.reshape(acc, [8, 1]))
    # CHECK-NEXT: out = pl.assemble(out, pl.row_sum(wide), [0, 0])
    out = pl.assemble(out, pl.row_sum(wide), [0, 0])
    return out
