// MPI for the life of the process, host-side collectives, and the gather of each rank's outputs onto
// rank 0 so the .npy files match an in-process run.
#include <mpi.h>

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <set>

#include "comm_thread.h"
#include "ptodist/runtime/host_io.h"
#include "ptodist/runtime/mpi.h"

namespace ptodist::runtime {

std::unique_ptr<Transport> make_mpi_transport(CommThread& comm);

namespace {

// A function-local static: destroyed at exit (also after std::exit), which finalizes MPI on its thread.
std::unique_ptr<MpiBackend>& instance() {
  static std::unique_ptr<MpiBackend> backend;
  return backend;
}

}  // namespace

bool launched_by_mpi() {
  for (const char* v : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK", "MPI_LOCALNRANKS"})
    if (std::getenv(v)) return true;
  return false;
}

MpiBackend* MpiBackend::start(std::string* error, double startup_timeout) {
  auto& b = instance();
  if (b) return b.get();
  // osc ucx hangs on this machine kind (docs/mpi.md); the user's own choice of osc still wins.
  setenv("OMPI_MCA_osc", "^ucx", 0);
  std::unique_ptr<MpiBackend> fresh(new MpiBackend());
  fresh->comm_ = std::make_unique<CommThread>(startup_timeout);
  if (!fresh->comm_->ok()) {
    if (error) *error = fresh->comm_->error();
    return nullptr;
  }
  b = std::move(fresh);
  return b.get();
}

MpiBackend* MpiBackend::get() {
  return instance().get();
}

MpiBackend::~MpiBackend() = default;

int MpiBackend::rank() const {
  return comm_->rank();
}
int MpiBackend::size() const {
  return comm_->size();
}

std::unique_ptr<Transport> MpiBackend::make_transport() {
  return make_mpi_transport(*comm_);
}

void MpiBackend::run(const std::function<void()>& fn) {
  comm_->call(fn);
}

void MpiBackend::barrier() {
  comm_->call([this] {
    MPI_Request r;
    MPI_Ibarrier(MPI_COMM_WORLD, &r);
    comm_->wait_live(r);
  });
}

bool MpiBackend::all_ok(bool ok) {
  int v = ok ? 1 : 0;
  comm_->call([&] {
    MPI_Request r;
    MPI_Iallreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD, &r);
    comm_->wait_live(r);
  });
  return v == 1;
}

namespace {

// Slice r of a tensor sliced by rank on dimension 0 comes from process r (rank 0 gathers in place).
void gather_rank_slices(MpiBackend& mpi, HostTensor& t, long long slice) {
  std::byte* base = t.bytes();
  int n = static_cast<int>(slice), rank = mpi.rank();
  mpi.comm().call([&] {
    MPI_Request r;
    if (rank == 0)
      MPI_Igather(MPI_IN_PLACE, n, MPI_BYTE, base, n, MPI_BYTE, 0, MPI_COMM_WORLD, &r);
    else
      MPI_Igather(base + rank * slice, n, MPI_BYTE, nullptr, n, MPI_BYTE, 0, MPI_COMM_WORLD, &r);
    mpi.comm().wait_live(r);
  });
}

// Any other output (`out[g, r]`, a tensor every rank writes a part of): rank 0 collects every
// process's whole copy and takes each element from the lowest rank whose copy changed it from the
// value before the round; an element no rank changed keeps it.
void merge_changed_elements(MpiBackend& mpi, HostTensor& t, const HostTensor& before) {
  const long long total = static_cast<long long>(t.data.size());
  const int ranks = mpi.size(), n = static_cast<int>(total);
  std::vector<std::byte> all(mpi.rank() == 0 ? static_cast<size_t>(total) * ranks : 0);
  mpi.comm().call([&] {
    MPI_Request r;
    MPI_Igather(t.bytes(), n, MPI_BYTE, all.data(), n, MPI_BYTE, 0, MPI_COMM_WORLD, &r);
    mpi.comm().wait_live(r);
  });
  if (mpi.rank() != 0) return;
  const long long eb = std::max(1, ir::dtype_bytes(t.dtype));
  const std::byte* init = before.data.data();
  for (long long i = 0; i + eb <= total; i += eb) {
    for (int r = 0; r < ranks; ++r) {
      const std::byte* v = all.data() + r * total + i;
      if (std::memcmp(v, init + i, eb) == 0) continue;
      std::memcpy(t.bytes() + i, v, eb);
      break;
    }
  }
}

}  // namespace

std::string gather_host_outputs(MpiBackend& mpi, const ir::FunctionNode& host,
                                std::map<std::string, HostTensor>& args,
                                const std::map<std::string, HostTensor>& before) {
  std::set<std::string> sliced = rank_sliced_params(host);
  std::string why;
  for (const ir::Param& p : host.params) {
    if (p.direction == ir::Direction::In) continue;
    auto it = args.find(p.var->name);
    if (it == args.end()) continue;
    HostTensor& t = it->second;
    long long total = static_cast<long long>(t.data.size());
    bool by_rank = sliced.count(p.var->name) && !t.shape.empty() && t.shape[0] == mpi.size();
    auto init = before.find(p.var->name);
    if (!by_rank && (init == before.end() || init->second.data.size() != t.data.size())) continue;
    long long bytes = by_rank ? total / mpi.size() : total;
    if (bytes > INT_MAX) {
      why = "output '" + p.var->name + "' cannot be gathered: it needs " +
            (by_rank ? std::to_string(mpi.size()) + " per-rank slices of" : std::string("a size of")) +
            " at most 2 GiB";
      continue;
    }
    if (by_rank)
      gather_rank_slices(mpi, t, bytes);
    else
      merge_changed_elements(mpi, t, init->second);
  }
  return why;
}

}  // namespace ptodist::runtime
