// Collectives called from the host orchestrator. PyPTO dispatches them to built-in per-device kernels
// (its LowerHostTensorCollectives pass); here each call becomes one generated InCore kernel that makes
// the same call, an orchestration function that runs it, and a `for r in pl.range(world_size)` loop of
// device calls in the host, so the collective runs on every rank's queue between the device calls
// around it and is then lowered like any kernel's. An allreduce without a signal gets a private one.
#include "host.h"

#include <cctype>

#include "ptodist/ir/op_table.h"

namespace ptodist::transforms::collectives {

using namespace ir;

namespace {

class HostLowerer {
 public:
  HostLowerer(PassContext& cx, std::shared_ptr<ProgramNode> p) : cx_(cx), p_(std::move(p)) {}

  bool failed() const { return failed_; }

  Block rewrite(const Function& host, const Stmt& s) {
    const OpCall* c = detail::stmt_op_call(s);
    if (!c || !is_collective(c->op->id)) return {s};
    Block out;
    detail::OpMaker host_make(cx_.diags, p_, host);
    detail::VarFactory host_vars(p_, host);
    std::vector<Expr> slots = c->args;
    if (c->op->id == OpId::AllReduce && (!slots[1] || slots[1]->isa<NoneImm>()))
      slots[1] = private_signal(host_make, host_vars, out, c->span);
    if (c->op->id == OpId::AllReduce && !slots[1]) return fail();  // barrier has one slot
    std::string kernel = unique_name("host_" + short_name(*c)), chip = kernel + "_chip";
    std::vector<Expr> tensors;
    for (const Expr& a : slots)
      if (a && a->type && a->type->is_tensor_like()) tensors.push_back(a);
    if (!add_kernel(kernel, *c, slots) || !add_chip(chip, kernel, tensors, c->span)) return fail();
    if (Function k = p_->find(kernel)) std::const_pointer_cast<FunctionNode>(k)->builtin = builtin_name(*c);
    dispatch(host, host_make, host_vars, out, chip, tensors, c->span);
    if (const auto* a = s->as<Assign>(); a && a->targets.size() == 1 && a->targets[0]) {
      Expr result = c->op->id == OpId::Barrier ? slots[0] : c->arg("target");
      Var v = detail::as_var(result);
      if (!v || v->id != a->targets[0]->id)
        out.push_back(detail::make_assign(a->targets[0], result, s->span));
    }
    return out;
  }

 private:
  Block fail() {
    failed_ = true;
    return {};
  }

  // PyPTO's name for the built-in kernel variant a host collective dispatches (its
  // distributed_ops_codegen.cpp): the op (allreduce with mode="ring" is allreduce_ring), the reduce
  // op of allreduce / reduce_scatter, broadcast's root, and the dtype (barrier's is fp32).
  static std::string builtin_name(const OpCall& c) {
    std::string name = "builtin.tensor." + short_name(c);
    if (c.op->id == OpId::AllReduce) {
      if (const auto* mode = c.arg("mode") ? c.arg("mode")->as<StrImm>() : nullptr;
          mode && mode->value == "ring")
        name += "_ring";
    }
    if (c.op->id == OpId::AllReduce || c.op->id == OpId::ReduceScatter) {
      const auto* e = c.arg("op") ? c.arg("op")->as<EnumImm>() : nullptr;
      name += "__" + lowercase(e ? e->value : "Sum");
    }
    if (c.op->id == OpId::Broadcast)
      if (auto root = c.arg("root") ? as_const_int(c.arg("root")) : std::nullopt)
        name += "__root" + std::to_string(*root);
    Expr target = c.op->id == OpId::Barrier ? nullptr : c.arg("target");
    DType dt = target && target->type ? target->type->dtype : DType::FP32;
    return name + "__" + lowercase(std::string(dtype_name(dt)));
  }

  static std::string lowercase(std::string s) {
    for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return s;
  }

  static std::string short_name(const OpCall& c) {
    const std::string& s = c.op->spelling;
    return s.substr(s.rfind('.') + 1);
  }

  std::string unique_name(const std::string& base) {
    std::string name = base;
    for (int n = 1; p_->find(name); ++n) name = base + "_" + std::to_string(n);
    return name;
  }

  Expr world_size(detail::OpMaker& m, SourceSpan span) {
    auto ws = cx_.bindings.find("world_size");
    return ws != cx_.bindings.end() ? m.i(ws->second, span) : m.call(OpId::WorldSize, {}, span);
  }

  // `buf = pld.alloc_window_buffer([world_size, 1], dtype=pl.INT32)`, `sig = pld.window(buf, ...)`.
  Expr private_signal(detail::OpMaker& m, detail::VarFactory& vars, Block& out, SourceSpan span) {
    Builder& b = m.builder();
    Expr shape = b.list({world_size(m, span), m.i(1, span)}, span);
    Expr buf =
        m.call(OpId::AllocWindowBuffer, {{"size", shape}, {"dtype", b.dtype_imm(DType::INT32, span)}}, span);
    if (!buf) return nullptr;
    Var bv = vars.make("allreduce_signal_buf", buf->type, span);
    out.push_back(detail::make_assign(bv, buf, span));
    Expr win = m.call(
        OpId::Window,
        {{"buf", m.ref(bv, span)}, {"shape", shape}, {"dtype", b.dtype_imm(DType::INT32, span)}}, span);
    if (!win) return nullptr;
    Var sv = vars.make("allreduce_signal", win->type, span);
    out.push_back(detail::make_assign(sv, win, span));
    return m.ref(sv, span);
  }

  // A parameter per tensor operand, with the operand's type.
  std::vector<Param> params_for(const std::vector<Expr>& tensors, detail::VarFactory& vars) {
    std::vector<Param> params;
    for (size_t k = 0; k < tensors.size(); ++k) {
      Var src = detail::as_var(tensors[k]);
      Param prm;
      prm.var = vars.make(src ? src->name : "operand", tensors[k]->type, tensors[k]->span);
      prm.direction = tensors[k]->type->kind == TypeKind::DistTensor ? Direction::InOut : Direction::In;
      params.push_back(prm);
    }
    return params;
  }

  Function empty_function(const std::string& name, FunctionKind kind, SourceSpan span) {
    auto f = std::make_shared<FunctionNode>();
    f->name = name;
    f->kind = kind;
    f->span = span;
    return f;
  }

  // `def host_allreduce(target, signal): pld.tensor.allreduce(target, signal, op=..., mode=...)`.
  bool add_kernel(const std::string& name, const OpCall& c, const std::vector<Expr>& slots) {
    auto f = std::const_pointer_cast<FunctionNode>(empty_function(name, FunctionKind::InCore, c.span));
    detail::VarFactory vars(p_, f);
    std::vector<Expr> tensors;
    for (const Expr& a : slots)
      if (a && a->type && a->type->is_tensor_like()) tensors.push_back(a);
    f->params = params_for(tensors, vars);
    p_->functions.insert(p_->functions.begin(), f);
    detail::OpMaker make(cx_.diags, p_, f);
    std::vector<Expr> kslots;
    size_t k = 0;
    for (size_t i = 0; i < slots.size(); ++i) {
      const Expr& a = slots[i];
      bool tensor = a && a->type && a->type->is_tensor_like();
      // The kernel runs on one core: a host allreduce's core_num only spreads the same work.
      bool drop = c.op->params[i].name == "core_num";
      kslots.push_back(tensor ? make.ref(f->params[k++].var, c.span) : drop ? nullptr : a);
    }
    Expr call = make.builder().op_call_slots(*c.op, std::move(kslots), {}, make.scope(), c.span);
    if (!call) return false;
    f->body.push_back(detail::make_expr_stmt(call, c.span));
    return true;
  }

  // `def host_allreduce_chip(target, signal): self.host_allreduce(target, signal)`.
  bool add_chip(const std::string& name, const std::string& kernel, const std::vector<Expr>& tensors,
                SourceSpan span) {
    auto f = std::const_pointer_cast<FunctionNode>(empty_function(name, FunctionKind::Orchestration, span));
    detail::VarFactory vars(p_, f);
    f->params = params_for(tensors, vars);
    auto at = p_->functions.begin() + 1;  // after its kernel
    p_->functions.insert(at, f);
    detail::OpMaker make(cx_.diags, p_, f);
    std::vector<CallArg> args;
    for (const Param& prm : f->params) args.push_back(CallArg{"", make.ref(prm.var, span), span});
    Expr call = make.builder().func_call(kernel, via_self(), args, make.scope(), span);
    if (!call) return false;
    f->body.push_back(detail::make_expr_stmt(call, span));
    return true;
  }

  // `for r in pl.range(world_size): self.host_allreduce_chip(target, signal, device=r)`.
  void dispatch(const Function& host, detail::OpMaker& m, detail::VarFactory& vars, Block& out,
                const std::string& chip, const std::vector<Expr>& tensors, SourceSpan span) {
    Var r = vars.make("r", scalar_type(DType::INT64), span);
    std::vector<CallArg> args;
    for (const Expr& t : tensors) args.push_back(CallArg{"", t, span});
    args.push_back(CallArg{"device", m.ref(r, span), span});
    BuildScope scope = m.scope();
    scope.functions = &p_->functions;
    Expr call = m.builder().func_call(chip, via_self(), args, scope, span);
    if (!call) {
      failed_ = true;
      return;
    }
    Block body{detail::make_expr_stmt(call, span)};
    out.push_back(
        detail::make_for(r, m.i(0, span), world_size(m, span), m.i(1, span), std::move(body), span));
  }

  bool via_self() const { return p_->style == ProgramStyle::Class; }

  PassContext& cx_;
  std::shared_ptr<ProgramNode> p_;
  bool failed_ = false;
};

}  // namespace

bool is_collective(OpId id) {
  switch (id) {
    case OpId::Barrier:
    case OpId::Broadcast:
    case OpId::AllGather:
    case OpId::ReduceScatter:
    case OpId::AllReduce:
    case OpId::AllToAll:
    case OpId::AllToAllV:
      return true;
    default:
      return false;
  }
}

Program lower_host_collectives(const Program& p, PassContext& cx) {
  auto out = std::make_shared<ProgramNode>(*p);
  HostLowerer low(cx, out);
  std::vector<std::string> hosts;
  for (const Function& f : p->functions)
    if (f->kind == FunctionKind::Host) hosts.push_back(f->name);
  for (const std::string& name : hosts) {
    // Generated functions go in front of the host function, so it is looked up by name each time.
    Function f = out->find(name);
    Block body = detail::map_blocks(f->body, [&](const Stmt& s) { return low.rewrite(f, s); });
    for (Function& g : out->functions)
      if (g->name == name) g = detail::with_body(f, std::move(body));
  }
  return low.failed() ? nullptr : out;
}

}  // namespace ptodist::transforms::collectives
