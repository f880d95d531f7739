# RUN-less input of multi_file.test: imports that cannot be honoured are located errors.
import pypto.language as pl

# expected-error@+1 {{cannot find module '.missing' beside}}
from .missing import THING
# expected-error@+1 {{module 'config' has no constant, @pl.jit function or @pl.function 'DEPTH'}}
from config import DEPTH
from kernels.scale import host_helper
from numpy import float32


@pl.jit.incore
def kernel(x: pl.Tensor[[1, 8], pl.FP32], n: pl.Scalar[pl.INT32]):
    # expected-error@+1 {{'host_helper' is imported from module 'kernels.scale', where it is a host Python function (line 29 there)}}
    a = host_helper()
    # expected-error@+1 {{'float32' is imported from module 'numpy', which is not a kernel file beside this one}}
    b = float32
