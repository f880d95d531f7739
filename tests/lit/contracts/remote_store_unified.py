# RUN: ptodist check %s --verify-diagnostics
# The unified pld.remote_store: `atomic` is keyword-only, and a source that is neither a tile nor a
# GM tensor is reported by the tensor form.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class UnifiedRemoteStore:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[2, 64], pl.FP32],
        acc: pl.InOut[pld.DistributedTensor[[8, 64], pl.FP32]],
    ):
        t = pl.load(x, [0, 0], [2, 64])
        # expected-error@+1 {{pld.tile.remote_store: takes at most 4 positional arguments, got 5; pass 'atomic' and the parameters after it by keyword}}
        pld.remote_store(t, acc, 1, [0, 0], pld.AtomicType.Add)
        # expected-error@+1 {{pld.tensor.remote_store: 'src' must be}}
        pld.remote_store(1.0, acc, 1, [0, 0])
