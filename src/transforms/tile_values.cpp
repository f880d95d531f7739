// Tensor-level data in a kernel as on-chip tiles (PyPTO's ConvertTensorToTileOps, its op conversion
// registry: tensor.slice of a GM tensor is tile.load and of a converted value tile.slice, a tensor-level
// elementwise op its tile op on loaded operands, tensor.assemble of a tile tile.store,
// pld.tensor.remote_store pld.tile.remote_store).
//
// ptodist's runtime also runs these ops on GM tensors, so a value is converted only where the tile form
// exists: the value's shape is static and fits in UB, and every use of a converted variable is a slot
// that takes a tile. Anything else is left as it was; the PTO emitter then names the op it cannot
// lower, and the CPU runtime still runs it. Two things must convert, or are located errors: the tensor
// operand of a unified op that mixes it with a tile (the contracts' tile_with_tensor), and a slice with
// valid_shape (as a tensor view it would read past the data) unless only tensor-level arithmetic reads
// it (TensorComputeUses).
#include "tile_values.h"

#include <functional>
#include <set>

#include "ptodist/ir/elementwise_ops.h"
#include "ptodist/ir/expand_ops.h"
#include "ptodist/ir/functor.h"
#include "ptodist/ir/op_table.h"
#include "ptodist/ir/reduce_ops.h"
#include "ptodist/ir/unary_ops.h"
#include "rewrite_util.h"

namespace ptodist::transforms::detail {

using namespace ir;

namespace {

bool tensor_typed(const Expr& e) {
  return e && e->type && e->type->is_tensor_like();
}

// An op computing values that has a tile form taking no scratch the program must name: elementwise, cast,
// unary, broadcast, the reductions without a tmp_tile, reshape, set_validshape and fillpad; row_sum /
// row_max and transpose, whose scratch add-op-scratch gives them (PyPTO's conversion and
// FlattenTileNdTo2D do).
bool is_value_op(OpId id) {
  if (is_elementwise_arith(id) || id == OpId::Cast || unary_op_info(id) || expand_op_info(id)) return true;
  if (id == OpId::RowSum || id == OpId::RowMax || id == OpId::Reshape || id == OpId::Transpose) return true;
  if (id == OpId::SetValidShape || id == OpId::FillPad) return true;
  const ReduceOpInfo* r = reduce_op_info(id);
  return r && (r->tmp == ReduceTmp::kNone || r->tmp == ReduceTmp::kOptional);
}

// A value op computing a new GM tensor from GM tensors (the tensor-level form of a tile op). A
// high-precision rsqrt becomes the tile op with the flag; add-op-scratch gives it its scratch tile.
bool is_tensor_compute(const OpCall& c) {
  return c.type && c.type->is_tensor_like() && is_value_op(c.op->id);
}

// A value op computing a tile with a tensor operand (a unified op mixing them, contracts'
// tile_with_tensor): its tensor operands must become tiles.
bool is_mixed(const OpCall& c) {
  if (!c.type || c.type->kind != TypeKind::Tile || !is_value_op(c.op->id)) return false;
  for (const Expr& a : c.args)
    if (tensor_typed(a)) return true;
  return false;
}

// The Vec tile that holds a value of tensor type `t` (partially valid as a valid_shape slice is).
Type tile_of_type(const Type& t) {
  auto tile = std::make_shared<TypeNode>(*tile_type(t->shape, t->dtype, Memory::Vec));
  tile->valid_shape = t->valid_shape;
  return tile;
}

// The variables whose every use is an operand of a tensor-level compute op (one the CPU runtime runs on
// GM tensors, a matmul among them): a slice with valid_shape defining one may stay a tensor, as the
// runtime gives its region past the valid one as zeros, as PyPTO's load pads it (pypto-lib's hc_pre.py
// and expert_shared.py slice a last row block past the tensor's edge: "valid_shape zero-fills the
// tail"). Such an op has no PTO form: the emitter names it.
class TensorComputeUses : public Walker {
 public:
  std::set<const VarNode*> only_compute() const {
    std::set<const VarNode*> out;
    for (const VarNode* v : compute_)
      if (!other_.count(v)) out.insert(v);
    return out;
  }

  void visit_expr(const Expr& e) override {
    const auto* c = e ? e->as<OpCall>() : nullptr;
    bool matmul = c && (c->op->id == OpId::Matmul || c->op->id == OpId::MatmulAcc);
    if (!c || !tensor_typed(e) || !(matmul || is_tensor_compute(*c))) {
      if (auto v = as_var(e)) other_.insert(v.get());
      Walker::visit_expr(e);
      return;
    }
    for (const Expr& a : c->args) {
      auto v = as_var(a);
      if (v && tensor_typed(a))
        compute_.insert(v.get());
      else
        visit_expr(a);
    }
    for (const Expr& a : c->varargs) visit_expr(a);
  }

 private:
  std::set<const VarNode*> compute_, other_;
};

class TileValues : public DeepRewriter {
 public:
  TileValues(PassContext& cx, const Program& p, const Function& f) : cx_(cx), f_(f), make_(cx.diags, p, f) {}

  Function run() {
    TensorComputeUses uses;
    uses.visit_function(f_);
    compute_only_ = uses.only_compute();
    find_candidates();
    Function out = rewrite_function(f_);
    return failed_ ? nullptr : out;
  }

 private:
  // ---- which values become tiles ----

  // A tensor value a tile can hold: static shape, within the UB.
  bool fits(const Type& t) const { return fits_in(t, cx_.profile.ub_bytes); }

  // Whether `e` (a tensor expression) can be given as a tile: a converted variable, a tensor-level op
  // whose tensor operands can, or a GM tensor that a load can bring in whole.
  bool can_tile(const Expr& e) const {
    if (!e || !e->type) return false;
    if (e->type->kind == TypeKind::Tile) return true;
    if (auto v = as_var(e); v && candidates_.count(v.get())) return true;
    if (!fits(e->type)) return false;
    const auto* c = e->as<OpCall>();
    if (c && is_tensor_compute(*c)) {
      // The tile ops compute in their operands' dtype: a tensor-level op that promotes (pl.tensor.sqrt of
      // INT32 gives FP32, as PyPTO's tensor op does) has no tile form without a cast of its own.
      for (const Expr& a : c->args)
        if (tensor_typed(a) &&
            (!can_tile(a) || (c->op->id != OpId::Cast && a->type->dtype != e->type->dtype)))
          return false;
      return true;
    }
    if (c) return is_plain_tensor_slice(*c);
    return e->isa<VarRef>();
  }

  // Slots of `c` that take a tile after conversion, given whether `c` itself is converted (a converted
  // slice of a converted variable is a slice of its tile).
  bool tile_slot(const OpCall& c, size_t slot, bool converted) const {
    const std::string& name = op_info(c.op->id).params[slot].name;
    if (c.op->id == OpId::Slice) return converted && name == "input";
    if (c.op->id == OpId::Assemble) return name == "source" && tensor_typed(c.arg("target"));
    if (c.op->id == OpId::TensorRemoteStore) return name == "src";
    if (is_mixed(c)) return tensor_typed(c.args[slot]);
    return converted && is_tensor_compute(c) && tensor_typed(c.args[slot]);
  }

  // Drops every candidate that `e` uses where no tile may stand; `tile_ok` says whether `e` may be one,
  // `top` whether it is a statement's value (only there are assembles and remote stores rewritten).
  void scan(const Expr& e, bool tile_ok, bool top = false) {
    if (!e) return;
    if (auto v = as_var(e)) {
      if (!tile_ok && candidates_.erase(v.get())) changed_ = true;
      return;
    }
    if (const auto* c = e->as<OpCall>()) {
      bool converted = tile_ok && (is_tensor_compute(*c) || is_plain_tensor_slice(*c)) && can_tile(e);
      bool store = c->op->id == OpId::Assemble || c->op->id == OpId::TensorRemoteStore;
      for (size_t i = 0; i < c->args.size(); ++i)
        scan(c->args[i], (top || !store) && tile_slot(*c, i, converted));
      for (const Expr& a : c->varargs) scan(a, false);
      return;
    }
    for_each_child(e, [&](const Expr& x) { scan(x, false); });
  }

  static void for_each_child(const Expr& e, const std::function<void(const Expr&)>& fn) {
    if (const auto* u = e->as<Unary>()) fn(u->operand);
    if (const auto* b = e->as<Binary>()) fn(b->lhs), fn(b->rhs);
    if (const auto* b = e->as<Compare>()) fn(b->lhs), fn(b->rhs);
    if (const auto* b = e->as<BoolOp>()) fn(b->lhs), fn(b->rhs);
    if (const auto* i = e->as<IfExp>()) fn(i->cond), fn(i->then_value), fn(i->else_value);
    if (const auto* l = e->as<List>())
      for (const Expr& x : l->elements) fn(x);
    if (const auto* l = e->as<Tuple>())
      for (const Expr& x : l->elements) fn(x);
    if (const auto* s = e->as<Subscript>()) {
      fn(s->value);
      for (const Expr& x : s->indices) fn(x);
    }
    if (const auto* f = e->as<FuncCall>()) {
      for (const Expr& x : f->args) fn(x);
      fn(f->device);
    }
  }

  // The variable a statement defines as a tensor-level op's result or a slice, or null.
  static Var compute_target(const Assign& a) {
    const auto* c = a.value ? a.value->as<OpCall>() : nullptr;
    if (a.targets.size() != 1 || !a.targets[0] || !c || !(is_tensor_compute(*c) || is_plain_tensor_slice(*c)))
      return nullptr;
    return a.targets[0];
  }

  void collect(const Block& b, std::set<const VarNode*>& defined, std::set<const VarNode*>& other) {
    for (const Stmt& s : b) {
      if (const auto* a = s->as<Assign>()) {
        Var t = compute_target(*a);
        for (const Var& v : a->targets)
          if (v) (v == t && fits(v->type) ? defined : other).insert(v.get());
      } else if (const auto* f = s->as<For>()) {
        if (f->iv) other.insert(f->iv.get());
        collect(f->body, defined, other);
      } else if (const auto* w = s->as<While>()) {
        collect(w->body, defined, other);
      } else if (const auto* i = s->as<If>()) {
        collect(i->then_body, defined, other);
        collect(i->else_body, defined, other);
      } else if (const auto* m = s->as<ManualScope>()) {
        collect(m->body, defined, other);
      }
    }
  }

  void scan_block(const Block& b) {
    for (const Stmt& s : b) {
      if (const auto* a = s->as<Assign>()) {
        Var t = compute_target(*a);
        bool to_tile = t && candidates_.count(t.get());
        if (to_tile && !can_tile(a->value)) {  // its operands lost their tile form
          candidates_.erase(t.get());
          changed_ = true;
          to_tile = false;
        }
        scan(a->value, to_tile, true);
      } else if (const auto* x = s->as<ExprStmt>()) {
        scan(x->value, false, true);
      } else if (const auto* f = s->as<For>()) {
        scan(f->start, false), scan(f->stop, false), scan(f->step, false), scan(f->stage, false);
        scan_block(f->body);
      } else if (const auto* w = s->as<While>()) {
        scan(w->cond, false);
        scan_block(w->body);
      } else if (const auto* i = s->as<If>()) {
        scan(i->cond, false);
        scan_block(i->then_body);
        scan_block(i->else_body);
      } else if (const auto* m = s->as<ManualScope>()) {
        scan_block(m->body);
      } else if (const auto* r = s->as<Return>()) {
        for (const Expr& v : r->values) scan(v, false);
      }
    }
  }

  // The variables every one of whose definitions is a convertible tensor-level op and every one of whose
  // uses takes a tile: a fixpoint, since dropping one variable takes the tile slots from its operands.
  void find_candidates() {
    std::set<const VarNode*> defined, other;
    collect(f_->body, defined, other);
    for (const VarNode* v : defined)
      if (!other.count(v)) candidates_.insert(v);
    do {
      changed_ = false;
      scan_block(f_->body);
    } while (changed_);
  }

  // ---- the rewrite ----

  Var map_var(const Var& v) override {
    if (!v || !candidates_.count(v.get())) return DeepRewriter::map_var(v);
    auto it = var_map_.find(v.get());
    if (it != var_map_.end()) return it->second;
    auto c = std::make_shared<VarNode>(*v);
    c->type = tile_of_type(v->type);
    return var_map_[v.get()] = c;
  }

  // A reference to a converted variable has the variable's tile type; a mixed op computes on tiles; a
  // partially valid slice that stays a tensor has no meaning (it reads past the data).
  Expr rewrite_expr(const Expr& e) override {
    if (auto v = as_var(e); v && candidates_.count(v.get())) return make_.ref(map_var(v), e->span);
    const auto* c = e ? e->as<OpCall>() : nullptr;
    if (c && is_mixed(*c)) return compute(*c);
    if (c && c->op->id == OpId::Slice && tensor_typed(c->args[0]) && given(c->arg("valid_shape")) &&
        !defines_compute_operand_) {
      cx_.diags.error(e->span, c->op->spelling +
                                   ": a slice with 'valid_shape' must be used as a tile (an operand of "
                                   "tile arithmetic, or an assemble's source) or be read by tensor-level "
                                   "arithmetic only; here its value stays a tensor");
      failed_ = true;
    }
    return DeepRewriter::rewrite_expr(e);
  }

  Expr checked(Expr e) {
    if (!e) failed_ = true;
    return e;
  }

  // `e` (can_tile) as a tile expression; a located error for a tensor that cannot be one.
  Expr as_tile(const Expr& e) {
    if (e->type->kind == TypeKind::Tile || (as_var(e) && candidates_.count(as_var(e).get())))
      return rewrite_expr(e);
    if (!can_tile(e)) {
      cx_.diags.error(e->span,
                      "this tensor is an operand of tile arithmetic, but ptodist cannot load it "
                      "into a tile: its shape " +
                          type_str(e->type) + " must be static and fit in UB (" +
                          std::to_string(cx_.profile.ub_bytes) +
                          " bytes); pl.load a static region of it instead");
      failed_ = true;
      return nullptr;
    }
    const auto* c = e->as<OpCall>();
    if (c) return compute(*c);
    // A tensor narrowed by pl.set_validshape loads as a partially valid tile: a store of it, or of
    // what is computed from it, writes only the valid region.
    std::vector<Expr> valid;
    for (const Expr& d : e->type->valid_shape) valid.push_back(rewrite_expr(d));
    return checked(make_.load_whole(rewrite_expr(e), std::move(valid), e->span));
  }

  // A slice as the load of its region (partially valid with valid_shape, as PyPTO's tensor.slice
  // conversion loads it); of a converted variable, the slice of its tile (PyPTO's tile.slice).
  Expr load_slice(const OpCall& c) {
    if (auto v = as_var(c.args[0]); v && candidates_.count(v.get()))
      return checked(make_.call(
          OpId::Slice,
          {{"input", rewrite_expr(c.args[0])},
           {"shape", rewrite_expr(c.arg("shape"))},
           {"offset", rewrite_expr(c.arg("offset"))},
           {"valid_shape", given(c.arg("valid_shape")) ? rewrite_expr(c.arg("valid_shape")) : nullptr}},
          c.span));
    return checked(make_.call(
        OpId::Load,
        {{"tensor", rewrite_expr(c.args[0])},
         {"offsets", rewrite_expr(c.arg("offset"))},
         {"shapes", rewrite_expr(c.arg("shape"))},
         {"valid_shape", given(c.arg("valid_shape")) ? rewrite_expr(c.arg("valid_shape")) : nullptr}},
        c.span));
  }

  // A tensor-level op (or a slice) as its tile op (the canonical spelling: `pl.tensor.add` is
  // tensor-only).
  Expr compute(const OpCall& c) {
    if (c.op->id == OpId::Slice) return load_slice(c);
    std::vector<Expr> slots;
    for (const Expr& a : c.args) slots.push_back(tensor_typed(a) ? as_tile(a) : rewrite_opt(a));
    if (failed_) return nullptr;
    return checked(make_.builder().op_call_slots(op_info(c.op->id), std::move(slots),
                                                 rewrite_exprs(c.varargs), make_.scope(), c.span));
  }

  // A statement's top-level value: an assemble of a tensor stores a tile of it, a remote store of a
  // tensor its tile, a converted variable's definition computes on tiles.
  Expr value(const Expr& e, bool defines_tile) {
    const auto* c = e ? e->as<OpCall>() : nullptr;
    if (!c) return rewrite_opt(e);
    if (defines_tile) return compute(*c);
    if (c->op->id == OpId::Assemble && tensor_typed(c->arg("target")) && tensor_typed(c->arg("source")) &&
        can_tile(c->arg("source"))) {
      // The source is rewritten only as a tile: as a tensor, a partially valid slice is an error.
      size_t source = op_info(OpId::Assemble).param_index("source");
      std::vector<Expr> slots;
      for (size_t i = 0; i < c->args.size(); ++i)
        slots.push_back(i == source ? as_tile(c->args[i]) : rewrite_opt(c->args[i]));
      if (failed_) return nullptr;
      return checked(make_.builder().op_call_slots(op_info(OpId::Assemble), std::move(slots), {},
                                                   make_.scope(), c->span));
    }
    if (c->op->id == OpId::TensorRemoteStore && can_tile(c->arg("src"))) {
      Expr tile = as_tile(c->arg("src"));
      if (failed_) return nullptr;
      return checked(make_.call(OpId::RemoteStore,
                                {{"src_tile", tile},
                                 {"target", rewrite_expr(c->arg("target"))},
                                 {"peer", rewrite_expr(c->arg("peer"))},
                                 {"offsets", rewrite_expr(c->arg("offsets"))},
                                 {"atomic", rewrite_opt(c->arg("atomic"))}},
                                c->span));
    }
    return rewrite_expr(e);
  }

  Block rewrite_stmt(const Stmt& s) override {
    if (const auto* a = s->as<Assign>()) {
      Var t = compute_target(*a);
      bool to_tile = t && candidates_.count(t.get());
      auto c = std::static_pointer_cast<Assign>(copy_stmt(*s));
      defines_compute_operand_ = t && !to_tile && compute_only_.count(t.get());
      c->value = value(a->value, to_tile);
      defines_compute_operand_ = false;
      for (Var& v : c->targets) v = map_var(v);
      if (c->annotation) c->annotation = to_tile ? c->targets[0]->type : map_type(c->annotation);
      return {c};
    }
    if (const auto* x = s->as<ExprStmt>()) {
      auto c = std::static_pointer_cast<ExprStmt>(copy_stmt(*s));
      c->value = value(x->value, false);
      return {c};
    }
    return DeepRewriter::rewrite_stmt(s);
  }

  PassContext& cx_;
  Function f_;
  OpMaker make_;
  std::set<const VarNode*> candidates_;
  std::set<const VarNode*> compute_only_;  // TensorComputeUses
  bool defines_compute_operand_ = false;   // rewriting the value of a variable in compute_only_
  bool changed_ = false;
  bool failed_ = false;
};

}  // namespace

Function convert_tile_values(const Program& p, const Function& f, PassContext& cx) {
  return TileValues(cx, p, f).run();
}

}  // namespace ptodist::transforms::detail
