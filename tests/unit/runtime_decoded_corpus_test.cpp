// The decoder covers everything the executor runs: every op of ops.def, and every function of the
// examples and the golden test inputs, as parsed and as lowered by the pipeline. The decoded program
// is the executor's only input, so an expression the decoder could not resolve would be an internal
// error (an abort) at decode time; these tests also check what each op's record holds.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include "../../src/runtime/decoded.h"
#include "ptodist/frontend/parser.h"
#include "ptodist/ir/op_table.h"
#include "ptodist/ir/stmt.h"
#include "ptodist/transforms/pass.h"

namespace ptodist::runtime {
namespace {

namespace fs = std::filesystem;

// What every decoded function must hold: each op's operands in parameter order, with their keys, and
// a tree for each operand present (and for each variadic argument); each op-call node names an op.
void expect_complete(const DecodedFunction& d, std::set<ir::OpId>& seen) {
  for (const DecodedOp& op : d.ops) {
    ASSERT_NE(op.call, nullptr);
    seen.insert(op.id);
    const std::vector<ir::OpParam>& params = ir::op_info(op.id).params;
    ASSERT_EQ(op.count, params.size()) << op.call->op->spelling;
    ASSERT_EQ(op.n_varargs, op.call->varargs.size()) << op.call->op->spelling;
    ASSERT_LE(op.varargs + op.n_varargs, d.operands.size());
    for (uint32_t i = 0; i < op.count + op.n_varargs; ++i) {
      const DecodedOperand& o = d.operands[op.first + i];
      if (i < op.count) {
        EXPECT_EQ(o.key, slot_key(params[i].name)) << op.call->op->spelling;
      }
      const bool written = i < op.count ? i < op.call->args.size() && op.call->args[i] : true;
      EXPECT_EQ(o.kind != DecodedOperand::Kind::Missing, written)
          << op.call->op->spelling << " operand " << i;
      if (written) {
        EXPECT_LT(o.tree, d.exprs.size());
      }
    }
  }
  for (const DecodedExpr& e : d.exprs) {
    if (e.kind == ir::ExprKind::OpCall) {
      EXPECT_LT(static_cast<size_t>(e.op), d.ops.size());
    }
    if (e.kind == ir::ExprKind::VarRef) {
      EXPECT_GE(e.slot, 0);
    }
    EXPECT_LE(e.first + e.count, d.children.size());
  }
}

std::vector<fs::path> python_files(const std::string& subdir) {
  std::vector<fs::path> out;
  for (const auto& entry : fs::recursive_directory_iterator(fs::path(PTODIST_SOURCE_DIR) / subdir))
    if (entry.path().extension() == ".py") out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

// Every program of every example and golden input that parses, decoded as parsed and, when the
// pipeline accepts it with its defaults, as lowered (lower-collectives and the other passes add ops).
TEST(DecodedCorpus, EveryExampleAndGoldenInputDecodes) {
  std::set<ir::OpId> seen;
  int programs = 0, lowered = 0;
  for (const std::string dir : {"examples", "tests/lit", "tests/hazards"}) {
    for (const fs::path& path : python_files(dir)) {
      SCOPED_TRACE(path.string());
      SourceManager sm;
      std::string error;
      const SourceFile* file = sm.load(path.string(), &error);
      ASSERT_NE(file, nullptr) << error;
      // Parsed twice: decoding lays out frame slots on the variables, which the lowering keeps.
      DiagnosticEngine diags;
      ir::Module m = frontend::parse_module(*file, diags);
      if (!m || diags.has_errors()) continue;
      for (const ir::Program& p : m->programs) {
        ++programs;
        std::unique_ptr<DecodedProgram> decoded = decode_program(*p);
        for (const auto& [fn, d] : decoded->functions) expect_complete(d, seen);
      }
      ir::Module fresh = frontend::parse_module(*file, diags);
      for (const ir::Program& p : fresh->programs) {
        DiagnosticEngine pass_diags;
        transforms::PassContext cx{pass_diags};
        cx.module = fresh;
        ir::Program out = transforms::run_pipeline(p, cx);
        if (!out || pass_diags.has_errors()) continue;
        ++lowered;
        std::unique_ptr<DecodedProgram> decoded = decode_program(*out);
        for (const auto& [fn, d] : decoded->functions) expect_complete(d, seen);
      }
    }
  }
  EXPECT_GT(programs, 100);
  EXPECT_GT(lowered, 50);
  EXPECT_GT(seen.size(), 60u);
}

// Every op of the table, called with an integer in each of its parameters and one variadic argument:
// the decoder gives each its record, so no op of ops.def is left for the executor to read from the IR.
TEST(DecodedCorpus, EveryOpOfTheTableDecodes) {
  auto fn = std::make_shared<ir::FunctionNode>();
  fn->name = "every_op";
  for (const ir::OpInfo& info : ir::all_ops()) {
    auto call = std::make_shared<ir::OpCall>();
    call->op = &info;
    for (size_t i = 0; i < ir::op_info(info.id).params.size(); ++i) {
      auto imm = std::make_shared<ir::IntImm>();
      imm->value = static_cast<long long>(i);
      call->args.push_back(imm);
    }
    call->varargs.push_back(std::make_shared<ir::NoneImm>());
    auto stmt = std::make_shared<ir::ExprStmt>();
    stmt->value = call;
    fn->body.push_back(stmt);
  }
  auto program = std::make_shared<ir::ProgramNode>();
  program->functions.push_back(fn);
  auto decoded = decode_program(*program);
  const DecodedFunction* d = decoded->find(fn.get());
  ASSERT_NE(d, nullptr);
  ASSERT_EQ(d->ops.size(), ir::all_ops().size());
  std::set<ir::OpId> seen;
  expect_complete(*d, seen);
  for (size_t i = 0; i < d->ops.size(); ++i) {
    const DecodedOp& op = d->ops[i];
    EXPECT_EQ(op.effects, ir::all_ops()[i].effects) << ir::all_ops()[i].spelling;
    for (uint32_t k = 0; k < op.count; ++k) {
      const DecodedOperand& o = d->operands[op.first + k];
      EXPECT_EQ(o.kind, DecodedOperand::Kind::Int) << ir::all_ops()[i].spelling;
      EXPECT_EQ(o.value, static_cast<long long>(k));
    }
    EXPECT_EQ(d->operands[op.varargs].kind, DecodedOperand::Kind::None);
  }
}

}  // namespace
}  // namespace ptodist::runtime
