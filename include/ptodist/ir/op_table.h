// The op table, generated from ops.def: op ids, spellings, parsed signatures, effects and levels.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ptodist::ir {

enum class OpId {
#define PTODIST_OP(Id, spelling, signature, effects, where) Id,
#include "ptodist/ir/ops.def"
#undef PTODIST_OP
};

// What an op does to memory and to the other ranks; analyses and the runtime read these.
enum OpEffect : uint32_t {
  kPure = 0,
  kReadsGM = 1u << 0,       // reads local GM or the local window
  kWritesGM = 1u << 1,      // writes local GM or the local window
  kReadsRemote = 1u << 2,   // reads a peer's window
  kWritesRemote = 1u << 3,  // writes a peer's window
  kNotify = 1u << 4,        // writes a peer's signal cell
  kWait = 1u << 5,          // blocks on a local signal cell
  kFence = 1u << 6,         // GM release fence
  kInvalidate = 1u << 7,    // cache invalidate
  kSession = 1u << 8,       // builds an async DMA session
  kAsyncIssue = 1u << 9,    // issues a DMA transfer, returns an event
  kAsyncWait = 1u << 10,    // blocks until an event completes
  kAsyncTest = 1u << 11,    // polls an event
  kPrefetch = 1u << 12,     // async prefetch: uses the DMA channel group a session would use
  kSubmit = 1u << 13,       // submits a kernel
  kDeferWait = 1u << 14,    // registers a local signal cell as a condition of its task's completion
};

// Function levels an op may be called from.
enum OpLevel : uint32_t {
  kInKernel = 1u << 0,
  kInOrchestration = 1u << 1,
  kInHost = 1u << 2,
  kAnywhere = kInKernel | kInOrchestration | kInHost,
};

struct OpParam {
  std::string name;
  bool required = true;
  std::string default_text;  // "pl.Mem.Vec"; empty when required
};

struct OpInfo {
  OpId id;
  std::string spelling;         // "pld.tensor.put_async"
  std::vector<OpParam> params;  // fixed parameters, in order
  int varargs_at = -1;          // index in params before which `*args` stands, or -1
  int kwonly_at = -1;           // index of the first keyword-only parameter (after a bare `*`), or -1
  uint32_t effects = kPure;
  uint32_t levels = kAnywhere;

  bool has(OpEffect e) const { return (effects & e) != 0; }
  // Index of the parameter called `name`, or -1.
  int param_index(std::string_view name) const;
  // How many leading parameters a call may pass positionally.
  size_t positional_limit() const;
  // True for another spelling of op `id` (op_aliases.def): `pl.tile.add` of `pl.add`.
  bool is_alias() const;
};

const OpInfo& op_info(OpId id);
// Looks an op up by its spelling ("pl.load", or an alias such as "pl.tile.load"); null when there is
// none. An alias's OpInfo has the id of its op, its own spelling and its own parameter list; a call's
// slots are always laid out as the op's (slot_of says where each parameter of the spelling goes).
const OpInfo* find_op(std::string_view spelling);
// The slot of parameter i of `spelling` (an op or an alias): the op's parameter of the same name, else
// the op's parameter i (an alias renames by position: pl.tile.exp(tile) is pl.exp(input); it may also
// skip some, as pl.tile.matmul_acc(acc, lhs, rhs, init_cond) skips a_trans and b_trans).
size_t slot_of(const OpInfo& spelling, size_t i);
// The ops, indexed by id (canonical spellings only), and the aliases.
const std::vector<OpInfo>& all_ops();
const std::vector<OpInfo>& all_aliases();

}  // namespace ptodist::ir
