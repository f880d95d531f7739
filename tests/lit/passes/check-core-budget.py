# RUN: ptodist check %s --verify-diagnostics
# Kernels in one manual_scope that wait on each other must be resident together: with constant
# core counts, going over the chip's vector (or cube) cores is a compile-time error, not a hang.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.incore
def producer(sig: pld.DistributedTensor[[1, 1], pl.INT32]):
    ctx = pld.get_comm_ctx(sig)
    pld.system.notify(sig, pld.rank(ctx), [0, 0], 1, op=pld.NotifyOp.AtomicAdd)


@pl.jit.incore
def consumer(sig: pld.DistributedTensor[[1, 1], pl.INT32]):
    pld.system.wait(sig, [0, 0], 1, cmp=pld.WaitCmp.Eq)


@pl.jit
def chip(sig: pld.DistributedTensor[[1, 1], pl.INT32]):
    # expected-error@+1 {{they need 50 vector (AIV) cores and the a2a3 profile has 48; lower their core_num}}
    with pl.manual_scope():
        # expected-note@+1 {{this submit takes 30 vector (AIV) cores}}
        pl.spmd_submit(producer, sig, core_num=30)
        # expected-note@+1 {{this submit takes 20 vector (AIV) cores}}
        pl.spmd_submit(consumer, sig, core_num=20)
    # Outside a manual scope the two run one after the other: no error.
    pl.spmd_submit(producer, sig, core_num=40)
    pl.spmd_submit(consumer, sig, core_num=40)
