# PyPTO's explicit cross-core events, two ways. `group`: a Group whose AIV kernel writes s = x + y to GM
# and raises event 3 (pl.system.sync_set, ffts_mode=2); its AIC kernel waits for it
# (pl.system.sync_wait) before it loads s and computes z = s @ w. `mixed`: one mixed kernel whose
# pl.split_aiv(mode=NONE) lanes each write their rows of x + y (lane 0 rows 0-5, lane 1 rows 6-15) and
# each raise event 5; the cube's wait needs both lanes' sets. Goldens from numpy, fast and check mode,
# then the PTO as PyPTO's codegen writes it (the region in place, its variable the lane index).
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "((np.arange(16*16).reshape(16, 16) * 5) % 9 - 4).astype(np.float32) / 4"
# RUN: %numpy %S/Inputs/npy.py save %t/y.npy "((np.arange(16*16).reshape(16, 16) * 3) % 7 - 3).astype(np.float32) / 4"
# RUN: %numpy %S/Inputs/npy.py save %t/w.npy "((np.arange(16*16).reshape(16, 16) * 7) % 5 - 2).astype(np.float32) / 4"
# RUN: %numpy %S/Inputs/npy.py save %t/ws.npy "np.zeros(256, np.int64)"
# RUN: ptodist run %s --entry orchestrator --in x=%t/x.npy --in y=%t/y.npy --in w=%t/w.npy --in ws=%t/ws.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t z "(x + y) @ w"
# RUN: %numpy %S/Inputs/npy.py check %t z2 "(x + y) @ w"
# RUN: ptodist run %s --entry orchestrator --in x=%t/x.npy --in y=%t/y.npy --in w=%t/w.npy --in ws=%t/ws.npy --mode check
# RUN: ptodist compile %s --emit=pto -o %t/pto
# RUN: FileCheck %s --check-prefix=AIV < %t/pto/vector.pto
# RUN: FileCheck %s --check-prefix=AIC < %t/pto/cube.pto
# RUN: FileCheck %s --check-prefix=MIXED < %t/pto/mixed.pto
import pypto.language as pl

N = 16
EVENT = 3


@pl.program
class Events:
    @pl.function(type=pl.FunctionType.AIV)
    def vector(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        y: pl.Tensor[[N, N], pl.FP32],
        w: pl.Tensor[[N, N], pl.FP32],
        s: pl.InOut[pl.Tensor[[N, N], pl.FP32]],
        ws: pl.Tensor[[256], pl.INT64],
        z: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ):
        # AIV: pto.set_ffts %arg4 : !pto.ptr<i64>
        pl.system.set_ffts(ws)
        t = pl.add(pl.load(x, [0, 0], [N, N]), pl.load(y, [0, 0], [N, N]))
        pl.store(t, [0, 0], s)
        # AIV: pto.sync.set <PIPE_MTE3>, 3 {ffts_mode = 2 : i32}
        pl.system.sync_set(EVENT, pipe=pl.PipeType.MTE3, ffts_mode=2)

    @pl.function(type=pl.FunctionType.AIC)
    def cube(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        y: pl.Tensor[[N, N], pl.FP32],
        w: pl.Tensor[[N, N], pl.FP32],
        s: pl.InOut[pl.Tensor[[N, N], pl.FP32]],
        ws: pl.Tensor[[256], pl.INT64],
        z: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ):
        pl.system.set_ffts(ws)
        # AIC: pto.sync.wait <PIPE_MTE2>, 3
        pl.system.sync_wait(EVENT, pipe=pl.PipeType.MTE2)
        lhs = pl.move(pl.load(s, [0, 0], [N, N], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
        rhs = pl.move(pl.load(w, [0, 0], [N, N], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
        pl.store(pl.matmul(lhs, rhs), [0, 0], z)

    @pl.function(type=pl.FunctionType.Group)
    def group(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        y: pl.Tensor[[N, N], pl.FP32],
        w: pl.Tensor[[N, N], pl.FP32],
        s: pl.InOut[pl.Tensor[[N, N], pl.FP32]],
        ws: pl.Tensor[[256], pl.INT64],
        z: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ):
        self.cube(x, y, w, s, ws, z)
        self.vector(x, y, w, s, ws, z)

    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestrator(
        self,
        x: pl.Tensor[[N, N], pl.FP32],
        y: pl.Tensor[[N, N], pl.FP32],
        w: pl.Tensor[[N, N], pl.FP32],
        ws: pl.Tensor[[256], pl.INT64],
        z: pl.Out[pl.Tensor[[N, N], pl.FP32]],
        z2: pl.Out[pl.Tensor[[N, N], pl.FP32]],
    ):
        s: pl.Tensor[[N, N], pl.FP32] = pl.create_tensor([N, N], dtype=pl.FP32)
        self.group(x, y, w, s, ws, z)
        s2: pl.Tensor[[N, N], pl.FP32] = pl.create_tensor([N, N], dtype=pl.FP32)
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="mixed"):
            pl.system.set_ffts(ws)
            # MIXED: %[[LANE:lane[0-9_]*]] = pto.get_subblock_idx
            for lane in pl.split_aiv(2, mode=pl.SplitMode.NONE):
                if lane == 0:
                    top = pl.add(pl.load(x, [0, 0], [6, N]), pl.load(y, [0, 0], [6, N]))
                    pl.store(top, [0, 0], s2)
                else:
                    rest = pl.add(pl.load(x, [6, 0], [10, N]), pl.load(y, [6, 0], [10, N]))
                    pl.store(rest, [6, 0], s2)
                # MIXED: pto.sync.set <PIPE_MTE3>, 5 {ffts_mode = 2 : i32}
                pl.system.sync_set(5, pipe=pl.PipeType.MTE3, ffts_mode=2, core_type="aiv")
            # MIXED: pto.sync.wait <PIPE_MTE2>, 5
            pl.system.sync_wait(5, pipe=pl.PipeType.MTE2, core_type="aic")
            lhs = pl.move(pl.load(s2, [0, 0], [N, N], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
            rhs = pl.move(pl.load(w, [0, 0], [N, N], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
            z2 = pl.store(pl.matmul(lhs, rhs), [0, 0], z2)
