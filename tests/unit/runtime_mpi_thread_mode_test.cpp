// The MPI backend's thread-level choice (src/runtime/mpi/thread_level.h): MPI_THREAD_MULTIPLE only
// when every rank shares this machine and osc pt2pt cannot serve the windows; overrides and errors.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "../../src/runtime/mpi/thread_level.h"

namespace ptodist::runtime {
namespace {

ThreadModeChoice choose(const std::map<std::string, std::string>& env) {
  return choose_thread_mode([&](const char* name) -> const char* {
    auto it = env.find(name);
    return it == env.end() ? nullptr : it->second.c_str();
  });
}

// What OpenMPI's mpirun exports for `np` ranks, `local` of them on this machine.
std::map<std::string, std::string> mpirun_env(int np, int local) {
  return {{"OMPI_COMM_WORLD_SIZE", std::to_string(np)},
          {"OMPI_COMM_WORLD_LOCAL_SIZE", std::to_string(local)},
          {"OMPI_MCA_osc", "^ucx"}};  // ptodist's default (MpiBackend::start)
}

TEST(MpiThreadMode, OneMachineGetsMultiple) {
  ThreadModeChoice c = choose(mpirun_env(4, 4));
  EXPECT_EQ(c.mode, MpiThreadMode::Multiple);
  EXPECT_TRUE(c.error.empty());
  auto env = mpirun_env(2, 2);
  env.erase("OMPI_MCA_osc");
  EXPECT_EQ(choose(env).mode, MpiThreadMode::Multiple);
  // A btl choice alone leaves osc sm for windows on one machine (checked with OpenMPI 4.1.4).
  env["OMPI_MCA_btl"] = "self,tcp";
  EXPECT_EQ(choose(env).mode, MpiThreadMode::Multiple);
}

TEST(MpiThreadMode, SeveralMachinesStaySerialized) {
  ThreadModeChoice c = choose(mpirun_env(4, 2));
  EXPECT_EQ(c.mode, MpiThreadMode::Serialized);
  EXPECT_NE(c.why.find("several machines"), std::string::npos);
}

TEST(MpiThreadMode, NotOpenMpiStaysSerialized) {
  EXPECT_EQ(choose({}).mode, MpiThreadMode::Serialized);
  EXPECT_EQ(choose({{"PMI_SIZE", "2"}}).mode, MpiThreadMode::Serialized);
  // Malformed counts are not trusted.
  EXPECT_EQ(choose({{"OMPI_COMM_WORLD_SIZE", "2"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "two"}}).mode,
            MpiThreadMode::Serialized);
}

TEST(MpiThreadMode, OscThatMaySelectPt2ptStaysSerialized) {
  for (const char* osc : {"pt2pt", "rdma,pt2pt", " sm , pt2pt", "^rdma", "^sm,ucx", "^ucx,rdma,sm"}) {
    auto env = mpirun_env(2, 2);
    env["OMPI_MCA_osc"] = osc;
    EXPECT_EQ(choose(env).mode, MpiThreadMode::Serialized) << osc;
  }
  for (const char* osc : {"rdma", "sm", "^ucx", "^pt2pt", "^pt2pt,rdma", "", "sm,rdma"}) {
    auto env = mpirun_env(2, 2);
    env["OMPI_MCA_osc"] = osc;
    EXPECT_EQ(choose(env).mode, MpiThreadMode::Multiple) << osc;
  }
}

TEST(MpiThreadMode, ExplicitOverridesWin) {
  auto env = mpirun_env(2, 2);
  env["PTODIST_MPI_THREADS"] = "serialized";
  EXPECT_EQ(choose(env).mode, MpiThreadMode::Serialized);
  env["PTODIST_MPI_THREADS"] = "funneled";
  EXPECT_EQ(choose(env).mode, MpiThreadMode::Funneled);
  env["PTODIST_MPI_THREADS"] = "auto";
  EXPECT_EQ(choose(env).mode, MpiThreadMode::Multiple);
  auto far = mpirun_env(4, 1);
  far["PTODIST_MPI_THREADS"] = "multiple";  // the user knows their osc accepts it
  EXPECT_EQ(choose(far).mode, MpiThreadMode::Multiple);
}

TEST(MpiThreadMode, FunnelSwitchMeansFunneled) {
  auto env = mpirun_env(2, 2);
  env["PTODIST_MPI_FUNNEL"] = "1";
  EXPECT_EQ(choose(env).mode, MpiThreadMode::Funneled);
  env["PTODIST_MPI_THREADS"] = "funneled";
  EXPECT_TRUE(choose(env).error.empty());
  env["PTODIST_MPI_FUNNEL"] = "0";
  env["PTODIST_MPI_THREADS"] = "auto";
  EXPECT_EQ(choose(env).mode, MpiThreadMode::Multiple);
}

TEST(MpiThreadMode, BadValuesAreErrors) {
  auto env = mpirun_env(2, 2);
  env["PTODIST_MPI_THREADS"] = "MULTIPLE";
  ThreadModeChoice c = choose(env);
  EXPECT_NE(c.error.find("must be auto, funneled, serialized or multiple, not 'MULTIPLE'"),
            std::string::npos);
  env["PTODIST_MPI_THREADS"] = "multiple";
  env["PTODIST_MPI_FUNNEL"] = "1";
  EXPECT_NE(choose(env).error.find("contradicts"), std::string::npos);
}

}  // namespace
}  // namespace ptodist::runtime
