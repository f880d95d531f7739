# RUN: ptodist check %s --verify-diagnostics
# What `with pl.at(...)` rejects, at its line: the arguments PyPTO's parser rejects, the levels and
# placements ptodist does not outline yet, and a submitted scope that would give back two values.
import pypto.language as pl
import pypto.language.distributed as pld

N = 16


@pl.program
class Errors:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[4, N], pl.FP32]):
        # expected-error@+1 {{'with pl.at(level=pl.Level.CORE_GROUP)' outlines a kernel, which only an orchestration function (or a pl.at(level=pl.Level.CHIP) scope) can call; this is in the InCore function 'kernel'}}
        with pl.at(level=pl.Level.CORE_GROUP):
            t = pl.load(x, [0, 0], [1, N])

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, x: pl.Tensor[[4, N], pl.FP32], y: pl.Out[pl.Tensor[[4, N], pl.FP32]]):
        # expected-error@+1 {{pl.at(): role= is not supported with level=pl.Level.CORE_GROUP (an InCore scope)}}
        with pl.at(level=pl.Level.CORE_GROUP, role=pl.Role.Worker):
            pass
        # expected-error@+1 {{'with pl.at(level=pl.Level.CHIP)' outlines a chip orchestration, which only the host orchestrator calls; this is in the Orchestration function 'chip'}}
        with pl.at(level=pl.Level.CHIP):
            pass
        # expected-error@+1 {{pl.at() requires a level, e.g. pl.at(level=pl.Level.CORE_GROUP)}}
        with pl.at(name_hint="k"):
            pass
        # expected-error@+1 {{unknown keyword argument 'levle' in pl.at()}}
        with pl.at(levle=pl.Level.CORE_GROUP):
            pass
        # expected-error@+1 {{pl.at(): each optimization must be pl.split(pl.SplitMode.NONE|UP_DOWN|LEFT_RIGHT) or pl.cross_core_slot(slot_num=N) with N a positive integer literal}}
        with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.split(pl.SplitMode.DIAGONAL)]):
            pass
        # expected-error@+1 {{pl.at(): each optimization must be pl.split}}
        with pl.at(level=pl.Level.CORE_GROUP, optimizations=[pl.cross_core_slot(slot_num=0)]):
            pass
        # expected-error@+1 {{pl.at(): 'optimizations' must be a list, e.g. [pl.split(pl.SplitMode.UP_DOWN)]}}
        with pl.at(level=pl.Level.CORE_GROUP, optimizations=pl.split(pl.SplitMode.UP_DOWN)):
            pass
        # expected-error@+1 {{pl.at(): 'level' must be a pl.Level member such as pl.Level.CORE_GROUP}}
        with pl.at(level=3):
            pass
        # expected-error@+1 {{pl.at() takes at most 2 positional arguments (level, role)}}
        with pl.at(pl.Level.CORE_GROUP, None, 3):
            pass
        # expected-error@+1 {{'with pl.at(level=pl.Level.CLUSTER_0)' is not supported yet; ptodist outlines pl.Level.CORE_GROUP scopes}}
        with pl.at(level=pl.Level.CLUSTER_0):
            skipped = pl.load(x, [0, 0], [1, N])
        # Names the skipped body assigns are not reported again as undefined.
        self.sink(x, skipped)
        # expected-error@+1 {{a submitted pl.at(level=pl.Level.CORE_GROUP) scope (with 'as', deps= or in a manual scope) may give the code after it at most one value; it gives 2}}
        with pl.at(level=pl.Level.CORE_GROUP) as tid:
            a = pl.load(x, [0, 0], [1, N])
            y = pl.store(a, [0, 0], y)
            w = pl.read(x, [0, 0])
        self.sink(y, w)

    @pl.function(type=pl.FunctionType.InCore)
    def sink(self, x: pl.Tensor[[4, N], pl.FP32], w: pl.Scalar[pl.FP32]):
        pass

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[4, N], pl.FP32]):
        # expected-error@+1 {{inline 'with pl.at(level=pl.Level.HOST, role=pl.Role.SubWorker)' is not supported (nor in PyPTO)}}
        with pl.at(level=pl.Level.HOST, role=pl.Role.SubWorker):
            pass
        # expected-error@+1 {{task ids and deps= of a pl.at(level=pl.Level.CHIP) scope are not supported yet}}
        with pl.at(level=pl.Level.CHIP) as chip_tid:
            pass
