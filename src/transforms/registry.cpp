// The pass registry: every pass the CLI can name with -p, with its flag and one-line summary.
#include "ptodist/transforms/add_op_scratch.h"
#include "ptodist/transforms/bind_async_scratch.h"
#include "ptodist/transforms/check_async_events.h"
#include "ptodist/transforms/check_core_budget.h"
#include "ptodist/transforms/check_dynamic_dims.h"
#include "ptodist/transforms/convert_tensor_to_tile.h"
#include "ptodist/transforms/expand_mixed_kernel.h"
#include "ptodist/transforms/insert_comm_fence.h"
#include "ptodist/transforms/lower_collectives.h"
#include "ptodist/transforms/name_tile_operands.h"
#include "ptodist/transforms/pass.h"
#include "ptodist/transforms/plan_memory.h"
#include "ptodist/transforms/specialize.h"

namespace ptodist::transforms {

const std::vector<PassInfo>& registered_passes() {
  static const std::vector<PassInfo> passes = {
      {"specialize", specialize, "bind factory parameters and fold constants"},
      {"lower-collectives", lower_collectives, "lower pld.tensor collectives into put/notify/wait"},
      {"convert-tensor-to-tile", convert_tensor_to_tile,
       "give transfers staging tiles and async sessions their scratch tile"},
      {"bind-async-scratch", bind_async_scratch, "thread each session's scratch into its waits"},
      {"check-async-events", check_async_events, "check that every async event is drained on every path"},
      {"check-core-budget", check_core_budget,
       "check that kernels waiting on each other fit the chip's cores"},
      {"check-dynamic-dims", check_dynamic_dims,
       "check that every pl.dynamic dim is bound by a host parameter and known to its kernels"},
      {"name-tile-operands", name_tile_operands,
       "give each tile computed as another op's operand a variable of its own"},
      {"expand-mixed-kernel", expand_mixed_kernel,
       "split each kernel that needs both cube and vector cores into an AIC and an AIV kernel and a Group"},
      {"add-op-scratch", add_op_scratch, "give each op whose tile form takes a scratch tile one"},
      {"plan-memory", plan_memory, "place every tile in its on-chip memory, reusing dead ranges"},
      {"insert-comm-fence", insert_comm_fence, "insert cache-invalidate and fence markers"},
      {"print-async-events", print_async_events, "print the async-event dataflow facts of each kernel"},
  };
  return passes;
}

const PassInfo* find_pass(const std::string& flag) {
  for (const PassInfo& p : registered_passes())
    if (flag == p.flag) return &p;
  return nullptr;
}

}  // namespace ptodist::transforms
