# RUN: ptodist check %s
# RUN: ptodist compile %s --emit=ir | FileCheck %s
# A name rebound to a second window whose shape has a pld.world_size() dim keeps its type: both spell the
# same rank count (it once failed as "cannot rebind ... to a value of type" the same type).
import pypto.language as pl
import pypto.language.distributed as pld

N = 16


@pl.program
class Rebind:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, w: pld.DistributedTensor[[pl.dynamic("NR"), N], pl.FP32]):
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, w: pld.DistributedTensor[[pl.dynamic("NR"), N], pl.FP32]):
        self.kernel(w)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[pl.dynamic("NR"), 1, N], pl.FP32]):
        buf = pld.alloc_window_buffer(pld.world_size() * N * pl.FP32.get_byte())
        # CHECK: stage = pld.window(buf, [pld.world_size(), N], dtype=pl.FP32)
        # CHECK: stage = pld.window(buf, [pld.world_size(), N], dtype=pl.FP32)
        stage = pld.window(buf, [pld.world_size(), N], dtype=pl.FP32)
        for r in pl.range(pld.world_size()):
            stage = pld.window(buf, [pld.world_size(), N], dtype=pl.FP32)
            self.chip(stage, device=r)
