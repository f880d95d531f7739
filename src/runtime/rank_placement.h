// Where the in-process runtime starts its rank threads each round (rank_placement.cpp).
#pragma once

namespace ptodist::runtime {

// The CPUs in this process's affinity mask (at least 1), read once.
int usable_cpus();

// Involuntary context switches of the calling thread so far: how often another runnable thread took
// its CPU.
long involuntary_switches();

// Decides, round by round, whether each rank thread starts on a CPU of its own (start_on_cpu), and
// learns from the rounds where a rank thread was preempted that the CPUs are not free.
class RankPlacement {
 public:
  // Whether the round's `ranks` rank threads start spread over the CPUs.
  bool begin_round(int ranks);
  // After a round: whether any rank thread was preempted during it.
  void end_round(bool preempted);

 private:
  bool spread_ = false;  // this round's choice
  int skip_ = 0;         // rounds left before the next try
  int backoff_ = 16;     // the skip after the next preempted spread round (kFirstSkip)
};

// Moves the calling thread to the `index`-th CPU of the process's mask (modulo their count), then
// gives it the whole mask back: the thread starts there and the scheduler stays free to move it.
void start_on_cpu(int index);

}  // namespace ptodist::runtime
