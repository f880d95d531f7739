# pl.array: a kernel's on-core scalar array, read as `a[i]` and written as `a[i] = v` (PyPTO's parser
# turns that into a = pl.array.update_element(a, i, v)). A histogram of the indices, checked against
# numpy's bincount.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/idx.npy "(np.arange(2*8*4, dtype=np.int32).reshape(2, 8, 4) * 7) %% 6"
# RUN: ptodist run %s --ranks 2 --in idx=%t/idx.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t counts "np.stack([np.bincount(idx[r].ravel(), minlength=6).reshape(6, 1) for r in range(2)]).astype(np.int32)"
# RUN: ptodist compile %s --emit=ir | FileCheck %s
import pypto.language as pl
import pypto.language.distributed as pld

N_RANKS = 2
T = 8
K = 4
E = 6


@pl.program
class Histogram:
    @pl.function(type=pl.FunctionType.InCore)
    def histogram(
        self,
        idx: pl.Tensor[[T, K], pl.INT32],
        counts: pl.Out[pl.Tensor[[E, 1], pl.INT32]],
    ) -> pl.Tensor[[E, 1], pl.INT32]:
        # CHECK: hist = pl.array.create(E, pl.INT32)
        hist = pl.array.create(E, pl.INT32)
        for e in pl.range(E):
            hist[e] = 0
        for t in pl.range(T):
            for k in pl.range(K):
                e = pl.read(idx, [t, k])
                # CHECK: cur = pl.array.get_element(hist, e)
                cur = hist[e]
                # CHECK: hist = pl.array.update_element(hist, e, cur + 1)
                hist[e] = cur + 1
        for e in pl.range(E):
            pl.write(counts, [e, 0], hist[e])
        return counts

    @pl.function(type=pl.FunctionType.Orchestration)
    def child(
        self,
        idx: pl.Tensor[[T, K], pl.INT32],
        counts: pl.Out[pl.Tensor[[E, 1], pl.INT32]],
    ) -> pl.Tensor[[E, 1], pl.INT32]:
        counts = self.histogram(idx, counts)
        return counts

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(
        self,
        idx: pl.Tensor[[N_RANKS, T, K], pl.INT32],
        counts: pl.Out[pl.Tensor[[N_RANKS, E, 1], pl.INT32]],
    ):
        for r in pl.range(pld.world_size()):
            self.child(idx[r], counts[r], device=r)
