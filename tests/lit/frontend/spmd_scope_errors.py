# RUN: ptodist check %s --verify-diagnostics
# The forms of pl.spmd PyPTO's parser rejects, each a located error with PyPTO's rule, and the forms
# ptodist does not lower yet. The names a rejected scope binds are not reported again further down.
import pypto.language as pl

N = 16
B = 4


@pl.jit.incore
def kernel(x: pl.Tensor[[B, N], pl.FP32], y: pl.Out[pl.Tensor[[B, N], pl.FP32]]) -> pl.Tensor[[B, N], pl.FP32]:
    i = pl.tile.get_block_idx()
    y = pl.store(pl.load(x, [i, 0], [1, N]), [i, 0], y)
    return y


@pl.jit
def chip(x: pl.Tensor[[B, N], pl.FP32], y: pl.Out[pl.Tensor[[B, N], pl.FP32]], n: pl.Scalar[pl.INT32]):
    # expected-error@+1 {{'with pl.spmd(...)' body neither reads the per-block index via pl.tile.get_block_idx() nor dispatches a kernel call}}
    with pl.spmd(B):
        t = pl.load(x, [0, 0], [1, N])
        y = pl.store(t, [0, 0], y)
    # expected-error@+1 {{'with pl.spmd(...)' dispatch body launches 2 kernels; only one kernel dispatch per SPMD scope is supported}}
    with pl.spmd(B):
        y = kernel(x, y)
        y = kernel(x, y)
    # expected-error@+1 {{pl.spmd() does not accept 'deps=' here; use 'with pl.spmd(n, deps=[...]) as tid:'}}
    with pl.spmd(B, deps=[]):
        y = kernel(x, y)
    # expected-error@+1 {{pl.spmd() loop form does not accept 'stage='}}
    for i in pl.spmd(B, stage=2):
        pass
    # expected-error@+1 {{pl.spmd() does not accept 'deps=' here}}
    for i in pl.spmd(B, deps=[]):
        pass
    # expected-error@+1 {{for ... in pl.spmd(...) must use a single loop variable}}
    for i, (a,) in pl.spmd(B):
        pass
    # expected-error@+1 {{pl.spmd() accepts at most one positional argument (core_num)}}
    for i in pl.spmd(B, 2):
        pass
    # expected-error@+1 {{pl.spmd() got multiple values for argument 'core_num'}}
    for i in pl.spmd(B, core_num=2):
        pass
    # expected-error@+1 {{pl.spmd() requires core_num (first positional argument)}}
    for i in pl.spmd(name_hint="k"):
        pass
    # expected-error@+1 {{pl.spmd(): core_num must be a positive integer, got 0}}
    for i in pl.spmd(0):
        pass
    # expected-error@+1 {{pl.spmd(): core_num must be an integer expression, got pl.Scalar[pl.FP32]}}
    for i in pl.spmd(1.5):
        pass
    # expected-error@+1 {{sync_start must be a boolean literal (True/False)}}
    for i in pl.spmd(B, sync_start=1):
        pass
    # expected-error@+1 {{pl.spmd() got unexpected keyword argument 'cores'; supported keywords: 'sync_start', 'name_hint', 'optimizations', 'allow_early_resolve', 'predicate'}}
    for i in pl.spmd(B, cores=2):
        pass
    # expected-error@+1 {{pl.spmd(): each optimization must be pl.split(pl.SplitMode.NONE|UP_DOWN|LEFT_RIGHT) or pl.cross_core_slot(slot_num=N)}}
    for i in pl.spmd(B, optimizations=[pl.split(pl.SplitMode.UP_DOWN), pl.auto_chunk]):
        pass
    # expected-error@+1 {{pl.spmd(predicate=...) is not supported yet}}
    for i in pl.spmd(B, predicate=(x[0, 0] > 0)):
        pass
    # expected-error@+1 {{pl.spmd() does not accept *args or **kwargs}}
    for i in pl.spmd(B, **cfg):
        pass
    # expected-error@+1 {{each block of a pl.spmd scope assigns 'u', 'v', which the code after it reads: which block's value that is is not defined}}
    for i in pl.spmd(B):
        u = i + 1
        v = i + 2
    w = u + v
    # expected-error@+3 {{the kernel call of a 'with pl.spmd(...)' dispatch body must be a statement of its own}}
    with pl.spmd(B):
        for k in pl.range(2):
            y = kernel(x, y)
    # expected-error@+2 {{the pl.at scope that is the whole body of a pl.spmd scope is its kernel: it takes level=pl.Level.CORE_GROUP, got pl.Level.CHIP}}
    with pl.spmd(B):
        with pl.at(level=pl.Level.CHIP):
            y = kernel(x, y)
    # expected-error@+2 {{the launch's task id is bound once}}
    with pl.spmd(B) as t1:
        with pl.at(level=pl.Level.CORE_GROUP) as t2:
            i = pl.tile.get_block_idx()
    # What a pl.cluster() (one group task) cannot carry, as PyPTO's parser rejects it.
    with pl.cluster():
        # expected-error@+1 {{pl.spmd(..., allow_early_resolve=True) cannot be nested inside pl.cluster(): the cluster is dispatched as one group task, so the early-dispatch hint would be lost}}
        with pl.spmd(B, allow_early_resolve=True):
            y = kernel(x, y)
        # expected-error@+1 {{'with pl.spmd(...) as tid:' cannot be nested inside pl.cluster()}}
        with pl.spmd(B) as t3:
            y = kernel(x, y)
        # expected-error@+1 {{pl.spmd_submit(...) inside pl.cluster() cannot carry per-task dispatch metadata (core_num, deps): the cluster is dispatched as one group task}}
        y, t4 = pl.spmd_submit(kernel, x, y, core_num=B, deps=[])
    # expected-error@+1 {{pl.cluster() does not accept positional arguments; use 'with pl.cluster():'}}
    with pl.cluster("c"):
        pass
    # expected-error@+1 {{pl.cluster() got unexpected keyword argument 'core_num'; supported keyword: 'name_hint'}}
    with pl.cluster(core_num=2):
        pass
    # expected-error@+1 {{'with pl.cluster() as ...' binds nothing}}
    with pl.cluster(name_hint="g") as g:
        pass


@pl.jit.incore
def in_kernel(x: pl.Tensor[[B, N], pl.FP32]):
    # expected-error@+1 {{pl.spmd(...) launches a kernel on several blocks, which only an orchestration function (or a pl.at(level=pl.Level.CHIP) scope) can do; this is in the InCore function 'in_kernel'}}
    for i in pl.spmd(B):
        t = pl.load(x, [i, 0], [1, N])
