# `for _ in ...` loops of every builder, in a kernel, the chip orchestrator and the host orchestrator.
# Each rank's row starts from x (zeros in the test) and gains:
#   kernel: 1 per pl.range(2) x pl.unroll(3) x pl.parallel(1) x pl.pipeline(2) iteration = 12 per call;
#   chip orchestrator: calls the kernel in a `for _ in pl.range(2)` loop = 24 per chip call;
#   host orchestrator: calls the chip orchestrator in a `for _ in pl.range(2)` loop = 48.
# A dropped loop gives 0 (host), 12 or 24 instead of 48.
import pypto.language as pl
import pypto.language.distributed as pld

N = 8


@pl.jit.incore
def bump(y: pl.InOut[pl.Tensor[[1, N], pl.FP32]]):
    t = pl.load(y, [0, 0], [1, N])
    for _ in pl.range(2):
        for _ in pl.unroll(3):
            for _ in pl.parallel(1):
                for _ in pl.pipeline(2, stage=2):
                    t = pl.adds(t, 1.0)
    y = pl.store(t, [0, 0], y)
    return y


@pl.jit
def chip(y: pl.InOut[pl.Tensor[[1, N], pl.FP32]]):
    for _ in pl.range(2):
        bump(y)


@pl.jit.host
def host(y: pl.InOut[pl.Tensor[[pl.dynamic("NR"), 1, N], pl.FP32]]):
    for r in pl.range(pld.world_size()):
        for _ in pl.range(2):
            chip(y[r], device=r)
