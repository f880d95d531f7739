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

// 1: a read of window bytes [begin, end) of `what` in rank `owner`'s window whose last write is not
// ordered before it; `missing` says which edge is missing ("no wait acquires it", ...).
std::string report_unordered_read(const Side& reader, long long begin, long long end, const std::string& what,
                                  int owner, const Side& writer, const std::string& missing);
// 2: two unordered writes of the same window bytes.
std::string report_write_race(const Side& writer, long long begin, long long end, const std::string& what,
                              int owner, const Side& other);
// 3: a core overwrote a buffer of a transfer it issued, in flight: `buffer` says which ("the staging
// tile", ...). `session` is where the session holding the completion word was built (invalid span:
// not the scratch, or unknown).
std::string report_inflight_overwrite(const Side& core, const std::string& buffer, const Side& issue,
                                      const SourceSpan& session, int sync_id);
// The words for buffers of a transfer: the scratch's completion word, a staging tile, a window range.
std::string scratch_buffer(int sync_id);
std::string window_buffer(bool source, long long begin, long long end, const std::string& what, int owner);
// 4: a session built on a channel group where another session's event is outstanding.
std::string report_session_reinit(int sync_id, const Side& builder, const Side& outstanding);
// 5: a wait satisfied only thanks to an earlier round's notifies. `cell` is "signal[0, 0]".
std::string report_stale_signal(const Side& waiter, int32_t seen, const std::string& cell,
                                long long this_round, const Side& notifier, int notify_round);

}  // namespace ptodist::runtime::check
