// Type annotations (`pl.Tensor[[M, K], pl.FP16]`, `pl.InOut[...]`, `-> tuple[...]`) and the decorators
// that give a function its level (`@pl.function(type=...)`, `@pl.jit.incore`, ...).
#include "parser_impl.h"

namespace ptodist::frontend {

namespace {

// The subscript parts of `X[a, b, c]`.
std::vector<const SynExpr*> subscript_parts(const SynExpr& e) {
  std::vector<const SynExpr*> parts;
  const SynExpr& index = *e.items[1];
  if (index.kind == SynKind::Tuple && !index.parenthesized)
    for (const SynExprP& it : index.items) parts.push_back(it.get());
  else
    parts.push_back(&index);
  return parts;
}

const char* const kTypeExamples =
    "pl.Tensor[[M, K], pl.FP16], pld.DistributedTensor[[M, K], pl.FP16], pl.Scalar[pl.INT32] or "
    "pl.Tile[[M, K], pl.FP16, pl.Mem.Vec]";

}  // namespace

ir::Type Parser::specialized_tensor_type(const BoundSource::JitParamType& t) {
  std::vector<ir::Expr> dims;
  for (long long d : t.shape) dims.push_back(b_->int_imm(d));
  return ir::tensor_type(std::move(dims), *ir::dtype_from_name(t.dtype));
}

std::optional<Parser::ParamType> Parser::lower_param_type(const SynExpr& e, LowerCtx& cx) {
  if (e.kind == SynKind::Subscript) {
    std::optional<std::string> c = canonical(*e.items[0]);
    if (c && (*c == "pl.InOut" || *c == "pl.Out" || *c == "pl.In")) {
      auto parts = subscript_parts(e);
      if (parts.size() != 1) {
        error(e.span, *c + " takes one type: " + *c + "[pl.Tensor[[M, K], pl.FP16]]");
        return std::nullopt;
      }
      ir::Type t = lower_type(*parts[0], cx);
      if (!t) return std::nullopt;
      ir::Direction d = *c == "pl.InOut" ? ir::Direction::InOut
                        : *c == "pl.Out" ? ir::Direction::Out
                                         : ir::Direction::In;
      return ParamType{t, d};
    }
  }
  ir::Type t = lower_type(e, cx);
  if (!t) return std::nullopt;
  return ParamType{t, ir::Direction::In};
}

std::optional<std::vector<ir::Expr>> Parser::lower_shape(const SynExpr& e, LowerCtx& cx) {
  // A name bound to a list or tuple constant (`SHAPE = [16, 8]`) is that shape.
  ir::Expr bound = e.kind == SynKind::Name ? sequence_constant(e, cx) : nullptr;
  if (e.kind != SynKind::List && e.kind != SynKind::Tuple && !bound) {
    error(e.span, "expected a shape such as [M, K]");
    return std::nullopt;
  }
  std::vector<const SynExpr*> items;
  for (const SynExprP& d : e.items) items.push_back(d.get());
  if (bound) items.assign(ir::as_list(bound)->size(), &e);
  std::vector<ir::Expr> dims;
  bool ok = true;
  for (size_t i = 0; i < items.size(); ++i) {
    const SynExpr* d = items[i];
    ir::Expr dim = bound ? (*ir::as_list(bound))[i] : lower(*d, cx);
    if (dim &&
        (!dim->type || dim->type->kind != ir::TypeKind::Scalar || !ir::dtype_is_int(dim->type->dtype))) {
      note_bad_define(*d, "is used as a shape dimension (an integer)");
      error(d->span,
            "shape dimension must be an integer constant, a factory parameter or pl.dynamic(\"NAME\"), got " +
                ir::type_str(dim->type));
      dim = nullptr;
    }
    ok = ok && dim;
    dims.push_back(dim);
  }
  if (!ok) return std::nullopt;
  if (dims.size() > ir::kMaxDims) {
    error(e.span, "a shape of " + std::to_string(dims.size()) + " dims; tensors and tiles have at most " +
                      std::to_string(ir::kMaxDims));
    return std::nullopt;
  }
  return dims;
}

ir::Type Parser::lower_type(const SynExpr& e, LowerCtx& cx) {
  if (e.kind == SynKind::Name && (e.text == "int" || e.text == "float" || e.text == "bool")) {
    return ir::scalar_type(e.text == "int"     ? ir::DType::INT64
                           : e.text == "float" ? ir::DType::FP32
                                               : ir::DType::BOOL);
  }
  if (e.kind == SynKind::Tuple) {
    std::vector<ir::Type> elems;
    for (const SynExprP& it : e.items) {
      ir::Type t = lower_type(*it, cx);
      if (!t) return nullptr;
      elems.push_back(t);
    }
    return ir::tuple_type(std::move(elems));
  }
  const SynExpr& head = e.kind == SynKind::Subscript ? *e.items[0] : e;
  std::string path = dotted_path(head);
  std::optional<std::string> c =
      path == "tuple" || path == "Tuple" ? std::optional<std::string>("tuple") : canonical(head);
  if (!c) {
    error(e.span, "expected a type such as " + std::string(kTypeExamples));
    return nullptr;
  }
  if (e.kind != SynKind::Subscript) {
    static const std::map<std::string, ir::TypeKind> simple = {
        {"pld.AsyncSession", ir::TypeKind::AsyncSession},
        {"pld.AsyncEvent", ir::TypeKind::AsyncEvent},
        {"pl.TaskId", ir::TypeKind::TaskId},
        {"pld.CommCtx", ir::TypeKind::CommCtx}};
    if (auto it = simple.find(*c); it != simple.end()) return ir::simple_type(it->second);
    if (*c == "pl.Tensor" && cx.bare_tensor) return specialized_tensor_type(*cx.bare_tensor);
    if (*c == "pl.Tensor") {
      error(e.span,
            "'pl.Tensor' needs its parameters, e.g. pl.Tensor[[M, K], pl.FP16]; a bare pl.Tensor "
            "parameter of a @pl.jit function takes the shape of the tensor passed to it, which "
            "ptodist knows only when Python calls or compiles the function with tensors (docs/python.md)");
      return nullptr;
    }
    error(e.span, "'" + *c + "' needs its parameters, e.g. " + std::string(kTypeExamples));
    return nullptr;
  }
  auto parts = subscript_parts(e);
  if (*c == "tuple") {
    std::vector<ir::Type> elems;
    for (const SynExpr* p : parts) {
      ir::Type t = lower_type(*p, cx);
      if (!t) return nullptr;
      elems.push_back(t);
    }
    return ir::tuple_type(std::move(elems));
  }
  auto dtype_at = [&](size_t i) -> std::optional<ir::DType> {
    auto d = dtype_of(*parts[i], cx);
    if (d) return d;
    if (std::string param = unbound_factory_param(*parts[i], cx); !param.empty()) {
      // Once per parameter: every type of the factory names it.
      if (unbound_dtype_params_.insert(param).second)
        error(parts[i]->span, "factory parameter '" + param + "' gives a dtype but has no default; pass -D " +
                                  param + "=pl.FP32 (or another dtype)");
      else
        ++poisoned_uses_;
    } else
      error(parts[i]->span, "expected a dtype such as pl.FP16 in " + *c + "[...]");
    return d;
  };
  if (*c == "pl.Scalar") {
    if (parts.size() != 1) {
      error(e.span, "pl.Scalar takes one dtype: pl.Scalar[pl.INT32]");
      return nullptr;
    }
    // PyPTO spells a task handle pl.Scalar[pl.TASK_ID] as well as pl.TaskId.
    if (canonical(*parts[0]) == std::optional<std::string>("pl.TASK_ID"))
      return ir::simple_type(ir::TypeKind::TaskId);
    auto d = dtype_at(0);
    return d ? ir::scalar_type(*d) : nullptr;
  }
  bool tile = *c == "pl.Tile";
  if (*c != "pl.Tensor" && *c != "pld.DistributedTensor" && *c != "pld.WindowBuffer" && !tile) {
    error(head.span, "unknown type '" + *c + "'; expected " + kTypeExamples);
    return nullptr;
  }
  // PyPTO's pl.Tile[shape, dtype, memory, pl.TileView(valid_shape=[..])]: the view's valid region.
  std::vector<ir::Expr> valid;
  if (tile && parts.size() >= 3 && is_tile_view(*parts.back())) {
    const SynExpr& view = *parts.back();
    for (size_t i = 1; i < view.items.size(); ++i) {
      const SynExpr& a = *view.items[i];
      if (a.keyword != "valid_shape" || a.kind != SynKind::List) {
        error(a.span, "pl.TileView: ptodist takes only valid_shape=[rows, cols] here");
        return nullptr;
      }
      for (const SynExprP& d : a.items) {
        ir::Expr v = lower(*d, cx);
        if (!v) return nullptr;
        if (!v->type || v->type->kind != ir::TypeKind::Scalar || ir::dtype_is_float(v->type->dtype)) {
          error(d->span, "pl.TileView: each valid_shape dim must be an integer");
          return nullptr;
        }
        valid.push_back(v);
      }
    }
    parts.pop_back();
  }
  if (parts.size() != 2 && !(tile && parts.size() == 3)) {
    error(e.span,
          *c + (tile ? " takes a shape, a dtype and optionally a memory: pl.Tile[[M, K], pl.FP16, pl.Mem.Vec]"
                     : " takes a shape and a dtype: " + *c + "[[M, K], pl.FP16]"));
    return nullptr;
  }
  auto shape = lower_shape(*parts[0], cx);
  auto dtype = dtype_at(1);
  if (!shape || !dtype) return nullptr;
  if (tile) {
    ir::Memory mem = ir::Memory::Vec;
    if (parts.size() == 3) {
      ir::Expr m = lower(*parts[2], cx);
      const ir::EnumImm* en = m ? m->as<ir::EnumImm>() : nullptr;
      if (!en || en->enum_kind != ir::EnumKind::Memory) {
        if (m) error(parts[2]->span, "expected a memory space such as pl.Mem.Vec");
        return nullptr;
      }
      mem = *ir::memory_from_name(en->value);
    }
    if (!valid.empty() && valid.size() != shape->size()) {
      error(e.span, "pl.TileView: valid_shape has " + std::to_string(valid.size()) + " dims, the tile " +
                        std::to_string(shape->size()));
      return nullptr;
    }
    auto t = std::make_shared<ir::TypeNode>(*ir::tile_type(std::move(*shape), *dtype, mem));
    t->valid_shape = std::move(valid);
    return t;
  }
  if (*c == "pl.Tensor") return ir::tensor_type(std::move(*shape), *dtype);
  if (*c == "pld.WindowBuffer") return ir::window_buffer_type(std::move(*shape), *dtype);
  return ir::dist_tensor_type(std::move(*shape), *dtype);
}

std::optional<std::vector<ir::Type>> Parser::lower_return_types(const SynExpr& e, LowerCtx& cx) {
  if (e.kind == SynKind::None) return std::vector<ir::Type>{};
  ir::Type t = lower_type(e, cx);
  if (!t) return std::nullopt;
  if (t->kind == ir::TypeKind::Tuple) return t->elements;
  return std::vector<ir::Type>{t};
}

std::string Parser::decorator_path(const SynExpr& d) const {
  const SynExpr& head = d.kind == SynKind::Call ? *d.items[0] : d;
  return canonical(head).value_or("");
}

// Whether the body of `d` opens an InCore scope: `pl.at(... pl.Level.CORE_GROUP ...)` or `pl.spmd(`,
// read from its tokens because the level is needed before the body is parsed.
bool Parser::has_incore_scope(const FuncDecl& d) const {
  size_t end = skip_suite_from(d.def_pos);
  for (size_t i = d.def_pos + 2; i + 1 < end; ++i) {
    const Token& t = tokens_[i];
    if (t.kind != TokenKind::Name || tokens_[i - 1].text != "." || tokens_[i + 1].text != "(") continue;
    std::string path = canonical(tokens_[i - 2].text + "." + t.text).value_or("");
    if (path == "pl.spmd") return true;
    if (path != "pl.at") continue;
    int depth = 0;
    for (size_t j = i + 1; j < end; ++j) {
      if (tokens_[j].text == "(") ++depth;
      if (tokens_[j].text == ")" && --depth == 0) break;
      if (tokens_[j].kind == TokenKind::Name && tokens_[j].text == "CORE_GROUP") return true;
    }
  }
  return false;
}

// The level of a function from its decorators; reports a located error when it cannot tell.
std::optional<ir::FunctionKind> Parser::function_kind(const FuncDecl& d, bool class_style) {
  for (const SynExprP& dec : d.decorators) {
    std::string path = decorator_path(*dec);
    if (!class_style) {
      static const std::map<std::string, ir::FunctionKind> jit = {
          {"pl.jit", ir::FunctionKind::Orchestration},
          {"pl.jit.incore", ir::FunctionKind::InCore},
          {"pl.jit.aic", ir::FunctionKind::AIC},
          {"pl.jit.aiv", ir::FunctionKind::AIV},
          {"pl.jit.host", ir::FunctionKind::Host},
          {"pl.jit.orchestration", ir::FunctionKind::Orchestration}};
      if (path == "pl.jit.incore" && dec->kind == SynKind::Call) {
        // @pl.jit.incore(level=pl.Level.AIC|AIV) pins the core kind, as PyPTO's decorator does.
        for (size_t i = 1; i < dec->items.size(); ++i) {
          std::string value = canonical(*dec->items[i]).value_or("");
          if (value == "pl.Level.AIC") return ir::FunctionKind::AIC;
          if (value == "pl.Level.AIV") return ir::FunctionKind::AIV;
        }
      }
      if (auto it = jit.find(path); it != jit.end()) return it->second;
      if (path == "pl.jit.opaque" || path == "pl.jit.extern") {
        error(dec->span,
              "@" + path + " functions are not supported yet" +
                  (path == "pl.jit.opaque" ? std::string(" (a function of no fixed level; write its pl.at "
                                                         "scopes in a @pl.jit or @pl.jit.host function)")
                                           : std::string(" (a kernel from external C++ source)")));
        return std::nullopt;
      }
      // An inline function has no level of its own: its body runs at its caller's.
      if (path == "pl.jit.inline" || path == "pl.inline") return ir::FunctionKind::InCore;
      if (path.rfind("pl.jit.", 0) == 0) {
        error(dec->span, "unknown decorator '@" + path +
                             "'; expected @pl.jit, @pl.jit.incore, @pl.jit.inline or @pl.jit.host");
        return std::nullopt;
      }
      continue;
    }
    if (path != "pl.function") continue;
    std::string type, level, role;
    if (dec->kind == SynKind::Call) {
      for (size_t i = 1; i < dec->items.size(); ++i) {
        const SynExpr& a = *dec->items[i];
        std::string value = canonical(a).value_or("");
        std::string member = value.substr(value.rfind('.') + 1);
        if (a.keyword == "type" && value.rfind("pl.FunctionType.", 0) == 0)
          type = member;
        else if (a.keyword == "level" && value.rfind("pl.Level.", 0) == 0)
          level = member;
        else if (a.keyword == "role" && value.rfind("pl.Role.", 0) == 0)
          role = member;
        else if (a.keyword == "type" || a.keyword == "level" || a.keyword == "role")
          error(a.span, "unexpected value for '" + a.keyword + "' of @pl.function");
        else if (a.keyword == "external_source") {
          // PyPTO compiles the named .cpp as the kernel (its body is a bare `...`); there is nothing
          // for the CPU runtime to run, so say so here rather than at the `...` body.
          error(a.span,
                "@pl.function(external_source=...) kernels (hand-written C++ for the device) are not "
                "supported: ptodist runs kernels written in the language");
          return std::nullopt;
        }
      }
    }
    static const std::map<std::string, ir::FunctionKind> types = {
        {"InCore", ir::FunctionKind::InCore},
        {"Inline", ir::FunctionKind::InCore},  // no level of its own: spliced into its callers
        {"AIC", ir::FunctionKind::AIC},
        {"AIV", ir::FunctionKind::AIV},
        {"Orchestration", ir::FunctionKind::Orchestration},
        {"Group", ir::FunctionKind::Group}};
    if (auto it = types.find(type); it != types.end()) return it->second;
    // PyPTO's default type: OutlineIncoreScopes promotes an Opaque function to an orchestration
    // when its body holds an InCore scope (pl.at(level=CORE_GROUP), pl.spmd), outlining each.
    bool opaque = type == "Opaque" || (type.empty() && level.empty() && role.empty());
    if (opaque && has_incore_scope(d)) return ir::FunctionKind::Orchestration;
    if (opaque) {
      error(dec->span, "'" + d.name +
                           "' is an Opaque function (PyPTO's default type) with no 'with "
                           "pl.at(level=pl.Level.CORE_GROUP)' or pl.spmd scope to outline; ptodist runs "
                           "an Opaque function only as the orchestration of such scopes: use "
                           "@pl.function(type=pl.FunctionType.InCore|AIC|AIV|Orchestration)");
      return std::nullopt;
    }
    if (level == "HOST" || level == "NODE") return ir::FunctionKind::Host;
    if (level == "CHIP" || level == "PROCESSOR" || level == "UMA") return ir::FunctionKind::Orchestration;
    if (!level.empty() && type.empty()) {
      error(dec->span, "functions at pl.Level." + level +
                           " are not supported yet; ptodist runs functions at pl.Level.HOST (host "
                           "orchestrator), pl.Level.CHIP (per-chip orchestration) and kernels "
                           "(type=pl.FunctionType.InCore|AIC|AIV)");
      return std::nullopt;
    }
    error(dec->span,
          "cannot tell the level of '" + d.name +
              "': use @pl.function(type=pl.FunctionType.InCore|AIC|"
              "AIV|Orchestration) or @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)");
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace ptodist::frontend
