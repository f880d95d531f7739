# RUN: ptodist check %s --verify-diagnostics
# spmd_submit: the first argument names a kernel.
import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 256


@pl.program
class Contract:
    @pl.function(type=pl.FunctionType.InCore)
    def work(
        self,
        x: pl.Tensor[[4, SIZE], pl.FP32],
    ):
        pass

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(
        self,
        x: pl.Tensor[[4, SIZE], pl.FP32],
    ):
        # expected-error@+1 {{pl.spmd_submit: 'kernel' must name a kernel function (InCore, AIC or AIV) or a Group such as self.my_kernel, got the Orchestration function 'helper'}}
        r, task = pl.spmd_submit(self.helper, x, core_num=4)

    @pl.function(type=pl.FunctionType.Orchestration)
    def helper(
        self,
        x: pl.Tensor[[4, SIZE], pl.FP32],
    ):
        pass
