// PTO emitter, compute and structure: loads, stores, matmuls and elementwise ops on planned tiles, scalar
// control flow (iter_args, yields), per-kernel state, byte-identical output, and errors for IR the
// emitter cannot take.
#include "codegen_test_util.h"

namespace ptodist::ir::testing {
namespace {

using PtoComputeTest = PtoTest;

TEST_F(PtoComputeTest, MatmulKernelRunsOnTheCubeWithPlannedTiles) {
  Var a = param("a", tensor_type(dims({64, 128}), DType::FP16));
  Var bm = param("b", tensor_type(dims({128, 64}), DType::FP16));
  Var c = param("c", tensor_type(dims({64, 64}), DType::FP32), Direction::Out);
  Var la =
      let("la", call("pl.load", {ref(a), ints({0, 0}), ints({64, 128})}, {{"target_memory", mem("Mat")}}), 0);
  Var lb =
      let("lb", call("pl.load", {ref(bm), ints({0, 0}), ints({128, 64})}, {{"target_memory", mem("Mat")}}),
          16384);
  Var l0a = let("l0a", call("pl.move", {ref(la), mem("Left")}), 0);
  Var l0b = let("l0b", call("pl.move", {ref(lb), mem("Right")}), 0);
  Var acc = let("acc", call("pl.matmul", {ref(l0a), ref(l0b)}), 0);
  set(acc, call("pl.matmul_acc", {ref(acc), ref(l0a), ref(l0b)}));
  let("c2", call("pl.store", {ref(acc), ints({0, 0}), ref(c)}));
  std::string t = text(program());
  EXPECT_TRUE(in_order(
      t,
      {"#pto.kernel_kind<cube>",
       "%la = pto.alloc_tile addr = %c0_i64 : !pto.tile_buf<loc=mat, dtype=f16, rows=64, cols=128",
       "%lb = pto.alloc_tile addr = %c16384_i64 : !pto.tile_buf<loc=mat",
       "%l0a = pto.alloc_tile addr = %c0_i64 : !pto.tile_buf<loc=left",
       "%acc = pto.alloc_tile addr = %c0_i64 : !pto.tile_buf<loc=acc, dtype=f32, rows=64, cols=64, "
       "v_row=64, v_col=64, blayout=col_major, slayout=row_major, fractal=1024, pad=0>",
       "pto.tload ins(%a_pview : !pto.partition_tensor_view<64x128xf16>) outs(%la : ", "pto.tmov ins(%la : ",
       "pto.tmatmul ins(%l0a, %l0b : ", ") outs(%acc : ", "pto.tmatmul.acc ins(%acc, %l0a, %l0b : ",
       "%c_pview = pto.partition_view %c_view", "pto.tstore ins(%acc : "}));
}

TEST_F(PtoComputeTest, VectorOpsTakeScalarsInTheTileType) {
  Var x = param("x", tensor_type(dims({16, 64}), DType::FP32));
  Var y = param("y", tensor_type(dims({16, 64}), DType::FP32), Direction::Out);
  Var t = let("t", call("pl.load", {ref(x), ints({0, 0}), ints({16, 64})}), 0);
  Var u = let("u", call("pl.muls", {ref(t), b.float_imm(0.5)}), 4096);
  Var v = let("v", call("pl.add", {ref(t), ref(u)}), 8192);
  Var h = let("h", call("pl.cast", {ref(v), b.dtype_imm(DType::FP16)}), 12288);
  Var z = let("z", call("pl.cast", {ref(h), b.dtype_imm(DType::FP32)}), 0);
  let("y2", call("pl.store", {ref(z), ints({0, 0}), ref(y)}));
  std::string s = text(program());
  EXPECT_TRUE(in_order(s, {"#pto.kernel_kind<vector>", "%cst = arith.constant 5.000000000e-01 : f32",
                           "pto.tmuls ins(%t, %cst : !pto.tile_buf<", ", f32) outs(%u : ",
                           "pto.tadd ins(%t, %u : ", "pto.tcvt ins(%v {rmode = #pto<round_mode ROUND>} : ",
                           "outs(%h : !pto.tile_buf<loc=vec, dtype=f16"}));
}

TEST_F(PtoComputeTest, LoopCarriedScalarsBecomeIterArgs) {
  Var sig = param("sig", dist_tensor_type(dims({1, 8}), DType::INT32), Direction::InOut);
  Var ctx = let("ctx", call("pld.get_comm_ctx", {ref(sig)}));
  Var me = let("me", call("pld.rank", {ref(ctx)}));
  Var n = let("n", call("pld.nranks", {ref(ctx)}));
  Var peer = let("peer", ref(me));
  range("r", i(3), [&](const Var&) {
    set(peer, b.binary(BinaryOpKind::Mod, b.binary(BinaryOpKind::Add, ref(peer), i(1), {}), ref(n), {}));
    stmt(call("pld.system.notify", {ref(sig), ref(peer), ints({0, 0}), i(1)},
              {{"op", b.enum_imm(EnumKind::NotifyOp, "AtomicAdd")}}));
  });
  stmt(call("pld.system.notify", {ref(sig), ref(peer), ints({0, 1}), i(1)},
            {{"op", b.enum_imm(EnumKind::NotifyOp, "AtomicAdd")}}));
  std::string t = text(program());
  EXPECT_TRUE(
      in_order(t, {"%rank = arith.trunci %rank_pair : i64 to i32", "arith.shrui %rank_pair_1, %c32_i64",
                   "%peer = scf.for %r = %c0 to %c3 step %c1 iter_args(%peer_1 = %", ") -> (index) {",
                   "arith.remsi", "pto.comm.tnotify", "scf.yield %", " : index\n", "}\n",
                   "arith.addi %c4, %peer : index", "pto.comm.tnotify"}));
}

TEST_F(PtoComputeTest, BranchesYieldTheValuesBothSidesDefine) {
  Var sig = param("sig", dist_tensor_type(dims({1, 8}), DType::INT32), Direction::InOut);
  Var k = param("k", scalar_type(DType::INT32));
  Var peer = b.make_var("peer", scalar_type(DType::INT64));
  branch(
      b.compare(CompareOpKind::Eq, ref(k), i(0), {}), [&] { set(peer, i(1)); }, [&] { set(peer, i(0)); });
  stmt(call("pld.system.notify", {ref(sig), ref(peer), ints({0, 0}), i(1)},
            {{"op", b.enum_imm(EnumKind::NotifyOp, "AtomicAdd")}}));
  std::string t = text(program());
  EXPECT_TRUE(in_order(t, {"%cond = arith.cmpi eq, %arg2, %c0_i32 : i32", "%peer = scf.if %cond -> (index) {",
                           "scf.yield %c1 : index", "} else {", "scf.yield %c0 : index", "}",
                           "arith.addi %c4, %peer : index"}));
}

TEST_F(PtoComputeTest, DynamicDimsArriveAsTrailingIndexArguments) {
  Var x = param("x", tensor_type({b.dynamic_dim("NR"), i(64)}, DType::FP32));
  Var sig = param("sig", tensor_type(dims({4, 8}), DType::INT32), Direction::InOut);
  Var v = let("v", call("pl.read", {ref(sig), ints({1, 2})}));
  stmt(call("pl.write", {ref(sig), ints({2, 3}), b.binary(BinaryOpKind::Add, ref(v), i(1), {})}));
  let("t", call("pl.load", {ref(x), ints({0, 0}), ints({1, 64})}), 0);
  codegen::PtoResult r = emit(program());
  ASSERT_TRUE(r.ok) << first_error();
  std::string t = r.kernels[0].text;
  EXPECT_TRUE(
      in_order(t, {"func.func @k(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<i32>, %arg2: index)",
                   "%x_view = pto.make_tensor_view %arg0, shape = [%arg2, %c64], strides = [%c64, %c1]"}));
  EXPECT_TRUE(in_order(t, {"%sig_val = pto.load_scalar %arg1[%sig_idx_1] : !pto.ptr<i32> -> i32",
                           "pto.store_scalar %", ", %arg1[%sig_idx_3] : !pto.ptr<i32>, i32"}));
  auto m = nlohmann::json::parse(r.manifest_json);
  EXPECT_EQ(m["kernels"][0]["params"][2]["kind"], "Dim");
  EXPECT_EQ(m["kernels"][0]["params"][2]["name"], "NR");
  EXPECT_TRUE(m["kernels"][0]["params"][0]["shape"][0].is_null());
}

TEST_F(PtoComputeTest, OutputIsByteIdenticalAcrossRuns) {
  Var x = param("x", tensor_type(dims({16, 64}), DType::FP32));
  Var t = let("t", call("pl.load", {ref(x), ints({0, 0}), ints({16, 64})}), 0);
  let("u", call("pl.exp", {ref(t)}), 4096);
  Program p = program();
  codegen::PtoResult a = emit(p), c = emit(p);
  ASSERT_EQ(a.kernels.size(), 1u);
  EXPECT_EQ(a.kernels[0].text, c.kernels[0].text);
  EXPECT_EQ(a.manifest_json, c.manifest_json);
  EXPECT_EQ(codegen::pto_text(a), "// kernel: k\n" + a.kernels[0].text);
}

// A kernel that fails leaves nothing for the next: the good kernel's text is what it is alone.
TEST_F(PtoComputeTest, AFailedKernelLeavesNoStateBehind) {
  Var dst = param("dst", dist_tensor_type(dims({1, 256}), DType::FP16), Direction::InOut);
  Var src = param("src", tensor_type(dims({1, 256}), DType::FP16));
  stmt(call("pld.tensor.put", {ref(dst), i(1), ref(src)}));  // tensor level: not lowered
  Program bad = program("bad");
  params.clear();
  body.clear();
  Program good = put_kernel();
  codegen::PtoResult alone = emit(good);
  auto both = std::make_shared<ProgramNode>(*bad);
  both->functions.push_back(good->functions[0]);
  codegen::PtoResult r = emit(both);
  EXPECT_FALSE(r.ok);
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].text, alone.kernels[0].text);
  EXPECT_NE(first_error().find("pld.tensor.put: the PTO emitter takes tile-level IR"), std::string::npos)
      << first_error();
  EXPECT_EQ(diags.error_count(), 1);
}

TEST_F(PtoComputeTest, OrchestrationFunctionsAreNotKernels) {
  Program p = put_kernel();
  auto orch = std::make_shared<FunctionNode>();
  orch->name = "orch";
  orch->kind = FunctionKind::Orchestration;
  auto both = std::make_shared<ProgramNode>(*p);
  both->functions.insert(both->functions.begin(), orch);
  codegen::PtoResult r = emit(both);
  ASSERT_EQ(r.kernels.size(), 1u);
  EXPECT_EQ(r.kernels[0].name, "k");
}

TEST_F(PtoComputeTest, WritesKernelFilesAndManifest) {
  codegen::PtoResult r = emit(put_kernel());
  std::string dir = ::testing::TempDir() + "pto_out";
  std::string error;
  ASSERT_TRUE(codegen::write_pto(r, dir, &error)) << error;
  std::ifstream k(dir + "/k.pto"), m(dir + "/manifest.json");
  std::string ktext((std::istreambuf_iterator<char>(k)), {}), mtext((std::istreambuf_iterator<char>(m)), {});
  EXPECT_EQ(ktext, r.kernels[0].text);
  EXPECT_EQ(mtext, r.manifest_json);
  EXPECT_FALSE(codegen::write_pto(r, "/proc/no/such/dir", &error));
  EXPECT_NE(error.find("/proc/no/such/dir"), std::string::npos);
}

}  // namespace
}  // namespace ptodist::ir::testing
