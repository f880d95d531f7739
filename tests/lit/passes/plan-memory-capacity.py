# RUN: ptodist check %s --verify-diagnostics
# Over capacity: the error names the kernel, the memory, the bytes needed and the live tiles.
import pypto.language as pl
import pypto.language.distributed as pld


# expected-error@+2 {{kernel 'kernel' needs 196608 bytes of Vec (UB) memory but the a2a3 profile has 188416; tiles live at the peak: a (65536 B), b (65536 B), c (65536 B)}}
@pl.jit.incore
def kernel(
    x: pl.Tensor[[128, 128], pl.FP32],
    y: pl.Out[pl.Tensor[[128, 128], pl.FP32]],
):
    # expected-note@+1 {{'a' (pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec], 65536 bytes) is live at the peak}}
    a = pl.load(x, [0, 0], [128, 128])
    # expected-note@+1 {{'b' (pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec], 65536 bytes) is live at the peak}}
    b = pl.load(x, [0, 0], [128, 128])
    # expected-note@+1 {{'c' (pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec], 65536 bytes) is live at the peak}}
    c = pl.add(a, b)
    y = pl.store(c, [0, 0], y)
