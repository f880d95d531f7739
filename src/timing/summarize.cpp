// From the replayed actors to the prediction: per-rank wall time, per-kernel busy and idle time, the
// async transfer time and the part of it that compute hid, the critical path, and the virtual-time
// timeline for --trace.
#include <algorithm>

#include "replay.h"

namespace ptodist::timing {
namespace {

using Interval = std::pair<double, double>;

// The union of `v` as disjoint sorted intervals.
std::vector<Interval> merged(std::vector<Interval> v) {
  std::sort(v.begin(), v.end());
  std::vector<Interval> out;
  for (const Interval& i : v) {
    if (i.second <= i.first) continue;
    if (!out.empty() && i.first <= out.back().second)
      out.back().second = std::max(out.back().second, i.second);
    else
      out.push_back(i);
  }
  return out;
}

// Adds `i` to `v`, extending `v`'s last interval when the two overlap or touch (their union is then
// one interval, which merged() would make of them anyway): an actor's ops run back to back, so the
// millions of op intervals of the published sizes become a few thousand before they are sorted.
void add(std::vector<Interval>& v, const Interval& i) {
  if (i.second <= i.first) return;
  if (!v.empty() && i.first <= v.back().second && v.back().first <= i.second) {
    v.back().first = std::min(v.back().first, i.first);
    v.back().second = std::max(v.back().second, i.second);
    return;
  }
  v.push_back(i);
}

double length(const std::vector<Interval>& v) {
  double n = 0;
  for (const Interval& i : v) n += i.second - i.first;
  return n;
}

double overlap(const std::vector<Interval>& a, const std::vector<Interval>& b) {
  double n = 0;
  size_t j = 0;
  for (const Interval& i : a) {
    while (j < b.size() && b[j].second <= i.first) ++j;
    for (size_t k = j; k < b.size() && b[k].first < i.second; ++k)
      n += std::max(0.0, std::min(i.second, b[k].second) - std::max(i.first, b[k].first));
  }
  return n;
}

std::string step_name(const Step& e) {
  switch (e.type) {
    case Step::Type::Wait:
      return "wait " + runtime::trace::span_name(e.site->span, ir::op_info(e.site->op).spelling);
    case Step::Type::Join:
      return "join " + runtime::trace::span_name(e.site->span, "kernel");
    default:
      return runtime::trace::span_name(e.site->span, ir::op_info(e.site->op).spelling);
  }
}

void rank_figures(const std::vector<SimActor>& actors, int ranks, Prediction& out) {
  out.ranks.assign(static_cast<size_t>(ranks), RankTime{});
  std::vector<std::vector<Interval>> transfers(static_cast<size_t>(ranks)),
      compute(static_cast<size_t>(ranks));
  for (const SimActor& x : actors) {
    RankTime& r = out.ranks[static_cast<size_t>(x.who.rank)];
    r.wall_us = std::max(r.wall_us, x.end);
    double busy = 0, idle = 0;
    for (size_t k = 0; k < static_cast<size_t>(x.recorded); ++k) {
      const Step& step = x.steps[k];
      const Rec& rec = step.rec;
      const double d = rec.end - rec.start;
      if (step.type == Step::Type::Op) {
        busy += d;
        if (step.site->cost.compute && !step.site->cost.remote)
          add(compute[static_cast<size_t>(x.who.rank)], {rec.start, rec.end});
        if (step.site->cost.remote) {
          r.sync_transfer_us += d;
          add(transfers[static_cast<size_t>(x.who.rank)], {rec.start, rec.end});
        }
      } else if (step.type == Step::Type::Wait || step.type == Step::Type::Join) {
        idle += d;
      } else if (step.type == Step::Type::Issue) {
        add(transfers[static_cast<size_t>(x.who.rank)], {rec.start, rec.end});
      }
    }
    if (!x.block) continue;
    KernelTime& k = r.kernels[std::string(x.who.function)];
    double first =
        k.blocks ? std::min(x.start, k.span_us) : x.start;  // span_us holds the first start meanwhile
    ++k.blocks;
    k.busy_us += busy;
    k.idle_us += idle;
    k.span_us = first;
  }
  // Turn each kernel's first start into its span (last end - first start).
  for (RankTime& r : out.ranks)
    for (auto& [name, k] : r.kernels) {
      double last = 0;
      for (const SimActor& x : actors)
        if (x.block && x.who.function == name && &out.ranks[static_cast<size_t>(x.who.rank)] == &r)
          last = std::max(last, x.end);
      k.span_us = last - k.span_us;
    }
  for (int i = 0; i < ranks; ++i) {
    std::vector<Interval> t = merged(transfers[static_cast<size_t>(i)]),
                          c = merged(compute[static_cast<size_t>(i)]);
    out.ranks[static_cast<size_t>(i)].transfer_us = length(t);
    out.ranks[static_cast<size_t>(i)].hidden_us = overlap(t, c);
    out.wall_us = std::max(out.wall_us, out.ranks[static_cast<size_t>(i)].wall_us);
  }
}

// Walks back from the step that ended last along what each step waited for, then merges consecutive
// steps of one track.
void critical_path(const std::vector<SimActor>& actors, Prediction& out) {
  int a = -1;
  for (size_t i = 0; i < actors.size(); ++i)
    if (actors[i].recorded > 0 && (a < 0 || actors[i].end > actors[static_cast<size_t>(a)].end))
      a = static_cast<int>(i);
  if (a < 0) return;
  int r = actors[static_cast<size_t>(a)].recorded - 1;
  std::vector<PathStep> path;
  double longest = 0;  // the longest step of the segment being merged names it
  for (size_t guard = 0; a >= 0 && guard < 1000000; ++guard) {
    const SimActor& x = actors[static_cast<size_t>(a)];
    if (r < 0) {
      a = x.start_bound_actor;
      r = x.start_bound_rec;
      continue;
    }
    const Step& step = x.steps[static_cast<size_t>(r)];
    const Rec& rec = step.rec;
    std::string track = runtime::trace::track_of(x.who);
    // A wait bound by another step is not on the path itself: what it waited for is.
    const int bound_actor = step.type == Step::Type::Op ? -1 : x.sync[step.sync].bound_actor;
    const bool bound = bound_actor >= 0 && step.type != Step::Type::Issue;
    if (rec.end > rec.start && !bound) {
      if (!path.empty() && path.back().rank == x.who.rank && path.back().track == track) {
        path.back().start_us = rec.start;
        if (rec.end - rec.start > longest) longest = rec.end - rec.start, path.back().what = step_name(step);
      } else {
        path.push_back(PathStep{x.who.rank, track, step_name(step), rec.start, rec.end});
        longest = rec.end - rec.start;
      }
    }
    if (bound) {
      a = bound_actor;
      r = x.sync[step.sync].bound_rec;
    } else {
      --r;
    }
  }
  std::reverse(path.begin(), path.end());
  out.critical_path = std::move(path);
}

void timeline(const std::vector<SimActor>& actors, Prediction& out) {
  using runtime::trace::Span;
  for (const SimActor& x : actors) {
    const std::string track = runtime::trace::track_of(x.who);
    const int pid = x.who.rank;
    std::string kernel(x.who.function);
    out.timeline.spans.push_back(
        Span{pid, track, x.block ? kernel + " (block " + std::to_string(x.block_index) + ")" : kernel,
             "kernel", x.start, x.end - x.start});
    for (size_t k = 0; k < static_cast<size_t>(x.recorded); ++k) {
      const Step& step = x.steps[k];
      const Rec& rec = step.rec;
      switch (step.type) {
        case Step::Type::Op: {
          // Ops on the core's pipes overlap: one track per pipe.
          const std::string where = step.on_pipe ? track + " " + pipe_name(step.site->cost.pipe) : track;
          Span s{
              pid, where, step_name(step), pipe_name(step.site->cost.pipe), rec.start, rec.end - rec.start};
          s.args.push_back({"op", ir::op_info(step.site->op).spelling});
          if (step.site->cost.link_bytes > 0) {
            const OpCost& c = step.site->cost;
            const SyncInfo& y = x.sync[step.sync];
            out.timeline.spans.push_back(
                Span{pid, "link " + std::to_string(c.link_from) + "->" + std::to_string(c.link_to), s.name,
                     "link", y.xfer_start, y.xfer_end - y.xfer_start});
          }
          out.timeline.spans.push_back(std::move(s));
          break;
        }
        case Step::Type::Notify: {
          Span s{pid, track, step_name(step), "notify", rec.start, 0};
          s.flows_out.push_back(x.sync[step.sync].id);
          out.timeline.spans.push_back(std::move(s));
          break;
        }
        case Step::Type::Wait:
        case Step::Type::Join: {
          Span s{pid, track, step_name(step), "wait", rec.start, rec.end - rec.start};
          s.flows_in = x.sync[step.sync].deps;
          out.timeline.spans.push_back(std::move(s));
          break;
        }
        case Step::Type::Issue: {
          const SyncInfo& y = x.sync[step.sync];
          Span s{pid,          "SDMA " + std::to_string(y.engine), step_name(step), "transfer",
                 y.xfer_start, y.xfer_end - y.xfer_start};
          s.args.push_back({"bytes", std::to_string(y.bytes)});
          s.args.push_back({"peer", std::to_string(y.peer)});
          s.flows_out.push_back(y.id);
          out.timeline.spans.push_back(s);
          if (y.peer >= 0 && y.peer != pid) {
            const bool put = (y.effects & ir::kWritesRemote) != 0;
            Span l{pid,
                   "link " + std::to_string(put ? pid : y.peer) + "->" + std::to_string(put ? y.peer : pid),
                   s.name,
                   "link",
                   y.xfer_start,
                   y.xfer_end - y.xfer_start};
            out.timeline.spans.push_back(std::move(l));
          }
          break;
        }
        case Step::Type::Submit:
          break;
      }
    }
  }
}

}  // namespace

void summarize(const std::vector<SimActor>& actors, int ranks, bool with_timeline, Prediction& out) {
  rank_figures(actors, ranks, out);
  critical_path(actors, out);
  if (with_timeline) timeline(actors, out);
}

}  // namespace ptodist::timing
