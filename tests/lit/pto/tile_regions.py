# Valid regions and windows of tiles in PTO, as PyPTO's backend writes them: pl.fillpad is pto.tfillpad
# into a tile whose type carries the pad value (pad=1 zero, 2 max, 3 min), pl.set_validshape narrows its
# operand's own buffer (pto.set_validshape; the operand is allocated at its definition with dynamic valid
# dims, and the result names the same buffer), pl.tile.assemble into a tile moves the source into a
# pto.subview window of the target, a slice of a tile is a pto.subview window copied into the result,
# and a transpose is pto.ttrans with the scratch add-op-scratch gave it. The CPU run of the same kernel is
# checked against numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/../ops/Inputs/npy.py save %t/x.npy "np.arange(4*8, dtype=np.float32).reshape(1, 4, 8) - 10"
# RUN: %numpy %S/../ops/Inputs/npy.py save %t/y.npy "np.arange(8*8, dtype=np.float32).reshape(1, 8, 8) * 0.5"
# RUN: ptodist run %s --program tile_regions --ranks 1 --in x=%t/x.npy --in y=%t/y.npy --out-dir %t
# RUN: %numpy %S/../ops/Inputs/npy.py check %t out "np.concatenate([np.where((np.arange(4)[:, None] < 2) & (np.arange(8) < 5), x[0], 0)[None], np.where((np.arange(4)[:, None] < 2) & (np.arange(8) < 5), x[0], -np.inf)[None]], axis=1).astype(np.float32)"
# RUN: %numpy %S/../ops/Inputs/npy.py check %t row "np.where(np.arange(8) < 3, x[0, 0], 0).astype(np.float32)[None, None, :]"
# RUN: %numpy %S/../ops/Inputs/npy.py check %t part "y[:, :, :].transpose(0, 2, 1)[:, 2:4, 1:7]"
# RUN: %numpy %S/../ops/Inputs/npy.py check %t total "y[:, 0:1, :].sum(axis=2, keepdims=True)"
# RUN: ptodist compile %s --program tile_regions --emit=pto | FileCheck %s
# RUN: not ptodist compile %s --program UsedAfterNarrowing --emit=pto 2>&1 | FileCheck %s --check-prefix=AFTER
# RUN: not ptodist compile %s --program NarrowedInLoop --emit=pto 2>&1 | FileCheck %s --check-prefix=LOOP
# RUN: ptodist compile %s --program NarrowedInOneBranch --emit=pto | FileCheck %s --check-prefix=BRANCH
# RUN: not ptodist compile %s --program BranchesInLoop --emit=pto 2>&1 | FileCheck %s --check-prefix=BRLOOP
# RUN: not ptodist compile %s --program SliceWrittenInPlace --emit=pto 2>&1 | FileCheck %s --check-prefix=WINDOW
import pypto.language as pl

N_RANKS = 1


@pl.jit.incore
def regions(
    x: pl.Tensor[[4, 8], pl.FP32],
    y: pl.Tensor[[8, 8], pl.FP32],
    out: pl.Out[pl.Tensor[[8, 8], pl.FP32]],
    row: pl.Out[pl.Tensor[[1, 8], pl.FP32]],
    part: pl.Out[pl.Tensor[[2, 6], pl.FP32]],
    total: pl.Out[pl.Tensor[[1, 1], pl.FP32]],
):
    # The pad value is part of the fillpad result's type (pad=3: min; pad=1: zero).
    # CHECK-LABEL: func.func @regions(
    # CHECK: %p = pto.alloc_tile addr = {{%c[0-9_a-z]+}} : !pto.tile_buf<loc=vec, dtype=f32, rows=4, cols=8, v_row=4, v_col=8, blayout=row_major, slayout=none_box, fractal=512, pad=3>
    # CHECK: %z = pto.alloc_tile addr = {{%c[0-9_a-z]+}} : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=8, v_row=1, v_col=8, {{.*}}, pad=1>
    # CHECK: %transpose_tmp = pto.alloc_tile addr = {{%c[0-9_a-z]+}} : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=8, v_row=8, v_col=8,
    # set_validshape's operand is allocated at its definition, whole, with dynamic valid dims.
    # CHECK: %t = pto.alloc_tile addr = {{%c[0-9_a-z]+}} valid_row = %c4 valid_col = %c8 : !pto.tile_buf<loc=vec, dtype=f32, rows=4, cols=8, v_row=?, v_col=?, {{.*}}, pad=0>
    # CHECK-NEXT: %x_pview = pto.partition_view
    # CHECK-NEXT: pto.tload ins(%x_pview : !pto.partition_tensor_view<4x8xf32>) outs(%t :
    t = pl.load(x, [0, 0], [4, 8])
    # CHECK-NEXT: pto.set_validshape %t, %c2, %c5 : !pto.tile_buf<loc=vec, dtype=f32, rows=4, cols=8, v_row=?, v_col=?, {{.*}}, pad=0>
    v = pl.set_validshape(t, 2, 5)
    # CHECK-NEXT: pto.tfillpad ins(%t : !pto.tile_buf<{{.*}}v_row=?, v_col=?{{.*}}pad=0>) outs(%p : !pto.tile_buf<{{.*}}pad=3>)
    p = pl.fillpad(v, pad_value=pl.PadValue.min)
    # CHECK-NEXT: pto.texpands ins(%cst : f32) outs(%acc :
    acc = pl.full([8, 8], dtype=pl.FP32, value=0.0)
    # A window of the source's shape and valid region (static when constant) at the offset.
    # CHECK-NEXT: %assemble_view = pto.subview %acc[%c0, %c0] sizes [4, 8] valid [%c2, %c5] : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=8, v_row=8, v_col=8, {{.*}}> -> !pto.tile_buf<loc=vec, dtype=f32, rows=4, cols=8, v_row=2, v_col=5, {{.*}}, pad=0>
    # CHECK-NEXT: pto.tmov ins(%t : !pto.tile_buf<{{.*}}v_row=?, v_col=?{{.*}}>) outs(%assemble_view : !pto.tile_buf<loc=vec, dtype=f32, rows=4, cols=8, v_row=2, v_col=5,
    acc = pl.tile.assemble(acc, v, [0, 0])
    # CHECK-NEXT: %assemble_view_1 = pto.subview %acc[%c4, %c0] sizes [4, 8] valid [%c4, %c8] : {{.*}} -> !pto.tile_buf<loc=vec, dtype=f32, rows=4, cols=8, v_row=4, v_col=8,
    # CHECK-NEXT: pto.tmov ins(%p : {{.*}}) outs(%assemble_view_1 :
    acc = pl.tile.assemble(acc, p, [4, 0])
    # CHECK-NEXT: %out_pview = pto.partition_view %out_view, offsets = [%c0, %c0], sizes = [%c8, %c8]
    # CHECK-NEXT: pto.tstore ins(%acc :
    out = pl.store(acc, [0, 0], out)
    # CHECK-NEXT: %first = pto.alloc_tile addr = {{%c[0-9_a-z]+}} valid_row = %c1 valid_col = %c8 : !pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=8, v_row=?, v_col=?,
    first = pl.load(x, [0, 0], [1, 8])
    # CHECK: pto.set_validshape %first, %c1, %c3 :
    head = pl.set_validshape(first, 1, 3)
    # CHECK-NEXT: pto.tfillpad ins(%first : {{.*}}) outs(%z : !pto.tile_buf<{{.*}}pad=1>)
    z = pl.tile.fillpad_inplace(head)
    # CHECK: pto.tstore ins(%z :
    row = pl.store(z, [0, 0], row)
    u = pl.load(y, [0, 0], [8, 8])
    # CHECK: pto.ttrans ins(%u, %transpose_tmp : [[U:!pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=8, [^>]*>]], [[U]]) outs(%ut : !pto.tile_buf<loc=vec, dtype=f32, rows=8, cols=8,
    ut = pl.transpose(u, 0, 1)
    # CHECK-NEXT: %slice_view = pto.subview %ut[%c2, %c1] sizes [2, 6] : [[U]] -> !pto.tile_buf<loc=vec, dtype=f32, rows=2, cols=6, v_row=2, v_col=6,
    # CHECK-NEXT: pto.tmov ins(%slice_view : !pto.tile_buf<loc=vec, dtype=f32, rows=2, cols=6, {{.*}}) outs(%[[S:[a-z_0-9]+]] :
    # CHECK-NEXT: %part_pview = pto.partition_view %part_view, offsets = [%c0, %c0], sizes = [%c2, %c6]
    # CHECK-NEXT: pto.tstore ins(%[[S]] :
    part = pl.store(ut[2:4, 1:7], [0, 0], part)
    # pypto-lib's hc_pre idiom: a reshaped row sum narrowed to one element. The reshape's view has static
    # valid dims; the tile it is copied into (set_validshape's operand) dynamic ones.
    # CHECK: pto.trowsum ins(%u, %tmp_tile : {{.*}}) outs(%rs :
    # CHECK-NEXT: %[[R:tile[_0-9]*]] = pto.alloc_tile addr = {{%c[0-9_a-z]+}} valid_row = %c1 valid_col = %c8 : [[RT:!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=8, v_row=\?, v_col=\?, [^>]*>]]
    # CHECK-NEXT: %[[V:[a-z_0-9]+]] = pto.treshape %rs : {{.*}} -> [[VT:!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=8, v_row=1, v_col=8, [^>]*>]]
    # CHECK-NEXT: pto.tmov ins(%[[V]] : [[VT]]) outs(%[[R]] : [[RT]])
    # CHECK-NEXT: pto.set_validshape %[[R]], %c1, %c1 : [[RT]]
    # CHECK-NEXT: %total_pview = pto.partition_view %total_view, offsets = [%c0, %c0], sizes = [%c1, %c1]
    # CHECK-NEXT: pto.tstore ins(%[[R]] : [[RT]]) outs(%total_pview
    rs = pl.row_sum(u)
    lead = pl.set_validshape(pl.reshape(rs, [1, 8]), 1, 1)
    total = pl.store(lead, [0, 0], total)
    return out, row, part, total


@pl.jit
def per_rank(
    x: pl.Tensor[[4, 8], pl.FP32],
    y: pl.Tensor[[8, 8], pl.FP32],
    out: pl.Out[pl.Tensor[[8, 8], pl.FP32]],
    row: pl.Out[pl.Tensor[[1, 8], pl.FP32]],
    part: pl.Out[pl.Tensor[[2, 6], pl.FP32]],
    total: pl.Out[pl.Tensor[[1, 1], pl.FP32]],
):
    return regions(x, y, out, row, part, total)


@pl.jit.host
def tile_regions(
    x: pl.Tensor[[N_RANKS, 4, 8], pl.FP32],
    y: pl.Tensor[[N_RANKS, 8, 8], pl.FP32],
    out: pl.Out[pl.Tensor[[N_RANKS, 8, 8], pl.FP32]],
    row: pl.Out[pl.Tensor[[N_RANKS, 1, 8], pl.FP32]],
    part: pl.Out[pl.Tensor[[N_RANKS, 2, 6], pl.FP32]],
    total: pl.Out[pl.Tensor[[N_RANKS, 1, 1], pl.FP32]],
):
    for r in pl.range(N_RANKS):
        per_rank(x[r], y[r], out[r], row[r], part[r], total[r], device=r)


@pl.program
class UsedAfterNarrowing:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        t = pl.load(x, [0, 0], [4, 8])
        v = pl.set_validshape(t, 2, 5)
        # AFTER: tile_regions.py:[[@LINE+1]]:{{[0-9]+}}: error: 't' is used after pl.set_validshape narrowed it
        w = pl.fillpad(t)
        out = pl.store(pl.add(v, w), [0, 0], out)
        return out


@pl.program
class NarrowedInLoop:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        t = pl.load(x, [0, 0], [4, 8])
        for i in pl.range(2):
            # LOOP: tile_regions.py:[[@LINE+1]]:{{[0-9]+}}: error: 't' is used after pl.set_validshape narrowed it
            s = pl.adds(t, 1.0)
            v = pl.set_validshape(t, 2, 5)
            out = pl.store(v, [0, 0], out)
        return out


# The operand read in the other branch of the if that narrows it: that read never runs after the
# narrowing (pypto-lib's hc_pre stores the full tile in the tail branch).
@pl.program
class NarrowedInOneBranch:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[4, 8], pl.FP32], n: pl.Scalar[pl.INT32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        t = pl.load(x, [0, 0], [4, 8])
        if n == 4:
            # BRANCH: pto.set_validshape %t, %c2, %c5
            # BRANCH: pto.tstore ins(%t :
            v = pl.set_validshape(t, 2, 5)
            out = pl.store(v, [0, 0], out)
        else:
            # BRANCH: pto.tstore ins(%t :
            out = pl.store(t, [0, 0], out)
        return out


# In a loop the other branch may run in a later iteration, after the narrowing.
@pl.program
class BranchesInLoop:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[4, 8], pl.FP32], n: pl.Scalar[pl.INT32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        t = pl.load(x, [0, 0], [4, 8])
        for i in pl.range(2):
            if i == n:
                v = pl.set_validshape(t, 2, 5)
                out = pl.store(v, [0, 0], out)
            else:
                # BRLOOP: tile_regions.py:[[@LINE+1]]:{{[0-9]+}}: error: 't' is used after pl.set_validshape narrowed it
                out = pl.store(t, [0, 0], out)
        return out


# A slice written in place is a window of its source on the device (the runtime writes it back); PTO's
# copy of the window would leave the source unwritten.
@pl.program
class SliceWrittenInPlace:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        t = pl.load(x, [0, 0], [4, 8])
        # WINDOW: tile_regions.py:[[@LINE+1]]:{{[0-9]+}}: error: pl.tile.slice: a slice of a tile that is written in place afterwards
        w = pl.tile.slice(t, [2, 4], [0, 0])
        pl.tile.write(w, [0, 0], 1.0)
        out = pl.store(t, [0, 0], out)
        return out
