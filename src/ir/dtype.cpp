// Element types and memory spaces: sizes, classes and the PyPTO names.
#include "ptodist/ir/dtype.h"

#include <array>
#include <utility>

namespace ptodist::ir {

namespace {

constexpr std::array<std::pair<DType, std::string_view>, 12> kDTypeNames = {{
    {DType::FP32, "FP32"},
    {DType::FP16, "FP16"},
    {DType::BF16, "BF16"},
    {DType::INT32, "INT32"},
    {DType::INT16, "INT16"},
    {DType::INT8, "INT8"},
    {DType::UINT8, "UINT8"},
    {DType::UINT16, "UINT16"},
    {DType::UINT32, "UINT32"},
    {DType::INT64, "INT64"},
    {DType::BOOL, "BOOL"},
    {DType::INDEX, "INDEX"},
}};

constexpr std::array<std::pair<Memory, std::string_view>, 6> kMemoryNames = {{
    {Memory::Vec, "Vec"},
    {Memory::Mat, "Mat"},
    {Memory::Left, "Left"},
    {Memory::Right, "Right"},
    {Memory::Acc, "Acc"},
    {Memory::Bias, "Bias"},
}};

}  // namespace

bool dtype_is_int(DType t) {
  return t == DType::INT32 || t == DType::INT16 || t == DType::INT8 || t == DType::UINT8 ||
         t == DType::UINT16 || t == DType::UINT32 || t == DType::INT64 || t == DType::INDEX;
}

std::string_view dtype_name(DType t) {
  if (t == DType::TASK_ID) return "TASK_ID";  // not in kDTypeNames: no annotation or tensor takes it
  for (const auto& [d, name] : kDTypeNames)
    if (d == t) return name;
  return "FP32";
}

std::optional<DType> dtype_from_name(std::string_view name) {
  for (const auto& [d, n] : kDTypeNames)
    if (n == name) return d;
  return std::nullopt;
}

std::string_view memory_name(Memory m) {
  for (const auto& [mem, name] : kMemoryNames)
    if (mem == m) return name;
  return "Vec";
}

std::optional<Memory> memory_from_name(std::string_view name) {
  for (const auto& [mem, n] : kMemoryNames)
    if (n == name) return mem;
  return std::nullopt;
}

}  // namespace ptodist::ir
