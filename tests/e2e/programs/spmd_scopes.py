# pl.spmd scopes, run: every form launches its body on several blocks and each block writes its own
# slice, so a block that ran the wrong slice, or did not run, leaves a wrong row: the loop form, the
# inline with-form binding a task id, a dispatch body (one kernel call) gated on it inside a manual
# scope, and a pl.at carrier on 2 blocks of 2 rows each. Two ranks, each on its own slice of the host
# tensors.
import pypto.language as pl
import pypto.language.distributed as pld

B = 4
N = 64


@pl.program
class SpmdScopes:
    @pl.function(type=pl.FunctionType.InCore)
    def flip(
        self, x: pl.Tensor[[B, N], pl.FP32], y: pl.Out[pl.Tensor[[B, N], pl.FP32]]
    ) -> pl.Tensor[[B, N], pl.FP32]:
        i = pl.tile.get_block_idx()
        t = pl.load(x, [i, 0], [1, N])
        y = pl.store(pl.add(t, 10.0), [B - 1 - i, 0], y)
        return y

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip_orch(
        self,
        x: pl.Tensor[[B, N], pl.FP32],
        y: pl.Out[pl.Tensor[[B, N], pl.FP32]],
        z: pl.Out[pl.Tensor[[B, N], pl.FP32]],
        w: pl.Out[pl.Tensor[[B, N], pl.FP32]],
        v: pl.Out[pl.Tensor[[B, N], pl.FP32]],
    ) -> pl.Tensor[[B, N], pl.FP32]:
        for r in pl.spmd(B, name_hint="triple"):
            t = pl.load(x, [r, 0], [1, N])
            y = pl.store(pl.mul(t, 3.0), [r, 0], y)
        with pl.spmd(B, sync_start=True) as tid:
            j = pl.tile.get_block_idx()
            t = pl.load(y, [j, 0], [1, N])
            z = pl.store(pl.add(t, 1.0), [j, 0], z)
        with pl.manual_scope():
            with pl.spmd(B, deps=[tid]) as flip_tid:
                w = self.flip(z, w)
            with pl.spmd(2, allow_early_resolve=True):
                with pl.at(level=pl.Level.CORE_GROUP, name_hint="pairs", deps=[flip_tid]):
                    k = pl.tile.get_block_idx()
                    t = pl.load(w, [k * 2, 0], [2, N])
                    v = pl.store(pl.mul(t, 2.0), [k * 2, 0], v)
        return v

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host_orch(
        self,
        xs: pl.Tensor[[2, B, N], pl.FP32],
        ys: pl.Out[pl.Tensor[[2, B, N], pl.FP32]],
        zs: pl.Out[pl.Tensor[[2, B, N], pl.FP32]],
        ws: pl.Out[pl.Tensor[[2, B, N], pl.FP32]],
        vs: pl.Out[pl.Tensor[[2, B, N], pl.FP32]],
    ):
        for r in pl.range(pld.world_size()):
            self.chip_orch(xs[r], ys[r], zs[r], ws[r], vs[r], device=r)
