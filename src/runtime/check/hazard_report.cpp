// Wording of check mode's hazard reports: headline at the access that found the hazard, a note at
// the other side (both with source line and caret, through format_diagnostic).
#include "hazard_report.h"

#include "ptodist/support/diagnostics.h"

namespace ptodist::runtime::check {
namespace {

std::string located(const SourceSpan& span, std::string message, std::vector<Diagnostic> notes) {
  Diagnostic d;
  d.severity = Severity::Error;
  d.span = span;
  d.message = "check: " + std::move(message);
  d.notes = std::move(notes);
  return format_diagnostic(d);
}

Diagnostic note(const SourceSpan& span, std::string message) {
  Diagnostic n;
  n.severity = Severity::Note;
  n.span = span;
  n.message = std::move(message);
  return n;
}

std::string region(const Bytes& b) {
  return "bytes [" + std::to_string(b.begin) + ", " + std::to_string(b.end) + ") of '" + b.what +
         "' in rank " + std::to_string(b.owner) + (b.window ? "'s window" : "'s local GM");
}

const char* memory_kind(const Bytes& b) {
  return b.window ? "window data" : "local GM data";
}

std::string with_op(const Side& s) {
  return side_name(s) + (s.op.empty() ? "" : " (" + s.op + ")");
}

}  // namespace

std::string side_name(const Side& s) {
  if (s.name.rfind("rank ", 0) == 0) return s.name;
  return "rank " + std::to_string(s.rank) + ", " + (s.name.empty() ? "a core" : s.name);
}

std::string report_unordered_read(const Side& reader, const Bytes& bytes, const Side& writer,
                                  const std::string& missing) {
  return located(
      reader.span,
      std::string("unordered read of ") + memory_kind(bytes) + ": " + side_name(reader) + " reads " +
          region(bytes),
      {note(writer.span, "written by " + with_op(writer) + "; nothing orders that write before the read" +
                             (missing.empty() ? "" : ": " + missing))});
}

std::string report_write_race(const Side& writer, const Bytes& bytes, const Side& other) {
  return located(writer.span,
                 std::string("write/write race on ") + memory_kind(bytes) + ": " + side_name(writer) +
                     " writes " + region(bytes),
                 {note(other.span, "also written by " + with_op(other) + ", unordered with this write")});
}

std::string scratch_buffer(int sync_id) {
  return "the completion word (session scratch, sync_id=" + std::to_string(sync_id) + ")";
}

std::string window_buffer(bool source, const Bytes& bytes) {
  return std::string(source ? "the source " : "the destination ") + region(bytes);
}

std::string report_inflight_overwrite(const Side& core, const std::string& buffer, const Side& issue,
                                      const SourceSpan& session, int sync_id) {
  std::vector<Diagnostic> notes{note(issue.span, "the transfer is issued here (" + issue.op +
                                                     "); its event is not waited before the write")};
  if (session.valid())
    notes.push_back(note(session, "the session (sync_id=" + std::to_string(sync_id) +
                                      ") whose scratch holds the completion word"));
  return located(core.span,
                 "buffer of an in-flight transfer overwritten: " + side_name(core) + " writes " + buffer +
                     " while the transfer issued here is in flight",
                 std::move(notes));
}

std::string report_session_reinit(int sync_id, const Side& builder, const Side& outstanding) {
  return located(builder.span,
                 "async session re-initialised on channel group " + std::to_string(sync_id) +
                     " while another session's event is outstanding: " + side_name(builder) +
                     " builds a session on rank " + std::to_string(builder.rank) +
                     "'s sync_id=" + std::to_string(sync_id),
                 {note(outstanding.span, "outstanding event issued here by " + with_op(outstanding) +
                                             "; wait for it before building another session on sync_id=" +
                                             std::to_string(sync_id))});
}

std::string report_stale_signal(const Side& waiter, int32_t seen, const std::string& cell,
                                long long this_round, const Side& notifier, int notify_round) {
  std::string name = cell, index;
  if (size_t b = cell.find('['); b != std::string::npos) {
    name = cell.substr(0, b);
    index = " " + cell.substr(b);
  }
  return located(waiter.span,
                 "wait satisfied by a signal value left from an earlier round: " + side_name(waiter) +
                     " sees " + std::to_string(seen) + " in '" + name + "'" + index +
                     " but this round's notifies add up to only " + std::to_string(this_round),
                 {note(notifier.span, "notified in round " + std::to_string(notify_round) + " by " +
                                          with_op(notifier) + "; reset the signal before the next round")});
}

}  // namespace ptodist::runtime::check
