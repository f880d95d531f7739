// Kernel-local tensors and tensor-level matmuls as tiles (PyPTO's ConvertTensorToTileOps: tensor.create
// is tile.create; its MatmulSlice pattern loads a tensor.matmul's sliced operands straight into Mat, a
// transposed one through a view, and its memory inference moves them to Left / Right and keeps the
// product in Acc). pypto-lib's split-K idiom is the case that matters:
//
//   acc = pl.create_tensor([M, N], dtype=pl.FP32)
//   for kb in pl.pipeline(...):
//       if kb == 0: acc = pl.matmul(x[.., k0:k0+K], w[.., k0:k0+K], b_trans=True, out_dtype=pl.FP32)
//       else:       acc = pl.matmul_acc(acc, x[..], w[..], b_trans=True)
//   out = pl.assemble(out, acc, [r, 0])
//
// `acc` becomes an Acc tile. Whatever reads a converted value is rebuilt through the builder, so it is
// typed as the front end would have typed it had the program written tiles (a vector op reading the
// accumulator moves it to Vec first, as ac1443f does in the front end, and its result is a tile), and
// the variables it defines are retyped in turn, to a fixpoint. ptodist's runtime runs both forms, so a
// variable whose conversion does not type-check (a use with no tile form) keeps its tensor form: the CPU
// runtime still runs it and the PTO emitter names the op it cannot lower.
#include "tile_matmul.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>

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

using VarTypes = std::map<const VarNode*, Type>;

bool given(const Expr& e) {
  return e && !e->isa<NoneImm>();
}

bool literal_true(const Expr& e) {
  auto* b = e ? e->as<BoolImm>() : nullptr;
  return b && b->value;
}

bool is_tensor_matmul(const OpCall& c) {
  return (c.op->id == OpId::Matmul || c.op->id == OpId::MatmulAcc) && c.type && c.type->is_tensor_like();
}

// Whether a type is a static 2-D matrix of at most `bytes`.
bool static_matrix(const Type& t, long long bytes) {
  auto d = t ? t->static_shape() : std::nullopt;
  return d && d->size() == 2 && (*d)[0] * (*d)[1] * dtype_bytes(t->dtype) <= bytes;
}

// `pl.slice(t, shape, offset[, valid_shape=])` of a 2-D tensor: a region one load reads.
bool is_matrix_slice(const OpCall& c) {
  if (c.op->id != OpId::Slice || !c.args[0]->type || !c.args[0]->type->is_tensor_like()) return false;
  if (c.args[0]->type->shape.size() != 2) return false;
  for (const char* slot : {"drop_dims", "pad_value"})
    if (given(c.arg(slot))) return false;
  return !literal_true(c.arg("clamp"));
}

// How a matmul reads an operand: the cube memory it moves to and whether it is read transposed.
struct Role {
  Memory memory = Memory::Left;
  bool transposed = false;
  bool operator<(const Role& o) const {
    return std::tie(memory, transposed) < std::tie(o.memory, o.transposed);
  }
};

// The role of slot `slot` ("lhs" or "rhs") of a matmul, or nullopt when its transposition is not a
// literal.
std::optional<Role> role_of(const OpCall& c, const char* slot) {
  bool lhs = std::string(slot) == "lhs";
  const Expr& flag = c.arg(lhs ? "a_trans" : "b_trans");
  if (given(flag) && !flag->isa<BoolImm>()) return std::nullopt;
  return Role{lhs ? Memory::Left : Memory::Right, literal_true(flag)};
}

// Every definition of each variable: the op call it assigns, or null (a loop variable, a tuple target,
// a plain value).
void collect_defs(const Block& b, std::map<const VarNode*, std::vector<const OpCall*>>& defs) {
  for (const Stmt& s : b) {
    if (const auto* a = s->as<Assign>()) {
      const OpCall* c = a->value ? a->value->as<OpCall>() : nullptr;
      for (const Var& v : a->targets)
        if (v) defs[v.get()].push_back(a->targets.size() == 1 ? c : nullptr);
    } else if (const auto* f = s->as<For>()) {
      if (f->iv) defs[f->iv.get()].push_back(nullptr);
      collect_defs(f->body, defs);
    } else if (const auto* i = s->as<If>()) {
      collect_defs(i->then_body, defs);
      collect_defs(i->else_body, defs);
    } else if (const auto* m = s->as<ManualScope>()) {
      collect_defs(m->body, defs);
    }
  }
}

// How each variable is used: as the lhs / rhs of a matmul that defines an accumulator being converted
// (with its role), or otherwise.
class OperandUses : public Walker {
 public:
  explicit OperandUses(const std::set<const VarNode*>& accs) : accs_(accs) {}

  std::map<const VarNode*, std::set<Role>> roles;
  std::set<const VarNode*> other;
  std::vector<const OpCall*> matmuls;  // the matmuls defining the accumulators

  void visit_stmt(const Stmt& s) override {
    const auto* a = s->as<Assign>();
    const OpCall* c = a && a->value ? a->value->as<OpCall>() : nullptr;
    if (!c || a->targets.size() != 1 || !accs_.count(a->targets[0].get()) || !is_tensor_matmul(*c)) {
      Walker::visit_stmt(s);
      return;
    }
    matmuls.push_back(c);
    const OpInfo& info = op_info(c->op->id);
    for (size_t i = 0; i < c->args.size(); ++i) {
      const std::string& slot = info.params[i].name;
      Var v = as_var(c->args[i]);
      auto role = slot == "lhs" || slot == "rhs" ? role_of(*c, slot.c_str()) : std::nullopt;
      if (v && role)
        roles[v.get()].insert(*role);
      else
        visit_expr(c->args[i]);
    }
  }

  void visit_expr(const Expr& e) override {
    if (Var v = as_var(e)) other.insert(v.get());
    Walker::visit_expr(e);
  }

 private:
  const std::set<const VarNode*>& accs_;
};

// The plan of one trial: the accumulators to convert and the slice variables that become their Mat
// operands (each read in one role only).
struct Plan {
  std::set<const VarNode*> accs;
  std::map<const VarNode*, Role> operands;
  VarTypes types;                           // the tile type of each planned variable
  std::set<const VarNode*> partial_slices;  // defined by a slice with valid_shape
  long long l1_bytes = 0;                   // what a Mat operand may take
  long long l0a_bytes = 0, l0b_bytes = 0;   // what a Left / Right operand may take
  // How many K chunks each converted matmul takes (0: none fits L0), and the operand variables read
  // in more than one (each chunk a load of its own where the variable was bound).
  std::map<const OpCall*, long long> chunks;
  std::map<const VarNode*, long long> operand_chunks;
};

// The axis of a 2-D operand that runs along K: a lhs [M, K] (a_trans: [K, M]), a rhs [K, N] (b_trans:
// [N, K]).
size_t k_axis(const Role& r) {
  return (r.memory == Memory::Left) != r.transposed ? 1 : 0;
}

// The fewest K chunks that put each operand within L0A / L0B (PyPTO's AutoTileMatmulL0 cuts K the same
// way, in 16-wide fractal multiples), or 0 when none does or a shape is not static.
long long k_chunks(const OpCall& c, const ChipProfile& profile) {
  auto lr = role_of(c, "lhs"), rr = role_of(c, "rhs");
  const Expr &lhs = c.arg("lhs"), &rhs = c.arg("rhs");
  auto ls = lhs && lhs->type ? lhs->type->static_shape() : std::nullopt;
  auto rs = rhs && rhs->type ? rhs->type->static_shape() : std::nullopt;
  if (!lr || !rr || !ls || !rs || ls->size() != 2 || rs->size() != 2) return 0;
  long long k = (*ls)[k_axis(*lr)], m = (*ls)[1 - k_axis(*lr)], n = (*rs)[1 - k_axis(*rr)];
  long long lb = dtype_bytes(lhs->type->dtype), rb = dtype_bytes(rhs->type->dtype);
  for (long long parts = 1; parts <= k; ++parts) {
    long long kc = k / parts;
    if (k % parts || (parts > 1 && kc % 16)) continue;
    if (m * kc * lb <= profile.l0a_bytes && kc * n * rb <= profile.l0b_bytes) return parts;
  }
  return 0;
}

// The Mat tile a slice of type `t` loads into (transposed: its last two dims swapped).
Type mat_type(const Type& t, bool transposed) {
  std::vector<Expr> shape = t->shape, valid = t->valid_shape;
  if (transposed) {
    std::swap(shape[0], shape[1]);
    if (valid.size() == 2) std::swap(valid[0], valid[1]);
  }
  auto tile = std::make_shared<TypeNode>(*tile_type(shape, t->dtype, Memory::Mat));
  tile->valid_shape = valid;
  return tile;
}

// The variables that become tiles when the accumulators `accs` do, with their tile types.
Plan make_plan(const Function& f, const std::set<const VarNode*>& accs,
               const std::map<const VarNode*, std::vector<const OpCall*>>& defs, const ChipProfile& profile) {
  Plan plan;
  plan.accs = accs;
  plan.l1_bytes = profile.l1_bytes;
  plan.l0a_bytes = profile.l0a_bytes;
  plan.l0b_bytes = profile.l0b_bytes;
  for (const auto& [v, ds] : defs)
    for (const OpCall* c : ds)
      if (c && c->op->id == OpId::Slice && given(c->arg("valid_shape"))) plan.partial_slices.insert(v);
  for (const VarNode* v : accs) plan.types[v] = tile_type(v->type->shape, v->type->dtype, Memory::Acc);
  OperandUses uses(accs);
  uses.visit_function(f);
  for (const OpCall* c : uses.matmuls) {
    long long parts = plan.chunks[c] = k_chunks(*c, profile);
    for (const char* slot : {"lhs", "rhs"})
      if (Var v = as_var(c->arg(slot))) {
        auto [it, added] = plan.operand_chunks.emplace(v.get(), parts);
        if (!added && it->second != parts) it->second = 0;  // read in two ways: not planned
      }
  }
  for (const auto& [v, roles] : uses.roles) {
    auto d = defs.find(v);
    long long parts = plan.operand_chunks[v];
    if (roles.size() != 1 || uses.other.count(v) || d == defs.end() || parts == 0) continue;
    if (parts > 1 && d->second.size() != 1) continue;  // chunks are bound where the variable is
    bool slices = static_matrix(v->type, profile.l1_bytes);
    for (const OpCall* c : d->second) slices = slices && c && is_matrix_slice(*c);
    if (!slices) continue;
    plan.operands[v] = *roles.begin();
    if (parts == 1) plan.types[v] = mat_type(v->type, roles.begin()->transposed);
  }
  return plan;
}

// Renames, from a top-level redefinition on, a matmul's result that straight-line code redefines by
// something else (gate.py's `logits = pl.row_expand_mul(logits, s)` after its split-K loop): the new
// value would be a Vec tile, the accumulator an Acc one, and a variable has one type. The function body
// is not in a loop, so the code after the statement sees only the new variable.
class SplitRedefinitions : public DeepRewriter {
 public:
  SplitRedefinitions(const Program& p, const Function& f) : vars_(p, f) {}

  Function run(const Function& f) {
    auto out = std::make_shared<FunctionNode>(*f);
    out->body.clear();
    for (const Stmt& s : f->body) {
      const auto* a = s->as<Assign>();
      const OpCall* c = a && a->value ? a->value->as<OpCall>() : nullptr;
      Var old = c && a->targets.size() == 1 ? a->targets[0] : nullptr;
      bool split =
          old && matmul_results_.count(old.get()) && !is_tensor_matmul(*c) && c->op->id != OpId::CreateTensor;
      Block r = rewrite_stmt(s);  // its value still reads the old variable
      if (split && r.size() == 1) {
        auto renamed = std::static_pointer_cast<Assign>(copy_stmt(*r[0]));
        renamed->targets[0] = vars_.make(old->name, old->type, old->span);
        var_map_[old.get()] = renamed->targets[0];
        r[0] = renamed;
      }
      for (Stmt& x : r) out->body.push_back(std::move(x));
      note_matmuls(s);
    }
    return out;
  }

 private:
  void note_matmuls(const Stmt& s) {
    struct Finder : Walker {
      std::set<const VarNode*>* found = nullptr;
      void visit_stmt(const Stmt& st) override {
        const auto* a = st->as<Assign>();
        const OpCall* c = a && a->value ? a->value->as<OpCall>() : nullptr;
        if (c && a->targets.size() == 1 && a->targets[0] && is_tensor_matmul(*c))
          found->insert(a->targets[0].get());
        Walker::visit_stmt(st);
      }
    } finder;
    finder.found = &matmul_results_;
    finder.visit_stmt(s);
  }

  VarFactory vars_;
  std::set<const VarNode*> matmul_results_;
};

bool same_type(const Type& a, const Type& b) {
  return a == b || type_equal(a, b);
}

// A vector op: its tile operands must be in Vec, so an Acc operand moves there first.
bool is_vector_op(OpId id) {
  return is_elementwise_arith(id) || unary_op_info(id) || expand_op_info(id) || reduce_op_info(id);
}

// One round of the rewrite: the planned variables as tiles (`types`), each converted matmul on Mat
// loads moved to Left / Right, and every op call with an operand whose type changed rebuilt through the
// builder. The types the rebuilt values give the variables they define are collected in `found`; the
// round's function is the answer only when `found` adds nothing to `types`.
class Retyper : public DeepRewriter {
 public:
  Retyper(DiagnosticEngine& scratch, const Program& p, const Function& f, const Plan& plan,
          const VarTypes& types)
      : diags_(scratch), make_(scratch, p, f), vars_(p, f), plan_(plan), types_(types), found_(types) {}

  Function run(const Function& f) {
    Function out = rewrite_function(f);
    return failed_ || diags_.has_errors() ? nullptr : out;
  }
  const VarTypes& found() const { return found_; }

  Var map_var(const Var& v) override {
    auto t = v ? types_.find(v.get()) : types_.end();
    if (t == types_.end()) return DeepRewriter::map_var(v);
    auto it = var_map_.find(v.get());
    if (it != var_map_.end()) return it->second;
    auto c = std::make_shared<VarNode>(*v);
    c->type = t->second;
    return var_map_[v.get()] = c;
  }

  Block rewrite_stmt(const Stmt& s) override {
    const auto* a = s->as<Assign>();
    const OpCall* c = a && a->value ? a->value->as<OpCall>() : nullptr;
    if (!c || a->targets.size() != 1 || !a->targets[0]) {
      Block out = DeepRewriter::rewrite_stmt(s);
      check_kept(s, out);
      return out;
    }
    const Var& target = a->targets[0];
    Block out;
    Expr value;
    auto operand = plan_.operands.find(target.get());
    auto parts = plan_.operand_chunks.find(target.get());
    if (operand != plan_.operands.end() && parts->second > 1) {
      bind_chunks(target, *c, operand->second, parts->second, out);
      return out;
    }
    if (plan_.accs.count(target.get()) && c->op->id == OpId::CreateTensor)
      value = create_acc(*c);
    else if (plan_.accs.count(target.get()))
      value = tile_matmul(*c, target, out);
    else if (operand != plan_.operands.end())
      value = load_slice(*c, operand->second.transposed, out);
    else
      value = rewrite_expr(a->value);
    if (!value || !value->type) {
      failed_ = true;
      return {s};
    }
    note_type(target, value->type);
    auto copy = std::static_pointer_cast<Assign>(copy_stmt(*s));
    copy->value = value;
    copy->targets[0] = map_var(target);
    if (copy->annotation) copy->annotation = copy->targets[0]->type;
    out.push_back(copy);
    return out;
  }

  // An op call is rebuilt when an operand's type changed; otherwise copied.
  Expr rewrite_expr(const Expr& e) override {
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

 private:
  bool fail() {
    failed_ = true;
    return false;
  }

  // A statement kept as it was must not now hand a tile where a tensor was (a kernel's return value, a
  // tuple assignment).
  void check_kept(const Stmt& before, const Block& after) {
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
  void note_type(const Var& target, const Type& t) {
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

  Expr rebuild(const OpCall& c, std::vector<Expr> args, std::vector<Expr> varargs) {
    const OpInfo& op = op_info(c.op->id);
    auto tile = [&](const char* slot) {
      const Expr& e = args[op.param_index(slot)];
      return e && e->type && e->type->kind == TypeKind::Tile;
    };
    // pl.read / pl.write of a tile are pl.tile.read / pl.tile.write, as the front end spells them.
    if (c.op->id == OpId::Read && tile("src"))
      return make_.call(OpId::TileRead, {{"tile", args[0]}, {"indices", args[1]}}, c.span);
    if (c.op->id == OpId::Write && tile("dst"))
      return make_.call(OpId::TileWrite, {{"tile", args[0]}, {"indices", args[1]}, {"value", args[2]}},
                        c.span);
    if (is_vector_op(c.op->id))
      for (Expr& a : args)
        if (a && a->type && a->type->kind == TypeKind::Tile && a->type->memory == Memory::Acc)
          a = make_.call(OpId::Move, {{"tile", a}, {"target_memory", memory(Memory::Vec, a->span)}}, a->span);
    return make_.builder().op_call_slots(op, std::move(args), std::move(varargs), make_.scope(), c.span);
  }

  Expr memory(Memory m, SourceSpan span) {
    return make_.builder().enum_imm(EnumKind::Memory, std::string(memory_name(m)), span);
  }

  Expr create_acc(const OpCall& c) {
    if (given(c.arg("init_value"))) return nullptr;
    return make_.call(OpId::CreateTile,
                      {{"shape", rewrite_expr(c.arg("shape"))},
                       {"dtype", c.arg("dtype")},
                       {"target_memory", memory(Memory::Acc, c.span)}},
                      c.span);
  }

  // The tile form of a tensor-level matmul defining accumulator `target`: one tile matmul, or, when the
  // operands exceed L0 with the whole K extent, one per K chunk, accumulating (the last is the value,
  // the others statements before it).
  Expr tile_matmul(const OpCall& c, const Var& target, Block& prelude) {
    auto parts = plan_.chunks.find(&c);
    if (!is_tensor_matmul(c) || parts == plan_.chunks.end() || parts->second == 0) return nullptr;
    Expr value;
    for (long long j = 0; j < parts->second; ++j) {
      if (value) prelude.push_back(make_assign(map_var(target), value, c.span));
      Expr lhs = operand(c, "lhs", j, parts->second, prelude);
      Expr rhs = operand(c, "rhs", j, parts->second, prelude);
      if (!lhs || !rhs) return nullptr;
      if (j == 0 && c.op->id == OpId::Matmul)
        value =
            make_.call(OpId::Matmul,
                       {{"lhs", lhs}, {"rhs", rhs}, {"out_dtype", rewrite_opt(c.arg("out_dtype"))}}, c.span);
      else
        value = make_.call(OpId::MatmulAcc,
                           {{"acc", j == 0 ? rewrite_expr(c.arg("acc")) : make_.ref(map_var(target), c.span)},
                            {"lhs", lhs},
                            {"rhs", rhs},
                            {"init_cond", j == 0 ? rewrite_opt(c.arg("init_cond")) : nullptr}},
                           c.span);
      if (!value) return nullptr;
    }
    return value;
  }

  // The K chunks of operand variable `v` (bound by slice `c`), each loaded where `v` was bound.
  void bind_chunks(const Var& v, const OpCall& c, const Role& role, long long parts, Block& out) {
    std::vector<Var>& chunks = chunk_vars_[v.get()];
    chunks.clear();
    for (long long j = 0; j < parts; ++j) {
      Expr slice = chunk_slice(c, role, j, parts);
      Expr load = slice ? load_slice(*slice->as<OpCall>(), role.transposed, out) : nullptr;
      if (!load) {
        failed_ = true;
        return;
      }
      chunks.push_back(vars_.make(v->name + "_k" + std::to_string(j), load->type, c.span));
      out.push_back(make_assign(chunks.back(), load, c.span));
    }
  }

  // Chunk `j` of `parts` of slice `c` along its K axis (the region's K extent must be valid whole).
  Expr chunk_slice(const OpCall& c, const Role& role, long long j, long long parts) {
    const std::vector<Expr>* shape = as_list(c.arg("shape"));
    const std::vector<Expr>* offset = as_list(c.arg("offset"));
    const std::vector<Expr>* valid = given(c.arg("valid_shape")) ? as_list(c.arg("valid_shape")) : nullptr;
    size_t axis = k_axis(role);
    auto k = shape && shape->size() == 2 ? as_const_int((*shape)[axis]) : std::nullopt;
    if (!k || !offset || (valid && as_const_int((*valid)[axis]) != k)) return nullptr;
    long long kc = *k / parts;
    Builder& b = make_.builder();
    std::vector<Expr> sh = *shape, off = *offset, va = valid ? *valid : std::vector<Expr>{};
    sh[axis] = make_.i(kc, c.span);
    if (j > 0) off[axis] = b.binary(BinaryOpKind::Add, off[axis], make_.i(j * kc, c.span), c.span);
    if (valid) va[axis] = sh[axis];
    return make_.call(OpId::Slice,
                      {{"input", rewrite_expr(c.args[0])},
                       {"shape", b.list(sh, c.span)},
                       {"offset", b.list(off, c.span)},
                       {"valid_shape", valid ? b.list(va, c.span) : nullptr}},
                      c.span);
  }

  // The whole of 2-D tensor `e` as a slice of itself, for chunking.
  Expr whole_slice(const Expr& e) {
    auto dims = e->type ? e->type->static_shape() : std::nullopt;
    if (!dims || dims->size() != 2) return nullptr;
    return make_.call(
        OpId::Slice,
        {{"input", e}, {"shape", make_.ints(*dims, e->span)}, {"offset", make_.ints({0, 0}, e->span)}},
        e->span);
  }

  // Chunk `j` of `parts` of operand `slot` of matmul `c` in Left / Right: a planned Mat variable (or
  // its chunk), or a load of the slice or whole 2-D tensor it names (or of that region's chunk).
  Expr operand(const OpCall& c, const char* slot, long long j, long long parts, Block& prelude) {
    auto role = role_of(c, slot);
    const Expr& arg = c.arg(slot);
    if (!role || !arg) return nullptr;
    Expr mat;
    Var v = as_var(arg);
    const OpCall* s = as_op_call(arg);
    auto chunks = v ? chunk_vars_.find(v.get()) : chunk_vars_.end();
    if (v && plan_.operands.count(v.get()) && parts > 1) {
      if (chunks != chunk_vars_.end() && static_cast<long long>(chunks->second.size()) == parts)
        mat = make_.ref(chunks->second[static_cast<size_t>(j)], arg->span);
    } else if (v && plan_.operands.count(v.get())) {
      mat = make_.ref(map_var(v), arg->span);
    } else if (s && is_matrix_slice(*s)) {
      Expr chunk = parts > 1 ? chunk_slice(*s, *role, j, parts) : nullptr;
      if (parts == 1 || chunk) mat = load_slice(chunk ? *chunk->as<OpCall>() : *s, role->transposed, prelude);
    } else if (v && !plan_.partial_slices.count(v.get()) && static_matrix(arg->type, plan_.l1_bytes)) {
      Expr whole = parts > 1 ? whole_slice(rewrite_expr(arg)) : nullptr;
      Expr chunk = whole ? chunk_slice(*whole->as<OpCall>(), *role, j, parts) : nullptr;
      if (parts == 1)
        mat = load_mat(rewrite_expr(arg), nullptr, role->transposed, prelude, arg->span);
      else if (chunk)
        mat = load_slice(*chunk->as<OpCall>(), role->transposed, prelude);
    }
    // k_chunks sized the chunks for L0; a partially valid tile is no larger than its shape.
    long long l0 = role->memory == Memory::Left ? plan_.l0a_bytes : plan_.l0b_bytes;
    if (!mat || !static_matrix(mat->type, l0)) return nullptr;
    return make_.call(OpId::Move, {{"tile", mat}, {"target_memory", memory(role->memory, arg->span)}},
                      arg->span);
  }

  // A slice as a Mat load of its region (partially valid with valid_shape, whose tail PyPTO's load
  // leaves zero, as ptodist's does).
  Expr load_slice(const OpCall& c, bool transposed, Block& prelude) {
    if (!is_matrix_slice(c) || !static_matrix(c.type, plan_.l1_bytes)) return nullptr;
    Expr src = rewrite_expr(c.args[0]);
    Expr offset = rewrite_expr(c.arg("offset")), shape = rewrite_expr(c.arg("shape"));
    Expr valid = given(c.arg("valid_shape")) ? rewrite_expr(c.arg("valid_shape")) : nullptr;
    if (!transposed)
      return make_.call(OpId::Load,
                        {{"tensor", src},
                         {"offsets", offset},
                         {"shapes", shape},
                         {"valid_shape", valid},
                         {"target_memory", memory(Memory::Mat, c.span)}},
                        c.span);
    // Transposed: a view of the valid region swapped (the region must be static: it is a tensor's
    // shape), loaded into the swapped tile. pl.transpose of a slice is a DN view in PTO; the runtime
    // copies the region.
    const std::vector<Expr>* region = as_list(valid ? valid : shape);
    if (!region || !as_const_int((*region)[0]) || !as_const_int((*region)[1])) return nullptr;
    Expr view = make_.call(OpId::Slice,
                           {{"input", src}, {"shape", valid ? valid : shape}, {"offset", offset}}, c.span);
    if (!view) return nullptr;
    Var region_var = vars_.make(name_of(c.args[0]) + "_region", view->type, c.span);
    prelude.push_back(make_assign(region_var, view, c.span));
    return load_mat(make_.ref(region_var, c.span), c.type, true, prelude, c.span);
  }

  // A Mat load of the whole 2-D tensor `src`, transposed through a pl.transpose view; `tile_shape` (the
  // untransposed slice type) sizes the tile when the region is smaller (a partially valid slice).
  Expr load_mat(Expr src, const Type& tile_shape, bool transposed, Block& prelude, SourceSpan span) {
    if (!src || !src->type) return nullptr;
    if (transposed) {
      Expr view = make_.call(
          OpId::Transpose, {{"input", src}, {"axis1", make_.i(0, span)}, {"axis2", make_.i(1, span)}}, span);
      if (!view) return nullptr;
      Var t = vars_.make(name_of(src) + "_t", view->type, span);
      prelude.push_back(make_assign(t, view, span));
      src = make_.ref(t, span);
    }
    auto region = src->type->static_shape();
    if (!region) return nullptr;
    std::vector<long long> shape = *region;
    if (tile_shape) {
      shape = *tile_shape->static_shape();
      if (transposed) std::swap(shape[0], shape[1]);
    }
    return make_.call(OpId::Load,
                      {{"tensor", src},
                       {"offsets", make_.ints({0, 0}, span)},
                       {"shapes", make_.ints(shape, span)},
                       {"valid_shape", shape == *region ? nullptr : make_.ints(*region, span)},
                       {"target_memory", memory(Memory::Mat, span)}},
                      span);
  }

  static std::string name_of(const Expr& e) {
    Var v = as_var(e);
    return v ? v->name : "operand";
  }

  DiagnosticEngine& diags_;
  OpMaker make_;
  VarFactory vars_;
  const Plan& plan_;
  const VarTypes& types_;
  VarTypes found_;
  std::map<const VarNode*, std::vector<Var>> chunk_vars_;  // bind_chunks
  bool failed_ = false;
};

using Definitions = std::map<const VarNode*, std::vector<const OpCall*>>;

// The variables a trial may make accumulators, in program order: every definition a pl.create_tensor
// without init_value or a tensor-level matmul (one at least), a static 2-D shape that fits L0C.
std::vector<const VarNode*> accumulators(const Definitions& defs, const ChipProfile& profile) {
  std::vector<const VarNode*> out;
  for (const auto& [v, ds] : defs) {
    bool ok = v->type && v->type->is_tensor_like() && static_matrix(v->type, profile.l0c_bytes);
    bool matmul = false;
    for (const OpCall* c : ds) {
      if (c && is_tensor_matmul(*c))
        matmul = true;
      else if (!c || c->op->id != OpId::CreateTensor || given(c->arg("init_value")))
        ok = false;
    }
    if (ok && matmul) out.push_back(v);
  }
  std::sort(out.begin(), out.end(), [](const VarNode* a, const VarNode* b) { return a->id < b->id; });
  return out;
}

// `f` with the accumulators `accs` converted, or null when that does not type-check.
Function try_convert(const Program& p, const Function& f, const std::set<const VarNode*>& accs,
                     const Definitions& defs, const ChipProfile& profile) {
  Plan plan = make_plan(f, accs, defs, profile);
  VarTypes types = plan.types;
  // Each round may retype the variables the previous one found; a chain of n of them takes n rounds.
  for (int round = 0; round < 32; ++round) {
    DiagnosticEngine scratch;
    Retyper r(scratch, p, f, plan, types);
    Function out = r.run(f);
    if (!out) return nullptr;
    if (r.found().size() == types.size()) return out;
    types = r.found();
  }
  return nullptr;
}

}  // namespace

Function convert_tile_matmuls(const Program& p, const Function& f, PassContext& cx) {
  Function split = SplitRedefinitions(p, f).run(f);
  Definitions defs;
  collect_defs(split->body, defs);
  for (const Param& prm : split->params) defs[prm.var.get()].push_back(nullptr);
  // One accumulator at a time, keeping those that convert with the ones before them: a use with no tile
  // form costs only its own accumulator.
  std::set<const VarNode*> accepted;
  Function best;
  for (const VarNode* v : accumulators(defs, cx.profile)) {
    std::set<const VarNode*> trial = accepted;
    trial.insert(v);
    if (Function out = try_convert(p, split, trial, defs, cx.profile)) {
      accepted = std::move(trial);
      best = out;
    }
  }
  return best ? best : f;
}

}  // namespace ptodist::transforms::detail
