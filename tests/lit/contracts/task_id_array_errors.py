# RUN: ptodist check %s --verify-diagnostics
# What arrays of task ids reject, as PyPTO's type rules do: pl.TASK_ID is only the element type of an
# orchestration array (no kernel array, tensor or cast takes it), an orchestration array holds only
# task ids, and a slot takes only a pl.TaskId.
import pypto.language as pl


@pl.program
class Contract:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, x: pl.Tensor[[16, 16], pl.FP32]):
        # expected-error@+1 {{pl.array.create: an array of pl.TASK_ID holds task ids, which only an orchestration function has}}
        a = pl.array.create(4, pl.TASK_ID)
        # expected-error@+1 {{pl.create_tensor: 'dtype' must be a dtype such as pl.FP32, got the dtype pl.TASK_ID (only pl.array.create in an orchestration function takes it)}}
        b = pl.create_tensor([16, 16], dtype=pl.TASK_ID)

    @pl.function(type=pl.FunctionType.Orchestration)
    def main(self, x: pl.Tensor[[16, 16], pl.FP32]):
        # expected-error@+1 {{pl.array.create: an array of pl.INT32 is a kernel's on-core array; outside a kernel only pl.TASK_ID arrays exist}}
        counts = pl.array.create(4, pl.INT32)
        tids = pl.array.create(4, pl.TASK_ID)
        # expected-error@+1 {{pl.array.update_element: 'value' must be a pl.TaskId (an array of pl.TASK_ID holds task ids), got}}
        tids[0] = 3
        # expected-error@+1 {{pl.array.get_element: 'index' 4 is outside the array of 4 elements}}
        t = tids[4]
        # expected-error@+1 {{pl.system.task_dummy: 'deps' must be a list of pl.TaskId (the second result of earlier submits) or arrays of them (pl.array.create(n, pl.TASK_ID)), but an element is}}
        d = pl.system.task_dummy(deps=[x])
