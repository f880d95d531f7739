// PTO emitter, asynchronous transfers: the session's typed attributes, the issue with only its leading
// barrier, the deferred invalidate and fence after the wait, the manifest's enable_sdma, and the internal
// error for a wait on the wrong session.
#include "codegen_test_util.h"

namespace ptodist::ir::testing {
namespace {

class PtoAsyncTest : public PtoTest {
 protected:
  Var dst, src, scratch, session;

  // session; event = put_async(...); <compute>; wait(event, session, scratch); fence
  Program async_kernel(std::optional<long long> block_bytes, bool with_compute = true) {
    dst = param("dst", dist_tensor_type(dims({1, 1024}), DType::FP32), Direction::InOut);
    src = param("src", tensor_type(dims({1, 1024}), DType::FP32));
    Var x = param("x", tensor_type(dims({16, 64}), DType::FP32));
    scratch = let("scratch", tile_of({1, 256}, DType::INT8), 0);
    std::vector<std::pair<std::string, Expr>> kw = {{"sync_id", i(3)}};
    if (block_bytes) kw.push_back({"block_bytes", i(*block_bytes)});
    session = let("session", call("pld.tile.async_session", {ref(scratch)}, kw));
    Var ev = let("ev", call("pld.tile.put_async", {ref(dst), i(1), ref(src), ref(session)}));
    if (with_compute) {
      Var t = let("t", call("pl.load", {ref(x), ints({0, 0}), ints({16, 64})}), 256);
      let("u", call("pl.exp", {ref(t)}), 4352);
    }
    stmt(call("pld.tile.wait_async_event", {ref(ev), ref(session), ref(scratch)}));
    stmt(call("pl.system.fence", {}));
    return program("overlap", FunctionKind::AIV);
  }
};

TEST_F(PtoAsyncTest, SessionAttributesAreTypedAndBlockBytesAlwaysPresent) {
  std::string t = text(async_kernel(std::nullopt));
  EXPECT_TRUE(
      in_order(t, {"%session = pto.comm.build_async_session(%scratch, %arg4) {sync_id = 3 : i32, "
                   "block_bytes = 1048576 : i64} : (!pto.tile_buf<loc=vec, dtype=i8, rows=1, cols=256,"}));
  EXPECT_TRUE(in_order(t, {"%arg4: !pto.ptr<i8>)"}));  // the SDMA workspace comes last
}

TEST_F(PtoAsyncTest, ExplicitBlockBytesIsKept) {
  std::string t = text(async_kernel(65536));
  EXPECT_TRUE(in_order(t, {"{sync_id = 3 : i32, block_bytes = 65536 : i64}"}));
}

TEST_F(PtoAsyncTest, IssueHasOnlyTheLeadingBarrierAndTheWaitCarriesTheInvalidate) {
  std::string t = text(async_kernel(std::nullopt));
  EXPECT_EQ(line_after(t, "%src_local = pto.partition_view"), "pto.barrier <PIPE_ALL>");
  EXPECT_TRUE(in_order(t, {"pto.barrier <PIPE_ALL>\n",
                           "%ev = pto.comm.tput_async(%dst_peer, %src_local, %session) : "
                           "(!pto.partition_tensor_view<1x1024xf32>, !pto.partition_tensor_view<1x1024xf32>, "
                           "!pto.async_session) -> !pto.async_event\n"}));
  // Between issue and wait only the kernel's own compute: no barrier, no invalidate, no fence.
  size_t issue = t.find("pto.comm.tput_async"), wait = t.find("pto.comm.wait_async_event");
  ASSERT_LT(issue, wait);
  std::string between = t.substr(issue, wait - issue);
  EXPECT_EQ(count(between, "pto.barrier"), 0u);
  EXPECT_EQ(count(between, "cacheinvalid"), 0u);
  EXPECT_EQ(count(between, "fence"), 0u);
  EXPECT_EQ(count(between, "pto.texp"), 1u);
  EXPECT_TRUE(in_order(
      t, {"= pto.comm.wait_async_event(%ev, %session) : (!pto.async_event, !pto.async_session) -> i1\n",
          "pto.cmo.cacheinvalid %dst_peer single_cache_line : !pto.partition_tensor_view<1x1024xf32>\n",
          "pto.fence.barrier_all #pto.fence_scope<gm>\n", "return"}));
  EXPECT_EQ(count(t, "pto.fence.barrier_all"), 1u);
  EXPECT_EQ(
      count(line_after(t, "pto.comm.tput_async") + t.substr(wait, t.find('\n', wait) - wait), "%scratch"),
      0u);
}

TEST_F(PtoAsyncTest, WaitWithoutThePassFenceStillFences) {
  dst = param("dst", dist_tensor_type(dims({1, 64}), DType::FP16), Direction::InOut);
  src = param("src", dist_tensor_type(dims({1, 64}), DType::FP16));
  scratch = let("scratch", tile_of({1, 256}, DType::INT8), 0);
  session = let("session", call("pld.tile.async_session", {ref(scratch)}));
  Var ev = let("ev", call("pld.tile.get_async", {ref(src), i(0), ref(dst), ref(session)}));
  stmt(call("pld.tile.wait_async_event", {ref(ev), ref(session)}));
  std::string t = text(program());
  EXPECT_TRUE(in_order(
      t,
      {"pto.comm.tget_async(%src_local, %dst_peer, %session)", "pto.comm.wait_async_event(%ev, %session)",
       "pto.cmo.cacheinvalid %src_local single_cache_line", "pto.fence.barrier_all #pto.fence_scope<gm>"}));
}

TEST_F(PtoAsyncTest, ManifestEnablesSdmaOnlyForSessionKernels) {
  Program p = async_kernel(std::nullopt);
  auto plain = std::make_shared<FunctionNode>();
  plain->name = "plain";
  plain->kind = FunctionKind::InCore;
  auto both = std::make_shared<ProgramNode>(*p);
  both->functions.push_back(plain);
  codegen::PtoResult r = emit(both);
  ASSERT_TRUE(r.ok) << first_error();
  auto m = nlohmann::json::parse(r.manifest_json);
  ASSERT_EQ(m["kernels"].size(), 2u);
  EXPECT_EQ(m["kernels"][0]["name"], "overlap");
  EXPECT_EQ(m["kernels"][0]["enable_sdma"], true);
  EXPECT_EQ(m["kernels"][0]["async_session"]["block_bytes"], 1048576);
  EXPECT_EQ(m["kernels"][1]["enable_sdma"], false);
  const auto& params = m["kernels"][0]["params"];
  EXPECT_EQ(params[0]["kind"], "DistributedTensor");
  EXPECT_EQ(params[1]["kind"], "CommContext");
  EXPECT_EQ(params[1]["of"], "dst");
  EXPECT_EQ(params[4]["kind"], "SdmaWorkspace");
  EXPECT_EQ(m["kernels"][0]["memory_plan"]["tiles"][0]["tile"], "scratch");
  EXPECT_EQ(m["kernels"][0]["memory_plan"]["tiles"][1]["address"], 256);
}

TEST_F(PtoAsyncTest, TestDoesNotDrainTheEvent) {
  Program p = [&] {
    dst = param("dst", dist_tensor_type(dims({1, 64}), DType::FP16), Direction::InOut);
    src = param("src", tensor_type(dims({1, 64}), DType::FP16));
    scratch = let("scratch", tile_of({1, 256}, DType::INT8), 0);
    session = let("session", call("pld.tile.async_session", {ref(scratch)}));
    Var ev = let("ev", call("pld.tile.put_async", {ref(dst), i(1), ref(src), ref(session)}));
    let("ok", call("pld.tile.test_async_event", {ref(ev), ref(session)}));
    stmt(call("pld.tile.wait_async_event", {ref(ev), ref(session)}));
    return program();
  }();
  std::string t = text(p);
  EXPECT_EQ(line_after(t, "pto.comm.test_async_event"),
            "%done = pto.comm.wait_async_event(%ev, %session) : "
            "(!pto.async_event, !pto.async_session) -> i1");
  EXPECT_EQ(count(t, "single_cache_line"), 1u);
}

// insert-comm-fence closes a run of async waits with one fence; each wait still invalidates its region.
TEST_F(PtoAsyncTest, ARunOfWaitsSharesOneFence) {
  dst = param("dst", dist_tensor_type(dims({2, 64}), DType::FP16), Direction::InOut);
  src = param("src", tensor_type(dims({2, 64}), DType::FP16));
  scratch = let("scratch", tile_of({1, 256}, DType::INT8), 0);
  session = let("session", call("pld.tile.async_session", {ref(scratch)}));
  auto row = [&](long long r) {
    return std::vector<std::pair<std::string, Expr>>{
        {"dst_offsets", ints({r, 0})}, {"src_offsets", ints({r, 0})}, {"shape", ints({1, 64})}};
  };
  Var e0 = let("e0", call("pld.tile.put_async", {ref(dst), i(1), ref(src), ref(session)}, row(0)));
  Var e1 = let("e1", call("pld.tile.put_async", {ref(dst), i(1), ref(src), ref(session)}, row(1)));
  stmt(call("pld.tile.wait_async_event", {ref(e0), ref(session)}));
  stmt(call("pld.tile.wait_async_event", {ref(e1), ref(session)}));
  stmt(call("pl.system.fence", {}));
  std::string t = text(program());
  EXPECT_TRUE(
      in_order(t, {"pto.comm.wait_async_event(%e0, %session)", "pto.cmo.cacheinvalid %dst_peer single",
                   "pto.comm.wait_async_event(%e1, %session)", "pto.cmo.cacheinvalid %dst_peer_1 single",
                   "pto.fence.barrier_all"}));
  EXPECT_EQ(count(t, "pto.fence.barrier_all"), 1u);
}

TEST_F(PtoAsyncTest, AnEventIssuedInABranchCannotBeWaitedAfterIt) {
  dst = param("dst", dist_tensor_type(dims({1, 64}), DType::FP16), Direction::InOut);
  src = param("src", tensor_type(dims({1, 64}), DType::FP16));
  Var k = param("k", scalar_type(DType::INT32));
  scratch = let("scratch", tile_of({1, 256}, DType::INT8), 0);
  session = let("session", call("pld.tile.async_session", {ref(scratch)}));
  Var ev = b.make_var("ev", simple_type(TypeKind::AsyncEvent));
  branch(
      b.compare(CompareOpKind::Eq, ref(k), i(0), {}),
      [&] {
        set(ev, call("pld.tile.put_async", {ref(dst), i(1), ref(src), ref(session)}));
      },
      [] {});
  stmt(call("pld.tile.wait_async_event", {ref(ev), ref(session)}));
  codegen::PtoResult r = emit(program());
  EXPECT_FALSE(r.ok);
  EXPECT_TRUE(r.kernels.empty());
  EXPECT_NE(first_error().find("pld.tile.wait_async_event: event 'ev' has no value here"), std::string::npos)
      << first_error();
}

using PtoAsyncDeathTest = PtoAsyncTest;

TEST_F(PtoAsyncDeathTest, WaitOnAnotherSessionIsAnInternalError) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  dst = param("dst", dist_tensor_type(dims({1, 64}), DType::FP16), Direction::InOut);
  src = param("src", tensor_type(dims({1, 64}), DType::FP16));
  scratch = let("scratch", tile_of({1, 256}, DType::INT8), 0);
  session = let("session", call("pld.tile.async_session", {ref(scratch)}));
  Var other = let("other", call("pld.tile.async_session", {ref(scratch)}, {{"sync_id", i(1)}}));
  Var ev = let("ev", call("pld.tile.put_async", {ref(dst), i(1), ref(src), ref(session)}));
  stmt(call("pld.tile.wait_async_event", {ref(ev), ref(other)}));
  Program p = program();
  EXPECT_DEATH(emit(p), "waited on a session that did not issue it");
}

}  // namespace
}  // namespace ptodist::ir::testing
