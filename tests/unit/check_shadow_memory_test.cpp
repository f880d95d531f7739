// Check mode's shadow window memory: intervals split where a write cuts them, merge with equal
// neighbours, and unordered earlier writes are found (and widened) inside an accessed range.
#include <gtest/gtest.h>

#include "../../src/runtime/check/shadow_memory.h"
#include "../../src/runtime/check/signal_history.h"

namespace ptodist::runtime::check {
namespace {

ShadowWrite by(int comp, uint32_t time, int record = 0, bool atomic = false) {
  return ShadowWrite{Epoch{comp, time}, atomic, record, {}};
}

TEST(CheckShadowMemory, WriteSplitsTheIntervalsItCovers) {
  ShadowSegment s;
  s.record(0, 100, by(1, 1));
  s.record(40, 60, by(2, 1));
  EXPECT_EQ(s.intervals(), 3u);
  EXPECT_EQ(s.write_at(39)->epoch.comp, 1);
  EXPECT_EQ(s.write_at(40)->epoch.comp, 2);
  EXPECT_EQ(s.write_at(59)->epoch.comp, 2);
  EXPECT_EQ(s.write_at(60)->epoch.comp, 1);
  EXPECT_FALSE(s.write_at(100).has_value());
  // Overwriting across two intervals leaves the outer pieces.
  s.record(50, 70, by(3, 1));
  EXPECT_EQ(s.intervals(), 4u);
  EXPECT_EQ(s.write_at(49)->epoch.comp, 2);
  EXPECT_EQ(s.write_at(69)->epoch.comp, 3);
  EXPECT_EQ(s.write_at(70)->epoch.comp, 1);
}

TEST(CheckShadowMemory, RowByRowWritesOfOneOpMergeIntoOneInterval) {
  ShadowSegment s;
  for (long long row = 0; row < 64; ++row) s.record(row * 256, row * 256 + 256, by(1, 3, 7));
  EXPECT_EQ(s.intervals(), 1u);
  // Out of order rows merge too, from both sides.
  ShadowSegment t;
  t.record(200, 300, by(1, 1));
  t.record(0, 100, by(1, 1));
  t.record(100, 200, by(1, 1));
  EXPECT_EQ(t.intervals(), 1u);
  // A different write in the middle splits it again; rewriting it as before merges back.
  t.record(100, 200, by(2, 1));
  EXPECT_EQ(t.intervals(), 3u);
  t.record(100, 200, by(1, 1));
  EXPECT_EQ(t.intervals(), 1u);
}

TEST(CheckShadowMemory, FindsTheFirstUnorderedWriteWidenedInsideTheRange) {
  ShadowSegment s;
  s.record(0, 16, by(1, 1));
  s.record(16, 32, by(2, 5));
  s.record(32, 48, by(2, 5, 1));  // same epoch, other record: not widened over
  auto ordered_before_2 = [](const ShadowWrite& w) { return w.epoch.comp != 2; };
  auto hit = s.find_unordered(8, 40, ordered_before_2);
  ASSERT_TRUE(hit.has_value());
  EXPECT_EQ(hit->begin, 16);
  EXPECT_EQ(hit->end, 32);
  auto clipped = s.find_unordered(20, 24, ordered_before_2);
  ASSERT_TRUE(clipped.has_value());
  EXPECT_EQ(clipped->begin, 20);
  EXPECT_EQ(clipped->end, 24);
  EXPECT_FALSE(s.find_unordered(0, 16, ordered_before_2).has_value());
  EXPECT_FALSE(s.find_unordered(48, 4096, ordered_before_2).has_value());
}

TEST(CheckShadowMemory, ReadMarksAccumulatePerComponentAndMerge) {
  IntervalMap<ShadowReads> reads;
  auto mark = [](int comp, uint32_t time) {
    return [=](ShadowReads& r) { r.add(ReadMark{Epoch{comp, time}, 0}); };
  };
  reads.update(0, 64, mark(1, 1));
  reads.update(32, 96, mark(2, 1));
  EXPECT_EQ(reads.intervals(), 3u);  // [0,32) {1}, [32,64) {1,2}, [64,96) {2}
  EXPECT_EQ(reads.value_at(40)->marks.size(), 2u);
  reads.update(64, 96, mark(1, 1));  // now [32, 96) holds {2, 1}... and [32, 64) {1, 2}: different order
  reads.update(0, 96, mark(1, 2));   // a later read of component 1 replaces its mark everywhere
  EXPECT_EQ(reads.value_at(0)->marks[0].epoch.time, 2u);
  EXPECT_EQ(reads.value_at(80)->marks.size(), 2u);
  reads.erase(0, 96);
  EXPECT_EQ(reads.intervals(), 0u);
  // Row-by-row reads of one op merge.
  for (long long row = 0; row < 16; ++row) reads.update(row * 8, row * 8 + 8, mark(3, 1));
  EXPECT_EQ(reads.intervals(), 1u);
}

TEST(CheckShadowMemory, SegmentsAreKeptPerRank) {
  ShadowMemory m;
  m.at(1, 2).record(0, 8, by(1, 1));
  EXPECT_EQ(m.at(1, 2).intervals(), 1u);
  EXPECT_EQ(m.at(0, 2).intervals(), 0u);
  m.clear();
  EXPECT_EQ(m.at(1, 2).intervals(), 0u);
}

TEST(CheckSignalHistory, SetCutsTheHistoryAndPlainStoresReset) {
  SignalHistory h;
  h.notify(0, 1, 0, Contribution{1, true});
  h.notify(0, 1, 0, Contribution{1, true});
  EXPECT_EQ(h.find(0, 1, 0)->size(), 2u);
  h.notify(0, 1, 0, Contribution{5, false});
  EXPECT_EQ(h.find(0, 1, 0)->size(), 1u);
  h.notify(0, 1, 8, Contribution{1, true});
  h.reset_range(0, 1, 0, 4);
  EXPECT_EQ(h.find(0, 1, 0), nullptr);
  EXPECT_NE(h.find(0, 1, 8), nullptr);
}

TEST(CheckSignalHistory, JudgesWhetherThisRoundAloneSatisfiesTheWait) {
  SignalHistory::Cell cell{Contribution{1, true, 0}, Contribution{1, true, 1}};
  WaitVerdict ok = judge_wait(cell, 1, 1, true);
  EXPECT_EQ(ok.stale, nullptr);
  WaitVerdict stale = judge_wait(cell, 1, 2, true);
  EXPECT_EQ(stale.this_round, 1);
  ASSERT_NE(stale.stale, nullptr);
  EXPECT_EQ(stale.stale->round, 0);
  // A Set of this round is the base the adds count from.
  SignalHistory::Cell set{Contribution{3, false, 1}, Contribution{1, true, 1}};
  EXPECT_EQ(judge_wait(set, 1, 4, false).this_round, 4);
  EXPECT_EQ(judge_wait(set, 1, 4, false).stale, nullptr);
}

}  // namespace
}  // namespace ptodist::runtime::check
