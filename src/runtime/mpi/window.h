// Internal to the MPI backend: one symmetric segment as an MPI window, shared by the synchronous
// transport calls and the asynchronous transfers (touched only by whoever holds MPI).
#pragma once

#include <mpi.h>

#include <cstddef>
#include <vector>

namespace ptodist::runtime {

struct Window {
  MPI_Win win = MPI_WIN_NULL;
  std::byte* base = nullptr;
  long long bytes = 0;
  bool dirty = false;   // puts or accumulates not yet flushed to their targets
  bool unified = true;  // MPI_WIN_UNIFIED: public and private copies are the same memory
  // A shared-memory window (MPI_Win_allocate_shared): every rank's segment mapped here, by rank;
  // empty for a window reached through messages.
  std::vector<std::byte*> peers;
};

// Completes this process's writes into `w` at every target (MPI orders a put before a later get, or
// before a signal, only through a flush).
inline void flush_if_dirty(Window& w) {
  if (!w.dirty) return;
  MPI_Win_flush_all(w.win);
  w.dirty = false;
}

}  // namespace ptodist::runtime
