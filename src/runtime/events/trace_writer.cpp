// Chrome trace-event JSON for timelines, and the recorder that builds a real-time timeline from the
// op-event stream. Format: https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU
// ("X" complete events, "M" metadata for process and thread names, "s"/"f" flow events).
#include <algorithm>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "ptodist/runtime/trace.h"

namespace ptodist::runtime::trace {

std::string span_name(const SourceSpan* span, std::string_view fallback) {
  if (!span || !span->valid()) return std::string(fallback);
  std::string_view text = span->file->line(span->line);
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) text.remove_prefix(1);
  std::string line(text.substr(0, 72));
  if (text.size() > 72) line += "...";
  return "L" + std::to_string(span->line) + ": " + line;
}

std::string track_of(const events::Actor& a) {
  if (a.orchestrator || a.core < 0) return "orchestrator";
  return std::string(a.cube ? "cube core " : "vector core ") + std::to_string(a.core);
}

namespace {

using Json = nlohmann::json;

// Tracks get thread ids in a fixed order: orchestrator, cube cores, vector cores, then DMA and links.
int track_rank(const std::string& track) {
  if (track == "orchestrator") return 0;
  if (track.rfind("cube core ", 0) == 0) return 1;
  if (track.rfind("vector core ", 0) == 0) return 2;
  return 3;
}

int track_number(const std::string& track) {
  size_t at = track.find_last_of(' ');
  if (at == std::string::npos) return 0;
  try {
    return std::stoi(track.substr(at + 1));
  } catch (...) {
    return 0;
  }
}

std::map<std::pair<int, std::string>, int> assign_tids(const Timeline& t) {
  std::set<std::tuple<int, int, int, std::string>> order;
  for (const Span& s : t.spans) order.insert({s.pid, track_rank(s.track), track_number(s.track), s.track});
  std::map<std::pair<int, std::string>, int> tids;
  for (const auto& [pid, rank, number, track] : order) {
    int next = static_cast<int>(tids.size()) + 1;
    tids[{pid, track}] = next;
  }
  return tids;
}

Json metadata(const char* what, int pid, int tid, const std::string& name, int sort_index) {
  Json m = {{"ph", "M"}, {"name", what}, {"pid", pid}, {"args", {{"name", name}}}};
  if (tid >= 0) m["tid"] = tid;
  Json sort = {{"ph", "M"}, {"name", tid >= 0 ? "thread_sort_index" : "process_sort_index"}, {"pid", pid}};
  if (tid >= 0) sort["tid"] = tid;
  sort["args"] = {{"sort_index", sort_index}};
  return Json::array({m, sort});
}

double rounded(double us) {
  return std::round(us * 1000.0) / 1000.0;
}

}  // namespace

std::string to_chrome_json(const Timeline& t) {
  Json events = Json::array();
  auto tids = assign_tids(t);
  std::set<int> pids;
  for (const auto& [key, tid] : tids) {
    if (pids.insert(key.first).second)
      for (Json& m : metadata("process_name", key.first, -1, "rank " + std::to_string(key.first), key.first))
        events.push_back(m);
    for (Json& m : metadata("thread_name", key.first, tid, key.second, tid)) events.push_back(m);
  }
  // A flow arrow is one "s" and one "f" with their own id: a notify that several waits saw gets one
  // arrow per wait.
  std::map<uint64_t, const Span*> source;
  for (const Span& s : t.spans)
    for (uint64_t id : s.flows_out) source[id] = &s;
  uint64_t next_flow = 1;
  for (const Span& s : t.spans) {
    int tid = tids[{s.pid, s.track}];
    Json args = Json::object();
    for (const auto& [k, v] : s.args) args[k] = v;
    const double start = rounded(s.start_us), dur = rounded(s.dur_us);
    events.push_back({{"ph", "X"},
                      {"name", s.name},
                      {"cat", s.cat},
                      {"pid", s.pid},
                      {"tid", tid},
                      {"ts", start},
                      {"dur", dur},
                      {"args", args}});
    // A flow binds to the slice that encloses its timestamp: the middle of this span.
    for (uint64_t id : s.flows_in) {
      auto from = source.find(id);
      if (from == source.end()) continue;
      const Span& o = *from->second;
      const uint64_t flow = next_flow++;
      events.push_back({{"ph", "s"},
                        {"name", "signal"},
                        {"cat", "flow"},
                        {"id", flow},
                        {"pid", o.pid},
                        {"tid", tids[{o.pid, o.track}]},
                        {"ts", rounded(o.start_us + o.dur_us / 2)}});
      events.push_back({{"ph", "f"},
                        {"bp", "e"},
                        {"name", "signal"},
                        {"cat", "flow"},
                        {"id", flow},
                        {"pid", s.pid},
                        {"tid", tid},
                        {"ts", rounded(s.start_us + s.dur_us / 2)}});
    }
  }
  Json doc = {{"traceEvents", events}, {"displayTimeUnit", "ns"}};
  if (!t.title.empty()) doc["otherData"] = {{"title", t.title}};
  return doc.dump(1);
}

bool write_chrome_json(const Timeline& t, const std::string& path, std::string* error) {
  std::ofstream out(path);
  if (out) out << to_chrome_json(t) << "\n";
  if (!out) {
    if (error) *error = "cannot write trace file '" + path + "'";
    return false;
  }
  return true;
}

// ---- the real-time recorder ----

void RealTimeRecorder::on_event(const events::Event& e) {
  using events::Kind;
  std::lock_guard<std::mutex> lock(mu_);
  if (e.kind == Kind::TransferDone) {
    Span s{e.actor.rank, "SDMA",       "transfer to rank " + std::to_string(e.peer),
           "transfer",   e.t_begin_us, e.t_us - e.t_begin_us};
    s.args.push_back({"bytes", std::to_string(e.bytes)});
    s.flows_out.push_back(e.id);
    timeline_.spans.push_back(std::move(s));
    return;
  }
  if (e.actor.rank < 0) return;  // the host orchestrator runs no device time
  const uint64_t actor = e.actor.id;
  int& depth = depth_[actor];
  switch (e.kind) {
    case Kind::OpBegin:
    case Kind::BlockStart:
    case Kind::ActorStart:
    case Kind::TaskSubmit:
      if (e.kind == Kind::TaskSubmit) return;
      open_[{actor, depth++}].assign(1, e);
      return;
    case Kind::Notify:
    case Kind::TransferIssue:
    case Kind::WaitSatisfied:
      // Arrives inside its op: kept with the op's begin until the op ends.
      if (depth > 0) open_[{actor, depth - 1}].push_back(e);
      return;
    default:
      break;
  }
  if (depth == 0) return;
  std::vector<events::Event> begun = std::move(open_[{actor, --depth}]);
  open_.erase({actor, depth});
  const events::Event& b = begun.front();
  Span s{e.actor.rank, track_of(e.actor), "", "op", b.t_us, e.t_us - b.t_us};
  if (e.kind == Kind::OpEnd) {
    s.name = span_name(b.span, ir::op_info(b.op).spelling);
    s.args.push_back({"op", ir::op_info(b.op).spelling});
    if (e.bytes) s.args.push_back({"bytes", std::to_string(e.bytes)});
  } else {
    s.cat = "kernel";
    s.name = std::string(e.actor.function) +
             (e.kind == Kind::BlockEnd ? " (block " + std::to_string(e.cores) + ")" : "");
  }
  for (const events::Event& inner : begun) {
    if (inner.kind == Kind::Notify) s.flows_out.push_back(inner.id);
    if (inner.kind == Kind::WaitSatisfied)
      s.flows_in.insert(s.flows_in.end(), inner.deps.begin(), inner.deps.end());
  }
  timeline_.spans.push_back(std::move(s));
}

Timeline RealTimeRecorder::take() {
  std::lock_guard<std::mutex> lock(mu_);
  Timeline t = std::move(timeline_);
  timeline_ = Timeline{};
  open_.clear();
  depth_.clear();
  return t;
}

}  // namespace ptodist::runtime::trace
