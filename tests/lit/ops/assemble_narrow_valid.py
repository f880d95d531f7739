# pl.assemble of a GM tensor narrowed by pl.set_validshape writes only its valid region, as PyPTO's
# assemble honours the source's valid_shape: the source's columns past it hold a -1000 sentinel that
# must not reach the target (into a larger target at an offset, into one the size of the valid
# region, and through an elementwise result, which keeps the valid region). Golden values from numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "np.where(np.arange(8) < 3, np.arange(2*4*8).reshape(2, 4, 8), -1000).astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py save %t/big.npy "np.zeros((2, 8, 8), np.float32)"
# RUN: ptodist run %s --ranks 2 --in x=%t/x.npy --in big=%t/big.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t big "np.pad(x[:, :, :3], ((0, 0), (2, 2), (1, 4)))"
# RUN: %numpy %S/Inputs/npy.py check %t exact "x[:, :, :3]"
# RUN: %numpy %S/Inputs/npy.py check %t plus_one "x[:, :, :3] + 1"
# RUN: %numpy %S/Inputs/npy.py check %t summed "x[:, :, :3] * 2"
# In a kernel the narrowing is the tile op on x's tile (convert-tensor-to-tile, as PyPTO converts
# tensor.set_validshape): the narrowed tile and what is computed from it carry the valid region, and
# the assembles store only it.
# RUN: ptodist compile %s --emit=tile-ir | FileCheck %s
# CHECK: tile: pl.Tile{{\[\[}}4, 8], pl.FP32, pl.Mem.Vec, addr={{[0-9]+}}{{]}} = pl.load(x, [0, 0], [4, 8])
# CHECK-NEXT: narrowed: pl.Tile{{\[\[}}4, 8], pl.FP32, pl.Mem.Vec, valid_shape=[4, 3], addr={{[0-9]+}}{{]}} = pl.set_validshape(tile, 4, 3)
# CHECK: pl.Tile{{\[\[}}4, 8], pl.FP32, pl.Mem.Vec, valid_shape=[4, 3], addr={{[0-9]+}}{{]}} = pl.adds(narrowed, 1.0)
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2


@pl.jit.incore
def narrow_writes(
    x: pl.Tensor[[4, 8], pl.FP32],
    big: pl.InOut[pl.Tensor[[8, 8], pl.FP32]],
    exact: pl.Out[pl.Tensor[[4, 3], pl.FP32]],
    plus_one: pl.Out[pl.Tensor[[4, 3], pl.FP32]],
    summed: pl.Out[pl.Tensor[[4, 3], pl.FP32]],
):
    narrowed = pl.set_validshape(x, 4, 3)
    big = pl.assemble(big, narrowed, [2, 1])
    exact = pl.assemble(exact, narrowed, [0, 0])
    plus_one = pl.assemble(plus_one, pl.add(narrowed, 1.0), [0, 0])
    summed = pl.assemble(summed, pl.add(narrowed, pl.tensor.set_validshape(x, 4, 3)), [0, 0])
    return big, exact, plus_one, summed


@pl.jit
def per_rank(
    x: pl.Tensor[[4, 8], pl.FP32],
    big: pl.InOut[pl.Tensor[[8, 8], pl.FP32]],
    exact: pl.Out[pl.Tensor[[4, 3], pl.FP32]],
    plus_one: pl.Out[pl.Tensor[[4, 3], pl.FP32]],
    summed: pl.Out[pl.Tensor[[4, 3], pl.FP32]],
):
    return narrow_writes(x, big, exact, plus_one, summed)


@pl.jit.host
def assemble_narrow_valid(
    x: pl.Tensor[[N_RANKS, 4, 8], pl.FP32],
    big: pl.InOut[pl.Tensor[[N_RANKS, 8, 8], pl.FP32]],
    exact: pl.Out[pl.Tensor[[N_RANKS, 4, 3], pl.FP32]],
    plus_one: pl.Out[pl.Tensor[[N_RANKS, 4, 3], pl.FP32]],
    summed: pl.Out[pl.Tensor[[N_RANKS, 4, 3], pl.FP32]],
):
    for r in pl.range(pld.world_size()):
        per_rank(x[r], big[r], exact[r], plus_one[r], summed[r], device=r)
