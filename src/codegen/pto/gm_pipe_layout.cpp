// The GM slot buffer layout of the a2a3 cross-core pipes (gm_pipe_layout.h).
#include "gm_pipe_layout.h"

#include "ptodist/ir/functor.h"
#include "ptodist/ir/op_table.h"

namespace ptodist::codegen::pto {

using namespace ir;

long long gm_pipe_footprint(long long dir_mask, long long slot_num, long long slot_size) {
  const bool both = dir_mask == 3;
  const long long slots = slot_num > 0 ? slot_num : (both ? 4 : 8);
  return slots * (both ? 2 : 1) * slot_size;
}

namespace {

long long attr(const OpCall& c, const char* slot) {
  const Expr& e = c.arg(slot);
  return e && !e->isa<NoneImm>() ? as_const_int(e).value_or(0) : 0;
}

class PipeInits : public Walker {
 public:
  std::map<std::pair<long long, long long>, long long> footprint;
  void visit_expr(const Expr& e) override {
    const auto* c = e ? e->as<OpCall>() : nullptr;
    if (c && (c->op->id == OpId::AicInitializePipe || c->op->id == OpId::AivInitializePipe)) {
      const long long mask = attr(*c, "dir_mask");
      long long& bytes = footprint[{attr(*c, "id"), mask}];
      bytes = std::max(bytes, gm_pipe_footprint(mask, attr(*c, "slot_num"), attr(*c, "slot_size")));
    }
    Walker::visit_expr(e);
  }
};

}  // namespace

GmPipeLayout gm_pipe_layout(const ProgramNode& program) {
  PipeInits inits;
  for (const Function& f : program.functions)
    if (f && is_kernel(f->kind)) inits.visit_block(f->body);
  GmPipeLayout layout;
  for (const auto& [key, bytes] : inits.footprint) {
    layout.offsets[key] = layout.bytes;
    layout.bytes += bytes;
  }
  return layout;
}

}  // namespace ptodist::codegen::pto
