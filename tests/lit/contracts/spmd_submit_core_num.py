# RUN: ptodist check %s --verify-diagnostics
# spmd_submit: core_num is positive.
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
        # expected-error@+1 {{pl.spmd_submit: 'core_num' must be positive, got 0}}
        r, task = pl.spmd_submit(self.work, x, core_num=0)
