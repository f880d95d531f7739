# Kernel scalars at run time follow Python on 64-bit integers (docs/language.md, "Scalar semantics"):
# case 0 writes defined results (checked by scalar_runtime_test.sh against values computed by hand);
# each other case is one expression that must fail with a located error, not a signal or a wrong value.
# x holds [0, 5, INT64_MIN, -1, 100, 2, INT64_MAX, 7].
import pypto.language as pl
import pypto.language.distributed as pld


def make_program(world_size, case=0):
    @pl.program
    class ScalarSemantics:
        @pl.function(type=pl.FunctionType.AIV)
        def kernel(self, x: pl.Tensor[[1, 8], pl.INT64], yi: pl.Out[pl.Tensor[[1, 8], pl.INT64]], yf: pl.Out[pl.Tensor[[1, 4], pl.FP32]]) -> pl.Tensor[[1, 4], pl.FP32]:
            zero = pl.read(x, [0, 0])
            five = pl.read(x, [0, 1])
            int_min = pl.read(x, [0, 2])
            minus_one = pl.read(x, [0, 3])
            hundred = pl.read(x, [0, 4])
            two = pl.read(x, [0, 5])
            int_max = pl.read(x, [0, 6])
            if case == 0:
                pl.write(yi, [0, 0], zero and five)
                pl.write(yi, [0, 1], five and two)
                pl.write(yi, [0, 2], zero or five)
                pl.write(yi, [0, 3], five or two)
                pl.write(yi, [0, 4], int_min % minus_one)
                pl.write(yi, [0, 5], int_min // two)
                pl.write(yi, [0, 6], minus_one ** int_max)
                pl.write(yi, [0, 7], -five // two)
                pl.write(yf, [0, 0], five / two)
                pl.write(yf, [0, 1], (zero and 2.5) + 0.25)
                pl.write(yf, [0, 2], 1.5 if zero else five)
                pl.write(yf, [0, 3], -7.5 % two)
            if case == 1:
                k = int_min // minus_one
            if case == 2:
                k = two ** minus_one
            if case == 3:
                k = two << hundred
            if case == 4:
                k = two ** int_max
            if case == 5:
                k = five // zero
            if case == 6:
                k = int_max + five
            if case == 7:
                k = -int_min
            return yf

        @pl.function(type=pl.FunctionType.Orchestration)
        def chip(self, x: pl.Tensor[[1, 8], pl.INT64], yi: pl.Out[pl.Tensor[[1, 8], pl.INT64]], yf: pl.Out[pl.Tensor[[1, 4], pl.FP32]]) -> pl.Tensor[[1, 4], pl.FP32]:
            yf = self.kernel(x, yi, yf)
            return yf

        @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
        def host(self, x: pl.Tensor[[world_size, 1, 8], pl.INT64], yi: pl.Out[pl.Tensor[[world_size, 1, 8], pl.INT64]], yf: pl.Out[pl.Tensor[[world_size, 1, 4], pl.FP32]]):
            for r in pl.range(pld.world_size()):
                self.chip(x[r], yi[r], yf[r], device=r)

    return ScalarSemantics
