# A Group (PyPTO's FunctionType.Group) whose AIC and AIV kernels talk through one two-way cross-core
# pipe of 2 slots: the cube pushes four matmul blocks (so it blocks on a full pipe until the vector
# kernel frees slots), the vector kernel pops each, adds 1 and stores it, then pushes x[:16] * 2 back,
# which the cube multiplies by w. Goldens from numpy: y = x @ w + 1, z = (2 x[:16]) @ w; small
# integers / 4, so every float sum is exact. The same in check mode, then the PTO text and manifest.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "((np.arange(64*16).reshape(64, 16) * 5) % 9 - 4).astype(np.float32) / 4"
# RUN: %numpy %S/Inputs/npy.py save %t/w.npy "((np.arange(16*16).reshape(16, 16) * 3) % 7 - 3).astype(np.float32) / 4"
# RUN: ptodist run %s --entry orchestrator --in x=%t/x.npy --in w=%t/w.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t y "x @ w + 1"
# RUN: %numpy %S/Inputs/npy.py check %t z "(2 * x[:16]) @ w"
# RUN: ptodist run %s --entry orchestrator --in x=%t/x.npy --in w=%t/w.npy --mode check
# RUN: ptodist compile %s --emit=pto | FileCheck %s --check-prefix=PTO
# RUN: ptodist compile %s --emit=pto -o %t/pto && FileCheck %s --check-prefix=MANIFEST < %t/pto/manifest.json
import pypto.language as pl

SLOT = 16 * 16 * 4


@pl.program
class Pipes:
    @pl.function(type=pl.FunctionType.AIC)
    def cube(
        self,
        x: pl.Tensor[[64, 16], pl.FP32],
        w: pl.Tensor[[16, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[64, 16], pl.FP32]],
        z: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ):
        # The slot buffers go after the tiles plan-memory placed (1024 bytes of L1 here, 2048 of UB below).
        # PTO: %v2c_buf = pto.reserve_buffer {name = "v2c", size = 2048, location = #pto.address_space<mat>, auto = false, base = 1024} -> i32
        v2c_buf = pl.reserve_buffer(name="v2c", size=SLOT * 2, base=pl.AUTO)
        # PTO: %c2v_peer = pto.import_reserved_buffer {name = "c2v", peer_func = @vector} -> i32
        c2v_peer = pl.import_peer_buffer(name="c2v", peer_func="vector")
        # On a2a3 the slots ride through GM: the kernel takes PyPTO's __gm_pipe_buffer as its last argument.
        # PTO: pto.aic_initialize_pipe {dir_mask = 3, slot_size = 1024, slot_num = 2}
        # PTO-NEXT: (gm_slot_buffer = %arg4 : !pto.ptr<f32>, c2v_consumer_buf = %c2v_peer : i32, v2c_consumer_buf = %v2c_buf : i32)
        pl.aic_initialize_pipe(c2v_peer, v2c_buf, dir_mask=3, slot_size=SLOT, slot_num=2)
        b = pl.move(pl.load(w, [0, 0], [16, 16], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
        for i in pl.range(4):
            a = pl.move(pl.load(x, [i * 16, 0], [16, 16], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
            acc = pl.matmul(a, b)
            # PTO: pto.tpush_to_aiv(%acc : !pto.tile_buf<loc=acc, {{.*}}>) {split = 0}
            pl.tpush_to_aiv(acc, split=0)
        # PTO: %s = pto.tpop_from_aiv {split = 0} -> !pto.tile_buf<loc=mat, dtype=f32, rows=16, cols=16
        s: pl.Tile[[16, 16], pl.FP32, pl.Mem.Mat] = pl.tpop_from_aiv(split=0)
        r = pl.matmul(pl.move(s, target_memory=pl.Mem.Left), b)
        # PTO: pto.tfree_from_aiv {split = 0}
        pl.tfree_to_aiv(s)
        pl.store(r, [0, 0], z)

    @pl.function(type=pl.FunctionType.AIV)
    def vector(
        self,
        x: pl.Tensor[[64, 16], pl.FP32],
        w: pl.Tensor[[16, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[64, 16], pl.FP32]],
        z: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ):
        # PTO: pto.reserve_buffer {name = "c2v", size = 2048, location = #pto.address_space<vec>, auto = false, base = 2048} -> i32
        c2v_buf = pl.system.reserve_buffer(name="c2v", size=SLOT * 2)
        v2c_peer = pl.system.import_peer_buffer(name="v2c", peer_func="cube")
        # PTO: pto.aiv_initialize_pipe {dir_mask = 3, slot_size = 1024, slot_num = 2}
        pl.system.aiv_initialize_pipe(c2v_buf, v2c_peer, dir_mask=3, slot_size=SLOT, slot_num=2)
        for i in pl.range(4):
            # PTO: %t = pto.tpop_from_aic {split = 0} -> !pto.tile_buf<loc=vec, dtype=f32, rows=16, cols=16
            t: pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec] = pl.tpop_from_aic(split=0)
            u = pl.adds(t, 1.0)
            # PTO: pto.tfree_from_aic {split = 0}
            pl.system.tfree_to_aic(t)
            pl.store(u, [i * 16, 0], y)
        xs = pl.load(x, [0, 0], [16, 16])
        d = pl.add(xs, xs)
        # PTO: pto.tpush_to_aic(%d : !pto.tile_buf<loc=vec, {{.*}}>) {split = 0}
        pl.system.tpush_to_aic(d, split=0)

    @pl.function(type=pl.FunctionType.Group)
    def group(
        self,
        x: pl.Tensor[[64, 16], pl.FP32],
        w: pl.Tensor[[16, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[64, 16], pl.FP32]],
        z: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ):
        self.cube(x, w, y, z)
        self.vector(x, w, y, z)

    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestrator(
        self,
        x: pl.Tensor[[64, 16], pl.FP32],
        w: pl.Tensor[[16, 16], pl.FP32],
        y: pl.Out[pl.Tensor[[64, 16], pl.FP32]],
        z: pl.Out[pl.Tensor[[16, 16], pl.FP32]],
    ):
        self.group(x, w, y, z)


# MANIFEST: "name": "cube",
# MANIFEST: "kind": "AIC",
# MANIFEST: "core": "cube",
# The pipe's two rings of 2 slots of 1024 bytes: 1024 FP32 elements of GM.
# MANIFEST: "name": "__gm_pipe_buffer",
# MANIFEST-NEXT: "kind": "GMPipeBuffer",
# MANIFEST-NEXT: "type": "!pto.ptr<f32>",
# MANIFEST-NEXT: "direction": "Out",
# MANIFEST-NEXT: "dtype": "FP32",
# MANIFEST-NEXT: "shape": [
# MANIFEST-NEXT: 1024
# MANIFEST: "name": "vector",
# MANIFEST: "kind": "AIV",
# MANIFEST: "core": "vector",
# MANIFEST: "groups": [
# MANIFEST-NEXT: {
# MANIFEST-NEXT: "name": "group",
# MANIFEST-NEXT: "kernels": [
# MANIFEST-NEXT: "cube",
# MANIFEST-NEXT: "vector"
