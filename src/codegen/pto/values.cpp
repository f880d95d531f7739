// Scalar values in PTO text: type spellings, hoisted constants, conversions and scalar expressions
// (loop bounds, offsets, peer ranks) lowered to the arith dialect.
#include <cmath>
#include <cstdio>

#include "emitter.h"

namespace ptodist::codegen::pto {

using namespace ir;

std::string element_type(DType t) {
  switch (t) {
    case DType::FP32:
      return "f32";
    case DType::FP16:
      return "f16";
    case DType::BF16:
      return "bf16";
    case DType::INT32:
      return "i32";
    case DType::INT16:
      return "i16";
    case DType::INT8:
      return "i8";
    case DType::UINT8:
      return "ui8";
    case DType::UINT16:
      return "ui16";
    case DType::UINT32:
      return "ui32";
    case DType::INT64:
    case DType::INDEX:
    case DType::TASK_ID:  // orchestration-only: a 64-bit task handle, never in a kernel's tiles
      return "i64";
    case DType::BOOL:
      return "i1";
  }
  return "f32";
}

// Python ints are INT64 scalars; they index and count, so they live as MLIR `index` values.
std::string value_type(DType t) {
  if (t == DType::INT64 || t == DType::INDEX) return "index";
  // arith works on signless integers
  if (t == DType::UINT8) return "i8";
  if (t == DType::UINT16) return "i16";
  if (t == DType::UINT32) return "i32";
  return element_type(t);
}

std::vector<long long> dims_of(const Type& t) {
  std::vector<long long> dims;
  if (!t) return dims;
  for (const Expr& d : t->shape) dims.push_back(as_const_int(d).value_or(-1));
  return dims;
}

namespace {

std::string join_dims(const std::vector<long long>& dims) {
  std::string s;
  for (long long d : dims) s += (d < 0 ? std::string("?") : std::to_string(d)) + "x";
  return s;
}

// Rows and columns of a tile: a 1-D tile is one row.
std::pair<long long, long long> tile_rows_cols(const Type& tile) {
  std::vector<long long> d = dims_of(tile);
  if (d.empty()) return {1, 1};
  if (d.size() == 1) return {1, d[0]};
  long long rows = 1;
  for (size_t i = 0; i + 1 < d.size(); ++i) rows *= d[i];
  return {rows, d.back()};
}

// Fractal layouts of the a2a3 cube path (PTOAS tile_buf conventions): L1 and L0A column-major boxes
// of row-major fractals, L0B the transpose, L0C 1024-byte fractals; UB tiles are plain row-major.
const char* tile_layout(Memory m) {
  switch (m) {
    case Memory::Vec:
      return "blayout=row_major, slayout=none_box, fractal=512";
    case Memory::Mat:
      return "blayout=col_major, slayout=row_major, fractal=512";
    case Memory::Left:
      return "blayout=col_major, slayout=row_major, fractal=512";
    case Memory::Right:
      return "blayout=row_major, slayout=col_major, fractal=512";
    case Memory::Acc:
      return "blayout=col_major, slayout=row_major, fractal=1024";
    case Memory::Bias:  // one row, PTO-ISA's Bias tile: row-major, no boxes
      return "blayout=row_major, slayout=none_box, fractal=512";
  }
  return "blayout=row_major, slayout=none_box, fractal=512";
}

// The transposed layout of a memory's tiles (PyPTO's transpose dual: blayout and slayout each change
// major-ness, none_box stays): a Mat tile loaded from a DN view or a pl.tile.transpose_view holds ZN,
// the layout Right takes, so its move to Right is a plain copy; a Vec view is DN.
const char* transposed_layout(Memory m) {
  switch (m) {
    case Memory::Vec:
      return "blayout=col_major, slayout=none_box, fractal=512";
    case Memory::Mat:
    case Memory::Left:
      return "blayout=row_major, slayout=col_major, fractal=512";
    case Memory::Right:
      return "blayout=col_major, slayout=row_major, fractal=512";
    case Memory::Acc:
      return "blayout=row_major, slayout=col_major, fractal=1024";
    case Memory::Bias:
      return "blayout=col_major, slayout=none_box, fractal=512";
  }
  return "blayout=col_major, slayout=none_box, fractal=512";
}

const char* tile_loc(Memory m) {
  switch (m) {
    case Memory::Vec:
      return "vec";
    case Memory::Mat:
      return "mat";
    case Memory::Left:
      return "left";
    case Memory::Right:
      return "right";
    case Memory::Acc:
      return "acc";
    case Memory::Bias:
      return "bias";
  }
  return "vec";
}

int int_width(const std::string& type) {
  if (type == "index" || type == "i64") return 64;
  if (type == "i1") return 1;
  if (type.size() > 1 && type[0] == 'i') return std::stoi(type.substr(1));
  return 0;
}

bool is_float_type(const std::string& type) {
  return type == "f32" || type == "f16" || type == "bf16";
}

std::string float_literal(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9e", v);
  return buf;
}

}  // namespace

std::string tile_buf_type(const Type& tile, int pad, bool dynamic_valid, bool transposed) {
  auto [rows, cols] = tile_rows_cols(tile);
  std::string r = std::to_string(rows), c = std::to_string(cols);
  // A partially valid tile (pl.load's valid_shape) has dynamic valid dims, its extents given as the
  // alloc_tile's valid_row / valid_col operands, as PyPTO writes every tile.
  bool partial = dynamic_valid || !tile->valid_shape.empty();
  std::string vr = partial ? "?" : r, vc = partial ? "?" : c;
  return std::string("!pto.tile_buf<loc=") + tile_loc(tile->memory) + ", dtype=" + element_type(tile->dtype) +
         ", rows=" + r + ", cols=" + c + ", v_row=" + vr + ", v_col=" + vc + ", " +
         (transposed ? transposed_layout(tile->memory) : tile_layout(tile->memory)) +
         ", pad=" + std::to_string(pad) + ">";
}

std::string tile_view_type(const Type& tile, const std::vector<long long>& valid, int pad) {
  auto [rows, cols] = tile_rows_cols(tile);
  auto dim = [](long long d) { return d < 0 ? std::string("?") : std::to_string(d); };
  return std::string("!pto.tile_buf<loc=") + tile_loc(tile->memory) + ", dtype=" + element_type(tile->dtype) +
         ", rows=" + std::to_string(rows) + ", cols=" + std::to_string(cols) + ", v_row=" + dim(valid[0]) +
         ", v_col=" + dim(valid[1]) + ", " + tile_layout(tile->memory) + ", pad=" + std::to_string(pad) + ">";
}

std::string tensor_view_type(const Type& tensor) {
  std::string dims;
  for (size_t i = 0; i < tensor->shape.size(); ++i) dims += "?x";
  return "!pto.tensor_view<" + dims + element_type(tensor->dtype) + ">";
}

std::string partition_type(const std::vector<long long>& sizes, DType t) {
  return "!pto.partition_tensor_view<" + join_dims(sizes) + element_type(t) + ">";
}

long long tile_bytes(const Type& tile) {
  auto [rows, cols] = tile_rows_cols(tile);
  return rows * cols * dtype_bytes(tile->dtype);
}

std::string enum_value(const Expr& e, const std::string& fallback) {
  if (!e) return fallback;
  if (auto en = e->as<EnumImm>()) return en->value;
  return fallback;
}

Value FunctionEmitter::constant_int(long long v, const std::string& type) {
  std::string key = std::to_string(v) + " : " + type;
  auto it = constant_names_.find(key);
  if (it != constant_names_.end()) return {it->second, type};
  std::string hint;
  if (type == "i1")
    hint = v ? "true" : "false";
  else
    hint =
        "c" + (v < 0 ? "neg" + std::to_string(-v) : std::to_string(v)) + (type == "index" ? "" : "_" + type);
  std::string name = fresh(hint);
  std::string text = type == "i1" ? (v ? "true" : "false") : std::to_string(v);
  constants_.push_back(name + " = arith.constant " + text + " : " + type);
  constant_names_[key] = name;
  return {name, type};
}

Value FunctionEmitter::constant_float(double v, const std::string& type) {
  std::string lit = float_literal(v);
  std::string key = lit + " : " + type;
  auto it = constant_names_.find(key);
  if (it != constant_names_.end()) return {it->second, type};
  std::string name = fresh("cst");
  constants_.push_back(name + " = arith.constant " + lit + " : " + type);
  constant_names_[key] = name;
  return {name, type};
}

Value FunctionEmitter::coerce(const Value& v, const std::string& type) {
  if (!v.valid() || v.type == type) return v;
  if (v.type[0] == '!' || type[0] == '!') {  // handles (pointers, sessions, events) are not numbers
    fail(fn_.span, "a " + v.type + " value is used where a " + type + " is needed");
    return {};
  }
  std::string r = fresh(take_hint("cv"));
  bool from_f = is_float_type(v.type), to_f = is_float_type(type);
  if (from_f && to_f) {
    // f16 <-> bf16 goes through f32, the only type both convert to exactly.
    if (v.type != "f32" && type != "f32") return coerce(coerce(v, "f32"), type);
    const char* op = v.type == "f32" ? "arith.truncf" : "arith.extf";
    line(r + " = " + op + " " + v.ssa + " : " + v.type + " to " + type);
    return {r, type};
  }
  if (from_f || to_f) {
    // Through i64: index has no direct float conversion.
    Value mid = from_f ? v : coerce(v, "i64");
    std::string target = to_f ? type : "i64";
    std::string conv = fresh("cv");
    line(conv + " = " + (from_f ? "arith.fptosi " : "arith.sitofp ") + mid.ssa + " : " + mid.type + " to " +
         target);
    return coerce({conv, target}, type);
  }
  if (v.type == "index" || type == "index") {
    line(r + " = arith.index_cast " + v.ssa + " : " + v.type + " to " + type);
    return {r, type};
  }
  const char* op =
      int_width(v.type) < int_width(type) ? (v.type == "i1" ? "arith.extui" : "arith.extsi") : "arith.trunci";
  line(r + " = " + op + " " + v.ssa + " : " + v.type + " to " + type);
  return {r, type};
}

Value FunctionEmitter::emit_scalar_as(const Expr& e, const std::string& type) {
  if (!e) return {};
  if (is_float_type(type)) {
    if (auto f = as_const_float(e)) return constant_float(*f, type);
  } else if (auto i = as_const_int(e)) {
    return constant_int(*i, type);
  } else if (auto b = e->as<BoolImm>()) {
    return constant_int(b->value ? 1 : 0, type);
  }
  return coerce(emit_scalar(e), type);
}

namespace {

const char* int_binary_op(BinaryOpKind op) {
  switch (op) {
    case BinaryOpKind::Add:
      return "arith.addi";
    case BinaryOpKind::Sub:
      return "arith.subi";
    case BinaryOpKind::Mul:
      return "arith.muli";
    case BinaryOpKind::Div:
      return "arith.divsi";
    case BinaryOpKind::FloorDiv:
      return "arith.floordivsi";
    case BinaryOpKind::Mod:
      return "arith.remsi";
    case BinaryOpKind::BitAnd:
      return "arith.andi";
    case BinaryOpKind::BitOr:
      return "arith.ori";
    case BinaryOpKind::BitXor:
      return "arith.xori";
    case BinaryOpKind::Shl:
      return "arith.shli";
    case BinaryOpKind::Shr:
      return "arith.shrsi";
    case BinaryOpKind::Pow:
      return nullptr;
  }
  return nullptr;
}

const char* float_binary_op(BinaryOpKind op) {
  switch (op) {
    case BinaryOpKind::Add:
      return "arith.addf";
    case BinaryOpKind::Sub:
      return "arith.subf";
    case BinaryOpKind::Mul:
      return "arith.mulf";
    case BinaryOpKind::Div:
      return "arith.divf";
    default:
      return nullptr;
  }
}

const char* compare_predicate(CompareOpKind op, bool is_float) {
  static const char* ints[] = {"eq", "ne", "slt", "sle", "sgt", "sge"};
  static const char* floats[] = {"oeq", "une", "olt", "ole", "ogt", "oge"};
  return (is_float ? floats : ints)[static_cast<int>(op)];
}

// The common type two operands are computed in: float when either is, the shared integer type when they
// agree, else index.
std::string common_type(const Expr& l, const Expr& r) {
  std::string a = value_type(l->type->dtype), b = value_type(r->type->dtype);
  if (is_float_type(a) || is_float_type(b)) return is_float_type(a) ? a : b;
  if (a == b) return a;
  if (l->isa<IntImm>()) return b;
  if (r->isa<IntImm>()) return a;
  return "index";
}

}  // namespace

Value FunctionEmitter::emit_unary(const Unary& u) {
  std::string hint = take_hint("v");
  if (u.op == UnaryOpKind::Pos) return emit_scalar(u.operand);
  Value x = emit_scalar(u.operand);
  if (!x.valid()) return {};
  std::string r = fresh(hint);
  if (u.op == UnaryOpKind::Neg && is_float_type(x.type)) {
    line(r + " = arith.negf " + x.ssa + " : " + x.type);
  } else if (u.op == UnaryOpKind::Neg) {
    line(r + " = arith.subi " + constant_int(0, x.type).ssa + ", " + x.ssa + " : " + x.type);
  } else {  // Not on i1, Invert on integers: xor with all ones
    line(r + " = arith.xori " + x.ssa + ", " + constant_int(x.type == "i1" ? 1 : -1, x.type).ssa + " : " +
         x.type);
  }
  return {r, x.type};
}

Value FunctionEmitter::emit_binary(const Binary& b) {
  std::string hint = take_hint("v");
  std::string t = common_type(b.lhs, b.rhs);
  const char* op = is_float_type(t) ? float_binary_op(b.op) : int_binary_op(b.op);
  if (!op) {
    fail(b.span,
         "this scalar operator has no PTO lowering; fold it to a constant (specialize) or compute it with + "
         "- * // %");
    return {};
  }
  Value l = emit_scalar_as(b.lhs, t), r = emit_scalar_as(b.rhs, t);
  if (!l.valid() || !r.valid()) return {};
  std::string res = fresh(hint);
  line(res + " = " + op + " " + l.ssa + ", " + r.ssa + " : " + t);
  return {res, t};
}

Value FunctionEmitter::emit_compare(const Compare& c) {
  std::string hint = take_hint("cond");
  std::string t = common_type(c.lhs, c.rhs);
  Value l = emit_scalar_as(c.lhs, t), r = emit_scalar_as(c.rhs, t);
  if (!l.valid() || !r.valid()) return {};
  std::string res = fresh(hint);
  bool f = is_float_type(t);
  line(res + " = arith.cmp" + (f ? "f " : "i ") + compare_predicate(c.op, f) + ", " + l.ssa + ", " + r.ssa +
       " : " + t);
  return {res, "i1"};
}

Value FunctionEmitter::emit_bool_op(const BoolOp& b) {
  std::string hint = take_hint("cond");
  Value l = emit_scalar_as(b.lhs, "i1"), r = emit_scalar_as(b.rhs, "i1");
  if (!l.valid() || !r.valid()) return {};
  std::string res = fresh(hint);
  line(res + (b.op == BoolOpKind::And ? " = arith.andi " : " = arith.ori ") + l.ssa + ", " + r.ssa + " : i1");
  return {res, "i1"};
}

Value FunctionEmitter::emit_select(const IfExp& s) {
  std::string hint = take_hint("sel");
  std::string t = common_type(s.then_value, s.else_value);
  Value c = emit_scalar_as(s.cond, "i1");
  Value a = emit_scalar_as(s.then_value, t), b = emit_scalar_as(s.else_value, t);
  if (!c.valid() || !a.valid() || !b.valid()) return {};
  std::string res = fresh(hint);
  line(res + " = arith.select " + c.ssa + ", " + a.ssa + ", " + b.ssa + " : " + t);
  return {res, t};
}

Value FunctionEmitter::emit_name(const Expr& e) {
  if (auto ref = e->as<VarRef>()) {
    auto it = scalars_.find(ref->var->id);
    if (it != scalars_.end()) return it->second;
    fail(e->span,
         "'" + ref->var->name +
             "' has no value here: the PTO emitter carries scalars out of loops and branches only when "
             "they are defined before them");
    return {};
  }
  const std::string& name = e->as<Dynamic>()->name;
  auto it = dims_.find(name);
  if (it != dims_.end()) return {it->second, "index"};
  fail(e->span, "dynamic dim '" + name + "' is not a dim of any kernel parameter");
  return {};
}

Value FunctionEmitter::emit_scalar(const Expr& e) {
  if (!e) return {};
  if (auto i = as_const_int(e)) return constant_int(*i, e->type ? value_type(e->type->dtype) : "index");
  switch (e->kind) {
    case ExprKind::FloatImm:
      return constant_float(e->as<FloatImm>()->value, "f32");
    case ExprKind::BoolImm:
      return constant_int(e->as<BoolImm>()->value ? 1 : 0, "i1");
    case ExprKind::VarRef:
    case ExprKind::Dynamic:
      return emit_name(e);
    case ExprKind::Unary:
      return emit_unary(*e->as<Unary>());
    case ExprKind::Binary:
      return emit_binary(*e->as<Binary>());
    case ExprKind::Compare:
      return emit_compare(*e->as<Compare>());
    case ExprKind::BoolOp:
      return emit_bool_op(*e->as<BoolOp>());
    case ExprKind::IfExp:
      return emit_select(*e->as<IfExp>());
    case ExprKind::OpCall:
      return emit_scalar_op(*e->as<OpCall>());
    default:
      break;
  }
  fail(e->span, "this expression is not a scalar the PTO emitter can compute");
  return {};
}

std::vector<Value> FunctionEmitter::emit_index_list(const Expr& list, const char* what, const OpCall& call) {
  std::vector<Value> out;
  const std::vector<Expr>* elems = as_list(list);
  if (!elems) {
    fail(list ? list->span : call.span, call.op->spelling + ": " + what + " must be a list of scalars");
    return out;
  }
  for (const Expr& x : *elems) out.push_back(emit_scalar_as(x, "index"));
  return out;
}

}  // namespace ptodist::codegen::pto
