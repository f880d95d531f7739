# `with pl.at(...)` scopes, run: each rank's chip orchestration outlines CORE_GROUP scopes (a waiter
# per row that blocks on a signal, a consumer gated on it by deps=, a publisher submitted after all of
# them that writes the peer's window and notifies it), and the host outlines two CHIP scopes with
# CORE_GROUP scopes inside, placed round-robin over the ranks.
import pypto.language as pl
import pypto.language.distributed as pld

N = 64


@pl.program
class AtScopes:
    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_orch(
        self,
        x: pl.Tensor[[4, N], pl.FP32],
        out: pl.Out[pl.Tensor[[4, N], pl.FP32]],
        box: pl.InOut[pld.DistributedTensor[[1, N], pl.FP32]],
        signal: pl.InOut[pld.DistributedTensor[[1, 1], pl.INT32]],
        peer: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[4, N], pl.FP32]:
        with pl.manual_scope():
            for row in pl.range(3):
                with pl.at(level=pl.Level.CORE_GROUP, name_hint="waiter") as wait_tid:
                    pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Ge)
                with pl.at(level=pl.Level.CORE_GROUP, deps=[wait_tid]):
                    got = pl.load(box, [0, 0], [1, N])
                    mine = pl.load(x, [row, 0], [1, N])
                    out = pl.store(pl.add(got, mine), [row, 0], out)
            with pl.at(level=pl.Level.CORE_GROUP, name_hint="publisher"):
                last = pl.load(x, [3, 0], [1, N])
                pld.tile.remote_store(last, target=box, peer=peer, offsets=[0, 0])
                pld.system.notify(signal, peer, [0, 0], 1, op=pld.NotifyOp.Set)
        return out

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(
        self,
        xs: pl.Tensor[[2, 4, N], pl.FP32],
        outs: pl.Out[pl.Tensor[[2, 4, N], pl.FP32]],
        a: pl.Tensor[[4, N], pl.FP32],
        b: pl.Tensor[[4, N], pl.FP32],
        s: pl.Out[pl.Tensor[[4, N], pl.FP32]],
        d: pl.Out[pl.Tensor[[4, N], pl.FP32]],
    ) -> pl.Tensor[[4, N], pl.FP32]:
        box_buf = pld.alloc_window_buffer(N * pl.FP32.get_byte())
        signal_buf = pld.alloc_window_buffer(pl.INT32.get_byte())
        for r in pl.range(pld.world_size()):
            box = pld.window(box_buf, [1, N], dtype=pl.FP32)
            signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
            self.chip_orch(xs[r], outs[r], box, signal, (r + 1) % pld.world_size(), device=r)
        with pl.at(level=pl.Level.CHIP, role=pl.Role.Orchestrator):
            with pl.at(level=pl.Level.CORE_GROUP):
                total = pl.assemble(s, pl.add(a, b), [0, 0])
        with pl.at(level=pl.Level.CHIP):
            with pl.at(level=pl.Level.CORE_GROUP):
                pl.assemble(d, pl.sub(a, b), [0, 0])
        return total
