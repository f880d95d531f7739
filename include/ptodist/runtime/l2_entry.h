// An L2 program (no host orchestrator) run through one of its chip orchestrations.
#pragma once

#include <string>

#include "ptodist/ir/function.h"

namespace ptodist::runtime {

// A program with a host orchestrator is returned as it is. One without runs a chip orchestration on
// rank 0 with its parameters as the run's inputs, as PyPTO runs an L2 program on one device: the only
// one it has, or the one named `entry` (PyPTO's compiled["name"]); the program is returned with a host
// orchestrator making that call added. Null with `error` set when there is none or the choice is open.
ir::Program with_l2_entry(const ir::Program& p, const std::string& entry, std::string& error);

}  // namespace ptodist::runtime
