// Communication groups, as PyPTO forms them (MaterializeCommDomainScopes): the window buffers the host
// orchestrator hands to the same subset of devices form one group, whose ranks are those devices in
// ascending order. Inside a kernel, pld.rank/pld.nranks of a window's comm context are group-local and
// every `peer` that addresses the window is a group rank. Each buffer is its own segment, so two
// overlapping groups never share signal cells or data: a wait in one group is satisfied only by
// notifies into that group's windows (check mode and the watchdog then report the hang).
#include <algorithm>
#include <set>

#include "exec.h"

namespace ptodist::runtime {

void assign_window_groups(RunEnv& env, int ranks) {
  std::map<int, std::set<int>> devices;  // segment -> the ranks its windows were dispatched to
  for (size_t r = 0; r < env.rank_calls.size(); ++r)
    for (const DeviceCall& call : env.rank_calls[r])
      for (const Value& a : call.args)
        if (const auto* t = std::get_if<TensorView>(&a); t && t->is_window())
          devices[t->window.segment].insert(static_cast<int>(r));
  env.window_groups.clear();
  for (const auto& [segment, members] : devices) {
    if (static_cast<int>(members.size()) == ranks) continue;  // the whole world: ranks are global
    if (env.window_groups.size() <= static_cast<size_t>(segment)) env.window_groups.resize(segment + 1);
    env.window_groups[segment].assign(members.begin(), members.end());
  }
}

const std::vector<int>* window_group(const RunEnv& env, const TensorView& window) {
  auto s = static_cast<size_t>(window.window.segment);
  if (!window.is_window() || s >= env.window_groups.size() || env.window_groups[s].empty()) return nullptr;
  return &env.window_groups[s];
}

std::string group_str(const std::vector<int>& members) {
  std::string out = "{";
  for (size_t i = 0; i < members.size(); ++i) out += (i ? ", " : "") + std::to_string(members[i]);
  return out + "}";
}

int global_peer(Interp& in, const ir::OpCall& c, const TensorView& window) {
  long long peer = in.int_arg(c, "peer");
  const std::vector<int>* group = window_group(*in.f.env, window);
  long long n = group ? static_cast<long long>(group->size()) : in.world().ranks();
  if (peer < 0 || peer >= n) {
    in.fail(c.arg("peer")->span,
            c.op->spelling + ": peer " + std::to_string(peer) +
                (group ? " is not a rank of the group of '" + window.name + "' (devices " +
                             group_str(*group) + ", ranks 0.." + std::to_string(n - 1) + ")"
                       : " is not a rank of this world (0.." + std::to_string(n - 1) + ")"));
  }
  return group ? (*group)[static_cast<size_t>(peer)] : static_cast<int>(peer);
}

CommCtxValue comm_ctx_of(Interp& in, const ir::OpCall& c, const TensorView& window) {
  const std::vector<int>* group = window_group(*in.f.env, window);
  if (!group) return CommCtxValue{in.f.rank, in.world().ranks()};
  auto it = std::find(group->begin(), group->end(), in.f.rank);
  if (it == group->end())
    in.fail(c.span, c.op->spelling + ": rank " + std::to_string(in.f.rank) + " is not in the group of '" +
                        window.name + "' (devices " + group_str(*group) + ")");
  return CommCtxValue{static_cast<int>(it - group->begin()), static_cast<int>(group->size())};
}

std::string group_note(const RunEnv& env, const TensorView& window) {
  const std::vector<int>* group = window_group(env, window);
  return group ? " (group of devices " + group_str(*group) + ")" : "";
}

}  // namespace ptodist::runtime
