# RUN: ptodist check %s --verify-diagnostics
# A `with pl.at(...)` scope inside a loop whose one-line body aborts its statement: the scope's parser
# state (the loops a yield may reach, the branch depth) is restored on the way out, so the enclosing
# loop ends normally and the next loop parses (found by the front-end fuzzer: a segmentation fault).
import pypto.language as pl

N = 16


@pl.program
class Aborted:
    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[4, N], pl.FP32]):
        for i in pl.range(2):
            # expected-error@+2 {{unknown name 'pl.Lve'}}
            # expected-error@+1 {{unexpected 'da' after statement; expected end of line}}
            with pl.at(level=pl.Level.CORE_GROUP): pl.Lve da
        for k in pl.range(2):
            # expected-error@+2 {{unknown name 'pl.Lve'}}
            # expected-error@+1 {{unexpected 'da' after statement; expected end of line}}
            with pl.at(level=pl.Level.CORE_GROUP): pl.Lve da
