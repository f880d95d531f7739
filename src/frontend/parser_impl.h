// The parser's shared state, split by topic over several files: the token cursor (parser.cpp),
// expression syntax (syntax_expr.cpp), names and import aliases (names.cpp), lowering of expressions
// to IR (lower_expr.cpp), type annotations and decorators (types.cpp), statements (stmts.cpp),
// module-level scanning (module.cpp) and program assembly (program.cpp). What an enclosing loop
// records while its body is parsed, and the guards that scope such state, are in parse_state.h.
#pragma once

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "parse_state.h"
#include "ptodist/frontend/bound_source.h"
#include "ptodist/frontend/lexer.h"
#include "ptodist/frontend/parser.h"
#include "ptodist/ir/builder.h"
#include "syntax.h"

namespace ptodist::frontend {

// Thrown after a syntax error has been reported; the statement loop catches it and skips ahead.
struct SyntaxAbort {};

// What the command line cannot evaluate (host Python) is reported with this pointer to the entry point
// that can: the real interpreter runs the module and hands the kernels to the same compiler.
constexpr const char* kPythonEntryPoint =
    "run the program from Python instead, where ptodist's `pypto` package evaluates the module and "
    "hands the kernels to this compiler (docs/python.md)";

// SubWorker methods are host Python that runs between tasks: the Python entry point runs them.
constexpr const char* kSubWorkerUnsupported =
    "the command line does not run host Python: run the program from Python instead, where ptodist's "
    "`pypto` package runs SubWorker methods between the chip tasks (docs/python.md)";

// Recursion limit for nested expressions, so hostile input cannot exhaust the stack.
constexpr int kMaxNesting = 100;

// What a name means in one scope.
struct Binding {
  enum class Kind { Local, Constant, FactoryParam };
  Kind kind = Kind::Local;
  ir::Var var;           // null when its definition failed: uses are then silently null
  ir::Expr const_value;  // Constant: its value, so a dtype constant can be used in a type
  int block = -1;        // Local: the block (Parser::block_) whose statement bound it
};
using ScopeMap = std::map<std::string, Binding>;

// A decorated function as found while scanning; its header and body are parsed later.
struct Container;

struct FuncDecl {
  std::vector<SynExprP> decorators;
  size_t def_pos = 0;  // token index of `def`
  std::string name;
  SourceSpan span;                  // the name in the `def` line
  const Container* home = nullptr;  // set for a function imported from another file: its constants' scope
  bool host_callback = false;       // a SubWorker the Python entry point runs: signature only
  bool external = false;            // a @pl.function outside a class: no self, called by its bare name
  std::string local;                // external: the name it is called by, when imported under another
};

// `from module import name [as local]`.
// A source the Python entry point handed over, as two files (bound_source.cpp): the bound names as a
// prelude of constants and imports, and the user's file with only the kernels' lines kept.
struct BoundFiles {
  const SourceFile* prelude = nullptr;
  const SourceFile* file = nullptr;
};
// The tokens of the prelude then the file; `error_lines` gets the lines of the file's lexer errors.
std::vector<Token> lex_bound_files(const BoundFiles& files, DiagnosticEngine& diags,
                                   std::set<int>* error_lines);

struct ImportedName {
  std::string name, local;
  SourceSpan span;
};

struct ClassDecl {
  std::string name;
  SourceSpan span;
  size_t pos = 0;
  std::vector<FuncDecl> methods;
};

// A name the command line saw bound by host Python it does not evaluate (a helper function, a value
// computed by an `if`, a dataclass config, a non-constant factory default, an import of a module it
// does not load), so a kernel that uses it learns why instead of reading "undefined name".
struct HostName {
  SourceSpan span;
  std::string what;  // completes "'NAME' <what>"
};

// The module itself or one program factory: the programs it declares and the constants they see.
struct Container {
  std::string factory_name;
  SourceSpan span;
  std::vector<ir::FactoryParam> params;
  std::vector<ir::Constant> constants;
  ScopeMap scope;
  std::vector<ClassDecl> classes;
  std::vector<FuncDecl> jit_funcs;
  std::vector<FuncDecl> external_funcs;  // @pl.function defs outside a class (external_functions.cpp)
  std::map<std::string, HostName> host_names;
  const Container* parent = nullptr;  // a factory's parent is the module
  bool imported = false;              // a module imported from another file: it builds no program itself
};

// A function whose header is parsed: the signature other functions are checked against.
struct Signature {
  std::shared_ptr<ir::FunctionNode> fn;  // no body yet; a derived return type is filled in later
  const Container* home = nullptr;       // the scope of a function imported from another file
  size_t body_pos = 0;
  size_t body_end = 0;
};

// Where an expression is lowered.
struct LowerCtx {
  ScopeMap* locals = nullptr;  // null outside function bodies
  const Container* container = nullptr;
  ir::BuildScope build;
  bool class_style = false;
  bool const_only = false;  // constant expressions only: no ops, no locals, no function calls
  // The type a bare `pl.Tensor` annotation stands for here (a jit function's parameter that Python
  // specialized from the tensor passed to it); null: a bare `pl.Tensor` is an error.
  const BoundSource::JitParamType* bare_tensor = nullptr;
  // The body of a kernel outlined from a pl.at(level=CORE_GROUP) scope or a pl.spmd body: where a
  // pl.split_aiv region may open (PyPTO's AivSplitValid rule (h)).
  bool outlined_core_scope = false;
};

// The arguments of `pl.at(...)` that shape the outlined function and its call (at_scopes.cpp).
struct AtArgs {
  std::string level, role, name_hint;
  const SynExpr* deps = nullptr;
  const SynExpr* early_resolve = nullptr;  // `allow_early_resolve=True`, when given
  bool ok = true;
};

// A scope body outlined into a function (at_scopes.cpp): the function, the enclosing function's
// variables passed as its arguments (in parameter order), and the names the code after the scope reads
// from it with the function's variables that hold them (its results, in order).
struct OutlinedScope {
  std::shared_ptr<ir::FunctionNode> fn;
  std::vector<ir::Var> captured;
  std::vector<std::pair<std::string, ir::Var>> results;
};

// The arguments of `pl.spmd(...)` (spmd_scopes.cpp).
struct SpmdArgs {
  const SynExpr* core_num = nullptr;
  const SynExpr* deps = nullptr;
  std::string name_hint;
  ir::Expr core_num_value, deps_value;  // lowered in the enclosing function (lower_spmd_launch)
  bool ok = true;
};

class Parser {
 public:
  // `lexer_error_lines`: lines where the lexer reported an error; parse errors there would only repeat it.
  // `sources` loads the modules the file imports from beside it; without it they are host Python.
  Parser(const SourceFile& file, std::vector<Token> tokens, DiagnosticEngine& diags,
         std::set<int> lexer_error_lines = {}, SourceManager* sources = nullptr);
  ir::Module run();
  void set_constant_defines(ConstantDefines* d) { constant_defines_ = d; }
  // The Python entry point runs SubWorker methods itself: they become host callbacks (FunctionNode::
  // host_callback) instead of the command line's "use the Python entry point" error.
  void accept_host_callbacks() { host_callbacks_ = true; }
  // The Python entry point's other files, by module name: a `from module import f` finds them here.
  void bind_modules(std::map<std::string, BoundFiles> modules) { bound_modules_ = std::move(modules); }
  // The types of jit functions' bare `pl.Tensor` parameters, from every source (BoundSource).
  void specialize_jit_params(const std::vector<BoundSource::JitParamType>& types) {
    for (const BoundSource::JitParamType& t : types) jit_param_types_[{t.function, t.param}] = t;
  }

  // ---- token cursor (parser.cpp) ----
  const Token& peek(size_t k = 0) const;
  const Token& advance();
  bool at_op(std::string_view op, size_t k = 0) const;
  bool at_keyword(std::string_view kw, size_t k = 0) const;
  bool at_line_end() const;
  bool accept_op(std::string_view op);
  void expect_op(std::string_view op, const std::string& message);
  const Token& expect_name(const std::string& message);
  void expect_line_end(const std::string& after);
  [[noreturn]] void fail(const SourceSpan& span, const std::string& message);
  void error(const SourceSpan& span, const std::string& message);
  // Errors reported so far, counting those hidden on lines where the lexer already reported one and
  // uses of names whose failed definition was reported; a statement that leaves no IR must have raised
  // this count, or it would be dropped silently.
  int problems_reported() const;
  void skip_statement();
  void skip_block();
  size_t skip_suite_from(size_t pos) const;  // the token index after the suite starting at pos
  SourceSpan span_to_prev(const SourceSpan& begin) const;

  // Runs `fn` with diagnostics sent to a scratch engine; returns whether it reported nothing and did
  // not abort. The cursor is left where `fn` left it.
  template <typename F>
  bool speculate(F&& fn);

  // ---- expression syntax (syntax_expr.cpp) ----
  SynExprP parse_expr();
  SynExprP parse_testlist();  // `a, b` becomes a Tuple
  SynExprP parse_or();
  SynExprP parse_and();
  SynExprP parse_not();
  SynExprP parse_comparison();
  SynExprP parse_binary_level(int level);
  SynExprP parse_unary();
  SynExprP parse_power();
  SynExprP parse_primary();
  SynExprP parse_atom();
  SynExprP parse_bracketed(const Token& open);
  void parse_call_args(SynExpr& call);
  SynExprP parse_subscript_index();
  SynExprP make_node(SynKind kind, const SourceSpan& span, std::vector<SynExprP> items = {});
  bool is_keyword(const std::string& word) const;

  // ---- names and import aliases (names.cpp) ----
  void bind_import(const std::string& local, const std::string& module_path, const SourceSpan& span);
  std::optional<std::string> canonical(const std::string& dotted) const;  // "pl.load", or nullopt
  std::optional<std::string> canonical(const SynExpr& e) const;
  bool is_module_alias(const std::string& name) const;
  const Binding* lookup(const LowerCtx& cx, const std::string& name) const;
  std::vector<std::string> visible_names(const LowerCtx& cx) const;
  const ir::Function* find_function(const LowerCtx& cx, const std::string& name) const;
  // Why `name` has no value in kernels when host Python binds it (see HostName); "" when it does not.
  std::string host_name_reason(const LowerCtx& cx, const std::string& name) const;

  // ---- lowering of expressions (lower_expr.cpp) ----
  ir::Expr lower(const SynExpr& e, LowerCtx& cx);
  ir::Expr lower_name(const SynExpr& e, LowerCtx& cx);
  ir::Expr lower_attr(const SynExpr& e, LowerCtx& cx);
  ir::Expr lower_call(const SynExpr& e, LowerCtx& cx);
  ir::Expr lower_path_call(const SynExpr& e, const std::string& path, LowerCtx& cx);
  ir::Expr lower_binary(const SynExpr& e, LowerCtx& cx);
  ir::Expr lower_min_max(const SynExpr& e, bool is_min, LowerCtx& cx);
  ir::Expr lower_compare(const SynExpr& e, LowerCtx& cx);
  ir::Expr lower_tile_arith(const std::string& op, ir::Expr lhs, ir::Expr rhs, const SourceSpan& span,
                            LowerCtx& cx);
  // `kernel_args`: the arguments of a kernel call or pl.spmd_submit, where pl.no_dep(x) marks x.
  std::optional<std::vector<ir::CallArg>> lower_args(const SynExpr& call, LowerCtx& cx,
                                                     bool kernel_args = false);
  // ---- op calls the table alone does not settle (op_calls.cpp) ----
  ir::Expr lower_const(const SynExpr& e, LowerCtx& cx);
  ir::Expr lower_remote_store(const SynExpr& e, LowerCtx& cx);
  // The tensor `pl.no_dep(x)` marks, when `a` is such a call (null, nothing reported, otherwise).
  const SynExpr* no_dep_operand(const SynExpr& a) const;
  ir::Expr lower_no_dep(const SynExpr& operand, LowerCtx& cx);
  const ir::OpInfo* element_op(const ir::OpInfo& op, std::vector<ir::CallArg>& args);
  void wrap_scalar_index(const ir::OpInfo& op, std::vector<ir::CallArg>& args);
  ir::Expr lower_unified(const ir::OpInfo& op, const std::vector<ir::CallArg>& args, const SourceSpan& span,
                         LowerCtx& cx, bool& handled);
  ir::Expr lower_array_read(const ir::Expr& value, const std::vector<ir::Expr>& indices,
                            const SourceSpan& span, LowerCtx& cx);
  bool lower_array_store(ir::Block& out, const SynExpr& target, const SynExpr& value, LowerCtx& cx);
  ir::Expr lower_enum_or_dtype(const std::string& path, const SourceSpan& span, bool* matched);
  ir::Expr constant_define(const std::string& name, const SourceSpan& span, const ir::Expr& default_value,
                           const std::string& factory);
  // What a factory parameter with this default takes, in words ("an integer", "a dtype such as
  // pl.FP16", "a pld.WaitCmp member (Eq, Ne, ...)"); empty when the default says nothing.
  std::string takes(const ir::Expr& default_value) const;
  // When `e` names a factory parameter that a -D bound to a dtype or enum member, records the CLI's
  // one-line error ("-D size=pl.FP16: parameter 'size' <use>, got a dtype such as pl.FP16").
  void note_bad_define(const SynExpr& e, const std::string& use);
  // The factory parameter (without a value) that `e` names, directly or through constants, or "".
  std::string unbound_factory_param(const SynExpr& e, LowerCtx& cx);
  ir::Expr attribute_constant(const SynExpr& e, LowerCtx& cx);
  void fold_constant_operands(const ir::OpInfo& op, std::vector<ir::CallArg>& args, LowerCtx& cx);
  // The literal a name bound to a list or tuple constant stands for, spanned at the use; null otherwise.
  ir::Expr sequence_constant(const SynExpr& e, LowerCtx& cx);
  std::optional<ir::DType> dtype_of(const SynExpr& e, LowerCtx& cx);
  ir::Expr try_constant(const SynExpr& e, const Container& c);

  // ---- type annotations and decorators (types.cpp) ----
  struct ParamType {
    ir::Type type;
    ir::Direction direction = ir::Direction::In;
  };
  std::optional<ParamType> lower_param_type(const SynExpr& e, LowerCtx& cx);
  ir::Type specialized_tensor_type(const BoundSource::JitParamType& t);
  ir::Expr shape_or_dtype(const std::string& path, const Binding& b, SourceSpan span);
  ir::Type lower_type(const SynExpr& e, LowerCtx& cx);
  std::optional<std::vector<ir::Type>> lower_return_types(const SynExpr& e, LowerCtx& cx);
  std::optional<std::vector<ir::Expr>> lower_shape(const SynExpr& e, LowerCtx& cx);
  std::optional<ir::FunctionKind> function_kind(const FuncDecl& d, bool class_style);
  bool has_incore_scope(const FuncDecl& d) const;
  bool check_optimizations(const SynExpr& list, const std::string& api);
  void move_acc_operands(const ir::OpInfo& op, std::vector<ir::CallArg>& args, LowerCtx& cx);
  std::optional<long long> fold_dim(const ir::Expr& e, const LowerCtx& cx, int depth) const;
  bool same_after_folding(const ir::Type& declared, const ir::Type& got, const LowerCtx& cx) const;

  // ---- statements (stmts.cpp) ----
  ir::Block parse_suite(const std::string& header, LowerCtx& cx, std::string* docstring = nullptr);
  ir::Block parse_block_body(LowerCtx& cx, std::string* docstring);
  void parse_statement(ir::Block& out, LowerCtx& cx, std::string* docstring);
  // Reports a statement starting at `span` that added nothing to `out` and reported nothing.
  void require_lowered(const SourceSpan& span, const ir::Block& out, size_t size_before, int problems_before);
  void parse_simple_statement(ir::Block& out, LowerCtx& cx, std::string* docstring);
  void parse_assignment(ir::Block& out, const SynExprP& target, LowerCtx& cx);
  void parse_annotated_assignment(ir::Block& out, const SynExprP& target, LowerCtx& cx);
  SynExprP tpop_typed_by(const SynExprP& value, const SynExpr& annotation) const;
  bool tile_annotation_has_memory(const SynExpr& annotation) const;
  bool is_tile_view(const SynExpr& e) const;  // a pl.TileView(...) item of a pl.Tile[...] annotation
  void parse_annotated_yield(ir::Block& out, const SynExpr& target, const ir::Type& declared,
                             const SynExpr& value, LowerCtx& cx);
  void parse_aug_assignment(ir::Block& out, const SynExprP& target, const Token& op, LowerCtx& cx);
  ir::Stmt parse_if(LowerCtx& cx, const std::string& keyword);
  bool is_yield_call(const SynExpr& e) const;

  // ---- loops and loop-carried values (loops.cpp) ----
  void parse_for(ir::Block& out, LowerCtx& cx);
  std::string parse_loop_target(SourceSpan& iv_span,
                                std::vector<std::pair<std::string, SourceSpan>>& carried);
  bool lower_split_aiv(const SynExpr& iter, ir::For& loop, LowerCtx& cx);
  std::optional<ir::Expr> lower_split_boundary(const ir::OpInfo& op, const std::vector<ir::CallArg>& args,
                                               const SourceSpan& span, LowerCtx& cx);
  bool lower_loop_iterable(const SynExpr& iter, ir::For& loop, LowerCtx& cx,
                           std::optional<std::vector<ir::Expr>>& inits);
  bool lower_init_values(const SynExpr& a, LowerCtx& cx, std::optional<std::vector<ir::Expr>>& inits);
  bool check_pipeline_stage(const SynExpr& iter, const ir::Expr& stage);
  bool check_carried(const SynExpr& iter, const std::vector<std::pair<std::string, SourceSpan>>& carried,
                     const std::optional<std::vector<ir::Expr>>& inits, const SourceSpan& iv_span);
  void bind_loop_results(ir::Block& out, const LoopCarry& carry,
                         const std::vector<std::pair<std::string, SourceSpan>>& carried,
                         const SourceSpan& span, LowerCtx& cx);
  void parse_yield(ir::Block& out, const std::vector<const SynExpr*>& names, const SynExpr& call,
                   LowerCtx& cx);

  // ---- while loops (while_loops.cpp) ----
  void parse_while(ir::Block& out, LowerCtx& cx);
  void parse_while_iter(ir::Block& out, const SourceSpan& begin, LowerCtx& cx);
  bool is_cond_call(const SynExpr& e) const;
  void parse_while_cond(const ir::Block& out, const SynExpr& call, LowerCtx& cx);
  bool check_while_cond(const ir::Expr& cond, const SourceSpan& span);
  bool lower_while_iterable(const SynExpr& iter, LowerCtx& cx, std::optional<std::vector<ir::Expr>>& inits);

  // ---- continue and break (loop_exits.cpp) ----
  void parse_loop_exit(ir::Block& out);
  ir::Expr exit_guard(const LoopExits& exits, const SourceSpan& span);
  void guard_after_exit(ir::Block& out, LowerCtx& cx);
  ir::Block finish_loop_body(const LoopExits& exits, ir::Block body, ir::Block& before_loop,
                             ir::Expr* while_cond);

  // ---- with statements (scopes.cpp) ----
  void parse_with(ir::Block& out, LowerCtx& cx);
  void parse_suite_unlowered();
  void poison_assigned_names(size_t end, LowerCtx& cx);

  // ---- pl.at scopes, outlined into functions (at_scopes.cpp) ----
  void parse_at_scope(ir::Block& out, const SynExpr& call, const Token* as_name, const SourceSpan& span,
                      LowerCtx& cx);
  AtArgs parse_at_args(const SynExpr& call);
  std::optional<ir::FunctionKind> at_function_kind(const AtArgs& a, const SynExpr& call, const Token* as_name,
                                                   LowerCtx& cx);
  std::string outlined_name(const AtArgs& a, ir::FunctionKind kind, LowerCtx& cx);
  void emit_at_call(ir::Block& out, const ir::Function& fn, const std::vector<ir::Var>& captured,
                    const std::vector<std::pair<std::string, ir::Var>>& results, const AtArgs& a,
                    const Token* as_name, const SourceSpan& span, LowerCtx& cx);
  void skip_scope_body(const Token* as_name, LowerCtx& cx);
  // Outlines the suite at the cursor into a function `name` of `kind`. `block_index`: a name bound to
  // pl.tile.get_block_idx() before the body (the loop form of pl.spmd). `written_params_stay`: a
  // parameter the body writes through is not a result; the caller's name keeps its variable.
  OutlinedScope outline_scope(const std::string& name, ir::FunctionKind kind, const SourceSpan& span,
                              LowerCtx& cx, const Token* block_index, bool written_params_stay);

  // ---- pl.cluster scopes: a body run in place, no task metadata inside (cluster.cpp) ----
  void parse_cluster(ir::Block& out, const SynExpr& call, const Token* as_name, const SourceSpan& span,
                     LowerCtx& cx);
  // A dispatch inside a pl.cluster() scope carries no task-level metadata; false after an error naming
  // what it carries.
  bool check_dispatch_in_cluster(const ir::OpInfo& op, const std::vector<ir::CallArg>& args,
                                 const SourceSpan& span);

  // ---- pl.spmd scopes: a body launched on N blocks (spmd_scopes.cpp) ----
  void parse_spmd_with(ir::Block& out, const SynExpr& call, const Token* as_name, const SourceSpan& span,
                       LowerCtx& cx);
  void parse_spmd_for(ir::Block& out, const SynExpr& call, const Token& index, const SourceSpan& span,
                      LowerCtx& cx);
  SpmdArgs parse_spmd_args(const SynExpr& call, bool allow_deps, LowerCtx& cx);
  bool lower_spmd_launch(SpmdArgs& a, LowerCtx& cx);
  bool spmd_allowed_here(const SynExpr& call, LowerCtx& cx);
  void emit_spmd_submit(ir::Block& out, const OutlinedScope& o, const SpmdArgs& a, const Token* as_name,
                        const SourceSpan& span, LowerCtx& cx);
  size_t at_carrier_header(size_t end);
  void parse_spmd_carrier(ir::Block& out, SpmdArgs& a, const Token* as_name, size_t header,
                          const SourceSpan& span, LowerCtx& cx);
  bool lower_spmd_dispatch(ir::Block& out, const SpmdArgs& a, const Token* as_name, const SourceSpan& span,
                           LowerCtx& cx);

  // ---- param.bind_dynamic(dim, var) (bind_dynamic.cpp) ----
  ir::Expr dynamic_dim_named(const std::string& name, const SourceSpan& span, const Container& c);
  void apply_bind_dynamic(ir::FunctionNode& fn, size_t body_pos, size_t body_end, const Container& c);
  bool is_bind_dynamic(const SynExpr& e) const;
  void lower_bind_dynamic(ir::Block& out, const SynExpr& call, LowerCtx& cx);

  // ---- where a deferred waiter may come from (deferred_waiters.cpp) ----
  void check_outlined_waiter(const AtArgs& a, const ir::FunctionNode& fn);
  void check_declared_waiter(const ir::FunctionNode& fn);

  // ---- calls of inline functions, spliced at the call site (inline_calls.cpp) ----
  bool is_inline_decl(const FuncDecl& d) const;
  bool bind_inline_args(const SynExpr& call, const Signature& sig, ScopeMap& locals, LowerCtx& cx);
  ir::Expr lower_inline_call(const SynExpr& call, const std::string& name, LowerCtx& cx);

  // ---- slices (subscripts.cpp) ----
  struct SliceWindow {
    std::vector<ir::Expr> offsets, extents;
  };
  bool is_slice_subscript(const SynExpr& e) const;
  std::optional<SliceWindow> lower_window(const SynExpr& subscript, const ir::Expr& base, LowerCtx& cx);
  ir::Expr lower_slice_read(const SynExpr& e, LowerCtx& cx);
  void parse_slice_assignment(ir::Block& out, const SynExpr& target, const SynExpr& value, LowerCtx& cx);
  ir::Stmt parse_return(LowerCtx& cx);
  ir::Var bind_local(const std::string& name, const ir::Type& type, const SourceSpan& span, LowerCtx& cx);

  // ---- module-level scanning (module.cpp) ----
  void scan_module();
  void scan_statement(Container& c);
  void scan_import();
  void scan_from_import(Container& c);
  void scan_decorated(Container& c);
  void scan_class(Container& c, std::vector<SynExprP> decorators);
  void scan_factory(Container& module);
  void scan_factory_params(Container& f);
  std::string scan_dotted_name(const std::string& what);
  bool try_constant_assignment(Container& c, std::vector<ir::Constant>& out);
  bool try_constant_if(Container& c);
  std::vector<SynExprP> parse_decorators();
  std::string decorator_path(const SynExpr& d) const;
  bool is_sub_worker(const SynExpr& decorator) const;
  bool body_declares_program(size_t begin, size_t end) const;
  void record_host_names(Container& c, size_t begin, size_t end);

  // ---- modules imported from beside the file (imports.cpp) ----
  void import_sibling(Container& c, const std::string& module, int level,
                      const std::vector<ImportedName>& names, const SourceSpan& span);
  Container* load_module(const std::string& path, const SourceSpan& span);
  Container* load_bound_module(const std::string& module, const BoundFiles& files, const SourceSpan& span);
  Container* scan_module_tokens(std::vector<Token> tokens, const std::string& key);
  void import_name(Container& c, Container& from, const ImportedName& n, const std::string& module);
  Container* new_container();

  // ---- program assembly (program.cpp) ----
  void build_programs(const Container& c);
  // False for a class the CLI's --program leaves out (ConstantDefines::only_program).
  bool class_selected(const std::string& name) const {
    return selected_class_.empty() || name == selected_class_;
  }
  std::optional<Signature> parse_signature(const FuncDecl& d, const Container& c, bool class_style);
  bool parse_params(const Container& c, bool class_style, const std::string& fn_name,
                    std::vector<ir::Param>& params);
  std::shared_ptr<ir::FunctionNode> parse_body(const Signature& sig, const Container& c,
                                               const std::vector<ir::Function>& sigs, bool class_style);
  // Declares every function's signature before parsing any body, so a call may name a function
  // defined later in the class or file; false when a signature failed or a name repeats.
  bool parse_functions(const std::vector<FuncDecl>& decls, const Container& c, bool class_style,
                       std::vector<Signature>& sigs, std::vector<ir::Function>& bodies);
  std::set<std::string> names_mentioned(size_t pos, size_t end) const;
  std::vector<size_t> callee_first_order(const std::vector<Signature>& sigs) const;
  ir::Program build_class_program(const ClassDecl& cls, const Container& c);
  std::vector<FuncDecl> reached_externals(const ClassDecl& cls, const Container& c);
  std::vector<ir::Program> build_jit_programs(const Container& c);

 private:
  const SourceFile& file_;
  std::vector<Token> tokens_;
  size_t pos_ = 0;
  DiagnosticEngine* diags_;
  ir::Builder builder_;
  ir::Builder* b_;                              // builder_, or a scratch one while speculating
  std::map<std::string, std::string> aliases_;  // local name -> module path ("pl" -> "pypto.language")
  std::vector<std::pair<std::string, std::string>> imports_;
  std::vector<std::unique_ptr<Container>> containers_;  // [0] is the module
  std::vector<std::pair<SourceSpan, ir::Program>> programs_;
  int depth_ = 0;
  std::set<int> lexer_error_lines_;
  int suppressed_errors_ = 0;
  SourceManager* sources_ = nullptr;
  ConstantDefines* constant_defines_ = nullptr;
  std::string selected_class_;                  // only_program when a class of the file has that name
  bool host_callbacks_ = false;                 // accept_host_callbacks()
  std::set<std::string> unbound_dtype_params_;  // reported once each
  std::map<std::string, Container*> modules_;   // imported files by canonical path (null while loading)
  std::map<std::string, BoundFiles> bound_modules_;
  std::map<std::pair<std::string, std::string>, BoundSource::JitParamType> jit_param_types_;
  int poisoned_uses_ = 0;
  std::vector<LoopCarry*> carries_;      // the enclosing loops' carried values, innermost last
  std::vector<LoopExits*> exits_;        // the enclosing loops' continue/break flags, innermost last
  std::vector<WhileHead*> while_heads_;  // the enclosing pl.while_ loops, innermost last
  int exit_flags_ = 0;                   // continue/break flags made so far, for their names
  int if_depth_ = 0;                     // if/elif/else branches around the statement being parsed
  int manual_depth_ = 0;                 // manual scopes around the statement being parsed
  int cluster_depth_ = 0;                // pl.cluster() scopes around it (cluster.cpp)
  // pl.at scopes: the function list calls are checked against (outlined functions join it), the
  // functions outlined so far with the function each came from, and a counter per function for names.
  std::vector<ir::Function>* declared_ = nullptr;
  std::vector<ir::Function> outlined_;
  std::map<std::string, std::string> outlined_parent_;
  std::map<std::string, int> outline_counter_;
  size_t fn_body_end_ = 0;  // token index after the body of the function being parsed
  // Inline functions by name, the ones being spliced (innermost last), and the statements spliced
  // for the statement being parsed, which go before it.
  std::map<std::string, Signature> inline_sigs_;
  // The @pl.function kernels outside the class of the program being built: the bare name each is
  // called by, to its name.
  std::map<std::string, std::string> external_names_;
  std::vector<std::string> inline_stack_;
  std::vector<ir::Stmt> prelude_;
  // Appended to the names of the variables an inline body defines ("__<n>", n counting expansions), so
  // the spliced code's variables print apart from the caller's.
  std::string inline_var_suffix_;
  // The block being parsed (each suite gets its own number), so a name bound in this very block may be
  // rebound to a value of another type (bind_local).
  int block_ = 0;
  int blocks_ = 0;
  int inline_expansions_ = 0;

  friend struct DepthGuard;
  friend struct SyntaxDepth;
};

// Counts one level of recursion; past kMaxNesting reports a located error and aborts the statement.
struct DepthGuard {
  Parser& p;
  DepthGuard(Parser& parser, const SourceSpan& span);
  ~DepthGuard() { --p.depth_; }
};

// "; did you mean 'load'?" when a candidate is close to `name` (edit distance), else "".
std::string did_you_mean(const std::string& name, const std::vector<std::string>& candidates);
// True for an op spelling of PyPTO's `pl`/`pld` namespaces (op_calls.cpp, from pypto_ops.def).
bool is_pypto_op(std::string_view spelling);
// True for the loop iterators `pl.range`, `pl.parallel`, `pl.unroll`, `pl.pipeline` (lower_expr.cpp).
bool is_loop_path(const std::string& p);

template <typename F>
bool Parser::speculate(F&& fn) {
  DiagnosticEngine scratch;
  ir::Builder scratch_builder(scratch);
  DiagnosticEngine* saved_diags = diags_;
  ir::Builder* saved_builder = b_;
  diags_ = &scratch;
  b_ = &scratch_builder;
  bool ok = true;
  try {
    fn();
  } catch (const SyntaxAbort&) {
    ok = false;
  }
  diags_ = saved_diags;
  b_ = saved_builder;
  return ok && !scratch.has_errors();
}

}  // namespace ptodist::frontend
