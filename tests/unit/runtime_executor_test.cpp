// The executor on a small two-rank program: elementwise ops, casts, a row reduction and block indices
// on four blocks, then an atomic remote store to every rank published by notify/wait.
#include <gtest/gtest.h>

#include <cmath>

#include "ptodist/frontend/parser.h"
#include "ptodist/kernels/convert.h"
#include "ptodist/runtime/host_io.h"
#include "ptodist/runtime/runtime.h"

namespace ptodist::runtime {
namespace {

const char* kOps = R"(import pypto.language as pl
import pypto.language.distributed as pld


@pl.program
class Ops:
    @pl.function(type=pl.FunctionType.AIV)
    def compute(
        self,
        a: pl.Tensor[[4, 8], pl.FP32],
        out: pl.Out[pl.Tensor[[4, 8], pl.FP32]],
        sums: pl.Out[pl.Tensor[[4, 1], pl.FP32]],
    ) -> pl.Tensor[[4, 8], pl.FP32]:
        b = pl.tile.get_block_idx()
        t = pl.load(a, [b, 0], [1, 8])
        u = pl.muls(pl.adds(t, 1.0), 2.0)
        v = pl.maximum(u, t)
        h = pl.cast(v, pl.FP16)
        w = pl.cast(h, pl.FP32)
        out = pl.store(w, [b, 0], out)
        s = pl.row_sum(w)
        sums = pl.store(s, [b, 0], sums)
        return out

    @pl.function(type=pl.FunctionType.AIV)
    def exchange(
        self,
        a: pl.Tensor[[4, 8], pl.FP32],
        acc: pld.DistributedTensor[[1, 8], pl.FP32],
        signal: pld.DistributedTensor[[1, 1], pl.INT32],
        got: pl.Out[pl.Tensor[[1, 8], pl.FP32]],
    ) -> pl.Tensor[[1, 8], pl.FP32]:
        ctx = pld.get_comm_ctx(acc)
        n = pld.nranks(ctx)
        t = pl.load(a, [0, 0], [1, 8])
        for p in pl.range(n):
            pld.tile.remote_store(t, target=acc, peer=p, offsets=[0, 0], atomic=pld.AtomicType.Add)
            pld.system.notify(signal, peer=p, offsets=[0, 0], value=1, op=pld.NotifyOp.AtomicAdd)
        pld.system.wait(signal, offsets=[0, 0], expected=n, cmp=pld.WaitCmp.Eq)
        r = pl.load(acc, [0, 0], [1, 8])
        got = pl.store(r, [0, 0], got)
        return got

    @pl.function(type=pl.FunctionType.Orchestration)
    def chip(
        self,
        a: pl.Tensor[[4, 8], pl.FP32],
        out: pl.Out[pl.Tensor[[4, 8], pl.FP32]],
        sums: pl.Out[pl.Tensor[[4, 1], pl.FP32]],
        got: pl.Out[pl.Tensor[[1, 8], pl.FP32]],
        acc: pld.DistributedTensor[[1, 8], pl.FP32],
        signal: pld.DistributedTensor[[1, 1], pl.INT32],
    ) -> pl.Tensor[[4, 8], pl.FP32]:
        out, t1 = pl.spmd_submit(self.compute, a, out, sums, core_num=4)
        got, t2 = pl.spmd_submit(self.exchange, a, acc, signal, got, core_num=1)
        return out

    @pl.function(level=pl.Level.HOST, role=pl.Role.Orchestrator)
    def host(
        self,
        a: pl.Tensor[[2, 4, 8], pl.FP32],
        out: pl.Out[pl.Tensor[[2, 4, 8], pl.FP32]],
        sums: pl.Out[pl.Tensor[[2, 4, 1], pl.FP32]],
        got: pl.Out[pl.Tensor[[2, 1, 8], pl.FP32]],
    ) -> pl.Tensor[[2, 4, 8], pl.FP32]:
        acc_buf = pld.alloc_window_buffer([1, 8], dtype=pl.FP32)
        signal_buf = pld.alloc_window_buffer([1, 1], dtype=pl.INT32)
        for r in pl.range(pld.world_size()):
            acc = pld.window(acc_buf, [1, 8], dtype=pl.FP32)
            signal = pld.window(signal_buf, [1, 1], dtype=pl.INT32)
            self.chip(a[r], out[r], sums[r], got[r], acc, signal, device=r)
        return out
)";

TEST(RuntimeExecutor, ComputeOpsBlocksAndAtomicRemoteStoresGiveTheGolden) {
  SourceManager sources;
  DiagnosticEngine diags;
  ir::Module m = frontend::parse_module(*sources.add("ops.py", kOps), diags);
  ASSERT_TRUE(m) << "parse errors";
  RunOptions o;
  o.ranks = 2;
  o.watchdog_seconds = 10;
  Runtime rt(m->programs.at(0), o);  // tensor level: the executor runs it without the pipeline
  std::map<std::string, HostTensor> args;
  ASSERT_EQ(prepare_host_args(*rt.host_function(), 2, {"a=rand:4"}, args), "");
  RoundResult r = rt.run(args);
  ASSERT_EQ(r.status, RoundResult::Status::Ok) << r.message;
  const auto* a = reinterpret_cast<const float*>(args["a"].data.data());
  const auto* out = reinterpret_cast<const float*>(args["out"].data.data());
  const auto* sums = reinterpret_cast<const float*>(args["sums"].data.data());
  const auto* got = reinterpret_cast<const float*>(args["got"].data.data());
  for (int rank = 0; rank < 2; ++rank) {
    for (int row = 0; row < 4; ++row) {
      float sum = 0;
      for (int c = 0; c < 8; ++c) {
        int i = rank * 32 + row * 8 + c;
        float want = kernels::fp16_to_fp32(kernels::fp32_to_fp16(std::fmax((a[i] + 1.0f) * 2.0f, a[i])));
        EXPECT_EQ(out[i], want) << "rank " << rank << " row " << row << " col " << c;
        sum += want;
      }
      EXPECT_NEAR(sums[rank * 4 + row], sum, 1e-4);
    }
    for (int c = 0; c < 8; ++c) EXPECT_NEAR(got[rank * 8 + c], a[c] + a[32 + c], 1e-6);
  }
}

TEST(RuntimeExecutor, ARoundCanBeRepeatedWithFreshWindows) {
  SourceManager sources;
  DiagnosticEngine diags;
  ir::Module m = frontend::parse_module(*sources.add("ops.py", kOps), diags);
  ASSERT_TRUE(m);
  RunOptions o;
  o.ranks = 2;
  Runtime rt(m->programs.at(0), o);
  std::map<std::string, HostTensor> args;
  ASSERT_EQ(prepare_host_args(*rt.host_function(), 2, {}, args), "");
  ASSERT_EQ(rt.run(args).status, RoundResult::Status::Ok);
  HostBytes first = args["got"].data;
  // Windows are re-zeroed: the signal count and the accumulator start over, so round 2 agrees.
  RoundResult second = rt.run(args);
  ASSERT_EQ(second.status, RoundResult::Status::Ok) << second.message;
  EXPECT_EQ(args["got"].data, first);
}

}  // namespace
}  // namespace ptodist::runtime
