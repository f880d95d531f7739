// Contracts of PyPTO's manual AIV split (`for aiv_id in pl.split_aiv(2, mode=...)`) and of the explicit
// cross-core events: the boundary ops only inside a region (its mode is theirs), a cube tile sharded
// to the vector lane and a vector tile gathered to the cube (PyPTO's AivSplitValid rules (c) and (d)),
// no cube compute inside a region (rule (a)) and no reduction across its split axis (rule (b)), event
// ids in the user range, one lane per event op.
#include "common.h"
#include "ptodist/ir/reduce_ops.h"

namespace ptodist::ir {

using namespace contracts;

namespace {

constexpr int kMaxUserEvent = 13;  // ids 14 and 15 are reserved (PyPTO's system.sync_set)
constexpr long long kMinFftsWorkspace = 256;

const char* mode_name(long long mode) {
  return mode == 1 ? "UP_DOWN" : mode == 2 ? "LEFT_RIGHT" : "NONE";
}

// The boundary op's `split`: the enclosing region's mode (the front end fills it for pl.aiv_shard and
// rejects the op outside a region). A pass that rebuilds the call checks it without the region.
std::optional<long long> region_split(const ContractContext& cx) {
  if (omitted(cx, "split")) {
    cx.fail("",
            "must be used inside a 'for aiv_id in pl.split_aiv(...)' region, which supplies the split "
            "mode (it marks where a tile crosses between the cube and the vector lanes)");
    return std::nullopt;
  }
  auto split = as_const_int(cx.arg("split"));
  if (!split || *split < 0 || *split > 2) {
    cx.fail("split", "'split' must be 0, 1 or 2 (a pl.SplitMode), got " + describe(cx.arg("split")));
    return std::nullopt;
  }
  if (cx.scope.split_aiv_mode >= 0 && *split != cx.scope.split_aiv_mode) {
    cx.fail("split", "'split' is " + std::to_string(*split) +
                         " but the enclosing pl.split_aiv region is mode=" + "pl.SplitMode." +
                         mode_name(cx.scope.split_aiv_mode));
    return std::nullopt;
  }
  return split;
}

// The tile with its split axis (rows for UP_DOWN, columns for LEFT_RIGHT) halved or doubled.
Type resized(const ContractContext& cx, const TypeNode& t, long long split, bool halve, Memory into) {
  std::vector<Expr> shape = t.shape, valid = t.valid_shape;
  if (split == 0) {
    auto out = std::make_shared<TypeNode>(*tile_type(shape, t.dtype, into));
    out->valid_shape = valid;
    return out;
  }
  if (shape.size() != 2)
    return cx.fail("tile", "'tile' must be a 2-D tile to split, got " + describe(cx.arg("tile")));
  size_t axis = split == 1 ? 0 : 1;
  // A dim of module constants is folded by specialize, which runs the contract again.
  auto n = as_const_int(shape[axis]);
  if (n && halve && *n % 2)
    return cx.fail("tile", "pl.SplitMode." + std::string(mode_name(split)) + " halves the " +
                               (axis ? "columns" : "rows") + " of 'tile', an odd " + std::to_string(*n));
  if (n)
    shape[axis] = const_dim(halve ? *n / 2 : *n * 2);
  else
    shape[axis] = arith(halve ? BinaryOpKind::FloorDiv : BinaryOpKind::Mul, shape[axis], const_dim(2));
  auto out = std::make_shared<TypeNode>(*tile_type(shape, t.dtype, into));
  // The lane's valid extent is its part of the whole's; the runtime localizes it per lane.
  if (!valid.empty()) {
    valid[axis] = shape[axis];
    out->valid_shape = valid;
  }
  return out;
}

// A sync op's lane: "aic" or "aiv" when given; a mixed kernel outside a region must give it.
bool check_core_type(const ContractContext& cx) {
  FunctionKind k = cx.scope.function_kind;
  if (!omitted(cx, "core_type")) {
    const Expr& e = cx.arg("core_type");
    const StrImm* s = e ? e->as<StrImm>() : nullptr;
    if (!s || (s->value != "aic" && s->value != "aiv")) {
      cx.fail("core_type",
              "'core_type' must be \"aic\" or \"aiv\", got " + (s ? "\"" + s->value + "\"" : describe(e)));
      return false;
    }
    const bool aic = s->value == "aic";
    if ((aic && k == FunctionKind::AIV) || (!aic && k == FunctionKind::AIC) ||
        (aic && cx.scope.split_aiv_mode >= 0)) {
      cx.fail("core_type",
              "core_type=\"" + s->value + "\" contradicts where the op runs: " +
                  (cx.scope.split_aiv_mode >= 0 ? std::string("a pl.split_aiv region is the vector lanes")
                                                : "'" + cx.scope.function_name + "' is an " +
                                                      std::string(function_kind_name(k)) + " kernel"));
      return false;
    }
    return true;
  }
  if (k == FunctionKind::InCore && cx.scope.split_aiv_mode < 0) {
    cx.fail("",
            "in a kernel that mixes cube and vector work, say which lane runs it: core_type=\"aic\" or "
            "core_type=\"aiv\" (or place it in a pl.split_aiv region, the vector lanes)");
    return false;
  }
  return true;
}

Type sync_op(const ContractContext& cx, bool set) {
  const Expr& id = cx.arg("event_id");
  if (auto v = id ? as_const_int(id) : std::nullopt) {
    if (*v < 0 || *v > kMaxUserEvent)
      return cx.fail("event_id",
                     "'event_id' must be in the user-available range [0, 13] (14 and 15 are "
                     "reserved), got " +
                         std::to_string(*v));
  } else if (!need_int_scalar(cx, "event_id")) {
    return nullptr;
  }
  if (!need_enum(cx, "pipe", EnumKind::PipeType, {}, "pl.PipeType.")) return nullptr;
  if (set && !omitted(cx, "ffts_mode")) {
    auto m = as_const_int(cx.arg("ffts_mode"));
    if (!m || *m < 0 || *m > 2)
      return cx.fail("ffts_mode", "'ffts_mode' must be 0, 1 or 2, got " +
                                      (m ? std::to_string(*m) : describe(cx.arg("ffts_mode"))));
  }
  if (!check_core_type(cx)) return nullptr;
  return simple_type(TypeKind::None);
}

}  // namespace

Type check_SetFfts(const ContractContext& cx) {
  const TypeNode* t = need_tensor_like(cx, "workspace");
  if (!t) return nullptr;
  if (t->dtype != DType::INT64 || t->shape.size() != 1)
    return cx.fail("workspace",
                   "'workspace' must be a 1-D INT64 tensor, got " + describe(cx.arg("workspace")));
  auto n = as_const_int(t->shape[0]);
  if (!n || *n < kMinFftsWorkspace)
    return cx.fail("workspace", "'workspace' must have a static length of at least 256 INT64 elements, got " +
                                    describe(cx.arg("workspace")));
  return simple_type(TypeKind::None);
}

Type check_SyncSet(const ContractContext& cx) {
  return sync_op(cx, true);
}
Type check_SyncWait(const ContractContext& cx) {
  return sync_op(cx, false);
}

Type check_AivShard(const ContractContext& cx) {
  auto split = region_split(cx);
  const TypeNode* t = split ? need_tile(cx, "tile") : nullptr;
  if (!t) return nullptr;
  if (t->memory != Memory::Acc)
    return cx.fail("tile",
                   "'tile' must be an Acc tile (a cube result crossing to the vector lane), got " +
                       describe(cx.arg("tile")) +
                       "; a tile loaded or made on the vector lane is there already, drop the aiv_shard");
  if (!omitted(cx, "lane_stride"))
    return cx.fail("lane_stride", "lane_stride= is not supported by ptodist yet");
  return resized(cx, *t, *split, true, Memory::Vec);
}

Type check_AicGather(const ContractContext& cx) {
  auto split = region_split(cx);
  const TypeNode* t = split ? need_tile(cx, "tile") : nullptr;
  if (!t) return nullptr;
  if (t->memory != Memory::Vec)
    return cx.fail("tile", "'tile' must be a Vec tile (a vector-lane value crossing to the cube), got " +
                               describe(cx.arg("tile")));
  return resized(cx, *t, *split, false, Memory::Mat);
}

// PyPTO's AivSplitValid (a): a region is the vector lanes' body, where cube work has no place; (b): in
// a data-parallel region a reduction across the split axis (a column reduction when the lanes split the
// rows, a row reduction when they split the columns) would give each lane a partial result.
bool check_split_aiv_placement(const ContractContext& cx) {
  const int mode = cx.scope.split_aiv_mode;
  if (mode < 0) return true;
  ReduceAxis across = mode == 1 ? ReduceAxis::kCol : ReduceAxis::kRow;
  const ReduceOpInfo* reduce = reduce_op_info(cx.call.op->id);
  const bool row_reduce = cx.call.op->id == OpId::RowSum || cx.call.op->id == OpId::RowMax;
  if (mode != 0 && ((reduce && reduce->axis == across) || (row_reduce && across == ReduceAxis::kRow))) {
    cx.fail("", std::string("reduces across the split axis of a pl.split_aiv(mode=pl.SplitMode.") +
                    mode_name(mode) +
                    ") region, where each lane holds only its half; reduce the other axis, or pl.aic_gather "
                    "the halves first");
    return false;
  }
  switch (cx.call.op->id) {
    case OpId::Matmul:
    case OpId::MatmulAcc:
    case OpId::MatmulBias:
    case OpId::BatchMatmul:
      cx.fail("",
              "cube compute inside a pl.split_aiv region, which is the vector lanes' body; move it "
              "before the region and bring its result in with pl.aiv_shard");
      return false;
    default:
      return true;
  }
}

}  // namespace ptodist::ir
