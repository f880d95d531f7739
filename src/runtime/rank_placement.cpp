// Rank threads that share a CPU stay there: Linux wakes a thread on the CPU of the thread that woke
// it unless an idle CPU shares its cache, and on a VM whose CPUs share none, the rank threads of a
// round start next to the host thread's, and a rank thread that slept wakes next to its waker. Two
// that then wait for each other (a barrier) switch the CPU back and forth at every wait, and the
// load balancer never spreads threads that are never runnable at once: a 2-rank in-process barrier
// on 2 CPUs took 0.9-1.0 us a call in rounds where the threads ran on CPUs of their own and 3.4-3.9
// us in rounds where they shared one. Binding each to a CPU of its own for the round (as mpirun
// binds 2 ranks by default) helps only on free CPUs: one where another job's busy thread runs makes
// every wait there last a time slice (10-46 us a barrier next to a busy process). So a round binds
// the threads unless, in a recent bound round, one of them waited for its CPU more than a tenth of
// the time (a kernel thread's blip is not a busy neighbour); after such a round the next try waits
// kFirstSkip rounds, and four times as many after each further one.
#include "rank_placement.h"

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace ptodist::runtime {
namespace {

// A contended bound round costs far more than an unbound one loses (a time slice of the other job
// per wait), so the first retry waits kFirstSkip rounds; each further one four times as many.
constexpr int kFirstSkip = 16;
constexpr int kMaxSkip = 1024;

// The mask the process had when the runtime first placed a thread: bound threads go back to it.
const cpu_set_t& process_mask() {
  static const cpu_set_t mask = [] {
    cpu_set_t set;
    CPU_ZERO(&set);
    if (sched_getaffinity(0, sizeof set, &set) != 0) CPU_SET(0, &set);
    return set;
  }();
  return mask;
}

// The calling thread's /proc/thread-self/schedstat, open for the thread's life (a pread costs a
// microsecond, an open several) and closed when the thread ends.
struct SchedstatFile {
  int fd = ::open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
  ~SchedstatFile() {
    if (fd >= 0) ::close(fd);
  }
};

}  // namespace

int usable_cpus() {
  static const int count = std::max(1, CPU_COUNT(&process_mask()));
  return count;
}

long long runqueue_wait_ns() {
  thread_local SchedstatFile file;
  const int fd = file.fd;
  if (fd < 0) return 0;
  // "run_ns wait_ns timeslices"
  char text[96];
  ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
  if (n <= 0) return 0;
  text[n] = '\0';
  unsigned long long run = 0, wait = 0;
  if (std::sscanf(text, "%llu %llu", &run, &wait) != 2) return 0;
  return static_cast<long long>(wait);
}

bool cpu_contended(long long waited_ns, long long wall_ns) {
  return waited_ns * 10 > wall_ns;
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

void RankPlacement::end_round(bool contended) {
  if (!spread_) return;
  if (!contended) {
    backoff_ = kFirstSkip;
    return;
  }
  skip_ = backoff_;
  backoff_ = std::min(backoff_ * 4, kMaxSkip);
}

void bind_to_cpu(int index) {
  const cpu_set_t& mask = process_mask();
  int want = index % usable_cpus();
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (!CPU_ISSET(cpu, &mask) || want-- > 0) continue;
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    sched_setaffinity(0, sizeof one, &one);
    return;
  }
}

void unbind_from_cpu() {
  sched_setaffinity(0, sizeof(cpu_set_t), &process_mask());
}

}  // namespace ptodist::runtime
