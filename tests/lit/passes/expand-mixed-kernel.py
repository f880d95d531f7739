# expand-mixed-kernel (PyPTO's ExpandMixedKernel): an InCore kernel that needs the cube and the vector core
# becomes an AIC kernel, an AIV kernel and a Group under the kernel's name. `gate` (pypto-lib's gate.py
# shape: a split-K matmul in a pipelined loop, then vector work on the logits, submitted on 2 blocks)
# hands the Acc tile to the vector core; `scaled_mm` also hands a UB tile to the cube, so its pipe runs
# both ways. Goldens from numpy in fast and check mode (small integers / 4: every float sum is exact);
# then the split IR, the PTO text and the manifest's Groups.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/../ops/Inputs/npy.py save %t/x.npy "((np.arange(16*64).reshape(16, 64) * 5) % 9 - 4).astype(np.float16) / 4"
# RUN: %numpy %S/../ops/Inputs/npy.py save %t/w.npy "((np.arange(64*64).reshape(64, 64) * 3) % 7 - 3).astype(np.float16) / 4"
# RUN: %numpy %S/../ops/Inputs/npy.py save %t/rs.npy "(np.arange(16).reshape(16, 1) % 3 + 1).astype(np.float32) / 2"
# RUN: %numpy %S/../ops/Inputs/npy.py save %t/bias.npy "(np.arange(64) % 5 - 2).astype(np.float32)"
# RUN: %numpy %S/../ops/Inputs/npy.py save %t/a.npy "((np.arange(16*32).reshape(16, 32) * 5) % 9 - 4).astype(np.float32) / 4"
# RUN: %numpy %S/../ops/Inputs/npy.py save %t/b.npy "((np.arange(32*16).reshape(32, 16) * 3) % 7 - 3).astype(np.float32) / 4"
# RUN: ptodist run %s --entry main --in x=%t/x.npy --in w=%t/w.npy --in rs=%t/rs.npy --in bias=%t/bias.npy --in a=%t/a.npy --in b=%t/b.npy --out-dir %t
# RUN: %numpy %S/../ops/Inputs/npy.py check %t y "np.maximum((x.astype(np.float32) @ w.astype(np.float32).T) * rs, 0) + bias[None, :]"
# RUN: %numpy %S/../ops/Inputs/npy.py check %t z "(2 * a) @ b + 1"
# RUN: ptodist run %s --entry main --in x=%t/x.npy --in w=%t/w.npy --in rs=%t/rs.npy --in bias=%t/bias.npy --in a=%t/a.npy --in b=%t/b.npy --mode check --runs 3 | FileCheck %s --check-prefix=CHECKMODE
# RUN: ptodist compile %s -p specialize,convert-tensor-to-tile,name-tile-operands,expand-mixed-kernel --emit=tile-ir | FileCheck %s
# RUN: ptodist compile %s --emit=pto | FileCheck %s --check-prefix=PTO
# RUN: ptodist compile %s --emit=pto -o %t/pto && FileCheck %s --check-prefix=MANIFEST < %t/pto/manifest.json
import pypto.language as pl

M = 16
N = 32
K = 64
KT = 32
NB = 2

# CHECKMODE: check mode: 3 run(s), seeds 1..3: no hazard


@pl.program
class Mixed:
    # The cube half: pipe set-up, the matmul loop, the push; the bias load stays on the vector half.
    # CHECK-LABEL: def gate_aic(
    # CHECK-NEXT: self,
    # CHECK: ):
    # CHECK-NEXT: gate_c2v_slot_buffer_import = pl.import_peer_buffer(name="gate_c2v_slot_buffer", peer_func="gate_aiv")
    # CHECK-NEXT: pl.aic_initialize_pipe(
    # CHECK-NEXT: c2v_consumer_buf=gate_c2v_slot_buffer_import,
    # CHECK-NEXT: v2c_consumer_buf=0,
    # CHECK-NEXT: dir_mask=1,
    # CHECK-NEXT: slot_size=2048,
    # CHECK-NEXT: slot_num=2,
    # CHECK-NEXT: )
    # CHECK-NEXT: blk = pl.tile.get_block_idx()
    # CHECK-NEXT: n0 = blk * 32
    # CHECK-NOT: pl.load(bias
    # CHECK: for kb in pl.pipeline(2, stage=2):
    # CHECK: logits = pl.matmul_acc(
    # CHECK-NEXT: pl.tpush_to_aiv(logits, split=0)
    # CHECK-NOT: = pl.
    # CHECK-LABEL: def gate_aiv(
    # CHECK: gate_c2v_slot_buffer = pl.reserve_buffer(name="gate_c2v_slot_buffer", size=4096)
    # CHECK-NEXT: pl.aiv_initialize_pipe(
    # CHECK-NEXT: c2v_consumer_buf=gate_c2v_slot_buffer, v2c_consumer_buf=0, dir_mask=1, slot_size=2048, slot_num=2
    # CHECK-NEXT: )
    # CHECK-NEXT: blk = pl.tile.get_block_idx()
    # CHECK-NEXT: n0 = blk * 32
    # CHECK-NEXT: tile = pl.load(bias, [n0], [32])
    # CHECK-NOT: pl.matmul
    # CHECK: [[POP:tile_[0-9]+]] = pl.tpop_from_aic(shape=[16, 32], dtype=pl.FP32, split=0)
    # The slot is freed after the popped tile's last use.
    # CHECK: logits_1 = pl.row_expand_mul([[POP]],
    # CHECK-NEXT: pl.tfree_to_aic([[POP]])
    # CHECK: y = pl.assemble(y,
    # CHECK-LABEL: def gate(
    # CHECK: ):
    # CHECK-NEXT: self.gate_aic(bias, x, w, rs, y)
    # CHECK-NEXT: self.gate_aiv(bias, x, w, rs, y)
    #
    # A UB tile for the cube pops into L1, then moves on to L0A; the pipe runs both ways.
    # CHECK-LABEL: def scaled_mm_aic(
    # CHECK: scaled_mm_v2c_slot_buffer = pl.reserve_buffer(name="scaled_mm_v2c_slot_buffer", size=4096)
    # CHECK: dir_mask=3,
    # CHECK: al_mat = pl.tpop_from_aiv(shape=[16, 32], dtype=pl.FP32, split=0)
    # CHECK-NEXT: al = pl.move(al_mat, pl.Mem.Left)
    # CHECK-NEXT: pl.tfree_to_aiv(al_mat)
    # CHECK: pl.tpush_to_aiv(acc, split=0)
    # CHECK-LABEL: def scaled_mm_aiv(
    # CHECK: pl.tpush_to_aic(aa, split=0)
    # CHECK: return z
    # The Group returns the parameter the kernel wrote (PyPTO's param-return).
    # CHECK-LABEL: def scaled_mm(
    # CHECK: self.scaled_mm_aic(a, b, z)
    # CHECK-NEXT: self.scaled_mm_aiv(a, b, z)
    # CHECK-NEXT: return z

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[M, K], pl.FP16],
        w: pl.Tensor[[N * NB, K], pl.FP16],
        rs: pl.Tensor[[M, 1], pl.FP32],
        bias: pl.Tensor[[N * NB], pl.FP32],
        y: pl.Out[pl.Tensor[[M, N * NB], pl.FP32]],
        a: pl.Tensor[[16, 32], pl.FP32],
        b: pl.Tensor[[32, 16], pl.FP32],
        z: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ):
        for blk in pl.spmd(NB, name_hint="gate"):
            n0 = blk * N
            brow = pl.reshape(bias[n0 : n0 + N], [1, N])
            logits = pl.create_tensor([M, N], dtype=pl.FP32)
            for kb in pl.pipeline(0, K // KT, stage=2):
                k0 = kb * KT
                xk = x[:, k0 : k0 + KT]
                wk = w[n0 : n0 + N, k0 : k0 + KT]
                if k0 == 0:
                    logits = pl.matmul(xk, wk, out_dtype=pl.FP32, b_trans=True)
                else:
                    logits = pl.matmul_acc(logits, xk, wk, b_trans=True)
            logits = pl.row_expand_mul(logits, rs[:, 0:1])
            r = pl.maximum(logits, 0.0)
            full = pl.col_expand_mul(pl.full([M, N], dtype=pl.FP32, value=1.0), brow)
            y[:, n0 : n0 + N] = pl.add(r, full)
        z = self.scaled_mm(a, b, z)

    @pl.function(type=pl.FunctionType.InCore)
    def scaled_mm(
        self,
        a: pl.Tensor[[16, 32], pl.FP32],
        b: pl.Tensor[[32, 16], pl.FP32],
        z: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ) -> pl.Tensor[[16, 16], pl.FP32]:
        aa = pl.muls(pl.load(a, [0, 0], [16, 32]), 2.0)
        al = pl.move(aa, target_memory=pl.Mem.Left)
        br = pl.move(pl.load(b, [0, 0], [32, 16], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
        acc = pl.matmul(al, br)
        zz = pl.adds(pl.move(acc, target_memory=pl.Mem.Vec), 1.0)
        z = pl.store(zz, [0, 0], z)
        return z


# The popped tile has no pto.alloc_tile of its own: it lives in the reserved slot buffer.
# PTO-LABEL: func.func @gate_aic(
# PTO: pto.import_reserved_buffer {name = "gate_c2v_slot_buffer", peer_func = @gate_aiv} -> i32
# PTO: pto.aic_initialize_pipe {dir_mask = 1, slot_size = 2048, slot_num = 2}
# PTO: pto.tmatmul.acc
# PTO: pto.tpush_to_aiv(%logits : !pto.tile_buf<loc=acc, {{.*}}>) {split = 0}
# PTO-LABEL: func.func @gate_aiv(
# PTO: pto.reserve_buffer {name = "gate_c2v_slot_buffer", size = 4096, location = #pto.address_space<vec>, auto = false, base = {{[0-9]+}}} -> i32
# PTO: pto.aiv_initialize_pipe {dir_mask = 1, slot_size = 2048, slot_num = 2}
# PTO: = pto.tpop_from_aic {split = 0} -> !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=32
# PTO: pto.trowexpandmul
# PTO-NEXT: pto.tfree_from_aic {split = 0}
# PTO-LABEL: func.func @scaled_mm_aic(
# PTO: %al_mat = pto.tpop_from_aiv {split = 0} -> !pto.tile_buf<loc=mat
# PTO-LABEL: func.func @scaled_mm_aiv(
# PTO: pto.tpush_to_aic(%aa : !pto.tile_buf<loc=vec, {{.*}}>) {split = 0}

# MANIFEST: "groups": [
# MANIFEST-NEXT: {
# MANIFEST-NEXT: "name": "gate",
# MANIFEST-NEXT: "kernels": [
# MANIFEST-NEXT: "gate_aic",
# MANIFEST-NEXT: "gate_aiv"
# MANIFEST: "name": "scaled_mm",
# MANIFEST-NEXT: "kernels": [
# MANIFEST-NEXT: "scaled_mm_aic",
# MANIFEST-NEXT: "scaled_mm_aiv"
