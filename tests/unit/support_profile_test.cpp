// Chip profiles: the built-in a2a3 figures, the files under profiles/, lookup and error reporting.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>

#include "ptodist/support/profile.h"

namespace ptodist {
namespace {

const std::string kProfiles = std::string(PTODIST_SOURCE_DIR) + "/profiles";

TEST(SupportProfile, BuiltInA2A3WithoutFiles) {
  std::string error;
  auto p = load_profile("a2a3", &error, "/nonexistent");
  ASSERT_TRUE(p) << error;
  EXPECT_EQ(p->cube_cores, 24);
  EXPECT_EQ(p->dma_channel_groups, 8);
}

TEST(SupportProfile, FilesMatchTheBuiltInAndLoadByName) {
  std::string error;
  auto file = load_profile("a2a3", &error, kProfiles);
  ASSERT_TRUE(file) << error;
  ChipProfile built_in;
  EXPECT_EQ(file->vector_cores, built_in.vector_cores);
  EXPECT_EQ(file->ub_bytes, built_in.ub_bytes);
  EXPECT_EQ(file->dma_channel_groups, built_in.dma_channel_groups);
  EXPECT_EQ(file->bias_bytes, built_in.bias_bytes);
  auto cpu = load_profile(kProfiles + "/cpu.json", &error);
  ASSERT_TRUE(cpu) << error;
  EXPECT_EQ(cpu->name, "cpu");
  EXPECT_EQ(cpu->cube_cores, 2);
}

TEST(SupportProfile, ReportsUnknownNamesAndBadFiles) {
  std::string error;
  EXPECT_FALSE(load_profile("nope", &error, kProfiles));
  EXPECT_NE(error.find("unknown profile 'nope'"), std::string::npos) << error;
  std::string path = ::testing::TempDir() + "ptodist_bad_profile.json";
  {
    std::ofstream out(path);
    out << "{\"name\": \"bad\", \"cube_cores\": \"many\"}";
  }
  EXPECT_FALSE(load_profile(path, &error));
  EXPECT_NE(error.find("'cube_cores' has the wrong type"), std::string::npos) << error;
  {
    std::ofstream out(path);
    out << "{\"name\": \"bad\", \"cube_corez\": 4}";
  }
  EXPECT_FALSE(load_profile(path, &error));
  EXPECT_NE(error.find("unknown profile field 'cube_corez'"), std::string::npos) << error;
  {
    std::ofstream out(path);
    out << "{\"name\": \"bad\", \"vector_cores\": 0}";
  }
  EXPECT_FALSE(load_profile(path, &error));
  EXPECT_NE(error.find("must be positive"), std::string::npos) << error;
  std::remove(path.c_str());
}

}  // namespace
}  // namespace ptodist
