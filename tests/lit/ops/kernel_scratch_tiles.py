# Kernel-local scratch tensors and the sort / gather values as Vec tiles, as pypto-lib's deepseek gate.py
# routes tokens (its route_hash and route_sort kernels): a pl.create_tensor scratch filled by pl.write or
# by row slice-assigns, read by pl.read and by the index-form pl.gather; the top-k of a row by sort32 and
# two merges. convert-tensor-to-tile makes each scratch a pl.create_tile in Vec, its readers tile ops
# (pl.tile.write / pl.tile.read, a pl.load of it the tile), the sorts tile sorts on loaded rows (the 2-way
# merge with the destination tile PyPTO's conversion makes), the mask gather pl.tile.gather_mask, and the
# index gather PyPTO's a2a3 loop of single-row pl.tile.gathers; a merge that redefines its source gets a
# variable of its own (the device's merge cannot run in place). Results are numpy's, in fast and check
# mode, and every kernel lowers to PTO.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/input_ids.npy "np.array([3, 17, 5, 0, 31, 8, 12, 3], np.int64)"
# RUN: %numpy %S/Inputs/npy.py save %t/tid2eid.npy "((np.arange(32 * 6).reshape(32, 6) * 37) % 256).astype(np.int32)"
# RUN: %numpy %S/Inputs/npy.py save %t/biased.npy "((np.arange(8 * 256).reshape(8, 256) * 97) % 2048).astype(np.float32) / 8"
# RUN: %numpy %S/Inputs/npy.py save %t/scores.npy "((np.arange(8 * 256).reshape(8, 256) * 13) % 64 + 1).astype(np.float32) / 4"
# RUN: ptodist run %s --ranks 1 --in input_ids=%t/input_ids.npy --in tid2eid=%t/tid2eid.npy --in biased=%t/biased.npy --in scores=%t/scores.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t hi "tid2eid[input_ids]"
# RUN: %numpy %S/Inputs/npy.py check %t hw "(lambda v: v / v.sum(1, keepdims=True) * 2.5)(np.take_along_axis(scores, tid2eid[input_ids], 1))"
# RUN: %numpy %S/Inputs/npy.py check %t si "np.argsort(-biased, 1, kind='stable')[:, :6].astype(np.int32)"
# RUN: %numpy %S/Inputs/npy.py check %t sw "(lambda v: v / v.sum(1, keepdims=True) * 2.5)(np.take_along_axis(scores, np.argsort(-biased, 1, kind='stable')[:, :6], 1))"
# RUN: ptodist run %s --ranks 1 --in input_ids=%t/input_ids.npy --in tid2eid=%t/tid2eid.npy --in biased=%t/biased.npy --in scores=%t/scores.npy --mode check --runs 2
# RUN: ptodist compile %s -p specialize,convert-tensor-to-tile --emit=tile-ir | FileCheck %s
# RUN: ptodist compile %s --emit=pto | FileCheck %s --check-prefix=PTO
import pypto.language as pl

T = 8
TOPK = 6
TOPK_PAD = 8
SCORE_PAD = 256
SORT_PAD = 16
VOCAB = 32


# CHECK-LABEL: def route_hash(
# PTO-LABEL: func.func @route_hash(
@pl.jit.incore
def route_hash(
    input_ids: pl.Tensor[[T], pl.INT64],
    tid2eid: pl.Tensor[[VOCAB, TOPK], pl.INT32],
    scores: pl.Tensor[[T, SCORE_PAD], pl.FP32],
    indices: pl.Out[pl.Tensor[[T, TOPK], pl.INT32]],
    weights: pl.Out[pl.Tensor[[T, TOPK], pl.FP32]],
):
    # CHECK: idx = pl.create_tile([8, 8], pl.INT32, target_memory=pl.Mem.Vec)
    idx = pl.create_tensor([T, TOPK_PAD], dtype=pl.INT32)
    for tt in pl.range(T):
        token = pl.cast(pl.read(input_ids, [tt]), pl.INDEX)
        for k in pl.range(TOPK):
            # CHECK: pl.tile.write(idx, [tt, k], pl.read(tid2eid, [token, k]))
            # PTO: pto.tsetval
            pl.write(idx, [tt, k], pl.read(tid2eid, [token, k]))
        for pk in pl.range(TOPK, TOPK_PAD):
            pl.write(idx, [tt, pk], pl.cast(0, pl.INT32))
    # CHECK: local = pl.create_tile([8, 256], pl.FP32, target_memory=pl.Mem.Vec)
    # CHECK-NEXT: local = pl.assemble(local, pl.load(scores, [0, 0], [8, 256]), [0, 0])
    local = pl.create_tensor([T, SCORE_PAD], dtype=pl.FP32)
    local[:, :] = scores[0:T, :]
    # CHECK-NEXT: gathered = pl.create_tile([8, 8], pl.FP32, target_memory=pl.Mem.Vec)
    # CHECK-NEXT: gather_tmp = pl.create_tile([1, 8], pl.INT32, target_memory=pl.Mem.Vec)
    # CHECK-NEXT: for gather_row in pl.range(8):
    # CHECK-NEXT: gathered = pl.assemble(
    # CHECK-NEXT: gathered,
    # CHECK-NEXT: pl.tile.gather(pl.slice(local, [1, 256], [gather_row, 0]), pl.slice(idx, [1, 8], [gather_row, 0]), gather_tmp),
    # CHECK-NEXT: [gather_row, 0],
    # CHECK-NEXT: )
    # CHECK-NEXT: g = gathered
    # PTO: scf.for %gather_row
    # PTO: pto.tgather ins({{.*}}!pto.tile_buf<loc=vec, dtype=f32, rows=1, cols=256{{.*}}!pto.tile_buf<loc=vec, dtype=i32, rows=1, cols=8
    g = pl.gather(local, dim=-1, index=idx)
    gv = pl.set_validshape(g, T, TOPK)
    vals = pl.fillpad(gv, pad_value=pl.PadValue.zero)
    # CHECK: idx_read = pl.assemble(idx_read, idx, [0, 0])
    idx_read = pl.create_tensor([T, TOPK_PAD], dtype=pl.INT32)
    idx_read[:, :] = idx[:, :]
    denom = pl.reshape(pl.row_sum(vals), [T, 1])
    w = pl.mul(pl.row_expand_div(vals, denom), 2.5)
    for t in pl.range(T):
        for k in pl.range(TOPK):
            # CHECK: pl.write(indices, [t, k], pl.tile.read(idx_read, [t, k]))
            # PTO: pto.tgetval
            pl.write(indices, [t, k], pl.read(idx_read, [t, k]))
            pl.write(weights, [t, k], pl.read(w, [t, k]))
    return weights


# CHECK-LABEL: def route_sort(
# PTO-LABEL: func.func @route_sort(
@pl.jit.incore
def route_sort(
    biased: pl.Tensor[[T, SCORE_PAD], pl.FP32],
    scores: pl.Tensor[[T, SCORE_PAD], pl.FP32],
    indices: pl.Out[pl.Tensor[[T, TOPK], pl.INT32]],
    weights: pl.Out[pl.Tensor[[T, TOPK], pl.FP32]],
):
    topk_idx = pl.create_tensor([T, TOPK_PAD], dtype=pl.INT32)
    for tt in pl.range(T):
        row = biased[tt : tt + 1, :]
        # CHECK: init = pl.tile.arange(0, [1, 256], dtype=pl.UINT32)
        # CHECK-NEXT: srt = pl.sort32(pl.load(row, [0, 0], [1, 256]), init)
        # CHECK-NEXT: srt_1 = pl.mrgsort(srt, block_len=64)
        # CHECK-NEXT: mrgsort_tmp = pl.create_tile([1, 512], pl.FP32, target_memory=pl.Mem.Vec)
        # CHECK-NEXT: srt_2 = pl.mrgsort(
        # CHECK-NEXT: pl.slice(srt_1, [1, 256], [0, 0]), src1=pl.slice(srt_1, [1, 256], [0, 256]), tmp=mrgsort_tmp
        # CHECK: pairs = pl.slice(srt_2, [1, 16], [0, 0])
        # CHECK-NEXT: i = pl.tile.gather_mask(pairs, 2, output_dtype=pl.INT32)
        # CHECK-NEXT: topk_idx = pl.assemble(topk_idx, i, [tt, 0])
        # PTO: pto.tci
        # PTO: pto.tsort32
        # PTO: pto.tmrgsort ins(%srt,
        # PTO-SAME: outs(%srt_1
        # PTO: pto.tmrgsort ins(
        # PTO-SAME: outs(%srt_2, %executed_vec
        # PTO: pto.tgather ins(%pairs, {maskPattern = #pto.mask_pattern<P1010>}
        init = pl.arange(0, [1, SCORE_PAD], dtype=pl.UINT32)
        srt = pl.sort32(row, init)
        srt = pl.mrgsort(srt, block_len=64)
        srt = pl.mrgsort(srt[:, 0:256], srt[:, 256:512])
        pairs = srt[:, 0:SORT_PAD]
        i = pl.gather(pairs, mask_pattern=pl.tile.MaskPattern.P1010, output_dtype=pl.INT32)
        topk_idx[tt : tt + 1, :] = i
    local = pl.create_tensor([T, SCORE_PAD], dtype=pl.FP32)
    local[:, :] = scores[0:T, :]
    g = pl.gather(local, dim=-1, index=topk_idx)
    vals = pl.fillpad(pl.set_validshape(g, T, TOPK), pad_value=pl.PadValue.zero)
    w = pl.mul(pl.row_expand_div(vals, pl.reshape(pl.row_sum(vals), [T, 1])), 2.5)
    for t in pl.range(T):
        for k in pl.range(TOPK):
            pl.write(indices, [t, k], pl.read(topk_idx, [t, k]))
            pl.write(weights, [t, k], pl.read(w, [t, k]))
    return weights


@pl.jit
def route(
    input_ids: pl.Tensor[[T], pl.INT64],
    tid2eid: pl.Tensor[[VOCAB, TOPK], pl.INT32],
    biased: pl.Tensor[[T, SCORE_PAD], pl.FP32],
    scores: pl.Tensor[[T, SCORE_PAD], pl.FP32],
    hi: pl.Out[pl.Tensor[[T, TOPK], pl.INT32]],
    hw: pl.Out[pl.Tensor[[T, TOPK], pl.FP32]],
    si: pl.Out[pl.Tensor[[T, TOPK], pl.INT32]],
    sw: pl.Out[pl.Tensor[[T, TOPK], pl.FP32]],
):
    route_hash(input_ids, tid2eid, scores, hi, hw)
    return route_sort(biased, scores, si, sw)
