// Helpers the passes share to copy immutable IR nodes, make fresh variables and build op calls.
#include "rewrite_util.h"

#include <atomic>

#include "ptodist/ir/functor.h"
#include "ptodist/ir/op_table.h"

namespace ptodist::transforms::detail {

using namespace ir;

std::shared_ptr<ExprNode> copy_expr(const ExprNode& e) {
  switch (e.kind) {
#define PTODIST_COPY(K) \
  case ExprKind::K:     \
    return std::make_shared<K>(static_cast<const K&>(e));
    PTODIST_COPY(IntImm)
    PTODIST_COPY(FloatImm)
    PTODIST_COPY(BoolImm)
    PTODIST_COPY(StrImm)
    PTODIST_COPY(NoneImm)
    PTODIST_COPY(DTypeImm)
    PTODIST_COPY(EnumImm)
    PTODIST_COPY(Dynamic)
    PTODIST_COPY(VarRef)
    PTODIST_COPY(Unary)
    PTODIST_COPY(Binary)
    PTODIST_COPY(Compare)
    PTODIST_COPY(BoolOp)
    PTODIST_COPY(IfExp)
    PTODIST_COPY(List)
    PTODIST_COPY(Tuple)
    PTODIST_COPY(Subscript)
    PTODIST_COPY(OpCall)
    PTODIST_COPY(FuncCall)
    PTODIST_COPY(FuncRef)
#undef PTODIST_COPY
  }
  PTODIST_INTERNAL_ASSERT(false, "copy_expr: unknown expression kind");
}

std::shared_ptr<StmtNode> copy_stmt(const StmtNode& s) {
  switch (s.kind) {
    case StmtKind::Assign:
      return std::make_shared<Assign>(static_cast<const Assign&>(s));
    case StmtKind::ExprStmt:
      return std::make_shared<ExprStmt>(static_cast<const ExprStmt&>(s));
    case StmtKind::For:
      return std::make_shared<For>(static_cast<const For&>(s));
    case StmtKind::While:
      return std::make_shared<While>(static_cast<const While&>(s));
    case StmtKind::If:
      return std::make_shared<If>(static_cast<const If&>(s));
    case StmtKind::ManualScope:
      return std::make_shared<ManualScope>(static_cast<const ManualScope&>(s));
    case StmtKind::Return:
      return std::make_shared<Return>(static_cast<const Return&>(s));
    case StmtKind::Pass:
      return std::make_shared<Pass>(static_cast<const Pass&>(s));
  }
  PTODIST_INTERNAL_ASSERT(false, "copy_stmt: unknown statement kind");
}

Stmt make_assign(Var target, Expr value, SourceSpan span) {
  auto a = std::make_shared<Assign>();
  a->targets = {std::move(target)};
  a->value = std::move(value);
  a->span = span;
  return a;
}

Stmt make_expr_stmt(Expr value, SourceSpan span) {
  auto s = std::make_shared<ExprStmt>();
  s->value = std::move(value);
  s->span = span;
  return s;
}

Stmt make_for(Var iv, Expr start, Expr stop, Expr step, Block body, SourceSpan span) {
  auto f = std::make_shared<For>();
  f->iv = std::move(iv);
  f->start = std::move(start);
  f->stop = std::move(stop);
  f->step = std::move(step);
  f->body = std::move(body);
  f->span = span;
  return f;
}

Stmt make_if(Expr cond, Block then_body, Block else_body, SourceSpan span) {
  auto s = std::make_shared<If>();
  s->cond = std::move(cond);
  s->then_body = std::move(then_body);
  s->else_body = std::move(else_body);
  s->span = span;
  return s;
}

const OpCall* as_op_call(const Expr& e) {
  return e ? e->as<OpCall>() : nullptr;
}

const OpCall* stmt_op_call(const Stmt& s) {
  if (auto* a = s->as<Assign>()) return as_op_call(a->value);
  if (auto* x = s->as<ExprStmt>()) return as_op_call(x->value);
  return nullptr;
}

Var as_var(const Expr& e) {
  auto* r = e ? e->as<VarRef>() : nullptr;
  return r ? r->var : nullptr;
}

bool given(const Expr& e) {
  return e && !e->isa<NoneImm>();
}

bool literal_true(const Expr& e) {
  auto* b = e ? e->as<BoolImm>() : nullptr;
  return b && b->value;
}

bool is_plain_tensor_slice(const OpCall& c) {
  if (c.op->id != OpId::Slice || !c.args[0] || !c.args[0]->type || !c.args[0]->type->is_tensor_like())
    return false;
  for (const char* slot : {"drop_dims", "pad_value"})
    if (given(c.arg(slot))) return false;
  return !literal_true(c.arg("clamp"));
}

Block map_blocks(const Block& b, const StmtMap& fn) {
  Block out;
  for (const Stmt& s : b) {
    Stmt cur = s;
    if (auto* f = s->as<For>()) {
      auto c = std::make_shared<For>(*f);
      c->body = map_blocks(f->body, fn);
      cur = c;
    } else if (auto* w = s->as<While>()) {
      auto c = std::make_shared<While>(*w);
      c->body = map_blocks(w->body, fn);
      cur = c;
    } else if (auto* i = s->as<If>()) {
      auto c = std::make_shared<If>(*i);
      c->then_body = map_blocks(i->then_body, fn);
      c->else_body = map_blocks(i->else_body, fn);
      cur = c;
    } else if (auto* m = s->as<ManualScope>()) {
      auto c = std::make_shared<ManualScope>(*m);
      c->body = map_blocks(m->body, fn);
      cur = c;
    }
    for (Stmt& r : fn(cur)) out.push_back(std::move(r));
  }
  return out;
}

Stmt with_nested_blocks(const Stmt& s, const std::function<Block(const Block&)>& fn) {
  if (!s->isa<For>() && !s->isa<While>() && !s->isa<If>() && !s->isa<ManualScope>()) return s;
  auto copy = copy_stmt(*s);
  if (copy->isa<For>()) {
    auto* f = static_cast<For*>(copy.get());
    f->body = fn(f->body);
  } else if (copy->isa<While>()) {
    auto* w = static_cast<While*>(copy.get());
    w->body = fn(w->body);
  } else if (copy->isa<ManualScope>()) {
    auto* m = static_cast<ManualScope*>(copy.get());
    m->body = fn(m->body);
  } else {
    auto* i = static_cast<If*>(copy.get());
    i->then_body = fn(i->then_body);
    i->else_body = fn(i->else_body);
  }
  return copy;
}

Function with_body(const Function& f, Block body) {
  auto c = std::make_shared<FunctionNode>(*f);
  c->body = std::move(body);
  return c;
}

Program map_kernels(const Program& p, const FunctionMap& fn) {
  auto out = std::make_shared<ProgramNode>(*p);
  bool ok = true;
  for (Function& f : out->functions) {
    if (!is_kernel(f->kind)) continue;
    Function r = fn(f);
    if (!r)
      ok = false;
    else
      f = r;
  }
  return ok ? out : nullptr;
}

namespace {

// Ids of variables made by passes: above every id the parser gives, unique across passes and threads.
std::atomic<int> g_next_pass_var_id{1 << 24};

class NameCollector {
 public:
  std::set<std::string> names;
  void block(const Block& b) {
    for (const Stmt& s : b) stmt(s);
  }
  void stmt(const Stmt& s) {
    if (auto* a = s->as<Assign>()) {
      for (const Var& v : a->targets)
        if (v) names.insert(v->name);
    } else if (auto* f = s->as<For>()) {
      if (f->iv) names.insert(f->iv->name);
      block(f->body);
    } else if (auto* w = s->as<While>()) {
      block(w->body);
    } else if (auto* i = s->as<If>()) {
      block(i->then_body);
      block(i->else_body);
    } else if (auto* m = s->as<ManualScope>()) {
      block(m->body);
    }
  }
};

}  // namespace

VarFactory::VarFactory(const Program& p, const Function& f) {
  NameCollector c;
  for (const Param& prm : f->params) c.names.insert(prm.var->name);
  for (const FactoryParam& fp : p->factory_params) c.names.insert(fp.var->name);
  for (const Constant& k : p->factory_constants) c.names.insert(k.var->name);
  for (const Function& g : p->functions) c.names.insert(g->name);
  c.block(f->body);
  names_ = std::move(c.names);
}

Var VarFactory::make(const std::string& base, Type type, SourceSpan span) {
  std::string name = base;
  for (int n = 1; names_.count(name); ++n) name = base + "_" + std::to_string(n);
  names_.insert(name);
  auto v = std::make_shared<VarNode>();
  v->name = name;
  v->type = std::move(type);
  v->span = span;
  v->id = g_next_pass_var_id++;
  return v;
}

OpMaker::OpMaker(DiagnosticEngine& diags, const Program& p, const Function& f) : builder_(diags) {
  scope_.function_kind = f->kind;
  scope_.function_name = f->name;
  scope_.functions = &p->functions;
}

Expr OpMaker::call(OpId id, std::initializer_list<std::pair<const char*, Expr>> args, SourceSpan span) {
  const OpInfo& op = op_info(id);
  std::vector<Expr> slots(op.params.size());
  for (const auto& [name, value] : args) {
    int idx = op.param_index(name);
    PTODIST_INTERNAL_ASSERT(idx >= 0, "OpMaker: " + op.spelling + " has no parameter " + name);
    slots[idx] = value;
  }
  return builder_.op_call_slots(op, std::move(slots), {}, scope_, span);
}

Expr OpMaker::ints(const std::vector<long long>& vs, SourceSpan span) {
  std::vector<Expr> es;
  for (long long v : vs) es.push_back(builder_.int_imm(v, span));
  return builder_.list(std::move(es), span);
}

Expr OpMaker::vec_tile(const std::vector<long long>& shape, DType dt, SourceSpan span) {
  return call(OpId::CreateTile,
              {{"shape", ints(shape, span)},
               {"dtype", builder_.dtype_imm(dt, span)},
               {"target_memory", builder_.enum_imm(EnumKind::Memory, "Vec", span)}},
              span);
}

Expr OpMaker::load_whole(Expr tensor, std::vector<Expr> valid, SourceSpan span) {
  std::vector<long long> shape = *tensor->type->static_shape();
  std::vector<long long> zeros(shape.size(), 0);
  Expr valid_list = valid.empty() ? nullptr : builder_.list(std::move(valid), span);
  return call(OpId::Load,
              {{"tensor", std::move(tensor)},
               {"offsets", ints(zeros, span)},
               {"shapes", ints(shape, span)},
               {"valid_shape", valid_list}},
              span);
}

namespace {

struct ReadVars : Walker {
  std::set<const VarNode*> found;
  void visit_expr(const Expr& x) override {
    if (Var r = as_var(x)) found.insert(r.get());
    Walker::visit_expr(x);
  }
};

}  // namespace

std::set<const VarNode*> vars_read(const Expr& e) {
  ReadVars w;
  w.visit_expr(e);
  return std::move(w.found);
}

std::set<const VarNode*> vars_read(const Stmt& s) {
  ReadVars w;
  w.visit_stmt(s);
  return std::move(w.found);
}

std::optional<long long> static_bytes(const Type& t) {
  auto dims = t ? t->static_shape() : std::nullopt;
  if (!dims) return std::nullopt;
  long long n = dtype_bytes(t->dtype);
  for (long long d : *dims) n *= d;
  return n;
}

bool fits_in(const Type& t, long long bytes) {
  auto n = static_bytes(t);
  return n && *n <= bytes;
}

SourceSpan end_span(const Function& f) {
  return f->body.empty() ? f->span : f->body.back()->span;
}

}  // namespace ptodist::transforms::detail
