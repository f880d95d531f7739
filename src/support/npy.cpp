// .npy reading and writing: the magic, a version-dependent header length, a Python dict literal header
// ({'descr': ..., 'fortran_order': ..., 'shape': (...)}) padded to 64 bytes, then raw C-order data.
// Format reference: numpy's NEP 1 (numpy/lib/format.py documents the same layout).
#include "ptodist/support/npy.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace ptodist {
namespace {

constexpr char kMagic[] = "\x93NUMPY";
constexpr size_t kMagicLen = 6;
constexpr size_t kMaxHeader = size_t{1} << 20;  // far above any real header; stops absurd lengths
constexpr long long kMaxElements = 1LL << 46;

// Text from the file quoted in a one-line message: control bytes become '?', long text is cut.
std::string printable(std::string_view s) {
  std::string out;
  for (char c : s.substr(0, 40)) out += std::isprint(static_cast<unsigned char>(c)) ? c : '?';
  return s.size() > 40 ? out + "..." : out;
}

// The header's dict literal, parsed by a small recursive-descent reader.
struct Header {
  std::string descr;
  bool fortran_order = false;
  std::vector<long long> shape;
};

class HeaderParser {
 public:
  explicit HeaderParser(std::string_view text) : s_(text) {}

  bool parse(Header& h, std::string& error) {
    bool seen_descr = false, seen_order = false, seen_shape = false;
    if (!eat('{')) return fail(error, "expected '{'");
    while (!eat('}')) {
      std::string key;
      if (!string(key)) return fail(error, "expected a quoted key");
      if (!eat(':')) return fail(error, "expected ':' after '" + printable(key) + "'");
      if (key == "descr") {
        if (!string(h.descr)) {
          return fail(error, "unsupported dtype: a structured or non-string descr");
        }
        seen_descr = true;
      } else if (key == "fortran_order") {
        if (!boolean(h.fortran_order)) return fail(error, "fortran_order must be True or False");
        seen_order = true;
      } else if (key == "shape") {
        if (!tuple(h.shape)) return fail(error, "shape must be a tuple of non-negative integers");
        seen_shape = true;
      } else {
        return fail(error, "unexpected key '" + printable(key) + "'");
      }
      if (!eat(',') && !peek('}')) return fail(error, "expected ',' or '}'");
    }
    if (!seen_descr || !seen_order || !seen_shape)
      return fail(error, "missing 'descr', 'fortran_order' or 'shape'");
    return true;
  }

 private:
  static bool fail(std::string& error, const std::string& what) {
    error = "malformed header: " + what;
    return false;
  }
  void skip() {
    while (i_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[i_]))) ++i_;
  }
  bool peek(char c) {
    skip();
    return i_ < s_.size() && s_[i_] == c;
  }
  bool eat(char c) {
    if (!peek(c)) return false;
    ++i_;
    return true;
  }
  bool string(std::string& out) {
    skip();
    if (i_ >= s_.size() || (s_[i_] != '\'' && s_[i_] != '"')) return false;
    const char quote = s_[i_++];
    const size_t end = s_.find(quote, i_);
    if (end == std::string_view::npos) return false;
    out = std::string(s_.substr(i_, end - i_));
    i_ = end + 1;
    return true;
  }
  bool boolean(bool& out) {
    skip();
    for (const auto& [word, value] : {std::pair{"True", true}, std::pair{"False", false}}) {
      if (s_.substr(i_, std::strlen(word)) == word) {
        i_ += std::strlen(word);
        out = value;
        return true;
      }
    }
    return false;
  }
  bool integer(long long& out) {
    skip();
    if (i_ >= s_.size() || !std::isdigit(static_cast<unsigned char>(s_[i_]))) return false;
    out = 0;
    while (i_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[i_]))) {
      out = out * 10 + (s_[i_++] - '0');
      if (out > kMaxElements) return false;
    }
    if (i_ < s_.size() && s_[i_] == 'L') ++i_;  // Python 2 long suffix in old files
    return true;
  }
  bool tuple(std::vector<long long>& out) {
    if (!eat('(')) return false;
    while (!eat(')')) {
      long long v;
      if (!integer(v)) return false;
      out.push_back(v);
      if (!eat(',') && !peek(')')) return false;
    }
    return true;
  }

  std::string_view s_;
  size_t i_ = 0;
};

uint32_t read_le(const uint8_t* p, int bytes) {
  uint32_t v = 0;
  for (int i = bytes - 1; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// Number of elements of a shape, or -1 when it exceeds kMaxElements.
long long count_elements(const std::vector<long long>& shape) {
  long long n = 1;
  for (long long d : shape) {
    if (d != 0 && n > kMaxElements / d) return -1;
    n *= d;
  }
  return n;
}

std::string shape_text(const std::vector<long long>& shape) {
  std::string s = "(";
  for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

std::optional<NpyArray> fail(std::string& error, std::string message) {
  error = std::move(message);
  return std::nullopt;
}

// The header dict in numpy's own spelling (keys sorted, trailing ", ").
std::string header_dict(const NpyArray& a) {
  return "{'descr': '" + a.dtype_descr + "', 'fortran_order': False, 'shape': " + shape_text(a.shape) + ", }";
}

}  // namespace

long long NpyArray::element_count() const {
  return count_elements(shape);
}

int npy_item_bytes(std::string_view d) {
  if (d.size() != 3) return 0;
  if (d[2] == '1' && (d[0] == '|' || d[0] == '<' || d[0] == '=') &&
      (d[1] == 'i' || d[1] == 'u' || d[1] == 'b')) {
    return 1;
  }
  if (d == "<f4" || d == "<i4" || d == "<u4") return 4;
  if (d == "<f2" || d == "<i2" || d == "<u2") return 2;
  if (d == "<i8") return 8;
  return 0;
}

std::string npy_canonical_descr(std::string_view d) {
  std::string s(d);
  if (s.size() == 3 && s[2] == '1') s[0] = '|';
  return s;
}

namespace {

bool bad(std::string& error, std::string message) {
  error = std::move(message);
  return false;
}

// The header of a .npy file in bytes[0, size): its dict, where the data starts and how many bytes the
// data has. False (with `error`) when the header is malformed or not all in the buffer.
bool parse_header(const uint8_t* bytes, size_t size, Header& h, size_t& data_start, size_t& need,
                  std::string& error) {
  if (size < kMagicLen + 2 || std::memcmp(bytes, kMagic, kMagicLen) != 0)
    return bad(error, "bad magic: not a .npy file");
  const int major = bytes[6];
  if (major < 1 || major > 3) return bad(error, "unsupported .npy format version " + std::to_string(major));
  const size_t len_bytes = major == 1 ? 2 : 4;
  if (size < kMagicLen + 2 + len_bytes) return bad(error, "truncated header");
  const size_t header_len = read_le(bytes + 8, static_cast<int>(len_bytes));
  data_start = kMagicLen + 2 + len_bytes + header_len;
  if (header_len > kMaxHeader)
    return bad(error, "header length " + std::to_string(header_len) + " is too long");
  if (data_start > size) return bad(error, "truncated header");
  const std::string_view text(reinterpret_cast<const char*>(bytes) + kMagicLen + 2 + len_bytes, header_len);
  if (!HeaderParser(text).parse(h, error)) return false;
  const int item = npy_item_bytes(h.descr);
  if (item == 0) {
    return bad(error, "unsupported dtype '" + printable(h.descr) +
                          "' (supported: <f4 <f2 <u2(bf16) <i4 <u4 <i2 |i1 |u1 <i8 |b1)");
  }
  if (h.fortran_order) return bad(error, "fortran_order arrays are not supported; save a C-order array");
  const long long n = count_elements(h.shape);
  if (n < 0) return bad(error, "shape " + shape_text(h.shape) + " is too large");
  need = static_cast<size_t>(n) * item;
  return true;
}

// Up to `max` more bytes of `in` appended to `out`; false on a read error.
bool read_some(std::istream& in, std::vector<uint8_t>& out, size_t max) {
  size_t old = out.size();
  out.resize(old + max);
  try {  // libstdc++ can throw from the stream buffer on a read error even without exceptions() set
    in.read(reinterpret_cast<char*>(out.data() + old), static_cast<std::streamsize>(max));
  } catch (const std::exception&) {
    return false;
  }
  out.resize(old + static_cast<size_t>(in.gcount()));
  return !in.bad();
}

}  // namespace

std::optional<NpyArray> parse_npy(const uint8_t* bytes, size_t size, std::string& error) {
  Header h;
  size_t data_start = 0, need = 0;
  if (!parse_header(bytes, size, h, data_start, need, error)) return std::nullopt;
  if (size - data_start < need) {
    return fail(error, "truncated data: shape " + shape_text(h.shape) + " needs " + std::to_string(need) +
                           " bytes, found " + std::to_string(size - data_start));
  }
  NpyArray a;
  a.dtype_descr = npy_canonical_descr(h.descr);
  a.shape = std::move(h.shape);
  a.data.assign(bytes + data_start, bytes + data_start + need);
  return a;
}

// Reads the header, then exactly the bytes its shape needs: a device or a pipe (`/dev/zero`) is read
// no further than a file of that shape would be.
std::optional<NpyArray> read_npy(const std::string& path, std::string& error) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) return fail(error, path + ": is a directory, not a .npy file");
  std::ifstream in(path, std::ios::binary);
  if (!in) return fail(error, path + ": cannot open for reading");
  std::vector<uint8_t> bytes;
  const size_t prefix = kMagicLen + 2 + 4;  // magic, version, header length (4 bytes from version 2)
  if (!read_some(in, bytes, prefix)) return fail(error, path + ": read error");
  Header h;
  size_t data_start = 0, need = 0;
  std::string why;
  // The header length is known from the prefix (a bad one is reported by parse_header below).
  if (bytes.size() >= prefix && std::memcmp(bytes.data(), kMagic, kMagicLen) == 0) {
    size_t len = read_le(bytes.data() + 8, bytes[6] == 1 ? 2 : 4);
    size_t header_end = (bytes[6] == 1 ? 10 : 12) + std::min(len, kMaxHeader + 1);
    if (header_end > bytes.size() && !read_some(in, bytes, header_end - bytes.size()))
      return fail(error, path + ": read error");
  }
  if (!parse_header(bytes.data(), bytes.size(), h, data_start, need, why))
    return fail(error, path + ": " + why);
  size_t have = bytes.size() - data_start;
  if (need > have && !read_some(in, bytes, need - have)) return fail(error, path + ": read error");
  auto a = parse_npy(bytes.data(), bytes.size(), error);
  if (!a) error = path + ": " + error;
  return a;
}

std::optional<std::vector<uint8_t>> encode_npy(const NpyArray& a, std::string& error) {
  const int item = npy_item_bytes(a.dtype_descr);
  if (item == 0) {
    error = "unsupported dtype '" + a.dtype_descr + "'";
    return std::nullopt;
  }
  const long long n = count_elements(a.shape);
  if (n < 0 || static_cast<size_t>(n) * item != a.data.size()) {
    error = "data has " + std::to_string(a.data.size()) + " bytes but shape " + shape_text(a.shape) + " of " +
            a.dtype_descr + " needs " + std::to_string(n * item);
    return std::nullopt;
  }
  std::string dict = header_dict(NpyArray{npy_canonical_descr(a.dtype_descr), a.shape, {}});
  // numpy pads with spaces and a final newline so the data starts on a 64-byte boundary; version 1.0
  // stores the header length in 16 bits, 2.0 in 32.
  const auto pad_for = [&](size_t prefix) { return 63 - (prefix + dict.size()) % 64; };
  const bool v1 = dict.size() + pad_for(10) + 1 <= 65535;
  const size_t prefix = v1 ? 10 : 12;
  dict.append(pad_for(prefix), ' ');
  dict += '\n';
  std::vector<uint8_t> out(kMagic, kMagic + kMagicLen);
  out.push_back(v1 ? 1 : 2);
  out.push_back(0);
  for (size_t i = 0; i < prefix - 8; ++i) out.push_back(static_cast<uint8_t>(dict.size() >> (8 * i)));
  out.insert(out.end(), dict.begin(), dict.end());
  out.insert(out.end(), a.data.begin(), a.data.end());
  return out;
}

bool write_npy(const std::string& path, const NpyArray& a, std::string& error) {
  const auto bytes = encode_npy(a, error);
  if (!bytes) {
    error = path + ": " + error;
    return false;
  }
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes->data()), static_cast<std::streamsize>(bytes->size()));
  out.close();
  if (!out) {
    error = path + ": cannot write";
    return false;
  }
  return true;
}

}  // namespace ptodist
