# pl.cmp / pl.tile.cmp / pl.tile.cmps give PyPTO's packed predicate mask (UINT8, bit j % 8 of byte j / 8
# for column j, rows padded to 32 bytes, valid over the first ceil(N / 8)); pl.tile.sel / pl.sel pick
# lhs where a bit is set, rhs elsewhere; pl.concat puts two tiles side by side. The six cmp_type codes
# are checked as PyPTO's tests/st/runtime/ops/test_cmp.py does (sel of ones and zeros), the mask's bytes
# against numpy's packbits. Golden values from numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/lhs.npy "(np.arange(2 * 4 * 16).reshape(2, 4, 16) % 9 - 4).astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py save %t/rhs.npy "(np.arange(2 * 4 * 16).reshape(2, 4, 16) % 7 - 3).astype(np.float32)"
# RUN: ptodist run %s --ranks 2 --in lhs=%t/lhs.npy --in rhs=%t/rhs.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t modes "np.concatenate([lhs == rhs, lhs != rhs, lhs < rhs, lhs <= rhs, lhs > rhs, lhs >= rhs], axis=1).astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py check %t vs "np.concatenate([lhs > 0, lhs <= 1, lhs == 0], axis=1).astype(np.float32)"
# RUN: %numpy %S/Inputs/npy.py check %t picked "np.maximum(lhs, rhs)"
# RUN: %numpy %S/Inputs/npy.py check %t both "np.concatenate([lhs, rhs], axis=2)"
# RUN: %numpy %S/Inputs/npy.py check %t bits "np.pad(np.packbits(lhs > rhs, axis=2, bitorder='little'), ((0, 0), (0, 0), (0, 30)))"
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
# RUN: ptodist compile %s --emit=pto | FileCheck %s --check-prefix=PTO
# PTO: pto.tcmp ins(%{{.*}}, %{{.*}} {cmpMode = #pto<cmp eq>} : !pto.tile_buf<{{.*}}f32{{.*}}>, !pto.tile_buf<{{.*}}>) outs(%{{.*}} : !pto.tile_buf<{{.*}}i8{{.*}}>)
# PTO: pto.tsel ins(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : {{.*}}) outs(
# PTO: pto.tcmps ins(%{{.*}}, %{{.*}} {cmpMode = #pto<cmp gt>} : !pto.tile_buf<{{.*}}>, f32) outs(
# PTO: pto.tconcat ins(%{{.*}}, %{{.*}} : {{.*}}) outs(
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
M = 4
N = 16


@pl.jit.incore
def compare(
    lhs: pl.Tensor[[M, N], pl.FP32],
    rhs: pl.Tensor[[M, N], pl.FP32],
    modes: pl.Out[pl.Tensor[[6 * M, N], pl.FP32]],
    vs: pl.Out[pl.Tensor[[3 * M, N], pl.FP32]],
    picked: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    both: pl.Out[pl.Tensor[[M, 2 * N], pl.FP32]],
    bits: pl.Out[pl.Tensor[[M, 32], pl.UINT8]],
):
    a = pl.load(lhs, [0, 0], [M, N])
    b = pl.load(rhs, [0, 0], [M, N])
    one = pl.tile.full([M, N], dtype=pl.FP32, value=1.0)
    zero = pl.tile.full([M, N], dtype=pl.FP32, value=0.0)
    tmp = pl.tile.create([1, 32], dtype=pl.UINT8)
    # IR: eq = pl.tile.cmp(a, b, cmp_type=0)
    eq = pl.tile.cmp(a, b, cmp_type=0)
    ne = pl.tile.cmp(a, b, cmp_type=1)
    lt = pl.tile.cmp(a, b, cmp_type=2)
    le = pl.tile.cmp(a, b, cmp_type=3)
    gt = pl.tile.cmp(a, b, cmp_type=4)
    ge = pl.cmp(a, b, cmp_type=5)
    # IR: pl.tile.sel(eq, one, zero, tmp)
    modes = pl.store(pl.tile.sel(eq, one, zero, tmp), [0, 0], modes)
    modes = pl.store(pl.tile.sel(ne, one, zero, tmp), [M, 0], modes)
    modes = pl.store(pl.tile.sel(lt, one, zero, tmp), [2 * M, 0], modes)
    modes = pl.store(pl.tile.sel(le, one, zero, tmp), [3 * M, 0], modes)
    modes = pl.store(pl.tile.sel(gt, one, zero, tmp), [4 * M, 0], modes)
    modes = pl.store(pl.sel(ge, one, zero, tmp), [5 * M, 0], modes)
    # The unified pl.cmp with a scalar rhs is PyPTO's tile.cmps.
    pos = pl.cmp(a, 0.0, cmp_type=4)
    small = pl.tile.cmps(a, 1.0, cmp_type=3)
    nil = pl.cmps(a, 0.0)
    vs = pl.store(pl.tile.sel(pos, one, zero, tmp), [0, 0], vs)
    vs = pl.store(pl.tile.sel(small, one, zero, tmp), [M, 0], vs)
    vs = pl.store(pl.tile.sel(nil, one, zero, tmp), [2 * M, 0], vs)
    picked = pl.store(pl.tile.sel(gt, a, b, tmp), [0, 0], picked)
    # IR: pl.concat(a, b)
    both = pl.store(pl.concat(a, b), [0, 0], both)
    # Only the valid bytes of the mask are stored (2 of each row's 32): a bit per column, lowest first.
    bits = pl.store(gt, [0, 0], bits)
    return modes, vs, picked, both, bits


@pl.jit
def per_rank(
    lhs: pl.Tensor[[M, N], pl.FP32],
    rhs: pl.Tensor[[M, N], pl.FP32],
    modes: pl.Out[pl.Tensor[[6 * M, N], pl.FP32]],
    vs: pl.Out[pl.Tensor[[3 * M, N], pl.FP32]],
    picked: pl.Out[pl.Tensor[[M, N], pl.FP32]],
    both: pl.Out[pl.Tensor[[M, 2 * N], pl.FP32]],
    bits: pl.Out[pl.Tensor[[M, 32], pl.UINT8]],
):
    return compare(lhs, rhs, modes, vs, picked, both, bits)


@pl.jit.host
def cmp_sel(
    lhs: pl.Tensor[[N_RANKS, M, N], pl.FP32],
    rhs: pl.Tensor[[N_RANKS, M, N], pl.FP32],
    modes: pl.Out[pl.Tensor[[N_RANKS, 6 * M, N], pl.FP32]],
    vs: pl.Out[pl.Tensor[[N_RANKS, 3 * M, N], pl.FP32]],
    picked: pl.Out[pl.Tensor[[N_RANKS, M, N], pl.FP32]],
    both: pl.Out[pl.Tensor[[N_RANKS, M, 2 * N], pl.FP32]],
    bits: pl.Out[pl.Tensor[[N_RANKS, M, 32], pl.UINT8]],
):
    for r in pl.range(pld.world_size()):
        per_rank(lhs[r], rhs[r], modes[r], vs[r], picked[r], both[r], bits[r], device=r)
