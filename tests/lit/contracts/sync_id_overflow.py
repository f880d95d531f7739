# RUN: ptodist check %s --verify-diagnostics
# A constant that does not fit in 64 bits is an error where it is written (issue 21: sync_id=(1 << 64)
# was accepted, wrapped to 0).
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.incore
def k(x: pl.Tensor[[1, 4], pl.FP32]):
    # expected-error@+1 {{integer overflow: 1 << 64 does not fit in 64 bits in a constant expression}}
    sess = pld.system.async_session(sync_id=(1 << 64))


@pl.jit
def chip(x: pl.Tensor[[1, 4], pl.FP32]):
    k(x)


@pl.jit.host
def host(x: pl.Tensor[[2, 1, 4], pl.FP32]):
    for r in pl.range(pld.world_size()):
        chip(x[r], device=r)
