"""Programs the Python tests compile: built by factories, using module constants, factory arguments and
a dtype argument, as PyPTO users write them. Each rank r pushes its rows to rank (r + 1) % n."""

import pypto.language as pl
import pypto.language.distributed as pld

ROWS = 4


def make_ring(cols, dtype=pl.FP32):
    @pl.program
    class Ring:
        @pl.function(type=pl.FunctionType.InCore)
        def step(
            self,
            inp: pl.Tensor[[ROWS, cols], dtype],
            out: pl.Out[pl.Tensor[[ROWS, cols], dtype]],
            src: pld.DistributedTensor[[ROWS, cols], dtype],
            dst: pld.DistributedTensor[[ROWS, cols], dtype],
            signal: pld.DistributedTensor[[1, 1], pl.INT32],
            peer: pl.Scalar[pl.INT32],
        ) -> pl.Tensor[[ROWS, cols], dtype]:
            local = pl.load(inp, [0, 0], [ROWS, cols])
            src = pl.store(local, [0, 0], src)
            pld.tensor.put(dst, peer=peer, src=src, atomic=pld.AtomicType.None_)
            pld.system.notify(target=signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
            pld.system.wait(signal=signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
            recv = pl.load(dst, [0, 0], [ROWS, cols])
            return pl.store(recv, [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip_orch(
            self,
            inp: pl.Tensor[[ROWS, cols], dtype],
            out: pl.Out[pl.Tensor[[ROWS, cols], dtype]],
            src: pld.DistributedTensor[[ROWS, cols], dtype],
            dst: pld.DistributedTensor[[ROWS, cols], dtype],
            signal: pld.DistributedTensor[[1, 1], pl.INT32],
            peer: pl.Scalar[pl.INT32],
        ) -> pl.Tensor[[ROWS, cols], dtype]:
            return self.step(inp, out, src, dst, signal, peer)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host_orch(
            self,
            inputs: pl.Tensor[[pl.dynamic("NR"), ROWS, cols], dtype],
            outputs: pl.Out[pl.Tensor[[pl.dynamic("NR"), ROWS, cols], dtype]],
        ) -> pl.Tensor[[pl.dynamic("NR"), ROWS, cols], dtype]:
            src_buf = pld.alloc_window_buffer(ROWS * cols * dtype.get_byte())
            dst_buf = pld.alloc_window_buffer(ROWS * cols * dtype.get_byte())
            signal_buf = pld.alloc_window_buffer(pl.INT32.get_byte())
            for r in pl.range(pld.world_size()):
                src = pld.window(src_buf, [ROWS, cols], dtype=dtype)
                dst = pld.window(dst_buf, [ROWS, cols], dtype=dtype)
                signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
                self.chip_orch(inputs[r], outputs[r], src, dst, signal, (r + 1) % pld.world_size(), device=r)
            return outputs

    return Ring


def make_read_before_wait():
    """The ring with an ordering bug: the window is read before the wait that publishes it."""

    @pl.program
    class RingReadEarly:
        @pl.function(type=pl.FunctionType.InCore)
        def step(
            self,
            inp: pl.Tensor[[1, 64], pl.FP32],
            out: pl.Out[pl.Tensor[[1, 64], pl.FP32]],
            dst: pld.DistributedTensor[[1, 64], pl.FP32],
            signal: pld.DistributedTensor[[1, 1], pl.INT32],
            peer: pl.Scalar[pl.INT32],
        ) -> pl.Tensor[[1, 64], pl.FP32]:
            pld.tensor.put(dst, peer=peer, src=inp, atomic=pld.AtomicType.None_)
            pld.system.notify(target=signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
            recv = pl.load(dst, [0, 0], [1, 64])  # the bug: this read belongs after the wait
            pld.system.wait(signal=signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
            return pl.store(recv, [0, 0], out)

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip_orch(
            self,
            inp: pl.Tensor[[1, 64], pl.FP32],
            out: pl.Out[pl.Tensor[[1, 64], pl.FP32]],
            dst: pld.DistributedTensor[[1, 64], pl.FP32],
            signal: pld.DistributedTensor[[1, 1], pl.INT32],
            peer: pl.Scalar[pl.INT32],
        ) -> pl.Tensor[[1, 64], pl.FP32]:
            return self.step(inp, out, dst, signal, peer)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host_orch(
            self,
            inputs: pl.Tensor[[2, 1, 64], pl.FP32],
            outputs: pl.Out[pl.Tensor[[2, 1, 64], pl.FP32]],
        ) -> pl.Tensor[[2, 1, 64], pl.FP32]:
            dst_buf = pld.alloc_window_buffer(64 * pl.FP32.get_byte())
            signal_buf = pld.alloc_window_buffer(pl.INT32.get_byte())
            for r in pl.range(pld.world_size()):
                dst = pld.window(dst_buf, [1, 64], dtype=pl.FP32)
                signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
                self.chip_orch(inputs[r], outputs[r], dst, signal, (r + 1) % pld.world_size(), device=r)
            return outputs

    return RingReadEarly
