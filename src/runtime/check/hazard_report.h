// The reports of check mode's happens-before hazards (docs/checking.md): one located error naming
// the access that found the hazard, with a note at the other side, formatted as the CLI prints
// diagnostics. The headlines are fixed here so tests can match them.
#pragma once

#include <cstdint>
#include <string>

#include "ptodist/support/source.h"

namespace ptodist::runtime::check {

// One side of a hazard: who (rank and core or orchestrator name) did what (op) where (span).
struct Side {
  int rank = 0;
  std::string name;
  SourceSpan span;
  std::string op;
};

// "rank R, <name>" (a name that already starts with its rank is used as is).
std::string side_name(const Side& s);

// Bytes [begin, end) of the tensor the program calls `what`, in rank `owner`'s window or, when not
// `window`, its local GM (then counted from the tensor's first byte).
struct Bytes {
  long long begin = 0;
  long long end = 0;
  std::string what;
  int owner = 0;
  bool window = true;
};

// 1: a read of bytes whose last write is not ordered before it; `missing` says which edge is missing
// ("no wait acquires it", ...).
std::string report_unordered_read(const Side& reader, const Bytes& bytes, const Side& writer,
                                  const std::string& missing);
// 2: two unordered writes of the same bytes (two atomic adds of different kinds among them).
std::string report_write_race(const Side& writer, const Bytes& bytes, const Side& other);
// 3: a core overwrote a buffer of a transfer it issued, in flight: `buffer` says which ("the staging
// tile", ...). `session` is where the session holding the completion word was built (invalid span:
// not the scratch, or unknown).
std::string report_inflight_overwrite(const Side& core, const std::string& buffer, const Side& issue,
                                      const SourceSpan& session, int sync_id);
// The words for buffers of a transfer: the scratch's completion word, a staging tile, a window range.
std::string scratch_buffer(int sync_id);
std::string window_buffer(bool source, const Bytes& bytes);
// 4: a session built on a channel group where another session's event is outstanding.
std::string report_session_reinit(int sync_id, const Side& builder, const Side& outstanding);
// 5: a wait satisfied only thanks to an earlier round's notifies. `cell` is "signal[0, 0]".
std::string report_stale_signal(const Side& waiter, int32_t seen, const std::string& cell,
                                long long this_round, const Side& notifier, int notify_round);

}  // namespace ptodist::runtime::check
