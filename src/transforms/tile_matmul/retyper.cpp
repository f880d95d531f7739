// try_convert (plan.h): one trial of the conversion, rewritten round by round (the Retyper) until the
// variables it retypes stop growing.
#include <string>

#include "../rewrite_util.h"
#include "plan.h"
#include "ptodist/ir/elementwise_ops.h"
#include "ptodist/ir/expand_ops.h"
#include "ptodist/ir/functor.h"
#include "ptodist/ir/op_table.h"
#include "ptodist/ir/reduce_ops.h"
#include "ptodist/ir/unary_ops.h"

namespace ptodist::transforms::detail::tile_matmul {

using namespace ir;

namespace {

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
      value = create_acc(*c, types_.at(target.get()));
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
    // A reshape of a converted tile to the shape it has (a batch-of-one accumulator's
    // `pl.reshape(acc, [M, N])`: the tile is already its 2-D matrix) is the tile itself.
    if (c.op->id == OpId::Reshape && tile("input") && same_dims(args[0]->type->shape, args[1]))
      return args[0];
    if (is_vector_op(c.op->id))
      for (Expr& a : args)
        if (a && a->type && a->type->kind == TypeKind::Tile && a->type->memory == Memory::Acc)
          a = make_.call(OpId::Move, {{"tile", a}, {"target_memory", memory(Memory::Vec, a->span)}}, a->span);
    return make_.builder().op_call_slots(op, std::move(args), std::move(varargs), make_.scope(), c.span);
  }

  Expr memory(Memory m, SourceSpan span) {
    return make_.builder().enum_imm(EnumKind::Memory, std::string(memory_name(m)), span);
  }

  // The Acc tile of the accumulator's type `acc` (a batch of one is its 2-D matrix).
  Expr create_acc(const OpCall& c, const Type& acc) {
    if (given(c.arg("init_value"))) return nullptr;
    return make_.call(OpId::CreateTile,
                      {{"shape", make_.builder().list(acc->shape, c.span)},
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
    size_t axis = shape ? k_axis(role, shape->size()) : 0;
    auto k = shape && shape->size() >= 2 ? as_const_int((*shape)[axis]) : std::nullopt;
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
    Expr natural = make_.call(OpId::Load,
                              {{"tensor", src},
                               {"offsets", offset},
                               {"shapes", shape},
                               {"valid_shape", valid},
                               {"target_memory", memory(Memory::Mat, c.span)}},
                              c.span);
    if (!transposed || !natural) return natural;
    // A batch of one ([1, N, K] of a 3-D weight): the natural load of its region, read transposed
    // through a zero-copy view of the Mat tile, as PyPTO's ConvertTensorToTileOps realises a transposed
    // batch_matmul operand (FlattenTileNdTo2D then makes the tiles 2-D: the PTO tiles are [N, K]).
    if (c.args[0]->type->shape.size() > 2) {
      Var loaded = vars_.make(name_of(c.args[0]) + "_mat", natural->type, c.span);
      prelude.push_back(make_assign(loaded, natural, c.span));
      return make_.call(OpId::TransposeView, {{"tile", make_.ref(loaded, c.span)}}, c.span);
    }
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

  // Whether list `e` holds the constant dims `shape`.
  static bool same_dims(const std::vector<Expr>& shape, const Expr& e) {
    const std::vector<Expr>* l = as_list(e);
    if (!l || l->size() != shape.size()) return false;
    for (size_t i = 0; i < shape.size(); ++i) {
      auto a = as_const_int(shape[i]), b = as_const_int((*l)[i]);
      if (!a || !b || *a != *b) return false;
    }
    return true;
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

}  // namespace

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

}  // namespace ptodist::transforms::detail::tile_matmul
