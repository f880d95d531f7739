// MPI for the life of the process, host-side collectives, and the gather of each rank's outputs onto
// rank 0 so the .npy files match an in-process run.
#include <mpi.h>

#include <climits>
#include <cstdlib>
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

MpiBackend* MpiBackend::start(std::string* error) {
  auto& b = instance();
  if (b) return b.get();
  // osc ucx hangs on this machine kind (docs/mpi.md); the user's own choice of osc still wins.
  setenv("OMPI_MCA_osc", "^ucx", 0);
  std::unique_ptr<MpiBackend> fresh(new MpiBackend());
  fresh->comm_ = std::make_unique<CommThread>();
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

std::string gather_host_outputs(MpiBackend& mpi, const ir::FunctionNode& host,
                                std::map<std::string, HostTensor>& args) {
  std::set<std::string> sliced = rank_sliced_params(host);
  std::string why;
  for (const ir::Param& p : host.params) {
    if (p.direction == ir::Direction::In || !sliced.count(p.var->name)) continue;
    auto it = args.find(p.var->name);
    if (it == args.end()) continue;
    HostTensor& t = it->second;
    long long total = static_cast<long long>(t.data.size());
    long long slice = t.shape.empty() || t.shape[0] != mpi.size() ? -1 : total / mpi.size();
    if (slice < 0 || slice > INT_MAX) {
      why = "output '" + p.var->name + "' cannot be gathered: it needs " + std::to_string(mpi.size()) +
            " per-rank slices of at most 2 GiB";
      continue;
    }
    std::byte* base = t.data.data();
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
  return why;
}

}  // namespace ptodist::runtime
