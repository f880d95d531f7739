// plan-memory: liveness-based placement of every tile in its on-chip memory.
//
// Per kernel and per memory, tiles are placed in order of their first live point at the lowest aligned
// offset that no tile live at the same time occupies (first fit over live ranges, as in linear-scan
// allocation). The offsets are recorded on the variables' types (TypeNode::addr).
#include "ptodist/transforms/plan_memory.h"

#include <algorithm>

#include "ptodist/analysis/liveness.h"
#include "ptodist/ir/printer.h"
#include "rewrite_util.h"

namespace ptodist::transforms {

using namespace ir;
using analysis::LiveRange;

namespace {

struct Placed {
  LiveRange range;
  long long bytes = 0;
  long long addr = 0;
};

long long align_up(long long v, long long a) {
  return a <= 1 ? v : (v + a - 1) / a * a;
}

long long capacity(const ChipProfile& p, Memory m) {
  switch (m) {
    case Memory::Vec:
      return p.ub_bytes;
    case Memory::Mat:
      return p.l1_bytes;
    case Memory::Left:
      return p.l0a_bytes;
    case Memory::Right:
      return p.l0b_bytes;
    case Memory::Acc:
      return p.l0c_bytes;
  }
  return 0;
}

std::string memory_label(Memory m) {
  switch (m) {
    case Memory::Vec:
      return "Vec (UB)";
    case Memory::Mat:
      return "Mat (L1)";
    case Memory::Left:
      return "Left (L0A)";
    case Memory::Right:
      return "Right (L0B)";
    case Memory::Acc:
      return "Acc (L0C)";
  }
  return "?";
}

// The lowest aligned offset where `bytes` fit beside every placed tile whose range overlaps `r`.
long long first_fit(const std::vector<Placed>& placed, const LiveRange& r, long long bytes, long long align) {
  std::vector<std::pair<long long, long long>> busy;
  for (const Placed& p : placed)
    if (analysis::overlaps(p.range, r)) busy.push_back({p.addr, p.addr + p.bytes});
  std::sort(busy.begin(), busy.end());
  long long addr = 0;
  for (auto [lo, hi] : busy) {
    if (addr + bytes <= lo) break;
    addr = std::max(addr, align_up(hi, align));
  }
  return addr;
}

class Planner {
 public:
  Planner(PassContext& cx, const Function& f) : cx_(cx), f_(f) {}

  // Offsets per tile variable; false after a reported error.
  bool run(std::map<const VarNode*, long long>& addrs) {
    std::map<Memory, std::vector<Placed>> by_memory;
    bool ok = true;
    for (const LiveRange& r : analysis::tile_live_ranges(f_)) {
      auto dims = r.var->type->static_shape();
      if (!dims) {
        cx_.diags.error(r.var->span,
                        "tile '" + r.var->name + "' of kernel '" + f_->name + "' has shape " +
                            shape_str(r.var->type->shape) +
                            ", which is not static, so it cannot be placed in on-chip memory; use "
                            "constant dims (or bind the factory parameters it uses)");
        ok = false;
        continue;
      }
      long long bytes = dtype_bytes(r.var->type->dtype);
      for (long long d : *dims) bytes *= d;
      bytes = align_up(bytes, cx_.profile.alignment);
      std::vector<Placed>& placed = by_memory[r.var->type->memory];
      long long addr = first_fit(placed, r, bytes, cx_.profile.alignment);
      placed.push_back({r, bytes, addr});
      addrs[r.var.get()] = addr;
    }
    for (const auto& [mem, placed] : by_memory) ok = check_capacity(mem, placed) && ok;
    return ok;
  }

 private:
  bool check_capacity(Memory mem, const std::vector<Placed>& placed) {
    long long high = 0;
    for (const Placed& p : placed) high = std::max(high, p.addr + p.bytes);
    long long cap = capacity(cx_.profile, mem);
    if (high <= cap) return true;
    std::vector<const Placed*> peak = live_at_peak(placed);
    std::string names;
    for (const Placed* p : peak)
      names += (names.empty() ? "" : ", ") + p->range.var->name + " (" + std::to_string(p->bytes) + " B)";
    Diagnostic& d = cx_.diags.error(f_->span, "kernel '" + f_->name + "' needs " + std::to_string(high) +
                                                  " bytes of " + memory_label(mem) + " memory but the " +
                                                  cx_.profile.name + " profile has " + std::to_string(cap) +
                                                  "; tiles live at the peak: " + names +
                                                  "; use smaller tiles or end some tiles' use sooner");
    for (const Placed* p : peak)
      DiagnosticEngine::note(d, p->range.var->span,
                             "'" + p->range.var->name + "' (" + type_str(p->range.var->type) + ", " +
                                 std::to_string(p->bytes) + " bytes) is live at the peak");
    return false;
  }

  // The tiles live at the point where the most bytes are live, in placement order.
  static std::vector<const Placed*> live_at_peak(const std::vector<Placed>& placed) {
    long long best = -1;
    int best_at = 0;
    for (const Placed& p : placed) {
      long long sum = 0;
      for (const Placed& q : placed)
        if (q.range.start <= p.range.start && p.range.start <= q.range.end) sum += q.bytes;
      if (sum > best) {
        best = sum;
        best_at = p.range.start;
      }
    }
    std::vector<const Placed*> out;
    for (const Placed& q : placed)
      if (q.range.start <= best_at && best_at <= q.range.end) out.push_back(&q);
    return out;
  }

  PassContext& cx_;
  const Function& f_;
};

// Copies the function with each planned tile's type carrying its offset; the first definition of each
// tile gets the type as its annotation so the printed IR shows the placement.
class AddrWriter : public detail::DeepRewriter {
 public:
  AddrWriter(const std::map<const VarNode*, long long>& addrs,
             std::map<const StmtNode*, const VarNode*> first_defs)
      : addrs_(addrs), first_defs_(std::move(first_defs)) {}

  Var map_var(const Var& v) override {
    if (!v) return v;
    auto done = var_map_.find(v.get());
    if (done != var_map_.end()) return done->second;
    auto it = addrs_.find(v.get());
    if (it == addrs_.end()) return DeepRewriter::map_var(v);
    auto t = std::make_shared<TypeNode>(*v->type);
    t->addr = it->second;
    auto c = std::make_shared<VarNode>(*v);
    c->type = t;
    var_map_[v.get()] = c;
    return c;
  }

  Block rewrite_stmt(const Stmt& s) override {
    Block out = DeepRewriter::rewrite_stmt(s);
    auto it = first_defs_.find(s.get());
    if (it != first_defs_.end() && out.size() == 1) {
      auto a = std::static_pointer_cast<Assign>(std::const_pointer_cast<StmtNode>(out[0]));
      a->annotation = var_map_.at(it->second)->type;
    }
    return out;
  }

 private:
  const std::map<const VarNode*, long long>& addrs_;
  std::map<const StmtNode*, const VarNode*> first_defs_;
};

}  // namespace

Program plan_memory(const Program& p, PassContext& cx) {
  return detail::map_kernels(p, [&](const Function& f) -> Function {
    std::map<const VarNode*, long long> addrs;
    if (!Planner(cx, f).run(addrs)) return nullptr;
    std::map<const StmtNode*, const VarNode*> first_defs;
    for (const LiveRange& r : analysis::tile_live_ranges(f)) first_defs[r.first_def] = r.var.get();
    return AddrWriter(addrs, std::move(first_defs)).rewrite_function(f);
  });
}

}  // namespace ptodist::transforms
