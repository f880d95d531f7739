# RUN: ptodist compile %s --emit=ir --program host_a | FileCheck %s --check-prefix=A
# RUN: ptodist compile %s --emit=ir --program host_b | FileCheck %s --check-prefix=B
# Jit style: a program is one @pl.jit.host function plus every jit function it reaches, transitively,
# whatever the order of definition; functions it does not reach are left out.
import pypto.language as pl
import pypto.language.distributed as pld

N = 32


# A: def host_a(
# A: for r in pl.range(pld.world_size()):
# A-NEXT: chip_a(x[r], device=r)
@pl.jit.host
def host_a(x: pl.Tensor[[pl.dynamic("NR"), 1, N], pl.FP32]):
    for r in pl.range(pld.world_size()):
        chip_a(x[r], device=r)


@pl.jit
def chip_a(x: pl.Tensor[[1, N], pl.FP32]):
    kernel_a(x)


# A-DAG: def kernel_a(
# A-NOT: def kernel_b(
# B-DAG: def kernel_b(
# B-NOT: def kernel_a(
@pl.jit.incore
def kernel_a(x: pl.Tensor[[1, N], pl.FP32]):
    pass


@pl.jit.incore
def kernel_b(x: pl.Tensor[[1, N], pl.FP32]):
    pass


@pl.jit
def chip_b(x: pl.Tensor[[1, N], pl.FP32]):
    kernel_b(x)


@pl.jit.host
def host_b(x: pl.Tensor[[pl.dynamic("NR"), 1, N], pl.FP32]):
    for r in pl.range(pld.world_size()):
        chip_b(x[r], device=r)
