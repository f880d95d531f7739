# pl.submit (PyPTO's one-block submit) in a manual scope: a two-stage pipeline over a grid of tiles where
# each second stage waits only for its own first stage (deps=[tid]), with the dump and early-dispatch
# hints that change no result. A submit in a manual scope returns before its kernel runs, with the
# tensor the kernel returns: a parameter, also through `ret = pl.store(..., out)` / `return ret` and
# `return pl.store(..., scratch)`, as PyPTO's kernels end (the next iteration passes it on). Check
# mode finds no race (the deps edge orders every read of the scratch after its write), and reports one
# without it. Golden from numpy.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/x.npy "np.arange(32*32, dtype=np.float32).reshape(32, 32) * 0.25 - 50"
# RUN: ptodist run %s --entry main --in x=%t/x.npy --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t out "x * 2 + 1"
# RUN: ptodist run %s --entry main --in x=%t/x.npy --mode check --runs 3
# RUN: not ptodist run %s --entry racy --in x=%t/x.npy --mode check --runs 3 2>&1 | FileCheck %s --check-prefix=RACE
# RACE: error: check: unordered read of local GM data: rank 0, vector core {{[0-9]+}} (block 0/1 of inc) reads bytes [0, 64) of 'scratch'
# RACE: note: written by rank 0, vector core {{[0-9]+}} (block 0/1 of double) (pl.store); nothing orders that write before the read
# RUN: ptodist compile %s --emit=ir | FileCheck %s
import pypto.language as pl

T = 16
G = 2


@pl.program
class Pipeline:
    @pl.function(type=pl.FunctionType.InCore)
    def double(
        self,
        x: pl.Tensor[[T * G, T * G], pl.FP32],
        scratch: pl.Out[pl.Tensor[[T * G, T * G], pl.FP32]],
        row: pl.Scalar[pl.INDEX],
        col: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[T * G, T * G], pl.FP32]:
        t = pl.load(x, [row, col], [T, T])
        return pl.store(pl.add(t, t), [row, col], scratch)

    @pl.function(type=pl.FunctionType.InCore)
    def inc(
        self,
        scratch: pl.Tensor[[T * G, T * G], pl.FP32],
        out: pl.Out[pl.Tensor[[T * G, T * G], pl.FP32]],
        row: pl.Scalar[pl.INDEX],
        col: pl.Scalar[pl.INDEX],
    ) -> pl.Tensor[[T * G, T * G], pl.FP32]:
        t = pl.load(scratch, [row, col], [T, T])
        ret: pl.Tensor[[T * G, T * G], pl.FP32] = pl.store(pl.add(t, 1.0), [row, col], out)
        return ret

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(
        self,
        x: pl.Tensor[[T * G, T * G], pl.FP32],
        out: pl.Out[pl.Tensor[[T * G, T * G], pl.FP32]],
    ) -> pl.Tensor[[T * G, T * G], pl.FP32]:
        scratch: pl.Tensor[[T * G, T * G], pl.FP32] = pl.create_tensor([T * G, T * G], dtype=pl.FP32)
        with pl.manual_scope():
            for i in pl.range(G):
                for j in pl.parallel(G):
                    # CHECK: scratch, first = pl.submit(
                    # CHECK-NEXT: self.double, x, scratch, i * T, j * T, dumps=[x], allow_early_resolve=True
                    scratch, first = pl.submit(
                        self.double, x, scratch, i * T, j * T, dumps=[x], allow_early_resolve=True
                    )
                    # CHECK: out, _ = pl.submit(self.inc, scratch, out, i * T, j * T, deps=[first])
                    out, _ = pl.submit(self.inc, scratch, out, i * T, j * T, deps=[first])
        return out

    # The near miss: without deps= nothing orders a second stage after its first.
    @pl.function(type=pl.FunctionType.Orchestration)
    def racy(
        self,
        x: pl.Tensor[[T * G, T * G], pl.FP32],
        out: pl.Out[pl.Tensor[[T * G, T * G], pl.FP32]],
    ) -> pl.Tensor[[T * G, T * G], pl.FP32]:
        scratch: pl.Tensor[[T * G, T * G], pl.FP32] = pl.create_tensor([T * G, T * G], dtype=pl.FP32)
        with pl.manual_scope():
            scratch, first = pl.submit(self.double, x, scratch, 0, 0)
            out, _ = pl.submit(self.inc, scratch, out, 0, 0)
        return out
