// The a2a3 timing model (docs/timing.md): a run's op-event stream, recorded, is replayed in virtual
// time. Each core runs its ops in order at the costs the profile gives; async transfers run on the
// chip's SDMA engines and the inter-chip links, which are shared (first come, first served); a wait
// ends when the notifies or transfers that satisfied it in the run have arrived; a kernel's blocks
// start a launch cost after their submit, once their deps have ended and their core is free.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "ptodist/runtime/events.h"
#include "ptodist/runtime/trace.h"
#include "ptodist/timing/params.h"

namespace ptodist::timing {

class ActorBuilder;
struct Prediction;

// Consumes the event stream of a run (thread-safe) as it comes: each event is turned at once into
// the replay's steps (an op costed from its operands), and the events themselves are not kept.
class Recorder : public runtime::events::Observer {
 public:
  explicit Recorder(const TimingParams& params);
  ~Recorder() override;
  void on_event(const runtime::events::Event& e) override;
  bool wants_real_time() const override { return false; }  // virtual time only
  // Replays the round recorded so far on `ranks` ranks (`params` as given at construction, read
  // again now: its core counts may have been set since); clears the record. `with_timeline`: also
  // the timeline's spans (for a trace).
  Prediction predict(int ranks, bool with_timeline);

 private:
  const TimingParams& params_;
  std::mutex mu_;
  std::unique_ptr<ActorBuilder> builder_;
};

struct KernelTime {
  int blocks = 0;
  double busy_us = 0;  // summed over its blocks: time in ops (compute, data movement, sync transfers)
  double idle_us = 0;  // summed over its blocks: time blocked in waits
  double span_us = 0;  // first block start to last block end
};

struct RankTime {
  double wall_us = 0;           // the rank's chip orchestrations, start to end
  double transfer_us = 0;       // time some transfer of the rank was in flight (async, or a core's put/get)
  double hidden_us = 0;         // ... of which some core of the rank was computing
  double sync_transfer_us = 0;  // time cores spent in synchronous remote accesses (put/get)
  std::map<std::string, KernelTime> kernels;
  double hidden_fraction() const { return transfer_us > 0 ? hidden_us / transfer_us : 0; }
};

// One step of the critical path: what ran, where, and for how long.
struct PathStep {
  int rank = 0;
  std::string track;
  std::string what;
  double start_us = 0, end_us = 0;
};

struct Prediction {
  std::string profile;
  double wall_us = 0;  // the slowest rank
  std::vector<RankTime> ranks;
  std::vector<PathStep> critical_path;  // in time order
  runtime::trace::Timeline timeline;    // virtual time
  std::string error;                    // non-empty when the replay could not finish (and why)
};

// The report for people (one block of text) and for machines (JSON).
std::string format_prediction(const Prediction& p);
std::string prediction_json(const Prediction& p);

}  // namespace ptodist::timing
