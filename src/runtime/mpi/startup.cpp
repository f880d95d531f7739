// Start-up arrival markers and the report of a rank that never arrived (startup.h).
#include "startup.h"

#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

namespace ptodist::runtime {
namespace {

int env_int(const char* name) {
  const char* v = std::getenv(name);
  if (!v || !*v) return -1;
  char* end = nullptr;
  long n = std::strtol(v, &end, 10);
  return *end == '\0' ? static_cast<int>(n) : -1;
}

}  // namespace

StartupMarks::StartupMarks() {
  const char* job = std::getenv("PMIX_NAMESPACE");
  rank_ = env_int("OMPI_COMM_WORLD_RANK");
  size_ = env_int("OMPI_COMM_WORLD_SIZE");
  if (!job || !*job || rank_ < 0 || size_ <= 0) return;
  all_local_ = env_int("OMPI_COMM_WORLD_LOCAL_SIZE") == size_;
  prefix_ = std::string("/dev/shm/ptodist-start-") + job + "-";
}

std::string StartupMarks::path(int rank) const {
  return prefix_ + std::to_string(rank);
}

void StartupMarks::arrive() {
  if (prefix_.empty() || !all_local_) return;
  int fd = ::open(path(rank_).c_str(), O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
  if (fd < 0) return;  // no /dev/shm: the report then cannot name the rank
  ::close(fd);
  marked_ = true;
}

void StartupMarks::leave() {
  if (!marked_) return;
  ::unlink(path(rank_).c_str());
  marked_ = false;
}

std::vector<int> StartupMarks::missing() const {
  std::vector<int> ranks;
  if (!marked_) return ranks;
  for (int r = 0; r < size_; ++r)
    if (::access(path(r).c_str(), F_OK) != 0) ranks.push_back(r);
  return ranks;
}

std::string startup_report(const StartupMarks& marks, double seconds) {
  char head[160];
  std::snprintf(head, sizeof head,
                "watchdog: rank %d: MPI start-up has not completed after %.1f s: ", marks.rank(), seconds);
  std::vector<int> missing = marks.missing();
  std::string who;
  for (size_t i = 0; i < missing.size(); ++i)
    who += (i == 0 ? "" : i + 1 == missing.size() ? " and " : ", ") + std::to_string(missing[i]);
  if (missing.empty() && marks.can_tell())
    return std::string(head) + "every rank has arrived, but MPI has not started; ending the run";
  if (missing.empty())
    return std::string(head) +
           "a peer process has not arrived (not started, stopped or crashed); ending the run";
  return std::string(head) + (missing.size() == 1 ? "rank " : "ranks ") + who +
         (missing.size() == 1 ? " has" : " have") +
         " not arrived (not started, stopped or crashed); ending the run";
}

}  // namespace ptodist::runtime
