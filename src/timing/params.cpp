// Loading the timing model's parameters from a chip profile's "timing" object: every parameter has a
// value and a source, and a profile that leaves one out is an error rather than a silent default.
#include "ptodist/timing/params.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace ptodist::timing {

const std::map<std::string, double TimingParams::*>& timing_fields() {
  static const std::map<std::string, double TimingParams::*> fields = {
      {"clock_ghz", &TimingParams::clock_ghz},
      {"cube_flops_per_cycle_fp16", &TimingParams::cube_flops_per_cycle_fp16},
      {"cube_flops_per_cycle_fp32", &TimingParams::cube_flops_per_cycle_fp32},
      {"cube_flops_per_cycle_int8", &TimingParams::cube_flops_per_cycle_int8},
      {"vector_bytes_per_cycle", &TimingParams::vector_bytes_per_cycle},
      {"scalar_op_cycles", &TimingParams::scalar_op_cycles},
      {"gm_to_ub_bytes_per_cycle", &TimingParams::gm_to_ub_bytes_per_cycle},
      {"gm_to_l1_bytes_per_cycle", &TimingParams::gm_to_l1_bytes_per_cycle},
      {"ub_to_gm_bytes_per_cycle", &TimingParams::ub_to_gm_bytes_per_cycle},
      {"l0c_to_gm_bytes_per_cycle", &TimingParams::l0c_to_gm_bytes_per_cycle},
      {"l1_to_l0a_bytes_per_cycle", &TimingParams::l1_to_l0a_bytes_per_cycle},
      {"l1_to_l0b_bytes_per_cycle", &TimingParams::l1_to_l0b_bytes_per_cycle},
      {"l0c_to_ub_bytes_per_cycle", &TimingParams::l0c_to_ub_bytes_per_cycle},
      {"ub_to_l1_bytes_per_cycle", &TimingParams::ub_to_l1_bytes_per_cycle},
      {"hbm_bandwidth_gbps", &TimingParams::hbm_bandwidth_gbps},
      {"sdma_engines", &TimingParams::sdma_engines},
      {"sdma_bandwidth_gbps", &TimingParams::sdma_bandwidth_gbps},
      {"sdma_startup_us", &TimingParams::sdma_startup_us},
      {"link_bandwidth_gbps", &TimingParams::link_bandwidth_gbps},
      {"link_latency_us", &TimingParams::link_latency_us},
      {"notify_latency_us", &TimingParams::notify_latency_us},
      {"wait_wake_us", &TimingParams::wait_wake_us},
      {"fence_us", &TimingParams::fence_us},
      {"task_launch_us", &TimingParams::task_launch_us},
  };
  return fields;
}

namespace {

std::string resolve(const std::string& name_or_path, const std::string& dir) {
  if (name_or_path.size() > 5 && name_or_path.substr(name_or_path.size() - 5) == ".json") return name_or_path;
  std::string search = dir;
  if (search.empty())
    if (const char* env = std::getenv("PTODIST_PROFILE_DIR")) search = env;
  return (std::filesystem::path(search) / (name_or_path + ".json")).string();
}

bool read_params(const nlohmann::json& timing, TimingParams& p, std::string* error) {
  for (const auto& [name, field] : timing_fields()) {
    auto it = timing.find(name);
    if (it == timing.end() || !it->is_object() || !it->contains("value") || !(*it)["value"].is_number()) {
      *error = "timing parameter '" + name + "' is missing (give {\"value\": x, \"source\": \"...\"})";
      return false;
    }
    if (!it->contains("source") || !(*it)["source"].is_string() ||
        (*it)["source"].get<std::string>().empty()) {
      *error = "timing parameter '" + name + "' has no source";
      return false;
    }
    double v = (*it)["value"].get<double>();
    if (!(v > 0) && name != "wait_wake_us" && name != "fence_us") {
      *error = "timing parameter '" + name + "' must be positive";
      return false;
    }
    p.*field = v;
    p.sources[name] = (*it)["source"].get<std::string>();
  }
  for (auto it = timing.begin(); it != timing.end(); ++it) {
    if (!timing_fields().count(it.key())) {
      *error = "unknown timing parameter '" + it.key() + "'";
      return false;
    }
  }
  return true;
}

}  // namespace

std::optional<TimingParams> load_timing(const std::string& name_or_path, const std::string& dir,
                                        std::string* error) {
  std::string path = resolve(name_or_path, dir);
  std::ifstream in(path);
  if (!in) {
    *error = "cannot read profile '" + path + "'";
    return std::nullopt;
  }
  nlohmann::json j = nlohmann::json::parse(in, nullptr, false, true);
  if (j.is_discarded() || !j.is_object()) {
    *error = "profile '" + path + "' is not a JSON object";
    return std::nullopt;
  }
  auto timing = j.find("timing");
  if (timing == j.end() || !timing->is_object()) {
    *error = "profile '" + path + "' has no \"timing\" object (docs/timing.md)";
    return std::nullopt;
  }
  TimingParams p;
  p.profile = j.value("name", name_or_path);
  std::string why;
  if (!read_params(*timing, p, &why)) {
    *error = path + ": " + why;
    return std::nullopt;
  }
  return p;
}

}  // namespace ptodist::timing
