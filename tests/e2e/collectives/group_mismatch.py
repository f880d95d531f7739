# A wait in one group that only a notify in another could satisfy: device 1 means to wake device 0
# (rank 0 of group A = {0, 1}) but notifies rank 0 of group B = {1, 2}, which is itself, in group B's
# signal. Device 0 waits forever: check mode reports the deadlock and fast mode's watchdog the hang,
# both naming the group of the waited window.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class GroupMismatch:
    @pl.function(type=pl.FunctionType.InCore)
    def waiter(self, signal: pl.InOut[pld.DistributedTensor[[2], pl.INT32]]):
        pld.system.wait(signal, [0], 1, cmp=pld.WaitCmp.Ge)

    @pl.function(type=pl.FunctionType.InCore)
    def poker(self, signal: pl.InOut[pld.DistributedTensor[[2], pl.INT32]]):
        pld.system.notify(signal, 0, [0], 1, op=pld.NotifyOp.AtomicAdd)

    @pl.function(type=pl.FunctionType.InCore)
    def idle(self, signal: pl.InOut[pld.DistributedTensor[[2], pl.INT32]]):
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def wait_orch(self, signal: pl.InOut[pld.DistributedTensor[[2], pl.INT32]]):
        self.waiter(signal)

    @pl.function(type=pl.FunctionType.Orchestration)
    def poke_orch(self, signal: pl.InOut[pld.DistributedTensor[[2], pl.INT32]]):
        self.poker(signal)

    @pl.function(type=pl.FunctionType.Orchestration)
    def idle_orch(self, signal: pl.InOut[pld.DistributedTensor[[2], pl.INT32]]):
        self.idle(signal)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self):
        sig_a = pld.alloc_window_buffer([2], dtype=pl.INT32)
        sig_b = pld.alloc_window_buffer([2], dtype=pl.INT32)
        a = pld.window(sig_a, [2], dtype=pl.INT32)
        b = pld.window(sig_b, [2], dtype=pl.INT32)
        self.wait_orch(a, device=0)
        self.idle_orch(a, device=1)
        self.poke_orch(b, device=1)
        self.idle_orch(b, device=2)
