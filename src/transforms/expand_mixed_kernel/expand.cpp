// expand-mixed-kernel (include/ptodist/transforms/expand_mixed_kernel.h): the pass itself. affinity.cpp
// says which core each statement needs, side_body.cpp builds each half; here the halves get their pipe
// set-up and the Group that replaces the kernel.
#include "ptodist/ir/functor.h"
#include "ptodist/ir/op_table.h"
#include "ptodist/transforms/expand_mixed_kernel.h"
#include "side_body.h"

namespace ptodist::transforms {

using namespace ir;
using mixed::Side;

namespace {

// PyPTO's automatic pipe depth (kDefaultAutoPipeSlotNum): two slots, so the producer can fill one while
// the consumer reads the other.
constexpr long long kSlotNum = 2;

std::string unused_name(const Program& p, const std::string& base) {
  std::string name = base;
  for (int n = 1; p->find(name); ++n) name = base + "_" + std::to_string(n);
  return name;
}

std::shared_ptr<FunctionNode> half_of(const Function& kernel, FunctionKind kind, std::string name) {
  auto f = std::make_shared<FunctionNode>(*kernel);
  f->kind = kind;
  f->name = std::move(name);
  f->body.clear();
  if (kind == FunctionKind::AIC) f->return_types.clear();  // the AIV half returns the kernel's results
  return f;
}

// A return anywhere but as the body's last statement.
class EarlyReturn : public Walker {
 public:
  const StmtNode* last = nullptr;
  const StmtNode* found = nullptr;
  void visit_stmt(const Stmt& s) override {
    if (!found && s->isa<Return>() && s.get() != last) found = s.get();
    Walker::visit_stmt(s);
  }
};

class Expander {
 public:
  Expander(const Program& p, const Function& kernel, PassContext& cx)
      : p_(p), kernel_(kernel), cx_(cx), at_(kernel->span) {}

  // The AIC kernel, the AIV kernel and the Group, or nothing after an error.
  std::vector<Function> run() {
    // The vector half returns the kernel's results at its end, and the cube half nothing.
    EarlyReturn early;
    early.last = kernel_->body.empty() ? nullptr : kernel_->body.back().get();
    early.visit_block(kernel_->body);
    if (early.found) {
      cx_.diags.error(early.found->span,
                      "expand-mixed-kernel: a mixed kernel may return only at its end, where "
                      "its vector half returns its results");
      return {};
    }
    auto aic = half_of(kernel_, FunctionKind::AIC, unused_name(p_, kernel_->name + "_aic"));
    auto aiv = half_of(kernel_, FunctionKind::AIV, unused_name(p_, kernel_->name + "_aiv"));
    detail::OpMaker cube_ops(cx_.diags, p_, aic), vector_ops(cx_.diags, p_, aiv);
    mixed::PipeTraffic traffic;
    mixed::SideBody cube(Side::Cube, cube_ops, vars_, traffic, cx_.diags);
    mixed::SideBody vector(Side::Vector, vector_ops, vars_, traffic, cx_.diags);
    if (!cube.build(kernel_, aic->body) || !vector.build(kernel_, aiv->body)) return {};
    if (!mixed::check_self_contained(aic, "cube (AIC)", cx_.diags) ||
        !mixed::check_self_contained(aiv, "vector (AIV)", cx_.diags) ||
        !mixed::check_gm_handoffs(aic, aiv, cx_.diags))
      return {};
    if (traffic.to_vector || traffic.to_cube) {
      Block aic_setup = setup(cube_ops, traffic, true, aiv->name);
      Block aiv_setup = setup(vector_ops, traffic, false, aic->name);
      if (cx_.diags.error_count() > errors_at_start_) return {};
      aic->body.insert(aic->body.begin(), aic_setup.begin(), aic_setup.end());
      aiv->body.insert(aiv->body.begin(), aiv_setup.begin(), aiv_setup.end());
    }
    Function group = group_of(aic, aiv);
    if (!group) return {};
    return {aic, aiv, group};
  }

 private:
  // One side's pipe set-up, as PyPTO's automatic set-up writes it: the consumer of each direction
  // reserves `<kernel>_<dir>_slot_buffer` (slot_num slots of the largest tile), the producer imports
  // it, and both initialise the pipe with the directions used.
  Block setup(detail::OpMaker& make, const mixed::PipeTraffic& traffic, bool cube, const std::string& peer) {
    Block out;
    Builder& b = make.builder();
    Expr c2v_buf = make.i(0, at_), v2c_buf = make.i(0, at_);
    auto buffer = [&](const char* dir, bool reserve) {
      std::string name = kernel_->name + "_" + dir + "_slot_buffer";
      Expr value =
          reserve ? make.call(OpId::ReserveBuffer,
                              {{"name", b.str_imm(name, at_)},
                               {"size", make.i(kSlotNum * traffic.slot_bytes, at_)}},
                              at_)
                  : make.call(OpId::ImportPeerBuffer,
                              {{"name", b.str_imm(name, at_)}, {"peer_func", b.str_imm(peer, at_)}}, at_);
      if (!value) return make.i(0, at_);
      Var v = vars_.make(reserve ? name : name + "_import", value->type, at_);
      out.push_back(detail::make_assign(v, value, at_));
      return make.ref(v, at_);
    };
    // The cube consumes vector-to-cube slots and the vector core cube-to-vector ones.
    if (traffic.to_cube) v2c_buf = buffer("v2c", cube);
    if (traffic.to_vector) c2v_buf = buffer("c2v", !cube);
    long long dir_mask = (traffic.to_vector ? 1 : 0) | (traffic.to_cube ? 2 : 0);
    Expr init = make.call(cube ? OpId::AicInitializePipe : OpId::AivInitializePipe,
                          {{"c2v_consumer_buf", c2v_buf},
                           {"v2c_consumer_buf", v2c_buf},
                           {"dir_mask", make.i(dir_mask, at_)},
                           {"slot_size", make.i(traffic.slot_bytes, at_)},
                           {"slot_num", make.i(kSlotNum, at_)}},
                          at_);
    if (init) out.push_back(detail::make_expr_stmt(init, at_));
    return out;
  }

  // The Group under the kernel's name: it launches both halves with the whole signature and returns
  // the kernel's results. When those are parameters the kernel wrote (PyPTO's param-return), it returns
  // them itself, so a submit's result is known before the kernels finish.
  Function group_of(const Function& aic, const Function& aiv) {
    auto group = half_of(kernel_, FunctionKind::Group, kernel_->name);
    group->return_types = kernel_->return_types;
    std::vector<Function> functions = p_->functions;
    functions.push_back(aic);
    functions.push_back(aiv);
    BuildScope scope{FunctionKind::Group, group->name, &functions, nullptr};
    Builder b(cx_.diags);
    std::vector<CallArg> args;
    for (const Param& prm : kernel_->params) args.push_back({"", b.var_ref(prm.var, at_), at_});
    const bool via_self = p_->style == ProgramStyle::Class;
    Expr call_aic = b.func_call(aic->name, via_self, args, scope, at_);
    Expr call_aiv = b.func_call(aiv->name, via_self, args, scope, at_);
    if (!call_aic || !call_aiv) return nullptr;
    group->body.push_back(detail::make_expr_stmt(call_aic, at_));
    const auto* ret = kernel_->body.empty() ? nullptr : kernel_->body.back()->as<Return>();
    if (!ret || ret->values.empty()) {
      group->body.push_back(detail::make_expr_stmt(call_aiv, at_));
      return group;
    }
    bool params_only = true;
    for (const Expr& v : ret->values) {
      Var var = detail::as_var(v);
      bool is_param = false;
      for (const Param& prm : kernel_->params) is_param |= var && prm.var == var;
      params_only &= is_param;
    }
    auto r = std::make_shared<Return>(*ret);
    if (params_only) {
      group->body.push_back(detail::make_expr_stmt(call_aiv, at_));
    } else {
      r->values = {call_aiv};
    }
    group->body.push_back(r);
    return group;
  }

  const Program& p_;
  const Function& kernel_;
  PassContext& cx_;
  SourceSpan at_;
  int errors_at_start_ = cx_.diags.error_count();
  detail::VarFactory vars_{p_, kernel_};
};

// A kernel whose author placed its work on the cores (a pl.split_aiv region, explicit cross-core
// events with their core_type): this pass does not read those placements yet, so the kernel stays one
// InCore kernel, which the CPU runtime runs with the regions' lanes and the events' counts.
class ManualSplit : public Walker {
 public:
  bool found = false;
  void visit_stmt(const Stmt& s) override {
    if (const auto* f = s->as<For>(); f && f->loop_kind == LoopKind::SplitAiv) found = true;
    Walker::visit_stmt(s);
  }
  void visit_expr(const Expr& e) override {
    if (const auto* c = e ? e->as<OpCall>() : nullptr)
      found |= c->op->id == OpId::SyncSet || c->op->id == OpId::SyncWait || c->op->id == OpId::SetFfts;
    Walker::visit_expr(e);
  }
};

bool placed_by_author(const Function& f) {
  ManualSplit w;
  w.visit_function(f);
  return w.found;
}

}  // namespace

Program expand_mixed_kernel(const Program& p, PassContext& cx) {
  auto out = std::make_shared<ProgramNode>(*p);
  out->functions.clear();
  bool ok = true;
  for (const Function& f : p->functions) {
    if (f->kind != FunctionKind::InCore || mixed::side_of(f->body) != Side::Mixed || placed_by_author(f)) {
      out->functions.push_back(f);
      continue;
    }
    std::vector<Function> parts = Expander(p, f, cx).run();
    ok = ok && !parts.empty();
    out->functions.insert(out->functions.end(), parts.begin(), parts.end());
  }
  return ok ? out : nullptr;
}

}  // namespace ptodist::transforms
