# Scratch tensors become Vec tiles only while the kernel's tiles still fit UB: each candidate is
# accepted once plan-memory (after the pipeline names inline tile operands and adds op scratch) places
# every tile within the profile. Here four [128, 128] FP32 scratches (64 KiB each) and the 64 KiB
# staging tile of their copies: the first scratch fits beside the staging tile, a second would not
# (192 KiB > 184 KiB of a2a3 UB). The others stay GM tensors, so the program still runs on the CPU
# runtime with numpy's result, and PTO names the first scratch it cannot place.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/../ops/Inputs/npy.py save %t/x.npy "np.arange(128 * 128, dtype=np.float32).reshape(128, 128)"
# RUN: ptodist run %s --ranks 1 --in x=%t/x.npy --out-dir %t
# RUN: %numpy %S/../ops/Inputs/npy.py check %t y "np.concatenate([(x[:, 0] + x[:, 1] + x[:, 2] + x[:, 3])[:, None], np.zeros((128, 127), np.float32)], 1)"
# RUN: ptodist compile %s -p specialize,convert-tensor-to-tile --emit=tile-ir | FileCheck %s
# RUN: not ptodist compile %s --emit=pto 2>&1 | FileCheck %s --check-prefix=PTO
import pypto.language as pl

R = 128
C = 128


@pl.jit.incore
def four_scratches(x: pl.Tensor[[R, C], pl.FP32], y: pl.Out[pl.Tensor[[R, C], pl.FP32]]):
    # CHECK: a = pl.create_tile([128, 128], pl.FP32, target_memory=pl.Mem.Vec)
    # CHECK-NEXT: b = pl.create_tensor([128, 128], pl.FP32)
    # CHECK-NEXT: c = pl.create_tensor([128, 128], pl.FP32)
    # CHECK-NEXT: d = pl.create_tensor([128, 128], pl.FP32)
    a = pl.create_tensor([R, C], dtype=pl.FP32)
    # PTO: convert-tensor-to-tile-scratch-budget.py:[[@LINE+1]]:9: error: pl.create_tensor: has no PTO lowering in a kernel yet
    b = pl.create_tensor([R, C], dtype=pl.FP32)
    c = pl.create_tensor([R, C], dtype=pl.FP32)
    d = pl.create_tensor([R, C], dtype=pl.FP32)
    a[:, :] = x[:, :]
    b[:, :] = x[:, :]
    c[:, :] = x[:, :]
    d[:, :] = x[:, :]
    for i in pl.range(R):
        pl.write(y, [i, 0], pl.read(a, [i, 0]) + pl.read(b, [i, 1]) + pl.read(c, [i, 2]) + pl.read(d, [i, 3]))
    return y


@pl.jit
def scratch_budget(x: pl.Tensor[[R, C], pl.FP32], y: pl.Out[pl.Tensor[[R, C], pl.FP32]]):
    return four_scratches(x, y)
