// Contracts of the collectives, as PyPTO defines them (python/pypto/language/distributed/op/
// tensor_ops.py, src/ir/op/distributed/collective.cpp): operand kinds, dtypes, the shape relations that
// hold whatever the rank count, and the result (the window that holds the result, for rebinding).
#include "common.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

std::optional<long long> dim(const TypeNode* t, size_t i) {
  return i < t->shape.size() ? as_const_int(t->shape[i]) : std::nullopt;
}

// A mesh signal has one INT32 cell per rank: [NR] or [NR, 1] ([NR, core_num] for a host allreduce:
// column 0 is the one counted).
const TypeNode* need_mesh_signal(const ContractContext& cx) {
  const TypeNode* s = need_signal(cx, "signal");
  if (!s) return nullptr;
  bool mesh = s->shape.size() == 1 || s->shape.size() == 2;
  if (mesh) return s;
  cx.fail("signal",
          "'signal' must hold one cell per rank, [nranks] or [nranks, 1], got " + shape_str(s->shape));
  return nullptr;
}

bool same_dtype(const ContractContext& cx, std::string_view a, const TypeNode* ta, std::string_view b,
                const TypeNode* tb) {
  if (ta->dtype == tb->dtype) return true;
  cx.fail(b, quoted(b) + " dtype " + dtype_str(tb->dtype) + " must match " + quoted(a) + " dtype " +
                 dtype_str(ta->dtype));
  return false;
}

// [rows, SIZE]: 2-D, as PyPTO's lowering addresses one row per rank.
bool need_2d(const ContractContext& cx, std::string_view name, const TypeNode* t, std::string_view layout) {
  if (t->shape.size() == 2) return true;
  cx.fail(name, quoted(name) + " must be 2-D " + std::string(layout) + ", got " + shape_str(t->shape));
  return false;
}

bool rows_match_signal(const ContractContext& cx, std::string_view name, const TypeNode* t,
                       const TypeNode* signal) {
  auto rows = dim(t, 0), nr = dim(signal, 0);
  if (!rows || !nr || *rows == *nr) return true;
  cx.fail(name, quoted(name) + " has " + std::to_string(*rows) + " rows but 'signal' has " +
                    std::to_string(*nr) + " cells: both hold one entry per rank");
  return false;
}

bool distinct(const ContractContext& cx, std::string_view a, std::string_view b) {
  auto va = cx.arg(a), vb = cx.arg(b);
  auto ra = va ? va->as<VarRef>() : nullptr, rb = vb ? vb->as<VarRef>() : nullptr;
  if (!ra || !rb || ra->var->id != rb->var->id) return true;
  cx.fail(b, quoted(a) + " and " + quoted(b) + " must be different buffers: the peers write " + quoted(b) +
                 " while " + quoted(a) + " is being sent");
  return false;
}

std::optional<std::string> reduce_op(const ContractContext& cx, const std::vector<std::string>& allowed) {
  if (omitted(cx, "op")) return std::string("Sum");
  return need_enum(cx, "op", EnumKind::ReduceOp, allowed, "pld.ReduceOp.");
}

}  // namespace

Type check_Barrier(const ContractContext& cx) {
  return need_mesh_signal(cx) ? cx.arg("signal")->type : nullptr;
}

Type check_Broadcast(const ContractContext& cx) {
  if (!need_dist_tensor(cx, "target", "every rank's copy receives root's data") || !need_mesh_signal(cx) ||
      !need_int_scalar(cx, "root"))
    return nullptr;
  if (auto root = as_const_int(cx.arg("root")); root && *root < 0)
    return cx.fail("root", "'root' must be a non-negative rank, got " + std::to_string(*root));
  return cx.arg("target")->type;
}

// local_data [1, SIZE] lands in row `rank` of every peer's target [NR, SIZE].
Type check_AllGather(const ContractContext& cx) {
  const TypeNode* in = need_tensor_like(cx, "local_data");
  const TypeNode* t = in ? need_dist_tensor(cx, "target", "every rank's chunk is written into it") : nullptr;
  const TypeNode* s = t ? need_mesh_signal(cx) : nullptr;
  if (!s || !distinct(cx, "local_data", "target") || !need_2d(cx, "local_data", in, "[1, SIZE]") ||
      !need_2d(cx, "target", t, "[nranks, SIZE]") || !same_dtype(cx, "target", t, "local_data", in))
    return nullptr;
  if (auto r = dim(in, 0); r && *r != 1)
    return cx.fail("local_data",
                   "'local_data' must be this rank's single chunk [1, SIZE], got " + shape_str(in->shape));
  auto a = dim(in, 1), b = dim(t, 1);
  if (a && b && *a != *b)
    return cx.fail("target", "'target' rows hold " + std::to_string(*b) + " elements but 'local_data' has " +
                                 std::to_string(*a));
  if (!rows_match_signal(cx, "target", t, s)) return nullptr;
  return cx.arg("target")->type;
}

// Every rank stages NR chunks in target [NR, SIZE]; rank r's row r ends as the reduction of row r.
Type check_ReduceScatter(const ContractContext& cx) {
  const TypeNode* t = need_dist_tensor(cx, "target", "the peers read their chunk from it");
  const TypeNode* s = t ? need_mesh_signal(cx) : nullptr;
  if (!s || !need_2d(cx, "target", t, "[nranks, SIZE]") || !rows_match_signal(cx, "target", t, s))
    return nullptr;
  if (!reduce_op(cx, {"Sum", "Max", "Min", "Prod"})) return nullptr;
  if (!dtype_is_float(t->dtype) && t->dtype != DType::INT32)
    return cx.fail("target",
                   "'target' must have dtype pl.FP32, pl.FP16, pl.BF16 or pl.INT32 to be reduced, got " +
                       dtype_str(t->dtype));
  return cx.arg("target")->type;
}

Type check_AllReduce(const ContractContext& cx) {
  const TypeNode* t =
      need_dist_tensor(cx, "target", "the peers read it and every rank's copy is reduced in place");
  if (!t || !reduce_op(cx, {"Sum", "Max", "Min", "Prod"})) return nullptr;
  if (t->dtype != DType::FP32 && t->dtype != DType::FP16)
    return cx.fail("target", "'target' must have dtype pl.FP32 or pl.FP16, got " + dtype_str(t->dtype));
  std::string mode = "mesh";
  if (!omitted(cx, "mode")) {
    const auto* m = cx.arg("mode")->as<StrImm>();
    if (!m || (m->value != "mesh" && m->value != "ring"))
      return cx.fail("mode", "'mode' must be \"mesh\" or \"ring\", got " + describe(cx.arg("mode")));
    mode = m->value;
  }
  // A factory parameter (`core_num=cores`) is checked once specialize has bound it.
  auto cores = omitted(cx, "core_num") ? std::optional<long long>(1) : as_const_int(cx.arg("core_num"));
  if (!cores && !need_int_scalar(cx, "core_num")) return nullptr;
  if (cores && *cores <= 0)
    return cx.fail("core_num", "'core_num' must be a positive integer, got " + std::to_string(*cores));
  if (cores && *cores != 1 && mode == "ring") return cx.fail("core_num", "mode=\"ring\" requires core_num=1");
  if (cores && *cores != 1 && is_kernel(cx.scope.function_kind))
    return cx.fail("core_num",
                   "core_num > 1 is for a host orchestrator's allreduce; in a kernel use "
                   "core_num=1 and pl.spmd_submit(..., core_num=N) around it");
  if (omitted(cx, "signal")) {
    if (is_kernel(cx.scope.function_kind) || mode == "ring")
      return cx.fail("signal", std::string("'signal' is required ") +
                                   (mode == "ring" ? "with mode=\"ring\"" : "in a kernel") +
                                   ": pass a window of pl.INT32 with one cell per rank");
    return cx.arg("target")->type;
  }
  const TypeNode* s = need_signal(cx, "signal");
  if (!s) return nullptr;
  if (mode == "mesh" && !need_mesh_signal(cx)) return nullptr;
  if (mode == "ring") {
    auto rows = dim(s, 0), nr = dim(s, 1);
    // [2*(NR-1), NR] in a kernel; a host orchestrator's ring has one more row (PyPTO's return barrier).
    bool fits =
        s->shape.size() == 2 && (!rows || !nr || *rows == 2 * (*nr - 1) || *rows == 2 * (*nr - 1) + 1);
    if (!fits)
      return cx.fail("signal",
                     "mode=\"ring\" needs a 'signal' of shape [2*(NR-1), NR] (one row per "
                     "ring step; [2*(NR-1)+1, NR] from the host), got " +
                         shape_str(s->shape));
  }
  return cx.arg("target")->type;
}

// input [NR, SIZE]: row d goes to rank d, landing in its target row `rank`.
Type check_AllToAll(const ContractContext& cx) {
  const TypeNode* in = need_tensor_like(cx, "input");
  const TypeNode* t = in ? need_dist_tensor(cx, "target", "every rank writes its chunks into it") : nullptr;
  const TypeNode* s = t ? need_mesh_signal(cx) : nullptr;
  if (!s || !distinct(cx, "input", "target") || !need_2d(cx, "input", in, "[nranks, SIZE]") ||
      !need_2d(cx, "target", t, "[nranks, SIZE]") || !same_dtype(cx, "target", t, "input", in))
    return nullptr;
  for (size_t i = 0; i < 2; ++i) {
    auto a = dim(in, i), b = dim(t, i);
    if (a && b && *a != *b)
      return cx.fail("target", "'target' shape " + shape_str(t->shape) + " must equal 'input' shape " +
                                   shape_str(in->shape));
  }
  if (!rows_match_signal(cx, "target", t, s)) return nullptr;
  return cx.arg("target")->type;
}

// input/target [NR*MAX_RECV, SIZE]; send_counts [NR] or [NR, 1]; recv_counts [NR, 1] in a window.
Type check_AllToAllV(const ContractContext& cx) {
  const TypeNode* in = need_tensor_like(cx, "input");
  const TypeNode* t = in ? need_dist_tensor(cx, "target", "every rank writes its rows into it") : nullptr;
  const TypeNode* s = t ? need_mesh_signal(cx) : nullptr;
  const TypeNode* sc = s ? need_tensor_like(cx, "send_counts") : nullptr;
  const TypeNode* rc = sc ? need_signal(cx, "recv_counts") : nullptr;
  if (!rc || !distinct(cx, "input", "target") || !need_2d(cx, "input", in, "[nranks*MAX_RECV, SIZE]") ||
      !need_2d(cx, "target", t, "[nranks*MAX_RECV, SIZE]") || !same_dtype(cx, "target", t, "input", in))
    return nullptr;
  if (sc->dtype != DType::INT32 || sc->shape.empty() || sc->shape.size() > 2)
    return cx.fail("send_counts", "'send_counts' must be pl.INT32 [nranks] or [nranks, 1], got " +
                                      describe(cx.arg("send_counts")));
  if (rc->shape.size() != 2 || dim(rc, 1) != 1)
    return cx.fail("recv_counts", "'recv_counts' must be [nranks, 1], got " + shape_str(rc->shape));
  // MAX_RECV = rows / nranks fixes every transfer; the lowering needs both as constants.
  auto rows = dim(t, 0), nr = dim(s, 0);
  if (rows && nr && *rows % *nr != 0)
    return cx.fail("target", "'target' rows (" + std::to_string(*rows) +
                                 ") must be a multiple of the rank count (" + std::to_string(*nr) + ")");
  for (const TypeNode* x : {in, t})
    if (dim(x, 1) && dim(in, 1) && dim(t, 1) && *dim(in, 1) != *dim(t, 1))
      return cx.fail("target", "'target' shape " + shape_str(t->shape) + " must equal 'input' shape " +
                                   shape_str(in->shape));
  return cx.arg("target")->type;
}

}  // namespace ptodist::ir
