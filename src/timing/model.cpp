// The timing model's entry points: recording a run's events, replaying them, and the reports.
#include "ptodist/timing/model.h"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "replay.h"

namespace ptodist::timing {

Recorder::Recorder(const TimingParams& params)
    : params_(params), builder_(std::make_unique<ActorBuilder>(params)) {}

Recorder::~Recorder() = default;

void Recorder::on_event(const runtime::events::Event& e) {
  std::lock_guard<std::mutex> lock(mu_);
  builder_->add(e);
}

Prediction Recorder::predict(int ranks, bool with_timeline) {
  std::vector<SimActor> actors;
  {
    std::lock_guard<std::mutex> lock(mu_);
    actors = builder_->take();
  }
  Prediction out;
  out.profile = params_.profile;
  replay(actors, ranks, params_, out);
  if (out.error.empty()) summarize(actors, ranks, with_timeline, out);
  return out;
}

namespace {

std::string us(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f us", v);
  return buf;
}

}  // namespace

std::string format_prediction(const Prediction& p) {
  std::string s = "predicted device time (profile " + p.profile + "): " + us(p.wall_us) + "\n";
  for (size_t r = 0; r < p.ranks.size(); ++r) {
    const RankTime& rt = p.ranks[r];
    char line[256];
    std::snprintf(line, sizeof line, "rank %zu: wall %.2f us, transfers %.2f us (%.1f%% hidden by compute)",
                  r, rt.wall_us, rt.transfer_us, 100 * rt.hidden_fraction());
    s += line;
    if (rt.sync_transfer_us > 0) s += ", of which cores in put/get " + us(rt.sync_transfer_us);
    s += "\n";
    for (const auto& [name, k] : rt.kernels) {
      std::snprintf(line, sizeof line,
                    "  kernel %-24s %3d block(s)  span %10.2f us  busy %10.2f us  idle %10.2f us\n",
                    name.c_str(), k.blocks, k.span_us, k.busy_us, k.idle_us);
      s += line;
    }
  }
  s += "critical path:\n";
  size_t shown = 0;
  for (const PathStep& step : p.critical_path) {
    if (++shown > 12) {
      s += "  ... " + std::to_string(p.critical_path.size() - 12) + " more\n";
      break;
    }
    char line[512];
    std::snprintf(line, sizeof line, "  %10.2f .. %10.2f us  rank %d %-16s %s\n", step.start_us, step.end_us,
                  step.rank, step.track.c_str(), step.what.c_str());
    s += line;
  }
  return s;
}

std::string prediction_json(const Prediction& p) {
  nlohmann::json j;
  j["profile"] = p.profile;
  j["wall_us"] = p.wall_us;
  j["ranks"] = nlohmann::json::array();
  for (const RankTime& r : p.ranks) {
    nlohmann::json jr = {{"wall_us", r.wall_us},
                         {"transfer_us", r.transfer_us},
                         {"hidden_us", r.hidden_us},
                         {"hidden_fraction", r.hidden_fraction()},
                         {"sync_transfer_us", r.sync_transfer_us}};
    for (const auto& [name, k] : r.kernels)
      jr["kernels"][name] = {
          {"blocks", k.blocks}, {"span_us", k.span_us}, {"busy_us", k.busy_us}, {"idle_us", k.idle_us}};
    j["ranks"].push_back(jr);
  }
  j["critical_path"] = nlohmann::json::array();
  for (const PathStep& s : p.critical_path)
    j["critical_path"].push_back({{"rank", s.rank},
                                  {"track", s.track},
                                  {"what", s.what},
                                  {"start_us", s.start_us},
                                  {"end_us", s.end_us}});
  return j.dump(2);
}

}  // namespace ptodist::timing
