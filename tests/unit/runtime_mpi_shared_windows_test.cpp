// The MPI backend's choice of shared-memory windows (choose_shared_windows,
// src/runtime/mpi/thread_level.h): wanted unless PTODIST_MPI_SHM=0 or OMPI_MCA_osc rules out osc sm,
// the component that serves them; any other PTODIST_MPI_SHM is an error.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "../../src/runtime/mpi/thread_level.h"

namespace ptodist::runtime {
namespace {

SharedWindowsChoice choose(const std::map<std::string, std::string>& env) {
  return choose_shared_windows([&](const char* name) -> const char* {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

TEST(MpiSharedWindows, WantedWhereOscSmMayServe) {
  EXPECT_TRUE(choose({}).wanted);
  EXPECT_TRUE(choose({{"OMPI_MCA_osc", "^ucx"}}).wanted);  // ptodist's default osc setting
  EXPECT_TRUE(choose({{"OMPI_MCA_osc", "sm,rdma"}}).wanted);
  EXPECT_TRUE(choose({{"PTODIST_MPI_SHM", "1"}}).wanted);
  EXPECT_TRUE(choose({{"PTODIST_MPI_SHM", "auto"}}).wanted);
}

TEST(MpiSharedWindows, MessagePathWhereOscSmIsRuledOutOrOff) {
  SharedWindowsChoice c = choose({{"OMPI_MCA_osc", "pt2pt"}});  // --mca osc pt2pt (TCP)
  EXPECT_FALSE(c.wanted);
  EXPECT_NE(c.why.find("osc sm"), std::string::npos);
  EXPECT_FALSE(choose({{"OMPI_MCA_osc", "^ucx,sm"}}).wanted);
  EXPECT_FALSE(choose({{"OMPI_MCA_osc", "^ucx"}, {"PTODIST_MPI_SHM", "0"}}).wanted);
  EXPECT_TRUE(choose({{"PTODIST_MPI_SHM", "0"}}).error.empty());
}

TEST(MpiSharedWindows, ABadValueIsAnError) {
  for (const char* bad : {"yes", "2", "on", " 1"}) {
    SharedWindowsChoice c = choose({{"PTODIST_MPI_SHM", bad}});
    EXPECT_EQ(c.error, std::string("PTODIST_MPI_SHM must be auto, 1 or 0, not '") + bad + "'") << bad;
  }
}

}  // namespace
}  // namespace ptodist::runtime
