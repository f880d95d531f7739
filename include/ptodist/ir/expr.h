// IR expressions: a kind enum plus a small immutable class hierarchy with as<T>() / isa<T>().
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "ptodist/ir/dtype.h"
#include "ptodist/ir/type.h"
#include "ptodist/support/source.h"

namespace ptodist::ir {

struct OpInfo;

enum class ExprKind {
  IntImm,
  FloatImm,
  BoolImm,
  StrImm,
  NoneImm,
  DTypeImm,  // pl.FP16
  EnumImm,   // pl.Mem.Acc, pld.NotifyOp.AtomicAdd, ...
  Dynamic,   // pl.dynamic("NR"): a dim resolved at run time
  VarRef,    // a use of a variable
  Unary,
  Binary,
  Compare,
  BoolOp,
  IfExp,
  List,
  Tuple,
  Subscript,
  OpCall,    // a call of a table op: pl.load(...), pld.tensor.put(...)
  FuncCall,  // a call of a function of the program: self.kernel(...), kernel(...)
  FuncRef,   // a function named as a value: the first argument of pl.spmd_submit
};

struct ExprNode {
  ExprKind kind;
  SourceSpan span;
  Type type;  // filled by the builder; null only while parsing constants

  explicit ExprNode(ExprKind k) : kind(k) {}
  virtual ~ExprNode() = default;

  template <typename T>
  bool isa() const {
    return kind == T::kKind;
  }
  template <typename T>
  const T* as() const {
    return isa<T>() ? static_cast<const T*>(this) : nullptr;
  }
};

template <ExprKind K>
struct ExprBase : ExprNode {
  static constexpr ExprKind kKind = K;
  ExprBase() : ExprNode(K) {}
};

struct IntImm : ExprBase<ExprKind::IntImm> {
  long long value = 0;
};
struct FloatImm : ExprBase<ExprKind::FloatImm> {
  double value = 0;
};
struct BoolImm : ExprBase<ExprKind::BoolImm> {
  bool value = false;
};
struct StrImm : ExprBase<ExprKind::StrImm> {
  std::string value;
};
struct NoneImm : ExprBase<ExprKind::NoneImm> {};
struct DTypeImm : ExprBase<ExprKind::DTypeImm> {
  DType value = DType::FP32;
};

// The enumerations the language names with attribute paths.
enum class EnumKind {
  Memory,
  NotifyOp,
  WaitCmp,
  AtomicType,
  ReduceOp,
  FunctionType,
  Level,
  Role,
  PadValue,
  PipeType
};
struct EnumImm : ExprBase<ExprKind::EnumImm> {
  EnumKind enum_kind = EnumKind::Memory;
  std::string value;  // the member name as printed: "Acc", "AtomicAdd", "None_"
};

struct Dynamic : ExprBase<ExprKind::Dynamic> {
  std::string name;
};

// A variable: one per name and scope. Rebinding a name (`dst = pl.store(t, [0, 0], dst)`) is a new
// definition of the same Var; its type is fixed by the first definition.
struct VarNode {
  std::string name;
  Type type;
  SourceSpan span;  // first definition
  int id = 0;       // unique within a program, for maps keyed by variable
  // The executor's slot for this variable in a frame of a function that uses it (dense per function;
  // runtime/frame_layout.cpp), -1 until a program is laid out. Derived data, written once before a
  // program first runs, hence mutable on an otherwise immutable node.
  mutable int frame_slot = -1;
};
using Var = std::shared_ptr<const VarNode>;

struct VarRef : ExprBase<ExprKind::VarRef> {
  Var var;
};

enum class UnaryOpKind { Neg, Not, Invert, Pos };
struct Unary : ExprBase<ExprKind::Unary> {
  UnaryOpKind op = UnaryOpKind::Neg;
  Expr operand;
};

enum class BinaryOpKind { Add, Sub, Mul, Div, FloorDiv, Mod, Pow, BitAnd, BitOr, BitXor, Shl, Shr };
struct Binary : ExprBase<ExprKind::Binary> {
  BinaryOpKind op = BinaryOpKind::Add;
  Expr lhs, rhs;
};

enum class CompareOpKind { Eq, Ne, Lt, Le, Gt, Ge };
struct Compare : ExprBase<ExprKind::Compare> {
  CompareOpKind op = CompareOpKind::Eq;
  Expr lhs, rhs;
};

enum class BoolOpKind { And, Or };
struct BoolOp : ExprBase<ExprKind::BoolOp> {
  BoolOpKind op = BoolOpKind::And;
  Expr lhs, rhs;
};

struct IfExp : ExprBase<ExprKind::IfExp> {
  Expr cond, then_value, else_value;
};

struct List : ExprBase<ExprKind::List> {
  std::vector<Expr> elements;
};
struct Tuple : ExprBase<ExprKind::Tuple> {
  std::vector<Expr> elements;
};

// `x[r]`: in the host orchestrator, the per-rank slice of a host tensor (drops the leading dim).
struct Subscript : ExprBase<ExprKind::Subscript> {
  Expr value;
  std::vector<Expr> indices;
};

// A call of a table op. `args` has one slot per parameter of the op's signature, in order; a slot is
// null when the argument was omitted. `varargs` holds the extra positional arguments of a `*args` op.
struct OpCall : ExprBase<ExprKind::OpCall> {
  const OpInfo* op = nullptr;
  std::vector<Expr> args;
  std::vector<Expr> varargs;
  // The argument in the slot named `name`, or null. A reference: the executor looks operands up on
  // every op it runs, and a copy would cost two atomic reference-count updates each time.
  const Expr& arg(std::string_view name) const;
};

struct KeywordArg {
  std::string name;
  Expr value;
};

// A call of a function of the program. `device` is the `device=r` of the host orchestrator.
struct FuncCall : ExprBase<ExprKind::FuncCall> {
  std::string callee;
  bool via_self = false;  // printed as `self.callee(...)` (class style)
  std::vector<Expr> args;
  Expr device;
};

struct FuncRef : ExprBase<ExprKind::FuncRef> {
  std::string callee;
  bool via_self = false;
};

// Constant evaluation helpers used by contracts and passes.
std::optional<long long> as_const_int(const Expr& e);
std::optional<double> as_const_float(const Expr& e);
// Elements of a List/Tuple expression, or nullopt.
const std::vector<Expr>* as_list(const Expr& e);

}  // namespace ptodist::ir
