// Type constructors, structural type equality and the PyPTO spelling of types.
#include "ptodist/ir/type.h"

#include "ptodist/ir/expr.h"
#include "ptodist/ir/op_table.h"

namespace ptodist::ir {

namespace {

Type make(TypeKind kind, std::vector<Expr> shape, DType t, Memory m = Memory::Vec) {
  auto n = std::make_shared<TypeNode>();
  n->kind = kind;
  n->shape = std::move(shape);
  n->dtype = t;
  n->memory = m;
  return n;
}

std::string_view binary_spelling(BinaryOpKind op) {
  switch (op) {
    case BinaryOpKind::Add:
      return "+";
    case BinaryOpKind::Sub:
      return "-";
    case BinaryOpKind::Mul:
      return "*";
    case BinaryOpKind::Div:
      return "/";
    case BinaryOpKind::FloorDiv:
      return "//";
    case BinaryOpKind::Mod:
      return "%";
    case BinaryOpKind::Pow:
      return "**";
    case BinaryOpKind::BitAnd:
      return "&";
    case BinaryOpKind::BitOr:
      return "|";
    case BinaryOpKind::BitXor:
      return "^";
    case BinaryOpKind::Shl:
      return "<<";
    case BinaryOpKind::Shr:
      return ">>";
  }
  return "?";
}

// A dim as the user would write it; dynamic dims print by name (the printer defines the name).
std::string dim_str(const Expr& e) {
  if (!e) return "?";
  if (auto c = as_const_int(e)) return std::to_string(*c);
  if (auto d = e->as<Dynamic>()) return d->name;
  if (auto v = e->as<VarRef>()) return v->var ? v->var->name : "?";
  if (auto b = e->as<Binary>())
    return "(" + dim_str(b->lhs) + " " + std::string(binary_spelling(b->op)) + " " + dim_str(b->rhs) + ")";
  if (auto u = e->as<Unary>(); u && u->op == UnaryOpKind::Neg) return "-" + dim_str(u->operand);
  return "?";
}

std::string dtype_str(DType t) {
  return "pl." + std::string(dtype_name(t));
}

}  // namespace

bool dim_equal(const Expr& a, const Expr& b) {
  if (!a || !b) return a == b;
  auto ca = as_const_int(a), cb = as_const_int(b);
  if (ca || cb) return ca && cb && *ca == *cb;
  if (a->kind != b->kind) return false;
  if (auto x = a->as<Dynamic>()) return x->name == b->as<Dynamic>()->name;
  if (auto x = a->as<VarRef>()) {
    auto y = b->as<VarRef>();
    return x->var == y->var || (x->var && y->var && x->var->name == y->var->name);
  }
  if (auto x = a->as<Binary>()) {
    auto y = b->as<Binary>();
    return x->op == y->op && dim_equal(x->lhs, y->lhs) && dim_equal(x->rhs, y->rhs);
  }
  if (auto x = a->as<Unary>()) {
    auto y = b->as<Unary>();
    return x->op == y->op && dim_equal(x->operand, y->operand);
  }
  // `pld.world_size()` written twice is one value (the rank count): a name rebound to a second
  // window of shape [pld.world_size(), N] keeps its type.
  if (auto x = a->as<OpCall>()) {
    auto y = b->as<OpCall>();
    return x->op && x->op == y->op && x->op->id == OpId::WorldSize && x->args.empty() && y->args.empty();
  }
  return a == b;
}

std::string shape_str(const std::vector<Expr>& shape) {
  std::string out = "[";
  for (size_t i = 0; i < shape.size(); ++i) out += (i ? ", " : "") + dim_str(shape[i]);
  return out + "]";
}

bool TypeNode::shape_is_static() const {
  for (const Expr& d : shape)
    if (!as_const_int(d)) return false;
  return true;
}

std::optional<std::vector<long long>> TypeNode::static_shape() const {
  std::vector<long long> dims;
  for (const Expr& d : shape) {
    auto c = as_const_int(d);
    if (!c) return std::nullopt;
    dims.push_back(*c);
  }
  return dims;
}

Type scalar_type(DType t) {
  return make(TypeKind::Scalar, {}, t);
}
Type tensor_type(std::vector<Expr> shape, DType t) {
  return make(TypeKind::Tensor, std::move(shape), t);
}
Type dist_tensor_type(std::vector<Expr> shape, DType t) {
  return make(TypeKind::DistTensor, std::move(shape), t);
}
Type tile_type(std::vector<Expr> shape, DType t, Memory m) {
  return make(TypeKind::Tile, std::move(shape), t, m);
}
Type window_buffer_type(std::vector<Expr> shape, DType t) {
  return make(TypeKind::WindowBuffer, std::move(shape), t);
}
Type simple_type(TypeKind kind) {
  return make(kind, {}, DType::FP32);
}

Type tuple_type(std::vector<Type> elements) {
  auto n = std::make_shared<TypeNode>();
  n->kind = TypeKind::Tuple;
  n->elements = std::move(elements);
  return n;
}

Type array_type(Expr extent, DType t) {
  auto n = std::make_shared<TypeNode>();
  n->kind = TypeKind::Array;
  n->dtype = t;
  n->shape = {std::move(extent)};
  return n;
}

bool type_equal(const Type& a, const Type& b) {
  if (!a || !b) return a == b;
  if (a->kind != b->kind) return false;
  switch (a->kind) {
    case TypeKind::Scalar:
      return a->dtype == b->dtype;
    case TypeKind::Tile:
      if (a->memory != b->memory) return false;
      [[fallthrough]];
    case TypeKind::Tensor:
    case TypeKind::DistTensor:
    case TypeKind::WindowBuffer:
    case TypeKind::Array:
      if (a->dtype != b->dtype || a->shape.size() != b->shape.size()) return false;
      for (size_t i = 0; i < a->shape.size(); ++i)
        if (!dim_equal(a->shape[i], b->shape[i])) return false;
      return true;
    case TypeKind::Tuple:
      if (a->elements.size() != b->elements.size()) return false;
      for (size_t i = 0; i < a->elements.size(); ++i)
        if (!type_equal(a->elements[i], b->elements[i])) return false;
      return true;
    default:
      return true;
  }
}

std::string type_str(const Type& t) {
  return type_str(t, dim_str);
}

std::string type_str(const Type& t, const std::function<std::string(const Expr&)>& dim) {
  if (!t) return "<unknown>";
  auto shape = [&](const std::vector<Expr>& dims) {
    std::string out = "[";
    for (size_t i = 0; i < dims.size(); ++i) out += (i ? ", " : "") + dim(dims[i]);
    return out + "]";
  };
  switch (t->kind) {
    case TypeKind::Scalar:
      return "pl.Scalar[" + dtype_str(t->dtype) + "]";
    case TypeKind::Tensor:
      return "pl.Tensor[" + shape(t->shape) + ", " + dtype_str(t->dtype) + "]";
    case TypeKind::DistTensor:
      return "pld.DistributedTensor[" + shape(t->shape) + ", " + dtype_str(t->dtype) + "]";
    case TypeKind::Tile:
      // plan-memory's offset, when planned, so tile-IR dumps show where each tile lives.
      return "pl.Tile[" + shape(t->shape) + ", " + dtype_str(t->dtype) + ", pl.Mem." +
             std::string(memory_name(t->memory)) +
             (t->valid_shape.empty() ? "" : ", valid_shape=" + shape(t->valid_shape)) +
             (t->addr >= 0 ? ", addr=" + std::to_string(t->addr) : "") + "]";
    case TypeKind::WindowBuffer:
      return "pld.WindowBuffer[" + shape(t->shape) + ", " + dtype_str(t->dtype) + "]";
    case TypeKind::Array:
      return "pl.Array[" + (t->shape.empty() ? std::string("?") : dim(t->shape[0])) + ", " +
             dtype_str(t->dtype) + "]";
    case TypeKind::AsyncSession:
      return "pld.AsyncSession";
    case TypeKind::AsyncEvent:
      return "pld.AsyncEvent";
    case TypeKind::TaskId:
      return "pl.TaskId";
    case TypeKind::CommCtx:
      return "pld.CommCtx";
    case TypeKind::Tuple: {
      std::string out = "tuple[";
      for (size_t i = 0; i < t->elements.size(); ++i) out += (i ? ", " : "") + type_str(t->elements[i], dim);
      return out + "]";
    }
    case TypeKind::None:
      return "None";
  }
  return "<unknown>";
}

}  // namespace ptodist::ir
