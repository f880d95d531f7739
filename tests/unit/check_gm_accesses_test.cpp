// Check mode's happens-before tracker over all GM (docs/checking.md §3): local GM (host tensors,
// kernel parameters) by host address, notifies as writes of their cells, and atomic adds of one
// dtype commuting while adds of two dtypes race.
#include <gtest/gtest.h>

#include <vector>

#include "../../src/runtime/check/happens_before.h"

namespace ptodist::runtime::check {
namespace {

// Two ranks, one vector core each (actors 0 and 1); a local GM tensor `x` of 1 KiB on rank 0.
class CheckGm : public ::testing::Test {
 protected:
  CheckGm() : file_("k.py", "line 1\n    put_async()\n    notify()\n    wait()\n    store()\n"), x_(1024) {
    WorldOptions o;
    o.ranks = 2;
    world_ = std::make_unique<World>(o);
    hb_ = std::make_unique<HappensBefore>(*world_);
    hb_->begin_round(0, true);
    hb_->actor_started(kDriver, kDriver, 0, "host orchestrator");
    hb_->actor_started(0, kDriver, 0, "vector core 0 (block 0/1 of k)");
    hb_->actor_started(1, kDriver, 1, "vector core 0 (block 0/1 of k)");
    session_ = std::make_shared<AsyncSessionState>();
    session_->scratch.data = scratch_.data();
    session_->scratch.dtype = ir::DType::INT8;
    session_->scratch.shape = {1, 256};
  }

  Access at(int line, std::string op, std::string what, long long base = 0) {
    return Access{SourceSpan{&file_, line, 5, 9}, std::move(op), std::move(what), base};
  }
  long long x_base() const { return reinterpret_cast<long long>(x_.data()); }
  WindowAddr x_at(long long offset) const { return WindowAddr{kLocalGm, x_base() + offset}; }
  // Rank 0 puts 64 bytes of its local `x` (from byte 128) to rank 1's window.
  TransferId put_x() {
    DmaTransfer t;
    t.is_put = true;
    t.peer = 1;
    t.remote = WindowAddr{0, 0};
    t.local = x_.data() + 128;
    t.bytes = 64;
    t.session = session_;
    t.seq = ++session_->issued;
    return hb_->transfer_issued(0, t, at(2, "pld.tile.put_async", "dst"),
                                at(2, "pld.tile.put_async", "x", x_base()));
  }
  std::string report() const { return world_->hang_report(); }

  static constexpr WindowAddr kCell{1, 0};
  SourceFile file_;
  std::vector<std::byte> x_;
  std::vector<std::byte> scratch_ = std::vector<std::byte>(256);
  std::shared_ptr<AsyncSessionState> session_;
  std::unique_ptr<World> world_;
  std::unique_ptr<HappensBefore> hb_;
};

TEST_F(CheckGm, LocalGmSourceOverwrittenInFlight) {
  put_x();
  hb_->window_write(0, 0, x_at(160), 64, 0, at(5, "pl.store", "x", x_base()));
  ASSERT_TRUE(world_->hazard());
  EXPECT_NE(
      report().find("k.py:5:5: error: check: buffer of an in-flight transfer overwritten: rank 0, vector "
                    "core 0 (block 0/1 of k) writes the source bytes [160, 192) of 'x' in rank 0's "
                    "local GM while the transfer issued here is in flight"),
      std::string::npos)
      << report();
}

TEST_F(CheckGm, LocalGmSourceRefilledAfterTheWait) {
  TransferId t = put_x();
  hb_->transfer_piece(t, 0, 64);
  hb_->event_waited(0, t);
  hb_->window_write(0, 0, x_at(128), 64, 0, at(5, "pl.store", "x", x_base()));
  // Other bytes of x were never in flight.
  hb_->window_write(0, 0, x_at(0), 128, 0, at(5, "pl.store", "x", x_base()));
  EXPECT_FALSE(world_->hazard()) << report();
}

TEST_F(CheckGm, LocalGmOfTwoRanksIsNotShared) {
  // The same host address written by cores of two ranks: each rank has its own local GM.
  hb_->window_write(0, 0, x_at(0), 64, 0, at(5, "pl.store", "x", x_base()));
  hb_->window_write(1, 1, x_at(0), 64, 0, at(5, "pl.store", "x", x_base()));
  EXPECT_FALSE(world_->hazard()) << report();
}

TEST_F(CheckGm, TwoUnorderedCoresOfOneRankRaceOnLocalGm) {
  hb_->actor_started(2, kDriver, 0, "vector core 1 (block 0/1 of k2)");
  hb_->window_write(0, 0, x_at(64), 64, 0, at(5, "pl.store", "x", x_base()));
  hb_->window_write(2, 0, x_at(96), 64, 0, at(5, "pl.store", "x", x_base()));
  ASSERT_TRUE(world_->hazard());
  EXPECT_NE(report().find("write/write race on local GM data: rank 0, vector core 1 (block 0/1 of k2) writes "
                          "bytes [96, 128) of 'x' in rank 0's local GM"),
            std::string::npos)
      << report();
}

TEST_F(CheckGm, NotifyIsAWriteOfItsCell) {
  hb_->window_read(1, 1, kCell, 4, at(5, "pl.read", "signal"));
  hb_->notify(0, 1, kCell, 1, true, at(3, "pld.system.notify", "signal"));
  ASSERT_TRUE(world_->hazard());
  EXPECT_NE(report().find("unordered read of window data: rank 1, vector core 0 (block 0/1 of k) reads bytes "
                          "[0, 4) of 'signal' in rank 1's window"),
            std::string::npos)
      << report();
  EXPECT_NE(report().find("k.py:3:5: note: written by rank 0"), std::string::npos) << report();
}

TEST_F(CheckGm, ReadOrResetOfACellAfterTheWaitIsOrdered) {
  hb_->notify(0, 1, kCell, 1, false, at(3, "pld.system.notify", "signal"));  // a Set: a plain write
  hb_->wait_satisfied(1, 1, kCell, 1, 1, false, at(4, "pld.system.wait", "signal[0, 0]"));
  hb_->invalidate(1);
  hb_->window_read(1, 1, kCell, 4, at(5, "pl.read", "signal"));
  hb_->window_write(1, 1, kCell, 4, 0, at(5, "pl.write", "signal"));
  EXPECT_FALSE(world_->hazard()) << report();
}

TEST_F(CheckGm, AtomicAddsOfOneDtypeCommuteOfTwoDtypesRace) {
  hb_->actor_started(2, kDriver, 0, "vector core 1 (block 0/1 of k2)");
  int f32 = atomic_add_kind(ir::DType::FP32), i32 = atomic_add_kind(ir::DType::INT32);
  hb_->window_write(0, 1, WindowAddr{0, 0}, 64, f32, at(2, "pld.tile.remote_store", "total"));
  hb_->window_write(2, 1, WindowAddr{0, 0}, 64, f32, at(2, "pld.tile.remote_store", "total"));
  EXPECT_FALSE(world_->hazard()) << report();
  hb_->window_write(1, 1, WindowAddr{0, 32}, 4, i32, at(5, "pld.tile.remote_store", "total_i"));
  ASSERT_TRUE(world_->hazard());
  EXPECT_NE(report().find("write/write race on window data: rank 1, vector core 0 (block 0/1 of k) writes "
                          "bytes [32, 36) of 'total_i' in rank 1's window"),
            std::string::npos)
      << report();
}

}  // namespace
}  // namespace ptodist::runtime::check
