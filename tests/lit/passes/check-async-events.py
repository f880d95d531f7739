# RUN: ptodist check %s --verify-diagnostics
# check-async-events: the path-sensitive ordering contract. Each error points at the offending line,
# with a note at the issue and notes naming the path that skips the wait.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.incore
def notify_before_wait(
    x: pl.Tensor[[1, 256], pl.FP32],
    dst: pld.DistributedTensor[[1, 256], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(dst)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    sess = pld.system.async_session()
    # expected-note@+1 {{event 'evt' is issued here}}
    evt = pld.tensor.put_async(dst, peer, x, sess)
    # expected-error@+1 {{pld.system.notify: notify while async event 'evt' may be outstanding}}
    pld.system.notify(signal, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
    pld.system.wait_async_event(evt, sess)


@pl.jit.incore
def wait_in_one_branch(
    x: pl.Tensor[[1, 256], pl.FP32],
    dst: pld.DistributedTensor[[1, 256], pl.FP32],
    n: pl.Scalar[pl.INT64],
):
    ctx = pld.get_comm_ctx(dst)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    sess = pld.system.async_session()
    # expected-note@+1 {{event 'evt' is issued here}}
    evt = pld.tensor.put_async(dst, peer, x, sess)
    # The kernel ends after its last statement, the `if`.
    # expected-error@+2 {{async event 'evt' may be outstanding at the end of kernel 'wait_in_one_branch'}}
    # expected-note@+1 {{on the path where this 'if' is not taken, the event is not waited}}
    if n > 0:
        pld.system.wait_async_event(evt, sess)


@pl.jit.incore
def wait_in_loop_that_may_not_run(
    x: pl.Tensor[[1, 256], pl.FP32],
    dst: pld.DistributedTensor[[1, 256], pl.FP32],
    n: pl.Scalar[pl.INT64],
):
    ctx = pld.get_comm_ctx(dst)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    sess = pld.system.async_session()
    # expected-note@+1 {{event 'evt' is issued here}} {{event 'evt' is issued here}}
    evt = pld.tensor.put_async(dst, peer, x, sess)
    # expected-note@+2 {{this loop may run zero times, so its wait does not drain the event}}
    # expected-error@+1 {{async event 'evt' may be outstanding at the end of kernel}}
    for i in pl.range(n):
        # expected-error@+2 {{pld.system.wait_async_event: event 'evt' may already have been waited on this path}}
        # expected-note@+1 {{it is waited here first}}
        pld.system.wait_async_event(evt, sess)


@pl.jit.incore
def waited_twice(
    x: pl.Tensor[[1, 256], pl.FP32],
    dst: pld.DistributedTensor[[1, 256], pl.FP32],
):
    ctx = pld.get_comm_ctx(dst)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    sess = pld.system.async_session()
    # expected-note@+1 {{event 'evt' is issued here}}
    evt = pld.tensor.put_async(dst, peer, x, sess)
    # expected-note@+1 {{it is waited here first}}
    pld.system.wait_async_event(evt, sess)
    # expected-error@+1 {{event 'evt' may already have been waited on this path; wait on each event once}}
    pld.system.wait_async_event(evt, sess)


@pl.jit.incore
def never_waited(
    x: pl.Tensor[[1, 256], pl.FP32],
    dst: pld.DistributedTensor[[1, 256], pl.FP32],
):
    ctx = pld.get_comm_ctx(dst)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    sess = pld.system.async_session()
    # expected-note@+1 {{event 'evt' is issued here}}
    evt = pld.tensor.put_async(dst, peer, x, sess)
    # expected-error@+1 {{async event 'evt' may be outstanding at the end of kernel 'never_waited'}}
    t = pl.load(x, [0, 0], [1, 256])
