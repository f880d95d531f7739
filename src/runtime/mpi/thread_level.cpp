// The thread level the MPI backend asks for: MPI_THREAD_MULTIPLE only where OpenMPI's one-sided
// component is known to accept it (all ranks on one machine, osc pt2pt not selectable), since the
// level must be chosen before MPI_Init_thread and osc pt2pt fails every window under it; and, from
// the same evidence, which asynchronous transfers the issuing core starts itself.
#include "thread_level.h"

#include <mpi.h>

#include <climits>
#include <cstdlib>
#include <sstream>
#include <vector>

namespace ptodist::runtime {
namespace {

std::string value_of(const std::function<const char*(const char*)>& getenv, const char* name) {
  const char* v = getenv(name);
  return v ? std::string(v) : std::string();
}

std::vector<std::string> split_list(const std::string& list) {
  std::vector<std::string> out;
  std::stringstream in(list);
  for (std::string item; std::getline(in, item, ',');) {
    size_t b = item.find_first_not_of(" \t"), e = item.find_last_not_of(" \t");
    if (b != std::string::npos) out.push_back(item.substr(b, e - b + 1));
  }
  return out;
}

bool contains(const std::vector<std::string>& items, const char* name) {
  for (const std::string& s : items)
    if (s == name) return true;
  return false;
}

// Whether OpenMPI may pick osc pt2pt for a window, given OMPI_MCA_osc. The variable is always set by
// the time MPI starts (MpiBackend::start defaults it to "^ucx"), and the environment outranks MCA
// parameter files, so it is what OpenMPI will use. An include list picks only
// what it names. An exclude list ("^ucx", ptodist's default) leaves osc sm and osc rdma, which
// outrank pt2pt and serve any window whose ranks share a machine; once it drops either of them,
// pt2pt may be what remains (osc rdma without a shared-memory btl fails, osc sm alone needs one node).
bool osc_may_be_pt2pt(const std::string& osc) {
  if (osc.empty()) return false;
  if (osc[0] != '^') return contains(split_list(osc), "pt2pt");
  std::vector<std::string> excluded = split_list(osc.substr(1));
  if (contains(excluded, "pt2pt")) return false;
  return contains(excluded, "sm") || contains(excluded, "rdma");
}

// A decimal count of at least `least`, or -1.
long long count_of(const std::string& v, long long least = 1) {
  if (v.empty()) return -1;
  char* end = nullptr;
  long long n = std::strtoll(v.c_str(), &end, 10);
  return *end == '\0' && n >= least ? n : -1;
}

ThreadModeChoice automatic(const std::function<const char*(const char*)>& getenv) {
  long long size = count_of(value_of(getenv, "OMPI_COMM_WORLD_SIZE"));
  long long local = count_of(value_of(getenv, "OMPI_COMM_WORLD_LOCAL_SIZE"));
  std::string osc = value_of(getenv, "OMPI_MCA_osc");
  if (size < 0 || local < 0)
    return {MpiThreadMode::Serialized, "auto: not launched by OpenMPI's mpirun (no OMPI_COMM_WORLD_*)", ""};
  if (local != size)
    return {MpiThreadMode::Serialized,
            "auto: ranks on several machines (" + std::to_string(local) + " of " + std::to_string(size) +
                " here); their windows may need osc pt2pt",
            ""};
  if (osc_may_be_pt2pt(osc))
    return {MpiThreadMode::Serialized, "auto: OMPI_MCA_osc=" + osc + " may select osc pt2pt", ""};
  return {MpiThreadMode::Multiple, "auto: every rank on this machine, windows in shared memory", ""};
}

}  // namespace

ThreadModeChoice choose_thread_mode(const std::function<const char*(const char*)>& getenv) {
  std::string threads = value_of(getenv, "PTODIST_MPI_THREADS");
  bool funnel = value_of(getenv, "PTODIST_MPI_FUNNEL") == "1";
  if (funnel && !threads.empty() && threads != "auto" && threads != "funneled")
    return {MpiThreadMode::Funneled, "",
            "PTODIST_MPI_FUNNEL=1 contradicts PTODIST_MPI_THREADS=" + threads + "; set one of them"};
  if (funnel) return {MpiThreadMode::Funneled, "PTODIST_MPI_FUNNEL=1", ""};
  if (threads.empty() || threads == "auto") return automatic(getenv);
  std::string why = "PTODIST_MPI_THREADS=" + threads;
  if (threads == "funneled") return {MpiThreadMode::Funneled, why, ""};
  if (threads == "serialized") return {MpiThreadMode::Serialized, why, ""};
  if (threads == "multiple") return {MpiThreadMode::Multiple, why, ""};
  return {MpiThreadMode::Serialized, "",
          "PTODIST_MPI_THREADS must be auto, funneled, serialized or multiple, not '" + threads + "'"};
}

InlineLimitChoice choose_inline_limit(const std::function<const char*(const char*)>& getenv, long cpus) {
  constexpr long long kCopyingRputLimit = 256LL << 10;
  std::string set = value_of(getenv, "PTODIST_MPI_INLINE_BYTES");
  if (!set.empty()) {
    long long bytes = count_of(set, 0);
    if (bytes < 0)
      return {0, "", "PTODIST_MPI_INLINE_BYTES must be a byte count (0 or more), not '" + set + "'"};
    return {bytes, "PTODIST_MPI_INLINE_BYTES=" + set, ""};
  }
  std::string osc = value_of(getenv, "OMPI_MCA_osc");
  if (osc_may_be_pt2pt(osc))
    return {LLONG_MAX, "OMPI_MCA_osc=" + osc + " may select osc pt2pt, whose MPI_Rput does not copy", ""};
  long long local = count_of(value_of(getenv, "OMPI_COMM_WORLD_LOCAL_SIZE"));
  if (cpus > 0 && local >= cpus)
    return {LLONG_MAX,
            std::to_string(local) + " ranks on " + std::to_string(cpus) +
                " CPUs: no CPU for the communication thread to copy on while the core computes",
            ""};
  return {kCopyingRputLimit, "windows in osc rdma or osc sm, whose MPI_Rput copies", ""};
}

// osc sm (the component that serves MPI_Win_allocate_shared) is selectable: an include list names
// it, an exclude list does not.
static bool osc_may_be_sm(const std::string& osc) {
  if (osc.empty()) return true;
  if (osc[0] != '^') return contains(split_list(osc), "sm");
  return !contains(split_list(osc.substr(1)), "sm");
}

SharedWindowsChoice choose_shared_windows(const std::function<const char*(const char*)>& getenv) {
  std::string set = value_of(getenv, "PTODIST_MPI_SHM");
  if (set == "0") return {false, "PTODIST_MPI_SHM=0", ""};
  if (!set.empty() && set != "1" && set != "auto")
    return {false, "", "PTODIST_MPI_SHM must be auto, 1 or 0, not '" + set + "'"};
  std::string osc = value_of(getenv, "OMPI_MCA_osc");
  if (!osc_may_be_sm(osc)) return {false, "OMPI_MCA_osc=" + osc + " rules out osc sm", ""};
  return {true, "shared-memory windows when every rank shares this machine", ""};
}

int mpi_thread_level(MpiThreadMode mode) {
  switch (mode) {
    case MpiThreadMode::Funneled:
      return MPI_THREAD_FUNNELED;
    case MpiThreadMode::Serialized:
      return MPI_THREAD_SERIALIZED;
    case MpiThreadMode::Multiple:
      return MPI_THREAD_MULTIPLE;
  }
  return MPI_THREAD_SERIALIZED;
}

const char* thread_mode_name(MpiThreadMode mode) {
  switch (mode) {
    case MpiThreadMode::Funneled:
      return "funneled";
    case MpiThreadMode::Serialized:
      return "serialized";
    case MpiThreadMode::Multiple:
      return "multiple";
  }
  return "?";
}

}  // namespace ptodist::runtime
