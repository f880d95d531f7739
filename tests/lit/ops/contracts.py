# RUN: ptodist check %s --verify-diagnostics
# Contracts of the ops in PyPTO's spelling: each error names the op as written and its operand.
import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Contracts:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(
        self,
        x: pl.Tensor[[4, 16], pl.FP32],
        h: pl.Tensor[[4, 16], pl.FP16],
        y: pl.Out[pl.Tensor[[4, 16], pl.FP32]],
        n: pl.Scalar[pl.INT32],
    ):
        t = pl.load(x, [0, 0], [4, 16])
        # expected-error@+1 {{pl.tile.cast: 'tile' must be a tile, a tensor or a scalar, got pl.Array[4, pl.INT32]}}
        a = pl.tile.cast(pl.array.create(4, pl.INT32), pl.FP32)
        # expected-error@+1 {{pl.cast: Scalar inputs do not support non-default mode, got mode='floor'}}
        b = pl.cast(n, pl.FP32, mode="floor")
        # expected-error@+1 {{pl.tile.full: unexpected keyword argument 'target_memory'}}
        c = pl.tile.full([4, 16], dtype=pl.FP32, value=0.0, target_memory=pl.Mem.Vec)
        # expected-error@+1 {{pl.load: 'valid_shape' dim 1 (17) must lie in [0, 16]: the valid region narrows the tile, it cannot widen it}}
        d = pl.load(x, [0, 0], [4, 16], valid_shape=[4, 17])
        # expected-error@+1 {{pl.load: region [2, 6) in dim 0 is out of bounds of 'tensor' (size 4)}}
        e = pl.load(x, [2, 0], [4, 16])
        # expected-error@+1 {{pl.store: takes at most 4 positional arguments, got 5; pass 'atomic' and the parameters after it by keyword}}
        y = pl.store(t, [0, 0], y, None, pld.AtomicType.Add)
        # A partition naming the region the tile writes is that store; another one is an error.
        y = pl.store(t, [0, 0], y, [4, 16])
        # expected-error@+1 {{pl.store: 'shapes' [2, 16] must be the region the tile writes, [4, 16] (its valid region after leading 1s); another ND partition is not supported by ptodist yet}}
        y = pl.store(t, [0, 0], y, [2, 16])
        # expected-error@+1 {{pl.tile.row_sum: missing required argument 'tmp_tile'}}
        f = pl.tile.row_sum(t)
        # expected-error@+1 {{pl.tile.row_sum: 'tmp_tile' must have the input's dtype and rank and be at least as large in every dim}}
        g = pl.tile.row_sum(t, pl.tile.create([4, 8], pl.FP32))
        # expected-error@+1 {{pl.min: 'lhs' must be a numeric scalar, got pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec]; for tiles use pl.minimum / pl.maximum}}
        i = pl.min(t, 1)
        # expected-error@+1 {{pl.div: high_precision requires a tile or tensor 'rhs', not a scalar}}
        j = pl.div(t, 1.0, True)
        # expected-error@+1 {{pl.slice: region [3, 5) in dim 0 is out of bounds of 'input' (size 4)}}
        k = pl.slice(x, [2, 16], [3, 0])
        # expected-error@+1 {{pl.assemble: 'source' dtype pl.FP16 must match 'target' dtype pl.FP32; use pl.cast first}}
        y = pl.assemble(y, h, [0, 0])
        # expected-error@+1 {{pl.assemble: atomic=pl.AtomicType.Add needs a computed tile as 'source'}}
        y = pl.assemble(y, x, [0, 0], atomic=pld.AtomicType.Add)
        # expected-error@+1 {{pl.assemble: 'source' rank 3 must not exceed 'target' rank 2}}
        y = pl.assemble(y, pl.reshape(x, [1, 4, 16]), [0, 0])
        # A lower-rank source has leading dims of 1: row 4 of a [4, 16] target is out of bounds.
        # expected-error@+1 {{pl.assemble: region [4, 5) in dim 0 is out of bounds of 'target' (size 4)}}
        y = pl.assemble(y, pl.reshape(x, [64]), [4, 0])
        # expected-error@+1 {{pl.array.create: 'dtype' must be an integer dtype, pl.BOOL or pl.TASK_ID (arrays hold indices, counts and task ids), got pl.FP32}}
        l = pl.array.create(4, pl.FP32)
        # expected-error@+1 {{pl.array.get_element: 'index' 4 is outside the array of 4 elements}}
        m = pl.array.get_element(pl.array.create(4, pl.INT32), 4)
        # expected-error@+1 {{pl.tensor.dim: 'axis' 2 is out of range for a tensor of rank 2}}
        o = pl.tensor.dim(x, 2)
        # expected-error@+1 {{pl.tensor.add: 'lhs' must be a tensor in GM (pl.Tensor or pld.DistributedTensor), got pl.Tile[[4, 16], pl.FP32, pl.Mem.Vec]}}
        p = pl.tensor.add(t, t)
        # expected-error@+1 {{pl.tile.add: 'lhs' must be a tile, got pl.Tensor[[4, 16], pl.FP32]}}
        q = pl.tile.add(x, x)
        # expected-error@+1 {{pl.reshape: 'shape' [3, 16] holds 48 elements, 'input' [4, 16] holds 64}}
        r = pl.reshape(t, [3, 16])
        # expected-error@+1 {{pl.matmul: 'a_trans' is for tensors: on tiles transposition is the tile's layout (load the operand transposed, or call pl.matmul on the GM tensors)}}
        s = pl.matmul(t, t, a_trans=True)
        # expected-error@+1 {{pl.const: a float value needs a float dtype, got pl.INT32}}
        u = pl.const(1.5, pl.INT32)
        # expected-error@+1 {{'pl.tile.gatherb' is a PyPTO op that ptodist does not support yet}}
        v = pl.tile.gatherb(t, t)
        # expected-error@+1 {{pl.matmul: 'out_dtype' must be pl.FP32 (the accumulator dtype of these inputs), got pl.FP16; cast the result with pl.cast}}
        s2 = pl.matmul(h, h, b_trans=True, out_dtype=pl.FP16)
        # expected-error@+1 {{pl.transpose: 'axis1' and 'axis2' name the same axis (1); a transpose swaps two different axes}}
        s3 = pl.transpose(x, 1, -1)
        # expected-error@+1 {{pl.sort32: 'src' rows must be whole 32-element blocks, got 16 columns (the tail form with a scratch tile is not supported by ptodist yet)}}
        s4 = pl.sort32(x, pl.tensor.arange(0, [1, 16], dtype=pl.UINT32))
        # expected-error@+1 {{'pl.addc' is a PyPTO op that ptodist does not support yet}}
        pl.addc(t, t, t)
        # expected-error@+1 {{unknown op 'pl.tile.bogus'}}
        w = pl.tile.bogus(t)
