# PyPTO's manual AIV split: a cube product p = a @ b is sharded to the two vector lanes of a
# pl.split_aiv region. UP_DOWN gives lane l rows [16 l, 16 l + 16), LEFT_RIGHT columns; each lane stores
# its half at its own offset. A third region adds 1 to its lane's half and hands it back to the cube with
# pl.aic_gather, which multiplies the joined tile by w. Goldens from numpy: ud = 2 (a @ b),
# lr = 3 (a @ b), back = (a @ b + 1) @ w (small integers / 4: every float sum is exact). Then check
# mode, and the IR the front end builds (the region, the mode the boundary ops take from it, also when
# spelled pl.tile.aiv_shard(x) as PyPTO's tile namespace has it).
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/a.npy "((np.arange(32*16).reshape(32, 16) * 5) % 9 - 4).astype(np.float32) / 4"
# RUN: %numpy %S/Inputs/npy.py save %t/b.npy "((np.arange(16*32).reshape(16, 32) * 3) % 7 - 3).astype(np.float32) / 4"
# RUN: %numpy %S/Inputs/npy.py save %t/w.npy "((np.arange(32*16).reshape(32, 16) * 7) % 5 - 2).astype(np.float32) / 4"
# RUN: ptodist run %s --entry main --in a=%t/a.npy --in b=%t/b.npy --in w=%t/w.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t ud "2 * (a @ b)"
# RUN: %numpy %S/Inputs/npy.py check %t lr "3 * (a @ b)"
# RUN: %numpy %S/Inputs/npy.py check %t back "(a @ b + 1) @ w"
# RUN: ptodist run %s --entry main --in a=%t/a.npy --in b=%t/b.npy --in w=%t/w.npy --mode check
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
import pypto.language as pl

M = 32
K = 16
HALF = M // 2


@pl.program
class SplitAiv:
    @pl.function(type=pl.FunctionType.Opaque)
    def main(
        self,
        a: pl.Tensor[[M, K], pl.FP32],
        b: pl.Tensor[[K, M], pl.FP32],
        w: pl.Tensor[[M, K], pl.FP32],
        ud: pl.Out[pl.Tensor[[M, M], pl.FP32]],
        lr: pl.Out[pl.Tensor[[M, M], pl.FP32]],
        back: pl.Out[pl.Tensor[[M, K], pl.FP32]],
    ):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="mixed"):
            a_left = pl.move(pl.load(a, [0, 0], [M, K], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
            b_right = pl.move(pl.load(b, [0, 0], [K, M], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
            p = pl.matmul(a_left, b_right)
            # IR: for lane in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
            for lane in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
                # IR: pl.aiv_shard(p)
                rows = pl.aiv_shard(p)
                ud = pl.store(pl.mul(rows, 2.0), [lane * HALF, 0], ud)
            # IR: for lane in pl.split_aiv(2, mode=pl.SplitMode.LEFT_RIGHT):
            for lane in pl.split_aiv(2, mode=pl.SplitMode.LEFT_RIGHT):
                # IR: pl.tile.aiv_shard(p, split=2)
                cols = pl.tile.aiv_shard(p)
                lr = pl.store(pl.mul(cols, 3.0), [0, lane * HALF], lr)
            for _ in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
                plus = pl.adds(pl.aiv_shard(p), 1.0)
                # IR: pl.aic_gather(plus)
                joined = pl.aic_gather(plus)
            w_right = pl.move(pl.load(w, [0, 0], [M, K], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
            r = pl.matmul(pl.move(joined, target_memory=pl.Mem.Left), w_right)
            back = pl.store(r, [0, 0], back)
        return ud, lr, back
