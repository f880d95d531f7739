// Internal state of check mode's happens-before tracker (happens_before.h): actors with their clocks,
// transfers, access records, shadow memory, signal histories and in-flight buffers, and the checks
// the hooks share. Split over happens_before.cpp (actors, windows, signals) and hb_transfers.cpp.
#pragma once

#include <deque>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "happens_before.h"
#include "hazard_report.h"
#include "shadow_memory.h"
#include "signal_history.h"
#include "vector_clock.h"

namespace ptodist::runtime::check {

// One actor. Two components of its own: `comp` orders its writes (epoch `now`; a notify publishes
// them up to `released`, which only a fence advances) and `rcomp` its reads (epoch `rnow`; a notify
// publishes them all, reads need no fence). `acq` is what it acquired (waits, joins, events: used for
// its writes and released by its notifies) and `vis` the part its window reads may rely on (a wait's
// acquisition becomes visible at the next invalidate).
struct ActorState {
  bool known = false;
  int rank = 0;
  std::string name;
  int comp = -1;
  int rcomp = -1;
  uint32_t now = 1;
  uint32_t released = 0;
  uint32_t rnow = 1;
  VectorClock acq, vis;
  // The last notify: `now` then and `released` then (a write in between was published unfenced).
  uint32_t notify_now = 0;
  uint32_t notify_released = 0;

  bool own(int c) const { return c == comp || c == rcomp; }
  // Everything this actor did so far, as another actor acquires it (a join, a spawn, a transfer).
  VectorClock full() const {
    VectorClock c = acq;
    c.raise(comp, now);
    c.raise(rcomp, rnow);
    return c;
  }
};

// Who did an access, for reports.
struct Record {
  int rank = 0;
  std::string who;
  Access acc;
};

struct TransferState {
  int comp = -1;
  ActorId issuer = kDriver;
  int rank = 0;
  VectorClock clock;  // the issuer's at issue (and the session's earlier transfers)
  DmaTransfer t;
  int record = -1;        // the issue, naming the remote side
  int local_record = -1;  // the issue, naming the local side
  bool waited = false;
  // The local side in shadow memory: the issuer's window or (segment kLocalGm) its local GM.
  WindowAddr local_at() const {
    return t.local_window.segment >= 0 ? t.local_window
                                       : WindowAddr{kLocalGm, reinterpret_cast<long long>(t.local)};
  }
};

// An on-chip buffer a transfer still uses: its session's scratch.
struct InFlight {
  const std::byte* begin = nullptr;
  const std::byte* end = nullptr;
  TransferId transfer = -1;
  bool scratch = false;
};

// The issuing rank's GM range (window or local GM) a transfer reads (put) or writes (get) until its
// event is waited.
struct InFlightWindow {
  int rank = 0;
  WindowAddr at;
  long long bytes = 0;
  TransferId transfer = -1;
};

// Who performs an access being checked: an actor or a transfer's DMA, with the clock ordering it.
struct Accessor {
  const ActorState* actor = nullptr;   // null for a transfer
  const TransferState* dma = nullptr;  // null for an actor
  const VectorClock* clock = nullptr;
  Epoch epoch;  // the epoch the access is recorded with
  int record = -1;
  bool own(int c) const { return actor ? actor->own(c) : c == dma->comp; }
};

class HappensBeforeImpl {
 public:
  explicit HappensBeforeImpl(World& world) : world_(world) { reset(); }

  World& world_;
  int round_ = 0;
  bool reported_ = false;
  int next_comp_ = 0;
  std::deque<ActorState> actors_;  // by actor id + 1 (the driver first); references stay valid
  std::vector<TransferState> transfers_;
  std::vector<Record> records_;
  // Records by component and source position; one position may hold several accesses (the ops a
  // collective lowers to share the collective's span), told apart by op and tensor.
  std::map<std::tuple<int, const void*, int, int>, std::vector<int>> record_index_;
  ShadowMemory shadow_;
  SignalHistory signals_;
  std::vector<InFlight> in_flight_;
  std::vector<InFlightWindow> in_flight_windows_;
  std::vector<InFlightWindow> in_flight_dests_;  // the window bytes an unwaited transfer writes
  std::map<const AsyncSessionState*, SourceSpan> sessions_;
  // What the sets of each cross-core event released (HappensBefore::cross_core_set).
  std::map<uint64_t, VectorClock> cross_core_events_;

  void reset();
  ActorState& actor(ActorId a);
  int record(int comp, const ActorState& a, const Access& acc);
  void report(std::string text);

  Side side_of(int record) const;
  static Side side_of(const ActorState& a, const Access& acc) {
    return Side{a.rank, a.name, acc.span, acc.op};
  }
  const TransferState* transfer_of(int comp) const;
  const ActorState* actor_of(int comp) const;
  std::string missing_edge(const ActorState* reader, const Epoch& write) const;
  // Bytes [begin, end) of segment `segment` of `owner` as a report names them; for local GM counted
  // from the first byte of the tensor `record` accessed.
  Bytes bytes_of(int owner, int segment, long long begin, long long end, const std::string& what,
                 int record) const;

  // The checks; each reports (at most once per run) and returns whether it did. `atomic`: 0 for a
  // plain write, else the kind of atomic add.
  bool check_read(const Accessor& r, int owner, WindowAddr at, long long bytes, const std::string& what);
  bool check_write(const Accessor& w, int atomic, int owner, WindowAddr at, long long bytes,
                   const std::string& what);
  void record_read(const Accessor& r, int owner, WindowAddr at, long long bytes);
  // `signal`: the write is a notify's, which keeps the cell's notify history.
  void record_write(const Accessor& w, int atomic, int owner, WindowAddr at, long long bytes,
                    bool signal = false);

  // Transfers (hb_transfers.cpp).
  static void acquire_transfer(ActorState& a, const TransferState& t);
  void check_in_flight_window(ActorState& a, int rank, WindowAddr at, long long bytes, const Access& acc);
  void check_read_of_in_flight(ActorState& a, int rank, WindowAddr at, long long bytes, const Access& acc);
  TransferId transfer_issued(ActorId issuer, const DmaTransfer& t, const Access& acc, const Access& local);
  void transfer_piece(TransferId id, long long offset, long long bytes);
  void event_waited(ActorId a, TransferId id);
  void session_initialised(ActorId a, int rank, const AsyncSessionState& s, const Access& acc);
  void tile_written(ActorId a, const std::byte* data, long long bytes, const Access& acc);
};

}  // namespace ptodist::runtime::check
