# pl.write returns its destination, as PyPTO's tensor.write does: `table = pl.write(table, [t, k], v)`
# rebinds the tensor in an unrolled loop (PyPTO's ops/test_scalar_write_transpose.py), and the kernel
# writes the transpose of `vals` viewed as [K, R]. Golden from numpy; the IR and the PTO text.
# REQUIRES: numpy
# RUN: rm -rf %t && mkdir -p %t
# RUN: %numpy %S/Inputs/npy.py save %t/vals.npy "np.arange(12, dtype=np.float32) * 1.5 - 4"
# RUN: ptodist run %s --entry orchestrator --in vals=%t/vals.npy --in table=zeros --out-dir %t
# RUN: %numpy %S/Inputs/npy.py check %t table "vals.reshape(3, 4).T"
# RUN: ptodist run %s --entry orchestrator --in vals=%t/vals.npy --in table=zeros --mode check
# RUN: ptodist compile %s --emit=ir | FileCheck %s --check-prefix=IR
# RUN: ptodist compile %s --emit=pto | FileCheck %s --check-prefix=PTO
import pypto.language as pl

R, K = 4, 3


@pl.program
class WriteChain:
    @pl.function(type=pl.FunctionType.InCore)
    def write_table(
        self,
        vals: pl.Tensor[[R * K], pl.FP32],
        table: pl.InOut[pl.Tensor[[R, K], pl.FP32]],
    ) -> pl.Tensor[[R, K], pl.FP32]:
        for k in pl.unroll(K):
            for t in pl.unroll(R):
                val: pl.Scalar[pl.FP32] = pl.read(vals, [k * R + t])
                # IR: table = pl.write(table, [t, k], val)
                # PTO: pto.store_scalar
                table = pl.write(table, [t, k], val)
        return table

    @pl.function(type=pl.FunctionType.Orchestration)
    def orchestrator(
        self,
        vals: pl.Tensor[[R * K], pl.FP32],
        table: pl.InOut[pl.Tensor[[R, K], pl.FP32]],
    ) -> pl.Tensor[[R, K], pl.FP32]:
        table = self.write_table(vals, table)
        return table
