# RUN: ptodist check %s --verify-diagnostics
# Parameter annotations: shapes, dtypes and wrappers are checked where they are written.
import pypto.language as pl


@pl.jit.incore
def kernel(
    # expected-error@+1 {{pl.Tensor takes a shape and a dtype}}
    a: pl.Tensor[[8, 8]],
    # expected-error@+1 {{expected a dtype such as pl.FP16 in pl.Tensor[...]}}
    b: pl.Tensor[[8, 8], pl.FP61],
    # expected-error@+1 {{parameter 'c' of 'kernel' needs a type annotation}}
    c,
    # expected-error@+1 {{unknown type 'pl.Tensr'}}
    d: pl.Tensr[[8], pl.FP32],
    # expected-error@+1 {{shape dimension must be an integer constant}}
    e: pl.Tensor[[1.5, 8], pl.FP32],
):
    pass


@pl.jit.incore
def too_many_dims(
    # expected-error@+1 {{a shape of 9 dims; tensors and tiles have at most 8}}
    a: pl.Tensor[[1, 1, 1, 1, 1, 1, 1, 1, 2], pl.FP32],
):
    pass


@pl.jit.incore
def too_long_a_shape_list(b: pl.Tensor[[1, 1, 1, 1, 1, 1, 1, 2], pl.FP32]):
    # expected-error@+1 {{pl.create_tile: 'shape' has 9 entries; shapes and offsets have at most 8}}
    t = pl.create_tile([1, 1, 1, 1, 1, 1, 1, 1, 2], pl.FP32)
