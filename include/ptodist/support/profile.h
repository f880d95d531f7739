// A chip profile: core counts, on-chip memory sizes, DMA engines and timing parameters, kept as data
// (profiles/<name>.json) so the compiler, the runtime and the timing model read the same figures.
#pragma once

#include <optional>
#include <string>

namespace ptodist {

struct ChipProfile {
  std::string name = "a2a3";
  int cube_cores = 24;           // AIC
  int vector_cores = 48;         // AIV
  long long ub_bytes = 188416;   // usable for Vec tiles, per vector core
  long long l1_bytes = 524288;   // Mat
  long long l0a_bytes = 65536;   // Left
  long long l0b_bytes = 65536;   // Right
  long long l0c_bytes = 131072;  // Acc
  long long bias_bytes = 1024;   // Bias (the cube's bias table)
  int dma_engines = 1;           // per chip
  int dma_channel_groups = 8;    // sync_id range [0, 7]
  long long alignment = 32;      // bytes, for on-chip tile placement
  // The timing model's parameters live in the file's "timing" object, read by ptodist/timing
  // (docs/timing.md); this loader skips it.
};

// Loads "<dir>/<name>.json" (or a path ending in .json). The directory is `dir` when given, else the
// environment variable PTODIST_PROFILE_DIR (the runtime passes its PTODIST_PROFILE_DIR compile
// definition, the repository's profiles/). When no file is found, "a2a3" (and "") yield the built-in
// figures above. Keys are the field names; unknown keys are errors. Returns nullopt and sets `error`
// to a one-line reason on failure.
std::optional<ChipProfile> load_profile(const std::string& name_or_path, std::string* error,
                                        const std::string& dir = "");

}  // namespace ptodist
