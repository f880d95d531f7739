// PTO emitter through the C++ API: small tile-level kernels built with ir::Builder, checked for the forms
// DESIGN.md section 7 fixes (peer views, put/get, notify/wait, the async session family) and for the
// emitter's guarantees (per-kernel state, determinism, the manifest).
#include "codegen_test_util.h"

namespace ptodist::ir::testing {
namespace {

TEST_F(PtoTest, SignatureFollowsEachWindowWithItsContext) {
  std::string t = text(put_kernel());
  EXPECT_TRUE(in_order(t, {"func.func @k(%arg0: !pto.ptr<f16>, %arg1: !pto.ptr<i64>, %arg2: !pto.ptr<f16>)",
                           "attributes {pto.kernel_kind = #pto.kernel_kind<vector>}"}));
  EXPECT_TRUE(in_order(
      t, {"%stage = pto.alloc_tile addr = %c0_i64 : !pto.tile_buf<loc=vec, dtype=f16, rows=1, "
          "cols=256, v_row=1, v_col=256, blayout=row_major, slayout=none_box, fractal=512, pad=0>"}));
}

TEST_F(PtoTest, PeerViewIsComputedInlineFromTheCommContext) {
  std::string t = text(put_kernel());
  EXPECT_TRUE(in_order(
      t, {"pto.load_scalar %arg1[%c2] : !pto.ptr<i64> -> i64", "arith.trunci", "arith.index_cast",
          "pto.load_scalar %arg1[%dst_local_slot]", "pto.load_scalar %arg1[%dst_peer_slot]",
          "arith.subi %dst_peer_base, %dst_local_base", "arith.divsi %dst_delta_bytes, %c2_i64 : i64",
          "%dst_peer_ptr = pto.addptr %arg0, %dst_delta_elems : !pto.ptr<f16> -> !pto.ptr<f16>",
          "%dst_peer_view = pto.make_tensor_view %dst_peer_ptr, shape = [%c1, %c256], strides = "
          "[%c256, %c1] {layout = #pto.layout<nd>} : !pto.tensor_view<?x?xf16>",
          "%dst_peer = pto.partition_view %dst_peer_view, offsets = [%c0, %c0], sizes = [%c1, "
          "%c256] : !pto.tensor_view<?x?xf16> -> !pto.partition_tensor_view<1x256xf16>"}));
  EXPECT_EQ(count(t, "func.func"), 1u);  // no helper functions: everything is inline
}

TEST_F(PtoTest, PutIsFencedByBarriersThenInvalidatesThePeerRegion) {
  std::string t = text(put_kernel());
  EXPECT_EQ(line_after(t, "%src_local = pto.partition_view"), "pto.barrier <PIPE_ALL>");
  EXPECT_TRUE(in_order(
      t, {"pto.barrier <PIPE_ALL>\n",
          "pto.comm.tput(%dst_peer, %src_local, buf(%stage)) {atomicType = #pto<atomic_type "
          "atomic_none>} : (!pto.partition_tensor_view<1x256xf16>, "
          "!pto.partition_tensor_view<1x256xf16>, !pto.tile_buf<",
          "pto.barrier <PIPE_ALL>\n",
          "pto.cmo.cacheinvalid %dst_peer single_cache_line : !pto.partition_tensor_view<1x256xf16>\n",
          "pto.fence.barrier_all #pto.fence_scope<gm>\n"}));
  EXPECT_EQ(count(t, "pto.fence.barrier_all"), 1u);  // the fence pass's fence, not a second one
}

TEST_F(PtoTest, PutWithoutThePassFenceStillEndsWithOne) {
  std::string t = text(put_kernel(false));
  EXPECT_EQ(line_after(t, "pto.cmo.cacheinvalid %dst_peer"), "pto.fence.barrier_all #pto.fence_scope<gm>");
}

TEST_F(PtoTest, PingPongAtomicPutNamesBothStages) {
  Var dst = param("dst", dist_tensor_type(dims({64, 64}), DType::FP32), Direction::InOut);
  Var src = param("src", tensor_type(dims({64, 64}), DType::FP32));
  Var s1 = let("ping", tile_of({16, 64}, DType::FP32), 0);
  Var s2 = let("pong", tile_of({16, 64}, DType::FP32), 4096);
  stmt(call("pld.tile.put", {ref(dst), i(2), ref(src), ref(s1)},
            {{"dst_offsets", ints({32, 0})},
             {"src_offsets", ints({0, 0})},
             {"shape", ints({32, 64})},
             {"atomic", b.enum_imm(EnumKind::AtomicType, "Add")},
             {"stage2", ref(s2)}}));
  std::string t = text(program());
  EXPECT_TRUE(
      in_order(t, {"offsets = [%c32, %c0], sizes = [%c32, %c64]",
                   "pto.comm.tput(%dst_peer, %src_local, buf(%ping, %pong)) {atomicType = #pto<atomic_type "
                   "atomic_add>}"}));
}

TEST_F(PtoTest, GetMirrorsPutWithTheLocalSideWritten) {
  Var dst = param("dst", tensor_type(dims({1, 128}), DType::FP32), Direction::Out);
  Var src = param("src", dist_tensor_type(dims({1, 128}), DType::FP32));
  Var stage = let("stage", tile_of({1, 128}, DType::FP32), 0);
  stmt(call("pld.tile.get", {ref(dst), i(0), ref(src), ref(stage)}));
  stmt(call("pl.system.fence", {}));
  std::string t = text(program());
  EXPECT_TRUE(
      in_order(t, {"func.func @k(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: !pto.ptr<i64>)",
                   "pto.addptr %arg1", "pto.barrier <PIPE_ALL>\n",
                   "pto.comm.tget(%dst_local, %src_peer, buf(%stage)) : (", "pto.barrier <PIPE_ALL>\n",
                   "pto.cmo.cacheinvalid %dst_local single_cache_line", "pto.fence.barrier_all"}));
  EXPECT_EQ(count(t, "atomicType"), 0u);
}

TEST_F(PtoTest, NotifyIsPrecededByABarrierAndWaitFollowedByAnInvalidate) {
  Var sig = param("sig", dist_tensor_type(dims({4, 8}), DType::INT32), Direction::InOut);
  stmt(call("pld.system.notify", {ref(sig), i(1), ints({0, 3}), i(1)},
            {{"op", b.enum_imm(EnumKind::NotifyOp, "Set")}}));
  stmt(call("pld.system.notify", {ref(sig), i(2), ints({0, 3}), i(1)},
            {{"op", b.enum_imm(EnumKind::NotifyOp, "AtomicAdd")}}));
  stmt(call("pld.system.wait", {ref(sig), ints({1, 0}), i(1)},
            {{"cmp", b.enum_imm(EnumKind::WaitCmp, "Ge")}}));
  stmt(call("pld.system.wait", {ref(sig), ints({2, 0}), i(1)},
            {{"cmp", b.enum_imm(EnumKind::WaitCmp, "Eq")}}));
  std::string t = text(program());
  EXPECT_EQ(line_after(t, "pto.barrier <PIPE_ALL>"),
            "pto.comm.tnotify(%sig_peer, %c1_i32) {notifyOp = #pto<notify_op set>} : "
            "(!pto.partition_tensor_view<1x1xi32>, i32)");
  EXPECT_TRUE(in_order(t, {"{notifyOp = #pto<notify_op set>}", "pto.barrier <PIPE_ALL>\n",
                           "{notifyOp = #pto<notify_op atomic_add>}",
                           "pto.comm.twait(%sig_local, %c1_i32) {cmp = #pto<wait_cmp ge>}",
                           "pto.comm.twait(%sig_local_1, %c1_i32) {cmp = #pto<wait_cmp eq>}",
                           "pto.cmo.cacheinvalid all #pto.address_space<gm>"}));
  EXPECT_EQ(count(t, "cacheinvalid all"), 1u);  // one invalidate after the run of waits
}

// insert-comm-fence follows a get with a whole-GM invalidate and a fence: that fence is the one.
TEST_F(PtoTest, MarkersThatFollowAreNotDoubled) {
  Var dst = param("dst", tensor_type(dims({1, 128}), DType::FP32), Direction::Out);
  Var src = param("src", dist_tensor_type(dims({1, 128}), DType::FP32));
  Var stage = let("stage", tile_of({1, 128}, DType::FP32), 0);
  stmt(call("pld.tile.get", {ref(dst), i(0), ref(src), ref(stage)}));
  stmt(call("pl.system.cacheinvalid", {}));
  stmt(call("pl.system.fence", {}));
  std::string t = text(program());
  EXPECT_TRUE(in_order(t, {"pto.cmo.cacheinvalid %dst_local single_cache_line", "pto.cmo.cacheinvalid all",
                           "pto.fence.barrier_all"}));
  EXPECT_EQ(count(t, "pto.fence.barrier_all"), 1u);
}

TEST_F(PtoTest, WaitFollowedByThePassInvalidatePrintsOnlyThatOne) {
  Var sig = param("sig", dist_tensor_type(dims({1, 1}), DType::INT32), Direction::InOut);
  stmt(call("pld.system.wait", {ref(sig), ints({0, 0}), i(1)},
            {{"cmp", b.enum_imm(EnumKind::WaitCmp, "Eq")}}));
  stmt(call("pl.system.cacheinvalid", {}));
  EXPECT_EQ(count(text(program()), "cacheinvalid all"), 1u);
}

TEST_F(PtoTest, RemoteStoreWritesThroughThePeerViewAndFences) {
  Var out = param("out", dist_tensor_type(dims({4, 64}), DType::FP32), Direction::InOut);
  Var x = param("x", tensor_type(dims({2, 64}), DType::FP32));
  Var t = let("t", call("pl.load", {ref(x), ints({0, 0}), ints({2, 64})}), 0);
  stmt(call("pld.tile.remote_store", {ref(t), ref(out), i(1), ints({2, 0})},
            {{"atomic", b.enum_imm(EnumKind::AtomicType, "Add")}}));
  stmt(call("pl.system.cacheinvalid", {ref(out), ints({2, 64}), ints({2, 0})}));
  std::string s = text(program());
  EXPECT_TRUE(in_order(
      s, {"%out_peer = pto.partition_view %out_peer_view, offsets = [%c2, %c0], sizes = [%c2, %c64]",
          "pto.tstore ins(%t : ",
          ") outs(%out_peer : !pto.partition_tensor_view<2x64xf32>) "
          "{atomicType = #pto<atomic_type atomic_add>}",
          "pto.cmo.cacheinvalid %out_peer single_cache_line", "pto.fence.barrier_all #pto.fence_scope<gm>",
          "%out_region = pto.partition_view %out_view, offsets = [%c2, %c0], sizes = [%c2, %c64]",
          "pto.cmo.cacheinvalid %out_region single_cache_line"}));
}

}  // namespace
}  // namespace ptodist::ir::testing
