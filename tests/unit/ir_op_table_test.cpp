// The op table parsed from ops.def: signatures, defaults, varargs, lookups.
#include <gtest/gtest.h>

#include "ptodist/ir/op_table.h"

namespace ptodist::ir {
namespace {

TEST(IrOpTable, EveryOpHasItsIdAndSpelling) {
  for (size_t k = 0; k < all_ops().size(); ++k) {
    const OpInfo& o = all_ops()[k];
    EXPECT_EQ(static_cast<size_t>(o.id), k);
    EXPECT_EQ(find_op(o.spelling), &o) << o.spelling;
  }
  EXPECT_EQ(find_op("pl.nonexistent"), nullptr);
}

TEST(IrOpTable, ParsesRequiredAndDefaultParams) {
  const OpInfo& load = op_info(OpId::Load);
  ASSERT_EQ(load.params.size(), 6u);
  EXPECT_EQ(load.params[0].name, "tensor");
  EXPECT_TRUE(load.params[2].required);
  EXPECT_FALSE(load.params[3].required);
  EXPECT_EQ(load.params[3].name, "valid_shape");
  EXPECT_EQ(load.params[4].name, "target_memory");
  EXPECT_EQ(load.params[4].default_text, "pl.Mem.Vec");
  EXPECT_EQ(load.varargs_at, -1);
  EXPECT_EQ(load.kwonly_at, -1);
  EXPECT_EQ(load.param_index("shapes"), 2);
  EXPECT_EQ(load.param_index("nope"), -1);
  EXPECT_TRUE(load.has(kReadsGM));
  EXPECT_EQ(load.levels, static_cast<uint32_t>(kInKernel));
}

TEST(IrOpTable, ParsesKeywordOnlyMarker) {
  const OpInfo& store = op_info(OpId::Store);
  ASSERT_EQ(store.params.size(), 5u);
  EXPECT_EQ(store.kwonly_at, 4);
  EXPECT_EQ(store.params[4].name, "atomic");
  EXPECT_EQ(store.positional_limit(), 4u);
  EXPECT_EQ(store.varargs_at, -1);
}

// An alias has its op's id, its own spelling and PyPTO's parameter names for that spelling.
TEST(IrOpTable, AliasesShareTheirOpsId) {
  const OpInfo* full = find_op("pl.tile.full");
  ASSERT_NE(full, nullptr);
  EXPECT_EQ(full->id, OpId::Full);
  EXPECT_TRUE(full->is_alias());
  EXPECT_FALSE(op_info(OpId::Full).is_alias());
  EXPECT_EQ(full->params.size(), 3u);
  const OpInfo* cast = find_op("pl.tile.cast");
  ASSERT_NE(cast, nullptr);
  EXPECT_EQ(cast->params[0].name, "tile");
  EXPECT_EQ(op_info(OpId::Cast).params[0].name, "input");
  for (const OpInfo& a : all_aliases()) {
    EXPECT_EQ(find_op(a.spelling), &a) << a.spelling;
    EXPECT_LE(a.params.size(), op_info(a.id).params.size()) << a.spelling;
  }
}

TEST(IrOpTable, ParsesVarargsAndEmptySignatures) {
  const OpInfo& submit = op_info(OpId::SpmdSubmit);
  ASSERT_EQ(submit.params.size(), 3u);
  EXPECT_EQ(submit.varargs_at, 1);
  EXPECT_EQ(submit.params[1].name, "core_num");
  EXPECT_EQ(submit.params[1].default_text, "1");
  EXPECT_TRUE(op_info(OpId::Fence).params.empty());
  EXPECT_TRUE(op_info(OpId::GetBlockIdx).params.empty());
}

TEST(IrOpTable, PutAsyncSignature) {
  const OpInfo& p = op_info(OpId::PutAsync);
  ASSERT_EQ(p.params.size(), 8u);
  EXPECT_EQ(p.params[3].name, "session");
  EXPECT_TRUE(p.params[3].required);
  EXPECT_EQ(p.params[7].name, "atomic");
  EXPECT_EQ(p.params[7].default_text, "None");
  EXPECT_TRUE(p.has(kAsyncIssue));
}

}  // namespace
}  // namespace ptodist::ir
