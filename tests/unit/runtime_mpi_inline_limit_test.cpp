// The MPI backend's choice of which put_async/get_async the issuing core starts itself
// (choose_inline_limit, src/runtime/mpi/thread_level.h): every one over osc pt2pt or when the ranks
// leave no CPU for the communication thread, below 256 KiB where osc rdma or osc sm copy inside
// MPI_Rput; PTODIST_MPI_INLINE_BYTES overrides all of them.
#include <gtest/gtest.h>

#include <climits>
#include <map>
#include <string>

#include "../../src/runtime/mpi/thread_level.h"

namespace ptodist::runtime {
namespace {

// On a machine of `cpus` CPUs (64: more than any rank count here, unless a test says otherwise).
InlineLimitChoice choose(const std::map<std::string, std::string>& env, long cpus = 64) {
  return choose_inline_limit(
      [&](const char* name) -> const char* {
        auto it = env.find(name);
        return it == env.end() ? nullptr : it->second.c_str();
      },
      cpus);
}

TEST(MpiInlineLimit, CopyingComponentsHandOffLargeTransfers) {
  EXPECT_EQ(choose({{"OMPI_MCA_osc", "^ucx"}}).bytes, 256 << 10);  // ptodist's default osc setting
  EXPECT_EQ(choose({}).bytes, 256 << 10);
  EXPECT_EQ(choose({{"OMPI_MCA_osc", "rdma"}}).bytes, 256 << 10);
  EXPECT_EQ(choose({{"OMPI_MCA_osc", "^ucx,pt2pt"}}).bytes, 256 << 10);
}

TEST(MpiInlineLimit, Pt2ptStartsEveryTransferOnTheCore) {
  EXPECT_EQ(choose({{"OMPI_MCA_osc", "pt2pt"}}).bytes, LLONG_MAX);  // --mca osc pt2pt (TCP)
  EXPECT_EQ(choose({{"OMPI_MCA_osc", "rdma,pt2pt"}}).bytes, LLONG_MAX);
  InlineLimitChoice c = choose({{"OMPI_MCA_osc", "^ucx,rdma"}});  // pt2pt may be what remains
  EXPECT_EQ(c.bytes, LLONG_MAX);
  EXPECT_NE(c.why.find("pt2pt"), std::string::npos);
}

TEST(MpiInlineLimit, NoSpareCpuStartsEveryTransferOnTheCore) {
  std::map<std::string, std::string> two{{"OMPI_MCA_osc", "^ucx"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "2"}};
  EXPECT_EQ(choose(two, 4).bytes, 256 << 10);  // two CPUs to spare
  EXPECT_EQ(choose(two, 3).bytes, 256 << 10);
  InlineLimitChoice c = choose(two, 2);
  EXPECT_EQ(c.bytes, LLONG_MAX);
  EXPECT_EQ(c.why,
            "2 ranks on 2 CPUs: no CPU for the communication thread to copy on while the core computes");
  EXPECT_EQ(choose({{"OMPI_COMM_WORLD_LOCAL_SIZE", "4"}}, 2).bytes, LLONG_MAX);
  EXPECT_EQ(choose({{"OMPI_COMM_WORLD_LOCAL_SIZE", "4"}}, 0).bytes, 256 << 10);  // CPU count unknown
  EXPECT_EQ(choose({{"OMPI_COMM_WORLD_LOCAL_SIZE", "4"}, {"PTODIST_MPI_INLINE_BYTES", "0"}}, 2).bytes, 0);
}

TEST(MpiInlineLimit, EnvironmentOverrides) {
  EXPECT_EQ(choose({{"OMPI_MCA_osc", "pt2pt"}, {"PTODIST_MPI_INLINE_BYTES", "0"}}).bytes, 0);
  EXPECT_EQ(choose({{"OMPI_MCA_osc", "^ucx"}, {"PTODIST_MPI_INLINE_BYTES", "1000000000"}}).bytes, 1000000000);
  // An empty value is unset, as before.
  EXPECT_EQ(choose({{"OMPI_MCA_osc", "^ucx"}, {"PTODIST_MPI_INLINE_BYTES", ""}}).bytes, 256 << 10);
  EXPECT_TRUE(choose({{"PTODIST_MPI_INLINE_BYTES", "1000000000"}}).error.empty());
}

TEST(MpiInlineLimit, ABadCountIsAnErrorNotZero) {
  for (const char* bad : {"lots", "-1", "64k", "12 "}) {
    InlineLimitChoice c = choose({{"PTODIST_MPI_INLINE_BYTES", bad}});
    EXPECT_EQ(c.error,
              std::string("PTODIST_MPI_INLINE_BYTES must be a byte count (0 or more), not '") + bad + "'")
        << bad;
  }
}

}  // namespace
}  // namespace ptodist::runtime
