# RUN: ptodist check %s --verify-diagnostics
# pld.system.defer_wait: an INT32 signal cell, a threshold in [0, INT32_MAX], only cmp=pld.WaitCmp.Ge
# (PyPTO's DeduceDeferWaitType); cmp is keyword-only and has no default.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Contract:
    @pl.function(type=pl.FunctionType.InCore)
    def eq_cmp(self, signal: pld.DistributedTensor[[1, 4], pl.INT32]):
        # expected-error@+1 {{pld.system.defer_wait: 'cmp' must be pld.WaitCmp.Ge, got the enum member Eq}}
        pld.system.defer_wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Eq)

    @pl.function(type=pl.FunctionType.InCore)
    def negative(self, signal: pld.DistributedTensor[[1, 4], pl.INT32]):
        # expected-error@+1 {{pld.system.defer_wait: 'expected' must be in [0, INT32_MAX] (deferred conditions are monotonic counters), got -1}}
        pld.system.defer_wait(signal, offsets=[0, 0], expected=-1, cmp=pld.WaitCmp.Ge)

    @pl.function(type=pl.FunctionType.InCore)
    def fp_signal(self, data: pld.DistributedTensor[[1, 4], pl.FP32]):
        # expected-error@+1 {{pld.system.defer_wait: 'signal' must be a pld.DistributedTensor of pl.INT32}}
        pld.system.defer_wait(data, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)

    @pl.function(type=pl.FunctionType.InCore)
    def out_of_bounds(self, signal: pld.DistributedTensor[[1, 4], pl.INT32]):
        # expected-error@+1 {{pld.system.defer_wait: region [4, 5) in dim 1 is out of bounds of 'signal' (size 4)}}
        pld.system.defer_wait(signal, offsets=[0, 4], expected=1, cmp=pld.WaitCmp.Ge)

    @pl.function(type=pl.FunctionType.InCore)
    def no_cmp(self, signal: pld.DistributedTensor[[1, 4], pl.INT32]):
        # expected-error@+1 {{pld.system.defer_wait}}
        pld.system.defer_wait(signal, offsets=[0, 0], expected=1)
