# RUN: ptodist check %s --verify-diagnostics
# pl.system.task_dummy(*, deps) takes a list of task ids, by keyword, in orchestration (PyPTO's parser
# construct); pl.no_dep(t) marks a tensor argument of a kernel call or pl.spmd_submit and is an error
# anywhere else.
import pypto.language as pl

SIZE = 64


@pl.program
class Contract:
    @pl.function(type=pl.FunctionType.AIV)
    def work(
        self,
        x: pl.Tensor[[1, SIZE], pl.FP32],
        n: pl.Scalar[pl.INT32],
    ):
        # expected-error@+1 {{pl.system.task_dummy}}
        d0 = pl.system.task_dummy(deps=[])

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(
        self,
        x: pl.Tensor[[1, SIZE], pl.FP32],
        n: pl.Scalar[pl.INT32],
    ):
        with pl.manual_scope():
            r, t = pl.spmd_submit(self.work, pl.no_dep(x), n, core_num=2)
            d = pl.system.task_dummy(deps=[t])
            r2, t2 = pl.spmd_submit(self.work, x, n, core_num=2, deps=[d])
            self.work(pl.tensor.no_dep(x), n)
            # expected-error@+1 {{pl.system.task_dummy: 'deps' must be a list of pl.TaskId (the second result of earlier submits) or arrays of them (pl.array.create(n, pl.TASK_ID)), but an element is pl.Scalar[pl.INT32]}}
            d1 = pl.system.task_dummy(deps=[n])
            # expected-error@+1 {{pl.system.task_dummy: takes at most 0 positional arguments, got 1; pass 'deps' and the parameters after it by keyword}}
            d2 = pl.system.task_dummy([t])
            # expected-error@+1 {{pl.system.task_dummy: missing required argument 'deps'}}
            d3 = pl.system.task_dummy()
            # expected-error@+1 {{pl.system.task_dummy: 'deps' is required: the task ids it joins, e.g. deps=[tid] (deps=[] for none)}}
            d4 = pl.system.task_dummy(deps=None)
            # expected-error@+1 {{'pl.no_dep' marks an argument of a kernel call or pl.spmd_submit (self.k(pl.no_dep(t), ...)); it is not allowed elsewhere}}
            z = pl.no_dep(x)
            # expected-error@+1 {{pl.no_dep: only a tensor argument can be marked, got pl.Scalar[pl.INT32]}}
            self.work(x, pl.no_dep(n))
