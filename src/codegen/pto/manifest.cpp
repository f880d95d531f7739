// The JSON manifest beside the PTO text: for each kernel its parameters in signature order (each
// DistributedTensor followed by its CommContext pointer), its memory plan, and whether it drives the SDMA
// engine (enable_sdma), which the runtime must provision before launching it.
#include "manifest.h"

#include <nlohmann/json.hpp>

namespace ptodist::codegen::pto {

namespace {

using Json = nlohmann::ordered_json;  // keys in insertion order: byte-identical output

Json param_json(const ParamInfo& p, int index) {
  Json j;
  j["index"] = index;
  j["name"] = p.name;
  j["kind"] = p.kind;
  j["type"] = p.mlir_type;
  if (!p.direction.empty()) j["direction"] = p.direction;
  if (!p.dtype.empty()) j["dtype"] = p.dtype;
  if (p.kind == "Tensor" || p.kind == "DistributedTensor" || p.kind == "GMPipeBuffer") {
    Json shape = Json::array();
    for (long long d : p.shape) shape.push_back(d < 0 ? Json(nullptr) : Json(d));
    j["shape"] = shape;
  }
  if (!p.of.empty()) j["of"] = p.of;
  return j;
}

Json memory_plan_json(const KernelInfo& k) {
  Json tiles = Json::array();
  std::map<std::string, long long> peak;  // highest end address per memory
  for (const TileInfo& t : k.tiles) {
    Json j;
    j["tile"] = t.name;
    j["memory"] = t.memory;
    j["dtype"] = t.dtype;
    j["shape"] = t.shape;
    j["bytes"] = t.bytes;
    j["address"] = t.address ? Json(*t.address) : Json(nullptr);
    tiles.push_back(j);
    if (t.address) peak[t.memory] = std::max(peak[t.memory], *t.address + t.bytes);
  }
  Json usage = Json::object();
  for (const auto& [mem, bytes] : peak) usage[mem] = bytes;  // std::map: sorted by memory name
  return Json{{"tiles", tiles}, {"bytes_used", usage}};
}

}  // namespace

std::string manifest_json(const std::string& program, const ChipProfile& profile,
                          const std::vector<KernelInfo>& kernels, const std::vector<GroupInfo>& groups) {
  Json root;
  root["format"] = "ptodist-pto-manifest";
  root["version"] = 1;
  root["program"] = program;
  root["profile"] = profile.name;
  Json list = Json::array();
  for (const KernelInfo& k : kernels) {
    Json j;
    j["name"] = k.name;
    j["file"] = k.name + ".pto";
    j["kind"] = k.kind;
    j["core"] = k.core;
    j["enable_sdma"] = k.enable_sdma;
    if (k.deferred_completion) j["deferred_completion"] = true;
    if (k.enable_sdma) j["async_session"] = Json{{"sync_id", k.sync_id}, {"block_bytes", k.block_bytes}};
    Json params = Json::array();
    for (size_t i = 0; i < k.params.size(); ++i)
      params.push_back(param_json(k.params[i], static_cast<int>(i)));
    j["params"] = params;
    j["memory_plan"] = memory_plan_json(k);
    list.push_back(j);
  }
  root["kernels"] = list;
  if (!groups.empty()) {
    Json g = Json::array();
    for (const GroupInfo& gi : groups) g.push_back(Json{{"name", gi.name}, {"kernels", gi.kernels}});
    root["groups"] = g;
  }
  return root.dump(2) + "\n";
}

}  // namespace ptodist::codegen::pto
