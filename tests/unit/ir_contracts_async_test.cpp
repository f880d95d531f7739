// Contracts of the async put family (DESIGN.md section 4), built directly through the Builder.
#include "ir_test_util.h"

namespace ptodist::ir::testing {
namespace {

using IrAsync = IrTest;

TEST_F(IrAsync, SessionSyncIdAndBlockBytes) {
  Expr s = call("pld.system.async_session", {}, {{"sync_id", i(3)}});
  ASSERT_TRUE(s) << first_error();
  EXPECT_EQ(s->type->kind, TypeKind::AsyncSession);
  EXPECT_FALSE(call("pld.system.async_session", {}, {{"sync_id", i(8)}}));
  EXPECT_EQ(first_error(),
            "pld.system.async_session: 'sync_id' must be in [0, 7] (one of the chip's DMA channel "
            "groups), got 8");
  diags.clear();
  EXPECT_FALSE(call("pld.system.async_session", {}, {{"block_bytes", i(0)}}));
  EXPECT_EQ(first_error(), "pld.system.async_session: 'block_bytes' must be positive, got 0");
}

TEST_F(IrAsync, SessionOnlyInInCoreOrAivKernels) {
  scope.function_kind = FunctionKind::AIC;
  scope.function_name = "cube";
  EXPECT_FALSE(call("pld.system.async_session", {}));
  EXPECT_EQ(first_error().rfind("pld.system.async_session: not allowed in an AIC (cube) kernel 'cube'", 0),
            0u);
  diags.clear();
  scope.function_kind = FunctionKind::Orchestration;
  EXPECT_FALSE(call("pld.system.async_session", {}));
  EXPECT_EQ(first_error().rfind("pld.system.async_session: not allowed in an orchestration function", 0), 0u);
}

TEST_F(IrAsync, PutAsyncAcceptsARowWindow) {
  Expr e = call("pld.tensor.put_async", {dist({4, 256}), i(1), tensor({4, 256}), session()},
                {{"dst_offsets", ints({1, 0})}, {"src_offsets", ints({2, 0})}, {"shape", ints({1, 256})}});
  ASSERT_TRUE(e) << first_error();
  EXPECT_EQ(e->type->kind, TypeKind::AsyncEvent);
  EXPECT_TRUE(call("pld.tensor.put_async", {dist({4, 256}), i(1), tensor({4, 256}), session()}));
}

TEST_F(IrAsync, PutAsyncDstMustBeWindowBacked) {
  EXPECT_FALSE(call("pld.tensor.put_async", {tensor({4, 256}), i(1), tensor({4, 256}), session()}));
  EXPECT_EQ(first_error(),
            "pld.tensor.put_async: 'dst' must be a pld.DistributedTensor (window-backed, so the DMA "
            "engine can write the peer's copy), got pl.Tensor[[4, 256], pl.FP16]");
}

TEST_F(IrAsync, PutAsyncRejectsComputedTile) {
  EXPECT_FALSE(call("pld.tensor.put_async", {dist({4, 256}), i(1), tile({4, 256}), session()}));
  EXPECT_EQ(first_error(),
            "pld.tensor.put_async: 'src' must be a tensor in GM, got a computed tile "
            "pl.Tile[[4, 256], pl.FP16, pl.Mem.Vec]; store it to a tensor first");
}

TEST_F(IrAsync, PutAsyncDtypes) {
  EXPECT_FALSE(
      call("pld.tensor.put_async", {dist({4, 256}), i(1), tensor({4, 256}, DType::FP32), session()}));
  EXPECT_EQ(first_error(),
            "pld.tensor.put_async: 'src' dtype pl.FP32 must match 'dst' dtype pl.FP16 (transfers copy "
            "bytes and do not convert)");
}

TEST_F(IrAsync, PutAsyncRegionOperandsTogether) {
  EXPECT_FALSE(call("pld.tensor.put_async", {dist({4, 256}), i(1), tensor({4, 256}), session()},
                    {{"dst_offsets", ints({0, 0})}, {"shape", ints({1, 256})}}));
  EXPECT_EQ(first_error(),
            "pld.tensor.put_async: 'dst_offsets', 'src_offsets' and 'shape' must be given together or "
            "not at all; 'src_offsets' is missing");
}

TEST_F(IrAsync, PutAsyncRankMismatchIsCheckedFirst) {
  // Offsets of the wrong length too: the rank check must come first and must not index past a shape.
  EXPECT_FALSE(call("pld.tensor.put_async", {dist({4, 256}), i(1), tensor({1024}), session()},
                    {{"dst_offsets", ints({0})}, {"src_offsets", ints({0, 0, 0})}, {"shape", ints({256})}}));
  EXPECT_EQ(
      first_error().rfind("pld.tensor.put_async: 'src' and 'dst' must have the same rank, got 1-D 'src'", 0),
      0u)
      << first_error();
  EXPECT_EQ(diags.error_count(), 1);
}

TEST_F(IrAsync, PutAsyncRegionMustBe1D) {
  EXPECT_FALSE(
      call("pld.tensor.put_async", {dist({4, 256}), i(1), tensor({4, 256}), session()},
           {{"dst_offsets", ints({0, 0})}, {"src_offsets", ints({0, 0})}, {"shape", ints({2, 256})}}));
  EXPECT_EQ(first_error(),
            "pld.tensor.put_async: the region [2, 256] must be logically 1-D (at most one dim > 1), "
            "such as [1, N]; split it into one put_async per row");
}

TEST_F(IrAsync, PutAsyncRegionMustBeContiguous) {
  EXPECT_FALSE(call("pld.tensor.put_async", {dist({4, 256}), i(1), tensor({4, 256}), session()},
                    {{"dst_offsets", ints({0, 0})}, {"src_offsets", ints({0, 0})}, {"shape", ints({4, 1})}}));
  EXPECT_EQ(first_error(),
            "pld.tensor.put_async: the region [4, 1] is not flat-contiguous in 'dst' [4, 256]: every "
            "dim after its long dim 0 must have size 1 in the tensor, so that the bytes form one run");
}

TEST_F(IrAsync, PutAsyncRegionMustBeStatic) {
  Expr n = var("n", scalar_type(DType::INT32));
  Expr dyn = b.list({i(1), n}, {});
  std::vector<Var> compile_time;
  scope.compile_time_vars = &compile_time;
  EXPECT_FALSE(call("pld.tensor.put_async", {dist({4, 256}), i(1), tensor({4, 256}), session()},
                    {{"dst_offsets", ints({0, 0})}, {"src_offsets", ints({0, 0})}, {"shape", dyn}}));
  EXPECT_EQ(first_error().rfind("pld.tensor.put_async: the region must be static, but dim 1 of [1, n]", 0),
            0u)
      << first_error();
  diags.clear();
  scope.compile_time_vars = nullptr;  // unknown: a symbolic dim, rechecked after specialize
  EXPECT_TRUE(call("pld.tensor.put_async", {dist({4, 256}), i(1), tensor({4, 256}), session()},
                   {{"dst_offsets", ints({0, 0})}, {"src_offsets", ints({0, 0})}, {"shape", dyn}}));
}

TEST_F(IrAsync, PutAsyncRejectsAtomic) {
  EXPECT_FALSE(call("pld.tensor.put_async", {dist({4, 256}), i(1), tensor({4, 256}), session()},
                    {{"atomic", b.enum_imm(EnumKind::AtomicType, "Add")}}));
  EXPECT_EQ(first_error().rfind("pld.tensor.put_async: does not take 'atomic': ", 0), 0u);
}

TEST_F(IrAsync, PutAsyncSessionKind) {
  EXPECT_FALSE(call("pld.tensor.put_async", {dist({4, 256}), i(1), tensor({4, 256}), i(0)}));
  EXPECT_EQ(first_error(),
            "pld.tensor.put_async: 'session' must be a pld.AsyncSession from "
            "pld.system.async_session, got pl.Scalar[pl.INT64]");
}

TEST_F(IrAsync, WaitAndTestNeedEventAndSession) {
  Expr ev = var("e", simple_type(TypeKind::AsyncEvent));
  EXPECT_TRUE(call("pld.system.wait_async_event", {ev, session()}));
  EXPECT_EQ(call("pld.system.test_async_event", {ev, session()})->type->dtype, DType::BOOL);
  EXPECT_FALSE(call("pld.system.wait_async_event", {session(), session()}));
  EXPECT_EQ(first_error(),
            "pld.system.wait_async_event: 'event' must be a pld.AsyncEvent from pld.tensor.put_async "
            "or get_async, got pld.AsyncSession");
  diags.clear();
  EXPECT_FALSE(call("pld.system.test_async_event", {ev, ev}));
  EXPECT_EQ(first_error(),
            "pld.system.test_async_event: 'session' must be a pld.AsyncSession from "
            "pld.system.async_session, got pld.AsyncEvent");
}

TEST_F(IrAsync, OneSessionPerKernelAndNoPrefetchBeside) {
  auto f = std::make_shared<FunctionNode>();
  f->name = "k";
  for (int k = 0; k < 2; ++k) {
    auto st = std::make_shared<ExprStmt>();
    st->value = call("pld.system.async_session", {});
    f->body.push_back(st);
  }
  auto pf = std::make_shared<ExprStmt>();
  pf->value = call("pl.tensor.prefetch_async", {tensor({4, 4})});
  f->body.push_back(pf);
  ASSERT_FALSE(diags.has_errors()) << first_error();
  EXPECT_FALSE(check_function_contracts(*f, diags));
  ASSERT_EQ(diags.error_count(), 2);
  EXPECT_EQ(diags.diagnostics()[0].message.rfind(
                "pld.system.async_session: kernel 'k' already has an async session", 0),
            0u);
  EXPECT_EQ(diags.diagnostics()[0].notes.size(), 1u);
  EXPECT_EQ(diags.diagnostics()[1].message.rfind(
                "pl.tensor.prefetch_async: kernel 'k' also holds an async session", 0),
            0u);
}

}  // namespace
}  // namespace ptodist::ir::testing
