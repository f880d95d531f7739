# RUN: ptodist check %s --verify-diagnostics
# Over capacity: the error names the kernel, the memory, the bytes PyPTO's planner would need (the sum of
# its buffers) and each buffer with the tiles sharing it. `d = a - b` takes a's buffer (a's last use),
# but `s` is still live there, so three 64 KiB buffers exceed a2a3's 184 KiB of UB, as on PyPTO.
import pypto.language as pl
import pypto.language.distributed as pld


# expected-error@+2 {{kernel 'kernel' needs 196608 bytes of Vec (UB) memory but the a2a3 profile has 188416; its 3 buffers: a/d (65536 B), b (65536 B), s (65536 B); tiles live at the same time cannot share a buffer}}
@pl.jit.incore
def kernel(
    x: pl.Tensor[[128, 128], pl.FP32],
    y: pl.Out[pl.Tensor[[128, 128], pl.FP32]],
    z: pl.Out[pl.Tensor[[128, 128], pl.FP32]],
):
    # expected-note@+1 {{buffer of 65536 bytes at offset 0 for 'a' (pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec]), shared by a/d}}
    a = pl.load(x, [0, 0], [128, 128])
    # expected-note@+1 {{buffer of 65536 bytes at offset 65536 for 'b' (pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec])}}
    b = pl.load(x, [0, 0], [128, 128])
    # expected-note@+1 {{buffer of 65536 bytes at offset 131072 for 's' (pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec])}}
    s = pl.add(a, b)
    d = pl.sub(a, b)
    y = pl.store(s, [0, 0], y)
    z = pl.store(d, [0, 0], z)
