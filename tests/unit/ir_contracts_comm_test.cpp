// Contracts of the communication ops: put/get, signals, windows and identity, spmd_submit.
#include "ir_test_util.h"

namespace ptodist::ir::testing {
namespace {

using IrComm = IrTest;

TEST_F(IrComm, PutChecksWindowDtypeAtomicAndChunks) {
  EXPECT_TRUE(call("pld.tensor.put", {dist({64, 64}), i(1), tensor({64, 64})},
                   {{"chunk_rows", i(16)}, {"chunk_cols", i(64)}, {"pipeline", b.bool_imm(true)}}));
  EXPECT_FALSE(call("pld.tensor.put", {tensor({64, 64}), i(1), tensor({64, 64})}));
  EXPECT_EQ(first_error(),
            "pld.tensor.put: 'dst' must be a pld.DistributedTensor (the peer's window is written through "
            "it), got pl.Tensor[[64, 64], pl.FP16]");
  diags.clear();
  EXPECT_FALSE(call("pld.tensor.put", {dist({64, 64}, DType::UINT8), i(1), tensor({64, 64}, DType::UINT8)},
                    {{"atomic", b.enum_imm(EnumKind::AtomicType, "Add")}}));
  EXPECT_EQ(first_error(),
            "pld.tensor.put: 'atomic=pld.AtomicType.Add' supports pl.FP32, pl.FP16, pl.BF16, pl.INT32, "
            "pl.INT16 and pl.INT8, got pl.UINT8");
  diags.clear();
  EXPECT_FALSE(call("pld.tensor.put", {dist({64, 64}), i(1), tensor({64, 64})},
                    {{"chunk_rows", i(16)}, {"pipeline", b.bool_imm(true)}}));
  EXPECT_EQ(first_error(),
            "pld.tensor.put: 'pipeline=True' needs both 'chunk_rows' and 'chunk_cols' (the size of each "
            "staging tile)");
  diags.clear();
  EXPECT_FALSE(call("pld.tensor.put", {dist({64, 64}), i(1), tensor({64, 64})}, {{"chunk_rows", i(24)}}));
  EXPECT_EQ(first_error(), "pld.tensor.put: 'chunk_rows' (24) must divide the region's dim 0 (64)");
  diags.clear();
  EXPECT_FALSE(
      call("pld.tensor.put", {dist({64, 64}), i(1), tensor({64, 64})},
           {{"dst_offsets", ints({0, 0})}, {"src_offsets", ints({0, 0})}, {"shape", ints({65, 64})}}));
  EXPECT_EQ(first_error(), "pld.tensor.put: region [0, 65) in dim 0 is out of bounds of 'dst' (size 64)");
}

TEST_F(IrComm, GetNeedsWindowSource) {
  EXPECT_TRUE(call("pld.tensor.get", {tensor({8, 8}), i(0), dist({8, 8})}));
  EXPECT_FALSE(call("pld.tensor.get", {tensor({8, 8}), i(0), tensor({8, 8})}));
  EXPECT_EQ(first_error(),
            "pld.tensor.get: 'src' must be a pld.DistributedTensor (the peer's window is read through "
            "it), got pl.Tensor[[8, 8], pl.FP16]");
}

TEST_F(IrComm, NotifyAndWaitOnInt32Signals) {
  Expr sig = dist({4, 8}, DType::INT32);
  EXPECT_TRUE(call("pld.system.notify", {sig, i(1), ints({0, 3}), i(1)},
                   {{"op", b.enum_imm(EnumKind::NotifyOp, "Set")}}));
  EXPECT_TRUE(
      call("pld.system.wait", {sig, ints({0, 3}), i(1)}, {{"cmp", b.enum_imm(EnumKind::WaitCmp, "Ge")}}));
  EXPECT_FALSE(call("pld.system.notify", {dist({4, 8}, DType::FP32), i(1), ints({0, 0}), i(1)},
                    {{"op", b.enum_imm(EnumKind::NotifyOp, "AtomicAdd")}}));
  EXPECT_EQ(first_error(),
            "pld.system.notify: 'target' must be a pld.DistributedTensor of pl.INT32 (a signal array in a "
            "window), got pld.DistributedTensor[[4, 8], pl.FP32]");
  diags.clear();
  EXPECT_FALSE(
      call("pld.system.wait", {sig, ints({0}), i(1)}, {{"cmp", b.enum_imm(EnumKind::WaitCmp, "Eq")}}));
  EXPECT_EQ(first_error(),
            "pld.system.wait: 'offsets' must be a list of 2 integers (the rank of 'signal'), got a list of "
            "1 element");
  diags.clear();
  EXPECT_FALSE(call("pld.system.notify", {sig, b.float_imm(1.0), ints({0, 0}), i(1)},
                    {{"op", b.enum_imm(EnumKind::NotifyOp, "AtomicAdd")}}));
  EXPECT_EQ(first_error(), "pld.system.notify: 'peer' must be an integer scalar, got pl.Scalar[pl.FP32]");
  diags.clear();
  EXPECT_FALSE(
      call("pld.system.wait", {sig, ints({0, 0}), i(1)}, {{"cmp", b.enum_imm(EnumKind::NotifyOp, "Set")}}));
  EXPECT_EQ(first_error(),
            "pld.system.wait: 'cmp' must be pld.WaitCmp.Eq or pld.WaitCmp.Ge, got the enum member Set");
}

TEST_F(IrComm, WindowsAndIdentity) {
  scope.function_kind = FunctionKind::Host;
  Expr buf = call("pld.alloc_window_buffer", {i(4096)});
  ASSERT_TRUE(buf) << first_error();
  Expr w = call("pld.window", {buf, ints({16, 64})}, {{"dtype", b.dtype_imm(DType::FP32)}});
  ASSERT_TRUE(w) << first_error();
  EXPECT_EQ(type_str(w->type), "pld.DistributedTensor[[16, 64], pl.FP32]");
  EXPECT_FALSE(call("pld.window", {buf, ints({32, 64})}, {{"dtype", b.dtype_imm(DType::FP32)}}));
  EXPECT_EQ(first_error(),
            "pld.window: the window [32, 64] of pl.FP32 needs 8192 bytes but 'buf' holds 4096");
  diags.clear();
  EXPECT_FALSE(call("pld.alloc_window_buffer", {i(4096)}, {{"dtype", b.dtype_imm(DType::FP32)}}));
  EXPECT_EQ(first_error(),
            "pld.alloc_window_buffer: dtype= is only valid when 'size' is a list of dims, not a byte count");
  diags.clear();
  scope.function_kind = FunctionKind::InCore;
  Expr ctx = call("pld.get_comm_ctx", {dist({4, 4})});
  ASSERT_TRUE(ctx);
  EXPECT_EQ(type_str(call("pld.rank", {ctx})->type), "pl.Scalar[pl.INT64]");
  EXPECT_FALSE(call("pld.get_comm_ctx", {tensor({4, 4})}));
}

TEST_F(IrComm, SpmdSubmitChecksKernelAndArgs) {
  auto k = std::make_shared<FunctionNode>();
  k->name = "k";
  k->params.push_back({b.make_var("a", tensor_type(dims({8}), DType::FP32)), Direction::In});
  k->return_types.push_back(tensor_type(dims({8}), DType::FP32));
  functions.push_back(k);
  auto orch = std::make_shared<FunctionNode>();
  orch->name = "orch";
  orch->kind = FunctionKind::Orchestration;
  functions.push_back(orch);
  scope.function_kind = FunctionKind::Orchestration;
  Expr r = call("pl.spmd_submit", {b.func_ref("k", true, scope, {}), tensor({8}, DType::FP32)},
                {{"core_num", i(4)}});
  ASSERT_TRUE(r) << first_error();
  EXPECT_EQ(type_str(r->type), "tuple[pl.Tensor[[8], pl.FP32], pl.TaskId]");
  EXPECT_FALSE(call("pl.spmd_submit", {b.func_ref("orch", true, scope, {})}));
  EXPECT_EQ(first_error(),
            "pl.spmd_submit: 'kernel' must name a kernel function (InCore, AIC or AIV) or a Group such as "
            "self.my_kernel, got the Orchestration function 'orch'");
  diags.clear();
  EXPECT_FALSE(call("pl.spmd_submit", {b.func_ref("k", true, scope, {}), tensor({8}, DType::FP16)}));
  EXPECT_EQ(first_error(),
            "pl.spmd_submit: kernel 'k': argument 'a' must be pl.Tensor[[8], pl.FP32], got "
            "pl.Tensor[[8], pl.FP16]");
  diags.clear();
  EXPECT_FALSE(call("pl.spmd_submit", {b.func_ref("k", true, scope, {}), tensor({8}, DType::FP32)},
                    {{"core_num", i(0)}}));
  EXPECT_EQ(first_error(), "pl.spmd_submit: 'core_num' must be positive, got 0");
  diags.clear();
  EXPECT_FALSE(call("pl.spmd_submit", {b.func_ref("k", true, scope, {}), tensor({8}, DType::FP32)},
                    {{"deps", b.list({i(1)}, {})}}));
  EXPECT_EQ(first_error(),
            "pl.spmd_submit: 'deps' must be a list of pl.TaskId (the second result of earlier submits) or "
            "arrays of them (pl.array.create(n, pl.TASK_ID)), but an element is pl.Scalar[pl.INT64]");
  diags.clear();
  scope.function_kind = FunctionKind::InCore;
  EXPECT_FALSE(call("pl.spmd_submit", {b.func_ref("k", true, scope, {})}));
  EXPECT_EQ(first_error().rfind(
                "pl.spmd_submit: not allowed in a kernel; it may only be called from orchestration", 0),
            0u);
}

}  // namespace
}  // namespace ptodist::ir::testing
