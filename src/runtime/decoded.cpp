// Decoding a program for the executor: one pass over each function's statements that lays them out in
// execution order and resolves, once, what walking the tree would look up on every run of a statement:
// frame slots of operands and targets, constants, planned addresses and static result shapes. The
// executor then reads a few contiguous records per statement instead of a dozen scattered IR nodes,
// which the tile kernels' data keeps evicting from the caches. Every expression it evaluates is
// decoded here, an op call nested in an operand included (as an op of its own): the executor never
// evaluates the IR.
#include "decoded.h"

#include <set>

#include "frame_layout.h"
#include "ptodist/ir/op_table.h"
#include "ptodist/support/diagnostics.h"

namespace ptodist::runtime {
namespace {

class Decoder {
 public:
  Decoder(DecodedFunction& out, const ir::ProgramNode& program) : out_(out), program_(program) {}

  void block(const ir::Block& b) {
    for (const ir::Stmt& s : b) stmt(s);
  }

 private:
  DecodedFunction& out_;
  const ir::ProgramNode& program_;

  // The program's function called `name` (the first, as the executor always took), or null.
  const ir::FunctionNode* function_named(const std::string& name) const {
    for (const ir::Function& fn : program_.functions)
      if (fn && fn->name == name) return fn.get();
    return nullptr;
  }

  // The operand's tree, and its flat form when it has one (decoded.h).
  DecodedOperand operand(const ir::Expr& e) {
    DecodedOperand o;
    if (!e) return o;
    o.expr = &e;
    o.tree = tree(e);
    o.kind = DecodedOperand::Kind::Tree;
    if (const auto* ref = e->as<ir::VarRef>()) {
      o.kind = DecodedOperand::Kind::Var;
      o.slot = ref->var->frame_slot;
    } else if (const auto* imm = e->as<ir::IntImm>();
               imm && (!e->type || e->type->dtype == ir::DType::INT64)) {
      o.kind =
          DecodedOperand::Kind::Int;  // an INT64 constant (a typed one, pl.const(v, dtype), keeps its tree)
      o.value = imm->value;
    } else if (e->kind == ir::ExprKind::NoneImm) {
      o.kind = DecodedOperand::Kind::None;
    } else if (const std::vector<ir::Expr>* list = ir::as_list(e); list && list->size() <= Dims::kMaxDims) {
      ints(*list, o);
    } else if (uint32_t first, count; scalar(e, first, count)) {
      o.kind = DecodedOperand::Kind::Scalar;
      o.first = first;
      o.count = static_cast<uint8_t>(count);
    }
    return o;
  }

  // `e` as a tree of DecodedExpr (children first); returns its root's index in `exprs`.
  uint32_t tree(const ir::Expr& e) {
    PTODIST_INTERNAL_ASSERT(e, "decode: an expression is missing");
    DecodedExpr d;
    d.kind = e->kind;
    d.node = e.get();
    std::vector<uint32_t> kids;
    auto add = [&](const ir::Expr& x) { kids.push_back(tree(x)); };
    const ir::DType typed = e->type ? e->type->dtype : ir::DType::INT64;
    switch (e->kind) {
      case ir::ExprKind::IntImm:  // typed by pl.const(v, dtype); INT64 otherwise
        d.constant = Scalar::of_int(e->as<ir::IntImm>()->value, typed);
        break;
      case ir::ExprKind::FloatImm:
        d.constant =
            Scalar::of_float(e->as<ir::FloatImm>()->value, e->type ? e->type->dtype : ir::DType::FP32);
        break;
      case ir::ExprKind::BoolImm:
        d.constant = Scalar::of_bool(e->as<ir::BoolImm>()->value);
        break;
      case ir::ExprKind::StrImm:
      case ir::ExprKind::NoneImm:
      case ir::ExprKind::DTypeImm:
      case ir::ExprKind::EnumImm:
      case ir::ExprKind::Dynamic:
        break;
      case ir::ExprKind::FuncRef:
        d.callee = function_named(e->as<ir::FuncRef>()->callee);
        break;
      case ir::ExprKind::VarRef: {
        const ir::VarNode& v = *e->as<ir::VarRef>()->var;
        PTODIST_INTERNAL_ASSERT(v.frame_slot >= 0, "decode: variable '" + v.name + "' has no frame slot");
        d.slot = v.frame_slot;
        break;
      }
      case ir::ExprKind::Unary:
        add(e->as<ir::Unary>()->operand);
        break;
      case ir::ExprKind::Binary:
        add(e->as<ir::Binary>()->lhs);
        add(e->as<ir::Binary>()->rhs);
        break;
      case ir::ExprKind::Compare:
        add(e->as<ir::Compare>()->lhs);
        add(e->as<ir::Compare>()->rhs);
        break;
      case ir::ExprKind::BoolOp:
        add(e->as<ir::BoolOp>()->lhs);
        add(e->as<ir::BoolOp>()->rhs);
        break;
      case ir::ExprKind::IfExp:
        add(e->as<ir::IfExp>()->cond);
        add(e->as<ir::IfExp>()->then_value);
        add(e->as<ir::IfExp>()->else_value);
        break;
      case ir::ExprKind::List:
      case ir::ExprKind::Tuple:
        for (const ir::Expr& x : *ir::as_list(e)) add(x);
        break;
      case ir::ExprKind::Subscript:
        add(e->as<ir::Subscript>()->value);
        for (const ir::Expr& x : e->as<ir::Subscript>()->indices) add(x);
        break;
      case ir::ExprKind::OpCall:
        d.op = op(*e->as<ir::OpCall>());
        break;
      case ir::ExprKind::FuncCall:
        d.callee = function_named(e->as<ir::FuncCall>()->callee);
        for (const ir::Expr& x : e->as<ir::FuncCall>()->args) add(x);
        if (e->as<ir::FuncCall>()->device) add(e->as<ir::FuncCall>()->device);
        break;
    }
    d.first = static_cast<uint32_t>(out_.children.size());
    d.count = static_cast<uint32_t>(kids.size());
    out_.children.insert(out_.children.end(), kids.begin(), kids.end());
    out_.exprs.push_back(d);
    return static_cast<uint32_t>(out_.exprs.size() - 1);
  }

  // A variable's slot or an integer constant; false for anything else.
  static bool entry(const ir::Expr& x, IntEntry& out) {
    if (const auto* ref = x->as<ir::VarRef>(); ref && ref->var->frame_slot >= 0) {
      out.slot = ref->var->frame_slot;
      return true;
    }
    if (const auto* imm = x->as<ir::IntImm>()) {
      out.slot = IntEntry::kConstant;
      out.value = imm->value;
      return true;
    }
    return false;
  }

  // `e` as postfix steps appended to DecodedFunction::steps when it is built of variables, integer
  // constants, binary operations and comparisons; false (and nothing appended) otherwise.
  bool scalar(const ir::Expr& e, uint32_t& first, uint32_t& count) {
    const size_t start = out_.steps.size();
    if (!postfix(e, 1) || out_.steps.size() - start > 255) {
      out_.steps.resize(start);
      return false;
    }
    first = static_cast<uint32_t>(start);
    count = static_cast<uint32_t>(out_.steps.size() - start);
    return true;
  }

  // Appends the steps of `e`, whose value lands at stack depth `depth`.
  bool postfix(const ir::Expr& e, int depth) {
    if (depth > kMaxScalarDepth) return false;
    ScalarStep step;
    if (entry(e, step.entry)) {
      out_.steps.push_back(step);
      return true;
    }
    const ir::Expr *lhs = nullptr, *rhs = nullptr;
    if (const auto* b = e->as<ir::Binary>()) {
      step.kind = ScalarStep::Kind::Binary;
      lhs = &b->lhs;
      rhs = &b->rhs;
    } else if (const auto* c = e->as<ir::Compare>()) {
      step.kind = ScalarStep::Kind::Compare;
      lhs = &c->lhs;
      rhs = &c->rhs;
    } else {
      return false;
    }
    if (!postfix(*lhs, depth) || !postfix(*rhs, depth + 1)) return false;
    step.node = e.get();
    out_.steps.push_back(step);
    return true;
  }

  // A list whose entries are all variables, integer constants or scalar expressions of those;
  // anything else is read from its tree.
  void ints(const std::vector<ir::Expr>& list, DecodedOperand& o) {
    std::vector<IntEntry> entries(list.size());
    const size_t steps = out_.steps.size();
    for (size_t i = 0; i < list.size(); ++i) {
      if (entry(list[i], entries[i])) continue;
      uint32_t first, count;
      if (!scalar(list[i], first, count)) {
        out_.steps.resize(steps);
        return;
      }
      entries[i] = IntEntry{IntEntry::kScalar, count, first};
    }
    o.kind = DecodedOperand::Kind::Ints;
    o.count = static_cast<uint8_t>(entries.size());
    o.first = static_cast<uint32_t>(out_.ints.size());
    out_.ints.insert(out_.ints.end(), entries.begin(), entries.end());
  }

  int op(const ir::OpCall& c) {
    PTODIST_INTERNAL_ASSERT(c.op, "decode: a call of no op");
    DecodedOp d;
    d.call = &c;
    d.id = c.op->id;
    d.effects = c.op->effects;
    // An assemble into a tile (PyPTO's tile.assemble) copies on-chip: none of pl.assemble's GM effects.
    if (d.id == ir::OpId::Assemble && c.type && c.type->kind == ir::TypeKind::Tile)
      d.effects &= ~(ir::kReadsGM | ir::kWritesGM);
    if (c.type) result_type(*c.type, d);
    operands(c, d);
    out_.ops.push_back(std::move(d));
    return static_cast<int>(out_.ops.size() - 1);
  }

  // What ops read from their checked result type: a tile's memory and planned address, static dims.
  static void result_type(const ir::TypeNode& type, DecodedOp& d) {
    d.typed = true;
    d.dtype = type.dtype;
    if (type.kind == ir::TypeKind::Tile) {
      d.tile_result = true;
      d.memory = type.memory;
      d.addr = type.addr;
    }
    if (type.shape.size() > Dims::kMaxDims) return;
    Dims dims;
    for (const ir::Expr& dim : type.shape) {
      auto v = ir::as_const_int(dim);
      if (!v) return;
      dims.push_back(*v);
    }
    d.static_shape = true;
    d.shape = dims;
  }

  // The operands in parameter order, each with the key of its parameter's name (distinct for every
  // op: DecodedKeys.EveryOpsParametersHaveDistinctKeys), then the variadic arguments. Decoded into a
  // list first: an operand's nested op calls append operands of their own.
  void operands(const ir::OpCall& c, DecodedOp& d) {
    std::set<uint32_t> keys;
    const std::vector<ir::OpParam>& params = ir::op_info(c.op->id).params;  // an alias's slots are its op's
    for (const ir::OpParam& p : params) keys.insert(slot_key(p.name));
    PTODIST_INTERNAL_ASSERT(keys.size() == params.size(),
                            "decode: parameters of " + c.op->spelling + " share a key");
    PTODIST_INTERNAL_ASSERT(c.args.size() <= params.size(),
                            "decode: " + c.op->spelling + " has more arguments than parameters");
    std::vector<DecodedOperand> list;
    for (size_t i = 0; i < params.size(); ++i) {
      DecodedOperand o = i < c.args.size() ? operand(c.args[i]) : DecodedOperand{};
      o.key = slot_key(params[i].name);
      list.push_back(o);
    }
    for (const ir::Expr& a : c.varargs) list.push_back(operand(a));
    d.first = static_cast<uint32_t>(out_.operands.size());
    d.count = static_cast<uint8_t>(params.size());
    d.varargs = d.first + d.count;
    d.n_varargs = static_cast<uint32_t>(c.varargs.size());
    out_.operands.insert(out_.operands.end(), list.begin(), list.end());
  }

  // Emits a statement's record and returns its index (records may move while bodies are decoded).
  size_t emit(const ir::Stmt& s) {
    DecodedStmt d;
    d.kind = s->kind;
    d.node = s.get();
    out_.code.push_back(std::move(d));
    return out_.code.size() - 1;
  }

  uint32_t here() const { return static_cast<uint32_t>(out_.code.size()); }

  // An Assign's or ExprStmt's value: an op call becomes the statement's op, anything else its operand.
  void value(const ir::Expr& e, size_t at) {
    if (e && e->kind == ir::ExprKind::OpCall) {
      int index = op(*e->as<ir::OpCall>());
      out_.code[at].op = index;
    } else {
      DecodedOperand o = operand(e);
      out_.code[at].value = o;
    }
  }

  void stmt(const ir::Stmt& s) {
    size_t at = emit(s);
    switch (s->kind) {
      case ir::StmtKind::Assign: {
        const auto* a = s->as<ir::Assign>();
        value(a->value, at);
        DecodedStmt& d = out_.code[at];
        const ir::VarNode* target = a->targets.size() == 1 ? a->targets[0].get() : nullptr;
        if (target) d.target_slot = target->frame_slot;
        if (target && target->type && target->type->kind == ir::TypeKind::Tile)
          d.planned_addr = target->type->addr;
        return;
      }
      case ir::StmtKind::ExprStmt:
        value(s->as<ir::ExprStmt>()->value, at);
        return;
      case ir::StmtKind::For: {
        const auto* loop = s->as<ir::For>();
        DecodedOperand start = loop->start ? operand(loop->start) : constant(0);
        DecodedOperand stop = operand(loop->stop);
        DecodedOperand step = loop->step ? operand(loop->step) : constant(1);
        block(loop->body);
        DecodedStmt& d = out_.code[at];
        d.iv_slot = loop->iv ? loop->iv->frame_slot : -1;
        d.start = start;
        d.stop = stop;
        d.step = step;
        d.end = here();
        return;
      }
      case ir::StmtKind::While: {
        const auto* loop = s->as<ir::While>();
        DecodedOperand cond = operand(loop->cond);
        block(loop->body);
        DecodedStmt& d = out_.code[at];
        d.value = cond;
        d.end = here();
        return;
      }
      case ir::StmtKind::If: {
        const auto* i = s->as<ir::If>();
        DecodedOperand cond = operand(i->cond);
        block(i->then_body);
        uint32_t else_at = here();
        block(i->else_body);
        DecodedStmt& d = out_.code[at];
        d.value = cond;
        d.else_at = else_at;
        d.end = here();
        return;
      }
      case ir::StmtKind::ManualScope:
        block(s->as<ir::ManualScope>()->body);
        out_.code[at].end = here();
        return;
      case ir::StmtKind::Return: {
        std::vector<DecodedOperand> values;
        for (const ir::Expr& v : s->as<ir::Return>()->values) values.push_back(operand(v));
        DecodedStmt& d = out_.code[at];
        d.values = static_cast<uint32_t>(out_.operands.size());
        d.n_values = static_cast<uint32_t>(values.size());
        out_.operands.insert(out_.operands.end(), values.begin(), values.end());
        return;
      }
      case ir::StmtKind::Pass:
        return;
    }
  }

  static DecodedOperand constant(long long v) {
    DecodedOperand o;
    o.kind = DecodedOperand::Kind::Int;
    o.value = v;
    return o;
  }
};

}  // namespace

std::unique_ptr<DecodedProgram> decode_program(const ir::ProgramNode& program) {
  auto decoded = std::make_unique<DecodedProgram>();
  std::unordered_map<const ir::FunctionNode*, int> sizes = lay_out_frames(program);
  for (const ir::Function& fn : program.functions) {
    DecodedFunction& d = decoded->functions[fn.get()];
    d.fn = fn.get();
    d.frame_size = sizes[fn.get()];
    Decoder(d, program).block(fn->body);
    for (const DecodedOp& op : d.ops) d.defers_completion |= (op.effects & ir::kDeferWait) != 0;
  }
  return decoded;
}

}  // namespace ptodist::runtime
