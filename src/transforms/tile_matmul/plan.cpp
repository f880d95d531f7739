// Which variables the tensor-level matmul conversion makes tiles: the accumulators a trial may take,
// and for a set of them the slice variables that become their Mat operands (each read in one role,
// in the K chunks that fit L0), with every planned variable's tile type.
#include "plan.h"

#include <algorithm>

#include "../rewrite_util.h"
#include "ptodist/ir/functor.h"
#include "ptodist/ir/op_table.h"

namespace ptodist::transforms::detail::tile_matmul {

using namespace ir;

namespace {

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

// The fewest K chunks that put each operand within L0A / L0B (PyPTO's AutoTileMatmulL0 cuts K the same
// way, in 16-wide fractal multiples), or 0 when none does or a shape is not static.
long long k_chunks(const OpCall& c, const ChipProfile& profile) {
  auto lr = role_of(c, "lhs"), rr = role_of(c, "rhs");
  const Expr &lhs = c.arg("lhs"), &rhs = c.arg("rhs");
  auto ls = lhs ? matrix_dims(lhs->type) : std::nullopt;
  auto rs = rhs ? matrix_dims(rhs->type) : std::nullopt;
  if (!lr || !rr || !ls || !rs) return 0;
  long long k = (*ls)[k_axis(*lr)], m = (*ls)[1 - k_axis(*lr)], n = (*rs)[1 - k_axis(*rr)];
  long long lb = dtype_bytes(lhs->type->dtype), rb = dtype_bytes(rhs->type->dtype);
  for (long long parts = 1; parts <= k; ++parts) {
    long long kc = k / parts;
    if (k % parts || (parts > 1 && kc % 16)) continue;
    if (m * kc * lb <= profile.l0a_bytes && kc * n * rb <= profile.l0b_bytes) return parts;
  }
  return 0;
}

// The Mat tile a slice of type `t` loads into (transposed: its last two dims swapped; a batch of one
// keeps its leading 1s, as the load reads the tensor's dims).
Type mat_type(const Type& t, bool transposed) {
  std::vector<Expr> shape = t->shape, valid = t->valid_shape;
  size_t n = shape.size();
  if (transposed) {
    std::swap(shape[n - 2], shape[n - 1]);
    if (valid.size() == n) std::swap(valid[n - 2], valid[n - 1]);
  }
  auto tile = std::make_shared<TypeNode>(*tile_type(shape, t->dtype, Memory::Mat));
  tile->valid_shape = valid;
  return tile;
}

}  // namespace

bool is_tensor_matmul(const OpCall& c) {
  return (c.op->id == OpId::Matmul || c.op->id == OpId::MatmulAcc) && c.type && c.type->is_tensor_like();
}

std::optional<std::vector<long long>> matrix_dims(const Type& t) {
  auto d = t ? t->static_shape() : std::nullopt;
  if (!d || d->size() < 2) return std::nullopt;
  for (size_t i = 0; i + 2 < d->size(); ++i)
    if ((*d)[i] != 1) return std::nullopt;
  return std::vector<long long>{(*d)[d->size() - 2], d->back()};
}

bool static_matrix(const Type& t, long long bytes) {
  auto d = matrix_dims(t);
  return d && (*d)[0] * (*d)[1] * dtype_bytes(t->dtype) <= bytes;
}

bool is_matrix_slice(const OpCall& c) {
  return is_plain_tensor_slice(c) && c.args[0]->type->shape.size() >= 2 && c.type &&
         c.type->shape.size() == c.args[0]->type->shape.size() && matrix_dims(c.type);
}

std::optional<Role> role_of(const OpCall& c, const char* slot) {
  bool lhs = std::string(slot) == "lhs";
  const Expr& flag = c.arg(lhs ? "a_trans" : "b_trans");
  if (given(flag) && !flag->isa<BoolImm>()) return std::nullopt;
  return Role{lhs ? Memory::Left : Memory::Right, literal_true(flag)};
}

size_t k_axis(const Role& r, size_t rank) {
  return rank - 2 + ((r.memory == Memory::Left) != r.transposed ? 1 : 0);
}

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
  // A batch-of-one accumulator is the 2-D Acc tile of its matrix (PyPTO's FlattenTileNdTo2D).
  for (const VarNode* v : accs) {
    const std::vector<Expr>& s = v->type->shape;
    plan.types[v] = tile_type({s[s.size() - 2], s.back()}, v->type->dtype, Memory::Acc);
  }
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

}  // namespace ptodist::transforms::detail::tile_matmul
