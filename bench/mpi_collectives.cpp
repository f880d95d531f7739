// MPI's own collectives, timed the way bench/collectives.py times ptodist's (bench/collectives_bench.sh):
//   mpirun -np N mpi_collectives COLLECTIVE BLOCK_BYTES ITERS ROUNDS
// Each round: MPI_Barrier, then ITERS back-to-back calls; the round's time is the slowest rank's. Prints
// the median and the minimum over ROUNDS (after one warm-up round) of the round time divided by ITERS,
// in seconds.
// COLLECTIVE: allreduce allgather reduce_scatter all_to_all all_to_all_v broadcast barrier; BLOCK_BYTES
// as in collectives.py (the allreduce vector, one rank's allgather contribution, one reduce_scatter
// block, one all_to_all pair's block, the broadcast message).
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

namespace {

// The loop body for `name` on buffers sized for `count` floats per block; empty when unknown.
std::function<void()> collective(const std::string& name, int count, int nranks, std::vector<float>& send,
                                 std::vector<float>& recv, std::vector<int>& counts,
                                 std::vector<int>& displs) {
  send.assign(size_t(count) * nranks, 0.0f);
  recv.assign(size_t(count) * nranks, 0.0f);
  counts.assign(nranks, count);
  displs.resize(nranks);
  for (int i = 0; i < nranks; ++i) displs[i] = i * count;
  float *s = send.data(), *r = recv.data();
  if (name == "allreduce")  // in place, as ptodist's allreduce
    return [=] { MPI_Allreduce(MPI_IN_PLACE, r, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); };
  if (name == "allgather")
    return [=] { MPI_Allgather(s, count, MPI_FLOAT, r, count, MPI_FLOAT, MPI_COMM_WORLD); };
  if (name == "reduce_scatter")
    return [=] { MPI_Reduce_scatter_block(s, r, count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); };
  if (name == "all_to_all")
    return [=] { MPI_Alltoall(s, count, MPI_FLOAT, r, count, MPI_FLOAT, MPI_COMM_WORLD); };
  if (name == "all_to_all_v") {
    const int *c = counts.data(), *d = displs.data();
    return [=] { MPI_Alltoallv(s, c, d, MPI_FLOAT, r, c, d, MPI_FLOAT, MPI_COMM_WORLD); };
  }
  if (name == "broadcast") return [=] { MPI_Bcast(r, count, MPI_FLOAT, 0, MPI_COMM_WORLD); };
  if (name == "barrier") return [] { MPI_Barrier(MPI_COMM_WORLD); };
  return {};
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, nranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  const long bytes = argc == 5 ? std::atol(argv[2]) : -1;
  const int iters = argc == 5 ? std::atoi(argv[3]) : 0, rounds = argc == 5 ? std::atoi(argv[4]) : 0;
  std::vector<float> send, recv;
  std::vector<int> counts, displs;
  std::function<void()> call;
  if (bytes > 0 && bytes % 4 == 0 && iters > 0 && rounds > 0)
    call = collective(argv[1], static_cast<int>(bytes / 4), nranks, send, recv, counts, displs);
  if (!call) {
    if (rank == 0)
      std::fprintf(stderr, "usage: mpirun -np N mpi_collectives COLLECTIVE BLOCK_BYTES ITERS ROUNDS\n");
    MPI_Finalize();
    return 2;
  }
  std::vector<double> per_call;
  for (int round = 0; round <= rounds; ++round) {  // round 0 warms up
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime();
    for (int i = 0; i < iters; ++i) call();
    double t = MPI_Wtime() - t0, slowest = 0;
    MPI_Allreduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (round > 0) per_call.push_back(slowest / iters);
  }
  std::sort(per_call.begin(), per_call.end());
  if (rank == 0) std::printf("%.9f %.9f\n", per_call[per_call.size() / 2], per_call.front());
  MPI_Finalize();
  return 0;
}
