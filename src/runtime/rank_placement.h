// Where the in-process runtime starts its rank threads each round (rank_placement.cpp).
#pragma once

namespace ptodist::runtime {

// The CPUs in this process's affinity mask (at least 1), read once.
int usable_cpus();

// Nanoseconds the calling thread has spent runnable but waiting for a CPU (the kernel's schedstat of
// the thread), or 0 where the kernel does not tell.
long long runqueue_wait_ns();

// Whether a rank thread that ran `wall_ns` and waited `waited_ns` of it for its CPU shared the CPU
// with another busy thread: more than a tenth of the time.
bool cpu_contended(long long waited_ns, long long wall_ns);

// Decides, round by round, whether each rank thread runs on a CPU of its own (bind_to_cpu), and
// learns from the rounds where a rank thread waited for its CPU that the CPUs are not free.
class RankPlacement {
 public:
  // Whether the round's `ranks` rank threads run spread over the CPUs.
  bool begin_round(int ranks);
  // After a round: whether any rank thread's CPU was contended during it (cpu_contended).
  void end_round(bool contended);

 private:
  bool spread_ = false;  // this round's choice
  int skip_ = 0;         // rounds left before the next try
  int backoff_ = 16;     // the skip after the next contended bound round (kFirstSkip)
};

// Binds the calling thread to the `index`-th CPU of the process's mask (modulo their count), for one
// round: the scheduler would otherwise move a rank thread that wakes up next to the one that woke it.
void bind_to_cpu(int index);
// Gives the calling thread the process's whole mask again.
void unbind_from_cpu();

}  // namespace ptodist::runtime
