// The check-mode scheduler through the runtime: a seed fixes the interleaving (and so the outputs and
// the report), different seeds explore different orders, transfers landed in pieces are never lost,
// a two-rank wait cycle and an over-budget manual scope end as deadlock reports, and an error
// raised while other cores are blocked ends the round instead of hanging.
#include <gtest/gtest.h>

#include <set>

#include "ptodist/frontend/parser.h"
#include "ptodist/runtime/host_io.h"
#include "ptodist/runtime/runtime.h"
#include "ptodist/transforms/pass.h"

namespace ptodist::runtime {
namespace {

// Each rank puts its row to the next rank in pieces of 16 bytes on the DMA engine, overlapping local
// work, waits for its own transfer, then publishes it with a notify.
const char* kRing = R"(import pypto.language as pl
import pypto.language.distributed as pld

SIZE = 64


@pl.jit.incore
def step(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    src: pld.DistributedTensor[[1, SIZE], pl.FP32],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(src)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    local = pl.load(x, [0, 0], [1, SIZE])
    src = pl.store(local, [0, 0], src)
    sess = pld.system.async_session(block_bytes=16)
    evt = pld.tensor.put_async(dst, peer, src, sess)
    pld.system.wait_async_event(evt, sess)
    pld.system.notify(signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
    pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
    recv = pl.load(dst, [0, 0], [1, SIZE])
    y = pl.store(recv, [0, 0], y)
    return y


@pl.jit
def chip(
    x: pl.Tensor[[1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[1, SIZE], pl.FP32]],
    src: pld.DistributedTensor[[1, SIZE], pl.FP32],
    dst: pld.DistributedTensor[[1, SIZE], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    return step(x, y, src, dst, signal)


@pl.jit.host
def ring(
    x: pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32],
    y: pl.Out[pl.Tensor[[pl.dynamic("NR"), 1, SIZE], pl.FP32]],
):
    src_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    dst_buf = pld.alloc_window_buffer([1, SIZE], dtype=pl.FP32)
    signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        src = pld.window(src_buf, [1, SIZE], dtype=pl.FP32)
        dst = pld.window(dst_buf, [1, SIZE], dtype=pl.FP32)
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        chip(x[r], y[r], src, dst, signal, device=r)
)";

// Every rank waits for its neighbour's signal before sending its own.
const char* kCycle = R"(import pypto.language as pl
import pypto.language.distributed as pld


@pl.jit.incore
def step(
    x: pl.Tensor[[1, 4], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    ctx = pld.get_comm_ctx(signal)
    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)
    pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)
    pld.system.notify(signal, peer=peer, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)


@pl.jit
def chip(
    x: pl.Tensor[[1, 4], pl.FP32],
    signal: pld.DistributedTensor[[1, 1], pl.INT32],
):
    step(x, signal)


@pl.jit.host
def cycle(x: pl.Tensor[[pl.dynamic("NR"), 1, 4], pl.FP32]):
    signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
    for r in pl.range(pld.world_size()):
        signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
        chip(x[r], signal, device=r)
)";

// A consumer on every vector core waits for a producer submitted beside it in one manual scope.
const char* kBudget = R"(import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Budget:
    @pl.function(type=pl.FunctionType.AIV)
    def consumer(self, signal: pld.DistributedTensor[[1, 1], pl.INT32]):
        pld.system.wait(signal, offsets=[0, 0], expected=1, cmp=pld.WaitCmp.Ge)

    @pl.function(type=pl.FunctionType.AIV)
    def producer(self, signal: pld.DistributedTensor[[1, 1], pl.INT32]):
        ctx = pld.get_comm_ctx(signal)
        pld.system.notify(signal, peer=pld.rank(ctx), offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, signal: pld.DistributedTensor[[1, 1], pl.INT32]):
        with pl.manual_scope():
            s1, t1 = pl.spmd_submit(self.consumer, signal, core_num=2)
            s2, t2 = pl.spmd_submit(self.producer, signal, core_num=1)

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[2, 1, 4], pl.FP32]):
        signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
            self.chip(signal, device=r)
)";

// The second kernel depends on the first, which fills the chip: its blocks must not take a core
// before their dependency is done, or the first kernel's last block would starve.
const char* kDeps = R"(import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Deps:
    @pl.function(type=pl.FunctionType.AIV)
    def first(self, signal: pld.DistributedTensor[[1, 1], pl.INT32]):
        ctx = pld.get_comm_ctx(signal)
        pld.system.notify(signal, peer=pld.rank(ctx), offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, offsets=[0, 0], expected=2, cmp=pld.WaitCmp.Ge)

    @pl.function(type=pl.FunctionType.AIV)
    def second(self, signal: pld.DistributedTensor[[1, 1], pl.INT32]):
        pld.system.wait(signal, offsets=[0, 0], expected=2, cmp=pld.WaitCmp.Ge)

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(self, signal: pld.DistributedTensor[[1, 1], pl.INT32]):
        with pl.manual_scope():
            s1, t1 = pl.spmd_submit(self.first, signal, core_num=2)
            s2, t2 = pl.spmd_submit(self.second, signal, core_num=2, deps=[t1])

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(self, x: pl.Tensor[[2, 1, 4], pl.FP32]):
        signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
            self.chip(signal, device=r)
)";

struct Compiled {
  SourceManager sources;
  DiagnosticEngine diags;
  ir::Program program;
};

std::unique_ptr<Compiled> compile(const char* text, int ranks, bool pipeline = true) {
  auto c = std::make_unique<Compiled>();
  ir::Module m = frontend::parse_module(*c->sources.add("check.py", text), c->diags);
  EXPECT_TRUE(m) << "parse errors";
  if (!m) return c;
  c->program = m->programs.at(0);
  if (!pipeline) return c;
  transforms::PassContext cx{.diags = c->diags};
  cx.bindings = {{"world_size", ranks}};
  cx.module = m;
  c->program = transforms::run_pipeline(c->program, cx);
  EXPECT_FALSE(c->diags.has_errors());
  return c;
}

struct Outcome {
  RoundResult result;
  std::map<std::string, HostTensor> args;
};

Outcome run(const ir::Program& p, int ranks, RunOptions::Mode mode, uint64_t seed, ChipProfile profile = {}) {
  RunOptions o;
  o.ranks = ranks;
  o.watchdog_seconds = 20;
  o.mode = mode;
  o.seed = seed;
  o.profile = profile;
  Runtime rt(p, o);
  Outcome out;
  EXPECT_EQ(prepare_host_args(*rt.host_function(), ranks, {"x=rand:3"}, out.args), "");
  out.result = rt.run(out.args);
  return out;
}

TEST(CheckScheduler, SameSeedSameInterleavingAndOutputsDifferentSeedsExplore) {
  auto c = compile(kRing, 3);
  ASSERT_TRUE(c->program);
  Outcome fast = run(c->program, 3, RunOptions::Mode::Fast, 0);
  ASSERT_EQ(fast.result.status, RoundResult::Status::Ok) << fast.result.message;
  std::set<uint64_t> digests;
  for (uint64_t seed = 1; seed <= 12; ++seed) {
    Outcome a = run(c->program, 3, RunOptions::Mode::Check, seed);
    Outcome b = run(c->program, 3, RunOptions::Mode::Check, seed);
    ASSERT_EQ(a.result.status, RoundResult::Status::Ok) << a.result.message;
    ASSERT_EQ(b.result.status, RoundResult::Status::Ok) << b.result.message;
    EXPECT_EQ(a.result.schedule_digest, b.result.schedule_digest) << "seed " << seed;
    // Pieces land in any order, at any time: the data still all arrives, as in fast mode.
    EXPECT_EQ(a.args["y"].data, fast.args["y"].data) << "seed " << seed;
    digests.insert(a.result.schedule_digest);
  }
  EXPECT_GT(digests.size(), 6u) << "12 seeds should give several interleavings";
}

TEST(CheckScheduler, RoundsOfOneRuntimeContinueTheSeededStream) {
  auto c = compile(kRing, 2);
  ASSERT_TRUE(c->program);
  RunOptions o;
  o.ranks = 2;
  o.mode = RunOptions::Mode::Check;
  o.seed = 5;
  std::vector<uint64_t> first, second;
  for (auto* digests : {&first, &second}) {
    Runtime rt(c->program, o);
    std::map<std::string, HostTensor> args;
    ASSERT_EQ(prepare_host_args(*rt.host_function(), 2, {}, args), "");
    for (int round = 0; round < 3; ++round) {
      RoundResult r = rt.run(args);
      ASSERT_EQ(r.status, RoundResult::Status::Ok) << r.message;
      digests->push_back(r.schedule_digest);
    }
  }
  EXPECT_EQ(first, second);
}

TEST(CheckScheduler, TwoRankWaitCycleIsADeadlockWithTheCycle) {
  auto c = compile(kCycle, 2);
  ASSERT_TRUE(c->program);
  Outcome a = run(c->program, 2, RunOptions::Mode::Check, 1);
  ASSERT_EQ(a.result.status, RoundResult::Status::Hazard) << a.result.message;
  const std::string& m = a.result.message;
  EXPECT_NE(
      m.find("check.py:12:5: error: check: deadlock: every core is blocked and no transfer is in flight"),
      std::string::npos)
      << m;
  EXPECT_NE(m.find("note: rank 0, vector core 0 (block 0/1 of step) waits in pld.system.wait on signal[0, 0] "
                   "(sees 0, expects >= 1)"),
            std::string::npos)
      << m;
  EXPECT_NE(
      m.find("note: wait-for cycle: rank 0, vector core 0 -> rank 1, vector core 0 -> rank 0, vector core 0"),
      std::string::npos)
      << m;
  // The same seed gives the same report.
  EXPECT_EQ(run(c->program, 2, RunOptions::Mode::Check, 1).result.message, m);
}

TEST(CheckScheduler, OverBudgetBlocksAreACoreBudgetDeadlock) {
  auto c = compile(kBudget, 2, /*pipeline=*/false);
  ASSERT_TRUE(c->program);
  ChipProfile small;
  small.name = "tiny";
  small.vector_cores = 2;
  // Fast mode rejects the scope statically; check mode finds the starved block at run time.
  EXPECT_EQ(run(c->program, 2, RunOptions::Mode::Fast, 0, small).result.status, RoundResult::Status::Error);
  for (uint64_t seed = 1; seed <= 5; ++seed) {
    Outcome a = run(c->program, 2, RunOptions::Mode::Check, seed, small);
    ASSERT_EQ(a.result.status, RoundResult::Status::Hazard) << a.result.message;
    EXPECT_NE(
        a.result.message.find("error: check: core-budget deadlock: kernel 'producer' has 1 block that never "
                              "got a vector core (chip 'tiny' has 2, all held by blocked blocks)"),
        std::string::npos)
        << a.result.message;
    EXPECT_NE(a.result.message.find("waits in pld.system.wait on signal[0, 0]"), std::string::npos);
  }
}

TEST(CheckScheduler, BlocksWithDepsTakeNoCoreBeforeTheirDepsFinish) {
  auto c = compile(kDeps, 2, /*pipeline=*/false);
  ASSERT_TRUE(c->program);
  ChipProfile small;
  small.vector_cores = 2;
  EXPECT_EQ(run(c->program, 2, RunOptions::Mode::Fast, 0, small).result.status, RoundResult::Status::Ok);
  for (uint64_t seed = 1; seed <= 10; ++seed) {
    Outcome a = run(c->program, 2, RunOptions::Mode::Check, seed, small);
    EXPECT_EQ(a.result.status, RoundResult::Status::Ok) << "seed " << seed << ": " << a.result.message;
  }
}

TEST(CheckScheduler, AnErrorWhileOthersAreBlockedEndsTheRound) {
  // Rank 1 waits forever; rank 0 fails on a bad peer: the round must end with the error, not hang.
  std::string text = kCycle;
  const std::string ring_peer = "peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)";
  text.replace(text.find(ring_peer), ring_peer.size(), "peer = pld.rank(ctx) + 7");
  text.replace(text.find("    pld.system.wait("), 0,
               "    if pld.rank(ctx) == 0:\n        pld.system.notify(signal, peer=peer, offsets=[0, 0], "
               "value=1, op=pld.NotifyOp.AtomicAdd)\n");
  auto c = compile(text.c_str(), 2, /*pipeline=*/false);
  ASSERT_TRUE(c->program);
  Outcome a = run(c->program, 2, RunOptions::Mode::Check, 3);
  EXPECT_EQ(a.result.status, RoundResult::Status::Error) << a.result.message;
  EXPECT_NE(a.result.message.find("peer 7 is not a rank"), std::string::npos) << a.result.message;
}

}  // namespace
}  // namespace ptodist::runtime
