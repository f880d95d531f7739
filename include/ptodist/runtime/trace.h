// Timelines and their Chrome trace-event JSON (opens in Perfetto and chrome://tracing): a process per
// rank, a track per core and per DMA engine or link, spans named after source lines, flow arrows from
// each notify or transfer to the wait it satisfied. `run` and `bench` record real time from the event
// stream (RealTimeRecorder); `predict` fills a timeline with virtual time (ptodist/timing).
#pragma once

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "ptodist/runtime/events.h"

namespace ptodist::runtime::trace {

struct Span {
  Span() = default;
  Span(int pid_, std::string track_, std::string name_, std::string cat_, double start, double dur)
      : pid(pid_),
        track(std::move(track_)),
        name(std::move(name_)),
        cat(std::move(cat_)),
        start_us(start),
        dur_us(dur) {}
  int pid = 0;        // the rank
  std::string track;  // "vector core 3", "SDMA", "link 0->1"
  std::string name;
  std::string cat;  // "op", "wait", "transfer", "kernel", ...
  double start_us = 0, dur_us = 0;
  std::vector<std::pair<std::string, std::string>> args;
  std::vector<uint64_t> flows_out;  // flow arrows that start at this span's end
  std::vector<uint64_t> flows_in;   // ... and end at this span's end
};

struct Timeline {
  std::vector<Span> spans;
  std::string title;
};

// "L12: acc = pl.matmul(a, b)" (the line's text, trimmed and shortened), or the op's spelling when
// the op has no source location.
std::string span_name(const SourceSpan* span, std::string_view fallback);
// The track a reporting actor's spans go on: "orchestrator", "cube core 2", "vector core 5".
std::string track_of(const events::Actor& a);

// The timeline as Chrome trace-event JSON ("X" spans, "s"/"f" flows, process and thread names).
std::string to_chrome_json(const Timeline& t);
// Writes it to `path`; false with a one-line reason in `error` when the file cannot be written.
bool write_chrome_json(const Timeline& t, const std::string& path, std::string* error);

// Builds a real-time timeline from the event stream: op spans per core, kernel spans per block,
// transfers on the rank's SDMA track, flows from notifies and transfers to the waits they satisfied.
class RealTimeRecorder : public events::Observer {
 public:
  void on_event(const events::Event& e) override;
  // The timeline of the last round (a new round starts with the first event after take()).
  Timeline take();

 private:
  std::mutex mu_;
  Timeline timeline_;
  std::map<std::pair<uint64_t, int>, std::vector<events::Event>> open_;  // (actor, depth) -> begin events
  std::map<uint64_t, int> depth_;
  std::map<uint64_t, events::Event> issued_;  // transfer id -> its issue
};

}  // namespace ptodist::runtime::trace
