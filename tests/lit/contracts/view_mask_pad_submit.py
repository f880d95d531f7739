# RUN: ptodist check %s --verify-diagnostics
# What pl.tile.transpose_view, pl.tri, pl.fillpad_expand and pl.submit reject, as PyPTO's type rules
# do: a view of a tile of at least 2 dims; a mask of a 2-D shape, a valid region inside it, one of nine
# dtypes, an INT32 diagonal; a pad into a shape of the operand's rank, no dim smaller; a submit of a
# kernel with deps/dumps/allow_early_resolve (no launch spec, no dispatch predicate).
import pypto.language as pl


@pl.program
class Contract:
    @pl.function(type=pl.FunctionType.InCore)
    def tiles(
        self,
        x: pl.Tensor[[16, 32], pl.FP32],
        v: pl.Tensor[[1, 32], pl.FP32],
        d: pl.Scalar[pl.INT64],
    ):
        t = pl.load(x, [0, 0], [16, 32])
        # expected-error@+1 {{pl.tile.transpose_view: 'tile' must be a tile}}
        a = pl.tile.transpose_view(x)
        f = pl.reshape(pl.load(v, [0, 0], [1, 32]), [32])
        # expected-error@+1 {{pl.tile.transpose_view: 'tile' must have at least 2 dims, got pl.Tile[[32], pl.FP32, pl.Mem.Vec]}}
        b = pl.tile.transpose_view(f)
        # expected-error@+1 {{pl.tile.tri: 'shape' must be a list of 2 integers, got}}
        c = pl.tile.tri(0, [4, 8, 2])
        # expected-error@+1 {{pl.tri: 'valid_shape' dim 1 must be in [1, 8] (the shape's dim), got 9}}
        e = pl.tri(0, [4, 8], valid_shape=[4, 9])
        # expected-error@+1 {{pl.tile.tri: 'dtype' must be one of pl.INT8, pl.UINT8, pl.INT16, pl.INT32, pl.UINT16, pl.UINT32, pl.FP16, pl.BF16, pl.FP32, got pl.INT64}}
        g = pl.tile.tri(0, [4, 8], dtype=pl.INT64)
        # expected-error@+1 {{pl.tile.tri: 'diagonal' must be a pl.INT32 scalar, got pl.Scalar[pl.INT64]; use pl.cast}}
        h = pl.tile.tri(d, [4, 8])
        # expected-error@+1 {{pl.tile.tri: 'shape' dim 0 must be positive, got 0}}
        k = pl.tile.tri(0, [0, 8])
        # expected-error@+1 {{pl.fillpad_expand: 'shape' dim 1 (16) is smaller than the operand's (32); fillpad_expand only grows a tile}}
        m = pl.fillpad_expand(t, [16, 16])
        # expected-error@+1 {{pl.tile.fillpad_expand: 'shape' must be a list of 2 integers (the rank of 'tile'), got a list of 3 elements}}
        n = pl.tile.fillpad_expand(t, [16, 32, 1])
        # expected-error@+1 {{pl.tile.fillpad_expand: 'pad_value' must be pl.PadValue.zero, pl.PadValue.max or pl.PadValue.min (or the literal 0), got}}
        o = pl.tile.fillpad_expand(t, [32, 32], pad_value=pl.PadValue.null)
        # expected-error@+1 {{pl.tile.fillpad_expand: 'tile' must be a tile in pl.Mem.Vec, got}}
        p = pl.tile.fillpad_expand(pl.load(x, [0, 0], [16, 32], target_memory=pl.Mem.Mat), [32, 32])

    @pl.function(type=pl.FunctionType.InCore)
    def work(
        self,
        x: pl.Tensor[[16, 32], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        t = pl.load(x, [0, 0], [16, 32])
        out = pl.store(t, [0, 0], out)
        return out

    @pl.function(type=pl.FunctionType.Orchestration)
    def orch(
        self,
        x: pl.Tensor[[16, 32], pl.FP32],
        out: pl.Out[pl.Tensor[[16, 32], pl.FP32]],
        n: pl.Scalar[pl.INT32],
    ) -> pl.Tensor[[16, 32], pl.FP32]:
        with pl.manual_scope():
            out, t = pl.submit(self.work, x, out, dumps=[x], allow_early_resolve=True)
            out, t2 = pl.submit(self.work, x, out, deps=[t])
            # expected-error@+1 {{pl.submit: 'deps' must be a list of pl.TaskId (the second result of earlier submits) or arrays of them (pl.array.create(n, pl.TASK_ID)), but an element is pl.Scalar[pl.INT32]}}
            out, t3 = pl.submit(self.work, x, out, deps=[n])
            # expected-error@+1 {{pl.submit: 'dumps' must list tensors passed positionally to the kernel, but an element is pl.Scalar[pl.INT32]}}
            out, t4 = pl.submit(self.work, x, out, dumps=[n])
            # expected-error@+1 {{pl.submit: unexpected keyword argument 'core_num'}}
            out, t5 = pl.submit(self.work, x, out, core_num=2)
            # expected-error@+1 {{pl.submit: 'allow_early_resolve' must be True or False, got}}
            out, t6 = pl.submit(self.work, x, out, allow_early_resolve=n)
            # expected-error@+1 {{pl.submit: 'predicate' (a dispatch predicate) is not supported by ptodist yet}}
            out, t7 = pl.submit(self.work, x, out, predicate=n)
            # expected-error@+1 {{pl.submit: 'kernel' must name a kernel function (InCore, AIC or AIV) or a Group such as self.my_kernel, got}}
            out, t8 = pl.submit(self.orch, x, out, n)
        return out
