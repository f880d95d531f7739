// The decoded form the executor walks: statements in execution order with their bodies inline, op
// operands by frame slot or constant, planned addresses and static result shapes, and parameter keys
// that tell apart the parameters of every op in the table.
#include <gtest/gtest.h>

#include <set>

#include "../../src/runtime/decoded.h"
#include "ptodist/ir/op_table.h"
#include "ptodist/transforms/pass.h"
#include "transforms_test_util.h"

namespace ptodist::runtime {
namespace {

using transforms::testing::PassTest;

const char* kProgram = R"(@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        for i in pl.range(1, 4, 2):
            t = pl.load(a, [i, 0], [1, 8])
            if i == 1:
                u = pl.adds(t, 1.0)
            else:
                u = pl.muls(t, 2.0)
            out = pl.store(u, [i * 1, 0], out)
        return out
)";

class DecodedTest : public PassTest {};

const DecodedFunction& kernel_of(const DecodedProgram& d, const ir::ProgramNode& p) {
  const DecodedFunction* k = d.find(p.find("kernel").get());
  EXPECT_NE(k, nullptr);
  return *k;
}

TEST_F(DecodedTest, StatementsAreInExecutionOrderWithBodiesInline) {
  ir::Program p = parse(kProgram);
  ASSERT_TRUE(p);
  auto decoded = decode_program(*p);
  const DecodedFunction& k = kernel_of(*decoded, *p);
  using K = ir::StmtKind;
  // for { t = load; if { u = adds } else { u = muls }; out = store }; return
  std::vector<K> kinds;
  for (const DecodedStmt& s : k.code) kinds.push_back(s.kind);
  EXPECT_EQ(kinds, (std::vector<K>{K::For, K::Assign, K::If, K::Assign, K::Assign, K::Assign, K::Return}));
  const DecodedStmt& loop = k.code[0];
  EXPECT_EQ(loop.end, 6u);
  EXPECT_EQ(loop.start.kind, DecodedOperand::Kind::Int);
  EXPECT_EQ(loop.start.value, 1);
  EXPECT_EQ(loop.step.value, 2);
  EXPECT_EQ(loop.stop.value, 4);
  EXPECT_GE(loop.iv_slot, 0);
  const DecodedStmt& branch = k.code[2];
  EXPECT_EQ(branch.else_at, 4u);
  EXPECT_EQ(branch.end, 5u);
  // `i == 1` in postfix: push i, push 1, compare.
  ASSERT_EQ(branch.value.kind, DecodedOperand::Kind::Scalar);
  ASSERT_EQ(branch.value.count, 3);
  const ScalarStep* steps = k.steps.data() + branch.value.first;
  EXPECT_EQ(steps[0].kind, ScalarStep::Kind::Push);
  EXPECT_EQ(steps[0].entry.slot, loop.iv_slot);
  EXPECT_EQ(steps[1].entry.slot, IntEntry::kConstant);
  EXPECT_EQ(steps[1].entry.value, 1);
  EXPECT_EQ(steps[2].kind, ScalarStep::Kind::Compare);
  EXPECT_EQ(k.code[1].target_slot >= 0 && k.code[1].op >= 0, true);
}

TEST_F(DecodedTest, OperandsAreSlotsConstantsOrExpressions) {
  ir::Program p = parse(kProgram);
  ASSERT_TRUE(p);
  auto decoded = decode_program(*p);
  const DecodedFunction& k = kernel_of(*decoded, *p);
  const int iv = k.code[0].iv_slot;

  const DecodedOp& load = k.ops[k.code[1].op];
  ASSERT_EQ(load.call->op->id, ir::OpId::Load);
  ASSERT_EQ(load.count, load.call->op->params.size());
  const DecodedOperand* ops = k.operands.data() + load.first;
  EXPECT_EQ(ops[0].kind, DecodedOperand::Kind::Var);  // tensor: the parameter `a`
  EXPECT_EQ(ops[0].key, slot_key("tensor"));
  ASSERT_EQ(ops[1].kind, DecodedOperand::Kind::Ints);  // offsets [i, 0]
  ASSERT_EQ(ops[1].count, 2);
  EXPECT_EQ(k.ints[ops[1].first].slot, iv);
  EXPECT_EQ(k.ints[ops[1].first + 1].slot, -1);
  EXPECT_EQ(k.ints[ops[1].first + 1].value, 0);
  EXPECT_EQ(ops[2].kind, DecodedOperand::Kind::Ints);  // shape [1, 8]
  EXPECT_TRUE(load.tile_result);
  EXPECT_TRUE(load.static_shape);
  EXPECT_EQ(std::vector<long long>(load.shape.begin(), load.shape.end()), (std::vector<long long>{1, 8}));

  // `[i * 1, 0]`: the first entry is a scalar expression of the loop variable.
  const DecodedOp& store = k.ops[k.code[5].op];
  ASSERT_EQ(store.call->op->id, ir::OpId::Store);
  const DecodedOperand& offsets = k.operands[store.first + store.call->op->param_index("offsets")];
  ASSERT_EQ(offsets.kind, DecodedOperand::Kind::Ints);
  const IntEntry& row = k.ints[offsets.first];
  ASSERT_EQ(row.slot, IntEntry::kScalar);
  ASSERT_EQ(row.steps, 3u);
  EXPECT_EQ(k.steps[row.value + 2].kind, ScalarStep::Kind::Binary);
}

// An operand of no flat form is a tree of decoded nodes: a float constant, arithmetic nested deeper
// than the evaluation stack.
TEST_F(DecodedTest, AnythingElseIsADecodedTree) {
  std::string deep = "i";
  for (int d = 0; d < kMaxScalarDepth; ++d) deep = "1 + (" + deep + " * 1)";
  std::string text = R"(@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        for i in pl.range(4):
            x = i * 0.5
            y = )" + deep +
                     R"(
        return out
)";
  ir::Program p = parse(text);
  ASSERT_TRUE(p);
  auto decoded = decode_program(*p);
  const DecodedFunction& k = kernel_of(*decoded, *p);
  ASSERT_EQ(k.code[1].kind, ir::StmtKind::Assign);
  const DecodedOperand& x = k.code[1].value;  // i * 0.5
  EXPECT_EQ(x.kind, DecodedOperand::Kind::Tree);
  const DecodedExpr& mul = k.exprs[x.tree];
  ASSERT_EQ(mul.kind, ir::ExprKind::Binary);
  ASSERT_EQ(mul.count, 2u);
  EXPECT_EQ(k.exprs[k.children[mul.first]].slot, k.code[0].iv_slot);
  const DecodedExpr& half = k.exprs[k.children[mul.first + 1]];
  ASSERT_EQ(half.kind, ir::ExprKind::FloatImm);
  EXPECT_EQ(half.constant.f, 0.5);
  EXPECT_EQ(k.code[2].value.kind, DecodedOperand::Kind::Tree);  // nested too deep
  EXPECT_TRUE(k.steps.empty());                                 // nothing left behind by the attempts
  // The return value is decoded too: the parameter `out`.
  const DecodedStmt& ret = k.code.back();
  ASSERT_EQ(ret.n_values, 1u);
  EXPECT_EQ(k.operands[ret.values].kind, DecodedOperand::Kind::Var);
}

// An op call nested in another's operand is decoded as an op of its own, which the operand's tree
// names: it runs from its decoded form as every op does.
TEST_F(DecodedTest, ANestedOpCallIsADecodedOp) {
  ir::Program p = parse(R"(@pl.program
class P:
    @pl.function(type=pl.FunctionType.InCore)
    def kernel(self, a: pl.Tensor[[4, 8], pl.FP32], out: pl.Out[pl.Tensor[[4, 8], pl.FP32]]) -> pl.Tensor[[4, 8], pl.FP32]:
        out = pl.store(pl.adds(pl.load(a, [0, 0], [4, 8]), 1.0), [0, 0], out)
        return out
)");
  ASSERT_TRUE(p);
  auto decoded = decode_program(*p);
  const DecodedFunction& k = kernel_of(*decoded, *p);
  ASSERT_EQ(k.ops.size(), 3u);
  const DecodedOp& store = k.ops[k.code[0].op];
  ASSERT_EQ(store.id, ir::OpId::Store);
  const DecodedOperand& tile = k.operands[store.first + store.call->op->param_index("tile")];
  ASSERT_EQ(tile.kind, DecodedOperand::Kind::Tree);
  const DecodedExpr& adds = k.exprs[tile.tree];
  ASSERT_EQ(adds.kind, ir::ExprKind::OpCall);
  const DecodedOp& inner = k.ops[adds.op];
  EXPECT_EQ(inner.id, ir::OpId::Adds);
  const DecodedOperand& loaded = k.operands[inner.first + inner.call->op->param_index("tile")];
  ASSERT_EQ(loaded.kind, DecodedOperand::Kind::Tree);
  EXPECT_EQ(k.ops[k.exprs[loaded.tree].op].id, ir::OpId::Load);
  // Each op's operands are contiguous, though the nested ones were decoded while the outer ones were.
  EXPECT_EQ(k.operands[store.first].key, slot_key(store.call->op->params[0].name));
  EXPECT_EQ(k.operands[inner.first].key, slot_key(inner.call->op->params[0].name));
}

// Calls of program functions name their callee, found once when decoded; an op call in a loop bound
// or in a notify's peer is a decoded op; a device= is the call's last child.
TEST_F(DecodedTest, CallsAndNestedOpsAreResolved) {
  ir::Program p = parse(R"(@pl.program
class Calls:
    @pl.function(type=pl.FunctionType.AIV)
    def producer(self, cells: pld.DistributedTensor[[1, 2], pl.INT32]):
        ctx = pld.get_comm_ctx(cells)
        pld.system.notify(cells, peer=pld.rank(ctx), offsets=[0, 1], value=2, op=pld.NotifyOp.Set)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, cells: pld.DistributedTensor[[1, 2], pl.INT32]):
        s, t = pl.spmd_submit(self.producer, cells, core_num=1)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[2, 1, 4], pl.FP32]):
        buf = pld.alloc_window_buffer([1, 2], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            self.chip(pld.window(buf, [1, 2], dtype=pl.INT32), device=r)
)");
  ASSERT_TRUE(p);
  auto decoded = decode_program(*p);
  const DecodedFunction* producer = decoded->find(p->find("producer").get());
  const DecodedFunction* chip = decoded->find(p->find("chip").get());
  const DecodedFunction* host = decoded->find(p->find("host").get());
  ASSERT_TRUE(producer && chip && host);

  // notify's peer: the op call pld.rank(ctx), decoded as an op of its own.
  const DecodedOp& notify = producer->ops[producer->code[1].op];
  const DecodedOperand& peer = producer->operands[notify.first + notify.call->op->param_index("peer")];
  ASSERT_EQ(peer.kind, DecodedOperand::Kind::Tree);
  ASSERT_EQ(producer->exprs[peer.tree].kind, ir::ExprKind::OpCall);
  EXPECT_EQ(producer->ops[producer->exprs[peer.tree].op].call->op->spelling, "pld.rank");

  // spmd_submit: the kernel is a function reference found when decoded; `signal` is its vararg.
  const DecodedOp& submit = chip->ops[chip->code[0].op];
  const DecodedOperand& kernel = chip->operands[submit.first];
  ASSERT_EQ(chip->exprs[kernel.tree].kind, ir::ExprKind::FuncRef);
  EXPECT_EQ(chip->exprs[kernel.tree].callee, p->find("producer").get());
  ASSERT_EQ(submit.n_varargs, 1u);
  EXPECT_EQ(chip->operands[submit.varargs].kind, DecodedOperand::Kind::Var);

  // The loop's stop is pld.world_size(); the call's callee is `chip`, its argument the op call
  // pld.window(...), its device= the last child.
  const DecodedStmt& loop = host->code[1];
  ASSERT_EQ(loop.kind, ir::StmtKind::For);
  ASSERT_EQ(loop.stop.kind, DecodedOperand::Kind::Tree);
  EXPECT_EQ(host->ops[host->exprs[loop.stop.tree].op].call->op->spelling, "pld.world_size");
  const DecodedStmt& call = host->code[2];
  ASSERT_EQ(call.value.kind, DecodedOperand::Kind::Tree);
  const DecodedExpr& fc = host->exprs[call.value.tree];
  ASSERT_EQ(fc.kind, ir::ExprKind::FuncCall);
  EXPECT_EQ(fc.callee, p->find("chip").get());
  ASSERT_EQ(fc.count, 2u);  // the window, device=r
  const DecodedExpr& window = host->exprs[host->children[fc.first]];
  ASSERT_EQ(window.kind, ir::ExprKind::OpCall);
  EXPECT_EQ(host->ops[window.op].call->op->spelling, "pld.window");
  EXPECT_EQ(host->exprs[host->children[fc.first + 1]].slot, loop.iv_slot);
}

TEST_F(DecodedTest, APlannedTileTargetCarriesItsAddress) {
  ir::Program p = parse(kProgram);
  ASSERT_TRUE(p);
  auto decoded = decode_program(*p);
  EXPECT_EQ(kernel_of(*decoded, *p).code[1].planned_addr, -1);  // not planned: parse only
  transforms::PassContext cx = context();
  ir::Program planned = transforms::run_pipeline(parse(kProgram), cx);
  ASSERT_TRUE(planned) << all_diagnostics();
  auto lowered = decode_program(*planned);
  bool any = false;
  for (const auto& [fn, d] : lowered->functions)
    for (const DecodedStmt& s : d.code) any = any || s.planned_addr >= 0;
  EXPECT_TRUE(any) << "plan-memory placed no tile of the lowered program";
}

// Operands are found by the key of their parameter's name, so keys must tell every op's parameters
// apart; the decoder falls back to names for an op where they do not, which no op should need.
TEST(DecodedKeys, EveryOpsParametersHaveDistinctKeys) {
  for (const ir::OpInfo& op : ir::all_ops()) {
    std::set<uint32_t> keys;
    for (const ir::OpParam& param : op.params)
      EXPECT_TRUE(keys.insert(slot_key(param.name)).second) << op.spelling << ": " << param.name;
  }
}

}  // namespace
}  // namespace ptodist::runtime
