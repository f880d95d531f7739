// The timing model on small recorded streams whose answer is computed by hand (docs/timing.md): one
// transfer on an idle link, two sharing a link, compute hiding a transfer, a notify reaching a wait,
// a kernel's launch and its deps.
#include <gtest/gtest.h>

#include "ptodist/timing/model.h"

namespace ptodist::timing {
namespace {

using runtime::events::Event;
using runtime::events::Kind;
using runtime::events::Space;

// Round figures: 1 GHz, a scalar op costs 1 us, links and the SDMA engine move 1000 bytes per us, a
// transfer starts up in 1 us and lands 2 us after its last byte left; the vector unit does 100 B/cycle.
TimingParams params() {
  TimingParams p;
  p.profile = "test";
  p.clock_ghz = 1;
  p.scalar_op_cycles = 1000;
  p.vector_bytes_per_cycle = 100;
  p.sdma_engines = 1;
  p.sdma_bandwidth_gbps = 1;
  p.sdma_startup_us = 1;
  p.link_bandwidth_gbps = 1;
  p.link_latency_us = 2;
  p.notify_latency_us = 2;
  p.wait_wake_us = 0;
  p.task_launch_us = 0;
  return p;
}

// Builds a recorded stream: each rank's orchestration submits one single-block kernel per core it is
// given and joins them.
class Stream {
 public:
  // A block on `rank`, vector core `core`, of a task the rank's orchestrator submits.
  uint64_t block(int rank, int core) {
    uint64_t task = next_++, actor = next_++;
    tasks_.push_back({rank, task});
    Event e = at(actor, rank, core, Kind::BlockStart);
    e.id = task;
    blocks_.push_back({actor, {e}});
    return actor;
  }
  void issue(uint64_t actor, int rank, int peer, long long bytes, uint64_t id) {
    Event b = op(actor, rank, ir::OpId::TilePutAsync, ir::kWritesRemote | ir::kReadsGM | ir::kAsyncIssue);
    Event t = b;
    t.kind = Kind::TransferIssue;
    t.peer = peer;
    t.bytes = bytes;
    t.id = id;
    push(actor, {b, t, end(b)});
  }
  void wait_transfer(uint64_t actor, int rank, uint64_t id) {
    Event b = op(actor, rank, ir::OpId::TileWaitAsyncEvent, ir::kAsyncWait);
    Event w = b;
    w.kind = Kind::WaitSatisfied;
    w.deps = {id};
    push(actor, {b, w, end(b)});
  }
  // A vector add over `bytes` of FP32 tiles in UB.
  void compute(uint64_t actor, int rank, long long bytes) {
    Event b = op(actor, rank, ir::OpId::Add, ir::kPure);
    Event e = end(b);
    e.result = {Space::Vec, ir::DType::FP32, 1, bytes / 4};
    push(actor, {b, e});
  }
  void notify(uint64_t actor, int rank, int peer, uint64_t id) {
    Event b = op(actor, rank, ir::OpId::Notify, ir::kNotify);
    Event n = b;
    n.kind = Kind::Notify;
    n.peer = peer;
    n.id = id;
    push(actor, {b, n, end(b)});
  }
  void wait_notify(uint64_t actor, int rank, uint64_t id) {
    Event b = op(actor, rank, ir::OpId::Wait, ir::kWait);
    Event w = b;
    w.kind = Kind::WaitSatisfied;
    w.deps = {id};
    push(actor, {b, w, end(b)});
  }
  std::vector<Event> events() const {
    std::vector<Event> out;
    std::map<int, std::vector<uint64_t>> per_rank;
    for (const auto& [rank, task] : tasks_) per_rank[rank].push_back(task);
    for (const auto& [rank, tasks] : per_rank) {
      uint64_t orch = 1000 + static_cast<uint64_t>(rank);
      Event s = at(orch, rank, -1, Kind::ActorStart);
      s.actor.orchestrator = true;
      out.push_back(s);
      for (uint64_t t : tasks) {
        Event sub = s;
        sub.kind = Kind::TaskSubmit;
        sub.id = t;
        sub.cores = 1;
        out.push_back(sub);
      }
      Event join = s;
      join.kind = Kind::TaskJoin;
      join.deps = tasks;
      out.push_back(join);
    }
    for (const auto& [actor, evs] : blocks_) out.insert(out.end(), evs.begin(), evs.end());
    return out;
  }

 private:
  uint64_t next_ = 1;
  std::vector<std::pair<int, uint64_t>> tasks_;
  std::vector<std::pair<uint64_t, std::vector<Event>>> blocks_;

  static Event at(uint64_t actor, int rank, int core, Kind k) {
    Event e;
    e.kind = k;
    e.actor.id = actor;
    e.actor.rank = rank;
    e.actor.core = core;
    e.actor.function = "k";
    return e;
  }
  Event op(uint64_t actor, int rank, ir::OpId id, uint32_t effects) {
    Event e = at(actor, rank, 0, Kind::OpBegin);
    e.op = id;
    e.effects = effects;
    return e;
  }
  static Event end(Event b) {
    b.kind = Kind::OpEnd;
    return b;
  }
  void push(uint64_t actor, std::vector<Event> evs) {
    for (auto& [a, list] : blocks_)
      if (a == actor) list.insert(list.end(), evs.begin(), evs.end());
  }
};

// The stream replayed as `ptodist predict` does: each event handed to a Recorder as it comes.
Prediction predict(const std::vector<Event>& events, int ranks, const TimingParams& p) {
  Recorder r(p);
  for (const Event& e : events) r.on_event(e);
  return r.predict(ranks, true);
}

TEST(TimingModel, OneTransferOnAnIdleLink) {
  Stream s;
  uint64_t a = s.block(0, 0);
  s.issue(a, 0, 1, 10000, 500);  // issued at 1 us (the issue costs a scalar op)
  s.wait_transfer(a, 0, 500);
  Prediction p = predict(s.events(), 2, params());
  ASSERT_TRUE(p.error.empty()) << p.error;
  // 1 (issue) + 1 (start-up) + 10000 B / 1000 B/us + 2 (latency) = 14 us.
  EXPECT_DOUBLE_EQ(p.ranks[0].wall_us, 14);
  EXPECT_DOUBLE_EQ(p.ranks[0].transfer_us, 13);
  EXPECT_DOUBLE_EQ(p.ranks[0].hidden_fraction(), 0);
  EXPECT_DOUBLE_EQ(p.ranks[0].kernels["k"].idle_us, 13);
}

TEST(TimingModel, TwoTransfersShareTheLinkAndTheEngine) {
  Stream s;
  uint64_t a = s.block(0, 0), b = s.block(0, 1);
  s.issue(a, 0, 1, 10000, 500);
  s.issue(b, 0, 1, 10000, 501);
  s.wait_transfer(a, 0, 500);
  s.wait_transfer(b, 0, 501);
  TimingParams p2 = params();
  p2.sdma_engines = 2;  // two engines, one link: the link serialises them
  for (const TimingParams& p : {params(), p2}) {
    Prediction r = predict(s.events(), 2, p);
    ASSERT_TRUE(r.error.empty()) << r.error;
    // The first holds the link over [1, 12), the second over [12, 23) and lands at 25.
    EXPECT_DOUBLE_EQ(r.ranks[0].wall_us, 25);
  }
}

TEST(TimingModel, TransfersToDifferentPeersOverlapOnTwoEngines) {
  Stream s;
  uint64_t a = s.block(0, 0), b = s.block(0, 1);
  s.issue(a, 0, 1, 10000, 500);
  s.issue(b, 0, 2, 10000, 501);
  s.wait_transfer(a, 0, 500);
  s.wait_transfer(b, 0, 501);
  TimingParams p = params();
  p.sdma_engines = 2;
  Prediction r = predict(s.events(), 3, p);
  ASSERT_TRUE(r.error.empty()) << r.error;
  EXPECT_DOUBLE_EQ(r.ranks[0].wall_us, 14);
  p.sdma_engines = 1;  // one engine: the second waits for the first even on another link
  EXPECT_DOUBLE_EQ(predict(s.events(), 3, p).ranks[0].wall_us, 25);
}

TEST(TimingModel, ComputeFullyHidesATransfer) {
  Stream s;
  uint64_t a = s.block(0, 0);
  s.issue(a, 0, 1, 10000, 500);  // in flight over [1, 14)
  s.compute(a, 0, 2000000);      // 2e6 B at 100 B/cycle at 1 GHz: 20 us, over [1, 21)
  s.wait_transfer(a, 0, 500);    // already landed: no wait
  Prediction p = predict(s.events(), 2, params());
  ASSERT_TRUE(p.error.empty()) << p.error;
  EXPECT_DOUBLE_EQ(p.ranks[0].wall_us, 21);
  EXPECT_DOUBLE_EQ(p.ranks[0].transfer_us, 13);
  EXPECT_DOUBLE_EQ(p.ranks[0].hidden_fraction(), 1);
  EXPECT_DOUBLE_EQ(p.ranks[0].kernels["k"].idle_us, 0);
}

TEST(TimingModel, ComputeHidesPartOfATransfer) {
  Stream s;
  uint64_t a = s.block(0, 0);
  s.issue(a, 0, 1, 10000, 500);  // in flight over [1, 14)
  s.compute(a, 0, 500000);       // 5 us: [1, 6)
  s.wait_transfer(a, 0, 500);
  Prediction p = predict(s.events(), 2, params());
  EXPECT_DOUBLE_EQ(p.ranks[0].wall_us, 14);
  EXPECT_DOUBLE_EQ(p.ranks[0].hidden_us, 5);
}

TEST(TimingModel, AWaitEndsWhenItsNotifyArrives) {
  Stream s;
  uint64_t a = s.block(0, 0), b = s.block(1, 0);
  s.compute(a, 0, 1000000);  // 10 us
  s.notify(a, 0, 1, 700);    // sent at 11 (a scalar op), arrives at 13
  s.wait_notify(b, 1, 700);
  Prediction p = predict(s.events(), 2, params());
  ASSERT_TRUE(p.error.empty()) << p.error;
  EXPECT_DOUBLE_EQ(p.ranks[0].wall_us, 11);
  EXPECT_DOUBLE_EQ(p.ranks[1].wall_us, 13);
  // Rank 1 only waited: the path is rank 0's compute and notify, which the wait was bound by.
  ASSERT_FALSE(p.critical_path.empty());
  EXPECT_EQ(p.critical_path.back().rank, 0);
  EXPECT_EQ(p.critical_path.back().what, "pl.add");
  EXPECT_DOUBLE_EQ(p.critical_path.back().end_us, 11);
}

TEST(TimingModel, LaunchCostDelaysEveryBlock) {
  Stream s;
  uint64_t a = s.block(0, 0);
  s.compute(a, 0, 100000);  // 1 us
  TimingParams p = params();
  p.task_launch_us = 5;
  EXPECT_DOUBLE_EQ(predict(s.events(), 1, p).ranks[0].wall_us, 6);
}

}  // namespace
}  // namespace ptodist::timing
