# RUN: ptodist compile %s -p specialize,convert-tensor-to-tile --emit=tile-ir | FileCheck %s
# convert-tensor-to-tile on tensor-level values in a kernel (PyPTO's ConvertTensorToTileOps): a
# tensor-level op whose result only flows into stores computes on loaded tiles; a GM-to-GM assemble
# stages its source in a tile; pld.tensor.remote_store becomes pld.tile.remote_store. A value with a
# use that needs a GM tensor (pl.load of it) or an op that promotes its dtype stays as it was.
import pypto.language as pl
import pypto.language.distributed as pld


# CHECK-LABEL: def kernel(
@pl.jit.incore
def kernel(
    a: pl.Tensor[[8, 64], pl.FP32],
    b: pl.Tensor[[8, 64], pl.FP32],
    n: pl.Tensor[[8, 64], pl.INT32],
    out: pl.Out[pl.Tensor[[8, 64], pl.FP32]],
    win: pld.DistributedTensor[[8, 64], pl.FP32],
    peer: pl.Scalar[pl.INT32],
):
    # A nested tensor-level op in an assemble: both operands loaded whole.
    # CHECK: out = pl.assemble(out, pl.add(pl.load(a, [0, 0], [8, 64]), pl.load(b, [0, 0], [8, 64])), [0, 0])
    out = pl.assemble(out, pl.add(a, b), [0, 0])
    # A variable whose uses all take a tile becomes one; a plain slice operand is a load of its region.
    # CHECK-NEXT: s = pl.muls(pl.load(a, [4, 0], [4, 64]), 2.0)
    # CHECK-NEXT: pld.tile.remote_store(s, win, peer, [0, 0])
    # CHECK-NEXT: out = pl.assemble(out, s, [4, 0])
    s = pl.mul(pl.slice(a, [4, 64], [4, 0]), 2.0)
    pld.tensor.remote_store(s, win, peer, [0, 0])
    out = pl.assemble(out, s, [4, 0])
    # A GM tensor pushed to a peer is loaded first.
    # CHECK-NEXT: pld.tile.remote_store(pl.load(b, [0, 0], [8, 64]), win, peer, [0, 0])
    pld.tensor.remote_store(b, win, peer, [0, 0])
    # Read back by pl.load: stays a GM tensor (the PTO emitter names the op).
    # CHECK-NEXT: kept = pl.sub(a, b)
    # CHECK-NEXT: t = pl.load(kept, [0, 0], [8, 64])
    kept = pl.sub(a, b)
    t = pl.load(kept, [0, 0], [8, 64])
    out = pl.store(t, [0, 0], out)
    # INT32 to FP32 in one op (a tensor-level promotion) has no tile form: kept, then loaded as a tensor.
    # CHECK-NEXT: out = pl.store(t, [0, 0], out)
    # CHECK-NEXT: r = pl.tensor.sqrt(n)
    # CHECK-NEXT: out = pl.assemble(out, pl.load(r, [0, 0], [8, 64]), [0, 0])
    r = pl.tensor.sqrt(n)
    out = pl.assemble(out, r, [0, 0])
    return out
