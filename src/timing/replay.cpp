// The replay in virtual time: a discrete-event loop that always advances the actor (core or chip
// orchestration) that is earliest, one step at a time, so the shared engines (HBM, SDMA engines,
// links) are granted in time order, first come first served. A wait ends when the notifies or
// transfers that satisfied it in the recorded run have arrived; a join when its tasks' blocks ended.
#include "replay.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <queue>
#include <set>
#include <unordered_map>

namespace ptodist::timing {
namespace {

using runtime::events::Kind;

struct Producer {
  double at = 0;
  int actor = -1, rec = -1;
};

struct Task {
  bool submitted = false;
  double submit_at = 0;
  int submitter = -1, submit_rec = -1;
  int blocks = 0, ended = 0;
  double end = 0;
  int last_actor = -1, last_rec = -1;  // what ended last: a block's last step, or a deferred notify
  std::vector<uint64_t> deps;
  std::vector<int> actors;
  std::vector<int> joiners;  // actors parked on this task
};

class Replay {
 public:
  Replay(std::vector<SimActor>& actors, int ranks, const TimingParams& p) : a_(actors), p_(p) {
    sdma_free_.assign(static_cast<size_t>(ranks),
                      std::vector<double>(std::max<size_t>(1, static_cast<size_t>(p.sdma_engines)), 0.0));
    hbm_free_.assign(static_cast<size_t>(ranks), 0.0);
    orch_next_.assign(static_cast<size_t>(ranks), 0);
    orch_.resize(static_cast<size_t>(ranks));
  }

  void run(Prediction& out) {
    index();
    for (size_t r = 0; r < orch_.size(); ++r) try_start_orchestrator(static_cast<int>(r));
    while (!queue_.empty()) {
      int i = queue_.top().second;
      queue_.pop();
      // An actor still earliest after its step runs on at once: pushed, it would be popped next.
      for (; i >= 0; i = again_) {
        again_ = -1;
        a_[static_cast<size_t>(i)].queued = false;
        advance(i);
      }
    }
    for (const SimActor& x : a_) {
      if (!x.done) {
        out.error = "the replay stopped before " + std::string(x.who.function) + " on rank " +
                    std::to_string(x.who.rank) + " finished (a dependency the run recorded was not replayed)";
        return;
      }
    }
  }

 private:
  std::vector<SimActor>& a_;
  const TimingParams& p_;
  using Item = std::pair<double, int>;
  std::priority_queue<Item, std::vector<Item>, std::greater<Item>> queue_;
  int again_ = -1;  // the actor to advance again at once (push_or_continue)
  std::vector<std::vector<double>> sdma_free_;
  std::vector<double> hbm_free_;
  std::map<std::pair<int, int>, double> link_free_;
  std::vector<std::vector<int>> orch_;  // per rank, chip orchestrations in order
  std::vector<size_t> orch_next_;
  // The cores of one kind of one rank. Blocks get a core in the replay (the CPU run's core numbers
  // reflect which host thread was free, not the device): a free one, else the next to be freed.
  struct Waiting {
    int actor;
    double at;
    int bound_actor, bound_rec;
  };
  struct Cores {
    std::vector<double> free_at;
    std::vector<int> running;  // the block on each core, -1 when free
    std::vector<int> last;     // the block that ran last on each core
    std::deque<Waiting> waiting;
  };
  std::map<std::pair<int, bool>, Cores> cores_;
  std::unordered_map<uint64_t, Task> tasks_;
  std::vector<uint64_t> submitted_;  // the submitted tasks in the actors' order (not the map's)
  std::unordered_map<uint64_t, Producer> produced_;
  std::set<uint64_t> will_produce_;
  std::unordered_map<uint64_t, std::vector<int>> parked_;  // notify/transfer id -> actors waiting on it
  std::unordered_map<uint64_t, std::vector<int>> deferred_parked_;  // notify id -> ended deferred waiters

  void index() {
    for (size_t i = 0; i < a_.size(); ++i) {
      SimActor& x = a_[i];
      if (!x.block) {
        orch_[static_cast<size_t>(x.who.rank)].push_back(static_cast<int>(i));
      } else {
        tasks_[x.task].actors.push_back(static_cast<int>(i));
      }
      // The synchronisation steps' entries, in the steps' order (an op's inner steps follow it, its
      // waits precede it, and neither changes the order of the notifies, issues or submits).
      for (const SyncInfo& y : x.sync) {
        if (y.type == Step::Type::Notify || y.type == Step::Type::Issue) will_produce_.insert(y.id);
        if (y.type == Step::Type::Submit) {
          submitted_.push_back(y.id);
          Task& t = tasks_[y.id];
          t.blocks = y.cores;
          t.deps = y.deps;
        }
      }
    }
  }

  void push(int i) {
    SimActor& x = a_[static_cast<size_t>(i)];
    if (x.queued || x.done) return;
    x.queued = true;
    queue_.push({x.key, i});
  }

  // After actor i's own step: it runs next if it is still the earliest, else it queues.
  void push_or_continue(int i) {
    SimActor& x = a_[static_cast<size_t>(i)];
    if (x.queued || x.done) return;
    if (queue_.empty() || Item{x.key, i} < queue_.top()) {
      again_ = i;
      return;
    }
    push(i);
  }

  void begin(int i, double at, int bound_actor, int bound_rec) {
    SimActor& x = a_[static_cast<size_t>(i)];
    x.start = x.t = x.key = at;
    x.start_bound_actor = bound_actor;
    x.start_bound_rec = bound_rec;
    if (x.steps.empty()) return finish(i);
    push(i);
  }

  void try_start_orchestrator(int rank) {
    auto& list = orch_[static_cast<size_t>(rank)];
    size_t& next = orch_next_[static_cast<size_t>(rank)];
    if (next >= list.size()) return;
    int i = list[next];
    double at = 0;
    int prev = -1;
    if (next > 0) {
      prev = list[next - 1];
      if (!a_[static_cast<size_t>(prev)].done) return;
      at = a_[static_cast<size_t>(prev)].end;
    }
    ++next;
    begin(i, at, prev, prev >= 0 ? a_[static_cast<size_t>(prev)].recorded - 1 : -1);
  }

  Cores& cores(int rank, bool cube) {
    Cores& c = cores_[{rank, cube}];
    if (c.free_at.empty()) {
      size_t n = static_cast<size_t>(std::max(1, cube ? p_.cube_cores : p_.vector_cores));
      c.free_at.assign(n, 0.0);
      c.running.assign(n, -1);
      c.last.assign(n, -1);
    }
    return c;
  }

  void place(int i, Cores& c, size_t core, double at, int ba, int br) {
    if (c.free_at[core] > at && c.last[core] >= 0) {
      at = c.free_at[core];
      ba = c.last[core];
      br = a_[static_cast<size_t>(ba)].recorded - 1;
    }
    c.running[core] = i;
    a_[static_cast<size_t>(i)].who.core = static_cast<int>(core);
    begin(i, at, ba, br);
  }

  // A block starts once its task is submitted (plus the launch cost) and its deps have ended, on a
  // free core of its kind (or when one is freed).
  void try_start_block(int i) {
    SimActor& x = a_[static_cast<size_t>(i)];
    if (x.started) return;
    Task& t = tasks_[x.task];
    if (!t.submitted) return;
    double at = t.submit_at + p_.task_launch_us;
    int ba = t.submitter, br = t.submit_rec;
    for (uint64_t d : t.deps) {
      auto it = tasks_.find(d);
      if (it == tasks_.end() || !it->second.submitted) continue;
      if (it->second.ended < it->second.blocks) return;
      if (it->second.end > at) {
        at = it->second.end;
        ba = it->second.last_actor;
        br = it->second.last_rec;
      }
    }
    x.started = true;
    Cores& c = cores(x.who.rank, x.who.cube);
    size_t best = c.running.size();
    for (size_t k = 0; k < c.running.size(); ++k)
      if (c.running[k] < 0 &&
          (best == c.running.size() || std::max(at, c.free_at[k]) < std::max(at, c.free_at[best])))
        best = k;
    if (best == c.running.size() || !c.waiting.empty()) {
      c.waiting.push_back(Waiting{i, at, ba, br});
      return;
    }
    place(i, c, best, at, ba, br);
  }

  void finish(int i) {
    SimActor& x = a_[static_cast<size_t>(i)];
    drain(x);
    x.done = true;
    x.end = x.t;
    if (!x.block) return try_start_orchestrator(x.who.rank);
    Cores& c = cores(x.who.rank, x.who.cube);
    const size_t core = static_cast<size_t>(x.who.core);
    c.free_at[core] = x.end;
    c.running[core] = -1;
    c.last[core] = i;
    if (!c.waiting.empty()) {
      Waiting w = c.waiting.front();
      c.waiting.pop_front();
      place(w.actor, c, core, w.at, w.bound_actor, w.bound_rec);
    }
    complete_block(i);
  }

  // The block's share of its task's completion: its end or, for a deferred waiter, the arrival of the
  // notifies that made its conditions hold, noticed `wait_wake_us` later, as a wait notices its cell.
  void complete_block(int i) {
    SimActor& x = a_[static_cast<size_t>(i)];
    double at = x.end;
    int ba = i, br = x.recorded - 1;
    for (uint64_t d : x.completes_after) {
      if (!will_produce_.count(d)) continue;
      auto it = produced_.find(d);
      if (it == produced_.end()) {
        deferred_parked_[d].push_back(i);
        return;
      }
      if (it->second.at + p_.wait_wake_us > at)
        at = it->second.at + p_.wait_wake_us, ba = it->second.actor, br = it->second.rec;
    }
    Task& t = tasks_[x.task];
    ++t.ended;
    if (at >= t.end) t.end = at, t.last_actor = ba, t.last_rec = br;
    if (t.ended < t.blocks) return;
    for (int j : t.joiners) push(j);
    t.joiners.clear();
    // Tasks that depend on this one may start now.
    for (uint64_t id : submitted_) {
      const Task& other = tasks_[id];
      if (std::find(other.deps.begin(), other.deps.end(), x.task) != other.deps.end())
        for (int b : other.actors) try_start_block(b);
    }
  }

  // The replay of actor i's current step: its times and what bound it.
  void record(int i, double start, double end, int ba = -1, int br = -1) {
    SimActor& x = a_[static_cast<size_t>(i)];
    Step& step = x.steps[static_cast<size_t>(x.recorded++)];
    step.rec = Rec{start, end};
    if (ba >= 0) {  // a wait or a join: a synchronisation step
      x.sync[step.sync].bound_actor = ba;
      x.sync[step.sync].bound_rec = br;
    }
  }

  // The core's pipes drain: the next step starts when every op issued so far has ended.
  static void drain(SimActor& x) {
    for (double f : x.pipe_free) x.t = std::max(x.t, f);
    x.touched.clear();
  }

  void advance(int i) {
    SimActor& x = a_[static_cast<size_t>(i)];
    const Step& s = x.steps[x.pc];
    if (s.type == Step::Type::Op && s.on_pipe) {
      run_on_pipe(i, s);
      if (++x.pc == x.steps.size()) return finish(i);
      return push_or_continue(i);
    }
    drain(x);
    x.key = x.t;
    switch (s.type) {
      case Step::Type::Op:
        run_op(i, s);
        break;
      case Step::Type::Notify:
        notify(i, s);
        break;
      case Step::Type::Issue:
        issue(i, s);
        break;
      case Step::Type::Wait:
        if (!wait(i, s)) return;  // parked
        break;
      case Step::Type::Submit:
        submit(i, s);
        break;
      case Step::Type::Join:
        if (!join(i, s)) return;
        break;
    }
    x.key = x.t;
    if (++x.pc == x.steps.size()) return finish(i);
    push_or_continue(i);
  }

  // The op's share of the chip's HBM from `start`: when it ends at the earliest.
  double hbm_end(int rank, const Step& s, double start) {
    if (s.site->cost.hbm_bytes <= 0) return start;
    double& free = hbm_free_[static_cast<size_t>(rank)];
    free = std::max(start, free) + TimingParams::gbps_us(s.site->cost.hbm_bytes, p_.hbm_bandwidth_gbps);
    return free;
  }

  // An op on its pipe: it starts when the pipe is free, the writes of what it reads have ended, and
  // the reads and writes of what it writes have ended (the flags the device's compiler sets between
  // pipes); the core issues the next op at once.
  void run_on_pipe(int i, const Step& s) {
    SimActor& x = a_[static_cast<size_t>(i)];
    const size_t pipe = static_cast<size_t>(s.site->cost.pipe);
    double start = std::max(x.t, x.pipe_free[pipe]);
    for (const SimActor::Touch& t : x.touched) {
      for (uint8_t k = 0; k < s.n_reads; ++k)
        if (t.at.overlaps(x.footprints[s.reads[k]])) start = std::max(start, t.write_end);
      if (s.write != 0 && t.at.overlaps(x.footprints[s.write]))
        start = std::max({start, t.read_end, t.write_end});
    }
    const double end = std::max(start + s.site->cost.core_us, hbm_end(x.who.rank, s, start));
    x.pipe_free[pipe] = end;
    touch(x, s, end);
    x.key = std::max(x.key, start);
    record(i, start, end);
  }

  static void touch(SimActor& x, const Step& s, double end) {
    for (uint8_t k = 0; k < s.n_reads; ++k) {
      const Footprint& read = x.footprints[s.reads[k]];
      auto same = std::find_if(x.touched.begin(), x.touched.end(), [&](const SimActor::Touch& t) {
        return t.at.addr == read.addr && t.at.extent == read.extent;
      });
      if (same != x.touched.end())
        same->read_end = std::max(same->read_end, end);
      else
        x.touched.push_back({read, end, 0});
    }
    if (s.write != 0) {
      const Footprint& write = x.footprints[s.write];
      // What the write covers is ordered before it: the write's entry stands for it.
      std::erase_if(x.touched, [&](const SimActor::Touch& t) {
        return t.at.addr >= write.addr && t.at.addr + t.at.extent <= write.addr + write.extent;
      });
      x.touched.push_back({write, 0, end});
    }
  }

  void run_op(int i, const Step& s) {
    SimActor& x = a_[static_cast<size_t>(i)];
    const int rank = x.who.rank;
    double start = x.t, end = std::max(x.t + s.site->cost.core_us, hbm_end(rank, s, start)), link_from = 0,
           link_to = 0;
    if (s.site->cost.link_bytes > 0) {
      double& free = link_free_[{s.site->cost.link_from, s.site->cost.link_to}];
      link_from = std::max(start, free);
      free = link_to = link_from + TimingParams::gbps_us(s.site->cost.link_bytes, p_.link_bandwidth_gbps);
      end = std::max(end, free + p_.link_latency_us);
    }
    x.t = end;
    record(i, start, end);
    if (s.site->cost.link_bytes > 0) {
      x.sync[s.sync].xfer_start = link_from;
      x.sync[s.sync].xfer_end = link_to;
    }
  }

  void produce(uint64_t id, double at, int i) {
    produced_[id] = Producer{at, i, a_[static_cast<size_t>(i)].recorded - 1};
    produce_deferred(id);
    auto it = parked_.find(id);
    if (it == parked_.end()) return;
    for (int j : it->second) push(j);
    parked_.erase(it);
  }

  void produce_deferred(uint64_t id) {
    auto it = deferred_parked_.find(id);
    if (it == deferred_parked_.end()) return;
    std::vector<int> blocks = std::move(it->second);
    deferred_parked_.erase(it);
    for (int b : blocks) complete_block(b);
  }

  void notify(int i, const Step& s) {
    SimActor& x = a_[static_cast<size_t>(i)];
    record(i, x.t, x.t);
    produce(x.sync[s.sync].id, x.t + p_.notify_latency_us, i);
  }

  // An async transfer: queued on the least busy SDMA engine of the rank and on the link to the peer.
  void issue(int i, const Step& s) {
    SimActor& x = a_[static_cast<size_t>(i)];
    SyncInfo& y = x.sync[s.sync];
    const int rank = x.who.rank, peer = y.peer;
    std::vector<double>& engines = sdma_free_[static_cast<size_t>(rank)];
    auto engine = std::min_element(engines.begin(), engines.end());
    double from = std::max(x.t, *engine);
    const double bytes = static_cast<double>(y.bytes);
    double rate = p_.sdma_bandwidth_gbps;
    double* link = nullptr;
    if (peer >= 0 && peer != rank) {
      link = &link_free_[{y.effects & ir::kWritesRemote ? rank : peer,
                          y.effects & ir::kWritesRemote ? peer : rank}];
      from = std::max(from, *link);
      rate = std::min(rate, p_.link_bandwidth_gbps);
    }
    const double busy_until = from + p_.sdma_startup_us + TimingParams::gbps_us(bytes, rate);
    *engine = busy_until;
    if (link) *link = busy_until;
    const double landed = busy_until + (link ? p_.link_latency_us : 0);
    record(i, x.t, landed);
    y.engine = static_cast<int>(engine - engines.begin());
    y.xfer_start = from;
    y.xfer_end = busy_until;
    produce(y.id, landed, i);
  }

  bool wait(int i, const Step& s) {
    SimActor& x = a_[static_cast<size_t>(i)];
    double ready = x.t;
    int ba = -1, br = -1;
    for (uint64_t d : x.sync[s.sync].deps) {
      if (!will_produce_.count(d)) continue;
      auto it = produced_.find(d);
      if (it == produced_.end()) {
        parked_[d].push_back(i);
        return false;
      }
      if (it->second.at > ready) ready = it->second.at, ba = it->second.actor, br = it->second.rec;
    }
    double end = ready + (ba >= 0 ? p_.wait_wake_us : 0);
    record(i, x.t, end, ba, br);
    x.t = end;
    return true;
  }

  void submit(int i, const Step& s) {
    SimActor& x = a_[static_cast<size_t>(i)];
    Task& t = tasks_[x.sync[s.sync].id];
    record(i, x.t, x.t);
    t.submitted = true;
    t.submit_at = x.t;
    t.submitter = i;
    t.submit_rec = x.recorded - 1;
    for (int b : t.actors) try_start_block(b);
  }

  bool join(int i, const Step& s) {
    SimActor& x = a_[static_cast<size_t>(i)];
    double ready = x.t;
    int ba = -1, br = -1;
    for (uint64_t d : x.sync[s.sync].deps) {
      auto it = tasks_.find(d);
      if (it == tasks_.end() || !it->second.submitted) continue;
      if (it->second.ended < it->second.blocks) {
        it->second.joiners.push_back(i);
        return false;
      }
      if (it->second.end > ready)
        ready = it->second.end, ba = it->second.last_actor, br = it->second.last_rec;
    }
    record(i, x.t, ready, ba, br);
    x.t = ready;
    return true;
  }
};

}  // namespace

void replay(std::vector<SimActor>& actors, int ranks, const TimingParams& p, Prediction& out) {
  Replay r(actors, ranks, p);
  r.run(out);
}

}  // namespace ptodist::timing
