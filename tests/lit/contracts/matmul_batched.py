# RUN: ptodist check %s --verify-diagnostics
# Tensor-level matmul beyond 2-D, as PyPTO's tensor_ops/matmul.cpp rejects it: batch dims that do not
# broadcast, a transpose flag on a vector, a vector against a batch, a dot product (a 0-D result,
# which ptodist has no type for), and matmul_acc's matrices-only operands and 2-D-only init_cond.
import pypto.language as pl


@pl.jit.incore
def kernel(
    a: pl.Tensor[[2, 4, 16], pl.FP16],
    b: pl.Tensor[[3, 16, 8], pl.FP16],
    b1: pl.Tensor[[1, 16, 8], pl.FP16],
    m: pl.Tensor[[4, 16], pl.FP16],
    v: pl.Tensor[[16], pl.FP16],
    acc: pl.Tensor[[2, 4, 8], pl.FP32],
    acc1: pl.Tensor[[4, 8], pl.FP32],
    out: pl.Out[pl.Tensor[[2, 4, 8], pl.FP32]],
):
    # expected-error@+1 {{pl.matmul: the batch dims of 'lhs' shape [2, 4, 16] and 'rhs' shape [3, 16, 8] do not broadcast (each pair must be equal or one of them 1)}}
    p = pl.matmul(a, b)
    # expected-error@+1 {{pl.matmul: 'b_trans' does not apply to a 1-D rhs (a vector has no axes to swap); drop it or pass a 2-D rhs}}
    q = pl.matmul(m, v, b_trans=True)
    # expected-error@+1 {{pl.matmul: 'lhs' is 1-D: a batched matmul needs both operands at least 2-D, got lhs [16] and rhs [1, 16, 8]}}
    r = pl.matmul(v, b1)
    # expected-error@+1 {{pl.matmul: a dot product of two 1-D tensors (a 0-D result) is not supported by ptodist yet}}
    s = pl.matmul(v, v)
    # expected-error@+1 {{pl.matmul_acc: 'init_cond' applies to 2-D operands only (as in PyPTO): loop over the batch dim and accumulate 2-D matmuls, or branch on the condition with pl.matmul}}
    t = pl.matmul_acc(acc, a, b1, init_cond=True)
    # expected-error@+1 {{pl.matmul_acc: 'acc' must be pl.Tensor[[2, 4, 8], pl.FP32] (the product's type), got pl.Tensor[[4, 8], pl.FP32]}}
    u = pl.matmul_acc(acc1, a, b1)
    # expected-error@+1 {{pl.matmul_acc: 'rhs' must be at least 2-D (a matrix, with any batch dims before it), got pl.Tensor[[16], pl.FP16]}}
    w = pl.matmul_acc(acc1, m, v)
    out = pl.assemble(out, pl.matmul_acc(acc, a, b1), [0, 0, 0])
    return out
