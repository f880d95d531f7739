// `ptodist bench FILE --ranks N --warmup W --rounds R [--persistent]`: time rounds of a program and
// print median/min/max per round and per rank. Windows are re-zeroed each round unless --persistent,
// where the program must reset its own signals, as on the device.
#include <algorithm>
#include <cstdio>
#include <iostream>

#include "commands.h"
#include "predict_common.h"
#include "run_common.h"

namespace ptodist::cli {
namespace {

struct BenchOptions {
  RunFlags flags;
  int warmup = 2;
  int rounds = 10;
  bool persistent = false;
  bool predict = true;  // --no-predict: skip the timing model's figures
};

struct Stats {
  double median = 0, min = 0, max = 0;
};

Stats stats_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  Stats s;
  if (v.empty()) return s;
  size_t n = v.size();
  s.median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
  s.min = v.front();
  s.max = v.back();
  return s;
}

void print_row(const std::string& label, const Stats& s) {
  std::printf("%-10s median %10.3f ms   min %10.3f ms   max %10.3f ms\n", label.c_str(), s.median * 1e3,
              s.min * 1e3, s.max * 1e3);
}

// The timing model's figures for the same program beside the measured ones: the device time the
// profile predicts and the share of async transfer time that compute hides there.
void print_prediction(const RunFlags& flags) {
  if (flags.check() || flags.backend == "mpi") return;
  RunFlags f = flags;
  f.trace.clear();
  std::string error;
  std::optional<timing::Prediction> p = predict_run(f, false, &error);
  if (!p) {
    std::printf("predicted: none (%s)\n", error.c_str());
    return;
  }
  std::printf("predicted on %s (ptodist predict, docs/timing.md): round %.3f ms\n", p->profile.c_str(),
              p->wall_us / 1e3);
  for (size_t k = 0; k < p->ranks.size(); ++k) {
    const timing::RankTime& r = p->ranks[k];
    std::printf("%-10s predicted  %10.3f ms   async transfers %.3f ms, %.0f%% hidden by compute\n",
                ("rank " + std::to_string(k)).c_str(), r.wall_us / 1e3, r.transfer_us / 1e3,
                100 * r.hidden_fraction());
  }
}

int run_bench(const BenchOptions& o) {
  PreparedRun run = prepare_run(o.flags, o.persistent);
  int ranks = o.flags.program.ranks;
  std::vector<double> rounds;
  std::vector<std::vector<double>> per_rank(ranks);
  int total = o.warmup + o.rounds;
  for (int i = 0; i < total; ++i) {
    std::fprintf(stderr, "\rptodist bench: %s %d/%d", i < o.warmup ? "warmup" : "round ",
                 i < o.warmup ? i + 1 : i - o.warmup + 1, i < o.warmup ? o.warmup : o.rounds);
    std::fflush(stderr);
    runtime::RoundResult r = run.runtime->run(run.args);
    if (r.status != runtime::RoundResult::Status::Ok) {
      std::fprintf(stderr, "\n");
      fail_round(r, o.flags);
    }
    if (run.recorder && i + 1 < total) run.recorder->take();  // keep only the last round's trace
    if (i < o.warmup) continue;
    rounds.push_back(r.seconds);
    for (int k = 0; k < ranks; ++k) per_rank[k].push_back(r.rank_seconds[k]);
  }
  std::fprintf(stderr, "\n");
  write_real_trace(run, o.flags);
  std::printf("%s: %d ranks, %d rounds after %d warmup%s\n", o.flags.program.file.c_str(), ranks, o.rounds,
              o.warmup, o.persistent ? " (persistent windows)" : " (windows re-zeroed each round)");
  if (o.flags.check())
    std::printf("check mode: seed %llu, %d rounds: no hazard\n",
                static_cast<unsigned long long>(o.flags.seed), total);
  print_row("round", stats_of(rounds));
  for (int k = 0; k < ranks; ++k) print_row("rank " + std::to_string(k), stats_of(per_rank[k]));
  if (o.predict) print_prediction(o.flags);
  return 0;
}

}  // namespace

void add_bench_command(CLI::App& app) {
  auto o = std::make_shared<BenchOptions>();
  CLI::App* sub = app.add_subcommand("bench", "time rounds of a program on N in-process ranks");
  add_run_flags(sub, o->flags);
  sub->add_option("--warmup", o->warmup, "untimed rounds first")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  sub->add_option("--rounds", o->rounds, "timed rounds")->check(CLI::PositiveNumber)->capture_default_str();
  sub->add_flag("--persistent", o->persistent,
                "keep window contents between rounds (the program resets its signals)");
  sub->add_flag("!--no-predict", o->predict, "do not print the timing model's predicted device time");
  sub->callback([o] {
    int code = run_bench(*o);
    if (code != 0) exit_with(code);
  });
}

}  // namespace ptodist::cli
