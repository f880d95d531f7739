// Chip profiles: JSON files of core counts, memory sizes and timing figures, with the a2a3 figures built
// in. Lookup of a name: `dir` argument, else $PTODIST_PROFILE_DIR, as "<dir>/<name>.json"; a name
// ending in ".json" is a path. When no file is found, "a2a3" falls back to the built-in defaults.
#include "ptodist/support/profile.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

namespace ptodist {

namespace {

using Json = nlohmann::json;

// Reads key `k` into `field` when present; a wrong JSON type is an error naming the key.
template <typename T>
bool read_field(const Json& j, const char* k, T& field, std::string* error) {
  auto it = j.find(k);
  if (it == j.end()) return true;
  bool ok = std::is_same_v<T, std::string> ? it->is_string() : it->is_number();
  if (!ok) {
    if (error) *error = std::string("profile field '") + k + "' has the wrong type";
    return false;
  }
  field = it->get<T>();
  return true;
}

bool from_json(const Json& j, ChipProfile& p, std::string* error) {
  if (!j.is_object()) {
    if (error) *error = "a profile must be a JSON object";
    return false;
  }
  static const char* known[] = {"name",        "cube_cores",  "vector_cores",       "ub_bytes",
                                "l1_bytes",    "l0a_bytes",   "l0b_bytes",          "l0c_bytes",
                                "bias_bytes",  "dma_engines", "dma_channel_groups", "alignment",
                                "description", "timing"};
  for (auto it = j.begin(); it != j.end(); ++it) {
    bool ok = false;
    for (const char* k : known) ok |= it.key() == k;
    if (!ok) {
      if (error) *error = "unknown profile field '" + it.key() + "'";
      return false;
    }
  }
  return read_field(j, "name", p.name, error) && read_field(j, "cube_cores", p.cube_cores, error) &&
         read_field(j, "vector_cores", p.vector_cores, error) &&
         read_field(j, "ub_bytes", p.ub_bytes, error) && read_field(j, "l1_bytes", p.l1_bytes, error) &&
         read_field(j, "l0a_bytes", p.l0a_bytes, error) && read_field(j, "l0b_bytes", p.l0b_bytes, error) &&
         read_field(j, "l0c_bytes", p.l0c_bytes, error) && read_field(j, "bias_bytes", p.bias_bytes, error) &&
         read_field(j, "dma_engines", p.dma_engines, error) &&
         read_field(j, "dma_channel_groups", p.dma_channel_groups, error) &&
         read_field(j, "alignment", p.alignment, error);
}

bool positive(const ChipProfile& p, std::string* error) {
  if (p.cube_cores > 0 && p.vector_cores > 0 && p.ub_bytes > 0 && p.dma_engines > 0 &&
      p.dma_channel_groups > 0 && p.alignment > 0)
    return true;
  if (error) *error = "profile '" + p.name + "': core counts and sizes must be positive";
  return false;
}

std::optional<ChipProfile> load_file(const std::string& path, std::string* error) {
  std::ifstream in(path);
  if (!in) {
    if (error) *error = "cannot read profile '" + path + "'";
    return std::nullopt;
  }
  Json j = Json::parse(in, nullptr, /*allow_exceptions=*/false, /*ignore_comments=*/true);
  if (j.is_discarded()) {
    if (error) *error = "profile '" + path + "' is not valid JSON";
    return std::nullopt;
  }
  ChipProfile p;
  std::string why;
  if (!from_json(j, p, &why) || !positive(p, &why)) {
    if (error) *error = path + ": " + why;
    return std::nullopt;
  }
  return p;
}

bool ends_with(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::optional<ChipProfile> load_profile(const std::string& name_or_path, std::string* error,
                                        const std::string& dir) {
  if (ends_with(name_or_path, ".json")) return load_file(name_or_path, error);
  std::string search = dir;
  if (search.empty())
    if (const char* env = std::getenv("PTODIST_PROFILE_DIR")) search = env;
  if (!search.empty()) {
    std::filesystem::path p = std::filesystem::path(search) / (name_or_path + ".json");
    std::error_code ec;
    if (std::filesystem::exists(p, ec)) return load_file(p.string(), error);
  }
  if (name_or_path == "a2a3" || name_or_path.empty()) return ChipProfile{};
  if (error)
    *error = "unknown profile '" + name_or_path + "'" +
             (search.empty() ? " (set PTODIST_PROFILE_DIR or pass a .json path)" : " in " + search);
  return std::nullopt;
}

}  // namespace ptodist
