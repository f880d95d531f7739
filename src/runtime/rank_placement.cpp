// Rank threads that start a round on one CPU stay there: Linux wakes a thread on the CPU of the thread
// that woke it unless an idle CPU shares its cache, and on a VM whose CPUs share none, the rank
// threads of a round start next to the host thread's. Two that then wait for each other (a barrier)
// switch the CPU back and forth at every wait, and the load balancer never spreads threads that are
// never runnable at once: a 2-rank in-process barrier on 2 CPUs took 0.9-1.0 us a call in rounds
// where the threads ran on CPUs of their own and 3.4-3.5 us in rounds where they shared one. Starting
// each on a CPU of its own (as mpirun's default binding of 2 ranks does) helps only on free CPUs:
// one where another job's busy thread runs makes every wait there last a time slice (a barrier took
// 10-46 us a call next to a busy process). So a round spreads the threads unless a recent spread
// round saw one of them preempted; after such a round the next try waits kFirstSkip rounds, and
// four times as many after each further one.
#include "rank_placement.h"

#include <sched.h>
#include <sys/resource.h>

#include <algorithm>

namespace ptodist::runtime {
namespace {

// A preempted spread round costs far more than a stacked one saves (a time slice of the other job
// per wait), so the first retry waits kFirstSkip rounds; each further one four times as many.
constexpr int kFirstSkip = 16;
constexpr int kMaxSkip = 1024;

const cpu_set_t& process_mask() {
  static const cpu_set_t mask = [] {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) CPU_SET(0, &set);
    return set;
  }();
  return mask;
}

}  // namespace

int usable_cpus() {
  static const int count = std::max(1, CPU_COUNT(&process_mask()));
  return count;
}

long involuntary_switches() {
  rusage usage{};
  if (getrusage(RUSAGE_THREAD, &usage) != 0) return 0;
  return usage.ru_nivcsw;
}

bool RankPlacement::begin_round(int ranks) {
  spread_ = false;
  if (ranks < 2 || ranks > usable_cpus()) return false;
  if (skip_ > 0) {
    --skip_;
    return false;
  }
  spread_ = true;
  return true;
}

void RankPlacement::end_round(bool preempted) {
  if (!spread_) return;
  if (!preempted) {
    backoff_ = kFirstSkip;
    return;
  }
  skip_ = backoff_;
  backoff_ = std::min(backoff_ * 4, kMaxSkip);
}

void start_on_cpu(int index) {
  const cpu_set_t& mask = process_mask();
  int want = index % usable_cpus();
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &mask) || want-- > 0) continue;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    // The first call moves the thread at once; the second only widens where it may run again.
    if (sched_setaffinity(0, sizeof one, &one) == 0) sched_setaffinity(0, sizeof mask, &mask);
    return;
  }
}

}  // namespace ptodist::runtime
