// Dims: the shape, strides or index of a tensor view or tile, stored inline (at most kMaxDims entries).
#pragma once

#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "ptodist/ir/type.h"

namespace ptodist::runtime {

// Values are copied on every op of an inner loop (a tile's shape travels with the tile, a view's shape
// and strides with the view); as heap vectors those copies were a fifth of the executor's own time.
// Programs cannot name more dims than kMaxDims (the frontend and the op contracts say so), so the
// length_error below is a backstop, reported like any internal error of a run, never a crash.
class Dims {
 public:
  static constexpr size_t kMaxDims = ir::kMaxDims;

  // Entries past size() are never written by a constructor nor read as values: a Dims is built on
  // every op, and zeroing all kMaxDims entries each time (with the objects that hold a Dims) showed up
  // in the executor. A copy is the implicit one, of the whole array: a fixed 72-byte copy is a few
  // vector moves (and safe on self-assignment), where copying only the live entries compiled to a
  // call of memmove.
  Dims() {}  // NOLINT: entries past size() stay unwritten on purpose
  Dims(const Dims& other) = default;
  Dims& operator=(const Dims& other) = default;
  Dims(std::initializer_list<long long> values) { assign(values.begin(), values.size()); }
  Dims(std::span<const long long> values) { assign(values.data(), values.size()); }     // NOLINT: implicit
  Dims(const std::vector<long long>& values) { assign(values.data(), values.size()); }  // NOLINT
  // `n` copies of `value`.
  Dims(size_t n, long long value) {
    check_size(n);
    size_ = n;
    std::fill_n(values_, n, value);
  }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  long long* data() { return values_; }
  const long long* data() const { return values_; }
  long long* begin() { return values_; }
  long long* end() { return values_ + size_; }
  const long long* begin() const { return values_; }
  const long long* end() const { return values_ + size_; }
  long long& operator[](size_t i) { return values_[i]; }
  long long operator[](size_t i) const { return values_[i]; }
  long long front() const { return values_[0]; }
  long long back() const { return values_[size_ - 1]; }

  void push_back(long long v) {
    check_size(size_ + 1);
    values_[size_++] = v;
  }
  void push_front(long long v) {
    check_size(size_ + 1);
    std::copy_backward(values_, values_ + size_, values_ + size_ + 1);
    values_[0] = v;
    ++size_;
  }
  void pop_front() {
    std::copy(values_ + 1, values_ + size_, values_);
    --size_;
  }
  void clear() { size_ = 0; }

  std::vector<long long> to_vector() const { return {begin(), end()}; }
  friend bool operator==(const Dims& a, const Dims& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  static void check_size(size_t n) {
    if (n > kMaxDims) [[unlikely]]
      too_many();
  }
  [[noreturn]] static void too_many() {
    throw std::length_error("a shape of more than " + std::to_string(kMaxDims) + " dims");
  }
  void assign(const long long* p, size_t n) {
    check_size(n);
    size_ = n;
    std::copy_n(p, n, values_);
  }

  long long values_[kMaxDims];
  size_t size_ = 0;
};

}  // namespace ptodist::runtime
