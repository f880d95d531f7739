// The timing model's parameters: the "timing" object of a chip profile (profiles/<name>.json), each
// parameter with its value and the public source it comes from (docs/timing.md lists them).
#pragma once

#include <map>
#include <optional>
#include <string>

namespace ptodist::timing {

struct TimingParams {
  std::string profile;  // the profile's name
  double clock_ghz = 1.8;
  // Cube unit: floating-point operations per cycle per cube core (a MAC counts two).
  double cube_flops_per_cycle_fp16 = 8192;
  double cube_flops_per_cycle_fp32 = 2048;
  double cube_flops_per_cycle_int8 = 16384;
  double vector_bytes_per_cycle = 256;  // vector unit, per vector core
  double scalar_op_cycles = 20;         // an op with no data (rank, block index, session set-up)
  // Per-core data paths (MTE2, MTE3, MTE1, FixPipe), bytes per cycle.
  double gm_to_ub_bytes_per_cycle = 114;
  double gm_to_l1_bytes_per_cycle = 114;
  double ub_to_gm_bytes_per_cycle = 114;
  double l0c_to_gm_bytes_per_cycle = 114;
  double l1_to_l0a_bytes_per_cycle = 512;
  double l1_to_l0b_bytes_per_cycle = 256;
  double l0c_to_ub_bytes_per_cycle = 512;
  double ub_to_l1_bytes_per_cycle = 256;
  // Chip-wide engines.
  double hbm_bandwidth_gbps = 1600;  // GB/s shared by every core and the SDMA engines of a chip
  double sdma_engines = 1;           // async transfer engines per chip
  double sdma_bandwidth_gbps = 56;   // one SDMA engine, GB/s
  double sdma_startup_us = 1.0;      // per transfer
  double link_bandwidth_gbps = 56;   // one direction of the link between two chips, GB/s
  double link_latency_us = 2.0;      // first byte of a remote write or read
  double notify_latency_us = 2.0;    // a notify's write reaching the peer's cell
  double wait_wake_us = 0.1;         // a satisfied wait noticing its cell
  double fence_us = 0.05;            // a fence or cache invalidate
  double task_launch_us = 5.0;       // a submitted kernel's blocks starting on their cores
  // Cores per chip of each kind: the replay places each block on a free core of its kind (from the
  // chip profile the program ran with, not from the "timing" object).
  int cube_cores = 24;
  int vector_cores = 48;
  // Where each parameter comes from, by name (the profile's "source" strings).
  std::map<std::string, std::string> sources;

  // Seconds per cycle helpers.
  double cycles_us(double cycles) const { return cycles / (clock_ghz * 1e3); }
  double bytes_us(double bytes, double bytes_per_cycle) const { return cycles_us(bytes / bytes_per_cycle); }
  static double gbps_us(double bytes, double gbps) { return bytes / (gbps * 1e3); }
};

// Reads the "timing" object of the profile `name_or_path` (a name is looked up in `dir`, else
// $PTODIST_PROFILE_DIR); every parameter must be given as {"value": x, "source": "..."}. Returns
// nullopt with a one-line reason in `error` when the file, a value or a source is missing.
std::optional<TimingParams> load_timing(const std::string& name_or_path, const std::string& dir,
                                        std::string* error);

// The parameter names, in the order docs and reports list them, with a pointer to each field.
const std::map<std::string, double TimingParams::*>& timing_fields();

}  // namespace ptodist::timing
