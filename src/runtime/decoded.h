// Internal: every function of a program decoded once, when a Runtime is made, into flat arrays the
// executor walks instead of the IR tree (statements in order with their bodies inline, each op call's
// operands by frame slot or constant, result types resolved).
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "ptodist/ir/function.h"
#include "ptodist/ir/op_table.h"
#include "ptodist/runtime/dims.h"
#include "ptodist/runtime/value.h"

namespace ptodist::runtime {

// The key an op's operand is found by: a hash of its parameter name. Inline and constexpr, so the
// executor's lookups by a literal name ("tensor") fold to a constant; the decoder checks that the
// parameters of each op it decodes have distinct keys.
constexpr uint32_t slot_key(std::string_view name) {
  uint32_t h = 2166136261u;  // FNV-1a
  for (char ch : name) h = (h ^ static_cast<uint8_t>(ch)) * 16777619u;
  return h;
}

// The parameter name an op implementation asks for, with its key: every caller names a literal
// ("tensor"), so the key is computed when the executor is compiled, not on every lookup.
// Sixteen bytes, so it is passed in registers rather than through the stack.
class OperandName {
 public:
  consteval OperandName(const char* n)  // NOLINT: implicit on purpose
      : text_(n), size_(static_cast<uint32_t>(std::string_view(n).size())), key_(slot_key(n)) {}
  std::string_view name() const { return {text_, size_}; }
  uint32_t key() const { return key_; }

 private:
  const char* text_;
  uint32_t size_;
  uint32_t key_;
};

// An entry of a decoded list of integers (offsets, shapes): a variable's frame slot, a constant, or a
// scalar expression of those.
struct IntEntry {
  static constexpr int kConstant = -1;  // `value` is the entry
  static constexpr int kScalar = -2;    // DecodedFunction::steps[value, value + steps)
  int slot = kConstant;
  uint32_t steps = 0;
  long long value = 0;
};

// One step of a decoded scalar expression (`my_rank * M_LOCAL + row`, `kb == 0`) in postfix order:
// Push puts an entry (a variable or an integer constant) on the stack; Binary and Compare replace the
// top two with `node`'s result, computed as the IR evaluator computes it.
struct ScalarStep {
  enum class Kind : uint8_t { Push, Binary, Compare };
  Kind kind = Kind::Push;
  IntEntry entry;                      // Push (never itself kScalar)
  const ir::ExprNode* node = nullptr;  // Binary, Compare: the ir::Binary or ir::Compare
};
inline constexpr int kMaxScalarDepth = 8;  // stack entries an expression may need to be decoded

// One node of an expression as the executor evaluates it: the IR node it mirrors, with variables
// resolved to frame slots, constants to values and op calls to decoded ops. `node` gives spans,
// operator kinds and names (for errors and Python semantics), never a value. Children, in
// DecodedFunction::children[first, first + count): Unary [operand]; Binary, Compare, BoolOp
// [lhs, rhs]; IfExp [cond, then, else]; List, Tuple the elements; Subscript [value, indices...];
// FuncCall [args..., device] (the device only when the call has one). Other kinds have none.
struct DecodedExpr {
  ir::ExprKind kind = ir::ExprKind::NoneImm;
  const ir::ExprNode* node = nullptr;
  int slot = -1;  // VarRef: the frame slot
  int op = -1;    // OpCall: DecodedFunction::ops[op]
  // FuncCall, FuncRef: the program's function of that name, found once; null when there is none
  // (evaluating the node then reports it).
  const ir::FunctionNode* callee = nullptr;
  uint32_t first = 0;
  uint32_t count = 0;
  Scalar constant;  // IntImm, FloatImm, BoolImm: the value, typed as the IR evaluator typed it
};

// An operand as the executor needs it: a variable, an integer constant, None, a list of entries, a
// scalar expression of variables and constants, or any other expression as a tree of DecodedExpr.
// Every present operand also has its tree (`tree`): the flat forms are the fast paths, and when one
// cannot give a value (an unbound variable, a value of the wrong kind) the tree is evaluated instead,
// which reports the error exactly as evaluating the expression always has. Nothing reads the IR.
struct DecodedOperand {
  // Scalar: DecodedFunction::steps[first, first + count) (ScalarStep).
  enum class Kind : uint8_t { Missing, Var, Int, None, Ints, Scalar, Tree };
  Kind kind = Kind::Missing;
  uint8_t count = 0;               // Ints: entries; Scalar: steps
  uint32_t key = 0;                // slot_key of the parameter name (op operands)
  int slot = -1;                   // Var: frame slot
  uint32_t first = 0;              // Ints: the first entry in DecodedFunction::ints; Scalar: step
  uint32_t tree = 0;               // DecodedFunction::exprs[tree], unless Missing
  long long value = 0;             // Int
  const ir::Expr* expr = nullptr;  // the operand as written, for its span; null when missing
};

// An op call that is the whole value of a statement, with its operands in parameter order and what
// the executor reads from its checked result type.
struct DecodedOp {
  const ir::OpCall* call = nullptr;
  ir::OpId id{};  // call->op's, kept here with its effects: no load from the op table per op
  uint32_t effects = 0;
  uint32_t first = 0;  // operands: DecodedFunction::operands[first, first + count)
  uint8_t count = 0;
  uint32_t varargs = 0;  // the variadic arguments (pl.spmd_submit's): operands[varargs, + n_varargs)
  uint32_t n_varargs = 0;
  bool tile_result = false;  // the checked result type is a tile: `memory` and `addr` are its
  bool typed = false;        // the call has a checked result type: `dtype` is its
  ir::Memory memory = ir::Memory::Vec;
  ir::DType dtype = ir::DType::INT64;
  long long addr = -1;        // the result type's planned address, -1 when unplanned
  bool static_shape = false;  // `shape` holds the result type's dims (all constants)
  Dims shape;
};

// One statement. Bodies follow their statement: a For's or While's body is [index + 1, end), an If's
// then-body [index + 1, else_at) and else-body [else_at, end), a ManualScope's body [index + 1, end).
struct DecodedStmt {
  ir::StmtKind kind = ir::StmtKind::Pass;
  const ir::StmtNode* node = nullptr;
  int op = -1;                  // Assign, ExprStmt: the value is DecodedFunction::ops[op]; -1 when not an op
  int target_slot = -1;         // Assign with one named target: its frame slot
  long long planned_addr = -1;  // Assign to a tile variable that plan-memory placed: its address
  uint32_t end = 0;
  uint32_t else_at = 0;
  int iv_slot = -1;                  // For
  DecodedOperand start, stop, step;  // For (start and step default to 0 and 1)
  // What the statement evaluates: an If's or While's condition, an Assign's or ExprStmt's value when that is
  // not an op call.
  DecodedOperand value;
  uint32_t values = 0;  // Return: its values, DecodedFunction::operands[values, values + n_values)
  uint32_t n_values = 0;
};

struct DecodedFunction {
  const ir::FunctionNode* fn = nullptr;
  int frame_size = 0;  // slots: highest ir::VarNode::frame_slot of the function + 1
  std::vector<DecodedStmt> code;
  std::vector<DecodedOp> ops;
  std::vector<DecodedOperand> operands;
  std::vector<IntEntry> ints;
  std::vector<ScalarStep> steps;
  std::vector<DecodedExpr> exprs;
  std::vector<uint32_t> children;  // indices into exprs (DecodedExpr)
  // It calls pld.system.defer_wait: its blocks free their core when the body ends (orchestration.cpp).
  bool defers_completion = false;
};

struct DecodedProgram {
  std::unordered_map<const ir::FunctionNode*, DecodedFunction> functions;
  const DecodedFunction* find(const ir::FunctionNode* fn) const {
    auto it = functions.find(fn);
    return it == functions.end() ? nullptr : &it->second;
  }
};

// Lays out the frames of `program` (frame_layout.h) and decodes each of its functions. Call before any
// thread runs the program; the result is read-only afterwards and shared by every core. Every
// expression the executor evaluates is decoded; one the decoder cannot resolve (a variable without a
// frame slot, a call of no op, an op with more arguments than parameters) is an internal error here,
// before anything runs.
std::unique_ptr<DecodedProgram> decode_program(const ir::ProgramNode& program);

}  // namespace ptodist::runtime
