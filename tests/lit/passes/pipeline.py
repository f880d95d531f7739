# RUN: ptodist compile %s --print-after-all --emit=tile-ir | FileCheck %s
# RUN: ptodist compile %s --no-pass insert-comm-fence --emit=tile-ir | FileCheck %s --check-prefix=NOFENCE
# The whole pipeline, in order, with a dump after every pass.
import pypto.language as pl
import pypto.language.distributed as pld

# CHECK: // -----// IR Dump After specialize //----- //
# CHECK: // -----// IR Dump After lower-collectives //----- //
# CHECK: // -----// IR Dump After convert-tensor-to-tile //----- //
# CHECK: // -----// IR Dump After bind-async-scratch //----- //
# CHECK: // -----// IR Dump After check-async-events //----- //
# CHECK: // -----// IR Dump After check-core-budget //----- //
# CHECK: // -----// IR Dump After expand-mixed-kernel //----- //
# CHECK: // -----// IR Dump After plan-memory //----- //
# CHECK: // -----// IR Dump After insert-comm-fence //----- //
# CHECK: pl.system.fence()
# NOFENCE-NOT: pl.system.fence()


@pl.jit.incore
def kernel(
    x: pl.Tensor[[1, 256], pl.FP32],
    win: pld.DistributedTensor[[1, 256], pl.FP32],
):
    ctx = pld.get_comm_ctx(win)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    pld.tensor.put(win, peer, x)
