# RUN: ptodist compile %s --emit=ir | FileCheck %s
# Any top-level def whose body declares a program is a factory: its parameters, defaults and constants
# are kept; validation code and other statements are skipped.
import pypto.language as pl
import pypto.language.distributed as pld

TILE = 64


# CHECK: def build_it(world_size, cores=4, rows=TILE * 2):
def build_it(world_size, cores=4, rows=TILE * 2):
    """Builds the program."""
    if rows % TILE != 0:
        raise ValueError("rows must be a multiple of TILE")
    # CHECK: ROWS = rows
    ROWS = rows
    # CHECK: TILES = ROWS // TILE
    TILES = ROWS // TILE
    log = open("/dev/null")

    # CHECK: @pl.program
    # CHECK: class Prog:
    @pl.program
    class Prog:
        @pl.function(type=pl.FunctionType.InCore)
        def kernel(self, a: pl.Tensor[[ROWS, TILE], pl.FP16], o: pl.Out[pl.Tensor[[ROWS, TILE], pl.FP16]]) -> pl.Tensor[[ROWS, TILE], pl.FP16]:
            for i in pl.range(TILES):
                t = pl.load(a, [i * TILE, 0], [TILE, TILE])
                o = pl.store(t, [i * TILE, 0], o)
            return o

        @pl.function(type=pl.FunctionType.Orchestration)
        def orch(self, a: pl.Tensor[[ROWS, TILE], pl.FP16], o: pl.Out[pl.Tensor[[ROWS, TILE], pl.FP16]]) -> pl.Tensor[[ROWS, TILE], pl.FP16]:
            # CHECK: with pl.manual_scope():
            # CHECK-NEXT: o, task = pl.spmd_submit(self.kernel, a, o, core_num=cores)
            with pl.manual_scope():
                o, task = pl.spmd_submit(self.kernel, a, o, core_num=cores)
            return o

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self, a: pl.Tensor[[world_size, ROWS, TILE], pl.FP16], o: pl.Out[pl.Tensor[[world_size, ROWS, TILE], pl.FP16]]):
            # CHECK: self.orch(a[r], o[r], device=r)
            for r in pl.range(pld.world_size()):
                self.orch(a[r], o[r], device=r)

    # CHECK: return Prog
    return Prog


def not_a_factory(x):
    return x
