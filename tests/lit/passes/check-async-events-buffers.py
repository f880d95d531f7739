# RUN: ptodist check %s --verify-diagnostics
# check-async-events, the send-buffer check: while a put_async's event may be outstanding, its source
# region may be read but not written; while a get_async's event may be outstanding, its destination
# region may be neither read nor written (the DMA engine reads or writes them until the wait). Each
# error names the region, the issue (note) and the path that skips the wait (notes).
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


@pl.jit.incore
def straight_line(
    x: pl.InOut[pl.Tensor[[1, SIZE], pl.FP32]],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
):
    ctx = pld.get_comm_ctx(dst)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    row = pl.load(x, [0, 0], [1, SIZE])
    sess = pld.system.async_session()
    # expected-note@+1 {{event 'evt' is issued here}}
    evt = pld.tensor.put_async(dst, peer, x, sess)
    # A read of the source is fine; a write is not.
    again = pl.load(x, [0, 0], [1, SIZE])
    # expected-error@+1 {{pl.store: writes the source region x[0:1, 0:64] of pld.tensor.put_async while its event 'evt' may be outstanding; wait on it with pld.system.wait_async_event first}}
    x = pl.store(pl.add(row, again), [0, 0], x)
    pld.system.wait_async_event(evt, sess)


@pl.jit.incore
def in_a_branch(
    x: pl.InOut[pl.Tensor[[1, SIZE], pl.FP32]],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    n: pl.Scalar[pl.INT64],
):
    ctx = pld.get_comm_ctx(dst)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    sess = pld.system.async_session()
    # expected-note@+1 {{event 'evt' is issued here}}
    evt = pld.tensor.put_async(dst, peer, x, sess)
    if n > 0:
        # expected-error@+1 {{pl.write: writes the source region x[0:1, 0:64] of pld.tensor.put_async while its event 'evt' may be outstanding}}
        pl.write(x, [0, 5], 1.0)
    pld.system.wait_async_event(evt, sess)


@pl.jit.incore
def in_a_loop(
    x: pl.InOut[pl.Tensor[[4, SIZE], pl.FP32]],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
):
    ctx = pld.get_comm_ctx(dst)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    sess = pld.system.async_session()
    row = pl.full([1, SIZE], dtype=pl.FP32, value=1.0)
    # expected-note@+1 {{event 'evt' is issued here}}
    evt = pld.tensor.put_async(dst, peer, x, sess, dst_offsets=[0, 0], src_offsets=[2, 0], shape=[1, SIZE])
    for i in pl.range(4):
        # expected-error@+1 {{pl.store: writes the source region x[2:3, 0:64] of pld.tensor.put_async}}
        x = pl.store(row, [2, 0], x)
    pld.system.wait_async_event(evt, sess)


@pl.jit.incore
def wait_on_one_path_only(
    x: pl.InOut[pl.Tensor[[1, SIZE], pl.FP32]],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    n: pl.Scalar[pl.INT64],
):
    ctx = pld.get_comm_ctx(dst)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    sess = pld.system.async_session()
    row = pl.full([1, SIZE], dtype=pl.FP32, value=1.0)
    # expected-note@+1 {{event 'evt' is issued here}} {{event 'evt' is issued here}}
    evt = pld.tensor.put_async(dst, peer, x, sess)
    # expected-note@+1 {{on the path where this 'if' is not taken, the event is not waited}} {{on the path where this 'if' is not taken, the event is not waited}}
    if n > 0:
        pld.system.wait_async_event(evt, sess)
    # expected-error@+1 {{pl.store: writes the source region x[0:1, 0:64] of pld.tensor.put_async while its event 'evt' may be outstanding}}
    x = pl.store(row, [0, 0], x)
    # expected-error@+1 {{async event 'evt' may be outstanding at the end of kernel 'wait_on_one_path_only'}}
    return x


@pl.jit.incore
def get_destination_read_and_written(
    y: pl.InOut[pl.Tensor[[1, SIZE], pl.FP32]],
    src: pld.DistributedTensor[[1, SIZE], pl.FP32],
):
    ctx = pld.get_comm_ctx(src)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    sess = pld.system.async_session()
    # expected-note@+1 {{event 'evt' is issued here}} {{event 'evt' is issued here}}
    evt = pld.tensor.get_async(y, peer, src, sess)
    # expected-error@+1 {{pl.load: reads the destination region y[0:1, 0:64] of pld.tensor.get_async while its event 'evt' may be outstanding}}
    early = pl.load(y, [0, 0], [1, SIZE])
    # expected-error@+1 {{pl.store: writes the destination region y[0:1, 0:64] of pld.tensor.get_async}}
    y = pl.store(early, [0, 0], y)
    pld.system.wait_async_event(evt, sess)


@pl.jit.incore
def another_transfer_writes_the_source(
    x: pl.InOut[pl.Tensor[[1, SIZE], pl.FP32]],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    src: pld.DistributedTensor[[1, SIZE], pl.FP32],
):
    ctx = pld.get_comm_ctx(dst)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    sess = pld.system.async_session()
    # expected-note@+1 {{event 'evt' is issued here}}
    evt = pld.tensor.put_async(dst, peer, x, sess)
    # A synchronous get into the send buffer is a write of it too.
    # expected-error@+1 {{writes the source region x[0:1, 0:64] of pld.tensor.put_async while its event 'evt' may be outstanding}}
    pld.tensor.get(x, peer, src)
    pld.system.wait_async_event(evt, sess)


# ---- near misses: accepted ----


@pl.jit.incore
def write_after_the_wait(
    x: pl.InOut[pl.Tensor[[1, SIZE], pl.FP32]],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
):
    ctx = pld.get_comm_ctx(dst)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    sess = pld.system.async_session()
    row = pl.full([1, SIZE], dtype=pl.FP32, value=1.0)
    evt = pld.tensor.put_async(dst, peer, x, sess)
    pld.system.wait_async_event(evt, sess)
    x = pl.store(row, [0, 0], x)


@pl.jit.incore
def write_to_a_different_region(
    x: pl.InOut[pl.Tensor[[2, SIZE], pl.FP32]],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
):
    ctx = pld.get_comm_ctx(dst)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    sess = pld.system.async_session()
    row = pl.full([1, SIZE], dtype=pl.FP32, value=1.0)
    evt = pld.tensor.put_async(dst, peer, x, sess, dst_offsets=[0, 0], src_offsets=[0, 0], shape=[1, SIZE])
    x = pl.store(row, [1, 0], x)
    pld.system.wait_async_event(evt, sess)


@pl.jit.incore
def write_to_a_different_tensor(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    z: pl.InOut[pl.Tensor[[1, SIZE], pl.FP32]],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
):
    ctx = pld.get_comm_ctx(dst)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    sess = pld.system.async_session()
    row = pl.full([1, SIZE], dtype=pl.FP32, value=1.0)
    evt = pld.tensor.put_async(dst, peer, x, sess)
    z = pl.store(row, [0, 0], z)
    pld.system.wait_async_event(evt, sess)
