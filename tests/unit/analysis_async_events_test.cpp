// The async-event dataflow: its lattice (join, equality) and the path-sensitive checks, accepted and
// rejected kernels, with the notes that name the issue line and the path that skips the wait.
#include <sstream>

#include "ptodist/analysis/async_events.h"
#include "transforms_test_util.h"

namespace ptodist::transforms::testing {
namespace {

using analysis::EventFact;
using analysis::EventState;

EventState with(int id, uint8_t states, int issue_line = 0) {
  EventState s;
  EventFact f;
  f.name = "e" + std::to_string(id);
  f.states = states;
  f.issue.line = issue_line;
  s.events[id] = f;
  return s;
}

TEST(AsyncEventLattice, JoinIsUnionAndBottomIsNeutral) {
  EventState a = with(1, analysis::kPending, 3), b = with(1, analysis::kDrained);
  EventState j = EventState::join(a, b);
  EXPECT_EQ(j.events.at(1).states, analysis::kPending | analysis::kDrained);
  EXPECT_EQ(j.events.at(1).issue.line, 3);  // the pending side lends its issue
  EXPECT_TRUE(EventState::join(a, EventState::bottom()) == a);
  EXPECT_TRUE(EventState::join(EventState::bottom(), b) == b);
  EXPECT_TRUE(EventState::join(j, a) == j);  // idempotent on what it already holds
  // An event absent on one side was not issued there.
  EventState k = EventState::join(a, EventState{});
  EXPECT_EQ(k.events.at(1).states, analysis::kPending | analysis::kUnissued);
}

TEST(AsyncEventLattice, JoinRecordsThePathThatSkipsTheWait) {
  EventState pending = with(1, analysis::kPending), drained = with(1, analysis::kDrained);
  EventState j = EventState::join(drained, pending, {{}, "then"}, {{}, "else"});
  ASSERT_EQ(j.events.at(1).skip_path.size(), 1u);
  EXPECT_EQ(j.events.at(1).skip_path[0].text, "else");
  EXPECT_EQ(j.str(), "{e1: drained|pending}");
  EXPECT_FALSE(j == drained);
}

const char* kSig =
    "@pl.jit.incore\n"
    "def kernel(\n"
    "    x: pl.Tensor[[1, 256], pl.FP32],\n"
    "    dst: pld.DistributedTensor[[1, 256], pl.FP32],\n"
    "    signal: pld.DistributedTensor[[1, 1], pl.INT32],\n"
    "    n: pl.Scalar[pl.INT64],\n"
    "):\n"
    "    ctx = pld.get_comm_ctx(dst)\n"
    "    peer = (pld.rank(ctx) + 1) % pld.nranks(ctx)\n"
    "    sess = pld.system.async_session()\n";

class AsyncEventsTest : public PassTest {
 protected:
  // Line 15 is the first line of `body` (the imports and the signature take fourteen lines).
  ir::Program check(const std::string& body) {
    return run(std::string(kSig) + body,
               {"specialize", "convert-tensor-to-tile", "bind-async-scratch", "check-async-events"});
  }
  const Diagnostic& first() const { return diags.diagnostics().front(); }
};

TEST_F(AsyncEventsTest, StraightLineIssueComputeWaitNotifyIsAccepted) {
  EXPECT_TRUE(
      check("    evt = pld.tensor.put_async(dst, peer, x, sess)\n"
            "    t = pl.load(x, [0, 0], [1, 256])\n"
            "    pld.system.wait_async_event(evt, sess)\n"
            "    pld.system.notify(signal, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)\n"))
      << all_diagnostics();
}

TEST_F(AsyncEventsTest, NotifyBeforeTheWaitIsRejectedWithTheIssueLine) {
  EXPECT_FALSE(
      check("    evt = pld.tensor.put_async(dst, peer, x, sess)\n"
            "    pld.system.notify(signal, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)\n"
            "    pld.system.wait_async_event(evt, sess)\n"));
  ASSERT_EQ(diags.error_count(), 1) << all_diagnostics();
  EXPECT_EQ(first().span.line, 16);
  EXPECT_NE(first().message.find("notify while async event 'evt' may be outstanding"), std::string::npos);
  ASSERT_FALSE(first().notes.empty());
  EXPECT_EQ(first().notes[0].span.line, 15);
}

TEST_F(AsyncEventsTest, WaitInOneBranchDoesNotDrain) {
  EXPECT_FALSE(
      check("    evt = pld.tensor.put_async(dst, peer, x, sess)\n"
            "    if n > 0:\n"
            "        pld.system.wait_async_event(evt, sess)\n"
            "    pld.system.notify(signal, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)\n"
            "    pld.system.wait_async_event(evt, sess)\n"));
  const std::string all = all_diagnostics();
  EXPECT_NE(all.find("notify while async event 'evt'"), std::string::npos) << all;
  EXPECT_NE(all.find("on the path where this 'if' is not taken"), std::string::npos) << all;
  EXPECT_NE(all.find("may already have been waited on this path"), std::string::npos) << all;
}

TEST_F(AsyncEventsTest, WaitsInBothBranchesDrain) {
  EXPECT_TRUE(
      check("    evt = pld.tensor.put_async(dst, peer, x, sess)\n"
            "    if n > 0:\n"
            "        pld.system.wait_async_event(evt, sess)\n"
            "    else:\n"
            "        pld.system.wait_async_event(evt, sess)\n"
            "    pld.system.notify(signal, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)\n"))
      << all_diagnostics();
}

TEST_F(AsyncEventsTest, IssueAndWaitInTheSameIterationAreAccepted) {
  EXPECT_TRUE(
      check("    for i in pl.range(n):\n"
            "        evt = pld.tensor.put_async(dst, peer, x, sess)\n"
            "        pld.system.wait_async_event(evt, sess)\n"
            "        pld.system.notify(signal, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)\n"))
      << all_diagnostics();
}

TEST_F(AsyncEventsTest, WaitInALoopOfPositiveConstantTripCountDrains) {
  EXPECT_TRUE(
      check("    evt = pld.tensor.put_async(dst, peer, x, sess)\n"
            "    for i in pl.range(1):\n"
            "        pld.system.wait_async_event(evt, sess)\n"
            "    pld.system.notify(signal, peer, [0, 0], 1, op=pld.NotifyOp.AtomicAdd)\n"))
      << all_diagnostics();
}

TEST_F(AsyncEventsTest, WaitInALoopThatMayRunZeroTimesDoesNotDrain) {
  EXPECT_FALSE(
      check("    evt = pld.tensor.put_async(dst, peer, x, sess)\n"
            "    for i in pl.range(n):\n"
            "        t = pl.load(x, [0, 0], [1, 256])\n"
            "    for j in pl.range(n):\n"
            "        pld.system.wait_async_event(evt, sess)\n"));
  const std::string all = all_diagnostics();
  EXPECT_NE(all.find("may be outstanding at the end of kernel 'kernel'"), std::string::npos) << all;
  EXPECT_NE(all.find("may run zero times"), std::string::npos) << all;
  // The loop also waits twice when it runs twice.
  EXPECT_NE(all.find("may already have been waited"), std::string::npos) << all;
}

TEST_F(AsyncEventsTest, WaitTwiceInAConstantLoopIsADoubleWait) {
  EXPECT_FALSE(
      check("    evt = pld.tensor.put_async(dst, peer, x, sess)\n"
            "    for i in pl.range(2):\n"
            "        pld.system.wait_async_event(evt, sess)\n"));
  EXPECT_NE(first_error().find("may already have been waited on this path"), std::string::npos)
      << all_diagnostics();
}

TEST_F(AsyncEventsTest, EventNeverWaitedIsReportedAtTheEnd) {
  EXPECT_FALSE(
      check("    evt = pld.tensor.put_async(dst, peer, x, sess)\n"
            "    t = pl.load(x, [0, 0], [1, 256])\n"));
  EXPECT_NE(first_error().find("may be outstanding at the end of kernel 'kernel'"), std::string::npos);
  EXPECT_EQ(first().span.line, 16);
  EXPECT_EQ(first().notes.at(0).span.line, 15);
}

TEST_F(AsyncEventsTest, ReissueWhileOutstandingIsRejected) {
  EXPECT_FALSE(
      check("    evt = pld.tensor.put_async(dst, peer, x, sess)\n"
            "    for i in pl.range(n):\n"
            "        evt = pld.tensor.put_async(dst, peer, x, sess)\n"
            "    pld.system.wait_async_event(evt, sess)\n"));
  EXPECT_NE(first_error().find("issued again while its previous transfer may be outstanding"),
            std::string::npos)
      << all_diagnostics();
}

TEST_F(AsyncEventsTest, DeeplyNestedLoopsFinishQuickly) {
  std::string body;
  std::string indent = "    ";
  for (int d = 0; d < 14; ++d) {
    body += indent + "for i" + std::to_string(d) + " in pl.range(" + (d % 2 ? "n" : "8") + "):\n";
    indent += "    ";
  }
  body += indent + "evt = pld.tensor.put_async(dst, peer, x, sess)\n";
  body += indent + "if n > 3:\n" + indent + "    pld.system.wait_async_event(evt, sess)\n";
  body += indent + "else:\n" + indent + "    pld.system.wait_async_event(evt, sess)\n";
  EXPECT_TRUE(check(body)) << all_diagnostics();
}

TEST_F(AsyncEventsTest, PrintsFactsInSourceOrder) {
  ir::Program p = parse(std::string(kSig) +
                        "    evt = pld.tensor.put_async(dst, peer, x, sess)\n"
                        "    if n > 0:\n"
                        "        pld.system.wait_async_event(evt, sess)\n"
                        "    else:\n"
                        "        pld.system.wait_async_event(evt, sess)\n");
  ASSERT_TRUE(p);
  std::ostringstream os;
  PassContext cx = context();
  cx.analysis_out = &os;
  ASSERT_TRUE(run_passes(
      p, {"specialize", "convert-tensor-to-tile", "bind-async-scratch", "print-async-events"}, cx));
  EXPECT_EQ(os.str(),
            "// async events of kernel 'kernel':\n"
            "//   15:5 issue evt: {evt: pending}\n"
            "//   16:5 after if: {evt: drained}\n"
            "//   16:5 end of kernel: {evt: drained}\n"
            "//   17:9 wait evt: {evt: drained}\n"
            "//   19:9 wait evt: {evt: drained}\n");
}

}  // namespace
}  // namespace ptodist::transforms::testing
