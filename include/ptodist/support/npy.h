// NumPy .npy files: read (format 1.0, 2.0 and 3.0) and write (1.0, as numpy.save does), C order only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptodist {

// One array. dtype_descr is the canonical little-endian NumPy spelling: "<f4", "<f2", "<i4", "<i2",
// "|i1", "|u1", "<i8", "|b1", or "<u2". "<u2" is how ptodist stores BF16 (raw bit patterns; NumPy has no
// bfloat16), and no other ptodist type uses it. data is the C-order element bytes, little endian.
struct NpyArray {
  std::string dtype_descr;
  std::vector<long long> shape;  // empty for a 0-d array, which holds one element
  std::vector<uint8_t> data;

  long long element_count() const;
};

// Bytes per element of a supported descr, or 0 when it is not supported. Accepts '<' or '=' for the
// one-byte types as numpy does; npy_canonical_descr gives the spelling used in NpyArray.
int npy_item_bytes(std::string_view descr);
std::string npy_canonical_descr(std::string_view descr);

// Parses a whole .npy file held in memory. On failure returns nullopt and sets `error` to a one-line
// reason ("bad magic: not a .npy file", "truncated data: ...", "unsupported dtype '>f4' ...",
// "fortran_order arrays are not supported ..."). Bytes after the data are ignored, as numpy does.
std::optional<NpyArray> parse_npy(const uint8_t* bytes, size_t size, std::string& error);

// Reads a file; errors are prefixed with the path ("in.npy: bad magic: not a .npy file").
std::optional<NpyArray> read_npy(const std::string& path, std::string& error);

// Serialises to the exact bytes numpy.save writes (format 1.0; 2.0 only when the header needs it).
// Returns nullopt and sets `error` when the descr is unsupported or data does not match the shape.
std::optional<std::vector<uint8_t>> encode_npy(const NpyArray& array, std::string& error);

// Writes a file; returns false with a one-line, path-prefixed reason on failure.
bool write_npy(const std::string& path, const NpyArray& array, std::string& error);

}  // namespace ptodist
