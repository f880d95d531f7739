// Placeholder bodies of the check scheduler until its implementation lands (see scheduler.h).
#include "scheduler.h"

#include <stdexcept>

namespace ptodist::runtime::check {

class SchedulerImpl {};

Scheduler::Scheduler(World&, uint64_t) {}
Scheduler::~Scheduler() = default;

}  // namespace ptodist::runtime::check
