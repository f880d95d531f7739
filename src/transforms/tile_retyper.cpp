// The round of a tensor-to-tile retyping (tile_retyper.h) and its fixpoint.
#include "tile_retyper.h"

#include "ptodist/ir/elementwise_ops.h"
#include "ptodist/ir/expand_ops.h"
#include "ptodist/ir/functor.h"
#include "ptodist/ir/op_table.h"
#include "ptodist/ir/reduce_ops.h"
#include "ptodist/ir/unary_ops.h"

namespace ptodist::transforms::detail {

using namespace ir;

namespace {

// A vector op: its tile operands must be in Vec, so an Acc operand moves there first.
bool is_vector_op(OpId id) {
  return is_elementwise_arith(id) || unary_op_info(id) || expand_op_info(id) || reduce_op_info(id);
}

}  // namespace

bool same_dims(const std::vector<Expr>& shape, const Expr& e) {
  const std::vector<Expr>* l = as_list(e);
  if (!l || l->size() != shape.size()) return false;
  for (size_t i = 0; i < shape.size(); ++i) {
    auto a = as_const_int(shape[i]), b = as_const_int((*l)[i]);
    if (!a || !b || *a != *b) return false;
  }
  return true;
}

void collect_defs(const Block& b, Definitions& defs) {
  for (const Stmt& s : b) {
    if (const auto* a = s->as<Assign>()) {
      const OpCall* c = a->value ? a->value->as<OpCall>() : nullptr;
      for (const Var& v : a->targets)
        if (v) defs[v.get()].push_back(a->targets.size() == 1 ? c : nullptr);
    } else if (const auto* f = s->as<For>()) {
      if (f->iv) defs[f->iv.get()].push_back(nullptr);
      collect_defs(f->body, defs);
    } else if (const auto* w = s->as<While>()) {
      collect_defs(w->body, defs);
    } else if (const auto* i = s->as<If>()) {
      collect_defs(i->then_body, defs);
      collect_defs(i->else_body, defs);
    } else if (const auto* m = s->as<ManualScope>()) {
      collect_defs(m->body, defs);
    }
  }
}

bool same_type(const Type& a, const Type& b) {
  return a == b || type_equal(a, b);
}

TileRetyper::TileRetyper(DiagnosticEngine& scratch, const Program& p, const Function& f,
                         const VarTypes& types)
    : diags_(scratch), make_(scratch, p, f), vars_(p, f), types_(types), found_(types) {}

Function TileRetyper::run(const Function& f) {
  Function out = rewrite_function(f);
  return failed_ || diags_.has_errors() ? nullptr : out;
}

Var TileRetyper::map_var(const Var& v) {
  auto t = v ? types_.find(v.get()) : types_.end();
  if (t == types_.end()) return DeepRewriter::map_var(v);
  auto it = var_map_.find(v.get());
  if (it != var_map_.end()) return it->second;
  auto c = std::make_shared<VarNode>(*v);
  c->type = t->second;
  return var_map_[v.get()] = c;
}

Block TileRetyper::rewrite_stmt(const Stmt& s) {
  Block outer_prelude = std::move(prelude_);
  prelude_.clear();
  const auto* a = s->as<Assign>();
  const OpCall* c = a && a->value ? a->value->as<OpCall>() : nullptr;
  Block out;
  if (!c || a->targets.size() != 1 || !a->targets[0]) {
    Block kept = DeepRewriter::rewrite_stmt(s);
    check_kept(s, kept);
    out = std::move(prelude_);
    out.insert(out.end(), kept.begin(), kept.end());
  } else {
    const Var& target = a->targets[0];
    Block before;
    Expr value = define(target, a->value, before);
    if (!value || !value->type) {
      failed_ = true;
      prelude_ = std::move(outer_prelude);
      return {s};
    }
    note_type(target, value->type);
    auto copy = std::static_pointer_cast<Assign>(copy_stmt(*s));
    copy->value = value;
    copy->targets[0] = map_var(target);
    if (copy->annotation) copy->annotation = copy->targets[0]->type;
    out = std::move(before);
    out.insert(out.end(), prelude_.begin(), prelude_.end());
    out.push_back(copy);
  }
  prelude_ = std::move(outer_prelude);
  return out;
}

Expr TileRetyper::define(const Var&, const Expr& value, Block&) {
  return rewrite_expr(value);
}

Expr TileRetyper::rewrite_expr(const Expr& e) {
  if (Var v = as_var(e)) return make_.ref(map_var(v), e->span);  // typed as the variable now is
  const auto* c = e ? e->as<OpCall>() : nullptr;
  if (!c) return DeepRewriter::rewrite_expr(e);
  std::vector<Expr> args = rewrite_exprs(c->args), varargs = rewrite_exprs(c->varargs);
  bool changed = false;
  for (size_t i = 0; i < args.size(); ++i)
    changed = changed || (args[i] && !same_type(args[i]->type, c->args[i]->type));
  for (size_t i = 0; i < varargs.size(); ++i)
    changed = changed || (varargs[i] && !same_type(varargs[i]->type, c->varargs[i]->type));
  if (changed) return rebuild(*c, std::move(args), std::move(varargs));
  auto copy = copy_expr(*e);
  auto* o = static_cast<OpCall*>(copy.get());
  o->args = std::move(args);
  o->varargs = std::move(varargs);
  return copy;
}

// A statement kept as it was must not now hand a tile where a tensor was (a kernel's return value, a
// tuple assignment).
void TileRetyper::check_kept(const Stmt& before, const Block& after) {
  if (after.size() != 1) return;
  if (const auto* r = before->as<Return>()) {
    const auto* n = after[0]->as<Return>();
    for (size_t i = 0; i < r->values.size(); ++i)
      if (r->values[i] && !same_type(r->values[i]->type, n->values[i]->type)) fail();
  }
  if (const auto* a = before->as<Assign>())
    if (a->value && !same_type(a->value->type, after[0]->as<Assign>()->value->type)) fail();
}

// `target` now holds a value of type `t`: a tensor variable that receives a tile becomes a tile in the
// next round; any other disagreement has no tile form.
void TileRetyper::note_type(const Var& target, const Type& t) {
  Type now = map_var(target)->type;
  if (same_type(now, t)) return;
  bool retype = now && now->is_tensor_like() && t->kind == TypeKind::Tile && !types_.count(target.get());
  if (!retype) {
    fail();
    return;
  }
  auto [it, added] = found_.emplace(target.get(), t);
  if (!added && !same_type(it->second, t)) fail();
}

Expr TileRetyper::rebuild(const OpCall& c, std::vector<Expr> args, std::vector<Expr> varargs) {
  const OpInfo& op = op_info(c.op->id);
  auto tile = [&](const char* slot) {
    const Expr& e = args[op.param_index(slot)];
    return e && e->type && e->type->kind == TypeKind::Tile;
  };
  // pl.read / pl.write of a tile are pl.tile.read / pl.tile.write, as the front end spells them.
  if (c.op->id == OpId::Read && tile("src"))
    return make_.call(OpId::TileRead, {{"tile", args[0]}, {"indices", args[1]}}, c.span);
  if (c.op->id == OpId::Write && tile("dst"))
    return make_.call(OpId::TileWrite, {{"tile", args[0]}, {"indices", args[1]}, {"value", args[2]}}, c.span);
  // A reshape of a converted tile to the shape it has (a batch-of-one accumulator's
  // `pl.reshape(acc, [M, N])`: the tile is already its 2-D matrix) is the tile itself.
  if (c.op->id == OpId::Reshape && tile("input") && same_dims(args[0]->type->shape, args[1])) return args[0];
  if (is_vector_op(c.op->id))
    for (Expr& a : args)
      if (a && a->type && a->type->kind == TypeKind::Tile && a->type->memory == Memory::Acc)
        a = make_.call(OpId::Move, {{"tile", a}, {"target_memory", memory(Memory::Vec, a->span)}}, a->span);
  return make_.builder().op_call_slots(op, std::move(args), std::move(varargs), make_.scope(), c.span);
}

Expr TileRetyper::memory(Memory m, SourceSpan span) {
  return make_.builder().enum_imm(EnumKind::Memory, std::string(memory_name(m)), span);
}

Function retype_to_fixpoint(VarTypes types, const RetyperFactory& round) {
  for (int i = 0; i < 32; ++i) {
    VarTypes found;
    Function out = round(types, found);
    if (!out) return nullptr;
    if (found.size() == types.size()) return out;
    types = std::move(found);
  }
  return nullptr;
}

}  // namespace ptodist::transforms::detail
