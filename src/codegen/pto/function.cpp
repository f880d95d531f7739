// Kernel functions in PTO text: the signature (each DistributedTensor followed by its CommContext
// pointer), the prologue (tensor views, tile allocations at their planned addresses) and the body's
// statements, with structured control flow as scf.for / scf.if.
#include <algorithm>
#include <sstream>

#include "emitter.h"

namespace ptodist::codegen::pto {

using namespace ir;

namespace {

// Calls every op call of a block, nested blocks included, in program order.
template <typename Fn>
void for_each_call(const Block& block, const Fn& fn);

template <typename Fn>
void for_each_call_in(const Expr& e, const Fn& fn) {
  if (!e) return;
  if (auto c = e->as<OpCall>()) {
    fn(*c);
    for (const Expr& a : c->args) for_each_call_in(a, fn);
    for (const Expr& a : c->varargs) for_each_call_in(a, fn);
  }
}

template <typename Fn>
void for_each_call(const Block& block, const Fn& fn) {
  for (const Stmt& s : block) {
    if (auto a = s->as<Assign>())
      for_each_call_in(a->value, fn);
    else if (auto x = s->as<ExprStmt>())
      for_each_call_in(x->value, fn);
    else if (auto f = s->as<For>())
      for_each_call(f->body, fn);
    else if (auto w = s->as<While>()) {
      for_each_call_in(w->cond, fn);
      for_each_call(w->body, fn);
    } else if (auto i = s->as<If>()) {
      for_each_call(i->then_body, fn);
      for_each_call(i->else_body, fn);
    } else if (auto m = s->as<ManualScope>()) {
      for_each_call(m->body, fn);
    } else if (auto r = s->as<Return>()) {
      for (const Expr& v : r->values) for_each_call_in(v, fn);
    }
  }
}

bool is_cube_op(OpId id) {
  return id == OpId::Matmul || id == OpId::MatmulAcc || id == OpId::MatmulBias || id == OpId::BatchMatmul ||
         id == OpId::Gemv || id == OpId::GemvAcc || id == OpId::GemvBias;
}

std::string sanitize(const std::string& hint) {
  std::string s;
  for (char ch : hint) s += (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_') ? ch : '_';
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) s = "v" + s;
  return s;
}

const char* direction_name(Direction d) {
  switch (d) {
    case Direction::In:
      return "In";
    case Direction::Out:
      return "Out";
    case Direction::InOut:
      return "InOut";
  }
  return "In";
}

}  // namespace

FunctionEmitter::FunctionEmitter(const FunctionNode& fn, const ChipProfile& profile, DiagnosticEngine& diags)
    : fn_(fn), profile_(profile), diags_(diags) {
  info_.name = fn.name;
  info_.kind = std::string(function_kind_name(fn.kind));
}

void FunctionEmitter::line(const std::string& s) {
  std::string text = std::string(in_prologue_ ? 4 : indent_ * 2, ' ') + s;
  (in_prologue_ ? prologue_ : body_).push_back(std::move(text));
}

void FunctionEmitter::fail(const SourceSpan& span, const std::string& message) {
  if (failed_) return;
  failed_ = true;
  diags_.error(span.valid() ? span : fn_.span, message);
}

std::string FunctionEmitter::fresh(const std::string& hint) {
  std::string base = sanitize(hint);
  std::string name = base;
  int& n = name_counters_[base];
  while (used_names_.count(name)) name = base + "_" + std::to_string(++n);
  used_names_.insert(name);
  return "%" + name;
}

std::string FunctionEmitter::take_hint(const std::string& fallback) {
  std::string h = hint_.empty() ? fallback : hint_;
  hint_.clear();
  return h;
}

void FunctionEmitter::barrier_all() {
  line("pto.barrier <PIPE_ALL>");
}

namespace {

const OpCall* call_of(const Stmt& s) {
  const Expr* v = nullptr;
  if (auto x = s->as<ExprStmt>())
    v = &x->value;
  else if (auto a = s->as<Assign>())
    v = &a->value;
  return v && *v ? (*v)->as<OpCall>() : nullptr;
}

}  // namespace

const OpCall* CallSite::next_call() const {
  return next && next != end ? call_of(*next) : nullptr;
}

bool CallSite::fence_follows() const {
  for (const Stmt* s = next; s && s != end; ++s) {
    const OpCall* c = call_of(*s);
    if (!c || (c->op->id != OpId::Fence && c->op->id != OpId::CacheInvalid)) return false;
    if (c->op->id == OpId::Fence) return true;
  }
  return false;
}

// A GM fence after a remote write; when the markers that follow hold the fence the fence pass placed,
// that one is it (a second would be harmless but noisy).
void FunctionEmitter::ensure_fence(const CallSite& site) {
  if (!site.fence_follows()) line("pto.fence.barrier_all #pto.fence_scope<gm>");
}

std::string FunctionEmitter::add_arg(const std::string& type, ParamInfo info) {
  std::string name = "arg" + std::to_string(signature_.size());
  used_names_.insert(name);
  signature_.push_back("%" + name + ": " + type);
  info.mlir_type = type;
  info_.params.push_back(std::move(info));
  return "%" + name;
}

void FunctionEmitter::declare_param(const Param& p) {
  const Type& t = p.var->type;
  ParamInfo info{p.var->name, "", "", direction_name(p.direction), "", {}, ""};
  if (t && t->is_tensor_like()) {
    bool dist = t->kind == TypeKind::DistTensor;
    info.kind = dist ? "DistributedTensor" : "Tensor";
    info.dtype = std::string(dtype_name(t->dtype));
    info.shape = dims_of(t);
    TensorRef ref;
    ref.name = p.var->name;
    ref.type = t;
    ref.ptr = add_arg("!pto.ptr<" + element_type(t->dtype) + ">", info);
    if (dist)
      ref.ctx = add_arg("!pto.ptr<i64>", {p.var->name + "_ctx", "CommContext", "", "", "", {}, p.var->name});
    tensors_[p.var->id] = ref;
  } else if (t && t->kind == TypeKind::Scalar) {
    info.kind = "Scalar";
    info.dtype = std::string(dtype_name(t->dtype));
    std::string type = t->dtype == DType::INT64 ? "i64" : value_type(t->dtype);
    scalars_[p.var->id] = {add_arg(type, info), type};
  } else if (t && t->kind == TypeKind::CommCtx) {
    info.kind = "CommContext";
    scalars_[p.var->id] = {add_arg("!pto.ptr<i64>", info), "!pto.ptr<i64>"};
  } else {
    fail(p.var->span,
         "kernel parameter '" + p.var->name + "' of type " + type_str(t) +
             " cannot be passed to a PTO kernel; pass tensors, scalars or a communication context");
  }
}

// A hidden index argument per dynamic name a dim uses, bare (`NR`) or inside a composite (`M * 2`).
void FunctionEmitter::declare_dims(const Expr& d) {
  if (!d) return;
  if (auto dyn = d->as<Dynamic>(); dyn && !dims_.count(dyn->name))
    dims_[dyn->name] = add_arg("index", {dyn->name, "Dim", "", "", "", {}, ""});
  if (auto b = d->as<Binary>()) {
    declare_dims(b->lhs);
    declare_dims(b->rhs);
  }
}

// The parameters in order (each DistributedTensor followed by its CommContext), then the hidden ones: an
// index per dynamic dim name of the tensor shapes, and the SDMA workspace of a kernel that builds a session.
void FunctionEmitter::declare_signature() {
  for (const Param& p : fn_.params) declare_param(p);
  // As PyPTO's InjectGMPipeBuffer appends it: the GM slot buffer of the a2a3 pipes, after the parameters.
  bool pipes = false;
  for_each_call(fn_.body, [&](const OpCall& c) {
    pipes |= c.op->id == OpId::AicInitializePipe || c.op->id == OpId::AivInitializePipe;
  });
  if (pipes && gm_pipes)
    gm_pipe_buffer_ = add_arg(
        "!pto.ptr<f32>", {"__gm_pipe_buffer", "GMPipeBuffer", "", "Out", "FP32", {gm_pipes->bytes / 4}, ""});
  for (const Param& p : fn_.params) {
    if (!p.var->type || !p.var->type->is_tensor_like()) continue;
    for (const Expr& d : p.var->type->shape) declare_dims(d);
  }
  bool session = false, defers = false;
  for_each_call(fn_.body, [&](const OpCall& c) {
    session |= c.op->id == OpId::TileAsyncSession;
    defers |= c.op->id == OpId::DeferWait;
  });
  // As in PyPTO: the raw dispatch arguments (through which the runtime's per-task completion context
  // is reached) come after the dims and before the SDMA workspace.
  if (defers) {
    raw_args_ = add_arg("!pto.ptr<i64>", {"deferred_raw_args", "DeferredRawArgs", "", "", "", {}, ""});
    info_.deferred_completion = true;
  }
  if (session) workspace_ = add_arg("!pto.ptr<i8>", {"sdma_workspace", "SdmaWorkspace", "", "", "", {}, ""});
}

// Row-major tensor views of every tensor parameter, made once at the top of the kernel.
void FunctionEmitter::declare_views() {
  PrologueScope scope(*this);
  for (auto& [id, ref] : tensors_) {
    std::vector<Value> dims;
    for (const Expr& d : ref.type->shape) dims.push_back(emit_scalar_as(d, "index"));
    // Row-major strides: constants while the inner dims are static, arith.muli from the first dynamic one.
    std::vector<Value> strides(dims.size());
    std::vector<long long> sd = dims_of(ref.type);
    long long inner = 1;
    bool is_static = true;
    for (size_t i = dims.size(); i-- > 0;) {
      if (is_static) {
        strides[i] = constant_int(inner, "index");
      } else {
        strides[i] = {fresh(ref.name + "_stride"), "index"};
        line(strides[i].ssa + " = arith.muli " + strides[i + 1].ssa + ", " + dims[i + 1].ssa + " : index");
      }
      if (sd[i] < 0)
        is_static = false;
      else
        inner *= sd[i];
    }
    std::string shape_s, stride_s;
    for (size_t i = 0; i < dims.size(); ++i) {
      shape_s += (i ? ", " : "") + dims[i].ssa;
      stride_s += (i ? ", " : "") + strides[i].ssa;
      ref.dims.push_back(dims[i].ssa);
      ref.strides.push_back(strides[i].ssa);
    }
    ref.view = {fresh(ref.name + "_view"), tensor_view_type(ref.type)};
    line(ref.view.ssa + " = pto.make_tensor_view " + ref.ptr + ", shape = [" + shape_s + "], strides = [" +
         stride_s + "] {layout = #pto.layout<nd>} : " + ref.view.type);
  }
}

// One `pto.alloc_tile` per tile variable, at the address plan-memory recorded on its type (or on the
// annotation of its defining assignment); without one the assembler's own planner places it.
void FunctionEmitter::declare_tiles() {
  PrologueScope scope(*this);
  for_each_assign(fn_.body, [&](const Assign& a) {
    if (a.targets.size() != 1 || !a.targets[0] || !a.value || !a.value->isa<OpCall>()) return;
    const Var& v = a.targets[0];
    if (!v->type || v->type->kind != TypeKind::Tile || tiles_.count(v->id)) return;
    if (set_validshape_results_.count(v->id)) return;       // names its operand's buffer
    if (is_pipe_op(a.value->as<OpCall>()->op->id)) return;  // a tpop defines its tile
    if (!v->type->shape_is_static()) {
      fail(a.span, "tile '" + v->name + "' has shape " + shape_str(v->type->shape) +
                       "; PTO tiles need constant shapes (run specialize)");
      return;
    }
    long long addr = v->type->addr >= 0 ? v->type->addr : (a.annotation ? a.annotation->addr : -1);
    // A transpose view is its own alloc_tile at its source's address; unplaced, the assembler's planner
    // could not tell it shares the source's bytes, so it is the pto.treshape of the source instead.
    if (addr < 0 && a.value->as<OpCall>()->op->id == OpId::TransposeView) return;
    std::string where = addr >= 0 ? "addr = " + constant_int(addr, "i64").ssa + " " : "";
    // The operand of a set_validshape is allocated at its definition, as PyPTO allocates every tile: each
    // definition (each loop iteration) starts from a handle whose valid extents are the whole tile.
    bool at_entry = !forms_[v->id].dynamic_valid;
    for (const Expr& d : v->type->valid_shape) at_entry = at_entry && known_at_entry(d);
    if (at_entry) {
      std::string valid = valid_operands(a, v->type);
      if (failed_) return;
      TileRef ref = tile_ref(v, addr);
      line(ref.ssa + " = pto.alloc_tile " + where + valid + ": " + ref.type);
      tiles_[v->id] = ref;
    } else {
      body_allocs_[v->id] = {addr, where};  // allocated where it is defined, once its valid extents are known
    }
    TileInfo ti{v->name,
                std::string(memory_name(v->type->memory)),
                std::string(dtype_name(v->type->dtype)),
                dims_of(v->type),
                tile_bytes(v->type),
                std::nullopt};
    if (addr >= 0) ti.address = addr;
    info_.tiles.push_back(ti);
  });
}

// The tiles in their memory's transposed layout: the Mat tiles loaded from a transposed GM view
// (`wt = pl.transpose(w_slice, 0, 1)`, then `pl.load(wt, ..., target_memory=pl.Mem.Mat)`:
// convert-tensor-to-tile's b_trans operand), and each pl.tile.transpose_view of a tile that is not
// (of one that is, the view is back in the plain layout).
void FunctionEmitter::find_transposed_tiles() {
  std::set<int> views;
  for_each_assign(fn_.body, [&](const Assign& a) {
    const auto* c = a.value ? a.value->as<OpCall>() : nullptr;
    if (!c || a.targets.size() != 1 || !a.targets[0]) return;
    const int target = a.targets[0]->id;
    if (c->op->id == OpId::Transpose && c->type && c->type->is_tensor_like()) views.insert(target);
    const auto* src = c->op->id == OpId::Load ? c->arg("tensor")->as<VarRef>() : nullptr;
    if (src && views.count(src->var->id) && c->type && c->type->memory == Memory::Mat)
      transposed_mats_.insert(target);
    const auto* viewed = c->op->id == OpId::TransposeView ? c->arg("tile")->as<VarRef>() : nullptr;
    if (viewed && !transposed_mats_.count(viewed->var->id)) transposed_mats_.insert(target);
  });
}

TileRef FunctionEmitter::tile_ref(const Var& v, long long addr) {
  const TileForm& form = forms_[v->id];
  return {fresh(v->name),
          tile_buf_type(v->type, form.pad, form.dynamic_valid, transposed_mats_.count(v->id) > 0), v->type,
          addr, form.pad};
}

// Whether `e` has a value in the prologue: constants, dynamic dims and scalar parameters.
bool FunctionEmitter::known_at_entry(const Expr& e) const {
  if (!e) return false;
  if (as_const_int(e)) return true;
  if (const auto* r = e->as<VarRef>()) return scalars_.count(r->var->id) > 0;
  if (const auto* d = e->as<Dynamic>()) return dims_.count(d->name) > 0;
  if (const auto* u = e->as<Unary>()) return known_at_entry(u->operand);
  if (const auto* b = e->as<Binary>()) return known_at_entry(b->lhs) && known_at_entry(b->rhs);
  return false;
}

// `valid_row = %r valid_col = %c ` of a partially valid tile (empty for a whole one): the extents of its
// rows and columns, as PyPTO's alloc_tile carries them, evaluated where the tile is allocated.
std::string FunctionEmitter::valid_operands(const Assign& a, const Type& tile) {
  const std::vector<Expr>& valid =
      tile->valid_shape.empty() && forms_[a.targets[0]->id].dynamic_valid ? tile->shape : tile->valid_shape;
  if (valid.empty()) return "";
  if (valid.size() > 2) {
    fail(a.span, "tile '" + a.targets[0]->name + "' of " + std::to_string(valid.size()) +
                     " dims is partially valid; PTO valid regions are 2-D (rows, columns), so only a "
                     "1-D or 2-D partially valid tile has a PTO lowering");
    return "";
  }
  Value rows = valid.size() == 2 ? emit_scalar_as(valid[0], "index") : constant_int(1, "index");
  Value cols = emit_scalar_as(valid.back(), "index");
  return "valid_row = " + rows.ssa + " valid_col = " + cols.ssa + " ";
}

bool FunctionEmitter::emit() {
  bool cube = fn_.kind == FunctionKind::AIC;
  for_each_call(fn_.body,
                [&](const OpCall& c) { cube |= fn_.kind == FunctionKind::InCore && is_cube_op(c.op->id); });
  info_.core = cube ? "cube" : "vector";
  declare_signature();
  declare_views();
  find_transposed_tiles();
  collect_tile_forms();
  declare_tiles();
  if (failed_) return false;
  emit_block(fn_.body);
  return !failed_;
}

std::string FunctionEmitter::text() const {
  std::ostringstream os;
  os << "module {\n";
  if (info_.deferred_completion)
    os << "  func.func private @" << kDeferredAdapter << "(" << kDeferredAdapterArgs << ")\n";
  os << "  func.func @" << fn_.name << "(";
  for (size_t i = 0; i < signature_.size(); ++i) os << (i ? ", " : "") << signature_[i];
  os << ") attributes {pto.kernel_kind = #pto.kernel_kind<" << info_.core << ">} {\n";
  for (const std::string& c : constants_) os << "    " << c << "\n";
  for (const std::string& p : prologue_) os << p << "\n";
  for (const std::string& b : body_) os << b << "\n";
  os << "    return\n  }\n}\n";
  return os.str();
}

// ---- statements ----

void FunctionEmitter::emit_block(const Block& block) {
  const Stmt* end = block.data() + block.size();
  for (size_t i = 0; i < block.size() && !failed_; ++i) emit_stmt(block[i], &block[i] + 1, end);
}

void FunctionEmitter::emit_stmt(const Stmt& s, const Stmt* next, const Stmt* end) {
  switch (s->kind) {
    case StmtKind::Assign:
      emit_assign(*s->as<Assign>(), next, end);
      return;
    case StmtKind::ExprStmt: {
      const Expr& v = s->as<ExprStmt>()->value;
      if (v && v->isa<OpCall>())
        emit_op(CallSite{*v->as<OpCall>(), nullptr, next, end});
      else if (v && v->isa<FuncCall>())
        fail(s->span, "a kernel cannot call another function in PTO text; inline it");
      return;  // docstrings and other bare expressions emit nothing
    }
    case StmtKind::For:
      emit_for(*s->as<For>());
      return;
    case StmtKind::While:
      emit_while(*s->as<While>());
      return;
    case StmtKind::If:
      emit_if(*s->as<If>());
      return;
    case StmtKind::ManualScope:
      emit_block(s->as<ManualScope>()->body);
      return;
    case StmtKind::Return:
      // Kernels write their results in place and the function returns nothing, but a returned op call
      // (`return pl.store(t, [0, 0], out)`, as PyPTO kernels end) is still the kernel's last op.
      for (const Expr& v : s->as<Return>()->values)
        if (v && v->isa<OpCall>()) emit_op(CallSite{*v->as<OpCall>(), nullptr, next, end});
      return;
    case StmtKind::Pass:
      return;
  }
}

// A tile whose valid extents are computed in the body (`valid = pl.min(C, n - col)` in a loop) is
// allocated at its definition, after them, as PyPTO places it; the handle lives to the end of the block.
void FunctionEmitter::alloc_in_body(const Assign& a) {
  if (a.targets.size() != 1 || !a.targets[0]) return;
  const Var& v = a.targets[0];
  auto it = body_allocs_.find(v->id);
  if (it == body_allocs_.end() || tiles_.count(v->id)) return;
  std::string valid = valid_operands(a, v->type);
  if (failed_) return;
  TileRef ref = tile_ref(v, it->second.first);
  line(ref.ssa + " = pto.alloc_tile " + it->second.second + valid + ": " + ref.type);
  tiles_[v->id] = ref;
  alloc_depth_[v->id] = indent_;
}

// Leaving a loop or branch body: the tiles allocated in it are out of scope.
void FunctionEmitter::drop_body_tiles() {
  for (auto it = alloc_depth_.begin(); it != alloc_depth_.end();) {
    if (it->second < indent_) {
      ++it;
      continue;
    }
    tiles_.erase(it->first);
    scoped_out_.insert(it->first);
    it = alloc_depth_.erase(it);
  }
}

// `a, b = (x, y)`, as loop-carried values are initialised and yielded: every value is read before any
// target is bound, so `a, b = (b, a)` swaps. Tiles and tensors pass their handles, scalars their SSA value.
void FunctionEmitter::emit_tuple_assign(const Assign& a, const Tuple& values) {
  std::map<int, Value> scalars;
  std::map<int, TensorRef> tensors;
  std::map<int, TileRef> tiles;
  for (size_t i = 0; i < values.elements.size(); ++i) {
    const Var& v = a.targets[i];
    const Expr& e = values.elements[i];
    if (!v || !e) continue;
    const auto* ref = e->as<VarRef>();
    if (ref && tiles_.count(ref->var->id)) {
      tiles[v->id] = tiles_[ref->var->id];
    } else if (ref && tensors_.count(ref->var->id)) {
      tensors[v->id] = tensors_[ref->var->id];
    } else if (e->type && e->type->kind == TypeKind::Scalar) {
      hint_ = v->name;
      Value val = emit_scalar(e);
      hint_.clear();
      if (val.valid()) scalars[v->id] = val;
    } else {
      fail(e->span,
           "a tuple assignment in a kernel takes scalars and tile or tensor variables; assign this " +
               type_str(e->type) + " value on its own");
      return;
    }
  }
  for (auto& [id, val] : scalars) scalars_[id] = val;
  for (auto& [id, ref] : tensors) tensors_[id] = ref;
  for (auto& [id, ref] : tiles) tiles_[id] = ref;
}

void FunctionEmitter::emit_assign(const Assign& a, const Stmt* next, const Stmt* end) {
  if (!a.value) return;
  alloc_in_body(a);
  if (failed_) return;
  if (auto call = a.value->as<OpCall>()) {
    emit_op(CallSite{*call, &a.targets, next, end});
    return;
  }
  if (a.value->isa<FuncCall>()) {
    fail(a.span, "a kernel cannot call another function in PTO text; inline it");
    return;
  }
  if (const auto* tuple = a.value->as<Tuple>(); tuple && a.targets.size() == tuple->elements.size()) {
    emit_tuple_assign(a, *tuple);
    return;
  }
  if (a.targets.size() != 1 || !a.targets[0]) {
    fail(a.span, "tuple assignment of plain values is not supported in kernels; assign one value at a time");
    return;
  }
  const Var& v = a.targets[0];
  if (auto ref = a.value->as<VarRef>()) {  // aliases of tiles and tensors share their handle
    if (tiles_.count(ref->var->id)) {
      tiles_[v->id] = tiles_[ref->var->id];
      return;
    }
    if (tensors_.count(ref->var->id)) {
      tensors_[v->id] = tensors_[ref->var->id];
      return;
    }
  }
  hint_ = v->name;
  Value val = emit_scalar(a.value);
  hint_.clear();
  if (val.valid()) scalars_[v->id] = val;
}

}  // namespace ptodist::codegen::pto
