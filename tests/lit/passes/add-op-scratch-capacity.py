# RUN: ptodist check %s --verify-diagnostics
# The scratch tile add-op-scratch gives a high-precision rsqrt is planned memory: with it, a 64 KiB
# operand, its 64 KiB result and the 64 KiB scratch exceed a2a3's 184 KiB of UB (as on PyPTO, whose
# ConvertTensorToTileOps allocates the same tile); the same kernel without high_precision fits.
import pypto.language as pl


# expected-error@+2 {{kernel 'big' needs 196608 bytes of Vec (UB) memory but the a2a3 profile has 188416}}
@pl.jit.incore
def big(
    x: pl.Tensor[[128, 128], pl.FP32],
    y: pl.Out[pl.Tensor[[128, 128], pl.FP32]],
):
    # expected-note@+1 {{buffer of 65536 bytes at offset 0 for 'a' (pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec])}}
    a = pl.load(x, [0, 0], [128, 128])
    # expected-note@+2 {{buffer of 65536 bytes at offset 65536 for 'rsqrt_tmp' (pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec])}}
    # expected-note@+1 {{buffer of 65536 bytes at offset 131072 for 'r' (pl.Tile[[128, 128], pl.FP32, pl.Mem.Vec])}}
    r = pl.rsqrt(a, high_precision=True)
    y = pl.store(r, [0, 0], y)


@pl.jit.incore
def fits(
    x: pl.Tensor[[128, 128], pl.FP32],
    y: pl.Out[pl.Tensor[[128, 128], pl.FP32]],
):
    a = pl.load(x, [0, 0], [128, 128])
    r = pl.rsqrt(a)
    y = pl.store(r, [0, 0], y)
