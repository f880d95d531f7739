# RUN: ptodist check %s --verify-diagnostics
# What the cross-core pipe ops and Group functions reject: each op on its own side of the pipe (the
# AIC kernel pushes to and pops from the AIV, and the other way round), constant attributes in range,
# a tpop whose type is neither annotated nor given, a push from the wrong memory, and a Group that
# calls anything but its AIC and AIV kernels.
import pypto.language as pl


@pl.program
class Errors:
    @pl.function(type=pl.FunctionType.AIC)
    def cube(self, x: pl.Tensor[[16, 16], pl.FP32]):
        # expected-error@+1 {{pl.aic_initialize_pipe: 'dir_mask' must be in [1, 3], got 4}}
        pl.aic_initialize_pipe(dir_mask=4, slot_size=1024)
        # expected-error@+1 {{pl.aic_initialize_pipe: 'local_slot_num' (4) must not exceed 'slot_num' (2)}}
        pl.aic_initialize_pipe(dir_mask=1, slot_size=1024, slot_num=2, local_slot_num=4)
        # expected-error@+1 {{pl.tpush_to_aic: only allowed in an AIV (vector) kernel (@pl.function(type=pl.FunctionType.AIV)), not in AIC function 'cube'}}
        pl.tpush_to_aic(pl.load(x, [0, 0], [16, 16]), split=0)
        # expected-error@+1 {{pl.tpush_to_aiv: 'tile' must be an Acc or Mat tile (the cube kernel pushes a matmul result), got pl.Tile[[16, 16], pl.FP32, pl.Mem.Vec]}}
        pl.tpush_to_aiv(pl.load(x, [0, 0], [16, 16]), split=0)
        # expected-error@+1 {{pl.tpop_from_aiv: the popped tile's type is needed}}
        t = pl.tpop_from_aiv(split=0)

    @pl.function(type=pl.FunctionType.AIV)
    def vector(self, x: pl.Tensor[[16, 16], pl.FP32]):
        # expected-error@+1 {{pl.tpush_to_aic: 'split' must be in [0, 2], got 3}}
        pl.tpush_to_aic(pl.load(x, [0, 0], [16, 16]), split=3)
        # expected-error@+1 {{pl.tpush_to_aic: missing required argument 'split'}}
        pl.tpush_to_aic(pl.load(x, [0, 0], [16, 16]))
        # expected-error@+1 {{pl.reserve_buffer: 'size' must be in [1, 2147483647], got 0}}
        b = pl.reserve_buffer(name="slots", size=0)
        # expected-error@+1 {{pl.import_peer_buffer: 'peer_func' must be a non-empty string}}
        p = pl.import_peer_buffer(name="slots", peer_func="")

    @pl.function(type=pl.FunctionType.InCore)
    def plain(self, x: pl.Tensor[[16, 16], pl.FP32]):
        # expected-error@+1 {{pl.aiv_initialize_pipe: only allowed in an AIV (vector) kernel (@pl.function(type=pl.FunctionType.AIV)), not in InCore function 'plain'}}
        pl.aiv_initialize_pipe(dir_mask=1, slot_size=1024)

    @pl.function(type=pl.FunctionType.Group)
    def group(self, x: pl.Tensor[[16, 16], pl.FP32]):
        self.cube(x)
        # expected-error@+1 {{call of 'plain': a Group function calls only its AIC and AIV kernels, and 'plain' is InCore}}
        self.plain(x)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 16], pl.FP32]):
        self.group(x)
