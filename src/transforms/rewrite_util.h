// Helpers the passes share to copy immutable IR nodes, make fresh variables and build op calls.
#pragma once

#include <functional>
#include <initializer_list>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <utility>

#include "ptodist/ir/builder.h"
#include "ptodist/ir/function.h"

namespace ptodist::transforms::detail {

// Shallow copies, so a pass can change one field of an otherwise shared node.
std::shared_ptr<ir::ExprNode> copy_expr(const ir::ExprNode& e);
std::shared_ptr<ir::StmtNode> copy_stmt(const ir::StmtNode& s);

ir::Stmt make_assign(ir::Var target, ir::Expr value, SourceSpan span);
ir::Stmt make_expr_stmt(ir::Expr value, SourceSpan span);
ir::Stmt make_for(ir::Var iv, ir::Expr start, ir::Expr stop, ir::Expr step, ir::Block body, SourceSpan span);
ir::Stmt make_if(ir::Expr cond, ir::Block then_body, ir::Block else_body, SourceSpan span);

// The op call a statement makes at its top level (`x = op(...)` or `op(...)`), or null.
const ir::OpCall* stmt_op_call(const ir::Stmt& s);
// The op call an expression is, or null.
const ir::OpCall* as_op_call(const ir::Expr& e);
// The variable an expression names, or null.
ir::Var as_var(const ir::Expr& e);
// Whether a call passed an optional argument: present and not None.
bool given(const ir::Expr& e);
// Whether an argument is the literal True.
bool literal_true(const ir::Expr& e);
// `pl.slice(t, shape, offset[, valid_shape=])` of a tensor, without drop_dims, pad_value or clamp=True:
// a region one load reads (partially valid with valid_shape).
bool is_plain_tensor_slice(const ir::OpCall& c);
// The variables an expression (a statement, its nested blocks included) reads.
std::set<const ir::VarNode*> vars_read(const ir::Expr& e);
std::set<const ir::VarNode*> vars_read(const ir::Stmt& s);
// The bytes a value of type `t` holds when its shape is static; nullopt otherwise.
std::optional<long long> static_bytes(const ir::Type& t);
// Whether a value of type `t` has a static shape of at most `bytes` (a tile of it fits that memory).
bool fits_in(const ir::Type& t, long long bytes);

// Maps every statement of a block, innermost blocks first: `fn` sees a statement whose nested blocks
// are already rewritten and returns zero or more statements in its place.
using StmtMap = std::function<ir::Block(const ir::Stmt&)>;
ir::Block map_blocks(const ir::Block& b, const StmtMap& fn);

// A copy of a compound statement (for, while, if, manual_scope) with each nested block replaced by
// `fn` of it; any other statement is returned as it is.
ir::Stmt with_nested_blocks(const ir::Stmt& s, const std::function<ir::Block(const ir::Block&)>& fn);

// Applies `fn` to every kernel (InCore/AIC/AIV) of the program; other functions are kept. Returns null
// when `fn` returns null for any kernel (after visiting all of them, so every error is reported).
using FunctionMap = std::function<ir::Function(const ir::Function&)>;
ir::Program map_kernels(const ir::Program& p, const FunctionMap& fn);
ir::Function with_body(const ir::Function& f, ir::Block body);

// Makes variables with program-unique ids and names that do not clash with the function's names.
class VarFactory {
 public:
  VarFactory(const ir::Program& p, const ir::Function& f);
  ir::Var make(const std::string& base, ir::Type type, SourceSpan span);

 private:
  int next_id_ = 1;
  std::set<std::string> names_;
};

// Builds op calls by parameter name through the builder, so contracts check what passes produce.
class OpMaker {
 public:
  OpMaker(DiagnosticEngine& diags, const ir::Program& p, const ir::Function& f);
  // Null after a reported contract error.
  ir::Expr call(ir::OpId id, std::initializer_list<std::pair<const char*, ir::Expr>> args, SourceSpan span);
  ir::Builder& builder() { return builder_; }
  const ir::BuildScope& scope() const { return scope_; }
  ir::Expr i(long long v, SourceSpan span = {}) { return builder_.int_imm(v, span); }
  ir::Expr ints(const std::vector<long long>& vs, SourceSpan span = {});
  ir::Expr ref(const ir::Var& v, SourceSpan span = {}) { return builder_.var_ref(v, span); }
  // `pl.create_tile(shape, dt, target_memory=pl.Mem.Vec)`.
  ir::Expr vec_tile(const std::vector<long long>& shape, ir::DType dt, SourceSpan span);
  // `pl.load(tensor, [0, ..], its static shape[, valid_shape=valid])`: all of a static tensor in a Vec
  // tile, partially valid when `valid` is not empty.
  ir::Expr load_whole(ir::Expr tensor, std::vector<ir::Expr> valid, SourceSpan span);

 private:
  ir::Builder builder_;
  ir::BuildScope scope_;
};

// A rewriter that copies every node, so a pass can change types and variables everywhere. Subclasses
// override the hooks; the defaults keep everything as it was (but copied).
class DeepRewriter {
 public:
  virtual ~DeepRewriter() = default;
  ir::Function rewrite_function(const ir::Function& f);
  virtual ir::Block rewrite_block(const ir::Block& b);
  virtual ir::Block rewrite_stmt(const ir::Stmt& s);
  virtual ir::Expr rewrite_expr(const ir::Expr& e);
  virtual ir::Type map_type(const ir::Type& t) { return t; }
  // Memoized: a new variable (same id and name) when map_type changes its type.
  virtual ir::Var map_var(const ir::Var& v);

 protected:
  // Rewrites the children of `e` into a copy and maps its type; no hook on `e` itself.
  ir::Expr rebuild_expr(const ir::Expr& e);
  std::vector<ir::Expr> rewrite_exprs(const std::vector<ir::Expr>& es);
  ir::Expr rewrite_opt(const ir::Expr& e) { return e ? rewrite_expr(e) : e; }
  std::map<const ir::VarNode*, ir::Var> var_map_;
};

// The source span to point at for "the end of the kernel": its last statement, else its def line.
SourceSpan end_span(const ir::Function& f);

}  // namespace ptodist::transforms::detail
