// .npy reading and writing: byte-exact interop with files numpy wrote, round trips, and error reasons.
#include "ptodist/support/npy.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>

namespace ptodist {
namespace {

// Golden files written by numpy.save (or np.lib.format.write_array for format 2.0), bytes verbatim.
// kF32_2x3: numpy 1.24.2 np.save of <f4 shape (2, 3)
const std::string kF32_2x3(
    "\223NUMPY\001\000v\000{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }                       "
    "                                   "
    "\012\000\000\300\077\000\000\000\300\000\000P@\000\000\000\000\000\000\200\077\000\000\000@",
    152);
// kI8_v2: numpy 1.24.2 np.save of |i1 shape (3,) (format 2.0)
const std::string kI8_v2(
    "\223NUMPY\002\000t\000\000\000{'descr': '|i1', 'fortran_order': False, 'shape': (3,), }                 "
    "                                         \012\377\002\375",
    131);
// kBool: numpy 1.24.2 np.save of |b1 shape (2,)
const std::string kBool(
    "\223NUMPY\001\000v\000{'descr': '|b1', 'fortran_order': False, 'shape': (2,), }                         "
    "                                   \012\001\000",
    130);
// kI64_scalar: numpy 1.24.2 np.save of <i8 shape ()
const std::string kI64_scalar(
    "\223NUMPY\001\000v\000{'descr': '<i8', 'fortran_order': False, 'shape': (), }                           "
    "                                   \012\007\000\000\000\000\000\000\000",
    136);
// kF16_1x2: numpy 1.24.2 np.save of <f2 shape (1, 2)
const std::string kF16_1x2(
    "\223NUMPY\001\000v\000{'descr': '<f2', 'fortran_order': False, 'shape': (1, 2), }                       "
    "                                   \012\000<\0008",
    132);
// kI32_0x4: numpy 1.24.2 np.save of <i4 shape (0, 4)
const std::string kI32_0x4(
    "\223NUMPY\001\000v\000{'descr': '<i4', 'fortran_order': False, 'shape': (0, 4), }                       "
    "                                   \012",
    128);

std::optional<NpyArray> parse(const std::string& bytes, std::string& error) {
  return parse_npy(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size(), error);
}

std::string encode(const NpyArray& a) {
  std::string error;
  const auto bytes = encode_npy(a, error);
  EXPECT_TRUE(bytes) << error;
  return bytes ? std::string(bytes->begin(), bytes->end()) : std::string();
}

// Parsing must fail with a reason containing `expect`, on one line.
void expect_error(const std::string& bytes, const std::string& expect) {
  std::string error;
  EXPECT_FALSE(parse(bytes, error));
  EXPECT_NE(error.find(expect), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos) << error;
}

TEST(Npy, ReadsNumpyFiles) {
  std::string error;
  auto f = parse(kF32_2x3, error);
  ASSERT_TRUE(f) << error;
  EXPECT_EQ(f->dtype_descr, "<f4");
  EXPECT_EQ(f->shape, (std::vector<long long>{2, 3}));
  ASSERT_EQ(f->data.size(), 24u);
  float v[6];
  std::memcpy(v, f->data.data(), 24);
  EXPECT_EQ(v[0], 1.5f);
  EXPECT_EQ(v[1], -2.0f);
  EXPECT_EQ(v[5], 2.0f);

  auto i8 = parse(kI8_v2, error);
  ASSERT_TRUE(i8) << error;
  EXPECT_EQ(i8->dtype_descr, "|i1");
  EXPECT_EQ(i8->shape, (std::vector<long long>{3}));
  EXPECT_EQ(static_cast<int8_t>(i8->data[2]), -3);

  auto scalar = parse(kI64_scalar, error);
  ASSERT_TRUE(scalar) << error;
  EXPECT_TRUE(scalar->shape.empty());
  EXPECT_EQ(scalar->element_count(), 1);
  EXPECT_EQ(scalar->data[0], 7);

  auto empty = parse(kI32_0x4, error);
  ASSERT_TRUE(empty) << error;
  EXPECT_EQ(empty->element_count(), 0);
  EXPECT_TRUE(empty->data.empty());
}

TEST(Npy, WritesWhatNumpyWrites) {
  std::string error;
  for (const std::string* golden : {&kF32_2x3, &kBool, &kI64_scalar, &kF16_1x2, &kI32_0x4}) {
    const auto a = parse(*golden, error);
    ASSERT_TRUE(a) << error;
    EXPECT_EQ(encode(*a), *golden) << a->dtype_descr;
  }
  // A version 2.0 file is read, and written back as the 1.0 file numpy.save would make.
  const auto v2 = parse(kI8_v2, error);
  ASSERT_TRUE(v2);
  const std::string v1 = encode(*v2);
  EXPECT_EQ(v1[6], 1);
  EXPECT_EQ(v1.size() % 64, 3u);  // header padded to 64, then three data bytes
}

TEST(Npy, RoundTripsEveryDtypeThroughAFile) {
  const std::string dir = testing::TempDir();
  for (const char* descr : {"<f4", "<f2", "<u2", "<i4", "<i2", "|i1", "|u1", "<i8", "|b1"}) {
    NpyArray a{descr, {3, 1, 2}, {}};
    a.data.resize(6 * static_cast<size_t>(npy_item_bytes(descr)));
    for (size_t i = 0; i < a.data.size(); ++i)
      a.data[i] = static_cast<uint8_t>(i * 37 + 1) & (descr[1] == 'b' ? 1 : 0xff);
    const std::string path = dir + "/ptodist_npy_roundtrip.npy";
    std::string error;
    ASSERT_TRUE(write_npy(path, a, error)) << error;
    const auto back = read_npy(path, error);
    ASSERT_TRUE(back) << error;
    EXPECT_EQ(back->dtype_descr, a.dtype_descr);
    EXPECT_EQ(back->shape, a.shape);
    EXPECT_EQ(back->data, a.data);
    std::remove(path.c_str());
  }
}

TEST(Npy, RejectsBadFilesWithOneLineReasons) {
  expect_error("", "bad magic");
  expect_error("PK\003\004 a zip file, not npy", "bad magic");
  expect_error(kF32_2x3.substr(0, 9), "truncated header");
  expect_error(kF32_2x3.substr(0, 60), "truncated header");
  expect_error(kF32_2x3.substr(0, kF32_2x3.size() - 1),
               "truncated data: shape (2, 3) needs 24 bytes, found 23");
  std::string v9 = kF32_2x3;
  v9[6] = 9;
  expect_error(v9, "unsupported .npy format version 9");

  auto with_header = [](const std::string& golden, const std::string& from, const std::string& to) {
    std::string s = golden;
    s.replace(s.find(from), from.size(), to);
    return s;
  };
  expect_error(with_header(kF32_2x3, "'<f4'", "'>f4'"), "unsupported dtype '>f4'");
  expect_error(with_header(kF32_2x3, "'<f4'", "'<f8'"), "unsupported dtype '<f8'");
  expect_error(with_header(kF32_2x3, "'<f4'", "[('a'"), "unsupported dtype");
  expect_error(with_header(kF32_2x3, "False", "True "), "fortran_order arrays are not supported");
  expect_error(with_header(kF32_2x3, "False", "Maybe"), "fortran_order must be True or False");
  expect_error(with_header(kF32_2x3, "(2, 3)", "(2,-3)"), "shape must be a tuple");
  expect_error(with_header(kF32_2x3, "'shape'", "'shapf'"), "unexpected key 'shapf'");
  expect_error(with_header(kF32_2x3, "(2, 3)", "(99999999999999999999,)"), "shape must be a tuple");
  expect_error(with_header(kF32_2x3, "(2, 3)", "(9999999, 9999999, 9999)"), "too large");

  std::string error;
  EXPECT_FALSE(read_npy("/nonexistent/in.npy", error));
  EXPECT_EQ(error, "/nonexistent/in.npy: cannot open for reading");
  const std::string dir = testing::TempDir();
  EXPECT_FALSE(read_npy(dir, error));
  EXPECT_NE(error.find("is a directory"), std::string::npos) << error;
}

// Random corruption of a real file never crashes the reader; it either parses or gives a reason.
TEST(Npy, SurvivesCorruptedFiles) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 3000; ++trial) {
    std::string bytes = trial % 2 ? kF32_2x3 : kI8_v2;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) bytes[rng() % bytes.size()] = static_cast<char>(rng());
    if (trial % 7 == 0) bytes.resize(rng() % bytes.size());
    std::string error;
    const auto a = parse(bytes, error);
    if (a) {
      EXPECT_EQ(static_cast<long long>(a->data.size()), a->element_count() * npy_item_bytes(a->dtype_descr));
    } else {
      EXPECT_FALSE(error.empty());
      EXPECT_EQ(error.find('\n'), std::string::npos) << error;
    }
  }
}

TEST(Npy, RefusesToWriteInconsistentArrays) {
  std::string error;
  EXPECT_FALSE(encode_npy(NpyArray{"<f4", {2, 2}, std::vector<uint8_t>(15)}, error));
  EXPECT_EQ(error, "data has 15 bytes but shape (2, 2) of <f4 needs 16");
  EXPECT_FALSE(encode_npy(NpyArray{"<c8", {1}, std::vector<uint8_t>(8)}, error));
  EXPECT_EQ(error, "unsupported dtype '<c8'");
  EXPECT_FALSE(write_npy("/nonexistent/out.npy", NpyArray{"|u1", {1}, {7}}, error));
  EXPECT_EQ(error, "/nonexistent/out.npy: cannot write");
}

// When python3 with numpy is on this machine, numpy itself loads a file we wrote (bf16 as <u2 too).
TEST(Npy, NumpyLoadsWhatWeWrite) {
  const char* python = nullptr;
  for (const char* p : {"python3", "/usr/bin/python3"}) {
    if (std::system((std::string(p) + " -c 'import numpy' >/dev/null 2>&1").c_str()) == 0) {
      python = p;
      break;
    }
  }
  if (python == nullptr) GTEST_SKIP() << "python3 with numpy not found";
  const std::string path = testing::TempDir() + "/ptodist_npy_numpy.npy";
  NpyArray a{"<i2", {2, 3}, {}};
  for (int16_t v : {1, -2, 3, -4, 5, 300}) {
    a.data.push_back(static_cast<uint8_t>(v & 0xff));
    a.data.push_back(static_cast<uint8_t>((v >> 8) & 0xff));
  }
  std::string error;
  ASSERT_TRUE(write_npy(path, a, error)) << error;
  const std::string check = std::string(python) + " -c \"import numpy as np; a = np.load('" + path +
                            "'); assert a.dtype == np.int16 and a.shape == (2, 3) and a[1, 2] == 300 and "
                            "a[0, 1] == -2\"";
  EXPECT_EQ(std::system(check.c_str()), 0);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace ptodist
