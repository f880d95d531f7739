# RUN: ptodist check %s --verify-diagnostics
# What pl.split_aiv regions, their boundary ops and the explicit cross-core events reject (PyPTO's
# AivSplitValid rules (a)-(d), (h) and its sync op checks): a region only in a kernel a CORE_GROUP
# scope outlines (or an InCore one), not in an AIC or AIV kernel, of 2 lanes with a mode, not nested;
# pl.aiv_shard / pl.aic_gather only inside a region, from Acc and from Vec; no matmul inside a region,
# no reduction across its split axis; event ids 0-13, ffts_mode 0-2, a core_type that is "aic" or
# "aiv" and agrees with where the op runs; an FFTS workspace of at least 256 INT64 elements.
import pypto.language as pl


@pl.program
class Errors:
    @pl.function(type=pl.FunctionType.AIV)
    def declared_aiv(self, x: pl.Tensor[[16, 16], pl.FP32]):
        # expected-error@+1 {{a pl.split_aiv region is CORE_GROUP-level: it may not open in the AIV function 'declared_aiv'}}
        for lane in pl.split_aiv(2, mode=pl.SplitMode.NONE):
            pl.store(pl.load(x, [0, 0], [16, 16]), [0, 0], x)

    @pl.function(type=pl.FunctionType.AIC)
    def cube(self, x: pl.Tensor[[16, 16], pl.FP32]):
        # expected-error@+1 {{pl.system.sync_wait: core_type="aiv" contradicts where the op runs: 'cube' is an AIC kernel}}
        pl.system.sync_wait(1, pipe=pl.PipeType.MTE2, core_type="aiv")

    @pl.function(type=pl.FunctionType.AIV)
    def vector(self, x: pl.Tensor[[16, 16], pl.FP32], ws: pl.Tensor[[128], pl.INT64], ws32: pl.Tensor[[256], pl.INT32]):
        # expected-error@+1 {{pl.system.set_ffts: 'workspace' must have a static length of at least 256 INT64 elements}}
        pl.system.set_ffts(ws)
        # expected-error@+1 {{pl.system.set_ffts: 'workspace' must be a 1-D INT64 tensor}}
        pl.system.set_ffts(ws32)
        # expected-error@+1 {{pl.system.sync_set: 'event_id' must be in the user-available range [0, 13] (14 and 15 are reserved), got 14}}
        pl.system.sync_set(14, pipe=pl.PipeType.MTE3)
        # expected-error@+1 {{pl.system.sync_set: 'ffts_mode' must be 0, 1 or 2, got 3}}
        pl.system.sync_set(1, pipe=pl.PipeType.MTE3, ffts_mode=3)
        # expected-error@+1 {{pl.system.sync_set: 'core_type' must be "aic" or "aiv", got "cube"}}
        pl.system.sync_set(1, pipe=pl.PipeType.MTE3, core_type="cube")
        # expected-error@+1 {{pl.system.sync_wait: 'pipe' must be a pl.PipeType.* member}}
        pl.system.sync_wait(1, pipe=2)

    @pl.function(type=pl.FunctionType.Opaque)
    def main(self, a: pl.Tensor[[16, 16], pl.FP32], out: pl.Out[pl.Tensor[[16, 16], pl.FP32]]):
        with pl.at(level=pl.Level.CORE_GROUP, name_hint="mixed"):
            a_left = pl.move(pl.load(a, [0, 0], [16, 16], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Left)
            a_right = pl.move(pl.load(a, [0, 0], [16, 16], target_memory=pl.Mem.Mat), target_memory=pl.Mem.Right)
            p = pl.matmul(a_left, a_right)
            # expected-error@+1 {{pl.aiv_shard: must be used inside a 'for aiv_id in pl.split_aiv(...)' region, which supplies the split mode}}
            h = pl.aiv_shard(p)
            # expected-error@+1 {{pl.system.sync_wait: in a kernel that mixes cube and vector work, say which lane runs it}}
            pl.system.sync_wait(2, pipe=pl.PipeType.MTE2)
            # expected-error@+1 {{pl.split_aiv() splits over the 2 vector lanes of a core group: its count must be 2}}
            for lane in pl.split_aiv(4, mode=pl.SplitMode.UP_DOWN):
                pass
            # expected-error@+1 {{pl.split_aiv(): mode must be pl.SplitMode.NONE, UP_DOWN or LEFT_RIGHT}}
            for lane in pl.split_aiv(2, mode=pl.SplitMode.AUTO):
                pass
            for lane in pl.split_aiv(2, mode=pl.SplitMode.UP_DOWN):
                # expected-error@+1 {{pl.matmul: cube compute inside a pl.split_aiv region, which is the vector lanes' body}}
                q = pl.matmul(a_left, a_right)
                v = pl.load(a, [0, 0], [8, 16])
                # expected-error@+1 {{pl.aiv_shard: 'x' must be an Acc tile (a cube result crossing to the vector lane)}}
                w = pl.aiv_shard(v)
                # expected-error@+1 {{pl.aic_gather: 'x' must be a Vec tile (a vector-lane value crossing to the cube)}}
                g = pl.aic_gather(p)
                # expected-error@+1 {{pl.system.sync_set: core_type="aic" contradicts where the op runs: a pl.split_aiv region is the vector lanes}}
                pl.system.sync_set(1, pipe=pl.PipeType.MTE3, core_type="aic")
                # expected-error@+1 {{pl.split_aiv regions do not nest: this one is inside another}}
                for inner in pl.split_aiv(2, mode=pl.SplitMode.NONE):
                    pass
                # expected-error@+1 {{pl.col_max: reduces across the split axis of a pl.split_aiv(mode=pl.SplitMode.UP_DOWN) region}}
                m = pl.col_max(pl.aiv_shard(p))
                out = pl.store(pl.aiv_shard(p), [lane * 8, 0], out)
            for lane in pl.split_aiv(2, mode=pl.SplitMode.LEFT_RIGHT):
                half = pl.aiv_shard(p)
                # expected-error@+1 {{pl.row_sum: reduces across the split axis of a pl.split_aiv(mode=pl.SplitMode.LEFT_RIGHT) region}}
                s = pl.row_sum(half)
                ok = pl.col_sum(half)
        return out
