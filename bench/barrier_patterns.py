# Barrier patterns written by hand with notify/wait, each on a self-clearing signal of one cell per
# rank (docs/collectives.md "Schedules"): what lower-collectives' choice between the mesh and the central
# barrier was measured with. bench/barrier_patterns.sh runs them in turn;
#   ptodist bench bench/barrier_patterns.py --program Mesh|Dissemination|Central --ranks 4 -D iters=2000
# Dissemination assumes 4 ranks (2 rounds).
import pypto.language as pl
import pypto.language.distributed as pld


def make(world_size, iters=10):
    NR = world_size
    ITERS = iters

    # Mesh: every rank credits every other, then waits for every other's credit (one hop).
    @pl.program
    class Mesh:
        @pl.function(type=pl.FunctionType.InCore)
        def step(self, signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
            for i in pl.range(ITERS):
                ctx = pld.get_comm_ctx(signal)
                me = pld.rank(ctx)
                n = pld.nranks(ctx)
                for k in pl.range(1, n):
                    pld.system.notify(signal, (me + k) % n, [me, 0], 1, op=pld.NotifyOp.AtomicAdd)
                for k in pl.range(1, n):
                    pld.system.wait(signal, [(me + k) % n, 0], 1, cmp=pld.WaitCmp.Ge)
                for k in pl.range(1, n):
                    pld.system.notify(signal, me, [(me + k) % n, 0], -1, op=pld.NotifyOp.AtomicAdd)

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(self, signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
            self.step(signal)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self):
            sig_buf = pld.alloc_window_buffer([NR, 1], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                sig = pld.window(sig_buf, [NR, 1], dtype=pl.INT32)
                self.chip(sig, device=r)

    # Dissemination: round k, notify me + 2^k and wait for me - 2^k (2 rounds at 4 ranks).
    @pl.program
    class Dissemination:
        @pl.function(type=pl.FunctionType.InCore)
        def step(self, signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
            for i in pl.range(ITERS):
                ctx = pld.get_comm_ctx(signal)
                me = pld.rank(ctx)
                n = pld.nranks(ctx)
                pld.system.notify(signal, (me + 1) % n, [me, 0], 1, op=pld.NotifyOp.AtomicAdd)
                pld.system.wait(signal, [(me + n - 1) % n, 0], 1, cmp=pld.WaitCmp.Ge)
                pld.system.notify(signal, (me + 2) % n, [me, 0], 1, op=pld.NotifyOp.AtomicAdd)
                pld.system.wait(signal, [(me + n - 2) % n, 0], 1, cmp=pld.WaitCmp.Ge)
                pld.system.notify(signal, me, [(me + n - 1) % n, 0], -1, op=pld.NotifyOp.AtomicAdd)
                pld.system.notify(signal, me, [(me + n - 2) % n, 0], -1, op=pld.NotifyOp.AtomicAdd)

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(self, signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
            self.step(signal)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self):
            sig_buf = pld.alloc_window_buffer([NR, 1], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                sig = pld.window(sig_buf, [NR, 1], dtype=pl.INT32)
                self.chip(sig, device=r)

    # Central: every rank tells rank 0, rank 0 waits for all and then releases every rank.
    @pl.program
    class Central:
        @pl.function(type=pl.FunctionType.InCore)
        def step(self, signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
            for i in pl.range(ITERS):
                ctx = pld.get_comm_ctx(signal)
                me = pld.rank(ctx)
                n = pld.nranks(ctx)
                if me == 0:
                    for k in pl.range(1, n):
                        pld.system.wait(signal, [k, 0], 1, cmp=pld.WaitCmp.Ge)
                    for k in pl.range(1, n):
                        pld.system.notify(signal, me, [k, 0], -1, op=pld.NotifyOp.AtomicAdd)
                    for k in pl.range(1, n):
                        pld.system.notify(signal, k, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)
                else:
                    pld.system.notify(signal, 0, [me, 0], 1, op=pld.NotifyOp.AtomicAdd)
                    pld.system.wait(signal, [0, 0], 1, cmp=pld.WaitCmp.Ge)
                    pld.system.notify(signal, me, [0, 0], -1, op=pld.NotifyOp.AtomicAdd)

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(self, signal: pl.InOut[pld.DistributedTensor[[NR, 1], pl.INT32]]):
            self.step(signal)

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self):
            sig_buf = pld.alloc_window_buffer([NR, 1], dtype=pl.INT32)
            for r in pl.range(pld.world_size()):
                sig = pld.window(sig_buf, [NR, 1], dtype=pl.INT32)
                self.chip(sig, device=r)

    return Mesh, Dissemination, Central
