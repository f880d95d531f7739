// Lowering of expression syntax to IR: names through the scopes, attribute paths through the import
// aliases to dtypes and enum members, operators on scalars and tiles (calls: lower_call.cpp).
#include <algorithm>

#include "parser_impl.h"
#include "ptodist/ir/scalar_eval.h"

namespace ptodist::frontend {

namespace {

struct EnumSpec {
  const char* prefix;
  ir::EnumKind kind;
  std::vector<std::string> members;  // empty: any member is accepted
};

const std::vector<EnumSpec>& enum_specs() {
  static const std::vector<EnumSpec> specs = {
      {"pl.Mem", ir::EnumKind::Memory, {"Vec", "Mat", "Left", "Right", "Acc", "Bias"}},
      {"pl.MemorySpace", ir::EnumKind::Memory, {"Vec", "Mat", "Left", "Right", "Acc", "Bias"}},
      {"pld.NotifyOp", ir::EnumKind::NotifyOp, {"AtomicAdd", "Set"}},
      {"pld.WaitCmp", ir::EnumKind::WaitCmp, {"Eq", "Ne", "Gt", "Ge", "Lt", "Le"}},
      // PyPTO exports the one AtomicType enum under both namespaces (pl.store / pl.assemble take it).
      {"pl.AtomicType", ir::EnumKind::AtomicType, {"None_", "Add"}},
      {"pld.AtomicType", ir::EnumKind::AtomicType, {"None_", "Add"}},
      {"pld.ReduceOp", ir::EnumKind::ReduceOp, {"Sum", "Max", "Min", "Prod"}},
      {"pl.FunctionType",
       ir::EnumKind::FunctionType,
       {"InCore", "AIC", "AIV", "Orchestration", "Opaque", "Group"}},
      // PyPTO's hierarchy levels, bottom-up, then its aliases (L2CACHE = CHIP_DIE, PROCESSOR = UMA = CHIP,
      // NODE = HOST, POD = CLUSTER_0, CLOS1 = CLUSTER_1, CLOS2 = CLUSTER_2).
      {"pl.Level",
       ir::EnumKind::Level,
       {"AIV", "AIC", "CORE_GROUP", "CHIP_DIE", "CHIP", "HOST", "CLUSTER_0", "CLUSTER_1", "CLUSTER_2",
        "GLOBAL", "L2CACHE", "PROCESSOR", "UMA", "NODE", "POD", "CLOS1", "CLOS2"}},
      {"pl.Role", ir::EnumKind::Role, {"Orchestrator", "SubWorker"}},
      // What pl.fillpad writes outside a tile's valid region (PyPTO's PadValue; null means none).
      {"pl.PadValue", ir::EnumKind::PadValue, {"null", "zero", "max", "min"}},
      {"pl.PipeType", ir::EnumKind::PipeType, {"MTE1", "MTE2", "MTE3", "M", "V", "S", "FIX", "ALL"}},
  };
  return specs;
}

std::string join(const std::vector<std::string>& items) {
  std::string out;
  for (const std::string& s : items) out += (out.empty() ? "" : ", ") + s;
  return out;
}

// Every value spelling the language knows, for suggestions.
std::vector<std::string> known_value_paths() {
  std::vector<std::string> out;
  out.push_back("pl.AUTO");
  for (const char* d :
       {"FP32", "FP16", "BF16", "INT32", "INT16", "INT8", "UINT8", "UINT16", "UINT32", "INT64", "BOOL"})
    out.push_back(std::string("pl.") + d);
  for (const EnumSpec& s : enum_specs())
    for (const std::string& m : s.members) out.push_back(std::string(s.prefix) + "." + m);
  return out;
}

bool is_tile(const ir::Expr& e) {
  return e && e->type && e->type->kind == ir::TypeKind::Tile;
}

}  // namespace

bool is_loop_path(const std::string& p) {
  return p == "pl.range" || p == "pl.parallel" || p == "pl.unroll" || p == "pl.pipeline";
}

ir::Expr Parser::lower(const SynExpr& e, LowerCtx& cx) {
  switch (e.kind) {
    case SynKind::Int:
      return b_->int_imm(e.int_value, e.span);
    case SynKind::Float:
      return b_->float_imm(e.float_value, e.span);
    case SynKind::String:
      return b_->str_imm(e.text, e.span);
    case SynKind::True:
      return b_->bool_imm(true, e.span);
    case SynKind::False:
      return b_->bool_imm(false, e.span);
    case SynKind::None:
      return b_->none_imm(e.span);
    case SynKind::Name:
      return lower_name(e, cx);
    case SynKind::Attr:
      return lower_attr(e, cx);
    case SynKind::Call:
      return lower_call(e, cx);
    case SynKind::Binary:
      return lower_binary(e, cx);
    case SynKind::Compare:
      return lower_compare(e, cx);
    case SynKind::Subscript: {
      if (is_slice_subscript(e)) return lower_slice_read(e, cx);
      ir::Expr value = lower(*e.items[0], cx);
      const SynExpr& index = *e.items[1];
      std::vector<const SynExpr*> parts;
      if (index.kind == SynKind::Tuple)
        for (const SynExprP& it : index.items) parts.push_back(it.get());
      else
        parts.push_back(&index);
      std::vector<ir::Expr> indices;
      bool ok = value != nullptr;
      for (const SynExpr* p : parts) {
        if (p->kind == SynKind::Slice) {
          error(p->span, "slices are not supported in subscripts; index with a single value");
          ok = false;
          continue;
        }
        ir::Expr i = lower(*p, cx);
        ok = ok && i;
        indices.push_back(i);
      }
      if (!ok) return nullptr;
      if (value->type && value->type->kind == ir::TypeKind::Array)
        return lower_array_read(value, indices, e.span, cx);
      // `x.shape[1]`, `VS[0]`: the element itself, so a shape built from it stays static.
      if (const std::vector<ir::Expr>* items = ir::as_list(value); items && indices.size() == 1)
        if (auto i = ir::as_const_int(indices[0]); i && *i >= 0 && *i < (long long)items->size())
          return (*items)[*i];
      return b_->subscript(value, std::move(indices), e.span);
    }
    case SynKind::List:
    case SynKind::Tuple: {
      std::vector<ir::Expr> elems;
      bool ok = true;
      for (const SynExprP& it : e.items) {
        ir::Expr v = lower(*it, cx);
        ok = ok && v;
        elems.push_back(v);
      }
      if (!ok) return nullptr;
      return e.kind == SynKind::List ? b_->list(std::move(elems), e.span)
                                     : b_->tuple(std::move(elems), e.span);
    }
    case SynKind::Unary: {
      ir::Expr operand = lower(*e.items[0], cx);
      ir::UnaryOpKind op = e.text == "-"   ? ir::UnaryOpKind::Neg
                           : e.text == "+" ? ir::UnaryOpKind::Pos
                           : e.text == "~" ? ir::UnaryOpKind::Invert
                                           : ir::UnaryOpKind::Not;
      return b_->unary(op, operand, e.span);
    }
    case SynKind::BoolOp: {
      ir::Expr lhs = lower(*e.items[0], cx);
      ir::Expr rhs = lower(*e.items[1], cx);
      return b_->bool_op(e.text == "and" ? ir::BoolOpKind::And : ir::BoolOpKind::Or, lhs, rhs, e.span);
    }
    case SynKind::IfExp: {
      ir::Expr cond = lower(*e.items[0], cx);
      ir::Expr then_value = lower(*e.items[1], cx);
      ir::Expr else_value = lower(*e.items[2], cx);
      return b_->if_exp(cond, then_value, else_value, e.span);
    }
    case SynKind::Slice:
      error(e.span, "slices are not supported");
      return nullptr;
    case SynKind::Star:
      error(e.span, "starred expressions are not supported");
      return nullptr;
    case SynKind::Dict:
      error(e.span, "dict literals are not supported");
      return nullptr;
    case SynKind::Set:
      error(e.span, "set literals are not supported");
      return nullptr;
    case SynKind::Ellipsis:
      error(e.span, "'...' is not supported in expressions");
      return nullptr;
    case SynKind::Lambda:
      error(e.span, "lambda expressions are not supported");
      return nullptr;
  }
  return nullptr;
}

ir::Expr Parser::lower_name(const SynExpr& e, LowerCtx& cx) {
  const std::string& name = e.text;
  if (const Binding* b = lookup(cx, name)) {
    // A constant that names a dtype (`DTYPE = dtype`, a factory default pl.FP32) is that dtype, so
    // `dtype=DTYPE` reaches an op's contract as the dtype itself.
    if (b->var && b->kind == Binding::Kind::Constant) {
      if (auto d = dtype_of(e, cx)) return b_->dtype_imm(*d, e.span);
      // Likewise an enum, string or bool constant (`REDUCE_OP = reduce_op`, a factory default
      // pld.ReduceOp.Sum, `high_precision = False`): an op's contract reads attributes such as `op=`
      // and flags such as `high_precision=` as immediates.
      if (ir::Expr imm = attribute_constant(e, cx)) return imm;
      // A list or tuple constant (`VS = [16, 8]`, a list Python bound) is its literal, so it goes
      // wherever a list written in place goes (`valid_shape=VS`, a shape, `VS[0]`).
      if (ir::Expr seq = sequence_constant(e, cx)) return seq;
      // A number Python bound (a local of the function that built the program) is its value, as
      // PyPTO's parser evaluates such a name: an attribute that must be a literal (`cmp_type=cmp_type`)
      // gets one. Constants written in a kernel file keep their names, which the printed IR shows.
      if (is_bound_names_file(b->var->span.file) && b->const_value) {
        if (auto v = ir::as_const_int(b->const_value)) return b_->int_imm(*v, e.span);
        if (auto f = ir::as_const_float(b->const_value)) return b_->float_imm(*f, e.span);
      }
    }
    if (b->var) return b_->var_ref(b->var, e.span);
    ++poisoned_uses_;  // its failed definition was reported; the statement using it is not lowered
    return nullptr;
  }
  if (!cx.const_only && find_function(cx, name)) {
    if (!cx.class_style) return b_->func_ref(name, false, cx.build, e.span);
    error(e.span, "methods of a @pl.program class are named through self: 'self." + name + "'");
    return nullptr;
  }
  if (std::string why = host_name_reason(cx, name); !why.empty()) {
    error(e.span, why);
  } else if (name == "self") {
    error(e.span, "'self' can only be used as 'self.<method>'");
  } else if (is_module_alias(name)) {
    error(e.span, "module '" + name + "' is not a value");
  } else {
    error(e.span, "undefined name '" + name + "'" + did_you_mean(name, visible_names(cx)));
  }
  return nullptr;
}

std::string Parser::takes(const ir::Expr& value) const {
  if (value->isa<ir::DTypeImm>()) return "a dtype such as pl.FP16";
  if (const auto* e = value->as<ir::EnumImm>()) {
    for (const EnumSpec& s : enum_specs())
      if (s.kind == e->enum_kind)
        return "a " + std::string(s.prefix) + " member" +
               (s.members.empty() ? "" : " (" + join(s.members) + ")");
    return "";
  }
  if (const auto* i = value->as<ir::IntImm>())
    return "an integer (its default is " + std::to_string(i->value) + ")";
  return "";
}

void Parser::note_bad_define(const SynExpr& e, const std::string& use) {
  if (!constant_defines_ || e.kind != SynKind::Name || !constant_defines_->used.count(e.text)) return;
  const std::string& value = constant_defines_->values.at(e.text);
  if (constant_defines_->error.empty())
    constant_defines_->error =
        "-D " + e.text + "=" + value + ": parameter '" + e.text + "' " + use + ", got " +
        (value.rfind("pl.", 0) == 0 && value.find('.', 3) == std::string::npos ? "a dtype such as pl.FP16"
                                                                               : "an enum member");
}

ir::Expr Parser::lower_enum_or_dtype(const std::string& path, const SourceSpan& span, bool* matched) {
  *matched = true;
  if (path.rfind("pl.", 0) == 0 && path.find('.', 3) == std::string::npos) {
    if (auto dt = ir::dtype_from_name(path.substr(3))) return b_->dtype_imm(*dt, span);
    if (path == "pl.TASK_ID") return b_->dtype_imm(ir::DType::TASK_ID, span);  // pl.array.create's only
    // pl.reserve_buffer's base=pl.AUTO: the compiler picks the address (PyPTO's sentinel -1).
    if (path == "pl.AUTO") return b_->int_imm(-1, span);
  }
  size_t dot = path.rfind('.');
  std::string prefix = path.substr(0, dot == std::string::npos ? 0 : dot);
  std::string member = dot == std::string::npos ? path : path.substr(dot + 1);
  // PyPTO's pl.tile.MaskPattern members are plain ints (P0101 = 1, ..., P1111 = 7): the mask form of
  // gather reads them as such.
  static const std::vector<std::string> kMaskPatterns = {"P0101", "P1010", "P0001", "P0010",
                                                         "P0100", "P1000", "P1111"};
  if (prefix == "pl.tile.MaskPattern") {
    auto it = std::find(kMaskPatterns.begin(), kMaskPatterns.end(), member);
    if (it != kMaskPatterns.end()) return b_->int_imm(it - kMaskPatterns.begin() + 1, span);
    error(span, "unknown member '" + member + "' of " + prefix + "; expected one of " + join(kMaskPatterns));
    return nullptr;
  }
  for (const EnumSpec& s : enum_specs()) {
    if (prefix != s.prefix) continue;
    if (!s.members.empty() && std::find(s.members.begin(), s.members.end(), member) == s.members.end()) {
      error(span, "unknown member '" + member + "' of " + s.prefix + "; expected one of " + join(s.members));
      return nullptr;
    }
    return b_->enum_imm(s.kind, member, span);
  }
  *matched = false;
  return nullptr;
}

// `x.shape` (a tuple of its dimensions: constants or dynamic dims) and `x.dtype` of a tensor or tile
// `x`, as PyPTO's @pl.jit specializer reads them; null for anything else.
ir::Expr Parser::shape_or_dtype(const std::string& path, const Binding& b, SourceSpan span) {
  size_t dot = path.find('.');
  std::string member = path.substr(dot + 1);
  ir::Type t = b.var ? b.var->type : nullptr;
  if (!t || (member != "shape" && member != "dtype")) return nullptr;
  if (t->kind != ir::TypeKind::Tensor && t->kind != ir::TypeKind::DistTensor && t->kind != ir::TypeKind::Tile)
    return nullptr;
  if (member == "dtype") return b_->dtype_imm(t->dtype, span);
  return b_->tuple(std::vector<ir::Expr>(t->shape.begin(), t->shape.end()), span);
}

ir::Expr Parser::lower_attr(const SynExpr& e, LowerCtx& cx) {
  std::string path = dotted_path(e);
  if (path.empty()) {
    error(e.span, "attribute '." + e.text + "' of a computed value is not supported");
    return nullptr;
  }
  std::string root = path.substr(0, path.find('.'));
  // PyPTO's @pl.jit makes the functions of a program methods of one @pl.program class, so a jit
  // function may name another as self.<name> too (pypto/jit/specializer.py).
  if (root == "self" && !lookup(cx, root)) {
    std::string member = path.substr(5);
    if (cx.const_only) {
      error(e.span, "'self' is only available in the methods of a @pl.program class or a @pl.jit function");
    } else if (member.find('.') == std::string::npos && find_function(cx, member)) {
      return b_->func_ref(member, cx.class_style, cx.build, e.span);
    } else if (std::string why = host_name_reason(cx, member); !why.empty()) {
      error(e.span, why);
    } else {
      std::vector<std::string> names;
      if (cx.build.functions)
        for (const ir::Function& f : *cx.build.functions) names.push_back(f->name);
      // A jit program holds the functions reached by name, as PyPTO's dep discovery finds them.
      std::string hint = cx.class_style ? ""
                                        : "; a @pl.jit program holds the jit functions its functions "
                                          "call by name (an 'if False:' call of it is enough)";
      error(e.span, "program has no function '" + member + "'" + did_you_mean(member, names) + hint);
    }
    return nullptr;
  }
  if (const Binding* b = lookup(cx, root)) {
    if (ir::Expr v = shape_or_dtype(path, *b, e.span)) return v;
    error(e.span, "attribute access on '" + root + "' is not supported" +
                      (path.find('.') == root.size() ? "; a tensor or tile has '.shape' and '.dtype'" : ""));
    return nullptr;
  }
  std::optional<std::string> c = canonical(path);
  if (!c) {
    if (std::string why = host_name_reason(cx, root); !why.empty())
      error(e.span, why);
    else if (is_module_alias(root))
      error(e.span, "'" + path + "' is not part of the kernel language (pypto.language)");
    else
      error(e.span, "undefined name '" + root + "'" + did_you_mean(root, visible_names(cx)));
    return nullptr;
  }
  bool matched = false;
  ir::Expr v = lower_enum_or_dtype(*c, e.span, &matched);
  if (matched) return v;
  if (ir::find_op(*c) || is_loop_path(*c))
    error(e.span, "'" + *c + "' must be called: " + *c + "(...)");
  else
    error(e.span, "unknown name '" + *c + "'" + did_you_mean(*c, known_value_paths()));
  return nullptr;
}

ir::Expr Parser::attribute_constant(const SynExpr& e, LowerCtx& cx) {
  const Binding* b = lookup(cx, e.text);
  for (int hops = 0; b && b->const_value && hops < 16; ++hops) {
    if (auto m = b->const_value->as<ir::EnumImm>()) return b_->enum_imm(m->enum_kind, m->value, e.span);
    if (auto s = b->const_value->as<ir::StrImm>()) return b_->str_imm(s->value, e.span);
    // A name bound to None (`valid_shape = None` in a factory) is an omitted argument, as in Python.
    if (b->const_value->isa<ir::NoneImm>()) return b_->none_imm(e.span);
    if (auto f = b->const_value->as<ir::BoolImm>()) return b_->bool_imm(f->value, e.span);
    const ir::VarRef* ref = b->const_value->as<ir::VarRef>();
    if (!ref || !ref->var) break;
    b = lookup(cx, ref->var->name);
  }
  return nullptr;
}

ir::Expr Parser::sequence_constant(const SynExpr& e, LowerCtx& cx) {
  const Binding* b = e.kind == SynKind::Name ? lookup(cx, e.text) : nullptr;
  for (int hops = 0; b && b->const_value && hops < 16; ++hops) {
    const ir::Expr& v = b->const_value;
    if (auto l = v->as<ir::List>()) return b_->list(l->elements, e.span);
    if (auto t = v->as<ir::Tuple>()) return b_->tuple(t->elements, e.span);
    const ir::VarRef* ref = v->as<ir::VarRef>();
    if (!ref || !ref->var) break;
    b = lookup(cx, ref->var->name);
  }
  return nullptr;
}

std::string Parser::unbound_factory_param(const SynExpr& e, LowerCtx& cx) {
  const Binding* b = e.kind == SynKind::Name ? lookup(cx, e.text) : nullptr;
  for (int hops = 0; b && hops < 16; ++hops) {
    if (b->kind == Binding::Kind::FactoryParam && b->var) return b->var->name;
    const ir::VarRef* ref = b->const_value ? b->const_value->as<ir::VarRef>() : nullptr;
    if (!ref || !ref->var) break;
    b = lookup(cx, ref->var->name);
  }
  return "";
}

std::optional<ir::DType> Parser::dtype_of(const SynExpr& e, LowerCtx& cx) {
  if (e.kind == SynKind::Name) {
    const Binding* b = lookup(cx, e.text);
    // `DTYPE = dtype` names another constant: follow the chain (bounded, constants cannot cycle).
    for (int hops = 0; b && b->const_value && hops < 16; ++hops) {
      if (auto d = b->const_value->as<ir::DTypeImm>()) return d->value;
      const ir::VarRef* ref = b->const_value->as<ir::VarRef>();
      if (!ref || !ref->var) break;
      b = lookup(cx, ref->var->name);
    }
    if (b) return std::nullopt;
  }
  std::optional<std::string> c = canonical(e);
  if (!c || c->rfind("pl.", 0) != 0) return std::nullopt;
  return ir::dtype_from_name(c->substr(3));
}

ir::Expr Parser::lower_binary(const SynExpr& e, LowerCtx& cx) {
  static const std::map<std::string, ir::BinaryOpKind> ops = {
      {"+", ir::BinaryOpKind::Add},    {"-", ir::BinaryOpKind::Sub},       {"*", ir::BinaryOpKind::Mul},
      {"/", ir::BinaryOpKind::Div},    {"//", ir::BinaryOpKind::FloorDiv}, {"%", ir::BinaryOpKind::Mod},
      {"**", ir::BinaryOpKind::Pow},   {"&", ir::BinaryOpKind::BitAnd},    {"|", ir::BinaryOpKind::BitOr},
      {"^", ir::BinaryOpKind::BitXor}, {"<<", ir::BinaryOpKind::Shl},      {">>", ir::BinaryOpKind::Shr}};
  ir::Expr lhs = lower(*e.items[0], cx);
  ir::Expr rhs = lower(*e.items[1], cx);
  auto it = ops.find(e.text);
  if (it == ops.end()) {
    error(e.span, "operator '" + e.text + "' is not supported; use pl.matmul for matrix products");
    return nullptr;
  }
  if (!lhs || !rhs) return nullptr;
  if (is_tile(lhs) || is_tile(rhs)) return lower_tile_arith(e.text, lhs, rhs, e.span, cx);
  return b_->binary(it->second, lhs, rhs, e.span);
}

// `a + b` on tiles is the matching pl.* op, as in PyPTO; `tile op scalar` uses pl.adds/subs/muls/divs
// (and `scalar + tile`, `scalar * tile`, which commute).
ir::Expr Parser::lower_tile_arith(const std::string& op, ir::Expr lhs, ir::Expr rhs, const SourceSpan& span,
                                  LowerCtx& cx) {
  static const std::map<std::string, std::string> tile_ops = {
      {"+", "pl.add"}, {"-", "pl.sub"}, {"*", "pl.mul"}, {"/", "pl.div"}};
  static const std::map<std::string, std::string> scalar_ops = {
      {"+", "pl.adds"}, {"-", "pl.subs"}, {"*", "pl.muls"}, {"/", "pl.divs"}};
  std::string spelling;
  if (is_tile(lhs) && is_tile(rhs)) {
    if (auto it = tile_ops.find(op); it != tile_ops.end()) spelling = it->second;
  } else if (auto it = scalar_ops.find(op); it != scalar_ops.end()) {
    bool commutes = op == "+" || op == "*";
    if (is_tile(lhs) || commutes) spelling = it->second;
    if (!is_tile(lhs)) std::swap(lhs, rhs);
  }
  if (spelling.empty()) {
    error(span, "operator '" + op + "' is not supported on these tile operands; use the pl.* tile ops");
    return nullptr;
  }
  std::vector<ir::CallArg> args{{"", lhs, lhs->span}, {"", rhs, rhs->span}};
  return b_->op_call(*ir::find_op(spelling), args, cx.build, span);
}

ir::Expr Parser::lower_compare(const SynExpr& e, LowerCtx& cx) {
  if (e.ops.size() > 1) {
    error(e.span, "chained comparisons are not supported; combine two comparisons with 'and'");
    return nullptr;
  }
  static const std::map<std::string, ir::CompareOpKind> ops = {
      {"==", ir::CompareOpKind::Eq}, {"!=", ir::CompareOpKind::Ne}, {"<", ir::CompareOpKind::Lt},
      {"<=", ir::CompareOpKind::Le}, {">", ir::CompareOpKind::Gt},  {">=", ir::CompareOpKind::Ge}};
  auto it = ops.find(e.ops[0]);
  if (it == ops.end()) {
    error(e.span, "operator '" + e.ops[0] + "' is not supported");
    return nullptr;
  }
  ir::Expr lhs = lower(*e.items[0], cx);
  ir::Expr rhs = lower(*e.items[1], cx);
  return b_->compare(it->second, lhs, rhs, e.span);
}

ir::Expr Parser::try_constant(const SynExpr& e, const Container& c) {
  ir::Expr result;
  LowerCtx cx;
  cx.container = &c;
  cx.const_only = true;
  bool ok = speculate([&] { result = lower(e, cx); });
  return ok ? result : nullptr;
}

}  // namespace ptodist::frontend
