# atomic=pl.AtomicType.Add stores of INT16 and INT8 tiles (Ascend's set_atomic_s16 / set_atomic_s8;
# PyPTO's store accepts fp32/bf16/fp16/int32/int16/int8): the kernel runs twice, so each output ends
# at its start value plus twice the tile. Golden values from numpy; the PTO carries the atomic
# attribute on the i16 / i8 tstore.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t/in
# RUN: %numpy %S/Inputs/npy.py save %t/in/x16.npy "(np.arange(16 * 16).reshape(16, 16) % 201 - 100).astype(np.int16)"
# RUN: %numpy %S/Inputs/npy.py save %t/in/x8.npy "(np.arange(16 * 32).reshape(16, 32) % 41 - 20).astype(np.int8)"
# RUN: %numpy %S/Inputs/npy.py save %t/in/acc16.npy "np.full((16, 16), 5, np.int16)"
# RUN: %numpy %S/Inputs/npy.py save %t/in/acc8.npy "np.full((16, 32), 1, np.int8)"
# RUN: ptodist run %s --entry orchestrator --in x16=%t/in/x16.npy --in x8=%t/in/x8.npy --in acc16=%t/in/acc16.npy --in acc8=%t/in/acc8.npy --out-dir %t
# RUN: cp %t/in/x16.npy %t/in/x8.npy %t
# RUN: %numpy %S/Inputs/npy.py check %t acc16 "(5 + 2 * x16.astype(np.int32)).astype(np.int16)"
# RUN: %numpy %S/Inputs/npy.py check %t acc8 "(1 + 2 * x8.astype(np.int32)).astype(np.int8)"
# RUN: ptodist compile %s --emit=pto | FileCheck %s
# CHECK: pto.tstore ins(%t16 : !pto.tile_buf<loc=vec, dtype=i16, {{.*}}>) outs(%acc16_pview : !pto.partition_tensor_view<16x16xi16>) {atomicType = #pto<atomic_type atomic_add>}
# CHECK: pto.tstore ins(%t8 : !pto.tile_buf<loc=vec, dtype=i8, {{.*}}>) outs(%acc8_pview : !pto.partition_tensor_view<16x32xi8>) {atomicType = #pto<atomic_type atomic_add>}
import pypto.language as pl


@pl.program
class AtomicSmallInts:
    @pl.function(type=pl.FunctionType.InCore)
    def accumulate(
        self,
        x16: pl.Tensor[[16, 16], pl.INT16],
        x8: pl.Tensor[[16, 32], pl.INT8],
        acc16: pl.InOut[pl.Tensor[[16, 16], pl.INT16]],
        acc8: pl.InOut[pl.Tensor[[16, 32], pl.INT8]],
    ) -> tuple[pl.Tensor[[16, 16], pl.INT16], pl.Tensor[[16, 32], pl.INT8]]:
        t16 = pl.load(x16, [0, 0], [16, 16])
        acc16 = pl.store(t16, [0, 0], acc16, atomic=pl.AtomicType.Add)
        t8 = pl.load(x8, [0, 0], [16, 32])
        acc8 = pl.store(t8, [0, 0], acc8, atomic=pl.AtomicType.Add)
        return acc16, acc8

    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestrator(
        self,
        x16: pl.Tensor[[16, 16], pl.INT16],
        x8: pl.Tensor[[16, 32], pl.INT8],
        acc16: pl.InOut[pl.Tensor[[16, 16], pl.INT16]],
        acc8: pl.InOut[pl.Tensor[[16, 32], pl.INT8]],
    ) -> tuple[pl.Tensor[[16, 16], pl.INT16], pl.Tensor[[16, 32], pl.INT8]]:
        acc16, acc8 = self.accumulate(x16, x8, acc16, acc8)
        acc16, acc8 = self.accumulate(x16, x8, acc16, acc8)
        return acc16, acc8
