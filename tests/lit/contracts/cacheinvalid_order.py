# RUN: ptodist check %s --verify-diagnostics
# pl.system.cacheinvalid takes PyPTO's order: (tensor, shapes, offsets).
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Invalidate:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, win: pld.DistributedTensor[[4, 256], pl.FP32]):
        pl.system.cacheinvalid()
        pl.system.cacheinvalid(win)
        pl.system.cacheinvalid(win, [1, 256], [3, 0])
        pl.system.cacheinvalid(tensor=win, shapes=[2, 128], offsets=[2, 128])
        # expected-error@+1 {{pl.system.cacheinvalid: region [4, 5) in dim 0 is out of bounds of 'tensor' (size 4)}}
        pl.system.cacheinvalid(win, [1, 256], [4, 0])
        # expected-error@+1 {{pl.system.cacheinvalid: 'shapes' and 'offsets' must be given together or not at all}}
        pl.system.cacheinvalid(win, [1, 256])
        # expected-error@+1 {{pl.system.cacheinvalid: a region needs 'tensor'}}
        pl.system.cacheinvalid(offsets=[0, 0])
        # expected-error@+1 {{pl.system.cacheinvalid: unexpected keyword argument 'target'}}
        pl.system.cacheinvalid(target=win)
