# RUN: ptodist check %s --verify-diagnostics
# spmd_submit: the arguments are checked against the kernel's parameters.
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
        h: pl.Tensor[[4, SIZE], pl.FP16],
    ):
        # expected-error@+1 {{pl.spmd_submit: kernel 'work': argument 'x' must be pl.Tensor[[4, SIZE], pl.FP32], got pl.Tensor[[4, SIZE], pl.FP16]}}
        r, task = pl.spmd_submit(self.work, h, core_num=4)
