// Check mode's happens-before tracker driven directly (no scheduler): release/acquire through
// notify/wait, the fence and invalidate edges, atomic adds, transfers and their buffers, sessions,
// and signals left from an earlier round; each hazard's report names both lines.
#include <gtest/gtest.h>

#include <vector>

#include "../../src/runtime/check/happens_before.h"

namespace ptodist::runtime::check {
namespace {

// Two ranks, one vector core each (actors 0 and 1), a data segment 0 and a signal segment 1.
class CheckHb : public ::testing::Test {
 protected:
  CheckHb() : file_("k.py", "line 1\n    pl.store(t, [0, 0], dst)\n    notify()\n    wait()\n    load()\n") {
    WorldOptions o;
    o.ranks = 2;
    world_ = std::make_unique<World>(o);
    hb_ = std::make_unique<HappensBefore>(*world_);
    hb_->begin_round(0, true);
    hb_->actor_started(kDriver, kDriver, 0, "host orchestrator");
    hb_->actor_started(0, kDriver, 0, "vector core 0 (block 0/1 of k)");
    hb_->actor_started(1, kDriver, 1, "vector core 0 (block 0/1 of k)");
  }

  Access at(int line, std::string op, std::string what, long long base = 0) {
    return Access{SourceSpan{&file_, line, 5, 9}, std::move(op), std::move(what), base};
  }
  // Rank 0 puts 64 bytes into rank 1's `dst`, optionally fences, and notifies rank 1's cell.
  void publish(bool fence) {
    hb_->window_write(0, 1, WindowAddr{0, 0}, 64, false, at(2, "pld.tile.put", "dst"));
    if (fence) hb_->fence(0);
    hb_->notify(0, 1, kCell, 1, true, at(3, "pld.system.notify", "signal"));
  }
  void consume(bool wait, bool invalidate) {
    if (wait) hb_->wait_satisfied(1, 1, kCell, 1, 1, true, at(4, "pld.system.wait", "signal[0, 0]"));
    if (invalidate) hb_->invalidate(1);
    hb_->window_read(1, 1, WindowAddr{0, 0}, 64, at(5, "pl.load", "dst"));
  }
  std::string report() const { return world_->hang_report(); }

  static constexpr WindowAddr kCell{1, 0};
  SourceFile file_;
  std::unique_ptr<World> world_;
  std::unique_ptr<HappensBefore> hb_;
};

TEST_F(CheckHb, NotifyWaitReleasesAndAcquiresFencedWrites) {
  publish(true);
  consume(true, true);
  EXPECT_FALSE(world_->hazard()) << report();
}

TEST_F(CheckHb, MissingFenceIsAnUnorderedRead) {
  publish(false);
  consume(true, true);
  ASSERT_TRUE(world_->hazard());
  EXPECT_NE(report().find("k.py:5:5: error: check: unordered read of window data: rank 1, vector core 0 "
                          "(block 0/1 of k) reads bytes [0, 64) of 'dst' in rank 1's window"),
            std::string::npos)
      << report();
  EXPECT_NE(
      report().find("k.py:2:5: note: written by rank 0, vector core 0 (block 0/1 of k) (pld.tile.put); "
                    "nothing orders that write before the read: no fence between the write and the notify"),
      std::string::npos)
      << report();
}

TEST_F(CheckHb, MissingInvalidateIsAnUnorderedRead) {
  publish(true);
  consume(true, false);
  ASSERT_TRUE(world_->hazard());
  EXPECT_NE(report().find("no cacheinvalid after the wait"), std::string::npos) << report();
}

TEST_F(CheckHb, ReadBeforeTheWaitIsAnUnorderedRead) {
  publish(true);
  consume(false, true);
  ASSERT_TRUE(world_->hazard());
  EXPECT_NE(report().find("no wait acquires it"), std::string::npos) << report();
}

TEST_F(CheckHb, ReadBeforeTheWriteLandsIsReportedAtTheWrite) {
  consume(false, true);  // rank 1 reads first: it sees the bytes before rank 0's put
  EXPECT_FALSE(world_->hazard());
  publish(true);
  ASSERT_TRUE(world_->hazard());
  EXPECT_NE(report().find("k.py:5:5: error: check: unordered read of window data: rank 1, vector core 0 "
                          "(block 0/1 of k) reads bytes [0, 64) of 'dst' in rank 1's window"),
            std::string::npos)
      << report();
  EXPECT_NE(report().find("k.py:2:5: note: written by rank 0, vector core 0 (block 0/1 of k) (pld.tile.put); "
                          "nothing orders that write before the read: no wait acquires it"),
            std::string::npos)
      << report();
}

TEST_F(CheckHb, WriteAfterAReadReleasedByANotifyIsOrdered) {
  // Rank 1 reads its window and tells rank 0 the slot is free (reads need no fence); rank 0 refills it.
  hb_->window_read(1, 1, WindowAddr{0, 0}, 64, at(5, "pl.load", "dst"));
  hb_->notify(1, 0, kCell, 1, true, at(3, "pld.system.notify", "signal"));
  hb_->wait_satisfied(0, 0, kCell, 1, 1, true, at(4, "pld.system.wait", "signal[0, 0]"));
  hb_->window_write(0, 1, WindowAddr{0, 0}, 64, false, at(2, "pld.tile.put", "dst"));
  EXPECT_FALSE(world_->hazard()) << report();
}

TEST_F(CheckHb, OwnWritesAreAlwaysVisible) {
  hb_->window_write(1, 1, WindowAddr{0, 0}, 64, false, at(2, "pl.store", "dst"));
  hb_->window_read(1, 1, WindowAddr{0, 16}, 16, at(5, "pl.load", "dst"));
  hb_->window_write(1, 1, WindowAddr{0, 0}, 64, false, at(2, "pl.store", "dst"));
  EXPECT_FALSE(world_->hazard()) << report();
}

TEST_F(CheckHb, AtomicAddsDoNotRaceButAPlainWriteDoes) {
  hb_->window_write(0, 1, WindowAddr{0, 0}, 64, true, at(2, "pld.tile.put", "dst"));
  hb_->window_write(1, 1, WindowAddr{0, 0}, 64, true, at(2, "pld.tile.put", "dst"));
  EXPECT_FALSE(world_->hazard()) << report();
  hb_->window_write(0, 1, WindowAddr{0, 8}, 8, false, at(3, "pld.tile.remote_store", "dst"));
  ASSERT_TRUE(world_->hazard());
  EXPECT_NE(report().find("k.py:3:5: error: check: write/write race on window data: rank 0, vector core 0 "
                          "(block 0/1 of k) writes bytes [8, 16) of 'dst' in rank 1's window"),
            std::string::npos)
      << report();
  EXPECT_NE(report().find("k.py:2:5: note: also written by rank 1, vector core 0 (block 0/1 of k) "
                          "(pld.tile.put), unordered with this write"),
            std::string::npos)
      << report();
}

TEST_F(CheckHb, EveryAtomicAddMustBeOrderedBeforeTheRead) {
  hb_->actor_started(2, kDriver, 0, "vector core 1 (block 0/1 of k2)");
  // Core 2's add lands first and is never published; core 0's add is published, and is the last.
  hb_->window_write(2, 1, WindowAddr{0, 0}, 64, true, at(3, "pld.tile.put", "dst"));
  hb_->window_write(0, 1, WindowAddr{0, 0}, 64, true, at(2, "pld.tile.put", "dst"));
  hb_->fence(0);
  hb_->notify(0, 1, kCell, 1, true, at(3, "pld.system.notify", "signal"));
  consume(true, true);
  ASSERT_TRUE(world_->hazard());
  EXPECT_NE(
      report().find("k.py:3:5: note: written by rank 0, vector core 1 (block 0/1 of k2) (pld.tile.put)"),
      std::string::npos)
      << report();
}

TEST_F(CheckHb, PublishedAtomicAddsAreAllAcquired) {
  hb_->actor_started(2, kDriver, 0, "vector core 1 (block 0/1 of k2)");
  for (ActorId a : {2, 0}) {
    hb_->window_write(a, 1, WindowAddr{0, 0}, 64, true, at(2, "pld.tile.put", "dst"));
    hb_->fence(a);
    hb_->notify(a, 1, kCell, 1, true, at(3, "pld.system.notify", "signal"));
  }
  hb_->wait_satisfied(1, 1, kCell, 2, 2, true, at(4, "pld.system.wait", "signal[0, 0]"));
  hb_->invalidate(1);
  hb_->window_read(1, 1, WindowAddr{0, 0}, 64, at(5, "pl.load", "dst"));
  // A plain write after both adds, ordered after them, starts the bytes afresh.
  hb_->window_write(1, 1, WindowAddr{0, 0}, 64, false, at(5, "pl.store", "dst"));
  EXPECT_FALSE(world_->hazard()) << report();
}

TEST_F(CheckHb, WriteAfterAnAcquiringWaitDoesNotRace) {
  publish(true);
  hb_->wait_satisfied(1, 1, kCell, 1, 1, true, at(4, "pld.system.wait", "signal[0, 0]"));
  // No invalidate: writes need only the acquisition, reads need the invalidate too.
  hb_->window_write(1, 1, WindowAddr{0, 0}, 64, false, at(2, "pl.store", "dst"));
  EXPECT_FALSE(world_->hazard()) << report();
}

TEST_F(CheckHb, JoinOrdersTheFinishedActorsWrites) {
  hb_->window_write(0, 0, WindowAddr{0, 0}, 64, false, at(2, "pl.store", "dst"));
  hb_->actor_joined(kDriver, 0);
  hb_->actor_started(2, kDriver, 0, "vector core 1 (block 0/1 of k2)");
  hb_->window_read(2, 0, WindowAddr{0, 0}, 64, at(5, "pl.load", "dst"));
  EXPECT_FALSE(world_->hazard()) << report();
}

// ---- signals across rounds ----

TEST_F(CheckHb, SignalLeftFromAnEarlierRoundSatisfiesAWait) {
  hb_->notify(0, 1, kCell, 1, true, at(3, "pld.system.notify", "signal"));
  hb_->wait_satisfied(1, 1, kCell, 1, 1, true, at(4, "pld.system.wait", "signal[0, 0]"));
  EXPECT_FALSE(world_->hazard());
  hb_->begin_round(1, false);
  hb_->actor_started(0, kDriver, 0, "vector core 0 (block 0/1 of k)");
  hb_->actor_started(1, kDriver, 1, "vector core 0 (block 0/1 of k)");
  hb_->wait_satisfied(1, 1, kCell, 1, 1, true, at(4, "pld.system.wait", "signal[0, 0]"));
  ASSERT_TRUE(world_->hazard());
  EXPECT_NE(
      report().find("k.py:4:5: error: check: wait satisfied by a signal value left from an earlier round: "
                    "rank 1, vector core 0 (block 0/1 of k) sees 1 in 'signal' [0, 0] but this round's "
                    "notifies add up to only 0"),
      std::string::npos)
      << report();
  EXPECT_NE(report().find("k.py:3:5: note: notified in round 0 by rank 0"), std::string::npos) << report();
}

TEST_F(CheckHb, ZeroedWindowsAndResetsForgetEarlierRounds) {
  hb_->notify(0, 1, kCell, 1, true, at(3, "pld.system.notify", "signal"));
  hb_->begin_round(1, true);
  hb_->notify(0, 1, kCell, 1, true, at(3, "pld.system.notify", "signal"));
  hb_->wait_satisfied(1, 1, kCell, 1, 1, true, at(4, "pld.system.wait", "signal[0, 0]"));
  // Persistent windows, but the core resets the cell with a plain store.
  hb_->window_write(1, 1, kCell, 4, false, at(2, "pl.write", "signal"));
  hb_->begin_round(2, false);
  hb_->notify(0, 1, kCell, 1, true, at(3, "pld.system.notify", "signal"));
  hb_->wait_satisfied(1, 1, kCell, 1, 1, true, at(4, "pld.system.wait", "signal[0, 0]"));
  EXPECT_FALSE(world_->hazard()) << report();
}

// ---- transfers ----

class CheckHbTransfer : public CheckHb {
 protected:
  CheckHbTransfer() : scratch_(256), staging_(1024) {
    session_ = std::make_shared<AsyncSessionState>();
    session_->scratch.data = scratch_.data();
    session_->scratch.dtype = ir::DType::INT8;
    session_->scratch.shape = {1, 256};
    session_->rank = 0;
    hb_->session_initialised(0, 0, *session_, at(2, "pld.system.async_session", "sess"));
  }
  TransferId put_async(const std::byte* local, WindowAddr local_window) {
    DmaTransfer t;
    t.is_put = true;
    t.peer = 1;
    t.remote = WindowAddr{0, 0};
    t.local = const_cast<std::byte*>(local);
    t.local_window = local_window;
    t.bytes = 64;
    t.session = session_;
    t.seq = ++session_->issued;
    return hb_->transfer_issued(0, t, at(2, "pld.tensor.put_async", "dst"));
  }

  std::vector<std::byte> scratch_, staging_;
  std::shared_ptr<AsyncSessionState> session_;
};

TEST_F(CheckHbTransfer, WaitedTransferIsPublishedByTheNotify) {
  TransferId t = put_async(staging_.data(), WindowAddr{});
  hb_->transfer_piece(t, 32, 32);
  hb_->transfer_piece(t, 0, 32);
  hb_->transfer_completed(t);
  hb_->event_waited(0, t);
  hb_->fence(0);
  hb_->notify(0, 1, kCell, 1, true, at(3, "pld.system.notify", "signal"));
  consume(true, true);
  EXPECT_FALSE(world_->hazard()) << report();
  EXPECT_EQ(hb_->shadow_intervals(1, 0), 1);
}

TEST_F(CheckHbTransfer, NotifyBeforeTheEventWaitIsAnUnorderedRead) {
  TransferId t = put_async(staging_.data(), WindowAddr{});
  hb_->fence(0);
  hb_->notify(0, 1, kCell, 1, true, at(3, "pld.system.notify", "signal"));
  hb_->transfer_piece(t, 0, 64);
  consume(true, true);
  ASSERT_TRUE(world_->hazard());
  EXPECT_NE(report().find(
                "note: written by rank 0, vector core 0 (block 0/1 of k) (pld.tensor.put_async); nothing "
                "orders that write before the read: the transfer's event is not waited before the notify"),
            std::string::npos)
      << report();
}

TEST_F(CheckHbTransfer, ReadOfAnUnwaitedPutsDestinationBeforeItLands) {
  put_async(staging_.data(), WindowAddr{});
  hb_->fence(0);
  hb_->notify(0, 1, kCell, 1, true, at(3, "pld.system.notify", "signal"));
  consume(true, true);  // nothing has landed: the read is reported all the same
  ASSERT_TRUE(world_->hazard());
  EXPECT_NE(report().find("reads bytes [0, 64) of 'dst' in rank 1's window"), std::string::npos) << report();
  EXPECT_NE(report().find("the transfer's event is not waited before the notify"), std::string::npos)
      << report();
}

TEST_F(CheckHbTransfer, TransferReadsTheIssuersEarlierWindowWrites) {
  hb_->window_write(0, 0, WindowAddr{2, 0}, 64, false, at(2, "pl.store", "src"));
  TransferId t = put_async(nullptr, WindowAddr{2, 0});
  hb_->transfer_piece(t, 0, 64);
  EXPECT_FALSE(world_->hazard()) << report();
  // A put from a window another rank wrote, unordered: the DMA's read is reported.
  hb_->window_write(1, 0, WindowAddr{3, 0}, 64, false, at(5, "pld.tile.put", "src2"));
  TransferId u = put_async(nullptr, WindowAddr{3, 0});
  hb_->transfer_piece(u, 0, 64);
  ASSERT_TRUE(world_->hazard());
  EXPECT_NE(
      report().find("rank 0, DMA of vector core 0 (block 0/1 of k) reads bytes [0, 64) of 'dst' in rank 0's "
                    "window"),
      std::string::npos)
      << report();
}

TEST_F(CheckHbTransfer, TransfersOfOneSessionAreOrderedInIssueOrder) {
  TransferId first = put_async(staging_.data(), WindowAddr{});
  TransferId second = put_async(staging_.data() + 64, WindowAddr{});
  hb_->transfer_piece(first, 0, 64);
  hb_->transfer_piece(second, 0, 64);  // same destination bytes: the channel runs them in order
  EXPECT_FALSE(world_->hazard()) << report();
}

TEST_F(CheckHbTransfer, SourceWindowRefilledInFlight) {
  TransferId t = put_async(nullptr, WindowAddr{2, 0});
  hb_->window_write(0, 0, WindowAddr{2, 32}, 64, false, at(5, "pl.store", "src"));
  ASSERT_TRUE(world_->hazard());
  EXPECT_NE(report().find(
                "k.py:5:5: error: check: buffer of an in-flight transfer overwritten: rank 0, vector core "
                "0 (block 0/1 of k) writes the source bytes [32, 64) of 'src' in rank 0's window while "
                "the transfer issued here is in flight"),
            std::string::npos)
      << report();
  (void)t;
}

TEST_F(CheckHbTransfer, SourceWindowRefilledAfterTheWaitIsFine) {
  TransferId t = put_async(nullptr, WindowAddr{2, 0});
  hb_->transfer_piece(t, 0, 64);
  hb_->event_waited(0, t);
  hb_->window_write(0, 0, WindowAddr{2, 0}, 64, false, at(5, "pl.store", "src"));
  EXPECT_FALSE(world_->hazard()) << report();
}

TEST_F(CheckHbTransfer, CompletionWordOverwrittenInFlight) {
  put_async(staging_.data(), WindowAddr{});
  hb_->tile_written(0, scratch_.data() + 64, 128, at(5, "pl.load", "t"));
  ASSERT_TRUE(world_->hazard());
  EXPECT_NE(report().find(
                "k.py:5:5: error: check: buffer of an in-flight transfer overwritten: rank 0, vector core "
                "0 (block 0/1 of k) writes the completion word (session scratch, sync_id=0) while the "
                "transfer issued here is in flight"),
            std::string::npos)
      << report();
  EXPECT_NE(report().find("k.py:2:5: note: the transfer is issued here"), std::string::npos) << report();
}

TEST_F(CheckHbTransfer, LocalGmSourceOverwrittenInFlight) {
  // A non-window source is the issuer's local GM: a store into it in flight is reported, a tile result
  // (on-chip memory) is not a write of it.
  TransferId t = put_async(staging_.data(), WindowAddr{});
  long long base = reinterpret_cast<long long>(staging_.data());
  hb_->tile_written(0, staging_.data() + 60, 8, at(5, "pl.add", "t"));
  hb_->window_write(0, 0, WindowAddr{kLocalGm, base + 64}, 64, 0, at(5, "pl.store", "x", base));
  EXPECT_FALSE(world_->hazard()) << report();
  hb_->window_write(0, 0, WindowAddr{kLocalGm, base + 60}, 8, 0, at(5, "pl.store", "x", base));
  ASSERT_TRUE(world_->hazard());
  EXPECT_NE(report().find("writes the source bytes [60, 64) of 'x' in rank 0's local GM while the transfer "
                          "issued here is in flight"),
            std::string::npos)
      << report();
  (void)t;
}

TEST_F(CheckHbTransfer, WaitingTheLastEventFreesEveryBufferOfTheSession) {
  put_async(staging_.data(), WindowAddr{});
  TransferId second = put_async(staging_.data() + 64, WindowAddr{});
  hb_->event_waited(0, second);
  hb_->tile_written(0, staging_.data(), 128, at(5, "pl.add", "t"));
  hb_->tile_written(0, scratch_.data(), 4, at(5, "pl.add", "t"));
  EXPECT_FALSE(world_->hazard()) << report();
}

TEST_F(CheckHbTransfer, SessionReinitialisedWhileAnotherSessionsEventIsOutstanding) {
  TransferId t = put_async(staging_.data(), WindowAddr{});
  std::vector<std::byte> other(256);
  AsyncSessionState s2;
  s2.scratch.data = other.data();
  s2.scratch.dtype = ir::DType::INT8;
  s2.scratch.shape = {1, 256};
  s2.sync_id = 1;  // another channel group: fine
  hb_->session_initialised(0, 0, s2, at(3, "pld.system.async_session", "sess2"));
  EXPECT_FALSE(world_->hazard());
  s2.sync_id = 0;
  hb_->session_initialised(0, 0, s2, at(4, "pld.system.async_session", "sess2"));
  ASSERT_TRUE(world_->hazard());
  EXPECT_NE(
      report().find("k.py:4:5: error: check: async session re-initialised on channel group 0 while another "
                    "session's event is outstanding"),
      std::string::npos)
      << report();
  EXPECT_NE(report().find("k.py:2:5: note: outstanding event issued here"), std::string::npos) << report();
  (void)t;
}

TEST_F(CheckHbTransfer, SessionAfterTheWaitIsFine) {
  TransferId t = put_async(staging_.data(), WindowAddr{});
  hb_->event_waited(0, t);
  AsyncSessionState s2;
  s2.scratch = session_->scratch;
  hb_->session_initialised(0, 0, s2, at(4, "pld.system.async_session", "sess2"));
  EXPECT_FALSE(world_->hazard()) << report();
}

}  // namespace
}  // namespace ptodist::runtime::check
