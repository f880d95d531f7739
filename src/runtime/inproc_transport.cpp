// The in-process transport: every rank's window segments are plain host memory of this process, so
// one-sided operations are memcpy and atomics on the peer's bytes.
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <new>

#include "ptodist/runtime/world.h"
#include "ptodist/support/diagnostics.h"
#include "tile_math.h"

namespace ptodist::runtime {
namespace {

// A segment's mapping: whole pages (page-aligned, so any element alignment holds).
size_t mapped_size(long long bytes) {
  const size_t page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  const size_t n = static_cast<size_t>(bytes > 0 ? bytes : 1);
  return (n + page - 1) / page * page;
}

struct Segment {
  std::byte* data = nullptr;
  long long bytes = 0;
};

class InprocTransport final : public Transport {
 public:
  explicit InprocTransport(int ranks) : segments_(ranks) {}
  ~InprocTransport() override {
    for (auto& rank : segments_)
      for (Segment& s : rank) ::munmap(s.data, mapped_size(s.bytes));
  }

  int world_size() const override { return static_cast<int>(segments_.size()); }

  int alloc_segment(long long bytes) override {
    std::lock_guard<std::mutex> lock(mu_);
    for (auto& rank : segments_) {
      long long size = bytes > 0 ? bytes : 1;
      // Fresh anonymous pages read as zero and cost nothing until written: a window that a run
      // (or `ptodist predict`, which copies no tile data) never fills is never paged in.
      void* p =
          ::mmap(nullptr, mapped_size(size), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
      if (p == MAP_FAILED) throw std::bad_alloc();
      rank.push_back(Segment{static_cast<std::byte*>(p), bytes});
    }
    return static_cast<int>(segments_[0].size()) - 1;
  }

  void zero_segments() override {
    for (auto& rank : segments_)
      for (Segment& s : rank) std::memset(s.data, 0, s.bytes);
  }

  std::byte* window_ptr(int rank, WindowAddr addr) override {
    PTODIST_INTERNAL_ASSERT(rank >= 0 && rank < world_size(), "window_ptr: rank out of range");
    PTODIST_INTERNAL_ASSERT(addr.segment >= 0 && addr.segment < static_cast<int>(segments_[rank].size()),
                            "window_ptr: bad segment");
    return segments_[rank][addr.segment].data + addr.offset;
  }

  void put(int peer, WindowAddr dst, const std::byte* src, long long bytes) override {
    std::memcpy(window_ptr(peer, dst), src, bytes);
  }

  void get(int peer, WindowAddr src, std::byte* dst, long long bytes) override {
    std::memcpy(dst, window_ptr(peer, src), bytes);
  }

  void accumulate(int peer, WindowAddr dst, const std::byte* src, long long count, ir::DType dtype) override {
    atomic_add_elements(window_ptr(peer, dst), src, count, dtype);
  }

  void signal(int peer, WindowAddr cell, int32_t value, bool add) override {
    std::atomic_ref<int32_t> ref(*reinterpret_cast<int32_t*>(window_ptr(peer, cell)));
    if (add)
      ref.fetch_add(value, std::memory_order_seq_cst);
    else
      ref.store(value, std::memory_order_seq_cst);
  }

 private:
  std::mutex mu_;
  std::vector<std::vector<Segment>> segments_;
};

}  // namespace

std::unique_ptr<Transport> make_inproc_transport(int ranks) {
  return std::make_unique<InprocTransport>(ranks);
}

}  // namespace ptodist::runtime
