// Binding and evaluating the dynamic dims of the host orchestrator's parameters.
#include "ptodist/runtime/host_dims.h"

#include <climits>

#include "ptodist/ir/scalar_eval.h"
#include "ptodist/ir/type.h"

namespace ptodist::runtime {
namespace {

// Python's arithmetic through the one scalar evaluator: a result outside 64 bits (a huge --dim) or a
// division by zero leaves the dim unknown instead of wrapping. `/` in a dim is floor division.
std::optional<long long> eval_binary(ir::BinaryOpKind op, long long a, long long b) {
  switch (op) {
    case ir::BinaryOpKind::Div:
      op = ir::BinaryOpKind::FloorDiv;
      break;
    case ir::BinaryOpKind::Add:
    case ir::BinaryOpKind::Sub:
    case ir::BinaryOpKind::Mul:
    case ir::BinaryOpKind::FloorDiv:
    case ir::BinaryOpKind::Mod:
      break;
    default:
      return std::nullopt;
  }
  ir::ScalarResult r = ir::eval_binary(op, ir::ScalarValue::of_int(a), ir::ScalarValue::of_int(b));
  if (!r.ok() || r.value.is_float()) return std::nullopt;
  return r.value.i;
}

void collect_names(const ir::Expr& e, std::vector<std::string>& out) {
  if (!e) return;
  if (const auto* d = e->as<ir::Dynamic>()) {
    for (const std::string& n : out)
      if (n == d->name) return;
    out.push_back(d->name);
  } else if (const auto* b = e->as<ir::Binary>()) {
    collect_names(b->lhs, out);
    collect_names(b->rhs, out);
  }
}

// The dim as a shape prints it: `NR`, `(M * 2)`.
std::string dim_text(const ir::Expr& dim) {
  std::string s = ir::shape_str({dim});
  return s.substr(1, s.size() - 2);
}

}  // namespace

std::optional<long long> eval_dim(const ir::Expr& dim, const DimValues& dims) {
  if (!dim) return std::nullopt;
  if (auto v = ir::as_const_int(dim)) return v;
  if (const auto* d = dim->as<ir::Dynamic>()) {
    auto it = dims.find(d->name);
    if (it == dims.end()) return std::nullopt;
    return it->second;
  }
  if (const auto* b = dim->as<ir::Binary>()) {
    auto l = eval_dim(b->lhs, dims), r = eval_dim(b->rhs, dims);
    if (!l || !r) return std::nullopt;
    return eval_binary(b->op, *l, *r);
  }
  return std::nullopt;
}

std::string bind_dim(const ir::Expr& dim, long long extent, DimValues& dims, bool& known) {
  known = true;
  if (auto v = eval_dim(dim, dims)) {
    if (*v == extent) return "";
    return "dim " + dim_text(dim) + " is " + std::to_string(*v) +
           " by the dims bound so far, but the tensor has " + std::to_string(extent);
  }
  std::vector<std::string> names;
  collect_names(dim, names);
  std::vector<std::string> unbound;
  for (const std::string& n : names)
    if (!dims.count(n)) unbound.push_back(n);
  if (unbound.size() != 1) {
    known = false;
    return "";
  }
  // Linear in the one unknown: f(x) = f(0) + x * (f(1) - f(0)); the solution is checked by evaluating.
  const std::string& x = unbound[0];
  DimValues trial = dims;
  trial[x] = 0;
  auto f0 = eval_dim(dim, trial);
  trial[x] = 1;
  auto f1 = eval_dim(dim, trial);
  long long rise = 0, need = 0;
  if (f0 && f1 && *f1 != *f0 && !__builtin_sub_overflow(*f1, *f0, &rise) &&
      !__builtin_sub_overflow(extent, *f0, &need) && !(rise == -1 && need == LLONG_MIN) && need % rise == 0) {
    trial[x] = need / rise;
    if (eval_dim(dim, trial) == extent && trial[x] >= 0) {
      dims[x] = trial[x];
      return "";
    }
  }
  return "no value of '" + x + "' makes dim " + dim_text(dim) + " equal " + std::to_string(extent);
}

std::string bind_host_dims(const ir::FunctionNode& host,
                           const std::map<std::string, std::vector<long long>>& shapes, DimValues& dims) {
  for (bool changed = true; changed;) {
    changed = false;
    for (const ir::Param& p : host.params) {
      auto it = shapes.find(p.var->name);
      if (it == shapes.end() || it->second.size() != p.var->type->shape.size()) continue;
      for (size_t i = 0; i < it->second.size(); ++i) {
        size_t before = dims.size();
        bool known = false;
        std::string why = bind_dim(p.var->type->shape[i], it->second[i], dims, known);
        if (!why.empty()) return "input '" + p.var->name + "' (" + ir::type_str(p.var->type) + "): " + why;
        changed |= dims.size() != before;
      }
    }
  }
  for (const ir::Param& p : host.params) {
    auto it = shapes.find(p.var->name);
    if (it == shapes.end() || it->second.size() != p.var->type->shape.size()) continue;
    for (const ir::Expr& d : p.var->type->shape) {
      std::vector<std::string> names;
      collect_names(d, names);
      if (!names.empty() && !eval_dim(d, dims))
        return "input '" + p.var->name + "' (" + ir::type_str(p.var->type) + "): cannot tell dim " +
               dim_text(d) + " from its extent; bind its names with --dim NAME=<value>";
    }
  }
  return "";
}

std::string bind_rank_dims(const ir::FunctionNode& host, const std::map<std::string, size_t>& rank_dims,
                           int ranks, DimValues& dims) {
  for (const ir::Param& p : host.params) {
    auto it = rank_dims.find(p.var->name);
    if (it == rank_dims.end() || it->second >= p.var->type->shape.size()) continue;
    const ir::Expr& dim = p.var->type->shape[it->second];
    if (eval_dim(dim, dims)) continue;  // bound before: check_args compares it with the rank count
    bool known = false;
    std::string why = bind_dim(dim, ranks, dims, known);
    if (!why.empty())
      return "host parameter '" + p.var->name + "' is indexed by rank, so its dim " +
             std::to_string(it->second) + " is the rank count " + std::to_string(ranks) + ", but " + why;
  }
  return "";
}

std::string parse_dim_specs(const std::vector<std::string>& specs, DimValues& dims) {
  for (const std::string& text : specs) {
    size_t eq = text.find('=');
    std::string name = eq == std::string::npos ? "" : text.substr(0, eq);
    long long value = -1;
    try {
      size_t used = 0;
      std::string v = eq == std::string::npos ? "" : text.substr(eq + 1);
      value = std::stoll(v, &used);
      if (used != v.size()) value = -1;
    } catch (const std::exception&) {
      value = -1;
    }
    if (name.empty() || value < 0)
      return "--dim '" + text + "': expected NAME=N with N a non-negative integer";
    auto [at, fresh] = dims.emplace(name, value);
    if (!fresh && at->second != value)
      return "--dim '" + text + "': " + name + " was already given as " + std::to_string(at->second);
  }
  return "";
}

std::vector<std::string> dim_names(const ir::Param& p) {
  std::vector<std::string> names;
  for (const ir::Expr& d : p.var->type->shape) collect_names(d, names);
  return names;
}

}  // namespace ptodist::runtime
