// A frame's slots (unbound until set, rebinding replaces, same-kind rebinding and integers release
// what they replace, growing keeps what is bound, reset empties)
// and the operand holder (empty until a value is put in, replaced by the next).
#include <gtest/gtest.h>

#include <memory>

#include "../../src/runtime/exec.h"

namespace ptodist::runtime {
namespace {

TEST(FrameSlots, SlotsAreUnboundUntilSet) {
  FrameSlots slots;
  slots.reset(4);
  for (size_t i = 0; i < 4; ++i) EXPECT_EQ(slots.get(i), nullptr);
  EXPECT_EQ(slots.get(9), nullptr);  // past the frame: unbound, not out of bounds
  slots.set(2, Scalar::of_int(7));
  ASSERT_NE(slots.get(2), nullptr);
  EXPECT_EQ(std::get<Scalar>(*slots.get(2)).i, 7);
  EXPECT_EQ(slots.get(1), nullptr);
}

TEST(FrameSlots, RebindingReplacesTheValueAndItsKind) {
  FrameSlots slots;
  slots.reset(1);
  slots.set(0, Scalar::of_int(1));
  TileValue t;
  t.shape = {2, 3};
  slots.set(0, t);
  const auto* tile = std::get_if<TileValue>(slots.get(0));
  ASSERT_NE(tile, nullptr);
  EXPECT_EQ(tile->numel(), 6);
}

// A tile rebound to a tile and a scalar to a scalar take the typed path; the old value must still go.
TEST(FrameSlots, RebindingToTheSameKindReplacesAndReleasesTheOldValue) {
  auto first = std::make_shared<int>(0), second = std::make_shared<int>(0);
  FrameSlots slots;
  slots.reset(2);
  TileValue t;
  t.storage = first;
  t.shape = {2, 3};
  slots.set(0, TileValue(t));
  t = TileValue{};
  EXPECT_EQ(first.use_count(), 2);  // first, the slot
  TileValue u;
  u.storage = second;
  u.shape = {4};
  slots.set(0, std::move(u));
  EXPECT_EQ(first.use_count(), 1);
  EXPECT_EQ(second.use_count(), 2);
  EXPECT_EQ(std::get<TileValue>(*slots.get(0)).numel(), 4);

  slots.set(1, Scalar::of_float(1.5));
  slots.set(1, Scalar::of_int(9, ir::DType::INT32));
  const Scalar& s = std::get<Scalar>(*slots.get(1));
  EXPECT_EQ(s.dtype, ir::DType::INT32);
  EXPECT_EQ(s.as_int(), 9);
}

TEST(FrameSlots, AnIntegerRebindsAnyBoundValue) {
  auto owner = std::make_shared<int>(0);
  FrameSlots slots;
  slots.reset(2);
  slots.set(0, Scalar::of_int(3));  // unbound
  slots.set(0, Scalar::of_int(4));  // a scalar already
  EXPECT_EQ(std::get<Scalar>(*slots.get(0)).i, 4);
  EXPECT_EQ(std::get<Scalar>(*slots.get(0)).dtype, ir::DType::INT64);
  TileValue t;
  t.storage = owner;
  slots.set(1, std::move(t));
  slots.set(1, Scalar::of_int(5));  // a tile: replaced
  EXPECT_EQ(owner.use_count(), 1);
  EXPECT_EQ(std::get<Scalar>(*slots.get(1)).i, 5);
}

TEST(FrameSlots, ASlotPastTheFrameGrowsItAndKeepsWhatIsBound) {
  FrameSlots slots;
  slots.reset(2);
  TensorView v;
  v.name = "a view whose name does not fit a short string";
  slots.set(0, v);
  slots.set(5, Scalar::of_int(3));
  ASSERT_NE(slots.get(0), nullptr);
  EXPECT_EQ(std::get<TensorView>(*slots.get(0)).name, v.name);
  EXPECT_EQ(std::get<Scalar>(*slots.get(5)).i, 3);
  EXPECT_EQ(slots.get(3), nullptr);
}

TEST(FrameSlots, ResetDestroysBoundValuesAndEmptiesTheFrame) {
  auto owner = std::make_shared<int>(0);
  FrameSlots slots;
  slots.reset(3);
  TileValue t;
  t.storage = owner;
  slots.set(1, t);
  EXPECT_EQ(owner.use_count(), 3);  // owner, t, the slot
  slots.reset(3);
  EXPECT_EQ(owner.use_count(), 2);
  EXPECT_EQ(slots.get(1), nullptr);
}

TEST(OperandHolder, HoldsTheLastValuePutIn) {
  auto owner = std::make_shared<int>(0);
  {
    OperandHolder h;
    TileValue t;
    t.storage = owner;
    const Value& first = h.emplace(t);
    EXPECT_TRUE(std::holds_alternative<TileValue>(first));
    EXPECT_EQ(owner.use_count(), 3);
    const Value& second = h.emplace(Scalar::of_int(4));
    EXPECT_EQ(std::get<Scalar>(second).i, 4);
    EXPECT_EQ(owner.use_count(), 2);  // the tile it held before is gone
  }
  EXPECT_EQ(owner.use_count(), 1);
}

}  // namespace
}  // namespace ptodist::runtime
