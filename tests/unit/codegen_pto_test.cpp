// PTO emitter through the C++ API: small tile-level kernels built with ir::Builder, checked for the forms
// DESIGN.md section 7 fixes (peer views, put/get, notify/wait, the async session family) and for the
// emitter's guarantees (per-kernel state, determinism, the manifest).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "ir_test_util.h"
#include "ptodist/codegen/pto.h"

namespace ptodist::ir::testing {
namespace {

// Builds one kernel statement by statement; tiles get plan-memory style addresses when asked.
class PtoTest : public IrTest {
 protected:
  std::vector<Param> params;
  Block body;
  std::vector<Block*> blocks{&body};

  Var param(const std::string& name, Type t, Direction d = Direction::In) {
    Var v = b.make_var(name, std::move(t));
    params.push_back({v, d});
    return v;
  }
  Expr ref(const Var& v) { return b.var_ref(v); }
  Type planned(Type t, long long addr) {
    auto n = std::make_shared<TypeNode>(*t);
    n->addr = addr;
    return n;
  }
  Var let(const std::string& name, Expr value, long long addr = -1) {
    EXPECT_TRUE(value) << first_error();
    Type t = value ? value->type : nullptr;
    if (t && t->kind == TypeKind::Tile && addr >= 0) t = planned(t, addr);
    Var v = b.make_var(name, t);
    auto a = std::make_shared<Assign>();
    a->targets = {v};
    a->value = value;
    blocks.back()->push_back(a);
    return v;
  }
  void stmt(Expr value) {
    EXPECT_TRUE(value) << first_error();
    auto s = std::make_shared<ExprStmt>();
    s->value = value;
    blocks.back()->push_back(s);
  }
  Expr tile_of(std::vector<long long> shape, DType dt, const std::string& m = "Vec") {
    return call("pl.create_tile", {ints(shape), b.dtype_imm(dt)}, {{"target_memory", mem(m)}});
  }
  Program program(const std::string& name = "k", FunctionKind kind = FunctionKind::InCore) {
    auto f = std::make_shared<FunctionNode>();
    f->name = name;
    f->kind = kind;
    f->params = params;
    f->body = body;
    auto p = std::make_shared<ProgramNode>();
    p->name = "P";
    p->functions = {f};
    return p;
  }
  codegen::PtoResult emit(const Program& p) { return codegen::emit_pto(p, ChipProfile{}, diags); }
  std::string text(const Program& p) {
    codegen::PtoResult r = emit(p);
    EXPECT_TRUE(r.ok) << first_error();
    if (getenv("PTO_DUMP") && !r.kernels.empty()) std::cerr << r.kernels[0].text << r.manifest_json;
    return r.kernels.empty() ? "" : r.kernels[0].text;
  }

  // A put kernel: dst window, src tensor, one staging tile, the fence the fence pass places.
  Program put_kernel(bool with_fence = true) {
    Var dst = param("dst", dist_tensor_type(dims({1, 256}), DType::FP16), Direction::InOut);
    Var src = param("src", tensor_type(dims({1, 256}), DType::FP16));
    Var stage = let("stage", tile_of({1, 256}, DType::FP16), 0);
    stmt(call("pld.tile.put", {ref(dst), i(1), ref(src), ref(stage)}));
    if (with_fence) stmt(call("pl.system.fence", {}));
    return program();
  }
};

// Each needle found after the previous one.
::testing::AssertionResult in_order(const std::string& text, const std::vector<std::string>& needles) {
  size_t at = 0;
  for (const std::string& n : needles) {
    size_t found = text.find(n, at);
    if (found == std::string::npos)
      return ::testing::AssertionFailure() << "missing (in order) '" << n << "' in:\n" << text;
    at = found + n.size();
  }
  return ::testing::AssertionSuccess();
}

size_t count(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

// The line that follows the first line containing `needle`.
std::string line_after(const std::string& text, const std::string& needle) {
  size_t at = text.find(needle);
  if (at == std::string::npos) return "";
  size_t start = text.find('\n', at) + 1;
  size_t end = text.find('\n', start);
  std::string l = text.substr(start, end - start);
  return l.substr(l.find_first_not_of(' '));
}

TEST_F(PtoTest, SignatureFollowsEachWindowWithItsContext) {
  std::string t = text(put_kernel());
  EXPECT_TRUE(in_order(t, {"func.func @k(%arg0: !pto.ptr<f16>, %arg1: !pto.ptr<i64>, %arg2: !pto.ptr<f16>)",
                           "attributes {pto.kernel_kind = #pto.kernel_kind<vector>}"}));
  EXPECT_TRUE(in_order(t, {"%stage = pto.alloc_tile addr = %c0_i64 : !pto.tile_buf<loc=vec, dtype=f16, rows=1, "
                           "cols=256, v_row=1, v_col=256, blayout=row_major, slayout=none_box, fractal=512, pad=0>"}));
}

TEST_F(PtoTest, PeerViewIsComputedInlineFromTheCommContext) {
  std::string t = text(put_kernel());
  EXPECT_TRUE(in_order(t, {"pto.load_scalar %arg1[%c2] : !pto.ptr<i64> -> i64", "arith.trunci",
                           "arith.index_cast", "pto.load_scalar %arg1[%dst_local_slot]",
                           "pto.load_scalar %arg1[%dst_peer_slot]", "arith.subi %dst_peer_base, %dst_local_base",
                           "arith.divsi %dst_delta_bytes, %c2_i64 : i64",
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
  EXPECT_TRUE(in_order(t, {"pto.barrier <PIPE_ALL>\n",
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
            {{"dst_offsets", ints({32, 0})}, {"src_offsets", ints({0, 0})}, {"shape", ints({32, 64})},
             {"atomic", b.enum_imm(EnumKind::AtomicType, "Add")}, {"stage2", ref(s2)}}));
  std::string t = text(program());
  EXPECT_TRUE(in_order(t, {"offsets = [%c32, %c0], sizes = [%c32, %c64]",
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
  EXPECT_TRUE(in_order(t, {"func.func @k(%arg0: !pto.ptr<f32>, %arg1: !pto.ptr<f32>, %arg2: !pto.ptr<i64>)",
                           "pto.addptr %arg1", "pto.barrier <PIPE_ALL>\n",
                           "pto.comm.tget(%dst_local, %src_peer, buf(%stage)) : (", "pto.barrier <PIPE_ALL>\n",
                           "pto.cmo.cacheinvalid %dst_local single_cache_line", "pto.fence.barrier_all"}));
  EXPECT_EQ(count(t, "atomicType"), 0u);
}

TEST_F(PtoTest, NotifyIsPrecededByABarrierAndWaitFollowedByAnInvalidate) {
  Var sig = param("sig", dist_tensor_type(dims({4, 8}), DType::INT32), Direction::InOut);
  stmt(call("pld.system.notify", {ref(sig), i(1), ints({0, 3}), i(1)}, {{"op", b.enum_imm(EnumKind::NotifyOp, "Set")}}));
  stmt(call("pld.system.notify", {ref(sig), i(2), ints({0, 3}), i(1)}));
  stmt(call("pld.system.wait", {ref(sig), ints({1, 0}), i(1)}, {{"cmp", b.enum_imm(EnumKind::WaitCmp, "Ge")}}));
  stmt(call("pld.system.wait", {ref(sig), ints({2, 0}), i(1)}));
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

}  // namespace
}  // namespace ptodist::ir::testing
